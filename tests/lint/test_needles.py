"""may_contain's one-pass automaton answers as a needle-by-needle search does."""

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
