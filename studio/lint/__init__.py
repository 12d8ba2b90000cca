"""The description and schema linter.

Importing this package registers every rule (:mod:`studio.lint.rules`).
Typical use::

    from studio.lint import lint_registry, Linter
    report = lint_registry(registry, profile="openai")
    linter = Linter(registry)            # then, as the user edits one tool:
    report = linter.update_tool("get_order", edited_tool)
"""

from studio.lint import rules  # noqa: F401 - registers every rule
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
    registry_rule,
    tool_rule,
)
from studio.lint.scores import COMPONENTS, ToolScores, score_tool
from studio.lint.similarity import SimilarityIndex, SimilarPair

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
    "lint_registry",
    "registry_rule",
    "rule_info",
    "score_tool",
    "similar_pairs",
    "tool_rule",
]
