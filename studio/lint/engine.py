"""The lint engine: runs the rules over a registry, fully or one edit at a time.

:func:`lint_registry` lints a whole registry. :class:`Linter` does the same and
then keeps its results up to date as tools are inserted, replaced or removed
(:meth:`Linter.update_tool`), which is what the editor's lint-as-you-type uses:
an edit re-runs the edited tool's rules, the pairwise ambiguity checks of that
tool against its candidate neighbours (through the similarity index, never
all pairs), and the registry-wide rules (which must be O(n)).

Per-tool rules must depend only on the tool, the settings and the options; a
check that needs other tools is a registry rule. A rule that raises never
breaks linting: its failure becomes an ``internal-rule-error`` finding naming
the rule, and the traceback is logged.
"""

from __future__ import annotations

import dataclasses
import gc
import json
from collections.abc import Collection, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, cast

from studio.contract.model import Registry, RegistrySettings, ToolContract
from studio.contract.token_count import (
    ESTIMATE,
    cached_token_method,
    count_tokens,
    flush_token_cache,
)
from studio.lint.cache import memo_slots, render_cached
from studio.lint.claim import Claim
from studio.lint.config import LintConfig, Suppression
from studio.lint.model import (
    PROFILES,
    RULES,
    Finding,
    Hit,
    LintContext,
    Rule,
    Scope,
    Severity,
    ToolCheck,
)
from studio.lint.parallel import Forked, can_fork
from studio.lint.scores import ToolScores, score_tool
from studio.lint.similarity import SimilarPair
from studio.logs import logger

if TYPE_CHECKING:
    from studio.lint.rules.ambiguity import AmbiguityState


FORK_MIN_TOOLS = 500
"""Tools from which a ``parallel`` lint forks a child for part of the work
(below, forking costs more than it saves)."""

FORKED_CATEGORIES = frozenset({"security"})
"""Rule categories a ``parallel`` lint's child runs, for every tool, beside the
ambiguity index. The security rules share one scan of each tool's text (and its
matchers' warm-up, which only one process then pays); with the index that is
about half the work, so both processes end together on two cores."""

_SEVERITY_ORDER: dict[Severity, int] = {sev: -sev.rank for sev in Severity}
"""A report's sort key of each severity (worst first)."""

INTERNAL_RULE_ERROR = "internal-rule-error"
CONFIG_INVALID = "lint-config-invalid"


def _no_hits(*_args: object) -> Iterable[Hit]:
    return ()


ENGINE_RULES: dict[str, Rule] = {
    INTERNAL_RULE_ERROR: Rule(
        INTERNAL_RULE_ERROR,
        "internal",
        Severity.ERROR,
        "A lint rule failed with an exception on this input. The other rules still ran; "
        "the failure is a bug in the rule (see the log), and this tool was not checked by it.",
        Scope.TOOL,
        _no_hits,
    ),
    CONFIG_INVALID: Rule(
        CONFIG_INVALID,
        "config",
        Severity.WARNING,
        "The registry's lint configuration has an entry the engine cannot use (unknown rule "
        "id, bad severity, suppression without a reason…). That entry is ignored until fixed.",
        Scope.REGISTRY,
        _no_hits,
    ),
}
"""Findings the engine reports itself; not part of :data:`RULES`, never run."""


@cache
def _pair_rule_ids() -> frozenset[str]:
    """The ambiguity module's pair rules, imported on first use (it is a rule module)."""
    from studio.lint.rules.ambiguity import PAIR_RULE_IDS

    return PAIR_RULE_IDS


def _pair_hits(
    pairs: Iterable[SimilarPair],
    rule_ids: Collection[str] | str,
    state: AmbiguityState | None = None,
) -> Iterator[tuple[str, Hit]]:
    """:func:`studio.lint.rules.ambiguity.pair_hits`, imported on first use."""
    from studio.lint.rules.ambiguity import pair_hits

    return pair_hits(pairs, rule_ids, state)


def rule_info(rule_id: str) -> Rule | None:
    """The rule (registered or engine-internal) with this id."""
    return RULES.get(rule_id) or ENGINE_RULES.get(rule_id)


