"""Content units of ASCII text: the fast path reads what the general loop reads."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from studio.lint.wordlists import content_units
from tests.lint._fixtures import EXAMPLES

WORDS = [
    "Get", "gets", "list", "to", "and", "or", "then", "the", "data", "details", "book",
    "a", "I", "INV-102", "query_tickets", "v1.2", "employee's", "don't", "e.g.", "re-open",
    "Search", "create", "Delete", "orders", "policies", "status", "x", "42", "read-only",
    "info", "Use", "this", "when", "user.name", "it's",
]  # fmt: skip


def _general(text: str) -> object:
    """The general (non-ASCII) loop: a trailing "é" starts no run and changes nothing."""
    return content_units(text + " é")


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(WORDS), max_size=12), st.sampled_from([" ", ", ", ". ", " - "]))
def test_ascii_texts_read_as_the_general_loop_reads_them(words: list[str], sep: str) -> None:
    text = sep.join(words)
    assert content_units(text) == _general(text)


def test_example_descriptions_read_the_same() -> None:
    for path in EXAMPLES.glob("*.json"):
        for tool in json.loads(path.read_text(encoding="utf-8")).get("tools", []):
            for key in ("summary", "usage", "description", "returns"):
                value = tool.get(key)
                if isinstance(value, str) and value.isascii():
                    assert content_units(value) == _general(value), (path.name, key)
