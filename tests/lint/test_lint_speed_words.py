"""Early-exit word checks give the answers of the full word sets they replace."""

from __future__ import annotations

import random

import pytest

from studio.lint.rules._common import first_sentence, sentences
from studio.lint.rules.description import _ASCII_WORD, _word_set, restates_name
from studio.lint.scores import _name_words, _restates
from studio.lint.text import STOPWORDS, latin_word_set, only_words_of, split_identifier

_WORDS = [
    *("the", "of", "a", "to", "get", "gets", "order", "orders", "id", "status", "list"),
    *("start", "date", "user's", "Order", "ID", "2024", "s", "returns", "与", "订单"),
]


def _texts(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    seps = [" ", "  ", ", ", "-", "_", ". ", "\n"]
    return [
        "".join(rng.choice(_WORDS) + rng.choice(seps) for _ in range(rng.randint(0, 6)))
        for _ in range(count)
    ]


@pytest.mark.parametrize(
    "allowed",
    [
        frozenset({"get", "order", "orders", "of"}),
        frozenset({"start", "date", "s"}),
        frozenset(),
    ],
)
def test_only_words_of_equals_the_word_set_test(allowed: frozenset[str]) -> None:
    assert "of" in STOPWORDS  # an allowed stopword must still not count as a word
    for text in [*_texts(1, 3000), "", "of the", "of order", "Order's", "ORDER"]:
        words = latin_word_set(text)
        assert only_words_of(text, allowed) == (bool(words) and words <= allowed), text


def test_scores_restates_as_before() -> None:
    for text in _texts(2, 2000):
        for name in ("get_order", "startDate", "list_of_orders", "status"):
            words = latin_word_set(text)
            assert _restates(text, name) == (bool(words) and words <= _name_words(name))


def test_restates_name_as_before() -> None:
    for summary in _texts(3, 2000):
        for name in ("get_order", "getOrderStatus", "list_of_orders"):
            if not summary:
                continue
            words = _ASCII_WORD.findall(summary.lower())
            name_words = _word_set(split_identifier(name))
            content = _word_set(words)
            expected = bool(content) and content <= name_words and len(words) <= len(name_words) + 3
            if any("\u4e00" <= c <= "\u9fff" for c in summary):
                expected = False
            assert restates_name(name, summary) == expected, (name, summary)


def test_first_sentence_is_the_first_of_sentences() -> None:
    rng = random.Random(4)
    pieces = ["a", "Gets", " ", "  ", ".", ". ", "! ", "?\n", ";", "。", "！", "\n", "\n\n", "x.y"]
    texts = ["", " ", ". ", "\n", "a. b", " .  b", "。。a", "v1.2 is out. Next."]
    texts += ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 12))) for _ in range(5000)]
    for value in texts:
        parts = sentences(value)
        assert first_sentence(value) == (parts[0] if parts else ""), repr(value)


def test_the_orjson_check_finds_every_float_it_must_refuse() -> None:
    from studio.cli.lint import _orjson_safe

    for bad in (1e-05, 1e16, float("nan"), float("inf"), -2e-7):
        for doc in (
            bad,
            [bad],
            {"a": bad},
            {"a": ["x", {"b": (1, bad)}]},
            {"findings": [{"m": "text"}] * 3, "scores": {"t": {"s": 0.5, "x": [bad]}}},
        ):
            assert not _orjson_safe(doc), doc
    assert _orjson_safe({"a": [0.0, 1e-4, 0.5, 3, "1e-05", None, True, {"b": (2.5,)}]})
