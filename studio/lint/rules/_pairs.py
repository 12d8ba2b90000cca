"""Pairs of tools a model may confuse: the indexes behind the ambiguity rules.

:class:`AmbiguityState` keeps, one tool at a time, everything the pairwise
ambiguity rules need (see :mod:`studio.lint.rules.ambiguity` for how pairs
are reported): TF-IDF over whole descriptions, what each summary says (verb
class and content words; equal summaries grouped, near ones in a
:class:`~studio.lint.similarity.ShortTextIndex`), block texts (copies), usage
words (copies edited a little), name keys and one-edit name variants, and
rendered description plus parameters (duplicates). :meth:`AmbiguityState.
similar_pairs` turns them into :class:`~studio.lint.similarity.SimilarPair`
objects with a severity: how confusable the pair really is.
"""

from __future__ import annotations

import heapq
import json
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from functools import lru_cache
from typing import Any

from studio.contract.model import DEFAULT_DESCRIPTION_TEMPLATE, Registry, ToolContract
from studio.lint.cache import memo, render_cached
from studio.lint.lexicon import (
    containers,
    contrast_marks,
    contrasting,
    extent,
    head_nouns,
    quantity,
    strip_boilerplate,
)
from studio.lint.model import Severity
from studio.lint.regex import compile_cues
from studio.lint.rules._common import first_sentence, sentences
from studio.lint.similarity import (
    ShortTextIndex,
    SimilarityIndex,
    SimilarPair,
    normalise_token,
    normalised_terms,
    tool_text,
)
from studio.lint.text import split_identifier, tokenize
from studio.lint.wordlists import (
    Units,
    content_units,
    fold,
    is_content_word,
    stopwords,
    verb_class,
    verb_classes,
)

# Verb → family (get, list, query → read; book, buy → buy), from data/verbs.txt:
# get_order and queryOrderList collide, search_flights and book_flight do not.
VERB_CLASSES: dict[str, str] = {
    v: c.split(".")[0] for v, c in verb_classes().items() if v.isascii()
}
READ_VERBS = frozenset(v for v, c in VERB_CLASSES.items() if c == "read")
# Words that decorate a name without naming a different thing.
_GENERIC_TEXT = "list detail details info information all by id ids data page paged v1 v2 my the of for item items record records"  # noqa: E501
GENERIC_NAME_WORDS = frozenset(_GENERIC_TEXT.split())
_INSTEAD = compile_cues(
    r"\binstead\b|\brather than\b|改用|而不是|而非|请使用|应使用", re.IGNORECASE
)


def _says_instead(text: str) -> bool:
    """True when ``text`` says what to use instead (``_INSTEAD``).

    An ASCII text without either English cue is ruled out by two substring
    searches of its lower-cased copy: the pattern's lookahead stepped through
    every character of every description.
    """
    if text.isascii():
        low = text.lower()
        if "instead" not in low and "rather than" not in low:
            return False
    return _INSTEAD.search(text) is not None


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
    # Numbers tell nothing apart (search and search_2 are one thing twice).
    nouns = sorted(
        {normalise_token(w) for w in rest if w not in GENERIC_NAME_WORDS and not w.isdigit()}
    )
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


MIN_CLONE_UNITS = 6
"""A usage block needs this many distinct words to be compared for near-clones."""

_BLOCK_EDGE = " \t\n.,;:!?。，；：！？、…'\"`()[]{}-"


def block_fingerprint(value: str) -> str:
    """A block's text as compared for clones: case, spacing and edge punctuation folded."""
    return " ".join(value.casefold().split()).strip(_BLOCK_EDGE)


def _blocks(tool: ToolContract) -> dict[str, tuple[str, str]]:
    """Blocks compared for clones (summary and usage, or the free-text description):
    block → (fingerprint, text)."""
    fields = ("summary", "usage") if tool.has_blocks() else ("description",)
    out = {}
    for field in fields:
        value = getattr(tool, field, "")
        if not isinstance(value, str):
            continue
        # The generator's boilerplate is not the tool's text: blocks are compared
        # by what follows it. A block that is only boilerplate keeps its whole
        # text (see bare_text: a template, not a copy).
        said = strip_boilerplate(value) or value
        if said.strip():
            out[field] = (block_fingerprint(said), value.strip())
    return out


def bare_text(tool: ToolContract) -> bool:
    """True when a tool has text and all of it is a generator's boilerplate or a placeholder.

    Two tools whose only text is 'This is the subfunction for tool "X", you can
    use this tool.' copied nothing from each other: a template (a warning when
    the names differ), and not duplicates.
    """
    fields = ("summary", "usage") if tool.has_blocks() else ("description",)
    values = [v for f in fields if isinstance(v := getattr(tool, f, ""), str) and v.strip()]
    # A text of punctuation only ("-", "...") is a placeholder: no more a copy than none.
    return bool(values) and not any(_HAS_WORD.search(strip_boilerplate(v)) for v in values)


_HAS_WORD = re.compile(r"[^\W_]")


SUMMARY_OF_FREE_TEXT = 300
"""Characters of a free-text description read as what the tool says it does."""


def _free_text(tool: ToolContract) -> str:
    """A free-text description without the generator's boilerplate, spaces folded.

    Once per tool object: the opening count and the summary both read it.
    """
    return memo(tool, "ambiguity-free-text", lambda: _fold_free_text(tool))


def _fold_free_text(tool: ToolContract) -> str:
    description = tool.description if isinstance(tool.description, str) else ""
    return strip_boilerplate(" ".join(description.split()))


