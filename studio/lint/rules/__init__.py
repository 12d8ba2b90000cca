"""Lint rules, grouped by concern; :func:`load_all` imports (registers) them all.

Importing this package is cheap on purpose: the rule modules pull in
jsonschema, markdown_it and large phrase tables, and the GUI and CLI import
:mod:`studio.lint` long before anything is linted. The registry
(:data:`studio.lint.model.RULES`) calls :func:`load_all` on its first read.

The order of :data:`RULE_MODULES` is the registration order (the order rules
run in and are listed in a report's ``rule_ids``), so it is kept as written.
"""

from __future__ import annotations

import importlib

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


def load_all() -> tuple[str, ...]:
    """Import every rule module (registering its rules); returns :data:`RULE_MODULES`."""
    for name in RULE_MODULES:
        importlib.import_module(f"{__name__}.{name}")
    return RULE_MODULES
