"""Text handling for mixed Chinese/English descriptions.

Latin text is split into lower-cased words; CJK text into overlapping
character bigrams (a lone CJK character stays a unigram), the usual unit for
comparing Chinese without a segmenter. Identifiers split on ``_``, ``-`` and
camelCase boundaries.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

# CJK Unified Ideographs (+ Extension A), compatibility ideographs, kana, hangul.
_CJK_CLASS = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af"
CJK_RUN = re.compile(f"[{_CJK_CLASS}]+")
"""A run of CJK characters. The one pattern of this class alone that the linter
compiles (~1 ms each, the class is large): ``match`` and ``search`` tell whether a
text starts with or holds a CJK character as well as a one-character pattern would."""
_LATIN_WORD = re.compile(r"[A-Za-z0-9]+(?:['’][A-Za-z]+)?")
_ALNUM_ONLY = bytes(c if c < 128 and chr(c).isalnum() else 0x20 for c in range(256))
"""A byte table: ASCII letters and digits kept, every other byte a space."""


def ascii_words(value: str) -> list[str]:
    """The runs of letters and digits of an ASCII ``value``, in order: what
    ``[A-Za-z0-9]+`` finds, as a byte translation and a split (~4× cheaper)."""
    return value.encode().translate(_ALNUM_ONLY).decode().split()


_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
_TOKEN = re.compile(f"[{_CJK_CLASS}]+|[A-Za-z0-9]+(?:['’][A-Za-z]+)?")
_IDENT_SEPARATORS = re.compile(r"[_\-\s.]+")

STOPWORDS = frozenset(
    """a an and are as at be by for from has have if in into is it its of on or that the
    this to was were will with which when where who what use used using not no do does
    this these those than then there their them they can may must should you your
    的 了 和 是 在 用 与 或""".split()  # noqa: SIM905 - a word list reads better as prose
)


@lru_cache(maxsize=65536)
def split_identifier(name: str) -> tuple[str, ...]:
    """Words of an identifier: ``queryOrderList`` → ``("query", "order", "list")``."""
    words: list[str] = []
    for part in _IDENT_SEPARATORS.split(name):
        if not part:
            continue
        if CJK_RUN.fullmatch(part):
            words.append(part)
            continue
        words.extend([w.lower() for w in _CAMEL.findall(part)])
    return tuple(words)


def tokenize(text: str, *, drop_stopwords: bool = True) -> list[str]:
    """Tokens for similarity: Latin words (lower-cased) and CJK bigrams.

    Args:
        text: Any mix of Chinese and English.
        drop_stopwords: Leave out function words ("the", "of", "的").

    Return:
        Tokens in text order (duplicates kept, for term frequencies).
    """
    if text.isascii():
        # Lower-casing ASCII keeps every character in its class. Without an apostrophe
        # a word is a run of letters and digits (ascii_words: the same words).
        low = text.lower()
        tokens = ascii_words(low) if "'" not in low else _LATIN_WORD.findall(low)
    elif "\u0130" not in text and "\u212a" not in text:
        # Apart from these two (İ lower-cases to two characters, the Kelvin sign
        # to an ASCII k), lower-casing moves no character in or out of a class.
        tokens = []
        for run in _TOKEN.findall(text.lower()):
            if run[0].isascii() or len(run) == 1:  # a Latin word or a lone CJK character
                tokens.append(run)
            else:
                tokens.extend([run[i : i + 2] for i in range(len(run) - 1)])
    else:
        tokens = []
        for match in _TOKEN.finditer(text):
            run = match.group()
            if CJK_RUN.match(run):
                if len(run) == 1:
                    tokens.append(run)
                else:
                    tokens.extend(run[i : i + 2] for i in range(len(run) - 1))
            else:
                tokens.append(run.lower())
    if drop_stopwords:
        tokens = [t for t in tokens if t not in STOPWORDS]
    return tokens


def latin_word_set(text: str) -> set[str]:
    """The distinct ASCII tokens of ``tokenize(text)`` (stopwords dropped), fast for ASCII text."""
    if text.isascii():
        low = text.lower()
        words = set(ascii_words(low) if "'" not in low else _LATIN_WORD.findall(low))
        words -= STOPWORDS
        return words
    return {t for t in tokenize(text) if t.isascii()}


def only_words_of(text: str, allowed: frozenset[str] | set[str]) -> bool:
    """``bool(words) and words <= allowed`` for ``words = latin_word_set(text)``.

    Stops at the first word that is neither allowed nor a stopword: a text that
    restates a name is short, and most texts fail on their first words, so
    building the whole word set (scores do it for every parameter description)
    is wasted.
    """
    if not text.isascii():
        words = latin_word_set(text)
        return bool(words) and words <= allowed
    found = False
    for match in _LATIN_WORD.finditer(text.lower()):
        word = match.group()
        if word in STOPWORDS:
            continue
        if word not in allowed:
            return False
        found = True
    return found


def token_count(text: str) -> int:
    """``len(tokenize(text, drop_stopwords=False))``, without building the tokens."""
    if text.isascii():
        return len(ascii_words(text) if "'" not in text else _LATIN_WORD.findall(text))
    # As in tokenize: runs of the lower-cased text (of the text itself when lower-casing
    # would move a character between classes); a Latin word or a lone CJK character is
    # one token, a CJK run of n characters n - 1 bigrams.
    source = text if "\u0130" in text or "\u212a" in text else text.lower()
    return sum(
        1 if len(run) == 1 or run[0].isascii() else len(run) - 1 for run in _TOKEN.findall(source)
    )


@dataclass(frozen=True, slots=True)
class TextLength:
    """Length of a mixed text: CJK characters and Latin words, counted apart."""

    cjk_chars: int
    latin_words: int

    def exceeds(self, max_cjk_chars: int, max_latin_words: int) -> bool:
        """True when the text is too long for either budget.

        A mixed text is measured in "budget units": each CJK character uses
        1/max_cjk_chars of the budget and each Latin word 1/max_latin_words.
        """
        used = self.cjk_chars / max_cjk_chars + self.latin_words / max_latin_words
        return used > 1.0 + 1e-9


def text_length(text: str) -> TextLength:
    """Count CJK characters and Latin words in ``text``."""
    if text.isascii():
        return TextLength(
            0, len(ascii_words(text) if "'" not in text else _LATIN_WORD.findall(text))
        )
    cjk = sum(len(run) for run in CJK_RUN.findall(text))
    latin = len(_LATIN_WORD.findall(CJK_RUN.sub(" ", text)))
    return TextLength(cjk, latin)


def fewer_words_than(text: str, latin_words: int, cjk_chars: int) -> bool:
    """``size.latin_words < latin_words and size.cjk_chars < cjk_chars`` for
    ``size = text_length(text)``: an ASCII text is read only up to that many words
    (scores ask it of whole descriptions, for thresholds of a few words)."""
    if text.isascii():
        if cjk_chars <= 0:
            return False
        found = 0
        for _word in _LATIN_WORD.finditer(text):
            found += 1
            if found >= latin_words:
                return False
        return found < latin_words
    size = text_length(text)
    return size.latin_words < latin_words and size.cjk_chars < cjk_chars


def has_cjk(text: str) -> bool:
    """True when ``text`` contains any CJK character."""
    return not text.isascii() and CJK_RUN.search(text) is not None


# Characters that re.IGNORECASE matches to an ASCII letter although ``str.lower``
# does not map them onto it (İ, ı, ſ, the Kelvin sign).
_CASE_SPECIAL = frozenset("\u0130\u0131\u017f\u212a")


def search_with_needles(pattern: re.Pattern[str], needles: tuple[str, ...], text: str) -> bool:
    """``pattern.search(text) is not None``, skipping the search when it cannot match.

    ``needles`` are lower-case literals one of which every match of ``pattern``
    contains (case-insensitively when the pattern ignores case): a text without
    any of them cannot match, which is far cheaper to find out than running a
    long alternation of word-bounded phrases.
    """
    return may_contain(needles, text) and pattern.search(text) is not None


def may_contain(needles: tuple[str, ...], text: str) -> bool:
    """False only when ``text`` holds none of the lower-case ``needles``, in any case.

    (True when unsure: a text with a character that IGNORECASE folds onto an ASCII
    letter although ``str.lower`` does not.)
    """
    if text.isascii() or _CASE_SPECIAL.isdisjoint(text):
        for _hit in _needle_automaton(needles).iter(text.lower()):
            return True
        return False
    return True


_automata: dict[int, tuple[tuple[str, ...], Any]] = {}


def _needle_automaton(needles: tuple[str, ...]) -> Any:
    """An Aho–Corasick automaton of ``needles``, built once per tuple (kept by identity).

    One pass over the text finds whether any needle occurs; ``needle in text`` for
    each of 20–35 needles read the text that many times (~7,700 texts per
    2,000-tool lint). An empty needle occurs in every text.
    """
    known = _automata.get(id(needles))
    if known is not None and known[0] is needles:
        return known[1]
    automaton: Any
    if "" in needles or not needles:
        automaton = _Fixed(bool(needles))
    else:
        import ahocorasick  # type: ignore[import-not-found]

        automaton = ahocorasick.Automaton()
        for needle in needles:
            automaton.add_word(needle, None)
        automaton.make_automaton()
    if len(_automata) >= 256:  # callers pass a few constant tuples; anything else is bounded
        _automata.clear()
    _automata[id(needles)] = (needles, automaton)
    return automaton


class _Fixed:
    """An automaton's answer for no needles (never a hit) or the empty one (always one)."""

    def __init__(self, hit: bool) -> None:
        self._hits = (0,) if hit else ()

    def iter(self, text: str) -> tuple[int, ...]:
        return self._hits