def _opening(tool: ToolContract) -> tuple[str, str]:
    """(fingerprint of the first sentence, the text after it) of a free-text description.

    ("", "") for a tool with blocks, or when nothing with a word follows the
    first sentence: an opening is only boilerplate when something follows it.
    Once per tool object (the opening count and the summary both ask).
    """
    if tool.has_blocks():
        return "", ""
    return memo(tool, "ambiguity-opening", lambda: _first_and_rest(_free_text(tool)))


def _first_and_rest(text: str) -> tuple[str, str]:
    """:func:`_opening` of a free text."""
    first = first_sentence(text)
    if not first:
        return "", ""
    rest = text[text.find(first) + len(first) :].lstrip(_BLOCK_EDGE)
    if not _HAS_WORD.search(rest):
        return "", ""
    return block_fingerprint(first), rest


def _summary(tool: ToolContract, shared_openings: frozenset[str] = frozenset()) -> str:
    """What the tool says it does: the summary block, or the start of a free-text description.

    Not just its first sentence, and not the boilerplate a generator opens
    every description with: the patterns of ``data/boilerplate.txt``, and an
    opening sentence that :data:`TEMPLATE_TOOLS` or more tools of the registry
    share (``shared_openings``, see :meth:`AmbiguityState.build`). Imported
    descriptions often open with the same text ("This is the subfunction for
    tool X.") and say what differs after it.
    """
    summary = tool.summary if isinstance(tool.summary, str) else ""
    if summary.strip() or tool.has_blocks():
        return strip_boilerplate(summary)
    # What follows the generator's boilerplate ("This is the subfunction for tool
    # X…"): siblings that differ after it ("Get artist singles" / "Get one or
    # more artists") are told apart by what they say, not by the preamble.
    description = _free_text(tool)
    if shared_openings:
        opening, rest = _opening(tool)
        if opening in shared_openings:
            description = rest
    if len(description) <= SUMMARY_OF_FREE_TEXT:
        return description
    # Whole sentences up to the limit (at least the first).
    parts = sentences(description)
    out = parts[0] if parts else description[:SUMMARY_OF_FREE_TEXT]
    for part in parts[1:]:
        if len(out) + 1 + len(part) > SUMMARY_OF_FREE_TEXT:
            break
        out = f"{out} {part}"
    return out


def _parameters_of(tool: ToolContract) -> str:
    """:func:`_parameters_json`, once per tool object."""
    return memo(tool, "parameters-json", lambda: _parameters_json(tool))


def _parameters_json(tool: ToolContract) -> str:
    """The parameters as canonical-ish JSON (sorted keys), to compare two tools."""
    try:
        return json.dumps(tool.parameters, sort_keys=True, ensure_ascii=False, default=str)
    except (TypeError, ValueError):  # an odd import: compare it as text
        return repr(tool.parameters)


class _ToolInfo:
    __slots__ = (
        "_contrast",
        "_lowered",
        "_name",
        "_words",
        "bare",
        "blocks",
        "content",
        "dup_key",
        "key",
        "name_verb",
        "says_instead",
        "squashed",
        "summary",
        "summary_key",
        "summary_units",
        "text",
        "usage_units",
    )

    def __init__(
        self,
        text: str,
        says_instead: bool,
        key: tuple[str, tuple[str, ...]],
        squashed: str,
        summary: str = "",
        blocks: Mapping[str, tuple[str, str]] | None = None,
        dup_key: str = "",
        name_verb: str = "",
        usage: str = "",
        bare: bool = False,
        name: str = "",
    ) -> None:
        self.name_verb = name_verb
        self.bare = bare  # only boilerplate (see bare_text)
        # The similarity tokens (words, CJK bigrams; no stopwords or numbers):
        # cheaper than content units, and a copy is a copy word for word.
        units = frozenset(normalised_terms(tokenize(usage))) if usage else frozenset()
        # Only a usage of some length is compared for near-clones; short ones
        # are compared as they are (block fingerprints).
        self.usage_units = units if len(units) >= MIN_CLONE_UNITS else frozenset()
        self.text = text
        self.says_instead = says_instead
        self.key = key
        self.squashed = squashed
        self.summary = summary
        self.summary_units = content_units(summary) if summary else Units((), (), ())
        # The summary's content words (no verbs, generic words or stopwords).
        self.content = frozenset(self.summary_units.content)
        # Verb classes and content words as one set (equal summaries, near ones).
        self.summary_key = self.summary_units.key()
        self._name = name
        self._contrast: frozenset[tuple[int, int]] | None = None
        self.blocks = dict(blocks or {})
        self.dup_key = dup_key
        self._words: frozenset[str] | bool | None = False  # False: not computed yet
        self._lowered: str | None = None  # None: not computed yet

    def mentions(self, other: str) -> bool:
        if self.says_instead:
            return True
        if other.isascii() and _PLAIN_NAME.fullmatch(other):
            lowered = self._lowered
            if lowered is None:
                # Safe to search lower-cased (see _ident_words); "" when it is not.
                text = self.text
                safe = text.isascii() or _CASE_SPECIAL.isdisjoint(text)
                lowered = self._lowered = text.lower() if safe else ""
            if lowered and other.lower() not in lowered:
                return False  # not even inside a longer word: most pairs, no word set needed
            words = self._words
            if words is False:
                words = self._words = _ident_words(self.text)
            if words is not None:
                return other.lower() in words  # type: ignore[operator]
        return _mention_pattern(other).search(self.text) is not None

    @property
    def contrast(self) -> frozenset[tuple[int, int]]:
        """Sibling or opposite verbs the name or summary takes (data/contrasts.txt).

        Computed when a pair asks (most tools are in none).
        """
        marks = self._contrast
        if marks is None:
            spelled = " ".join(split_identifier(self._name))
            marks = self._contrast = contrast_marks(f"{spelled} {self.summary}")
        return marks

    @property
    def summary_verb(self) -> str:
        """The verb class (with its kind) the summary starts with, "" when none."""
        verbs = self.summary_units.verbs
        return verbs[0] if verbs else ""


