"""What the linter produces and how a rule is declared.

A rule is a function decorated with :func:`tool_rule` (checks one tool) or
:func:`registry_rule` (checks the registry as a whole, e.g. naming consistency
or near-duplicate tools). Rules yield :class:`Hit` objects; the engine turns
them into :class:`Finding` objects with the rule's id and configured severity,
and drops suppressed ones.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, MutableMapping, Sequence
from dataclasses import dataclass, field, fields
from enum import StrEnum
from operator import attrgetter
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


@dataclass(frozen=True, slots=True, init=False)
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

    def __init__(
        self,
        tool: str | None,
        path: str,
        message: str,
        related: tuple[str, ...] = (),
        fix: QuickFix | None = None,
        severity: Severity | None = None,
    ) -> None:
        # The dataclass's own __init__, storing each field through its slot's setter
        # instead of object.__setattr__ (which looks the name up every time): rules
        # build one Hit per finding, 12,000 in a lint's parent for 2,000 public tools,
        # 8.5 -> 5.5 ms. The fields and defaults are the ones declared above.
        _set_hit_tool(self, tool)
        _set_hit_path(self, path)
        _set_hit_message(self, message)
        _set_hit_related(self, related)
        _set_hit_fix(self, fix)
        _set_hit_severity(self, severity)

    def __reduce__(self) -> tuple[type[Hit], tuple[object, ...]]:
        """Pickled as the constructor's arguments: a forked lint's child may send the
        hits of every confusable pair (1,848 for 2,000 public tools), and a frozen
        dataclass's default state (one ``object.__setattr__`` per field from Python)
        takes three times as long to write and to read."""
        return (Hit, (self.tool, self.path, self.message, self.related, self.fix, self.severity))


_set_hit_tool = vars(Hit)["tool"].__set__
_set_hit_path = vars(Hit)["path"].__set__
_set_hit_message = vars(Hit)["message"].__set__
_set_hit_related = vars(Hit)["related"].__set__
_set_hit_fix = vars(Hit)["fix"].__set__
_set_hit_severity = vars(Hit)["severity"].__set__


@dataclass(frozen=True, slots=True, init=False)
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

    def __init__(
        self,
        rule_id: str,
        category: str,
        severity: Severity,
        tool: str | None,
        path: str,
        message: str,
        related: tuple[str, ...] = (),
        fix: QuickFix | None = None,
        suppressed_reason: str | None = None,
    ) -> None:
        # The dataclass's own __init__ through the slots' setters, as Hit's: the
        # engine builds one per finding, 12,290 in a lint's parent for 2,000 public
        # tools, 15 -> 8 ms. The fields and defaults are the ones declared above.
        _set_rule_id(self, rule_id)
        _set_category(self, category)
        _set_severity(self, severity)
        _set_tool(self, tool)
        _set_path(self, path)
        _set_message(self, message)
        _set_related(self, related)
        _set_fix(self, fix)
        _set_suppressed_reason(self, suppressed_reason)

    def __reduce__(self) -> tuple[type[Finding], tuple[object, ...]]:
        """Pickled as the constructor's arguments, as :class:`Hit` is (a forked lint's
        child sends its rules' findings)."""
        return (Finding, _finding_fields(self))


_finding_fields = attrgetter(*(f.name for f in fields(Finding)))
_set_rule_id = vars(Finding)["rule_id"].__set__
_set_category = vars(Finding)["category"].__set__
_set_severity = vars(Finding)["severity"].__set__
_set_tool = vars(Finding)["tool"].__set__
_set_path = vars(Finding)["path"].__set__
_set_message = vars(Finding)["message"].__set__
_set_related = vars(Finding)["related"].__set__
_set_fix = vars(Finding)["fix"].__set__
_set_suppressed_reason = vars(Finding)["suppressed_reason"].__set__


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


class RuleRegistry(MutableMapping[str, Rule]):
    """Every registered rule by id, the rule modules imported on first read.

    Why lazy: the rule modules pull in jsonschema, markdown_it and large
    phrase tables (~0.7 s), while most importers of :mod:`studio.lint` (the
    editor's field markers, the Problems dock, ``studio --help``) only need
    :class:`Severity` or :data:`PROFILES`. Any read (``RULES[id]``, ``in``,
    iteration, ``len``) or write through the mapping first loads every rule,
    so callers see the same full registry as before. A rule module imported
    directly registers through :meth:`register`, which never loads the rest.
    """

    def __init__(self) -> None:
        self._rules: dict[str, Rule] = {}
        self._loaded = False

    def register(self, rule: Rule) -> None:
        """Add ``rule`` as its module is imported; ids must be unique."""
        if rule.id in self._rules:
            raise ValueError(f"lint rule {rule.id!r} is registered twice")
        self._rules[rule.id] = rule

    def _load(self) -> dict[str, Rule]:
        if not self._loaded:
            self._loaded = True  # set first: rule modules register while loading
            try:
                from studio.lint.rules import load_all  # deferred: the point

                order = load_all()
            except BaseException:
                self._loaded = False
                raise
            ordered = _in_module_order(self._rules, order)
            if list(ordered) != list(self._rules):
                # In place: the dict may be gc-frozen (a lint keeps frozen objects alive).
                self._rules.clear()
                self._rules.update(ordered)
        return self._rules

    @property
    def loaded(self) -> bool:
        """Whether the rule modules have been imported (for start-up tests)."""
        return self._loaded

    def __getitem__(self, rule_id: str) -> Rule:
        return self._load()[rule_id]

    def __setitem__(self, rule_id: str, rule: Rule) -> None:
        self._load()[rule_id] = rule

    def __delitem__(self, rule_id: str) -> None:
        del self._load()[rule_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._load())

    def __len__(self) -> int:
        return len(self._load())

    def __contains__(self, rule_id: object) -> bool:
        return rule_id in self._load()

    def __repr__(self) -> str:
        return f"RuleRegistry({len(self)} rules)"


def _in_module_order(rules: dict[str, Rule], modules: Sequence[str]) -> dict[str, Rule]:
    """``rules`` ordered as an import of every module in ``modules`` would register them.

    A rule module imported on its own before the first load (e.g. ``cost`` for
    a constant) registers early; the run and report order stays the documented
    one. A rule belongs to the listed module its check's module is, or is a
    ``<module>_…`` helper of (``security_grammar`` → ``security``); rules of
    unlisted modules keep their place at the end.
    """
    prefix = "studio.lint.rules."

    def owner(rule: Rule) -> int:
        name = getattr(rule.check, "__module__", "") or ""
        base = name[len(prefix) :] if name.startswith(prefix) else ""
        for i, module in enumerate(modules):
            if base == module or base.startswith(module + "_"):
                return i
        return len(modules)

    ranked = sorted(enumerate(rules.values()), key=lambda p: (owner(p[1]), p[0]))
    return {rule.id: rule for _, rule in ranked}


RULES: RuleRegistry = RuleRegistry()
"""Every registered rule by id (the rule modules are imported on first read)."""


def all_rules() -> list[Rule]:
    """Every rule in registration order, importing the rule modules if not yet done."""
    return list(RULES.values())


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
        RULES.register(
            Rule(
                id,
                category,
                severity,
                " ".join(rationale.split()),
                scope,
                fn,
                frozenset(profiles) if profiles is not None else None,
                has_fix,
            )
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
