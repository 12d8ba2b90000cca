"""Ambiguity between tools: similar pairs, copied blocks, duplicates, crowded nouns, size.

The pairwise rules (near-duplicate descriptions, confusable names, copied
blocks, duplicate tools) are registered like any registry rule so they can be
configured and documented, but the engine evaluates them through
:class:`AmbiguityState`, which keeps its indexes up to date one tool at a
time: TF-IDF over whole descriptions (:class:`~studio.lint.similarity.
SimilarityIndex`), what each summary says (verb class and content words,
:func:`studio.lint.wordlists.content_units`; equal ones grouped, near ones
through :class:`~studio.lint.similarity.ShortTextIndex`), block texts (copies),
usage words (copies edited a little), names, and rendered description plus
parameters (duplicates). Their standalone checks (used when a rule is called
directly) build a fresh state.

One finding per problem: a similar pair is one finding on the tool whose
description does not tell the two apart (the first when neither does), the
other tool in ``related`` (the GUI shows it on both, the counts hold it once);
each copied block is one finding; a duplicate tool is one ``duplicate-tool``
finding. Severity says how confusable the pair is: same verb and the same
summary content is an error, verbs of different classes info, in between a
warning; a description that tells the sibling apart (names it, or says what
to use "instead") lowers it one step, both doing so removes the finding.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator

from studio.contract.model import Registry
from studio.lint.model import Hit, LintContext, Severity, registry_rule
from studio.lint.rules._pairs import (  # noqa: F401 - re-exported for callers and tests
    _SEVERITY,
    GENERIC_NAME_WORDS,
    READ_VERBS,
    VERB_CLASSES,
    AmbiguityState,
    _mention_pattern,
    _ToolInfo,
    name_key,
)
from studio.lint.similarity import SimilarPair

CATEGORY = "ambiguity"
NEAR_DUPLICATE = "ambiguity-near-duplicate"
CONFUSABLE_NAMES = "ambiguity-confusable-names"
NOUN_OVERLOAD = "ambiguity-noun-overload"
TOOLSET_SIZE = "ambiguity-toolset-size"
CLONED_BLOCK = "ambiguity-cloned-block"
DUPLICATE_TOOL = "duplicate-tool"
PAIR_RULE_IDS: frozenset[str] = frozenset(
    {NEAR_DUPLICATE, CONFUSABLE_NAMES, CLONED_BLOCK, DUPLICATE_TOOL}
)
"""Rules the engine evaluates incrementally through :class:`AmbiguityState`."""

OPENAI_PROFILES = frozenset({"openai", "openai-strict"})

# ---------------------------------------------------------------- pair hits


def _quote(value: str, limit: int = 60) -> str:
    """A text quoted as a JSON string, shortened."""
    value = " ".join(value.split())
    if len(value) > limit:
        value = value[: limit - 1] + "…"
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _rule_for(pair: SimilarPair, enabled: Collection[str]) -> str | None:
    """The one rule that reports a pair, or None (told apart, or its rules are off)."""
    if pair.duplicate and DUPLICATE_TOOL in enabled:
        return DUPLICATE_TOOL
    if (pair.duplicate or pair.cloned_blocks) and CLONED_BLOCK in enabled:
        return CLONED_BLOCK
    if not pair.severity:
        return None  # both descriptions tell the tools apart
    if pair.confusable_names and CONFUSABLE_NAMES in enabled:
        return CONFUSABLE_NAMES
    if pair.near_duplicate and NEAR_DUPLICATE in enabled:
        return NEAR_DUPLICATE
    return None


def pair_hits(
    pairs: Iterable[SimilarPair],
    rule_ids: Collection[str] | str,
    state: AmbiguityState | None = None,
) -> Iterator[tuple[str, Hit]]:
    """One finding per confusable pair (per copied block), as (rule id, hit).

    Args:
        pairs: The pairs of :meth:`AmbiguityState.similar_pairs`.
        rule_ids: The pair rules that are enabled (one id: only that rule).
        state: The state the pairs came from (to quote the summaries).

    A pair is reported once, on the tool whose description does not tell the
    two apart (the first in the registry when neither does), with the other in
    ``related``: the GUI shows it on both and counts it once. A duplicate tool
    is ``duplicate-tool``; each copied block one ``ambiguity-cloned-block``;
    otherwise confusable names, else near-duplicate descriptions.
    """
    enabled = frozenset({rule_ids} if isinstance(rule_ids, str) else rule_ids)
    cache = state._hits if state is not None else None
    if cache is not None and len(cache) > 4 * len(state._pairs) + 1024:  # type: ignore[union-attr]
        cache.clear()  # pairs that are gone
    for p in pairs:
        if cache is not None:
            cached = cache.get((p.a, p.b))
            if cached is not None and cached[0] is p and cached[1] == enabled:
                yield from cached[2]
                continue
        produced = list(_hits_of(p, enabled, state))
        if cache is not None:
            cache[(p.a, p.b)] = (p, enabled, produced)
        yield from produced


def _hits_of(
    p: SimilarPair, enabled: frozenset[str], state: AmbiguityState | None
) -> Iterator[tuple[str, Hit]]:
    rule_id = _rule_for(p, enabled)
    if rule_id is None:
        return
    if rule_id == DUPLICATE_TOOL:
        yield (
            rule_id,
            Hit(
                p.b,
                "",
                f"{p.b} is a duplicate of {p.a}: the same description and parameters under "
                f"two names, so a model picks either at random. Remove {p.b} (or {p.a}); "
                "if both must stay, say in each what the other does not do.",
                related=(p.a,),
                # An error, but for differently named tools whose only text is a
                # template summary (see _pairs._base_severity).
                severity=_SEVERITY[p.severity] if p.severity else Severity.ERROR,
            ),
        )
    elif rule_id == CLONED_BLOCK:
        for block in p.cloned_blocks:
            when = " and when to use it" if block == "usage" else ""
            quoted = state.block_text(p.a, block) if state else ""
            exact = state is None or state.same_block(p.a, p.b, block)
            same = "the same" if exact else "nearly the same"
            yield (
                rule_id,
                Hit(
                    p.a,
                    block,
                    f"{p.a} and {p.b} have {same} {block}"
                    f"{f' ({_quote(quoted)})' if quoted else ''}, so a model reads the two "
                    f"tools as one; rewrite the {block} of the tool it was copied into to say "
                    f"what that tool does{when}, and when to use the other instead.",
                    related=(p.b,),
                    severity=_SEVERITY[p.severity] if p.severity else Severity.ERROR,
                ),
            )
    else:
        yield rule_id, _similar_hit(rule_id, p, state)


def _similar_hit(rule_id: str, p: SimilarPair, state: AmbiguityState | None) -> Hit:
    neither = not (p.a_mentions_b or p.b_mentions_a)
    tool, other = (p.b, p.a) if p.a_mentions_b and not p.b_mentions_a else (p.a, p.b)
    qa, qb = (state.summary_of(p.a), state.summary_of(p.b)) if state else ("", "")
    relation = state.summary_relation(p.a, p.b) if state else ""
    quoted = f" ({_quote(qa)} / {_quote(qb)})" if qa and qb else ""
    if relation == "same":
        texts = f"summaries say the same thing{quoted}"
    elif relation == "opposite":
        texts = f"summaries differ only in an opposite or sibling verb{quoted}"
    elif relation == "detail":
        texts = f"summaries use the same words for different things{quoted}"
    elif relation in ("a_in_b", "b_in_a") and p.summary_score >= 0.5:
        less = p.a if relation == "a_in_b" else p.b
        texts = f"summaries differ only in detail{quoted}: {less}'s names nothing the other lacks"
    elif p.near_duplicate:
        texts = "descriptions are near-duplicates"
    else:
        texts = ""
    if rule_id == CONFUSABLE_NAMES:
        what = "have confusable names" + (f" and their {texts}" if texts else "")
    else:
        what = f"look interchangeable: their {texts}"
    about = f" (both about {', '.join(p.shared_terms)})" if p.shared_terms else ""
    if neither:
        gap = (
            "nothing in either description says what distinguishes them"
            if relation in ("same", "") or p.severity == Severity.ERROR.value
            else "neither description says when to use the other"
        )
        todo = (
            "say in each summary what the tool does that the other does not (which "
            "records, by what key, what comes back), and in each usage when to use the "
            "other instead"
        )
    else:
        gap = f"only {other}'s description tells them apart"
        todo = (
            f"say in {tool}'s summary what it does that {other} does not, and in its "
            f"usage when to use {other} instead"
        )
    return Hit(
        tool,
        "usage",  # where "use X instead" goes; kept so stored suppressions still match
        f"{p.a} and {p.b} {what}{about}; {gap}: {todo}.",
        related=(other,),
        severity=_SEVERITY[p.severity],
    )


def _standalone(registry: Registry, ctx: LintContext, rule_id: str) -> Iterator[Hit]:
    state = AmbiguityState.for_registry(registry, ctx.options)
    order = {t.name: i for i, t in enumerate(registry.tools)}
    for found, hit in pair_hits(state.similar_pairs(order), PAIR_RULE_IDS, state):
        if found == rule_id:
            yield hit


@registry_rule(
    NEAR_DUPLICATE,
    category=CATEGORY,
    severity=Severity.WARNING,
    rationale="""Two tools whose descriptions say nearly the same thing — long texts with
    the same words, or short ones that name the same action on the same object ("查询报销信息"
    / "查询报销相关信息", "Gets order." / "Query orders.") — give the model no basis to choose,
    so it picks one at random or the first listed. Each summary must say what makes the tool
    different, and each usage which sibling to use instead. One finding per pair: an error
    when the verb and object are the same and neither description tells them apart, a
    warning when one summary only adds to the other's or one description tells them apart,
    info when the verbs differ (search vs book) or each summary states its own difference.""",
)
def near_duplicate_descriptions(registry: Registry, ctx: LintContext) -> Iterator[Hit]:
    yield from _standalone(registry, ctx, NEAR_DUPLICATE)


@registry_rule(
    CONFUSABLE_NAMES,
    category=CATEGORY,
    severity=Severity.WARNING,
    rationale="""Names that mean the same thing (get_order, queryOrderList, getOrderDetail) or
    differ by one character are the top cause of wrong tool choice. Rename them so the
    difference shows in the name, or say in each usage when to use the other one. One finding
    per pair, reported as near-duplicate descriptions when the texts also say the same thing;
    a warning when neither description tells the pair apart, info when one does or when the
    verbs differ.""",
)
def confusable_names(registry: Registry, ctx: LintContext) -> Iterator[Hit]:
    yield from _standalone(registry, ctx, CONFUSABLE_NAMES)


@registry_rule(
    CLONED_BLOCK,
    category=CATEGORY,
    severity=Severity.ERROR,
    rationale="""A summary or usage block copied from a sibling (the same text after case and
    spacing) makes the two tools read as one to a model, and a copied usage block tells the
    model to use the wrong tool. Each copied block is one finding naming both tools and the
    block; rewrite the copy to say what this tool does and when to use the other.""",
)
def cloned_blocks(registry: Registry, ctx: LintContext) -> Iterator[Hit]:
    yield from _standalone(registry, ctx, CLONED_BLOCK)


@registry_rule(
    DUPLICATE_TOOL,
    category=CATEGORY,
    severity=Severity.ERROR,
    rationale="""Two tools with the same description and the same parameters under different
    names (one function imported twice: search and search_2) are one tool to a model, which
    then picks either at random and doubles the tokens spent on it. Remove one of them.""",
)
def duplicate_tools(registry: Registry, ctx: LintContext) -> Iterator[Hit]:
    yield from _standalone(registry, ctx, DUPLICATE_TOOL)


@registry_rule(
    NOUN_OVERLOAD,
    category=CATEGORY,
    severity=Severity.INFO,
    rationale="""Many tools acting on one noun (get, list, update, cancel an order…) crowd the
    tool list and multiply near-misses. Consider one tool per noun with an enum `action`
    parameter, which the model fills far more reliably than it chooses among look-alikes.""",
)
def noun_overload(registry: Registry, ctx: LintContext) -> Iterator[Hit]:
    limit = int(ctx.options.get("noun.max_tools", 4))  # type: ignore[call-overload]
    verbs = frozenset(registry.settings.verbs)
    by_noun: dict[str, list[str]] = {}
    for tool in registry.tools:
        for noun in name_key(tool.name, verbs)[1]:
            by_noun.setdefault(noun, []).append(tool.name)
    for noun, tools in by_noun.items():
        if len(tools) >= limit:
            shown = ", ".join(tools[:6]) + (", …" if len(tools) > 6 else "")
            yield Hit(
                None,
                "",
                f"{len(tools)} tools act on '{noun}' ({shown}); consider consolidating them "
                "into one tool with an enum 'action' parameter",
                related=tuple(tools),
            )


@registry_rule(
    TOOLSET_SIZE,
    category=CATEGORY,
    severity=Severity.INFO,
    rationale="""Every tool definition is sent with every request; past a few dozen tools
    models choose worse and each round costs more tokens. Split the registry by scenario or
    load tools on demand. OpenAI rejects requests with more than 128 tools.""",
)
def toolset_size(registry: Registry, ctx: LintContext) -> Iterator[Hit]:
    count = len(registry.tools)
    soft = int(ctx.options.get("toolset.max_tools", 40))  # type: ignore[call-overload]
    hard = int(ctx.options.get("toolset.provider_max_tools", 128))  # type: ignore[call-overload]
    if count > hard and ctx.profile in OPENAI_PROFILES:
        yield Hit(
            None,
            "",
            f"{count} tools exceed the {hard} tools OpenAI accepts per request; split the "
            "registry or select tools per task",
            severity=Severity.ERROR,
        )
    elif count > soft:
        yield Hit(
            None,
            "",
            f"{count} tools is more than {soft}; models choose less reliably from long tool "
            "lists; consider splitting the registry by scenario",
        )
