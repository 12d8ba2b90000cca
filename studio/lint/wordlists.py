"""Word lists the ambiguity and description rules read: verbs, generic words, stopwords.

The lists are data, not code: plain text files in ``studio/lint/data``
(``verbs.txt``, ``generic_words.txt``, ``stopwords.txt``), English and Chinese
side by side. Add a word there and every rule that reads the list sees it.

:func:`content_units` turns a short text (a summary, a usage line) into what
it says: verb classes (``@read``, ``@create`` …) and content words, with
stopwords, generic words ("data", "信息", "相关"), numbers and identifiers
left out. Chinese has no spaces, so a CJK run is segmented against the lists
(longest match first); what no list knows stays as character bigrams (a lone
character as itself), the usual unit for comparing Chinese without a segmenter.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from studio.contract.verbs import inflections as _inflections
from studio.contract.verbs import verb_class, verb_classes
from studio.lint.text import CJK_RUN, STOPWORDS

VERB_PREFIX = "@"
"""Content units that stand for a verb class start with this (``@read``)."""
GENERIC_PREFIX = "~"

_CJK = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af"
# A CJK run, or a Latin word with its hyphen/underscore/dot compounds (INV-102,
# query_tickets, v1.2) and an apostrophe suffix (employee's).
_RUN = re.compile(rf"[{_CJK}]+|[A-Za-z0-9]+(?:[-_.][A-Za-z0-9]+)*(?:['’][A-Za-z]+)?")
_IDENT = re.compile(r"[0-9_]")
_APOSTROPHE = re.compile("['’]")
_COMPOUND = re.compile(r"[-.]")


# Beside this module, as installed (wheel or editable): a path read, not
# importlib.resources, which imports tempfile, shutil and random (~2 ms of a lint).
_DATA = Path(__file__).resolve().parent / "data"


def data_lines(filename: str) -> list[str]:
    """The lines of ``studio/lint/data/filename``, each cut at its ``#`` comment and
    stripped (blank lines kept, so a line's index is its place in the file)."""
    raw = (_DATA / filename).read_text("utf-8")
    return [line.split("#", 1)[0].strip() for line in raw.splitlines()]


def _words(filename: str) -> list[str]:
    """Whitespace-separated words of a data file, ``#`` comments left out."""
    return [word for line in data_lines(filename) for word in line.split()]


@lru_cache(maxsize=1)
def generic_words() -> frozenset[str]:
    """Words that name no domain object (``data``, ``details``, ``信息``, ``相关``)."""
    return frozenset(w.lower() for w in _words("generic_words.txt"))


@lru_cache(maxsize=1)
def stopwords() -> frozenset[str]:
    """Function words: :data:`studio.lint.text.STOPWORDS` and ``stopwords.txt``."""
    return STOPWORDS | frozenset(w.lower() for w in _words("stopwords.txt"))


def _in(word: str, words: frozenset[str]) -> bool:
    return any(form in words for form in _inflections(word))


def fold(word: str) -> str:
    """A Latin word as compared: lower case, simple plural folded (policies → policy)."""
    w = word.lower()
    if len(w) > 4 and w.endswith("ies"):
        return w[:-3] + "y"
    if len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
        return w[:-1]
    return w


_SPLITTING_CHARS = frozenset("的了和与或及并而")


@lru_cache(maxsize=1)
def _cjk_lexicon() -> tuple[dict[str, str], int]:
    """CJK words of the lists → ``@class`` (verbs), ``~word`` (generic) or ``""`` (stopwords)."""
    lex: dict[str, str] = {}
    for word in stopwords():
        # A one-character stopword splits a run only where it cannot start a word:
        # 用 in 用户 (user) or 是 in 是否 must stay.
        if CJK_RUN.match(word) and (len(word) > 1 or word in _SPLITTING_CHARS):
            lex[word] = ""
    for word in generic_words():
        if CJK_RUN.match(word):
            lex[word] = GENERIC_PREFIX + word
    for word, cls in verb_classes().items():
        if CJK_RUN.match(word):
            lex[word] = VERB_PREFIX + cls
    longest = max((len(w) for w in lex), default=1)
    return lex, longest


def _segment_cjk(run: str, out: list[str]) -> None:
    lex, longest = _cjk_lexicon()
    rest: list[str] = []

    def flush() -> None:
        if len(rest) == 1:
            out.append(rest[0])
        else:
            out.extend(rest[i] + rest[i + 1] for i in range(len(rest) - 1))
        rest.clear()

    i, n = 0, len(run)
    while i < n:
        for size in range(min(longest, n - i), 0, -1):
            unit = lex.get(run[i : i + size])
            if unit is not None:
                flush()
                if unit:
                    out.append(unit)
                i += size
                break
        else:
            rest.append(run[i])
            i += 1
    flush()


@dataclass(frozen=True, slots=True)
class Units:
    """What a short text says, as :func:`content_units` reads it.

    Attributes:
        verbs: Verb classes, in order (``("read",)``).
        content: Content units (folded words, CJK words or bigrams), in order,
            without verbs, stopwords, generic words, numbers and identifiers.
        generic: The generic words the text used (to quote back to the author).
    """

    verbs: tuple[str, ...]
    content: tuple[str, ...]
    generic: tuple[str, ...]

    def key(self) -> frozenset[str]:
        """Verb classes and content as one set (for comparing two texts)."""
        return frozenset((*(VERB_PREFIX + v for v in self.verbs), *self.content))


_OPENS_SLOT, _SKIP, _GENERIC, _CONTENT = range(4)


@lru_cache(maxsize=200_000)
def _latin_kind(word: str) -> tuple[int, str, str | None]:
    """(kind, value, verb class) of a lower-case Latin word, once per word.

    The verb class is only used where a verb stands; elsewhere the word is
    generic or content (``book``, ``list`` as nouns).
    """
    if word in ("to", "and", "or", "then"):
        return _OPENS_SLOT, word, None
    if word in stopwords() or len(word) < 2:
        return _SKIP, word, None
    cls = verb_class(word)
    if _in(word, generic_words()):
        return _GENERIC, word, cls
    return _CONTENT, fold(word), cls


@lru_cache(maxsize=65536)
def content_units(text: str) -> Units:
    """Verb classes, content words and generic words of a short text.

    A Latin word is a verb only where a verb stands: first in the text, or
    right after "to", "and", "or" (``Use this to book a room``); elsewhere
    ``book`` or ``list`` is a noun. Chinese verbs are recognised anywhere.
    Words with digits (``INV-102``, ``1008292230``) and one-letter words are
    identifiers or noise and never content.
    """
    verbs: list[str] = []
    content: list[str] = []
    generic: list[str] = []
    if text.isascii():
        # No CJK run, and lower-casing ASCII keeps every character in its class:
        # the same runs, lowered, without a match object each.
        _latin_units(_RUN.findall(text.lower()), True, verbs, content, generic)
        return Units(tuple(verbs), tuple(content), tuple(dict.fromkeys(generic)))
    verb_slot = True
    for match in _RUN.finditer(text):
        run = match.group()
        if CJK_RUN.match(run):
            units: list[str] = []
            _segment_cjk(run, units)
            for u in units:
                if u.startswith(VERB_PREFIX):
                    verbs.append(u[1:])
                elif u.startswith(GENERIC_PREFIX):
                    generic.append(u[1:])
                else:
                    content.append(u)
            verb_slot = False
            continue
        verb_slot = _latin_units((run.lower(),), verb_slot, verbs, content, generic)
    return Units(tuple(verbs), tuple(content), tuple(dict.fromkeys(generic)))


def _latin_units(
    runs: Iterable[str], verb_slot: bool, verbs: list[str], content: list[str], generic: list[str]
) -> bool:
    """:func:`content_units`' reading of lower-case Latin runs; returns whether a verb
    slot is open after them (a CJK run may follow)."""
    kind_of = _latin_kind
    for low in runs:
        if _IDENT.search(low):
            continue  # an id, a number or an identifier (INV-102, query_tickets)
        if "'" in low or "’" in low:
            low = _APOSTROPHE.split(low, maxsplit=1)[0]
        for word in _COMPOUND.split(low) if "-" in low or "." in low else (low,):
            kind, value, cls = kind_of(word)
            if kind == _OPENS_SLOT:
                verb_slot = True
            elif kind == _SKIP:
                continue
            elif verb_slot and cls is not None:
                verbs.append(cls)
                verb_slot = False
            elif kind == _GENERIC:
                generic.append(value)  # "This tool gets …": the verb slot stays open
            else:
                content.append(value)
                verb_slot = False
    return verb_slot


@lru_cache(maxsize=200_000)
def is_content_word(token: str) -> bool:
    """True for a token that may tell a tool's subject: not a stopword, generic word,
    verb, number or id (a similarity token: lower case, plural folded, or a CJK bigram)."""
    if len(token) < 2 or _IDENT.search(token):
        return False
    if CJK_RUN.match(token):
        lex, _ = _cjk_lexicon()
        return token not in lex
    if token in stopwords():
        return False
    return verb_class(token) is None and not _in(token, generic_words())


__all__ = [
    "VERB_PREFIX",
    "Units",
    "content_units",
    "fold",
    "generic_words",
    "is_content_word",
    "stopwords",
    "verb_class",
    "verb_classes",
]
