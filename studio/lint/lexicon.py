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
from importlib import resources


@lru_cache(maxsize=16)
def grouped_lines(filename: str) -> tuple[tuple[str, str], ...]:
    """``(group, rest of the line)`` of every ``group: …`` line of a data file, in order.

    ``#`` starts a comment; lines without a ``:`` are ignored.
    """
    raw = resources.files("studio.lint").joinpath("data", filename).read_text("utf-8")
    out = []
    for line in raw.splitlines():
        body = line.split("#", 1)[0].strip()
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


def _inflected(word: str) -> str:
    """A regular expression for an English word in its simple inflections.

    start → starts, started, starting; enable → enables, enabled, enabling;
    stop → stopped, stopping; modify → modifies, modified.
    """
    w = re.escape(word)
    if word.endswith("e"):
        return f"{w[:-1]}(?:e|es|ed|ing)"
    if word.endswith("y") and len(word) > 2 and word[-2] not in "aeiou":
        return f"{w[:-1]}(?:y|ies|ied|ying)"
    return f"{w}(?:s|es|ed|ing|{re.escape(word[-1])}(?:ed|ing))?"


def _phrase_pattern(phrase: str) -> str:
    """A member phrase as a pattern: Latin words inflected, apart by spaces, _ or -."""
    if not _LATIN.search(phrase):
        return re.escape(phrase)
    words = phrase.split()
    body = r"[\s_-]+".join([_inflected(words[0]), *(re.escape(w) for w in words[1:])])
    return rf"(?<![A-Za-z]){body}(?![A-Za-z])"


@lru_cache(maxsize=1)
def _contrasts() -> tuple[re.Pattern[str] | None, tuple[tuple[int, int], ...]]:
    """One pattern of every member phrase of ``contrasts.txt`` (longest first, one group
    each) and, per group, its (set, member)."""
    raw = resources.files("studio.lint").joinpath("data", "contrasts.txt").read_text("utf-8")
    phrases: list[tuple[str, int, int]] = []
    for set_no, line in enumerate(raw.splitlines()):
        body = line.split("#", 1)[0].strip()
        if "|" not in body:
            continue
        for member_no, member in enumerate(body.split("|")):
            for phrase in member.split(","):
                phrase = " ".join(phrase.lower().split())
                if phrase:
                    phrases.append((phrase, set_no, member_no))
    if not phrases:
        return None, ()
    phrases.sort(key=lambda p: -len(p[0]))
    pattern = "|".join(f"({_phrase_pattern(p)})" for p, _s, _m in phrases)
    return re.compile(pattern, re.IGNORECASE), tuple((s, m) for _p, s, m in phrases)


@lru_cache(maxsize=65536)
def contrast_marks(text: str) -> frozenset[tuple[int, int]]:
    """The (set, member) of every ``contrasts.txt`` phrase in ``text``."""
    pattern, members = _contrasts()
    if pattern is None or not text:
        return frozenset()
    return frozenset(members[m.lastindex - 1] for m in pattern.finditer(text) if m.lastindex)


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


_NOT_QUANTITIES = frozenset(("fields", "head", "extent", "container"))


@lru_cache(maxsize=1)
def _quantity_patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    """(group, pattern) of the quantity groups of ``quantities.txt``, in the file's order."""
    order: list[str] = []
    words: dict[str, list[str]] = {}
    for group, rest in grouped_lines("quantities.txt"):
        if group in _NOT_QUANTITIES:
            continue
        if group not in words:
            order.append(group)
            words[group] = []
        words[group].extend(w.lower().replace("_", " ") for w in rest.split())
    fields = "|".join(re.escape(w) for w in sorted(word_groups("quantities.txt").get("fields", ())))
    out = []
    for group in order:
        alternatives = []
        for w in sorted(words[group], key=len, reverse=True):
            if not _LATIN.search(w):
                alternatives.append(re.escape(w))
                continue
            body = r"\s+".join(re.escape(x) for x in w.split())
            # "all info", "all details": the fields of one item, not all items.
            after = rf"(?!\s+(?:{fields})\b)" if group == "all" and fields else ""
            alternatives.append(rf"\b{body}\b{after}")
        out.append((group, re.compile("|".join(alternatives), re.IGNORECASE)))
    return tuple(out)


@lru_cache(maxsize=65536)
def quantity(text: str) -> str:
    """How many items a summary is about: "many", "all", "current", "one" or "" (unsaid)."""
    for group, pattern in _quantity_patterns():
        if pattern.search(text):
            return group
    return ""


def head_nouns() -> frozenset[str]:
    """Generic nouns that head a phrase of their own ("ticker records"): ``quantities.txt``."""
    return word_groups("quantities.txt").get("head", frozenset())


def containers() -> frozenset[str]:
    """Nouns that hold items without being them ("a list of …"): ``quantities.txt``."""
    return word_groups("quantities.txt").get("container", frozenset())


@lru_cache(maxsize=1)
def _extent_pattern() -> re.Pattern[str] | None:
    words = sorted(word_groups("quantities.txt").get("extent", ()), key=len, reverse=True)
    if not words:
        return None
    alternatives = [rf"\b{re.escape(w)}\b" if _LATIN.search(w) else re.escape(w) for w in words]
    return re.compile("|".join(alternatives), re.IGNORECASE)


@lru_cache(maxsize=65536)
def extent(text: str) -> frozenset[str]:
    """The words of a summary that say how much of an item it gives ("more", "detailed", 详细)."""
    pattern = _extent_pattern()
    if pattern is None:
        return frozenset()
    return frozenset(m.group().lower() for m in pattern.finditer(text))


__all__ = [
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
