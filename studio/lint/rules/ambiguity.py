"""Ambiguity between tools: near-duplicates, confusable names, crowded nouns, toolset size.

The pairwise rules (near-duplicate descriptions, confusable names) are
registered like any registry rule so they can be configured and documented,
but the engine evaluates them through :class:`AmbiguityState`, which keeps a
:class:`~studio.lint.similarity.SimilarityIndex` and a name index up to date
one tool at a time. Their standalone checks (used when a rule is called
directly) build a fresh state.

A pair is reported on the tool(s) whose description does not tell the two
apart: an error on both when neither does, a warning on the one that does
not when only one does, nothing when both do. A description tells a sibling
apart when it names the sibling, or when its usage says what to use
"instead".
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from functools import lru_cache

from studio.contract.model import DEFAULT_DESCRIPTION_TEMPLATE, Registry, ToolContract
from studio.lint.cache import memo, render_cached
from studio.lint.model import Hit, LintContext, Severity, registry_rule
from studio.lint.regex import compile_cues
from studio.lint.similarity import (
    SimilarityIndex,
    SimilarPair,
    normalise_token,
    normalised_terms,
    tool_text,
)
from studio.lint.text import split_identifier, tokenize

CATEGORY = "ambiguity"
NEAR_DUPLICATE = "ambiguity-near-duplicate"
CONFUSABLE_NAMES = "ambiguity-confusable-names"
NOUN_OVERLOAD = "ambiguity-noun-overload"
TOOLSET_SIZE = "ambiguity-toolset-size"
PAIR_RULE_IDS: frozenset[str] = frozenset({NEAR_DUPLICATE, CONFUSABLE_NAMES})
"""Rules the engine evaluates incrementally through :class:`AmbiguityState`."""

OPENAI_PROFILES = frozenset({"openai", "openai-strict"})

# Verbs that only read map to one class, so get_order / queryOrderList collide.
_READ_VERB_TEXT = "get list query search find fetch retrieve lookup look read show view load check describe browse"  # noqa: E501
READ_VERBS = frozenset(_READ_VERB_TEXT.split())
VERB_CLASSES = {
    **{v: "read" for v in READ_VERBS},
    **{v: "create" for v in ("create", "add", "new", "insert", "make", "register")},
    **{v: "update" for v in ("update", "modify", "edit", "set", "change", "patch", "put")},
    **{v: "delete" for v in ("delete", "remove", "drop", "destroy", "purge", "del")},
    **{v: "send" for v in ("send", "notify", "push", "post", "publish")},
}
# Words that decorate a name without naming a different thing.
_GENERIC_TEXT = "list detail details info information all by id ids data page paged v1 v2 my the of for item items record records"  # noqa: E501
GENERIC_NAME_WORDS = frozenset(_GENERIC_TEXT.split())
_INSTEAD = compile_cues(
    r"\binstead\b|\brather than\b|改用|而不是|而非|请使用|应使用", re.IGNORECASE
)


def name_key(name: str, verbs: Iterable[str] = ()) -> tuple[str, tuple[str, ...]]:
    """(verb class, sorted noun words) of a tool name.

    ``get_order``, ``queryOrderList`` and ``getOrderDetail`` all give
    ``("read", ("order",))``; ``update_order_status`` gives
    ``("update", ("order", "status"))``.
    """
    words = split_identifier(name)
    if not words:
        return "", ()
    first = words[0]
    verb_class = VERB_CLASSES.get(first)
    if verb_class is None and first in verbs:
        verb_class = first
    rest = words[1:] if verb_class is not None else words
    nouns = sorted({normalise_token(w) for w in rest if w not in GENERIC_NAME_WORDS})
    return verb_class or "", tuple(nouns)


def _squash(name: str) -> str:
    return name.lower().replace("_", "").replace("-", "")


def _within_one_edit(a: str, b: str) -> bool:
    if a == b:
        return True
    la, lb = len(a), len(b)
    if abs(la - lb) > 1:
        return False
    if la > lb:
        a, b, la, lb = b, a, lb, la
    i = 0
    while i < la and a[i] == b[i]:
        i += 1
    if la == lb:
        return a[i + 1 :] == b[i + 1 :]
    return a[i:] == b[i + 1 :]


@lru_cache(maxsize=65536)  # one per tool name: a 10,000-tool registry must not thrash it
def _mention_pattern(name: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", re.IGNORECASE)


_IDENT_RUN = re.compile(r"[a-z0-9_]+")
# Characters that re.IGNORECASE matches to an ASCII letter (in a name or in the
# [A-Za-z0-9_] boundary) although lower-casing does not map them onto it.
_CASE_SPECIAL = frozenset("\u0130\u0131\u017f\u212a")


def _ident_words(text: str) -> frozenset[str] | None:
    """Maximal runs of [A-Za-z0-9_] in ``text``, lower-cased; None when that is unsafe.

    A name made of those characters alone is found by :func:`_mention_pattern`
    exactly when it is one of these runs (case-insensitively), unless the text
    holds a character IGNORECASE folds onto an ASCII letter.
    """
    if not text.isascii() and not _CASE_SPECIAL.isdisjoint(text):
        return None
    return frozenset(_IDENT_RUN.findall(text.lower()))


_PLAIN_NAME = re.compile(r"[A-Za-z0-9_]+")


class _ToolInfo:
    __slots__ = ("_words", "key", "says_instead", "squashed", "text")

    def __init__(
        self, text: str, says_instead: bool, key: tuple[str, tuple[str, ...]], squashed: str
    ) -> None:
        self.text = text
        self.says_instead = says_instead
        self.key = key
        self.squashed = squashed
        self._words: frozenset[str] | bool | None = False  # False: not computed yet

    def mentions(self, other: str) -> bool:
        if self.says_instead:
            return True
        if other.isascii() and _PLAIN_NAME.fullmatch(other):
            words = self._words
            if words is False:
                words = self._words = _ident_words(self.text)
            if words is not None:
                return other.lower() in words  # type: ignore[operator]
        return _mention_pattern(other).search(self.text) is not None


class AmbiguityState:
    """Similarity and name indexes of a registry, updated one tool at a time."""

    def __init__(
        self,
        template: str = DEFAULT_DESCRIPTION_TEMPLATE,
        verbs: Iterable[str] = (),
        options: Mapping[str, object] | None = None,
    ) -> None:
        options = options or {}
        self.template = template
        self.verbs = frozenset(verbs)
        self.index = SimilarityIndex(
            float(options.get("similarity.threshold", 0.6)),  # type: ignore[arg-type]
            max_df_share=float(options.get("similarity.max_df_share", 0.2)),  # type: ignore[arg-type]
        )
        self._info: dict[str, _ToolInfo] = {}
        self._groups: dict[tuple[str, tuple[str, ...]], set[str]] = {}
        self._variants: dict[str, set[str]] = {}
        # SimilarPair objects by pair key, reused while neither tool changes.
        self._pairs: dict[tuple[str, str], SimilarPair] = {}

    @classmethod
    def for_registry(
        cls, registry: Registry, options: Mapping[str, object] | None = None
    ) -> AmbiguityState:
        state = cls(registry.settings.description_template, registry.settings.verbs, options)
        state.build(registry.tools)
        return state

    # ------------------------------------------------------------ changes

    def _describe(self, tool: ToolContract) -> _ToolInfo:
        rendered = render_cached(tool, self.template)
        usage = tool.usage if tool.has_blocks() else rendered
        key = name_key(tool.name, self.verbs)
        return _ToolInfo(rendered, bool(_INSTEAD.search(usage)), key, _squash(tool.name))

    @staticmethod
    def _deletions(word: str) -> set[str]:
        if len(word) < 5:
            return set()
        return {word} | {word[:i] + word[i + 1 :] for i in range(len(word))}

    def _add_names(self, name: str, info: _ToolInfo) -> None:
        self._info[name] = info
        if info.key[1]:
            self._groups.setdefault(info.key, set()).add(name)
        for v in self._deletions(info.squashed):
            self._variants.setdefault(v, set()).add(name)

    def _remove_names(self, name: str) -> None:
        info = self._info.pop(name, None)
        if info is None:
            return
        group = self._groups.get(info.key)
        if group is not None:
            group.discard(name)
            if not group:
                del self._groups[info.key]
        for v in self._deletions(info.squashed):
            bucket = self._variants[v]
            bucket.discard(name)
            if not bucket:
                del self._variants[v]

    def _terms(self, tool: ToolContract) -> Counter[str]:
        """:func:`tool_terms`, once per tool object and template (the index only reads it)."""
        return memo(
            tool,
            ("similarity-terms", self.template),
            lambda: normalised_terms(
                tokenize(tool_text(tool, self.template, render_cached(tool, self.template)))
            ),
        )

    def build(self, tools: Iterable[ToolContract]) -> None:
        """Index every tool from scratch."""
        self._info.clear()
        self._groups.clear()
        self._variants.clear()
        items = []
        for tool in tools:
            self._add_names(tool.name, self._describe(tool))
            items.append((tool.name, self._terms(tool)))
        self.index.build(items)
        self._pairs.clear()

    def update(self, old_name: str | None, tool: ToolContract | None) -> None:
        """Insert (old_name None), replace, or remove (tool None) one tool."""
        if old_name is not None:
            self._remove_names(old_name)
        if tool is not None:
            self._add_names(tool.name, self._describe(tool))
        terms = self._terms(tool) if tool is not None else None
        dirty = self.index.update(old_name, tool.name if tool else None, terms)
        if dirty is None:
            self._pairs.clear()
        else:
            stale = [k for k in self._pairs if k[0] in dirty or k[1] in dirty]
            for key in stale:
                del self._pairs[key]

    # ------------------------------------------------------------ queries

    def _name_pairs(self) -> set[tuple[str, str]]:
        pairs: set[tuple[str, str]] = set()
        for group in self._groups.values():
            if len(group) > 1:
                members = sorted(group)
                # A crowded group is the noun-overload rule's business; pair
                # each tool with its neighbours only, to stay linear.
                step = len(members) if len(members) <= 8 else 2
                for i, a in enumerate(members):
                    for b in members[i + 1 : i + step]:
                        pairs.add((a, b))
        for bucket in self._variants.values():
            if 1 < len(bucket) <= 8:
                members = sorted(bucket)
                for i, a in enumerate(members):
                    for b in members[i + 1 :]:
                        if _within_one_edit(self._info[a].squashed, self._info[b].squashed):
                            pairs.add((a, b))
        return pairs

    def similar_pairs(self, order: Mapping[str, int] | None = None) -> list[SimilarPair]:
        """Confusable or near-duplicate pairs, ordered by the registry's tool order."""
        scores = {(a, b) if a < b else (b, a): s for a, b, s in self.index.similar()}
        names = self._name_pairs()
        pos = order if order is not None else {n: i for i, n in enumerate(sorted(self._info))}
        out = []
        cache = self._pairs
        for key in scores.keys() | names:
            cached = cache.get(key)
            if cached is not None:
                out.append(cached)
                continue
            a, b = sorted(key, key=lambda n: (pos.get(n, 1 << 30), n))
            score = scores.get(key)
            if score is None:
                score = self.index.score(a, b)
            ia, ib = self._info[a], self._info[b]
            out.append(
                cache.setdefault(
                    key,
                    SimilarPair(
                        a,
                        b,
                        round(score, 4),
                        self.index.shared_terms(a, b),
                        ia.mentions(b),
                        ib.mentions(a),
                        near_duplicate=key in scores,
                        confusable_names=key in names,
                    ),
                )
            )
        out.sort(key=lambda p: (pos.get(p.a, 1 << 30), pos.get(p.b, 1 << 30), p.a, p.b))
        return out


