"""needs_non_ascii reads plain cue patterns without ``re``'s parser (studio.lint.regex):
wherever the small reader answers, it answers as the parser-based analysis does."""

from __future__ import annotations

import random
import re
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

from studio.lint import regex
from studio.lint.regex import needs_non_ascii, top_level_alternatives
from studio.lint.rules._security_phrases import phrase_data


def _by_the_parser(pattern: str) -> bool:
    """The analysis as it was before the reader: ``re``'s parse tree (False when ``re``
    rejects the pattern or warns about it)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            tree = regex._parser.parse(pattern, re.IGNORECASE)
    except (re.error, FutureWarning, OverflowError, RecursionError):
        return False
    return regex._needs_foreign(tree)


def _by_the_reader(pattern: str) -> bool | None:
    try:
        return regex._plain_needs_foreign(pattern)
    except regex._Unknown:
        return None


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def test_the_reader_answers_as_the_parser_on_every_cue_pattern() -> None:
    cues = {
        alternative
        for text in _strings(phrase_data())
        if not text.isascii()
        for alternative in (text, *top_level_alternatives(text))
        if not alternative.isascii()
    }
    answered = 0
    for pattern in sorted(cues):
        answer = _by_the_reader(pattern)
        if answer is not None:
            answered += 1
            assert answer is _by_the_parser(pattern), pattern
        assert needs_non_ascii(pattern) is _by_the_parser(pattern), pattern
    assert answered > 0.8 * len(cues)  # the reader, not the parser, reads most of them


_PIECES = (
    *("中", "国", "a", "K", "\u212a", "\u017f", "\u0131", "é", " ", "#", "-", ".", "^", "$"),
    *("(", "(?:", "(?=", "(?!", "(?<=", "(?P<x>", "(?i:", ")", "|", "]", "}", "\\"),
    *("?", "*", "+", "{2}", "{0,3}", "{1,}", "{,2}", "{3,1}", "{", "{}", "??", "+?"),
    *("\\b", "\\s", "\\w", "\\n", "\\.", "\\(", "\\u4e00", "\\1", "\\中", "\\q"),
    *("[", "[中国]", "[^中]", "[一-鿿]", "[a-]", "[]中]", "[^]中]", "[中-a]", "[ā-ž]"),
    *("[\u0100-\u0200]", "[^\\n中]", "[\\s中]", "[\\n-中]", "[中\\]]", "[a&&b]", "[中--]"),
    *("[[中]", "[\\b]", "[中-", "[中a-]", "[中|]", "[~~]", "[-中]"),
)


@pytest.mark.parametrize("seed", range(4))
def test_the_reader_answers_as_the_parser_on_random_patterns(seed: int) -> None:
    pick = random.Random(seed)
    answered = 0
    for _ in range(20000):
        pattern = "".join(pick.choice(_PIECES) for _ in range(pick.randint(1, 8)))
        if pattern.isascii():
            continue
        answer = _by_the_reader(pattern)
        if answer is not None:
            answered += 1
            assert answer is _by_the_parser(pattern), pattern
    assert answered > 2000


@pytest.mark.parametrize(
    ("pattern", "needs"),
    [
        ("中国?", True),  # the repeat applies to the last character only
        ("中?国?", False),
        ("(?:中|国)+", True),
        ("(?:中|国){0,2}", False),
        ("[]中]", False),  # a "]" first is a character: an ASCII one
        ("[^]中]", False),
        ("[中-]", False),  # "-" last is a character
        ("中{x}", True),  # "{" that starts no repeat is a character (the parser reads it)
        ("中{2,1}", False),  # rejected by re
        ("中)", False),  # rejected by re
        ("(?=中)国", True),
        ("(?=中)a", False),  # a look-ahead consumes nothing
        ("\\b中\\b", True),
        ("\\b?中", False),  # rejected by re: nothing to repeat
    ],
)
def test_edge_cases(pattern: str, needs: bool) -> None:
    assert needs_non_ascii(pattern) is needs
    assert _by_the_parser(pattern) is needs


# compile_cues reads first characters without the parser too (_plain_first_characters).


def test_the_first_characters_of_every_cue_pattern_are_the_parsers() -> None:
    from tests.lint.test_regex import WRAPPED, _unwrap

    for label, wrapped in WRAPPED:
        source = _unwrap(wrapped)
        assert source is not None
        assert regex._plain_first_characters(source, wrapped.flags) == (
            regex.first_characters(source, wrapped.flags)
        ), label


_FIRST_PIECES = (
    *("中", "a", "b", "K", " ", "#", "-", ".", "^", "$", ")", "|", "]", "}", "\\", "x|"),
    *("(", "(?:", "(?=", "(?!", "(?<=", "(?<!", "(?P<x>", "(?i:", "(?>", "(?:)", "()"),
    *("?", "*", "+", "{2}", "{0,3}", "{1,}", "{0}", "{,2}", "{", "??", "+?", "*+"),
    *("\\b", "\\s", "\\w", "\\n", "\\.", "\\(", "\\)", "\\|", "\\u4e00", "\\1", "\\q"),
    *("[", "[ab]", "[^a]", "[a-z]", "[a-]", "[]a]", "[^]a]", "[\\w.-]", "[()|]", "[\\]]"),
    *("[a\\-z]", "[\\n-a]", "[[a]", "[a--]", "[|]"),
)


def _compiles(pattern: str, flags: int) -> bool:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            re.compile(pattern, flags)
    except (re.error, FutureWarning, OverflowError):
        return False
    return True


@pytest.mark.parametrize("seed", range(4))
def test_the_first_characters_are_the_parsers_on_random_patterns(seed: int) -> None:
    """Where the reader answers for a pattern ``re`` compiles, it answers as the parser
    does (for one ``re`` rejects, compile_cues fails as the plain compile would)."""
    pick = random.Random(seed)
    answered = 0
    for _ in range(20000):
        pattern = "".join(pick.choice(_FIRST_PIECES) for _ in range(pick.randint(1, 8)))
        flags = pick.choice((0, re.IGNORECASE))
        try:
            first = regex._plain_first_characters(pattern, flags)
        except regex._Unknown:
            continue
        if _compiles(pattern, flags):
            answered += 1
            assert first == regex.first_characters(pattern, flags), pattern
    assert answered > 2000


def test_a_verbose_pattern_is_left_to_the_parser() -> None:
    with pytest.raises(regex._Unknown):
        regex._plain_first_characters("a # comment", re.VERBOSE)
