"""Lint rules, grouped by concern; importing this package registers them all.

TEMPORARY: the per-tool rule modules are being written in parallel with the
engine. Until they have all landed, a module of :data:`RULE_MODULES` that does
not exist yet is skipped (only ``ModuleNotFoundError`` for exactly that
module; any other import error propagates). Once every module exists, replace
the loop with plain imports.
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
)

LOADED: list[str] = []
"""The rule modules actually imported."""

for _name in RULE_MODULES:
    _qualified = f"{__name__}.{_name}"
    try:
        importlib.import_module(_qualified)
    except ModuleNotFoundError as _exc:
        if _exc.name != _qualified:
            raise
    else:
        LOADED.append(_name)
