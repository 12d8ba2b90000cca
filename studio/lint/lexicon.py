"""Grouped word lists of the ambiguity and risk rules: ``group: word word …`` data files.

:mod:`studio.lint.wordlists` reads flat lists (stopwords, generic words);
the files here group their words, English and Chinese side by side, and a
rule asks for a group by name:

- ``destructive_verbs.txt``: irreversible and reversible destructive verbs,
  and the objects a reversible verb cannot bring back (see
  :func:`destructive_groups`).
- ``contrasts.txt``: sibling and opposite verbs or particles (start / restart /
  stop, opt in / opt out, 启用 / 停用) that tell two otherwise equal summaries
  apart (see :mod:`studio.lint.contrast`).
- ``quantities.txt``: words that say how many items a summary is about
  (all, one, several, the current one).
- ``boilerplate.txt``: patterns of text importers put around every
  description of a tool set ("This is the subfunction for tool …").

Extend the files, not the code: each rule reads every word of its group.
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import compress

from studio.contract.verbs import inflections
from studio.lint.wordlists import data_lines


@lru_cache(maxsize=16)
def grouped_lines(filename: str) -> tuple[tuple[str, str], ...]:
    """``(group, rest of the line)`` of every ``group: …`` line of a data file, in order.

    ``#`` starts a comment; lines without a ``:`` are ignored.
    """
    out = []
    for body in data_lines(filename):
        if ":" not in body:
            continue
        group, rest = body.split(":", 1)
        out.append((group.strip().lower(), rest.strip()))
    return tuple(out)


@lru_cache(maxsize=16)
def word_groups(filename: str) -> dict[str, frozenset[str]]:
    """Group → its whitespace-separated words (lower case), several lines per group merged."""
    out: dict[str, set[str]] = {}
    for group, rest in grouped_lines(filename):
        out.setdefault(group, set()).update(w.lower() for w in rest.split())
    return {g: frozenset(ws) for g, ws in out.items()}


def destructive_groups() -> tuple[frozenset[str], frozenset[str], frozenset[str], frozenset[str]]:
    """(irreversible verbs, reversible verbs, final verbs, final objects) of
    ``destructive_verbs.txt``."""
    groups = word_groups("destructive_verbs.txt")
    empty: frozenset[str] = frozenset()
    return (
        groups.get("irreversible", empty),
        groups.get("reversible", empty),
        groups.get("final-verb", empty),
        groups.get("final-object", empty),
    )


@lru_cache(maxsize=1)
def _boilerplate() -> tuple[re.Pattern[str] | None, re.Pattern[str] | None]:
    """(prefixes, wrapper) of ``boilerplate.txt``, each one compiled pattern (None: none)."""
    prefixes = [r for g, r in grouped_lines("boilerplate.txt") if g == "prefix"]
    wrappers = [r for g, r in grouped_lines("boilerplate.txt") if g == "wrapper"]
    flags = re.IGNORECASE | re.DOTALL
    prefix = re.compile("|".join(f"(?:{r})" for r in prefixes), flags) if prefixes else None
    wrapper = re.compile("|".join(f"(?:{r})" for r in wrappers), flags) if wrappers else None
    return prefix, wrapper


@lru_cache(maxsize=65536)
def strip_boilerplate(text: str) -> str:
    """``text`` without the generator's boilerplate it opens with (``boilerplate.txt``).

    'This is the subfunction for tool "spotify", you can use this tool.The
    description of this function is: "Get artist singles"' → "Get artist
    singles"; a text that is only boilerplate gives "". Text without any is
    returned as it is (stripped).
    """
    prefix, wrapper = _boilerplate()
    out = text.strip()
    if prefix is None:
        return out
    stripped = False
    while out:
        match = prefix.match(out)
        if match is None or not match.group():
            break
        out = out[match.end() :].lstrip()
        stripped = True
    if stripped and wrapper is not None:
        enclosed = wrapper.fullmatch(out)
        if enclosed is not None:
            inner = next((g for g in enclosed.groups() if g is not None), None)
            if inner is not None:
                out = inner.strip()
    return out


_LATIN = re.compile(r"[A-Za-z]")
_LATIN_WORD = re.compile(r"[a-z]+")
# A run, not one character: the same searches, and half the compiling of a class this
# large (~0.6 ms instead of ~1.2, where the one-character pattern builds it twice).
_CJK_RUN = re.compile(r"[\u3400-\u9fff]+")
_MAX_WORDS = 3
"""Longest phrase, in words, the lists may hold (one_or_more)."""


_bases = lru_cache(maxsize=65536)(inflections)
"""A word and the base forms it may be an inflection of, once per word."""


class _Starts(dict[str, tuple[str, ...]]):
    """Per word: its base forms that start a phrase of one set, computed on first lookup.

    Most words start none (an empty tuple), which :meth:`PhraseSet.find` skips
    without a Python step per word.
    """

    __slots__ = ("_firsts",)

    def __init__(self, firsts: frozenset[str]) -> None:
        super().__init__()
        self._firsts = firsts

    def __missing__(self, word: str) -> tuple[str, ...]:
        firsts = self._firsts
        out = tuple(b for b in _bases(word) if b in firsts)
        if len(self) < 200_000:
            self[word] = out
        return out


class PhraseSet:
    """Phrases of a data file (English and Chinese), each with its labels, found in a text.

    Linear in the text, whatever the number of phrases: English words are
    looked up (the first word of a phrase in any simple inflection: starts,
    stopped, opting in), Chinese phrases searched as written, longest first
    and not inside a longer one found (取消关注 holds 关注). A regex
    alternation of the phrases made Python try every phrase at every position.
    """

    __slots__ = ("_cjk", "_latin", "_starts")

    def __init__(self, labelled: dict[str, list[object]]) -> None:
        self._latin: dict[str, tuple[object, ...]] = {}
        cjk: list[tuple[str, tuple[object, ...]]] = []
        for phrase, labels in labelled.items():
            key = " ".join(_LATIN_WORD.findall(phrase.lower().replace("_", " ")))
            if _LATIN.search(phrase) and key:
                self._latin[key] = tuple(labels)
            elif phrase.strip():
                cjk.append((phrase.strip(), tuple(labels)))
        self._cjk = tuple(sorted(cjk, key=lambda p: -len(p[0])))
        self._starts = _Starts(frozenset(k.split(" ", 1)[0] for k in self._latin))

    def find(self, text: str) -> list[tuple[str, object]]:
        """(phrase, label) of every phrase in ``text`` (a phrase once per label)."""
        out: list[tuple[str, object]] = []
        if self._latin:
            words = _LATIN_WORD.findall(text.lower())
            n = len(words)
            starts = list(map(self._starts.__getitem__, words))
            after = 0  # the first word not inside a phrase found
            # Only the words that may start a phrase, in order.
            for i in compress(range(n), starts):
                if i < after:
                    continue
                bases = starts[i]
                step = 1
                for size in range(min(_MAX_WORDS, n - i), 0, -1):
                    rest = " ".join(words[i + 1 : i + size])
                    hit = next(
                        (k for b in bases if (k := f"{b} {rest}" if rest else b) in self._latin),
                        None,
                    )
                    if hit is not None:
                        out.extend((hit, label) for label in self._latin[hit])
                        step = size
                        break
                after = i + step
        if self._cjk and not text.isascii() and _CJK_RUN.search(text):
            taken: list[tuple[int, int]] = []
            for phrase, labels in self._cjk:
                at = text.find(phrase)
                while at >= 0:
                    end = at + len(phrase)
                    if not any(a < end and at < b for a, b in taken):
                        taken.append((at, end))
                        out.extend((phrase, label) for label in labels)
                    at = text.find(phrase, end)
        return out


@lru_cache(maxsize=1)
def _contrasts() -> PhraseSet:
    """The member phrases of ``contrasts.txt``, each labelled with its (set, member) pairs
    (a phrase may be in several sets: resume is the opposite of pause and a sibling of
    retry)."""
    marks: dict[str, list[object]] = {}
    for set_no, body in enumerate(data_lines("contrasts.txt")):
        if "|" not in body:
            continue
        for member_no, member in enumerate(body.split("|")):
            for phrase in member.split(","):
                phrase = " ".join(phrase.lower().split())
                if phrase:
                    marks.setdefault(phrase, []).append((set_no, member_no))
    return PhraseSet(marks)


@lru_cache(maxsize=65536)
def contrast_marks(text: str) -> frozenset[tuple[int, int]]:
    """The (set, member) of every ``contrasts.txt`` phrase in ``text``."""
    if not text:
        return frozenset()
    return frozenset(mark for _p, mark in _contrasts().find(text))  # type: ignore[misc]


def contrasting(a: frozenset[tuple[int, int]], b: frozenset[tuple[int, int]]) -> bool:
    """True when two texts take different members of one contrast set (see ``contrasts.txt``).

    Each must have a member the other lacks: "Start or stop a VM" / "Stop a
    VM" do not contrast (the first says more), "Start a VM" / "Restart a VM" do.
    """
    if not a or not b:
        return False
    for set_no in {s for s, _m in a} & {s for s, _m in b}:
        ma = {m for s, m in a if s == set_no}
        mb = {m for s, m in b if s == set_no}
        if ma - mb and mb - ma:
            return True
    return False


_QUANTITY_ORDER = ("many", "all", "current", "one")
"""Quantity groups of ``quantities.txt``: the first found in a summary decides."""


@lru_cache(maxsize=1)
def _quantities() -> PhraseSet:
    """The words of the quantity and extent groups of ``quantities.txt``, labelled by group."""
    labelled: dict[str, list[object]] = {}
    for group, words in word_groups("quantities.txt").items():
        if group in (*_QUANTITY_ORDER, "extent"):
            for w in words:
                labelled.setdefault(w.replace("_", " "), []).append(group)
    return PhraseSet(labelled)


@lru_cache(maxsize=65536)
def _quantity_words(text: str) -> tuple[tuple[str, object], ...]:
    """(phrase, group) of the quantity and extent words of a text, "all info" left out."""
    fields = word_groups("quantities.txt").get("fields", frozenset())
    found = _quantities().find(text)
    if any(p == "all" for p, _g in found):
        # "all info", "all details": the fields of one item, not all items.
        words = _LATIN_WORD.findall(text.lower())
        alls = [i for i, w in enumerate(words) if w == "all"]
        if alls and all(i + 1 < len(words) and words[i + 1] in fields for i in alls):
            found = [(p, g) for p, g in found if p != "all"]
    return tuple(found)


def quantity(text: str) -> str:
    """How many items a summary is about: "many", "all", "current", "one" or "" (unsaid)."""
    groups = {g for _p, g in _quantity_words(text)}
    return next((g for g in _QUANTITY_ORDER if g in groups), "")


def extent(text: str) -> frozenset[str]:
    """The words of a summary that say how much of an item it gives ("more", "detailed", 详细)."""
    return frozenset(p for p, g in _quantity_words(text) if g == "extent")


def head_nouns() -> frozenset[str]:
    """Generic nouns that head a phrase of their own ("ticker records"): ``quantities.txt``."""
    return word_groups("quantities.txt").get("head", frozenset())


def containers() -> frozenset[str]:
    """Nouns that hold items without being them ("a list of …"): ``quantities.txt``."""
    return word_groups("quantities.txt").get("container", frozenset())


__all__ = [
    "PhraseSet",
    "containers",
    "contrast_marks",
    "contrasting",
    "destructive_groups",
    "extent",
    "grouped_lines",
    "head_nouns",
    "quantity",
    "strip_boilerplate",
    "word_groups",
]
