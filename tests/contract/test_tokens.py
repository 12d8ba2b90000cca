"""The offline token estimate is plausible for prose, CJK, JSON and edge cases."""

from __future__ import annotations

import json

import pytest

from studio.contract.tokens import estimate_tokens


def test_empty_and_whitespace_cost_nothing() -> None:
    assert estimate_tokens("") == 0
    assert estimate_tokens(" ") == 0


def test_short_english_words_are_one_token_each() -> None:
    assert estimate_tokens("the cat sat on the mat") == 6


def test_long_words_split_in_pieces_of_about_four() -> None:
    assert estimate_tokens("internationalization") == 5  # 20 letters


def test_cjk_counts_one_token_per_character() -> None:
    assert estimate_tokens("差旅报销助手") == 6
    assert estimate_tokens("出租车，的士") == 6  # full-width comma counts too


def test_mixed_latin_and_cjk() -> None:
    assert estimate_tokens("taxi 出租车") == 1 + 3


def test_punctuation_counts_and_repeats_are_grouped() -> None:
    assert estimate_tokens("a, b.") == 4
    assert estimate_tokens("-" * 40) == 10


def test_digits_are_grouped_by_three() -> None:
    assert estimate_tokens("118.5") == 1 + 1 + 1
    assert estimate_tokens("2024") == 2


def test_newlines_and_indentation() -> None:
    assert estimate_tokens("a\nb") == 3
    assert estimate_tokens("        x") == 2 + 1


@pytest.mark.parametrize(
    ("text", "low", "high"),
    [
        # Reference counts from a cl100k-style tokenizer, within a generous band.
        ("Search the travel reimbursement policy clauses and their limit amounts.", 10, 18),
        (
            json.dumps({"type": "object", "properties": {"query": {"type": "string"}}}, indent=2),
            20,
            45,
        ),
    ],
)
def test_estimate_is_in_a_plausible_range(text: str, low: int, high: int) -> None:
    assert low <= estimate_tokens(text) <= high


def test_estimate_grows_with_text() -> None:
    short = "Query the employee's invoices."
    assert estimate_tokens(short * 3) > estimate_tokens(short)
