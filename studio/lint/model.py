"""What the linter produces and how a rule is declared.

A rule is a function decorated with :func:`tool_rule` (checks one tool) or
:func:`registry_rule` (checks the registry as a whole, e.g. naming consistency
or near-duplicate tools). Rules yield :class:`Hit` objects; the engine turns
them into :class:`Finding` objects with the rule's id and configured severity,
and drops suppressed ones.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

from studio.contract.model import Registry, RegistrySettings, ToolContract

if TYPE_CHECKING:
    from studio.editing.edits import ToolEdit

PROFILES: tuple[str, ...] = ("openai-strict", "openai", "anthropic", "gemini", "mcp")


class Severity(StrEnum):
    """How bad a finding is; ordered error > warning > info."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return _RANKS[self]


_RANKS = {Severity.ERROR: 3, Severity.WARNING: 2, Severity.INFO: 1}


class Scope(StrEnum):
    TOOL = "tool"
    REGISTRY = "registry"


@dataclass(frozen=True, slots=True)
class QuickFix:
    """A mechanical fix: edits of one tool, applied through the undo stack."""

    label: str
    edits: tuple[ToolEdit, ...]


@dataclass(frozen=True, slots=True)
class Hit:
    """What a rule reports; the engine adds rule id and severity.

    Attributes:
        tool: Name of the tool concerned (None: the registry itself).
        path: JSON path inside the tool document (``summary``,
            ``parameters.properties.start_date``), empty for the whole tool.
        message: One sentence saying what is wrong and, where useful, what to do.
        related: Other tools involved (e.g. the confusable sibling).
        fix: An optional quick fix.
        severity: Overrides the rule's default severity for this hit (e.g. a
            confusable pair neither of whose descriptions tells them apart is
            an error, while one that does is only a warning).
    """

    tool: str | None
    path: str
    message: str
    related: tuple[str, ...] = ()
    fix: QuickFix | None = None
    severity: Severity | None = None


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem found by the linter."""

    rule_id: str
    category: str
    severity: Severity
    tool: str | None
    path: str
    message: str
    related: tuple[str, ...] = ()
    fix: QuickFix | None = None
    suppressed_reason: str | None = None


@dataclass(frozen=True, slots=True)
class LintContext:
    """What a rule may look at besides the tool itself."""

    registry: Registry
    settings: RegistrySettings
    profile: str
    options: dict[str, object] = field(default_factory=dict)
    """Rule options (thresholds) from the registry's lint configuration."""


ToolCheck = Callable[[ToolContract, LintContext], Iterable[Hit]]
RegistryCheck = Callable[[Registry, LintContext], Iterable[Hit]]


@dataclass(frozen=True, slots=True)
class Rule:
    """A lint rule: identity, documentation and its check."""

    id: str
    category: str
    default_severity: Severity
    rationale: str
    scope: Scope
    check: ToolCheck | RegistryCheck
    profiles: frozenset[str] | None = None
    """Profiles the rule applies to; None = all."""
    has_fix: bool = False

    def applies_to(self, profile: str) -> bool:
        return self.profiles is None or profile in self.profiles


RULES: dict[str, Rule] = {}
"""Every registered rule by id (filled when :mod:`studio.lint.rules` is imported)."""


def _register(
    scope: Scope,
    id: str,
    category: str,
    severity: Severity,
    rationale: str,
    profiles: Iterable[str] | None,
    has_fix: bool,
) -> Callable[[Callable], Callable]:
    def decorate(fn: Callable) -> Callable:
        if id in RULES:
            raise ValueError(f"lint rule {id!r} is registered twice")
        RULES[id] = Rule(
            id,
            category,
            severity,
            " ".join(rationale.split()),
            scope,
            fn,
            frozenset(profiles) if profiles is not None else None,
            has_fix,
        )
        return fn

    return decorate


def tool_rule(
    id: str,
    *,
    category: str,
    severity: Severity,
    rationale: str,
    profiles: Iterable[str] | None = None,
    has_fix: bool = False,
) -> Callable[[ToolCheck], ToolCheck]:
    """Register a per-tool rule: ``fn(tool, ctx) -> Iterable[Hit]``."""
    return _register(Scope.TOOL, id, category, severity, rationale, profiles, has_fix)


def registry_rule(
    id: str,
    *,
    category: str,
    severity: Severity,
    rationale: str,
    profiles: Iterable[str] | None = None,
    has_fix: bool = False,
) -> Callable[[RegistryCheck], RegistryCheck]:
    """Register a registry-wide rule: ``fn(registry, ctx) -> Iterable[Hit]``."""
    return _register(Scope.REGISTRY, id, category, severity, rationale, profiles, has_fix)
