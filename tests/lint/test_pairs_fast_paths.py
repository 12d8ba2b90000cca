"""Shortcuts of the pair index that must answer as the plain computation does."""

from __future__ import annotations

import random

from studio.contract.model import ToolContract
from studio.lint.rules._pairs import _mention_pattern, _opening, _ToolInfo
from tests.lint._fixtures import tool

NAMES = ["get_order", "getOrder", "order", "list_orders_2", "K_tool", "sku"]
PIECES = [" ", "_", ".", "get", "order", "Order", "_order", "GET_ORDER", "s", "2", "K", "\u212a",
          "\u017f", "ku", "订单", "list_orders_2", "(", "x"]  # fmt: skip


def _info(text: str) -> _ToolInfo:
    return _ToolInfo(text, False, ("", ()), "")


def test_mentions_equals_the_name_pattern() -> None:
    rng = random.Random(8)
    hits = 0
    for _ in range(1500):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 12)))
        info = _info(text)
        for name in NAMES:
            want = _mention_pattern(name).search(text) is not None
            assert info.mentions(name) == want, (text, name)
            hits += want
    assert hits > 150


def test_the_opening_is_computed_once_per_tool_object() -> None:
    t = tool("a", "", description="This is a generated tool. It lists orders.")
    first = _opening(t)
    assert first == ("this is a generated tool", "It lists orders.")
    assert _opening(t) is first


def test_converse_names_rules_out_names_without_a_direction_word_first() -> None:
    from studio.lint.rules._pairs import converse_names

    assert converse_names("fahrenheit_to_celsius", "celsius_to_fahrenheit")
    assert converse_names("hslToRgbForConvexity", "rgb_to_hsl_for_convexity")
    assert converse_names("usd2eur", "eur2usd")  # camel case splits at digits
    assert converse_names("USD_2_EUR", "eur_2_usd")
    assert not converse_names("get_order", "order_get")
    assert not converse_names("a_to_b", "a_to_b_c")


def test_a_similar_pair_pickles_to_an_equal_pair() -> None:
    import pickle

    from studio.lint.similarity import SimilarPair

    pair = SimilarPair(
        "a", "b", 0.71, ("order",), True, False, near_duplicate=True, summary_score=0.8,
        cloned_blocks=("usage",), severity="warning",
    )  # fmt: skip
    back = pickle.loads(pickle.dumps(pair, protocol=pickle.HIGHEST_PROTOCOL))
    assert back == pair
    assert type(back) is SimilarPair


def test_a_state_built_for_queries_only_gives_the_same_pairs_and_stays_exact_on_update() -> None:
    import dataclasses

    from studio.lint.rules._pairs import AmbiguityState

    rng = random.Random(12)
    summaries = (
        "查询报销信息",
        "查询报销相关信息",
        "Get invoice info for one trip of the employee.",
        "Get invoice details for a trip of the employee.",
        "List open invoices of a trip.",
        "Book a hotel room for a trip.",
    )

    def make(i: int) -> ToolContract:
        return tool(
            f"{rng.choice(('get', 'list', 'book'))}_{rng.choice(('claim', 'invoice'))}_{i}",
            rng.choice(summaries),
            rng.choice(("", "Use it for one trip; use list_trips instead for many.")),
        )

    tools = [make(i) for i in range(90)]  # past the small index: updates patch the index
    once, watched = AmbiguityState(), AmbiguityState()
    once.build(tools, incremental=False)
    watched.build(tools)
    assert once.similar_pairs() == watched.similar_pairs()
    assert len(once.similar_pairs()) >= 20
    for step in range(6):
        target = tools[rng.randrange(len(tools))]
        edited = dataclasses.replace(make(500 + step), name=target.name)
        tools[tools.index(target)] = edited
        once.update(target.name, edited)
        fresh = AmbiguityState()
        fresh.build(tools)
        assert once.similar_pairs() == fresh.similar_pairs(), step


def test_says_instead_equals_the_pattern() -> None:
    from studio.lint.rules._pairs import _INSTEAD, _says_instead

    rng = random.Random(4)
    pieces = ["Use ", "instead", "Instead", "INSTEAD", "insteadof", "rather", " than",
              "  than", "RATHER THAN", "rather than", ".", " ", "_", "改用", "而非", "x",
              "\u017f"]  # fmt: skip
    found = 0
    for _ in range(3000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 8)))
        want = _INSTEAD.search(text) is not None
        assert _says_instead(text) == want, text
        found += want
    assert found > 500
