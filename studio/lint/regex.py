"""Faster searches for the rules' long alternations of cue phrases.

A pattern such as ``\\bat most\\b|\\bup to\\b|…|最多|至少`` starts with a word
boundary, so Python's regex engine cannot skip ahead to where a match could
start: it tries every alternative at every position of the text. Knowing the
characters a match can start with, a one-character lookahead in front of the
pattern turns most positions away at once.

:func:`compile_cues` computes that set of first characters from the parsed
pattern and compiles ``(?=[first])(?:pattern)``. A match of the pattern
always consumes its first character, and that character is in the set, so the
wrapped pattern finds exactly the same matches (same spans, same groups) at
about half the cost. When the set cannot be determined (a pattern that can
match the empty string, ``.``, a negated class, a back-reference…) the pattern
is compiled as it is.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterator
from typing import Any

_parser: Any
_c: Any
try:  # the parser behind ``re`` (its module name is private, its format stable)
    _parser = importlib.import_module("re._parser")
    _c = importlib.import_module("re._constants")
except ImportError:  # pragma: no cover - an interpreter without them
    _parser = _c = None

_CATEGORIES = (
    {
        _c.CATEGORY_DIGIT: r"\d",
        _c.CATEGORY_NOT_DIGIT: r"\D",
        _c.CATEGORY_SPACE: r"\s",
        _c.CATEGORY_NOT_SPACE: r"\S",
        _c.CATEGORY_WORD: r"\w",
        _c.CATEGORY_NOT_WORD: r"\W",
    }
    if _parser is not None
    else {}
)


class _Unknown(Exception):
    """The first characters of (part of) a pattern cannot be listed."""


def _class_items(items: list[tuple[Any, Any]]) -> list[str]:
    out = []
    for op, av in items:
        if op is _c.LITERAL:
            out.append(re.escape(chr(av)))
        elif op is _c.RANGE:
            out.append(f"{re.escape(chr(av[0]))}-{re.escape(chr(av[1]))}")
        elif op is _c.CATEGORY and av in _CATEGORIES:
            out.append(_CATEGORIES[av])
        else:  # NEGATE, locale categories…
            raise _Unknown
    return out


def _first(seq: Any) -> tuple[list[str], bool]:
    """Class items a match of ``seq`` can start with, and whether ``seq`` can match empty."""
    items: list[str] = []
    for op, av in seq:
        if op is _c.AT or op is _c.ASSERT or op is _c.ASSERT_NOT:
            continue  # zero-width: the first character comes after it
        if op is _c.LITERAL:
            items.append(re.escape(chr(av)))
            return items, False
        if op is _c.IN:
            items.extend(_class_items(av))
            return items, False
        if op is _c.BRANCH:
            nullable = False
            for alternative in av[1]:
                sub, sub_nullable = _first(alternative)
                items.extend(sub)
                nullable = nullable or sub_nullable
            if not nullable:
                return items, False
            continue
        if op is _c.SUBPATTERN:
            _group, add_flags, del_flags, sub_pattern = av
            if add_flags or del_flags:
                raise _Unknown  # (?i:…) inside: the class would need other flags
            sub, nullable = _first(sub_pattern)
            items.extend(sub)
            if not nullable:
                return items, False
            continue
        if op is _c.ATOMIC_GROUP:
            sub, nullable = _first(av)
            items.extend(sub)
            if not nullable:
                return items, False
            continue
        if op in (_c.MAX_REPEAT, _c.MIN_REPEAT, _c.POSSESSIVE_REPEAT):
            low, _high, sub_pattern = av
            sub, nullable = _first(sub_pattern)
            items.extend(sub)
            if low > 0 and not nullable:
                return items, False
            continue
        raise _Unknown  # ANY, NOT_LITERAL, GROUPREF…
    return items, True


def first_characters(pattern: str, flags: int = 0) -> str | None:
    """A character class (without brackets) holding every character a match can start with.

    None when it cannot be told, or when the pattern can match the empty string.
    """
    if _parser is None:
        return None
    try:
        items, nullable = _first(_parser.parse(pattern, flags))
    except (_Unknown, re.error, TypeError, ValueError):
        return None
    if nullable or not items:
        return None
    return "".join(dict.fromkeys(items))


def compile_cues(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(pattern, flags)``, with a first-character lookahead when one is known.

    The result finds the same matches as the plain pattern (``search``,
    ``finditer``, ``sub``, ``match``; group numbers and names unchanged).
    """
    try:
        first = _plain_first_characters(pattern, flags)
    except (_Unknown, RecursionError):
        first = first_characters(pattern, flags)
    if first is None:
        return re.compile(pattern, flags)
    close = "\n)" if flags & re.VERBOSE else ")"  # a trailing comment must not eat the paren
    try:
        return re.compile(f"(?=[{first}])(?:{pattern}{close}", flags)
    except re.error:  # e.g. global inline flags, which must stay at the start
        return re.compile(pattern, flags)


