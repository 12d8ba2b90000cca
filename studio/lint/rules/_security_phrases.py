"""The phrase families of the security rules and the text normalisation they match on.

Phrases are data (``resources/lint/security_phrases.json``, built into a
:class:`PhraseBook` on first use, once per process): regular-expression
fragments grouped in families, each family naming the rule that reports it, a
severity and a label. ``{NAME}`` in a phrase stands for a shared alternation of
the file's ``vocab``. An English phrase matches case-insensitively, a single
space in it meaning any run of whitespace, and is wrapped in word boundaries
(" ?" means optional whitespace); a Chinese phrase is used as written (a space
means optional whitespace).

Speed: Python's regex engine tries every alternative of a long alternation at
every position, so running ~130 phrases over every text would cost more than
the rest of the linter. Each phrase gets *needles* instead — literal strings
one of which every match of it contains, read off the parsed pattern — and
all needles go into one Aho–Corasick automaton (:class:`~studio.lint.literals.LiteralSet`)
that tells in one linear pass over a tool's text which phrases can match there.
Only those run, on only the texts that hold their needles, and a phrase is
compiled the first time it runs. A clean tool costs one pass. Needles are kept
on disk between processes (keyed by the phrase file and this module), so
building the book costs one automaton of literals rather than a parse of every
phrase. (An RE2 set did this before; its lazy DFA cost ten times the automaton
in states built afresh by every process.)
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import re
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import re2  # type: ignore[import-untyped]

from studio.lint.literals import LiteralSet
from studio.lint.model import Severity
from studio.lint.regex import compile_cues, group_end, structure
from studio.lint.rules import security_normalise
from studio.lint.rules.security_re2 import Seen

_parser: Any = importlib.import_module("re._parser")
_c: Any = importlib.import_module("re._constants")


@dataclass(frozen=True, slots=True)
class Phrase:
    """One phrase of a family, compiled on its own when first needed."""

    family: Family
    source: str
    """The phrase as a Python regular expression (matched case-insensitively)."""
    needles: tuple[tuple[str, ...], ...]
    """Sets of lower-case literals: every match holds one of each (see :func:`needles_of`)."""

    @property
    def pattern(self) -> re.Pattern[str]:
        """The compiled phrase (compiled once, the first time its needles are seen)."""
        return _compiled(self.source)

    def may_match(self, value: str) -> bool:
        """False only when the phrase cannot match ``value`` (True when it may).

        A loose RE2 copy of the phrase answers first (linear time, no Python
        regex compiled); only where it finds something does the exact phrase run.
        """
        loose = _loose(self.source)
        if loose is None:
            return self.pattern.search(value) is not None
        return loose.in_text(value) and self.pattern.search(value) is not None


@cache
def _compiled(source: str) -> re.Pattern[str]:
    return compile_cues(source, re.IGNORECASE)


# What the loose copy changes, each making it match at least where the phrase does:
# the Latin-letter guards around an English phrase and word boundaries go (RE2 has
# no look-arounds and reads \b in ASCII), and \w, \s and \d read Unicode as
# Python's do (RE2's are ASCII).
_UNICODE_CLASSES = (
    (r"\w", r"\w\x{80}-\x{10ffff}"),
    (
        r"\s",
        r"\s\x{0b}\x{1c}-\x{1f}\x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}"
        r"\x{202f}\x{205f}\x{3000}",
    ),
)
"""Every character Python's Unicode classes take (any character past ASCII for \\w and
\\d: a wider class than Python's, with a far smaller program than \\pL)."""


def _unicode_classes(source: str) -> str | None:
    """``source`` with \\w, \\s and \\d as Unicode classes and no \\b, or None when unsure."""
    out: list[str] = []
    i = 0
    depth = 0  # inside [...]
    while i < len(source):
        c = source[i]
        if c == "\\" and i + 1 < len(source):
            nxt = source[i + 1]
            if nxt in "wsd":
                body = {
                    "w": _UNICODE_CLASSES[0][1],
                    "s": _UNICODE_CLASSES[1][1],
                    "d": r"0-9\x{80}-\x{10ffff}",
                }[nxt]
                out.append(body if depth else f"[{body}]")
            elif nxt == "b" and not depth:
                pass  # a word boundary, Unicode in Python and ASCII in RE2: dropped
            elif nxt in "WSDBAZ":
                return None  # negated classes and anchors: leave the phrase to Python
            else:
                out.append(source[i : i + 2])
            i += 2
            continue
        if c == "[" and not depth:
            depth = 1
        elif c == "]" and depth:
            depth = 0
        out.append(c)
        i += 1
    return "".join(out)