def _verbs_differ(ia: _ToolInfo, ib: _ToolInfo) -> bool:
    """True when the verbs say the tools do different things (search vs book, get vs list).

    Names decide, unless both summaries use one verb class: list_bookings and
    fetch_reservations that both "List the employee's hotel bookings" do the same.
    """
    sa, sb = ia.summary_verb, ib.summary_verb
    if ia.name_verb and ib.name_verb and ia.name_verb != ib.name_verb:
        return not (sa and sb and sa == sb)
    if ia.name_verb and ib.name_verb:
        return False
    return bool(sa and sb and sa != sb)


def _name_verb(name: str, key: tuple[str, tuple[str, ...]]) -> str:
    """The verb class (with its kind) of a name's first word, "" when it has none."""
    if not key[0]:
        return ""
    words = split_identifier(name)
    return verb_classes().get(words[0], key[0]) if words else key[0]


class _Groups:
    """Tools grouped by a key (equal summaries, equal blocks…), the shared keys at hand.

    Most keys hold one tool, kept as the bare name (no set per key: a
    10,000-tool registry has 200,000 name variants); :meth:`shared` gives the
    groups of two or more without visiting the others.
    """

    __slots__ = ("_by_key", "_shared")

    def __init__(self) -> None:
        self._by_key: dict[Any, str | set[str]] = {}
        self._shared: set[Any] = set()

    def add(self, key: Any, name: str) -> None:
        by_key = self._by_key
        group = by_key.get(key)
        if group is None:
            by_key[key] = name
        elif isinstance(group, str):
            if group != name:
                by_key[key] = {group, name}
                self._shared.add(key)
        else:
            group.add(name)

    def add_all(self, keys: Iterable[Any], name: str) -> None:
        """:meth:`add` of every key (repeats allowed); the keys no group holds yet
        are stored in one step.

        Most keys are new (a name's one-letter deletions), so only the few
        already held go through :meth:`add`. The keys are made distinct by
        the dict that stores them, not by a set first (~2.5 ms of 15 on 2,000
        public tools' names).
        """
        by_key = self._by_key
        new = dict.fromkeys(keys, name)
        held = new.keys() & by_key.keys()
        for key in held:
            self.add(key, name)
            del new[key]
        by_key.update(new)

    def discard(self, key: Any, name: str) -> None:
        by_key = self._by_key
        group = by_key.get(key)
        if group is None:
            return
        if isinstance(group, str):
            if group == name:
                del by_key[key]
            return
        group.discard(name)
        if len(group) == 1:
            by_key[key] = next(iter(group))
            self._shared.discard(key)

    def clear(self) -> None:
        self._by_key.clear()
        self._shared.clear()

    def size(self, key: Any) -> int:
        """How many tools the group of ``key`` holds (0 when none)."""
        group = self._by_key.get(key)
        if group is None:
            return 0
        return 1 if isinstance(group, str) else len(group)

    def shared(self) -> Iterator[tuple[Any, set[str]]]:
        """(key, tools) of every group of two or more tools."""
        by_key = self._by_key
        return ((key, by_key[key]) for key in self._shared)  # type: ignore[misc]