@dataclass(frozen=True, slots=True)
class TokenTotals:
    """What the tool definitions cost in tokens.

    Attributes:
        per_tool: Tokens of each tool's definition as a provider receives it.
        total: Tokens of the whole registry's definitions (sent every round).
        average: Mean tokens per tool.
        rounds: Model rounds per task assumed for ``per_task`` (``cost.rounds``).
        per_task: ``total × rounds``: definitions re-sent every round of a task.
        method: How the numbers were obtained (for the report's profile, see
            :func:`studio.contract.token_count.token_method`): an encoding
            name such as ``o200k_base`` when the parts of each definition were
            counted exactly (plus a fixed allowance for the provider's
            wrapper), else ``estimate``, the offline heuristic of
            :mod:`studio.contract.tokens`.
    """

    per_tool: Mapping[str, int]
    total: int
    average: float
    rounds: int
    per_task: int
    method: str = ESTIMATE


@dataclass(frozen=True, slots=True)
class LintReport:
    """The result of linting a registry.

    Attributes:
        registry: The registry's name.
        profile: The target profile linted for.
        findings: Active findings, sorted by severity (worst first), tool
            order in the registry (registry-level findings first), path.
        suppressed: Findings a suppression accepted, with ``suppressed_reason``.
        counts: Active findings per severity.
        scores: Component scores per tool.
        tokens: Token counts of the definitions (``tokens.method`` says how).
        similar: Pairs of tools a model may confuse (the "similar tools" view).
        rule_ids: Rules that ran (enabled and applying to the profile).
        tool_order: Tool names in registry order.
    """

    registry: str
    profile: str
    findings: tuple[Finding, ...]
    suppressed: tuple[Finding, ...]
    counts: Mapping[Severity, int]
    scores: Mapping[str, ToolScores]
    tokens: TokenTotals
    similar: tuple[SimilarPair, ...] = ()
    rule_ids: tuple[str, ...] = ()
    tool_order: tuple[str, ...] = field(default=())

    def for_tool(self, name: str) -> list[Finding]:
        """Active findings of one tool, pair findings naming it as the other tool included."""
        return [
            f
            for f in self.findings
            if f.tool == name or (f.rule_id in _pair_rule_ids() and name in f.related)
        ]

    def worst(self) -> Severity | None:
        """The highest severity among the active findings (None when clean)."""
        for sev in (Severity.ERROR, Severity.WARNING, Severity.INFO):
            if self.counts.get(sev):
                return sev
        return None

    def reaches(self, level: Severity) -> bool:
        """True when some active finding is at least as severe as ``level``."""
        worst = self.worst()
        return worst is not None and worst.rank >= level.rank


def finding_tools(f: Finding) -> tuple[str, ...]:
    """Every tool a finding is about: its tool, and for a pair finding the other one too.

    A confusable pair is one finding (counted once) shown on both tools.
    """
    if f.tool is None:
        return ()
    if f.rule_id in _pair_rule_ids():
        return (f.tool, *(t for t in f.related if t != f.tool))
    return (f.tool,)


def similar_pairs(source: LintReport | Linter) -> list[SimilarPair]:
    """The pairs of tools a model may confuse, for the "similar tools" view."""
    report = source.report if isinstance(source, Linter) else source
    return list(report.similar)


def _token_counter():
    """The cost module's per-tool token function when it offers one, else None."""
    try:
        from studio.lint.rules import cost
    except ImportError:
        return None
    fn = getattr(cost, "tool_tokens", None)
    return fn if callable(fn) else None


def _fallback_tool_tokens(tool: ToolContract, settings: RegistrySettings, profile: str) -> int:
    from studio.formats import export_tool

    value, _notes = export_tool(tool, "openai", settings)
    return count_tokens(json.dumps(value, ensure_ascii=False), profile)