def _without_lookarounds(source: str) -> str | None:
    """``source`` without its look-around groups (each only narrows a match), or None."""
    while True:
        start = next(
            (
                i
                for i, c, _depth in structure(source)
                if c == "(" and source.startswith(("(?=", "(?!", "(?<=", "(?<!"), i)
            ),
            None,
        )
        if start is None:
            return source
        end = group_end(source, start)
        if end is None:
            return None
        source = source[:start] + source[end + 1 :]


_REPEAT = re.compile(r"\\.|\[(?:\\.|[^\]\\])*\]|\{(\d+),\d+\}", re.DOTALL)
"""An escape, a class (both kept as they are) or a bounded repeat (its lower bound)."""


def _unbounded(source: str) -> str:
    """``source`` with each bounded repeat ``{m,n}`` outside a class made ``{m,}``.

    A loose copy is only a first look, so it may match more: ``X{0,60}`` becomes
    ``X*``. RE2 expands a bounded repeat into ``n`` copies of ``X``, and a lazy
    DFA over those copies meets new states all along a tool's text (measured on
    2,000 public tools: the loose copies' DFAs cost 0.09 CPU-s, 0.04 unbounded,
    with a few more texts confirmed by the exact phrase).
    """
    return _REPEAT.sub(_relax_repeat, source)


def _relax_repeat(match: re.Match[str]) -> str:
    low = match.group(1)
    if low is None:
        return match.group()
    return "*" if low == "0" else "+" if low == "1" else f"{{{low},}}"


_LOOSE_OPTIONS = None


@cache
def _loose(source: str) -> Any:
    """A loose RE2 copy of a phrase (see :meth:`Phrase.may_match`), or None."""
    global _LOOSE_OPTIONS
    loose = _without_lookarounds(source)
    if loose is None or "(?P=" in loose:
        return None
    converted = _unicode_classes(loose)
    if converted is None:
        return None
    converted = _unbounded(converted)
    if _LOOSE_OPTIONS is None:
        _LOOSE_OPTIONS = re2.Options()
        _LOOSE_OPTIONS.case_sensitive = False
        _LOOSE_OPTIONS.max_mem = 8 << 20
    try:
        return Seen(converted, _LOOSE_OPTIONS)
    except re2.error:
        return None


@dataclass(frozen=True, slots=True)
class Family:
    """A family of phrases reported by one rule."""

    name: str
    rule: str
    severity: Severity
    label: str
    negatable: bool
    """A match right after "not", "never", "without"… does not count ("is never shared")."""


_NEGATABLE = frozenset(("gather", "secret_file", "exfil"))


# A gap inside a sentence: no sentence end, but a dot inside a word (".env", "e.g.", a
# domain) does not end one, nor does a line break (docstrings wrap sentences).
_GAPS = {r"[^.;!?\n]": r"(?:[^.;!?]|\.(?=\S))", r"[^.!?\n]": r"(?:[^.!?]|\.(?=\S))"}


def _gaps(phrase: str) -> str:
    for gap, wide in _GAPS.items():
        phrase = phrase.replace(gap, wide)
    return phrase


def _english(phrase: str) -> str:
    body = _gaps(phrase).replace(" ?", r"\s*").replace(" ", r"\s+")
    # Word boundaries against Latin letters and digits only: in mixed text a Chinese
    # character next to an English word ("请ignore", "called, 必须") is a boundary.
    guard = f"(?!{_LATIN})" if phrase[-1:].isalnum() or phrase[-1:] in ")?*+}" else ""
    return rf"(?<!{_LATIN})(?:{body}){guard}"


_LATIN = "[A-Za-z0-9_]"


def _chinese(phrase: str) -> str:
    return _gaps(phrase).replace(" ", r"\s*")


# --------------------------------------------------------------------------- needles


# Words too common in tool descriptions to tell anything: a needle set holding one
# passes nearly every text, so another set of the phrase is preferred.
_COMMON = frozenset(
    (  # noqa: SIM905 - a word list reads better as prose
        "you your the to at via with for from all each every any also other only tool "
        "tools when will must should always over before after mode access user users "
        "key full then use used set add put data file files send list get and or of in "
        "on as is are be it most 用户 工具 参数 调用 使用"
    ).split()
)
_CHAR_ODDS = {".": 1.0, ",": 1.0, " ": 0.9, "-": 0.8, "_": 0.6, "'": 0.6}
_PUNCTUATION = frozenset(".,;:-_ '\"()/")
_BOUND = "\\b"
"""Prefix of a needle that starts a word (the character before it is not a word character)."""
_REPEATS = (_c.MAX_REPEAT, _c.MIN_REPEAT, _c.POSSESSIVE_REPEAT)


