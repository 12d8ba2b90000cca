"""TF-IDF similarity index: scores, candidates from the inverted index, incremental edits."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from studio.lint.similarity import (
    ShortTextIndex,
    SimilarityIndex,
    normalise_token,
    normalised_terms,
    tool_terms,
)
from studio.lint.text import tokenize
from studio.lint.wordlists import content_units, generic_words, verb_class, verb_classes
from tests.lint._fixtures import tool

WORDS = [
    "invoice",
    "ticket",
    "order",
    "refund",
    "policy",
    "hotel",
    "flight",
    "taxi",
    "train",
    "receipt",
    "budget",
    "trip",
    "claim",
    "employee",
    "merchant",
    "amount",
    "date",
    "status",
    "approve",
    "reject",
    "list",
    "search",
    "create",
    "update",
    "delete",
    "clause",
    "limit",
    "currency",
    "region",
    "account",
    "payment",
    "card",
    "transfer",
    "report",
    "audit",
]


def terms(text: str) -> Counter[str]:
    return normalised_terms(tokenize(text))


def test_plural_folding() -> None:
    assert normalise_token("orders") == "order"
    assert normalise_token("policies") == "policy"
    assert normalise_token("status") == "status"
    assert normalise_token("订单") == "订单"


def test_near_duplicates_found_and_distinct_texts_not() -> None:
    index = SimilarityIndex(0.6)
    index.build(
        [
            ("a", terms("List the employee's travel invoices within a date range")),
            ("b", terms("List the employee travel invoices in a date range")),
            ("c", terms("Create a refund for a paid order and notify the customer")),
        ]
    )
    pairs = {(a, b) for a, b, _ in index.similar()} | {(b, a) for a, b, _ in index.similar()}
    assert ("a", "b") in pairs
    assert not any("c" in p for p in pairs)
    assert index.shared_terms("a", "b")[0] in {"employee", "travel", "invoice", "range", "date"}


def test_chinese_bigrams() -> None:
    index = SimilarityIndex(0.6)
    index.build(
        [
            ("q1", terms("查询订单")),
            ("q2", terms("查询订单列表")),
            ("r", terms("创建退款申请")),
        ]
    )
    found = {frozenset((a, b)) for a, b, _ in index.similar()}
    assert frozenset(("q1", "q2")) in found
    assert all("r" not in p for p in found)


def test_tool_terms_include_name_words_and_parameters() -> None:
    t = tool(
        "query_invoices",
        "List invoices.",
        parameters={
            "type": "object",
            "properties": {"start_date": {"type": "string", "description": "First day"}},
        },
    )
    got = tool_terms(t, "{summary}")
    assert {"query", "invoice", "start", "date", "first", "day"} <= set(got)


def _random_docs(rng: random.Random, n: int) -> list[tuple[str, Counter[str]]]:
    docs = []
    for i in range(n):
        k = rng.randint(3, 9)
        docs.append((f"t{i}", terms(" ".join(rng.choice(WORDS) for _ in range(k)))))
    return docs


def _brute_force(index: SimilarityIndex, names: list[str]) -> set[frozenset[str]]:
    out = set()
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            if index.score(a, b) >= index.threshold:
                out.add(frozenset((a, b)))
    return out


def test_prefix_filter_finds_every_pair_above_threshold() -> None:
    rng = random.Random(7)
    docs = _random_docs(rng, 60)
    index = SimilarityIndex(0.6, max_df_share=1.0)
    index.build(docs)
    found = {frozenset((a, b)) for a, b, _ in index.similar()}
    assert found == _brute_force(index, [n for n, _ in docs])


def test_incremental_updates_match_a_rebuild() -> None:
    rng = random.Random(11)
    docs = dict(_random_docs(rng, 120))
    live = SimilarityIndex(0.6, max_df_share=1.0)
    live.build(docs.items())
    for step in range(40):
        name = rng.choice(sorted(docs))
        action = rng.random()
        if action < 0.2:
            live.update(name, None, None)
            del docs[name]
        elif action < 0.4:
            new = f"n{step}"
            docs[new] = _random_docs(rng, 1)[0][1]
            live.update(None, new, docs[new])
        else:
            docs[name] = _random_docs(rng, 1)[0][1]
            live.update(name, name, docs[name])
    fresh = SimilarityIndex(0.6, max_df_share=1.0)
    fresh.build(docs.items())
    got = {frozenset((a, b)): round(s, 6) for a, b, s in live.similar()}
    want = {frozenset((a, b)): round(s, 6) for a, b, s in fresh.similar()}
    assert got == want


# ---------------------------------------------------------------- short texts (issue #11)


@pytest.mark.parametrize(
    ("text", "verbs", "content"),
    [
        ("Gets data.", ("read",), ()),
        ("查询信息", ("read",), ()),
        ("Handles requests", (), ()),
        ("处理请求", ("run",), ()),
        ("查询报销信息", ("read",), ("报销",)),
        ("查询报销相关信息", ("read",), ("报销",)),
        ("List the employee's hotel bookings.", ("read.list",), ("employee", "hotel", "booking")),
        ("Use this to book a room for INV-102.", ("buy",), ("room",)),
        ("This tool fetches orders", ("read",), ("order",)),
    ],
)
def test_content_units_of_short_english_and_chinese(
    text: str, verbs: tuple, content: tuple
) -> None:
    units = content_units(text)
    assert units.verbs == verbs and units.content == content


def test_verbs_are_recognised_in_any_inflection() -> None:
    for word in ("find", "fetching", "checks", "booked", "queries", "预订"):
        assert verb_class(word) is not None, word
    assert verb_class("order") is None  # a noun first: not in the verb list


def test_word_lists_are_data_files() -> None:
    assert {"data", "信息", "相关"} <= generic_words()
    assert verb_classes()["book"] == "buy" and verb_classes()["查询"] == "read"


def _unit_docs(rng: random.Random, n: int) -> dict[str, frozenset[str]]:
    return {f"t{i}": frozenset([*rng.sample(WORDS, rng.randint(1, 3)), "@read"]) for i in range(n)}


def _short_pairs(index: ShortTextIndex) -> dict[tuple[str, str], float]:
    return {k: round(v, 6) for k, v in index.pairs().items()}


def test_short_text_index_finds_near_duplicates() -> None:
    index = ShortTextIndex(0.75)
    index.build(
        [
            ("a", content_units("查询报销单信息").key()),
            ("b", content_units("查询报销信息").key()),
            ("c", content_units("创建报销单").key()),
        ]
    )
    assert set(index.pairs()) == {("a", "b")}


def test_short_text_index_incremental_matches_a_rebuild() -> None:
    rng = random.Random(3)
    docs = _unit_docs(rng, 80)
    live = ShortTextIndex(0.75, cap=6)  # a small cap: units cross it often
    live.build(docs.items())
    seen_pairs = 0
    for step in range(60):
        name = rng.choice(sorted(docs))
        roll = rng.random()
        if roll < 0.2:
            live.update(name, None, None)
            del docs[name]
        elif roll < 0.4:
            new = f"n{step}"
            docs[new] = next(iter(_unit_docs(rng, 1).values()))
            live.update(None, new, docs[new])
        else:
            docs[name] = next(iter(_unit_docs(rng, 1).values()))
            live.update(name, name, docs[name])
        fresh = ShortTextIndex(0.75, cap=6)
        fresh.build(docs.items())
        assert _short_pairs(live) == _short_pairs(fresh), step
        seen_pairs += len(fresh.pairs())
    assert seen_pairs > 0


def test_one_short_text_saying_nearly_all_of_another_is_near() -> None:
    # Bigrams of "订单物流" straddle two words (单物): Dice alone misses the pair.
    index = ShortTextIndex(0.75)
    index.build(
        [
            ("shipping", content_units("查询订单物流信息").key()),
            ("logistics", content_units("查询订单的物流轨迹").key()),
            ("refund", content_units("查询退款申请的进度").key()),
        ]
    )
    assert set(index.pairs()) == {("logistics", "shipping")}


def test_one_character_stopwords_do_not_split_words() -> None:
    assert content_units("获取用户信息").content == ("用户",)  # 用 starts 用户 (user)
    assert content_units("查询订单的状态").content == ("订单", "状态")
