"""The offline token estimate is plausible for prose, CJK, JSON and edge cases."""

from __future__ import annotations

import json
import math
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from studio.contract import tokens
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


# ---------------------------------------------------------------- the fast counting


def _reference_estimate(text: str) -> int:
    """The original estimate: one walk over the matches of ``_TOKEN_RE``, kept as the spec."""
    total = 0
    for match in tokens._TOKEN_RE.finditer(text):
        kind = match.lastgroup
        piece = match.group()
        if kind == "cjk":
            total += 1
        elif kind == "digits":
            total += math.ceil(len(piece) / 3)
        elif kind == "word":
            extra = max(0, len(piece) - 6)
            total += 1 + math.ceil(extra / 4)
        elif kind == "newline":
            total += 1
        elif kind == "space":
            if len(piece) > 1:
                total += math.ceil(len(piece) / 4)
        elif kind == "punct":
            total += math.ceil(len(piece) / 2)
        elif kind == "repeat":
            total += math.ceil(len(piece) / 4)
        else:
            total += 1
    return total


_FRAGMENTS = [
    # Latin prose and identifiers
    "the",
    "Search",
    "internationalization",
    "invoice_id",
    "queryOrderList",
    "e.g.",
    "X-1024",
    "café",
    "straße",
    "naïve",
    "e\u0301",
    "ǅ",
    "²",
    "٣٤",
    "Ⅻ",
    # JSON and code
    '{"type":"object",',
    '"properties":{',
    "}}}",
    "}}},",
    "]}",
    '":',
    "1}}}",
    "true}}}",
    "null,",
    "0.5",
    "2024-01-31",
    "-->",
    "===",
    "...",
    "!!!",
    "***",
    "--",
    "~/.ssh",
    "\\n",
    # whitespace of every kind
    " ",
    "  ",
    "   ",
    "\t",
    "\n",
    "\n  ",
    "\n\t ",
    "\r\n",
    "\x0b",
    "\x0c",
    "\x1c",
    "\x1f",
    "\x85",
    "\xa0",
    "\u2003",
    "\u3000",
    "_",
    "__",
    "\x00",
    "\x7f",
    # CJK: ideographs, punctuation, full-width forms, kana, hangul
    "差旅报销",
    "订单",
    "查",
    "，",
    "。",
    "：",
    "；",
    "（",
    "）",
    "、",
    "「",
    "」",
    "《",
    "》",
    "。。。",
    "，，",
    "１２３",
    "０",
    "ＡＢＣ",
    "！",
    "？",
    "～",
    "ｱｲ",
    "ひらがな",
    "カタカナ",
    "ー",
    "한국어",
    "〇",
    "〡",
    "〜",
    "・",
    "\uff5e\uff5e\uff5e",
    "\U0001f600",
    "\u200b",
    "\u202e",
]


def _mixed_text() -> st.SearchStrategy[str]:
    piece = st.one_of(
        st.sampled_from(_FRAGMENTS),
        st.characters(max_codepoint=0x7F),
        st.characters(min_codepoint=0x3000, max_codepoint=0x30FF),
        st.characters(min_codepoint=0xFF00, max_codepoint=0xFFEF),
        st.characters(),
    )
    return st.lists(piece, max_size=40).map("".join)


@settings(max_examples=300, deadline=None)
@given(_mixed_text())
def test_estimate_equals_the_reference_walk_on_mixed_text(text: str) -> None:
    assert estimate_tokens(text) == _reference_estimate(text)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_estimate_equals_the_reference_walk_on_any_text(text: str) -> None:
    assert estimate_tokens(text) == _reference_estimate(text)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "a:---",
        "---:",
        "1２3",
        "２1",
        "(。",
        "订单。,",
        "x，y",
        "!、",
        "--。",
        "!---。",
        "a\n\t  b",
        " \r\n  x",
        "}}}",
        '{"a":{"b":{"c":1}}}',
        "_x_\x1c",
        "\u3000\u3000a",
        "ａｂｃ１２",
        "a" * 600,
        "1" * 600,
        "." + "," * 700,
        json.dumps({"描述": "查询订单。Use get_order instead.", "n": [1, 22, 333]}, indent=2),
    ],
)
def test_estimate_equals_the_reference_walk_on_edge_cases(text: str) -> None:
    assert estimate_tokens(text) == _reference_estimate(text)


def _char_class(chars: list[str]) -> str:
    codes = sorted(set(map(ord, chars)))
    ranges: list[str] = []
    i = 0
    while i < len(codes):
        j = i
        while j + 1 < len(codes) and codes[j + 1] == codes[j] + 1:
            j += 1
        ranges.append(f"\\u{codes[i]:04x}" + (f"-\\u{codes[j]:04x}" if j > i else ""))
        i = j + 1
    return "[" + "".join(ranges) + "]"


def test_cjk_classes_match_what_the_regex_engine_computes() -> None:
    every_cjk = re.findall(f"[{tokens._CJK}]", "".join(map(chr, range(0x3000, 0x10000))))
    word = _char_class([c for c in every_cjk if re.match(r"[^\W\d]", c)])
    non_digit = _char_class([c for c in every_cjk if not re.match(r"\d", c)])
    assert word == tokens._CJK_WORD_CLASS
    assert non_digit == tokens._CJK_NON_DIGIT_CLASS
