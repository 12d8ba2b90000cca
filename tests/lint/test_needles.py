"""Text pre-checks (may_contain, fewer_words_than) answer as the full reading does."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from studio.lint.text import may_contain

ALPHABET = "abcAB <>≤最多只 \n-"
NEEDLES = st.lists(st.text(ALPHABET, min_size=1, max_size=4).map(str.lower), max_size=6)


@settings(max_examples=300, deadline=None)
@given(NEEDLES, st.text(ALPHABET, max_size=30))
def test_same_answer_as_each_needle_in_turn(needles: list[str], text: str) -> None:
    key = tuple(needles)
    assert may_contain(key, text) == any(n in text.lower() for n in key)


def test_no_needle_and_the_empty_needle() -> None:
    assert may_contain((), "anything") is False
    assert may_contain(("",), "") is True
    assert may_contain(("x", ""), "abc") is True
    assert may_contain(("max",), "MAXIMUM") is True
    assert may_contain(("k",), "\u212a") is True  # unsure (Kelvin sign): searched anyway


@settings(max_examples=300, deadline=None)
@given(
    st.text("ab1 ,.'-查询报销\n", max_size=40),
    st.integers(min_value=0, max_value=10),
    st.integers(min_value=0, max_value=14),
)
def test_fewer_words_than_reads_as_text_length(text: str, latin: int, cjk: int) -> None:
    from studio.lint.text import fewer_words_than, text_length

    size = text_length(text)
    assert fewer_words_than(text, latin, cjk) == (size.latin_words < latin and size.cjk_chars < cjk)


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(max_codepoint=127), max_size=40))
def test_an_ascii_description_normalises_to_its_words(desc: str) -> None:
    from studio.lint.rules.description import _ASCII_WORD, _norm

    assert _norm(desc) == "".join(_ASCII_WORD.findall(desc.lower()))