def _odds(needle: str) -> float:
    """A rough chance that a benign description contains ``needle``."""
    bounded = needle.startswith(_BOUND)
    if bounded:
        needle = needle[len(_BOUND) :]
    if needle in _COMMON:
        return 1.0
    if len(needle) == 1 and (needle.isalpha() or needle in _PUNCTUATION):
        return 5.0  # a letter or a full stop: in every text
    odds = 0.5 if bounded else 1.0
    for i, c in enumerate(needle):
        if c.isascii() and c.isalpha():
            odds *= 0.6 if i else 1.0
        elif c.isdigit():
            odds *= 0.5
        elif not c.isascii():
            odds *= 0.3
        else:
            odds *= _CHAR_ODDS.get(c, 0.05)
    return odds


_WEAK = 1.0
"""The summed :func:`_odds` from which a needle set is too common to be worth a look."""


def _best(candidates: Iterable[frozenset[str]]) -> frozenset[str] | None:
    """The most selective candidate: the least summed chance of occurring in benign text."""
    ranked = sorted(candidates, key=lambda s: (sum(map(_odds, s)), len(s)))
    return ranked[0] if ranked else None


def _is_space(item: Any) -> bool:
    """True for a parsed ``\\s`` (what a space in an English phrase becomes)."""
    return list(item) == [(_c.IN, [(_c.CATEGORY, _c.CATEGORY_SPACE)])]


_LATIN_CLASS = [
    (_c.RANGE, (ord("A"), ord("Z"))),
    (_c.RANGE, (ord("a"), ord("z"))),
    (_c.RANGE, (ord("0"), ord("9"))),
    (_c.LITERAL, ord("_")),
]


def _word_lookbehind(av: Any) -> bool:
    """True for ``(?<!\\w)`` or ``(?<![A-Za-z0-9_])``: the next character starts a word.

    (RE2's ``\\b`` is ASCII: a needle after either starts an RE2 word.)
    """
    direction, sub = av
    items = list(sub)
    return direction == -1 and items in (
        [(_c.IN, [(_c.CATEGORY, _c.CATEGORY_WORD)])],
        [(_c.IN, _LATIN_CLASS)],
    )


def _candidates(seq: Sequence[Any], bounded: bool) -> list[frozenset[str]]:
    """Needle sets of the parts of a parsed sequence; every match holds one of each set.

    ``bounded``: the sequence starts where a word starts (after whitespace, ``\\b``
    or ``(?<!\\w)``), so a literal run at its start gets the word-start prefix.
    """
    out: list[frozenset[str]] = []
    run: list[str] = []
    run_bounded = False

    def close_run() -> None:
        if run:
            text = "".join(run)
            word_start = run_bounded and (text[0].isalnum() or text[0] == "_")
            out.append(frozenset((_BOUND + text if word_start else text,)))
            run.clear()

    for op, av in seq:
        if op is _c.LITERAL:
            if not run:
                run_bounded = bounded
            run.append(chr(av).lower())
            bounded = False
            continue
        if run and op in _REPEATS and av[0] >= 1 and _is_space(av[2]):
            run.append(" ")  # "for\s+every": a needle "for every" (RE2: for\s+every)
            continue
        if op is _c.AT:
            if av in (_c.AT_BOUNDARY, _c.AT_BEGINNING, _c.AT_BEGINNING_STRING):
                bounded = True
            continue
        if op is _c.ASSERT_NOT:
            bounded = bounded or _word_lookbehind(av)
            continue
        if op is _c.ASSERT:
            continue
        merged = False
        if run and (lead := _leading(op, av)):
            # "n(?:ot|ever)": the parser factors out common prefixes; join them again
            # (the joined needles replace both parts: they cover the same text).
            text = "".join(run)
            word_start = run_bounded and (text[0].isalnum() or text[0] == "_")
            out.append(frozenset((_BOUND if word_start else "") + text + x for x in lead))
            merged = True
            run.clear()
        close_run()
        if op in _REPEATS and _is_space(av[2]):
            bounded = av[0] >= 1
            continue
        found: frozenset[str] | None = None
        if op is _c.IN and 0 < len(av) <= 6 and all(kind is _c.LITERAL for kind, _ in av):
            found = frozenset(chr(code).lower() for _, code in av)  # ['"`]
        elif op is _c.SUBPATTERN:
            found = _best(_candidates(av[3], bounded))
        elif op is _c.BRANCH:
            alternatives = [_best(_candidates(a, bounded)) for a in av[1]]
            if all(a is not None for a in alternatives):
                found = frozenset().union(*alternatives)  # type: ignore[arg-type]
        elif op in _REPEATS and av[0] >= 1:
            found = _best(_candidates(av[2], bounded))
        bounded = False
        if found and all(found) and not merged:
            out.append(found)
    close_run()
    return out