# compile_cues reads the first characters of a plain pattern (literals, groups,
# look-arounds, classes, counted repeats) itself, and skips the rest of each
# alternative once its first character is known; anything else goes to the parser.
# The rules' 28 cue patterns (up to 2,400 characters) took ~7.5 ms to parse a lint.
_STRUCTURE = re.compile(r"\\.|\[\^?\]?(?:\\.|[^\]\\])*\]?|[()|]", re.DOTALL)
"""An escape or a character class (read past whole; an unclosed class runs to the end, a
``]`` right after ``[`` or ``[^`` is a member), or a group bracket or ``|``: the regex
engine skips the ordinary characters between them."""


def _plain_first_characters(pattern: str, flags: int) -> str | None:
    """:func:`first_characters` of a plain pattern, read without ``re``'s parser; raises
    ``_Unknown`` for anything else. Unlike the parser it does not read the whole pattern:
    for one ``re`` rejects it may answer (compiling then fails as it would have)."""
    if flags & re.VERBOSE:
        raise _Unknown  # white space and comments are not characters
    items, nullable, end = _first_alternatives(pattern, 0)
    if end != len(pattern):
        raise _Unknown  # an unbalanced ")"
    if nullable or not items:
        return None
    return "".join(dict.fromkeys(items))


def _first_alternatives(pattern: str, start: int) -> tuple[list[str], bool, int]:
    """Class items a match of the alternatives from ``start`` can start with, whether one
    can match empty, and the index of the ``)`` closing them (or the end)."""
    items: list[str] = []
    nullable = False
    i = start
    while True:
        sub, sub_nullable, i = _first_sequence(pattern, i)
        items.extend(sub)
        nullable = nullable or sub_nullable
        if i < len(pattern) and pattern[i] == "|":
            i += 1
            continue
        return items, nullable, i


def _first_sequence(pattern: str, i: int) -> tuple[list[str], bool, int]:
    n = len(pattern)
    items: list[str] = []
    while i < n:
        c = pattern[i]
        if c == "|" or c == ")":
            break
        zero_width = False
        sub: list[str] = []
        sub_nullable = False
        if c == "(":
            if pattern.startswith("?", i + 1):
                kind = pattern[i + 2 : i + 3]
                if kind == ":":
                    sub, sub_nullable, i = _first_alternatives(pattern, i + 3)
                elif kind in ("=", "!") or pattern.startswith(("<=", "<!"), i + 2):
                    zero_width = True
                    i = _group_close(pattern, i)
                else:
                    raise _Unknown  # flags, names, comments, atomic groups…
            else:
                sub, sub_nullable, i = _first_alternatives(pattern, i + 1)
            if i >= n:
                raise _Unknown  # "missing )"
            i += 1
        elif c == "[":
            negated, class_items, i = _plain_class(pattern, i)
            if negated:
                raise _Unknown
            sub = [_first_item(item) for item in class_items]
        elif c == "\\":
            escaped = pattern[i + 1 : i + 2]
            if escaped in _ZERO_WIDTH_ESCAPES:
                zero_width = True
            elif escaped in _CATEGORY_ESCAPES:
                sub = ["\\" + escaped]
            else:
                sub = [re.escape(chr(_escaped_code(escaped)))]
            i += 2
        elif c == "^" or c == "$":
            zero_width = True
            i += 1
        elif c in ".*+?{":
            raise _Unknown  # any character, or "nothing to repeat"
        else:
            sub = [re.escape(c)]
            i += 1
        least = 1
        if i < n and pattern[i] in "*+?{":
            if zero_width:
                raise _Unknown  # "nothing to repeat"
            least, i = _repeat(pattern, i)
        if zero_width:
            continue  # the first character comes after it
        items.extend(sub)
        if least > 0 and not sub_nullable:
            return items, False, _alternative_end(pattern, i)
    return items, True, i