class AmbiguityState:
    """Similarity, name, block and duplicate indexes of a registry, updated one tool at a time."""

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
        self.summaries = ShortTextIndex(
            float(options.get("similarity.summary_threshold", 0.75))  # type: ignore[arg-type]
        )
        # Usage blocks copied and then edited a little (another sibling named, a
        # word changed): near-clones, by their words (tool names are not words).
        self.usages = ShortTextIndex(
            float(options.get("similarity.clone_threshold", 0.9)),  # type: ignore[arg-type]
            overlap=False,
        )
        self._info: dict[str, _ToolInfo] = {}
        # Opening sentences of free-text descriptions, counted; those of
        # TEMPLATE_TOOLS or more tools are the registry's own boilerplate.
        self._openings: Counter[str] = Counter()
        self._opening_of: dict[str, str] = {}
        self._shared_openings: frozenset[str] = frozenset()
        self._groups = _Groups()
        self._variants = _Groups()
        self._same_summary = _Groups()
        self._clones = _Groups()
        self._dups = _Groups()  # by rendered description; see _same_contract
        self._tools: dict[str, ToolContract] = {}
        # SimilarPair objects by pair key, reused while neither tool changes.
        self._pairs: dict[tuple[str, str], SimilarPair] = {}
        self._pair_flags: dict[tuple[str, str], tuple] = {}
        # The hits of a pair object for a set of enabled rules (see pair_hits).
        self._hits: dict[tuple[str, str], tuple[SimilarPair, frozenset[str], list]] = {}

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
        return _ToolInfo(
            rendered,
            _says_instead(usage if isinstance(usage, str) else ""),
            key,
            _squash(tool.name),
            _summary(tool, self._shared_openings),
            _blocks(tool),
            rendered,
            _name_verb(tool.name, key),
            usage if tool.has_blocks() and isinstance(usage, str) else "",
            bare_text(tool),
            tool.name,
        )

    @staticmethod
    def _deletions(word: str) -> list[str]:
        """The word and its one-letter deletions (a deletion may repeat: ``aab``)."""
        if len(word) < 5:
            return []
        return [word, *[word[:i] + word[i + 1 :] for i in range(len(word))]]

    def _add_names(self, name: str, info: _ToolInfo) -> None:
        self._info[name] = info
        if info.key[1]:
            self._groups.add(info.key, name)
        self._variants.add_all(self._deletions(info.squashed), name)
        if info.content:
            self._same_summary.add(info.summary_key, name)
        for block, (fingerprint, _text) in info.blocks.items():
            self._clones.add((block, fingerprint), name)
        # No description (or only boilerplate): the purpose rule's finding, not a duplicate.
        if info.dup_key.strip() and not info.bare:
            self._dups.add(info.dup_key, name)

    def _remove_names(self, name: str) -> None:
        info = self._info.pop(name, None)
        if info is None:
            return
        if info.key[1]:
            self._groups.discard(info.key, name)
        for v in dict.fromkeys(self._deletions(info.squashed)):
            self._variants.discard(v, name)
        if info.content:
            self._same_summary.discard(info.summary_key, name)
        for block, (fingerprint, _text) in info.blocks.items():
            self._clones.discard((block, fingerprint), name)
        self._dups.discard(info.dup_key, name)
        self._tools.pop(name, None)

    def _terms(self, tool: ToolContract) -> Counter[str]:
        """:func:`tool_terms`, once per tool object and template (the index only reads it)."""
        return memo(
            tool,
            ("similarity-terms", self.template),
            lambda: normalised_terms(
                tokenize(tool_text(tool, self.template, render_cached(tool, self.template)))
            ),
        )

    @staticmethod
    def _summary_key(info: _ToolInfo) -> frozenset[str]:
        # A summary with no content word is vague (desc-vague-summary); it is
        # compared through its clones, not as a near-duplicate of every other.
        return info.summary_key if info.content else frozenset()

    def _count_opening(self, name: str, tool: ToolContract | None, step: int) -> None:
        """Add (step 1) or remove (step -1) a tool's opening sentence from the counts."""
        opening = _opening(tool)[0] if tool is not None else self._opening_of.get(name, "")
        if step > 0:
            if opening:
                self._opening_of[name] = opening
        else:
            self._opening_of.pop(name, None)
        if opening:
            self._openings[opening] += step
            if self._openings[opening] <= 0:
                del self._openings[opening]

    def _shared(self) -> frozenset[str]:
        return frozenset(o for o, n in self._openings.items() if n >= TEMPLATE_TOOLS)

    def build(self, tools: Iterable[ToolContract], *, incremental: bool = True) -> None:
        """Index every tool from scratch.

        ``incremental=False``: the state is only queried, never updated (a
        whole lint from the command line); the TF-IDF index then skips the
        watch list updates need (see :meth:`SimilarityIndex.build`). An update
        still works, and pays for it.

        First the opening sentences: one that :data:`TEMPLATE_TOOLS` or more
        free-text descriptions share, with more text after it, is the
        registry's boilerplate and left out of their summaries (``_summary``).
        """
        tools = list(tools)
        self._openings.clear()
        self._opening_of.clear()
        for tool in tools:
            self._count_opening(tool.name, tool, 1)
        self._shared_openings = self._shared()
        self._info.clear()
        for groups in (
            self._groups,
            self._variants,
            self._same_summary,
            self._clones,
            self._dups,
        ):
            groups.clear()
        self._hits.clear()
        items = []
        summaries = []
        usages = []
        self._tools.clear()
        for tool in tools:
            info = self._describe(tool)
            self._add_names(tool.name, info)
            self._tools[tool.name] = tool
            items.append((tool.name, self._terms(tool)))
            summaries.append((tool.name, self._summary_key(info)))
            usages.append((tool.name, info.usage_units))
        self.index.build(items, incremental=incremental)
        self.summaries.build(summaries)
        self.usages.build(usages)
        self._pairs.clear()
        self._pair_flags.clear()

    def update(self, old_name: str | None, tool: ToolContract | None) -> None:
        """Insert (old_name None), replace, or remove (tool None) one tool.

        When the change makes an opening sentence boilerplate or no longer
        (a third tool opens the same way), every summary may change: rebuilt.
        """
        changed = {self._opening_of.get(old_name, "") if old_name is not None else ""}
        if old_name is not None:
            self._count_opening(old_name, None, -1)
        if tool is not None:
            self._count_opening(tool.name, tool, 1)
            changed.add(self._opening_of.get(tool.name, ""))
        # Only the openings of the old and the new tool can have crossed the line.
        shared = self._shared_openings
        openings = self._openings
        if any(o and (openings.get(o, 0) >= TEMPLATE_TOOLS) != (o in shared) for o in changed):
            kept = [t for n, t in self._tools.items() if n != old_name]
            self.build([*kept, tool] if tool is not None else kept)
            return
        if old_name is not None:
            self._remove_names(old_name)
        info = None
        if tool is not None:
            info = self._describe(tool)
            self._add_names(tool.name, info)
            self._tools[tool.name] = tool
        terms = self._terms(tool) if tool is not None else None
        name = tool.name if tool is not None else None
        dirty = self.index.update(old_name, name, terms)
        self.summaries.update(old_name, name, self._summary_key(info) if info is not None else None)
        self.usages.update(old_name, name, info.usage_units if info is not None else None)
        if dirty is None:
            self._pairs.clear()
            self._pair_flags.clear()
        else:
            dirty.update(n for n in (old_name, name) if n is not None)
            stale = [k for k in self._pairs if k[0] in dirty or k[1] in dirty]
            for key in stale:
                del self._pairs[key]
                self._pair_flags.pop(key, None)

    # ------------------------------------------------------------ queries

    def summary_of(self, name: str) -> str:
        """The summary (or first sentence) of an indexed tool, "" when unknown."""
        info = self._info.get(name)
        return info.summary if info is not None else ""

    def summary_relation(self, a: str, b: str) -> str:
        """How two summaries' content words relate: same, opposite, detail, a_in_b, b_in_a,
        differ ("": vague).

        With the same content words, "opposite" when they take opposite or sibling
        verbs (start / restart: data/contrasts.txt) and "detail" when they still
        say different things (how many items, extent, the head noun, numbers:
        see ``_says_more``).
        """
        ia, ib = self._info.get(a), self._info.get(b)
        if ia is None or ib is None or not ia.content or not ib.content:
            return ""
        if ia.content == ib.content:
            if contrasting(ia.contrast, ib.contrast):
                return "opposite"
            return "detail" if _says_more(ia.summary, ib.summary) else "same"
        if ia.content <= ib.content:
            return "a_in_b"
        if ib.content <= ia.content:
            return "b_in_a"
        return "differ"

    def same_block(self, a: str, b: str, block: str) -> bool:
        """True when two indexed tools' blocks have the same text (case and spacing aside)."""
        ia, ib = self._info.get(a), self._info.get(b)
        fa = ia.blocks.get(block) if ia is not None else None
        fb = ib.blocks.get(block) if ib is not None else None
        return fa is not None and fb is not None and fa[0] == fb[0]

    def block_text(self, name: str, block: str) -> str:
        """The text of a block of an indexed tool ("" when unknown)."""
        info = self._info.get(name)
        found = info.blocks.get(block) if info is not None else None
        return found[1] if found else ""

    def _name_pairs(self) -> set[tuple[str, str]]:
        pairs: set[tuple[str, str]] = set()
        for _key, group in self._groups.shared():
            if len(group) > 1:
                members = sorted(group)
                # A crowded group is the noun-overload rule's business; pair
                # each tool with its neighbours only, to stay linear.
                step = len(members) if len(members) <= 8 else 2
                for i, a in enumerate(members):
                    for b in members[i + 1 : i + step]:
                        if not converse_names(a, b):
                            pairs.add((a, b))
        for _key, bucket in self._variants.shared():
            if 1 < len(bucket) <= 8:
                members = sorted(bucket)
                for i, a in enumerate(members):
                    for b in members[i + 1 :]:
                        if _within_one_edit(self._info[a].squashed, self._info[b].squashed):
                            pairs.add((a, b))
        return pairs

    @staticmethod
    def _star_pairs(
        groups: Iterable[set[str]], pos: Mapping[str, int]
    ) -> Iterator[tuple[str, str]]:
        """Each member of a group of equals paired with the group's first tool (linear)."""
        for group in groups:
            if len(group) < 2:
                continue
            members = sorted(group, key=lambda n: (pos.get(n, 1 << 30), n))
            first = members[0]
            for other in members[1:]:
                yield _key(first, other)

    def _same_contract(self) -> Iterator[set[str]]:
        """Groups of tools with the same rendered description and the same parameters."""
        for _text, group in self._dups.shared():
            by_params: dict[str, set[str]] = {}
            for name in group:
                params = _parameters_of(self._tools[name])
                by_params.setdefault(params, set()).add(name)
            yield from by_params.values()

    def _adapted_usages(self, a: str, b: str) -> bool:
        """True when two near-clone usages are one pattern filled in for each tool.

        The words where the usages differ (counted, identifiers spelled out,
        verbs by class) must not be a swapped reference: a word only one usage
        has that only the *other* tool names (a usage copied from a sibling and
        edited in its "use X instead" clause stays a copy). Then the pattern
        was filled in when the differing words include a word of a tool's own
        name or summary ("Retrieves the preview page…" / "Deletes the preview
        page…", "an OIN app target" / "an app instance target"), or when the
        summaries already tell the tools apart (other content words, another
        number of items, opposite verbs: "List all enrolled factors" / "List
        all supported factors").
        """
        wa = _block_words(self.block_text(a, "usage"))
        wb = _block_words(self.block_text(b, "usage"))
        only_a, only_b = (wa - wb).keys(), (wb - wa).keys()
        own_a, own_b = self._own_words(a), self._own_words(b)
        # A word only one usage has that only the other tool names: a swapped reference.
        if (only_a & own_b) - own_a or (only_b & own_a) - own_b:
            return False
        if only_a & own_a or only_b & own_b:
            return True
        return self._summaries_tell_apart(a, b)

    def _summaries_tell_apart(self, a: str, b: str) -> bool:
        """True when two tools' summaries say different things (not vague, not the same)."""
        ia, ib = self._info[a], self._info[b]
        if not ia.content or not ib.content:
            return False
        if ia.content != ib.content or contrasting(ia.contrast, ib.contrast):
            return True
        return _says_more(ia.summary, ib.summary)

    def _own_words(self, name: str) -> frozenset[str]:
        """Content words of a tool's name and summary (the subject it names itself)."""
        spelled = " ".join(split_identifier(name))
        return frozenset(_block_words(f"{spelled}. {self.summary_of(name)}"))

    def _template_summary(self, a: str, b: str) -> bool:
        """True when both tools have one summary that :data:`TEMPLATE_TOOLS` or more tools share.

        Such a summary is boilerplate ("This is the subfunction for tool
        \"netflix_v2\", you can use this tool."): it says nothing about any of
        them, which the vague-summary and purpose rules report, and the names
        are all a model has to tell the tools apart (see :func:`_base_severity`).
        """
        ia, ib = self._info[a], self._info[b]
        if not ia.content or ia.content != ib.content:
            return False
        key = ia.summary_key
        return key == ib.summary_key and self._same_summary.size(key) >= TEMPLATE_TOOLS

    def _shared_terms(self, a: str, b: str, limit: int = 3) -> tuple[str, ...]:
        """The few distinctive content words both tools use, rarest first.

        Words of both summaries come first, then the other words both tools'
        texts use, unless most tools of the registry use them (template labels,
        the service's name); stopwords, generic words, verbs, numbers and ids
        never count.
        """
        ia, ib = self._info[a], self._info[b]
        n = len(self._info)
        df = self.index.df
        common = max(3, n // 2)
        # Words both summaries name are what the pair is about, however common.
        both = ia.content & ib.content
        out = [t for _d, t in sorted([(df(t), t) for t in both])] if both else []
        if len(out) < limit:
            if n < 4:
                common = n + 1
            ranked = [
                x
                for x in self.index.shared_words(a, b, common)
                # CJK tokens of the index are bigrams that may straddle two words;
                # the summaries' CJK words (above) are whole.
                if x[1].isascii() and x[1] not in out and _is_content_token(x[1])
            ]
            out.extend(t for _d, t in heapq.nsmallest(limit, ranked))
        return tuple(out[:limit])

    def similar_pairs(self, order: Mapping[str, int] | None = None) -> list[SimilarPair]:
        """Confusable, near-duplicate, cloned or duplicate pairs, in the registry's tool order."""
        pos = order if order is not None else {n: i for i, n in enumerate(sorted(self._info))}
        scores = {(a, b) if a < b else (b, a): s for a, b, s in self.index.similar()}
        names = self._name_pairs()
        summary_pairs = set(self.summaries.pairs())
        summary_pairs.update(self._star_pairs((g for _k, g in self._same_summary.shared()), pos))
        clone_pairs: dict[tuple[str, str], list[str]] = {}
        for (block, _fp), group in self._clones.shared():
            for key in self._star_pairs((group,), pos):
                clone_pairs.setdefault(key, []).append(block)
        for key in self.usages.pairs():
            if self.same_block(key[0], key[1], "usage"):
                continue  # exact copies: reported against their group's first tool
            blocks = clone_pairs.setdefault(key, [])
            if "usage" not in blocks:
                blocks.append("usage")
        dup_pairs = set(self._star_pairs(self._same_contract(), pos))
        out = []
        cache = self._pairs
        for key in scores.keys() | names | summary_pairs | clone_pairs.keys() | dup_pairs:
            in_summaries = key in summary_pairs
            cloned = clone_pairs.get(key)
            # Which sources found the pair; a group's first tool can change without
            # either tool of the pair changing, so a cached pair must agree on them.
            flags = (
                key in scores,
                in_summaries,
                key in names,
                tuple(sorted(set(cloned), key=_BLOCK_ORDER.index)) if cloned else (),
                key in dup_pairs,
                # Whether their one summary is a template (changes with other tools).
                self._template_summary(*key),
            )
            cached = cache.get(key)
            if cached is not None and self._pair_flags.get(key) == flags:
                out.append(cached)
                continue
            a, b = sorted(key, key=lambda n: (pos.get(n, 1 << 30), n))
            ia, ib = self._info[a], self._info[b]
            if not (flags[3] or flags[4]) and _copies(ia, ib):
                # Two copies of one block: each is reported against the group's
                # first tool, not again against each other.
                continue
            # Differently named tools whose free text is one template: not a copy
            # (see _template_summary); copied summary or usage blocks always are.
            # So are two whose only text is a generator's boilerplate (bare_text).
            template = ia.key != ib.key and (
                (flags[5] and set(flags[3]) <= {"description"}) or (ia.bare and ib.bare)
            )
            # A usage edited into each tool's own subject ("… to a group" / "… to an
            # admin user") is a shared pattern, not a forgotten copy: a warning.
            adapted = (
                flags[3] == ("usage",)
                and not flags[4]
                and not self.same_block(a, b, "usage")
                and self._adapted_usages(a, b)
            )
            # fahrenheit_to_celsius / celsius_to_fahrenheit: opposite directions, said
            # by the names (and, as the same words, by the summaries): info at most.
            converse = not (flags[3] or flags[4]) and converse_names(a, b)
            score = scores.get(key)
            if score is None:
                score = self.index.score(a, b)
            summary_score = self.summaries.score(a, b)
            if in_summaries and summary_score < self.summaries.threshold:
                summary_score = 1.0  # the same content, found through its group
            a_mentions_b, b_mentions_a = ia.mentions(b), ib.mentions(a)
            pair = SimilarPair(
                a,
                b,
                round(score, 4),
                self._shared_terms(a, b),
                a_mentions_b,
                b_mentions_a,
                near_duplicate=flags[0] or in_summaries,
                confusable_names=flags[2],
                summary_score=round(summary_score, 4),
                cloned_blocks=flags[3],
                duplicate=flags[4],
                severity=_pair_severity(
                    ia,
                    ib,
                    a_mentions_b,
                    b_mentions_a,
                    bool(flags[3] or flags[4]) and not (template or adapted),
                    template=flags[5],
                )
                if not (adapted or converse)
                else (
                    _at_least_warning(_pair_severity(ia, ib, a_mentions_b, b_mentions_a, False))
                    if adapted
                    else _at_most_info(_pair_severity(ia, ib, a_mentions_b, b_mentions_a, False))
                ),
            )
            cache[key] = pair
            self._pair_flags[key] = flags
            out.append(pair)
        out.sort(key=lambda p: (pos.get(p.a, 1 << 30), pos.get(p.b, 1 << 30), p.a, p.b))
        return out


_BLOCK_ORDER = ["summary", "usage", "description"]

_is_content_token = lru_cache(maxsize=65536)(is_content_word)
"""``is_content_word`` once per token: the pairs of a registry share the same few words."""


def _copies(ia: _ToolInfo, ib: _ToolInfo) -> bool:
    """True when two tools share a block's text or their whole description."""
    if ia.dup_key == ib.dup_key:
        return True
    theirs = ib.blocks
    return any(block in theirs and theirs[block][0] == fp for block, (fp, _t) in ia.blocks.items())


def _key(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


# ---------------------------------------------------------------- severity


_LOWER = {Severity.ERROR: Severity.WARNING, Severity.WARNING: Severity.INFO}


TEMPLATE_TOOLS = 3
"""Tools sharing one summary from which it counts as a template (see ``_template_summary``)."""


def _base_severity(ia: _ToolInfo, ib: _ToolInfo, template: bool = False) -> Severity:
    """How confusable a similar pair is before asking whether the descriptions tell it apart.

    Same verb + same object + similar text is an error; verbs of different
    classes (search vs book) are info; in between — one summary says what the
    other does plus something, or the names say the same while the summaries
    differ — a warning; summaries that each state a difference, info. A
    template summary shared by many tools (``template``) is the same text but
    not the same object: unless the names say the same too, a warning.
    """
    # Contrast marks are found when asked; a tool with none contrasts with nothing.
    if _verbs_differ(ia, ib) or ((marks := ia.contrast) and contrasting(marks, ib.contrast)):
        # Opposite or sibling verbs (start / restart, opt in / opt out, 启用 / 停用:
        # data/contrasts.txt) differ as much as verbs of different classes.
        return Severity.INFO
    ca, cb = ia.content, ib.content
    same_name = ia.key == ib.key and bool(ia.key[1])
    if ca and cb:
        if ca == cb:
            if (template and ia.key != ib.key) or _says_more(ia.summary, ib.summary):
                return Severity.WARNING
            return Severity.ERROR
        if ca <= cb or cb <= ca:
            return Severity.WARNING
        return Severity.WARNING if same_name else Severity.INFO
    # A vague summary (no content word) tells nothing apart; the vague-summary
    # rule says so, here the names decide.
    return Severity.ERROR if same_name and not (ca or cb) else Severity.WARNING


_IDENTIFIER = re.compile(r"(?<![A-Za-z0-9_])[A-Za-z]+(?:_[A-Za-z0-9]+)+(?![A-Za-z0-9_])")


@lru_cache(maxsize=65536)
def _block_words(value: str) -> Counter[str]:
    """The content words and verb classes (``read()``, ``delete()``) of a text, counted.

    Identifiers are spelled out as words. Content sets hide what a long summary
    says twice ("… trade stocks, manage their account … Get account
    information.") and drop identifiers ("Latest odds_for_fdj for FDJ");
    counted, and with ``odds_for_fdj`` read as "odds for fdj", the words where
    two texts differ show.
    """
    spelled = _IDENTIFIER.sub(lambda m: " ".join(split_identifier(m.group())), value)
    units = content_units(spelled)
    return Counter(units.content) + Counter(f"{v}()" for v in units.verbs)


def _quantity(summary: str) -> tuple[str, bool]:
    """How many items a summary is about ("many", "all", "current", "one", "") and
    whether a word says so.

    Said by a word of ``data/quantities.txt`` ("all", "a single", "multiple",
    "the current", 全部, 指定; a word of one item counts in the first noun
    phrase only); when none is, the head noun tells: plural
    "many", singular "one" ("Get all info from dog breeds" / "Get all info
    from specific dog breed"; "Delete message from the queue" / "Clear all
    messages from the queue").
    """
    said = quantity(summary)
    if said and said != "one":
        return said, True
    head, end = _head(summary)
    # "a", "one", "specific" say one item in the object's own phrase only: "Get
    # members of a Discord guild" is about many members.
    if said and (not end or quantity(summary[:end]) == "one"):
        return "one", True
    if not head or not head.isascii():
        return "", False
    return ("many" if fold(head) != head.lower() else "one"), False


_NUMBER = re.compile(r"(?<![A-Za-z0-9_])\d+(?:[.,]\d+)?")


def _numbers(summary: str) -> Counter[str]:
    """The numbers a summary states (thresholds, sizes), counted; not those inside ids."""
    return Counter(_NUMBER.findall(summary))


def _quantities_differ(a: str, b: str) -> bool:
    """True when two summaries are about different numbers of items ("all" and "many" alike).

    At least one must say it in words: "Gets order." / "Query orders." only
    differ in a plural, which tells a model nothing it can choose by.
    """
    (qa, said_a), (qb, said_b) = _quantity(a), _quantity(b)
    if not qa or not qb or qa == qb or not (said_a or said_b):
        return False
    return {qa, qb} != {"all", "many"}


_WORD = re.compile(r"[A-Za-z][A-Za-z0-9']*|[\u3400-\u9fff]+")
_SENTENCE_END = re.compile(r"[.;!?。；！？]\s")


@lru_cache(maxsize=65536)
def _head_noun(summary: str) -> str:
    """The last word of the first sentence's first noun phrase, folded ("" when none).

    "Delete Azure File Share" → share; "Delete file from Azure File Share" →
    file; "Calculate the boiling point of a substance" → point. The opening
    verb and generic words ("details", "info") are skipped, except generic
    nouns that head a phrase of their own ("ticker records", "assignment
    operations": the ``head`` group of ``data/quantities.txt``); a stopword
    ends the phrase. A run of Chinese characters gives its first content word.
    """
    word = _head_word(summary)
    return fold(word) if word.isascii() else word


@lru_cache(maxsize=65536)
def _head_word(summary: str) -> str:
    """:func:`_head_noun` as written (a plural stays plural)."""
    return _head(summary)[0]


@lru_cache(maxsize=65536)
def _head(summary: str) -> tuple[str, int]:
    """(:func:`_head_word`, where in ``summary`` its noun phrase ends; 0 when none)."""
    first = _SENTENCE_END.split(summary + " ", maxsplit=1)[0]
    head, end = "", 0
    opening = True
    heads = head_nouns()
    holders = containers()
    for match in _WORD.finditer(first):
        word = match.group()
        if not word.isascii():
            units = content_units(word).content
            return (head, end) if head else ((units[0], match.end()) if units else ("", 0))
        low = word.lower()
        if low in stopwords() or len(low) < 2:
            if head:
                return head, end
            continue
        is_verb = verb_class(low) is not None
        if opening and is_verb:
            opening = False
            continue
        opening = False
        if low in holders and not head:
            continue  # "a list of ticker records": the phrase goes on after "of"
        if low in heads or is_verb or is_content_word(fold(low)):  # "share", "order": nouns
            head, end = low, match.end()
    return head, end


def _content_order(summary: str) -> tuple[str, ...]:
    """The summary's content words in order, each once (where it first appears)."""
    return tuple(dict.fromkeys(content_units(summary).content))


LONG_SUMMARY_UNITS = 8
"""Content words and verbs from which a summary's repeated words count (see ``_says_more``)."""


def _says_more(a: str, b: str) -> bool:
    """True when one summary has a content word or verb class (counted) the other lacks.

    Two summaries with the same content set can still say different things: a
    shared preamble ("This tool belongs to the trading system, which allows
    users to trade stocks, manage their account…") followed by "Get account
    information." / "Get stock information."; the change each makes ("…
    memberships to be deleted" / "… to be upserted"); all items or one ("Delete
    all email customizations" / "Delete an email customization"); the same words
    in another order ("List all users for IdP" / "List all IdPs for user"), or
    about another thing: the head of the first noun phrase ("Delete Azure File
    Share" / "Delete file from Azure File Share"). As with content sets, one
    saying more is a warning, not "nothing tells them apart".
    Synonyms ("Compute" / "Calculates") are one verb class and tell nothing apart.
    """
    if _quantities_differ(a, b):
        return True  # "Delete all email customizations" / "Delete an email customization"
    if extent(a) != extent(b):
        return True  # "analyze page speed" / "analyze page speed with more information"
    na, nb = _numbers(a), _numbers(b)
    if na and nb and na != nb:
        return True  # "Magnitude 2.5+ Earthquakes, Past Hour" / "Magnitude 4.5+ …"
    wa, wb = _block_words(a), _block_words(b)
    if wa.keys() != wb.keys():
        return True
    if wa == wb and _content_order(a) != _content_order(b):
        return True  # "List all users for IdP" / "List all IdPs for user": converse
    ha, hb = _head_noun(a), _head_noun(b)
    if ha and hb and ha != hb:
        return True
    # Counts matter in long texts only: "Query orders. Returns order info." says
    # "order" twice and no more than "Gets order.".
    return wa != wb and min(sum(wa.values()), sum(wb.values())) >= LONG_SUMMARY_UNITS


def _at_most_info(severity: str) -> str:
    """A severity value lowered to info (kept "" when the descriptions tell the pair apart)."""
    return severity and Severity.INFO.value


_DIRECTION = frozenset(("to", "2"))


def converse_names(a: str, b: str) -> bool:
    """True for names of opposite conversions: ``x_to_y`` and ``y_to_x`` (a shared tail kept).

    ``fahrenheit_to_celsius`` / ``celsius_to_fahrenheit``, ``hsl_to_rgb_for_convexity`` /
    ``rgb_to_hsl_for_convexity``: the same words, so the same name key, but the
    names say which way each converts.
    """
    words_a, words_b = split_identifier(a), split_identifier(b)
    # Most pairs: no direction word (split_identifier's words are lower-cased already).
    if len(words_a) != len(words_b) or _DIRECTION.isdisjoint(words_a):
        return False
    wa = [w.lower() for w in words_a]
    wb = [w.lower() for w in words_b]
    if wa == wb:
        return False
    ia = next((i for i, w in enumerate(wa) if w in _DIRECTION), None)
    if ia is None or ia == 0:
        return False
    # The part before a shared tail ("…_for_convexity"): from, direction word, to.
    end = len(wa)
    while end > ia + 1 and wa[end - 1] == wb[end - 1]:
        end -= 1
    ib = next((i for i, w in enumerate(wb[:end]) if w in _DIRECTION), None)
    if ib is None:
        return False
    left_a, right_a = wa[:ia], wa[ia + 1 : end]
    left_b, right_b = wb[:ib], wb[ib + 1 : end]
    return bool(right_a) and left_a == right_b and right_a == left_b


def _at_least_warning(severity: str) -> str:
    """A severity value raised to a warning when lower (a cloned block is never less)."""
    return Severity.ERROR.value if severity == Severity.ERROR.value else Severity.WARNING.value


def _pair_severity(
    ia: _ToolInfo,
    ib: _ToolInfo,
    a_mentions_b: bool,
    b_mentions_a: bool,
    copied: bool,
    *,
    template: bool = False,
) -> str:
    """The pair's severity value; "" when both descriptions tell the tools apart.

    Copied blocks and duplicate tools are errors whatever the descriptions say
    (the caller does not count as copied two differently named tools whose
    only text is a template summary: see :func:`_base_severity`).
    """
    if copied:
        return Severity.ERROR.value
    if a_mentions_b and b_mentions_a:
        return ""
    severity = _base_severity(ia, ib, template)
    if a_mentions_b or b_mentions_a:
        severity = _LOWER.get(severity, Severity.INFO)
    return severity.value


_SEVERITY = {s.value: s for s in Severity}
