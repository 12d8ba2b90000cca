"""Which of many literal needles occur in a text, in one Aho–Corasick pass.

The security phrases are pre-filtered by *needles* (see
:mod:`studio.lint.rules._security_phrases`): lower-case literals, a space in
one standing for any run of whitespace, some required to start at a word
boundary. They used to go into one RE2 set. RE2 builds its DFA lazily, state by
state, and a set of ~1,500 case-insensitive needles meets a new state at almost
every position of fresh text: 0.5 CPU-s of a 2,000-tool lint went into building
states that the next process builds again. An Aho–Corasick automaton of the
same needles is built in a few milliseconds and reads the text once; the
whitespace and case rules are applied to the text instead (lower-cased, every
whitespace run one space) and word boundaries are checked at the few
occurrences of bounded needles.

The answer is the same set of entries RE2 gave for these needles (Latin,
digits, punctuation, CJK) on normalised text; the tests compare the two on the
security corpora.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

import ahocorasick  # type: ignore[import-not-found]

_WHITESPACE = re.compile(r"[\t\n\f\r ]+")
"""RE2's ``\\s`` (ASCII whitespace without vertical tab): what a space in a needle matches."""
_FOLD = str.maketrans({"\u212a": "k", "\u017f": "s"})
"""The non-ASCII letters RE2 matches to an ASCII one case-insensitively (Kelvin sign, long s).

RE2 counts them as non-word characters for ``\\b``, folded they are word
characters, so next to a bounded needle the two may differ (the phrases confirm
every candidate anyway). Normalised text (NFKC), all the linter matches, holds neither.
"""

BOUND = "\\b"
"""The prefix of a needle that must start at a word boundary (RE2's ASCII ``\\b``)."""


_WORD = frozenset("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")
"""RE2's ASCII ``\\w``: what a word boundary is measured against."""


def fold(value: str) -> str:
    """``value`` as needles are matched against it: lower-case, whitespace runs one space."""
    folded = value.lower()
    if not folded.isascii():
        folded = folded.translate(_FOLD)
    return _WHITESPACE.sub(" ", folded)


def supported(needle: str) -> bool:
    """True when :class:`LiteralSet` matches ``needle`` exactly as RE2 would.

    A needle must be lower-case (the text is lower-cased) and have no two
    spaces in a row (a whitespace run in the text becomes one space).
    """
    text = needle.removeprefix(BOUND)
    return bool(text) and text == text.lower() and "  " not in text


class LiteralSet:
    """Entries of needles; :meth:`match` tells which entries have a needle in a text.

    Args:
        entries: Each entry's needles (lower-case literals, see :func:`supported`).
            An entry matches when any of its needles occurs.

    Raises:
        ValueError: for a needle :func:`supported` refuses.
    """

    def __init__(self, entries: Sequence[Iterable[str]]) -> None:
        by_key: dict[str, tuple[set[int], set[int]]] = {}
        for index, needles in enumerate(entries):
            for needle in needles:
                if not supported(needle):
                    raise ValueError(f"needle {needle!r} cannot be matched as a literal")
                bounded = needle.startswith(BOUND)
                key = needle.removeprefix(BOUND)
                free, bound = by_key.setdefault(key, (set(), set()))
                (bound if bounded else free).add(index)
        self._automaton = ahocorasick.Automaton()
        for key, (free, bound) in by_key.items():
            # (length, entries anywhere, entries at a word boundary, first char a word char)
            value = (len(key), frozenset(free), frozenset(bound - free), key[0] in _WORD)
            self._automaton.add_word(key, value)
        self._empty = not by_key
        if not self._empty:
            self._automaton.make_automaton()
        self.size = len(entries)

    def match(self, value: str) -> set[int]:
        """Indices of the entries with a needle in ``value``."""
        out: set[int] = set()
        if self._empty or not value:
            return out
        text = fold(value)
        word = _WORD
        for end, (length, free, bound, word_first) in self._automaton.iter(text):
            if free:
                out |= free
            if bound:
                start = end - length + 1
                # A boundary: a word character on one side only (the text's start is none).
                if (start > 0 and text[start - 1] in word) is not word_first:
                    out |= bound
        return out