def _first_item(item: ClassItem) -> str:
    if isinstance(item, int):
        return re.escape(chr(item))
    if isinstance(item, tuple):
        return f"{re.escape(chr(item[0]))}-{re.escape(chr(item[1]))}"
    return "\\" + item


def _alternative_end(pattern: str, start: int) -> int:
    """The index of the ``|`` or ``)`` that ends the alternative ``start`` is in (or the end)."""
    for i, mark, depth in structure(pattern, start):
        if depth == 0 and mark != "(":
            return i
    return len(pattern)


def _group_close(pattern: str, start: int) -> int:
    """The index of the ``)`` closing the group that opens at ``pattern[start]``."""
    end = start + 1
    while True:
        end = _alternative_end(pattern, end)
        if end >= len(pattern):
            raise _Unknown  # "missing )"
        if pattern[end] == ")":
            return end
        end += 1  # a "|" inside the group


def structure(source: str, start: int = 0) -> Iterator[tuple[int, str, int]]:
    """``(index, character, depth)`` of each ``(``, ``)`` and ``|`` of a pattern from
    ``start`` that is neither escaped nor inside a character class: the characters that
    give it its shape; ``depth`` is the number of groups open before it (counted from
    ``start``). The phrases run to thousands of characters; their shape is a few dozen."""
    depth = 0
    for match in _STRUCTURE.finditer(source, start):
        c = match.group()
        if c == "(":
            yield match.start(), c, depth
            depth += 1
        elif c == ")":
            yield match.start(), c, depth
            depth -= 1
        elif c == "|":
            yield match.start(), c, depth


def group_end(source: str, start: int) -> int | None:
    """The index of the ``)`` closing the group that opens at ``source[start]`` (None when
    it is never closed)."""
    for i, c, depth in structure(source, start):
        if c == ")" and depth == 1:
            return i
    return None


def top_level_alternatives(source: str) -> tuple[str, ...]:
    """The alternatives of ``source`` split at its top-level ``|`` (one when there is none)."""
    parts: list[str] = []
    begin = 0
    for i, c, depth in structure(source):
        if c == "|" and depth == 0:
            parts.append(source[begin:i])
            begin = i + 1
    parts.append(source[begin:])
    return tuple(parts)


# Non-ASCII code points that a case-insensitive match can still meet as ASCII
# letters: KELVIN SIGN and "k", LATIN SMALL LETTER LONG S and "s" (RE2 and ``re``),
# dotted and dotless I and "i" (``re``). A test checks this list against every
# code point in both engines.
_ASCII_FOLDING = frozenset((0x0130, 0x0131, 0x017F, 0x212A))


def _foreign(code: int) -> bool:
    return code > 0x7F and code not in _ASCII_FOLDING


def _needs_foreign(seq: Any) -> bool:
    """True when every match of ``seq`` holds a non-ASCII character; False when it may
    not, or when it cannot be told (elements not understood are skipped: sound)."""
    return any(_element_needs_foreign(op, av) for op, av in seq)


def _element_needs_foreign(op: Any, av: Any) -> bool:
    if op is _c.LITERAL:
        return _foreign(av)
    if op is _c.IN:  # a class of non-ASCII characters only ([：], [一-鿿])
        return bool(av) and all(
            (iop is _c.LITERAL and _foreign(iav))
            or (
                iop is _c.RANGE
                and iav[0] > 0x7F
                and not any(iav[0] <= c <= iav[1] for c in _ASCII_FOLDING)
            )
            for iop, iav in av
        )
    if op is _c.SUBPATTERN:
        return _needs_foreign(av[-1])
    if op is _c.ATOMIC_GROUP:
        return _needs_foreign(av)
    if op is _c.BRANCH:
        return all(_needs_foreign(alternative) for alternative in av[1])
    if op in (_c.MAX_REPEAT, _c.MIN_REPEAT, _c.POSSESSIVE_REPEAT):
        return av[0] > 0 and _needs_foreign(av[2])
    return False  # zero-width, "any character", a negated literal, a back-reference…


# The plain patterns of cue lists (literals, groups, alternatives, classes, counted
# repeats) are read by the small reader below; anything else goes to ``re``'s parser.
# The security rules ask this of ~700 alternatives in every lint, ~270 of them with
# Chinese: ~18 ms a lint with the parser for all, ~6 ms with this reader (and the
# parser for the few it leaves: RE2 syntax, look-behinds).
_LITERAL_RUN = re.compile(r"[^\\.^$*+?{\[|()]+")  # "]" and "}" alone are characters
_PLAIN_GROUP = re.compile(r"\((?:\?:)?([^\\.^$*+?{\[()]*)\)")
_COUNTED_REPEAT = re.compile(r"\{([0-9]{1,4})(?:,([0-9]{0,4}))?\}")


