"""What a version diff produces: changes, per-tool diffs, deltas and the semver suggestion.

Every change carries a stable ``rule_id`` (``schema.required-added``,
``tool.removed``, ``desc.usage-changed`` …) and a :class:`ChangeClass` from the
taxonomy of DESIGN §7. The objects are plain frozen dataclasses so the GUI,
the CLI and storage can share them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class ChangeClass(StrEnum):
    """How a change affects the model and the callers of a tool (DESIGN §7).

    ``breaking``: arguments valid before are rejected now, or a tool
    disappears. ``behavioural``: schema-compatible but changes how a model
    chooses a tool or fills its arguments. ``compatible``: additive or
    relaxing. ``metadata``: display-only (titles, tags, domain).
    """

    BREAKING = "breaking"
    BEHAVIOURAL = "behavioural"
    COMPATIBLE = "compatible"
    METADATA = "metadata"

    @property
    def rank(self) -> int:
        """Severity order: breaking 3 > behavioural 2 > compatible 1 > metadata 0."""
        return _RANKS[self]


_RANKS = {
    ChangeClass.BREAKING: 3,
    ChangeClass.BEHAVIOURAL: 2,
    ChangeClass.COMPATIBLE: 1,
    ChangeClass.METADATA: 0,
}

CLASS_ORDER: tuple[ChangeClass, ...] = (
    ChangeClass.BREAKING,
    ChangeClass.BEHAVIOURAL,
    ChangeClass.COMPATIBLE,
    ChangeClass.METADATA,
)


@dataclass(frozen=True, slots=True)
class Change:
    """One classified difference between two versions.

    Attributes:
        rule_id: Stable identifier of the kind of change (``schema.enum-value-removed``).
        klass: Its class in the taxonomy.
        tool: The tool concerned (its name in B; in A for a removed tool);
            None for registry-level changes.
        path: Where in the tool document, in the linter's dotted style
            (``parameters.properties.items.items.properties.sku``); empty for the whole tool.
        before: The old value (None when absent).
        after: The new value (None when absent).
        message: One sentence saying what changed and why it is in its class.
    """

    rule_id: str
    klass: ChangeClass
    tool: str | None
    path: str
    before: Any
    after: Any
    message: str


@dataclass(frozen=True, slots=True)
class WordOp:
    """One step of a word-level diff: ``equal``, ``insert``, ``delete`` or ``replace``."""

    op: str
    before: str
    after: str


@dataclass(frozen=True, slots=True)
class BlockDiff:
    """A changed description block with its word-level diff.

    Attributes:
        block: ``summary``, ``usage``, ``preconditions``, ``returns``,
            ``errors``, ``examples`` or ``description``.
        before: The old text.
        after: The new text.
        ops: The word diff (Latin words and single CJK characters as units).
    """

    block: str
    before: str
    after: str
    ops: tuple[WordOp, ...]


class ToolStatus(StrEnum):
    """What happened to a tool between A and B."""

    ADDED = "added"
    REMOVED = "removed"
    RENAMED = "renamed"
    CHANGED = "changed"
    UNCHANGED = "unchanged"


@dataclass(frozen=True, slots=True)
class ToolDiff:
    """The difference for one tool.

    Attributes:
        name: The tool's name in B (in A when removed).
        old_name: Its name in A (None when added).
        status: Added, removed, renamed, changed or unchanged.
        changes: Every classified change, worst first within document order.
        blocks: Word-level diffs of changed description blocks.
        rename_score: Similarity (0–1) that paired a renamed tool; None otherwise.
    """

    name: str
    old_name: str | None
    status: ToolStatus
    changes: tuple[Change, ...] = ()
    blocks: tuple[BlockDiff, ...] = ()
    rename_score: float | None = None

    @property
    def worst(self) -> ChangeClass | None:
        """The most severe class among the changes, or None when there are none."""
        if not self.changes:
            return None
        return max((c.klass for c in self.changes), key=lambda k: k.rank)

    def counts(self) -> dict[ChangeClass, int]:
        """Changes per class (every class present, zero when none)."""
        return count_changes(self.changes)


@dataclass(frozen=True, slots=True)
class RenameCandidate:
    """A removed and an added tool that look like one renamed tool.

    Attributes:
        old: Name in A.
        new: Name in B.
        score: Weighted similarity 0–1 of name, description and schema.
        name_score: Similarity of the names.
        description_score: Similarity of the rendered descriptions.
        schema_score: Similarity of the parameter sets.
        accepted: True when the diff treats the pair as a rename.
        source: ``detected`` (score over the threshold), ``confirmed`` (by
            the caller) or ``rejected`` (by the caller; then not accepted).
    """

    old: str
    new: str
    score: float
    name_score: float
    description_score: float
    schema_score: float
    accepted: bool
    source: str


@dataclass(frozen=True, slots=True)
class Suggestion:
    """The suggested semver bump and the rule ids that decided it."""

    level: str
    reasons: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class LintItem:
    """A lint finding as it appears in a delta."""

    rule_id: str
    severity: str
    tool: str | None
    path: str
    message: str


@dataclass(frozen=True, slots=True)
class LintDelta:
    """Lint findings added and fixed between A and B (same profile for both).

    Findings are matched by (rule id, tool, path); a renamed tool's findings
    in A count under its new name.
    """

    profile: str
    added: tuple[LintItem, ...]
    fixed: tuple[LintItem, ...]
    count_before: int
    count_after: int
    gone: tuple[LintItem, ...] = ()
    """Findings of removed tools: not fixed, gone with their tool."""


@dataclass(frozen=True, slots=True)
class TokenDelta:
    """Definition tokens per tool and in total, before and after.

    ``per_tool`` maps the tool's name in B (in A when removed) to
    ``(before, after)``; an absent side is 0. ``method`` says how they were
    counted: ``estimate`` (the offline heuristic) or an encoding such as
    ``o200k_base`` (exact tokens of the exported definition's parts, plus a
    fixed allowance for the provider's wrapper).
    """

    per_tool: Mapping[str, tuple[int, int]]
    total_before: int
    total_after: int
    method: str = "estimate"

    @property
    def total_delta(self) -> int:
        """``total_after - total_before``."""
        return self.total_after - self.total_before


@dataclass(frozen=True, slots=True)
class RegistryDiff:
    """The difference between two versions of a registry.

    Attributes:
        a_label: How A was named (``draft``, ``v3``, ``stable (v3)``…).
        b_label: How B was named.
        registry: The registry name (B's).
        tools: One entry per tool: B's order, removed tools after.
        registry_changes: Changes of the registry's own metadata and settings.
        renames: Rename candidates considered (accepted and not).
        counts: Changes per class over the whole diff.
        semver: The suggested bump.
        lint_delta: Findings added and fixed; None when linting was skipped.
        token_delta: Definition tokens before and after (``method`` says how).
    """

    a_label: str
    b_label: str
    registry: str
    tools: tuple[ToolDiff, ...]
    registry_changes: tuple[Change, ...]
    renames: tuple[RenameCandidate, ...]
    counts: Mapping[ChangeClass, int]
    semver: Suggestion
    lint_delta: LintDelta | None
    token_delta: TokenDelta
    _all: tuple[Change, ...] = field(default=(), repr=False, compare=False)

    @property
    def changes(self) -> tuple[Change, ...]:
        """Every change: registry-level first, then per tool."""
        return self._all

    def reaches(self, klass: ChangeClass) -> bool:
        """True when some change is at least as severe as ``klass``."""
        return any(c.klass.rank >= klass.rank for c in self._all)

    def tool(self, name: str) -> ToolDiff | None:
        """The diff of the tool called ``name`` in B (or in A when removed)."""
        return next((t for t in self.tools if t.name == name), None)


def count_changes(changes: tuple[Change, ...] | list[Change]) -> dict[ChangeClass, int]:
    """Changes per class, with every class present."""
    counts = dict.fromkeys(CLASS_ORDER, 0)
    for change in changes:
        counts[change.klass] += 1
    return counts