def _leading(op: Any, av: Any) -> frozenset[str] | None:
    """The literal runs every alternative of a group starts with, or None."""
    if op is _c.SUBPATTERN:
        inner = list(av[3])
        if len(inner) == 1:
            return _leading(*inner[0])
        return None
    if op is not _c.BRANCH:
        return None
    out = set()
    for alternative in av[1]:
        text = ""
        for sub_op, sub_av in alternative:
            if sub_op is not _c.LITERAL:
                break
            text += chr(sub_av).lower()
        if not text:
            return None
        out.add(text)
    return frozenset(out)


def _factors(seq: Sequence[Any]) -> list[frozenset[str]]:
    """The needle sets of the top-level parts of a parsed pattern (each required)."""
    bounded = False
    while True:
        parts = [(op, av) for op, av in seq if op not in (_c.AT, _c.ASSERT, _c.ASSERT_NOT)]
        if len(parts) == 1 and parts[0][0] is _c.SUBPATTERN:
            # The wrapper (?<!\w)(?:…)(?!\w) around an English phrase.
            bounded = bounded or any(op is _c.ASSERT_NOT and _word_lookbehind(av) for op, av in seq)
            seq = parts[0][1][3]
            continue
        break
    return _candidates(seq, bounded)


def _implies(found: str, other: str) -> bool:
    """True when every text holding needle ``other`` holds needle ``found``."""
    if found.startswith(_BOUND):
        return other.startswith(found)
    return found in other.removeprefix(_BOUND)


def _pruned(found: frozenset[str]) -> tuple[str, ...]:
    # A needle implied by a shorter one is redundant: where it occurs, so does the other.
    out: list[str] = []
    for n in sorted(found, key=len):
        if not any(_implies(k, n) for k in out):
            out.append(n)
    return tuple(out)


def needles_of(pattern: str) -> tuple[tuple[str, ...], ...]:
    """Up to three needle sets of ``pattern``: every match holds a needle of each.

    Needles are lower-case literals (the pattern is matched case-insensitively);
    one that starts with ``\\b`` must start a word.
    The sets are the most selective parts of the phrase (:func:`_odds`), so a
    text passes only where all parts of, say, "verb … secret … parameter" occur. Empty when
    no literal is required (the phrase then runs on every text).
    """
    try:
        factors = _factors(_parser.parse(pattern, re.IGNORECASE))
    except (re.error, TypeError, ValueError):  # pragma: no cover - a phrase that fails to parse
        return ()
    ranked = sorted(factors, key=lambda s: (sum(map(_odds, s)), len(s)))
    # A set after the first that a benign text holds anyway ("the", "in", ".") filters
    # next to nothing and costs the most: its needles are most of the automaton's
    # occurrences (~80 a text), each a step of a Python loop.
    kept = [f for f in ranked[1:3] if sum(map(_odds, f)) < _WEAK]
    return tuple(_pruned(f) for f in ranked[:1] + kept)


# --------------------------------------------------------------------------- loading


@dataclass(frozen=True, slots=True)
class PhraseBook:
    """Every phrase, and the RE2 set that tells which can match a text."""

    phrases: tuple[Phrase, ...]
    always: tuple[int, ...]
    """Phrases without needles: they run on every text."""
    needle_set: LiteralSet
    """One entry per needle set of each phrase."""
    entry_phrase: tuple[int, ...]
    """The phrase of each entry of :attr:`needle_set`."""
    sizes: tuple[int, ...]
    """The number of needle sets of each phrase."""
    privilege: dict[str, Any]

    def candidates(self, value: str) -> list[int]:
        """Indices of the phrases that may match ``value`` (normalised text), in order."""
        found = self.needle_set.match(value)
        if not found:
            return list(self.always)
        sizes = self.sizes
        counts = Counter(map(self.entry_phrase.__getitem__, found))
        out = [i for i, n in counts.items() if n == sizes[i]]
        out.extend(self.always)
        out.sort()
        return out