def _repeat(pattern: str, i: int) -> tuple[int, int]:
    """The least count of the repeat at ``pattern[i]`` (``*``, ``+``, ``?``, ``{m,n}``) and
    the index after it, its lazy or possessive mark included; :class:`_Unknown` where ``re``
    would read it otherwise (a ``{`` that is a character, min above max, a repeat repeated)."""
    n = len(pattern)
    if pattern[i] == "{":
        counted = _COUNTED_REPEAT.match(pattern, i)
        if counted is None:
            raise _Unknown  # a "{" re reads as a character
        low, high = counted.groups()
        if high and int(high) < int(low):
            raise _Unknown  # "min repeat greater than max repeat"
        least = int(low)
        i = counted.end()
    else:
        least = 1 if pattern[i] == "+" else 0
        i += 1
    if i < n and pattern[i] in "?+":  # lazy or possessive
        i += 1
    if i < n and pattern[i] in "*+?{":
        raise _Unknown  # "multiple repeat"
    return least, i


_CATEGORY_ESCAPES = frozenset("sSdDwW")
_ZERO_WIDTH_ESCAPES = frozenset("bBAZ")
_DROP_FOLDING = dict.fromkeys(_ASCII_FOLDING)


def _holds_foreign(literals: str) -> bool:
    """True when one of ``literals`` is a character no ASCII letter matches (see _foreign)."""
    return not literals.isascii() and not literals.translate(_DROP_FOLDING).isascii()


def _plain_needs_foreign(pattern: str) -> bool:
    """:func:`needs_non_ascii` of a pattern read without ``re``'s parser, when the
    pattern is plain; raises ``_Unknown`` for anything this reader does not know
    (inline flags, named groups, look-behinds, back-references, escapes of letters
    other than the categories), and for what ``re`` would reject.
    A test checks it against the parser on every cue pattern and on random ones."""
    needs, end = _plain_alternatives(pattern, 0)
    if end != len(pattern):
        raise _Unknown  # an unbalanced ")"
    return needs


def _plain_alternatives(pattern: str, start: int) -> tuple[bool, int]:
    needs_all = True
    i = start
    while True:
        needs, i = _plain_sequence(pattern, i)
        needs_all = needs_all and needs
        if i < len(pattern) and pattern[i] == "|":
            i += 1
            continue
        return needs_all, i


def _plain_sequence(pattern: str, i: int) -> tuple[bool, int]:
    """Whether every match of the items from ``i`` up to a ``|`` or ``)`` (or the end)
    holds a foreign character, and where they end."""
    n = len(pattern)
    needs = False
    while i < n:
        c = pattern[i]
        if c == "|" or c == ")":
            break
        repeatable = True
        plain_group = _PLAIN_GROUP.match(pattern, i) if c == "(" else None
        if plain_group is not None:  # (?:发过|说过|…): alternatives of characters only
            item = all(_holds_foreign(a) for a in plain_group.group(1).split("|"))
            i = plain_group.end()
        elif c == "(":
            if pattern.startswith("?", i + 1):
                kind = pattern[i + 2 : i + 3]
                if kind not in (":", "=", "!"):
                    raise _Unknown  # flags, names, look-behinds, comments…
                inner, i = _plain_alternatives(pattern, i + 3)
                item = inner if kind == ":" else False  # a look-ahead consumes nothing
                repeatable = kind == ":"
            else:
                item, i = _plain_alternatives(pattern, i + 1)
            if i >= n:
                raise _Unknown  # "missing )"
            i += 1
        elif c == "[":
            negated, items, i = _plain_class(pattern, i)
            item = not negated and all(_foreign_item(x) for x in items)
        elif c == "\\":
            escaped = pattern[i + 1 : i + 2]
            if escaped in _ZERO_WIDTH_ESCAPES:
                repeatable = False
            elif escaped not in _CATEGORY_ESCAPES:
                _escaped_code(escaped)  # an ASCII character, or _Unknown
            item = False  # a category or an ASCII character
            i += 2
        elif c == "^" or c == "$":
            item, repeatable = False, False
            i += 1
        elif c == ".":
            item = False
            i += 1
        elif c in "*+?{":
            raise _Unknown  # "nothing to repeat", or a "{" re reads as a character
        else:
            run = _LITERAL_RUN.match(pattern, i)
            assert run is not None
            end = run.end()
            if end < n and pattern[end] in "*+?{" and end - i > 1:
                # a repeat applies to the last character only
                needs = needs or _holds_foreign(pattern[i : end - 1])
                i = end - 1
            literals = pattern[i:end]
            item = not literals.isascii() and _holds_foreign(literals)
            i = end
        if i < n and pattern[i] in "*+?{":
            if not repeatable:
                raise _Unknown  # "nothing to repeat" after a zero-width item
            least, i = _repeat(pattern, i)
            if least == 0:
                item = False
        needs = needs or item
    return needs, i