@contextmanager
def _gc_paused() -> Iterator[None]:
    """Cyclic garbage collection off for a lint, as it was before afterwards.

    A full lint allocates many small objects that the per-tool cache keeps
    alive; the collector would walk the whole growing cache again and again
    (about a tenth of a cold lint) to find no cycles. Reference counting still
    frees everything else at once.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            if gc.get_freeze_count() == 0:
                # What the lint allocated lives on in the caches and the report. Moving
                # every tracked object to the oldest generation (freeze, then unfreeze:
                # two list splices) spares the next young collection a scan of all of
                # it (about 2 % of a cold lint) that would find nothing to free. Skipped
                # when someone else keeps objects frozen, which unfreeze would undo.
                gc.freeze()
                gc.unfreeze()
            gc.enable()


def _prepare_shared(tools: Iterable[ToolContract], settings: RegistrySettings) -> None:
    """Per-tool work both processes of a forking lint read, done once before the fork.

    The child's rules and ambiguity index and this process's rules all read each
    tool's rendered description, the content words of its summary, its schema
    walks and the words of its name and property names; each would otherwise be
    computed (and the word lists and per-word caches behind them warmed up) in
    both processes. Measured on 2,000 public tools: ~0.13 CPU-s here, ~0.3 CPU-s
    less in the child, the same in the parent.
    """
    from studio.lint.rules._common import all_properties, all_schemas, rendered, summary_text
    from studio.lint.text import split_identifier
    from studio.lint.wordlists import content_units

    try:
        for tool in tools:
            rendered(tool, settings)
            summary, _path = summary_text(tool)
            if summary:
                content_units(summary)
            split_identifier(tool.name)
            all_schemas(tool)
            for ref in all_properties(tool):
                split_identifier(ref.name)
    except Exception:  # only the sharing is lost: the rules meet (and report) the same input
        logger(__name__).debug("preparing the shared per-tool work failed", exc_info=True)


@dataclass(frozen=True, slots=True)
class _ChildWork:
    """The share of a whole lint a forked child computed (see ``Linter(parallel=True)``)."""

    found: dict[str, list[tuple[int, Finding]]]
    """Per tool, the findings of the child's rules with each rule's index."""
    pairs: tuple[list[SimilarPair], list[tuple[str, Hit]]] | None
    scores: dict[str, ToolScores] | None = None
    """Every tool's scores, when the child was free before the parent to compute them."""