# ---------------------------------------------------------------- pair hits


def pair_hits(pairs: Iterable[SimilarPair], rule_id: str) -> Iterator[Hit]:
    """Hits of one pairwise rule for the given pairs."""
    for p in pairs:
        if rule_id == NEAR_DUPLICATE and not p.near_duplicate:
            continue
        if rule_id == CONFUSABLE_NAMES and not p.confusable_names:
            continue
        if p.a_mentions_b and p.b_mentions_a:
            continue
        neither = not (p.a_mentions_b or p.b_mentions_a)
        severity = Severity.ERROR if neither else Severity.WARNING
        what = (
            "have near-duplicate descriptions"
            if rule_id == NEAR_DUPLICATE
            else "have confusable names"
        )
        shared = f" (shared terms: {', '.join(p.shared_terms[:3])})" if p.shared_terms else ""
        for tool, other, mentions in ((p.a, p.b, p.a_mentions_b), (p.b, p.a, p.b_mentions_a)):
            if mentions:
                continue
            tail = (
                "neither description says when to use which"
                if neither
                else f"{other}'s description tells them apart, this one does not"
            )
            yield Hit(
                tool,
                "usage",
                f"{tool} and {other} {what}{shared}; {tail}: add to usage when to use "
                f"{other} instead",
                related=(other,),
                severity=severity,
            )