_CONTROL_ESCAPES = {"n": 10, "t": 9, "r": 13, "f": 12, "v": 11, "a": 7}

ClassItem = int | tuple[int, int] | str
"""A class item as ``re`` reads it: a character's code, a range's two codes, or the
letter of a category escape (``s`` for ``\\s``)."""


def _escaped_code(escaped: str) -> int:
    """The character an escape outside the categories stands for (``\\n``, ``\\.``);
    raises _Unknown for the escapes this reader leaves to the parser."""
    if escaped in _CONTROL_ESCAPES:
        return _CONTROL_ESCAPES[escaped]
    if not escaped or escaped.isalnum() or not escaped.isascii():
        raise _Unknown  # \u4e00, back-references, an escape at the end…
    return ord(escaped)


def _plain_class(pattern: str, start: int) -> tuple[bool, list[ClassItem], int]:
    """The class opening at ``pattern[start]``: whether it is negated, its items, and
    the index after it."""
    i, n = start + 1, len(pattern)
    negated = pattern.startswith("^", i)
    if negated:
        i += 1
    items: list[ClassItem] = []
    while True:
        if i >= n:
            raise _Unknown  # "unterminated character set"
        c = pattern[i]
        if c == "]" and items:  # a "]" first is a character
            return negated, items, i + 1
        if c == "[" or (c in "-&~|" and pattern.startswith(c, i + 1)):
            raise _Unknown  # what re warns about as a nested set or a set operation
        if c == "\\":
            escaped = pattern[i + 1 : i + 2]
            items.append(escaped if escaped in _CATEGORY_ESCAPES else _escaped_code(escaped))
            i += 2
            if pattern.startswith("-", i) and not pattern.startswith("-]", i):
                raise _Unknown  # a range from an escape
        elif pattern.startswith("-", i + 1) and i + 2 < n and pattern[i + 2] != "]":
            if pattern[i + 2] in "\\[-":
                raise _Unknown
            low, high = ord(c), ord(pattern[i + 2])
            if high < low:
                raise _Unknown  # "bad character range"
            items.append((low, high))
            i += 3
        else:
            items.append(ord(c))
            i += 1


def _foreign_item(item: ClassItem) -> bool:
    if isinstance(item, int):
        return _foreign(item)
    if isinstance(item, tuple):
        low, high = item
        return low > 0x7F and not any(low <= code <= high for code in _ASCII_FOLDING)
    return False  # a category


def needs_non_ascii(pattern: str) -> bool:
    """True when no text of ASCII characters only can hold a match of ``pattern``.

    Read as ``re`` parses it, case-insensitively (a match may fold case); False
    whenever it cannot be told — a pattern ``re`` does not parse (RE2's ``\\p{Han}``),
    an element it does not understand. A pattern written in ASCII only is never
    parsed: it may match ASCII text, or escape its way out (``\\u4e00``) and be
    counted as able to.
    """
    if pattern.isascii() or _parser is None:
        return False
    try:
        return _plain_needs_foreign(pattern)
    except (_Unknown, RecursionError):
        pass
    try:
        return _needs_foreign(_parser.parse(pattern, re.IGNORECASE))
    except (re.error, TypeError, ValueError, OverflowError, RecursionError):
        return False


def ascii_alternatives(alternatives: Iterator[str] | tuple[str, ...] | list[str]) -> list[str]:
    """The ``alternatives`` that may match a text of ASCII characters only (see
    :func:`needs_non_ascii`): on such a text, a pattern joining all of them matches
    exactly when the pattern joining these does."""
    return [a for a in alternatives if not needs_non_ascii(a)]