class Linter:
    """A linted registry whose results follow edits one tool at a time.

    Args:
        registry: The registry to lint.
        profile: One of :data:`studio.lint.model.PROFILES`.
        config: The lint configuration; default: the one stored in the
            registry's settings (invalid entries become
            ``lint-config-invalid`` findings).
        parallel: Fork a child that runs the rules of
            :data:`FORKED_CATEGORIES` and builds the pairwise ambiguity index
            while this process runs the other rules, for registries of
            :data:`FORK_MIN_TOOLS` or more where
            :func:`~studio.lint.parallel.can_fork` (the command line; never in
            the GUI, which has threads). Same report.

    Raises:
        ValueError: for an unknown profile.
    """

    def __init__(
        self,
        registry: Registry,
        profile: str = "openai",
        config: LintConfig | None = None,
        *,
        parallel: bool = False,
    ) -> None:
        if profile not in PROFILES:
            raise ValueError(f"unknown lint profile {profile!r}; known: {', '.join(PROFILES)}")
        self.profile = profile
        self._config_problems: list[str] = []
        if config is None:
            config, self._config_problems = LintConfig.from_dict(
                registry.settings.extra.get("lint")
            )
        self.config = config
        self._options = config.all_options()
        self._settings = registry.settings
        self._registry = registry
        active = [r for r in RULES.values() if config.is_enabled(r.id) and r.applies_to(profile)]
        # Each per-tool rule with its check, typed as one (rules run for every tool).
        pair_rule_ids = _pair_rule_ids()
        self._tool_rules: list[tuple[Rule, ToolCheck]] = [
            (r, cast(ToolCheck, r.check)) for r in active if r.scope is Scope.TOOL
        ]
        self._registry_rules = [
            r for r in active if r.scope is Scope.REGISTRY and r.id not in pair_rule_ids
        ]
        self._pair_rules = [r for r in active if r.id in pair_rule_ids]
        self._rule_ids = tuple(r.id for r in active)
        self._supp: dict[tuple[str, str], list[Suppression]] = {}
        for s in config.suppressions:
            self._supp.setdefault((s.rule_id, s.tool), []).append(s)
        self._count_tokens = _token_counter()
        # Never loads the tokenizer: counts missing from the disk cache load it. The
        # cost rules' counts use the same method, as it never changes once settled.
        self._token_method = cached_token_method(profile)
        self._order: list[str] = [t.name for t in registry.tools]
        self._tools: dict[str, ToolContract] = {t.name: t for t in registry.tools}
        self._tool_findings: dict[str, list[Finding]] = {}
        self._scores: dict[str, ToolScores] = {}
        self._tokens: dict[str, int] = {}
        self._ambiguity: AmbiguityState | None = None
        # Pairs and their hits computed by a forked child (see ``parallel``); the
        # state itself is built only if the registry is edited afterwards.
        self._forked_pairs: tuple[list[SimilarPair], list[tuple[str, Hit]]] | None = None
        self._pair_findings: dict[int, tuple[Hit, Finding]] = {}
        # A forking lint's own rules' findings per tool, until the child's are merged in.
        self._part_findings: dict[str, list[tuple[int, Finding]]] = {}
        with _gc_paused():
            ctx = self._context()
            forked: Forked[_ChildWork] | None = None
            claims: tuple[Claim | None, Claim] | None = None
            if parallel and len(registry.tools) >= FORK_MIN_TOOLS and can_fork():
                _prepare_shared(registry.tools, self._settings)
                # The index, then the scores, go to whichever process is free first
                # (see studio.lint.claim).
                claims = (Claim() if self._pair_rules else None, Claim())
                # Forked first: token counts (and their disk cache) are this process's.
                forked = Forked(lambda: self._child_work(registry.tools, ctx, claims))
            mine = self._indexed_rules(forked=False)
            self._count_all_tokens(registry.tools)
            for tool in registry.tools:
                if forked is None:
                    self._check_tool(tool, ctx)
                else:
                    self._check_part(tool, ctx, mine)
            # The registry rules need no pair: run here while the child still works.
            registry_found = self._registry_findings(ctx) if forked is not None else None
            mine_pairs = None
            if claims is not None:
                pairs_claim, scores_claim = claims
                # Taken only while the child is still busy: the work is done here.
                if pairs_claim is not None and pairs_claim.take():
                    mine_pairs = self._claimed_pairs(registry.tools)
                if scores_claim.take():
                    for tool in registry.tools:
                        self._scores[tool.name] = self._score(tool)
                for claim in claims:
                    if claim is not None:
                        claim.close()
            work = forked.result() if forked is not None else None
            if forked is not None:
                theirs = self._indexed_rules(forked=True)
                child_scores = work.scores if work is not None else None
                for tool in registry.tools:
                    child = work.found.get(tool.name) if work is not None else None
                    if child is None:  # the child failed: its rules run here
                        child = self._rule_findings(tool, ctx, theirs)
                    self._merge_part(tool.name, child)
                    if tool.name not in self._scores:  # the child's, or here if it failed
                        scored = child_scores.get(tool.name) if child_scores else None
                        self._scores[tool.name] = (
                            scored if scored is not None else self._score(tool)
                        )
            if self._pair_rules:
                self._forked_pairs = (
                    mine_pairs if mine_pairs is not None else (work.pairs if work else None)
                )
                if self._forked_pairs is None:
                    self._ambiguity = self._build_ambiguity(registry.tools)
            self.report = self._assemble(ctx, registry_found)
        flush_token_cache()

    # ------------------------------------------------------------ public

    @property
    def registry(self) -> Registry:
        """The registry as the linter currently sees it (after every update)."""
        return self._registry

    def update_tool(self, old_name: str | None, tool: ToolContract | None) -> LintReport:
        """Insert, replace or remove one tool and return the refreshed report.

        Args:
            old_name: The tool's name before the edit; None inserts ``tool``
                at the end.
            tool: The tool after the edit; None removes ``old_name``. A
                replacement keeps the tool's place even when it is renamed.

        Raises:
            KeyError: when ``old_name`` is not in the registry.
            ValueError: when the new name is taken by another tool.
        """
        if old_name is not None and old_name not in self._tools:
            raise KeyError(old_name)
        if self._forked_pairs is not None:  # built in a child: the state is needed now
            self._ambiguity = self._build_ambiguity(self._registry.tools)
            self._forked_pairs = None
        if tool is not None and tool.name != old_name and tool.name in self._tools:
            raise ValueError(f"a tool named {tool.name!r} already exists")
        if old_name is not None:
            for cache in (self._tool_findings, self._scores, self._tokens):
                cache.pop(old_name, None)
            del self._tools[old_name]
            i = self._order.index(old_name)
            if tool is None:
                del self._order[i]
            else:
                self._order[i] = tool.name
        elif tool is not None:
            self._order.append(tool.name)
        if tool is not None:
            self._tools[tool.name] = tool
        self._registry = dataclasses.replace(
            self._registry, tools=tuple(self._tools[n] for n in self._order)
        )
        ctx = self._context()
        if tool is not None:
            self._check_tool(tool, ctx)
        if self._ambiguity is not None:
            self._ambiguity.update(old_name, tool)
        self.report = self._assemble(ctx)
        return self.report

    # ------------------------------------------------------------ internals

    def _build_ambiguity(
        self, tools: Iterable[ToolContract], *, incremental: bool = True
    ) -> AmbiguityState:
        from studio.lint.rules.ambiguity import AmbiguityState

        state = AmbiguityState(
            self._settings.description_template, self._settings.verbs, self._options
        )
        state.build(tools, incremental=incremental)
        return state

    def _pairs_and_hits(
        self, tools: Iterable[ToolContract]
    ) -> tuple[list[SimilarPair], list[tuple[str, Hit]]]:
        """What :meth:`_assemble` takes from the ambiguity state, computed from scratch."""
        state = self._build_ambiguity(tools, incremental=False)  # never updated
        pairs = state.similar_pairs({name: i for i, name in enumerate(self._order)})
        rules = {r.id: r for r in self._pair_rules}
        return pairs, list(_pair_hits(pairs, rules, state))

    def _claimed_pairs(
        self, tools: Iterable[ToolContract]
    ) -> tuple[list[SimilarPair], list[tuple[str, Hit]]] | None:
        """:meth:`_pairs_and_hits` in this process for a forking lint, None if it fails.

        As when the child fails, the index is then built the serial way (which
        raises what is wrong with the input, if anything is).
        """
        try:
            return self._pairs_and_hits(tools)
        except Exception:
            logger(__name__).debug(
                "the ambiguity index failed in the forking process", exc_info=True
            )
            return None

    def _child_work(
        self,
        tools: Iterable[ToolContract],
        ctx: LintContext,
        claims: tuple[Claim | None, Claim] | None = None,
    ) -> _ChildWork:
        """What a forked child sends back: its rules' findings per tool, and the pairs
        and the scores unless the parent took them (``claims``) while the child ran its rules."""
        pairs_claim, scores_claim = claims if claims is not None else (None, None)
        theirs = self._indexed_rules(forked=True)
        found = {tool.name: self._rule_findings(tool, ctx, theirs) for tool in tools}
        pairs = None
        if self._pair_rules and (pairs_claim is None or pairs_claim.take()):
            pairs = self._pairs_and_hits(tools)
        scores = None
        if scores_claim is not None and scores_claim.take():
            scores = {tool.name: self._score(tool) for tool in tools}
        return _ChildWork(found, pairs, scores)

    def _indexed_rules(self, *, forked: bool) -> list[tuple[int, Rule, ToolCheck]]:
        """A forking lint's child's per-tool rules (``forked``) or its own, with their index."""
        return [
            (i, rule, check)
            for i, (rule, check) in enumerate(self._tool_rules)
            if (rule.category in FORKED_CATEGORIES) == forked
        ]

    def _rule_findings(
        self, tool: ToolContract, ctx: LintContext, rules: list[tuple[int, Rule, ToolCheck]]
    ) -> list[tuple[int, Finding]]:
        """The findings of ``rules`` on ``tool``, each with its rule's index."""
        found: list[tuple[int, Finding]] = []
        name = tool.name
        for i, rule, check in rules:
            try:
                hits = list(check(tool, ctx))
            except Exception as exc:
                found.append((i, self._failure(rule, exc, name)))
                continue
            for h in hits:
                found.append((i, self._finding(rule, h, name)))
        return found

    def _check_part(
        self, tool: ToolContract, ctx: LintContext, rules: list[tuple[int, Rule, ToolCheck]]
    ) -> None:
        """:meth:`_check_tool` with only ``rules`` and no scores (the first process free
        computes them); :meth:`_merge_part` adds the others' findings."""
        self._part_findings[tool.name] = self._rule_findings(tool, ctx, rules)
        self._tokens[tool.name] = self._tool_tokens(tool)

    def _merge_part(self, name: str, other: list[tuple[int, Finding]]) -> None:
        """A tool's findings in rule order, as :meth:`_check_tool` lists them."""
        both = self._part_findings.pop(name) + other
        both.sort(key=lambda pair: pair[0])  # stable: a rule's findings keep their order
        self._tool_findings[name] = [f for _, f in both]

    def _context(self) -> LintContext:
        return LintContext(self._registry, self._settings, self.profile, self._options)

    def _finding(self, rule: Rule, hit: Hit, tool: str | None) -> Finding:
        severity = self.config.severity_for(rule.id) or hit.severity or rule.default_severity
        return Finding(
            rule.id,
            rule.category,
            severity,
            hit.tool if hit.tool is not None else tool,
            hit.path,
            hit.message,
            tuple(hit.related),
            hit.fix,
        )

    def _run(
        self, rule: Rule, args: tuple[object, ...], tool: str | None, out: list[Finding]
    ) -> None:
        try:
            hits = list(rule.check(*args))  # type: ignore[arg-type]
        except Exception as exc:
            out.append(self._failure(rule, exc, tool))
            return
        out.extend(self._finding(rule, h, tool) for h in hits)

    @staticmethod
    def _failure(rule: Rule, exc: Exception, tool: str | None) -> Finding:
        """The internal-rule-error finding for a rule that raised (logged with its traceback)."""
        where = f" on tool {tool!r}" if tool else ""
        logger(__name__).exception("lint rule %s failed%s", rule.id, where)
        return Finding(
            INTERNAL_RULE_ERROR,
            "internal",
            Severity.ERROR,
            tool,
            "",
            f"rule {rule.id} failed{where}: {type(exc).__name__}: {exc}",
            (rule.id,),
        )

    def _check_tool(self, tool: ToolContract, ctx: LintContext) -> None:
        found: list[Finding] = []
        name = tool.name
        for rule, check in self._tool_rules:
            # ``_run`` inlined for the common case: most rules find nothing.
            try:
                hits = list(check(tool, ctx))
            except Exception as exc:
                found.append(self._failure(rule, exc, name))
                continue
            if hits:
                found.extend([self._finding(rule, h, name) for h in hits])
        self._tool_findings[name] = found
        self._scores[tool.name] = self._score(tool)
        self._tokens[tool.name] = self._tool_tokens(tool)

    def _score(self, tool: ToolContract) -> ToolScores:
        """Component scores, computed once per tool object and template."""
        template = self._settings.description_template
        slots = memo_slots(tool)
        key = ("scores", template)
        scores = slots.get(key)
        if scores is None:
            scores = slots[key] = score_tool(tool, template, render_cached(tool, template))
        return scores

    def _count_all_tokens(self, tools: Iterable[ToolContract]) -> None:
        """Every tool's token count at once (stored counts read in a few queries), if offered."""
        if self._count_tokens is None:
            return
        try:
            from studio.lint.rules.cost import count_tool_tokens

            count_tool_tokens(tools, self._settings, self.profile)
        except Exception:  # only the batching is lost: each tool is counted on its own
            logger(__name__).exception("counting the tools' tokens at once failed")

    def _tool_tokens(self, tool: ToolContract) -> int:
        if self._count_tokens is not None:
            try:
                return int(self._count_tokens(tool, self._settings, self.profile))
            except Exception:  # a broken cost helper must not stop the lint
                logger(__name__).exception("cost.tool_tokens failed on %s", tool.name)
        return _fallback_tool_tokens(tool, self._settings, self.profile)

    def _suppression(self, f: Finding) -> Suppression | None:
        """The suppression covering ``f``; a pair finding by either of its tools."""
        for tool in finding_tools(f) or ("",):
            for s in self._supp.get((f.rule_id, tool), ()):
                if s.matches(dataclasses.replace(f, tool=tool or None)):
                    return s
        return None

    def _registry_findings(self, ctx: LintContext) -> list[Finding]:
        """Configuration problems and the registry rules' findings (pair rules aside)."""
        found: list[Finding] = []
        for problem in self._config_problems:
            found.append(Finding(CONFIG_INVALID, "config", Severity.WARNING, None, "", problem))
        for rule in self._registry_rules:
            self._run(rule, (self._registry, ctx), None, found)
        return found

    def _assemble(
        self, ctx: LintContext, registry_found: list[Finding] | None = None
    ) -> LintReport:
        """The report; ``registry_found`` is :meth:`_registry_findings` when already run."""
        found = registry_found if registry_found is not None else self._registry_findings(ctx)
        pairs: list[SimilarPair] = []
        pos = {name: i for i, name in enumerate(self._order)}
        if self._ambiguity is not None:
            pairs = self._ambiguity.similar_pairs(pos)
            rules = {r.id: r for r in self._pair_rules}
            # Hits of unchanged pairs are the same objects edit after edit (the
            # state caches them), so their findings are kept by hit identity.
            known = self._pair_findings
            fresh: dict[int, tuple[Hit, Finding]] = {}
            for rule_id, h in _pair_hits(pairs, rules, self._ambiguity):
                entry = known.get(id(h))
                if entry is None or entry[0] is not h:
                    entry = (h, self._finding(rules[rule_id], h, h.tool))
                fresh[id(h)] = entry
                found.append(entry[1])
            self._pair_findings = fresh
        elif self._forked_pairs is not None:
            pairs, hits = self._forked_pairs
            rules = {r.id: r for r in self._pair_rules}
            found.extend(self._finding(rules[rule_id], h, h.tool) for rule_id, h in hits)
        for name in self._order:
            found.extend(self._tool_findings[name])
        active: list[Finding] = []
        suppressed: list[Finding] = []
        supp = self._supp
        for f in found:
            match = self._suppression(f) if supp else None
            if match is None:
                active.append(f)
            else:
                suppressed.append(dataclasses.replace(f, suppressed_reason=match.reason))

        first = _SEVERITY_ORDER  # a dict, not the rank property: ~15,000 findings per lint
        last = len(pos)

        def key(f: Finding) -> tuple:
            return (
                first[f.severity],
                -1 if f.tool is None else pos.get(f.tool, last),
                f.path,
                f.rule_id,
                f.message,
            )

        active.sort(key=key)
        suppressed.sort(key=key)
        counts = {sev: 0 for sev in (Severity.ERROR, Severity.WARNING, Severity.INFO)}
        for f in active:
            counts[f.severity] += 1
        per_tool = {name: self._tokens[name] for name in self._order}
        total = sum(per_tool.values())
        rounds = int(self._options.get("cost.rounds", 5))
        tokens = TokenTotals(
            per_tool,
            total,
            round(total / len(per_tool), 1) if per_tool else 0.0,
            rounds,
            total * rounds,
            self._token_method,
        )
        return LintReport(
            self._registry.name,
            self.profile,
            tuple(active),
            tuple(suppressed),
            counts,
            {name: self._scores[name] for name in self._order},
            tokens,
            tuple(pairs),
            self._rule_ids,
            tuple(self._order),
        )


def lint_registry(
    registry: Registry,
    *,
    profile: str = "openai",
    config: LintConfig | None = None,
    parallel: bool = False,
) -> LintReport:
    """Lint a whole registry.

    Args:
        registry: The registry.
        profile: The target profile (:data:`studio.lint.model.PROFILES`).
        config: The configuration; default: the one stored in the registry.
        parallel: See :class:`Linter` (the command line passes True).

    Return:
        The report (findings, suppressed findings, counts, scores, tokens).
    """
    return Linter(registry, profile, config, parallel=parallel).report