_PHRASE_FILE = Path(__file__).resolve().parents[3] / "resources" / "lint" / "security_phrases.json"
"""The phrase data, beside the ``studio`` package as the other lint resources are read
(a path: ``importlib.resources`` would import ``zipfile`` and ``tempfile`` into every lint)."""


def _raw() -> str:
    return _PHRASE_FILE.read_text(encoding="utf-8")


@cache
def phrase_data() -> dict[str, Any]:
    """The parsed phrase file (read once): families, vocabulary, privilege names, grammar."""
    data: dict[str, Any] = json.loads(_raw())
    return data


# --------------------------------------------------------------------------- needle cache

_NEEDLE_CACHE_ENV = "STUDIO_SECURITY_CACHE"


def _needle_cache_path() -> Path | None:
    """Where computed needles are kept between processes, keyed by what they depend on.

    The key hashes the phrase file and this module's source, so an edited phrase
    or a changed needle algorithm never reads stale needles. ``$STUDIO_SECURITY_CACHE``
    set to ``off`` turns the cache off (or names another directory).
    """
    env = os.environ.get(_NEEDLE_CACHE_ENV)
    if env is not None and env.strip().lower() in ("", "off", "0", "none"):
        return None
    key = hashlib.sha256(_raw().encode("utf-8"))
    key.update(Path(__file__).read_bytes())
    key.update(sys.version.encode())
    if env:
        folder = Path(env)
    else:
        import platformdirs

        folder = Path(platformdirs.user_cache_dir("tool-registry-studio", appauthor=False))
    return folder / f"security-needles-{key.hexdigest()[:20]}.json"


def _cached_needles(path: Path | None) -> dict[str, tuple[tuple[str, ...], ...]]:
    if path is None:
        return {}
    try:
        stored = json.loads(path.read_text(encoding="utf-8"))
        return {k: tuple(tuple(s) for s in v) for k, v in stored.items()}
    except (OSError, ValueError, TypeError, AttributeError):
        return {}


def _store_needles(path: Path | None, needles: dict[str, tuple[tuple[str, ...], ...]]) -> None:
    if path is None:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(needles, ensure_ascii=False), encoding="utf-8")
        tmp.replace(path)
    except OSError:
        pass  # a read-only cache directory costs the parse next time, nothing more


def _load() -> PhraseBook:
    data = phrase_data()
    vocab: dict[str, str] = data["vocab"]
    cache_path = _needle_cache_path()
    known = _cached_needles(cache_path)
    computed: dict[str, tuple[tuple[str, ...], ...]] = {}

    def expand(phrase: str) -> str:
        return re.sub(r"\{([A-Z_]+)\}", lambda m: vocab[m.group(1)], phrase)

    entries: list[tuple[str, ...]] = []
    phrases: list[Phrase] = []
    always: list[int] = []
    entry_phrase: list[int] = []
    for name, spec in data["families"].items():
        family = Family(
            name, spec["rule"], Severity(spec["severity"]), spec["label"], name in _NEGATABLE
        )
        bodies = [_english(expand(p)) for p in spec["en"]]
        bodies += [_chinese(expand(p)) for p in spec["zh"]]
        for body in bodies:
            needles = known.get(body)
            if needles is None:
                needles = needles_of(body)
            computed[body] = needles
            index = len(phrases)
            phrases.append(Phrase(family, body, needles))
            if not needles:
                always.append(index)
            for needle_set_of_phrase in needles:
                entries.append(needle_set_of_phrase)
                entry_phrase.append(index)
    if computed != known:
        _store_needles(cache_path, computed)
    return PhraseBook(
        tuple(phrases),
        tuple(always),
        LiteralSet(entries),
        tuple(entry_phrase),
        tuple(len(p.needles) for p in phrases),
        data["privilege_names"],
    )


@cache
def book() -> PhraseBook:
    """The phrase book, built on first use (once per process).

    Building it costs a parse of every phrase for its needles (kept on disk
    between processes, see :func:`_needle_cache_path`) and one RE2 set; a process
    that never lints a tool never pays it.
    """
    return _load()


def __getattr__(name: str) -> Any:
    # ``BOOK`` stays importable (``from … import BOOK``) without building it at import.
    if name == "BOOK":
        return book()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# --------------------------------------------------------------------------- normalisation

# Kept importable from here (the rules and tests read them with the phrase book).
INVISIBLE = security_normalise.INVISIBLE
normalise = security_normalise.normalise
strip_invisible = security_normalise.strip_invisible
