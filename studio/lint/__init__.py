"""The description and schema linter.

Importing this package is cheap: it gives the types the UI and the CLI need
(:class:`Severity`, :class:`Finding`, :data:`PROFILES`, the rule decorators…)
from :mod:`studio.lint.model`, a leaf that imports no rule. The rules are
imported (registered) on the first read of :data:`RULES` — which the engine's
first lint does — and the engine, scores and similarity index on first access
to one of their names here (PEP 562), so the GUI's first paint and
``studio --help`` do not pay for jsonschema, markdown_it and the phrase tables.
Typical use::

    from studio.lint import lint_registry, Linter
    report = lint_registry(registry, profile="openai")
    linter = Linter(registry)            # then, as the user edits one tool:
    report = linter.update_tool("get_order", edited_tool)
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from studio.lint.model import (
    PROFILES,
    RULES,
    Finding,
    Hit,
    LintContext,
    QuickFix,
    Rule,
    Scope,
    Severity,
    all_rules,
    registry_rule,
    tool_rule,
)

if TYPE_CHECKING:
    from studio.lint.config import (
        DEFAULT_OPTIONS,
        LintConfig,
        LintConfigError,
        Suppression,
    )
    from studio.lint.engine import (
        ENGINE_RULES,
        Linter,
        LintReport,
        TokenTotals,
        lint_registry,
        rule_info,
        similar_pairs,
    )
    from studio.lint.scores import COMPONENTS, ToolScores, score_tool
    from studio.lint.similarity import SimilarityIndex, SimilarPair

_LAZY: dict[str, str] = {
    "DEFAULT_OPTIONS": "studio.lint.config",
    "LintConfig": "studio.lint.config",
    "LintConfigError": "studio.lint.config",
    "Suppression": "studio.lint.config",
    "ENGINE_RULES": "studio.lint.engine",
    "Linter": "studio.lint.engine",
    "LintReport": "studio.lint.engine",
    "TokenTotals": "studio.lint.engine",
    "lint_registry": "studio.lint.engine",
    "rule_info": "studio.lint.engine",
    "similar_pairs": "studio.lint.engine",
    "COMPONENTS": "studio.lint.scores",
    "ToolScores": "studio.lint.scores",
    "score_tool": "studio.lint.scores",
    "SimilarityIndex": "studio.lint.similarity",
    "SimilarPair": "studio.lint.similarity",
}
"""Public names whose modules are imported on first access (PEP 562)."""


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later accesses skip this hook
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "COMPONENTS",
    "DEFAULT_OPTIONS",
    "ENGINE_RULES",
    "PROFILES",
    "RULES",
    "Finding",
    "Hit",
    "LintConfig",
    "LintConfigError",
    "LintContext",
    "LintReport",
    "Linter",
    "QuickFix",
    "Rule",
    "Scope",
    "Severity",
    "SimilarPair",
    "SimilarityIndex",
    "Suppression",
    "TokenTotals",
    "ToolScores",
    "all_rules",
    "lint_registry",
    "registry_rule",
    "rule_info",
    "score_tool",
    "similar_pairs",
    "tool_rule",
]
