"""compile_cues: the first-character lookahead never changes what a pattern matches."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import studio.lint.rules.ambiguity
import studio.lint.rules.consistency
import studio.lint.rules.description
import studio.lint.rules.schema
import studio.lint.rules.security
import studio.lint.rules.security_privilege
import studio.lint.scores
from studio.lint.regex import compile_cues, first_characters

MODULES = (
    studio.lint.rules.ambiguity,
    studio.lint.rules.consistency,
    studio.lint.rules.description,
    studio.lint.rules.schema,
    studio.lint.rules.security,
    studio.lint.rules.security_privilege,
    studio.lint.scores,
)


def _unwrap(pattern: re.Pattern[str]) -> str | None:
    """The source pattern of a compile_cues result, or None for a plain pattern."""
    text = pattern.pattern
    if not text.startswith("(?=["):
        return None
    i = 4
    while True:
        i = text.index("])(?:", i)
        if text[i - 1] != "\\":
            break
        i += 1
    return text[i + len("])(?:") : -1]


def _wrapped_patterns() -> list[tuple[str, re.Pattern[str]]]:
    found = []
    for module in MODULES:
        for name, value in vars(module).items():
            candidates = value if isinstance(value, list) else [value]
            for k, item in enumerate(candidates):
                if isinstance(item, tuple) and item:
                    item = item[0]  # (pattern, prefilter…) rows
                if isinstance(item, re.Pattern) and _unwrap(item) is not None:
                    label = f"{module.__name__}.{name}" + (f"[{k}]" if len(candidates) > 1 else "")
                    found.append((label, item))
    return found


WRAPPED = _wrapped_patterns()


def test_the_rules_use_it() -> None:
    names = {label for label, _ in WRAPPED}
    assert "studio.lint.rules.description._LIMIT_CUES" in names
    assert "studio.lint.rules.security._LEGIT_SIBLING" in names
    assert len(WRAPPED) >= 20


@pytest.mark.parametrize(
    ("pattern", "flags", "expected"),
    [
        (r"\bat most\b|\bup to\b|最多", 0, "au最"),
        (r"(?:^|\s)x", re.MULTILINE, r"\sx"),
        (r"a?b", 0, "ab"),
        (r"[0-9]+|\w", 0, r"0-9\w"),
        (r"(?<=\s)foo", 0, "f"),
    ],
)
def test_first_characters(pattern: str, flags: int, expected: str) -> None:
    assert first_characters(pattern, flags) == expected


@pytest.mark.parametrize(
    "pattern",
    [r"a*", r"\b", r".x", r"[^a]b", r"(a)?\1b", r"(?i:a)b", r"x?|y", r"(?=a)"],
)
def test_no_lookahead_when_the_first_characters_are_unknown(pattern: str) -> None:
    assert first_characters(pattern) is None
    assert compile_cues(pattern).pattern == pattern


def test_verbose_pattern_keeps_its_closing_paren() -> None:
    plain = r"\bfoo\b  # a comment" + "\n" + r"| \bbar\b # another"
    wrapped = compile_cues(plain, re.VERBOSE)
    assert wrapped.pattern != plain
    assert [m.span() for m in wrapped.finditer("a foo, a bar")] == [(2, 5), (9, 12)]


@pytest.mark.parametrize(("label", "wrapped"), WRAPPED, ids=[label for label, _ in WRAPPED])
def test_wrapping_is_reproducible(label: str, wrapped: re.Pattern[str]) -> None:
    source = _unwrap(wrapped)
    assert source is not None
    assert compile_cues(source, wrapped.flags).pattern == wrapped.pattern, label


_SEPARATORS = st.sampled_from([" ", "", "\n", ", ", ".", "_", "-", "x", "中", "ſ", "\u212a", "İ"])


def _pieces(source: str) -> list[str]:
    words = re.findall(r"[A-Za-z]+|[\u4e00-\u9fff]+|[<>≤≥@`'\"~/.#]", source)
    return sorted({w for w in words} | {w.upper() for w in words} | {w.title() for w in words})


@settings(max_examples=60, deadline=None)
@given(data=st.data())
@pytest.mark.parametrize(("label", "wrapped"), WRAPPED, ids=[label for label, _ in WRAPPED])
def test_same_matches_as_the_plain_pattern(
    label: str, wrapped: re.Pattern[str], data: st.DataObject
) -> None:
    source = _unwrap(wrapped)
    assert source is not None
    plain = re.compile(source, wrapped.flags)
    pieces = st.sampled_from(_pieces(source))
    parts = data.draw(st.lists(st.tuples(pieces, _SEPARATORS), max_size=12))
    text = "".join(p + s for p, s in parts)
    got = [(m.span(), m.groups(), m.groupdict()) for m in wrapped.finditer(text)]
    want = [(m.span(), m.groups(), m.groupdict()) for m in plain.finditer(text)]
    assert got == want, (label, text)
    assert wrapped.sub("#", text) == plain.sub("#", text)


def test_a_pattern_splits_and_closes_at_its_own_structure() -> None:
    from studio.lint.regex import group_end, top_level_alternatives

    # Escapes and character classes (a "]" first in a class is a literal) are not structure.
    assert top_level_alternatives(r"a|b(c|d)|[|(]x|\|y|[]|]z") == (
        "a", "b(c|d)", "[|(]x", r"\|y", "[]|]z",
    )  # fmt: skip
    assert group_end(r"(?=a[)]b\)c)rest", 0) == 11
    assert group_end("(?=a(b)", 0) is None


def _unescaped_characters(source: str, start: int = 0) -> list[tuple[int, str, int]]:
    """The reference reading, a character at a time: ``(index, character, depth)`` of each
    character neither escaped nor inside a class (a ``]`` right after ``[`` or ``[^`` is a
    member)."""
    out = []
    depth, i, n = 0, start, len(source)
    while i < n:
        c = source[i]
        if c == "\\":
            i += 2
            continue
        if c == "[":
            i += 1
            if source.startswith("^", i):
                i += 1
            if source.startswith("]", i):
                i += 1
            while i < n and source[i] != "]":
                i += 2 if source[i] == "\\" else 1
            i += 1
            continue
        out.append((i, c, depth))
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        i += 1
    return out


def test_structure_is_unescaped_characters_restricted_to_brackets_and_bars() -> None:
    """On every pattern of the security phrases and grammar, and on edge cases (a class
    opened by ``]``, an unclosed class, a trailing backslash), the regex-driven scan
    finds the ``(``, ``)`` and ``|`` the character loop finds, at the same depths."""
    from studio.lint.regex import structure
    from studio.lint.rules._security_phrases import book, phrase_data

    grammar = phrase_data()["grammar"]["classes"]
    patterns = [p.source for p in book().phrases]
    patterns += [p for alternatives in grammar.values() for p in alternatives]
    patterns += [
        r"[]|]z|(a)",
        r"[^]|(]x(|)",
        r"a[bc(",
        "(a|b\\",
        r"[\]]|(\()|x",
        r"(?=a[)]b\)c)rest",
        "",
    ]
    assert len(patterns) > 500
    for pattern in patterns:
        for start in (0, 1):
            expected = [t for t in _unescaped_characters(pattern, start) if t[1] in "()|"]
            assert list(structure(pattern, start)) == expected, pattern[:80]
