"""TF-IDF similarity index: scores, candidates from the inverted index, incremental edits."""

from __future__ import annotations

import random
from collections import Counter

from studio.lint.similarity import SimilarityIndex, normalise_token, tool_terms
from studio.lint.text import tokenize
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
    return Counter(normalise_token(t) for t in tokenize(text))


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
