"""Lint rules, grouped by concern; importing this package registers them all.

The import order is the registration order (the order rules run in and are
listed in a report's ``rule_ids``), so it is kept as written.
"""

from __future__ import annotations

# isort: off
from studio.lint.rules import naming  # noqa: F401
from studio.lint.rules import description  # noqa: F401
from studio.lint.rules import schema  # noqa: F401
from studio.lint.rules import consistency  # noqa: F401
from studio.lint.rules import security  # noqa: F401
from studio.lint.rules import cost  # noqa: F401
from studio.lint.rules import ambiguity  # noqa: F401
from studio.lint.rules import skills  # noqa: F401
from studio.lint.rules import provider  # noqa: F401

# isort: on

RULE_MODULES: tuple[str, ...] = (
    "naming",
    "description",
    "schema",
    "consistency",
    "security",
    "cost",
    "ambiguity",
    "skills",
    "provider",
)
"""The rule modules, in registration order."""