def _standalone(registry: Registry, ctx: LintContext, rule_id: str) -> Iterator[Hit]:
    state = AmbiguityState.for_registry(registry, ctx.options)
    order = {t.name: i for i, t in enumerate(registry.tools)}
    yield from pair_hits(state.similar_pairs(order), rule_id)


@registry_rule(
    NEAR_DUPLICATE,
    category=CATEGORY,
    severity=Severity.WARNING,
    rationale="""Two tools whose descriptions say nearly the same thing give the model no
    basis to choose between them, so it picks one at random or the first listed. Each
    description must say what makes it different and name the sibling to use instead. It is
    an error when neither description does, a warning when only one does.""",
)
def near_duplicate_descriptions(registry: Registry, ctx: LintContext) -> Iterator[Hit]:
    yield from _standalone(registry, ctx, NEAR_DUPLICATE)


@registry_rule(
    CONFUSABLE_NAMES,
    category=CATEGORY,
    severity=Severity.WARNING,
    rationale="""Names that mean the same thing (get_order, queryOrderList, getOrderDetail) or
    differ by one character are the top cause of wrong tool choice. Rename them so the
    difference shows in the name, or say in each usage when to use the other one. It is an
    error when neither description tells the pair apart, a warning when only one does.""",
)
def confusable_names(registry: Registry, ctx: LintContext) -> Iterator[Hit]:
    yield from _standalone(registry, ctx, CONFUSABLE_NAMES)


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
