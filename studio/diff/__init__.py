"""Version diff: classified changes between two registry versions (DESIGN §7).

Typical use::

    from studio.diff import diff_registries, to_markdown
    diff = diff_registries(store.load_version("orders", 3).registry,
                           store.draft_registry("orders"), a_label="v3", b_label="draft")
    diff.semver.level           # "major" | "minor" | "patch"
    diff.counts[ChangeClass.BREAKING]
    print(to_markdown(diff))
"""

from studio.diff.model import (
    CLASS_ORDER,
    BlockDiff,
    Change,
    ChangeClass,
    LintDelta,
    LintItem,
    RegistryDiff,
    RenameCandidate,
    Suggestion,
    TokenDelta,
    ToolDiff,
    ToolStatus,
    WordOp,
)
from studio.diff.registry_diff import (
    RENAME_THRESHOLD,
    detect_renames,
    diff_registries,
    lint_delta,
    token_delta,
)
from studio.diff.render import change_to_json, to_json, to_markdown, to_text
from studio.diff.schema_diff import diff_schema
from studio.diff.semver import next_semver, suggest_semver
from studio.diff.tool_diff import diff_tool, word_diff

__all__ = [
    "CLASS_ORDER",
    "RENAME_THRESHOLD",
    "BlockDiff",
    "Change",
    "ChangeClass",
    "LintDelta",
    "LintItem",
    "RegistryDiff",
    "RenameCandidate",
    "Suggestion",
    "TokenDelta",
    "ToolDiff",
    "ToolStatus",
    "WordOp",
    "change_to_json",
    "detect_renames",
    "diff_registries",
    "diff_schema",
    "diff_tool",
    "lint_delta",
    "next_semver",
    "suggest_semver",
    "to_json",
    "to_markdown",
    "to_text",
    "token_delta",
    "word_diff",
]
