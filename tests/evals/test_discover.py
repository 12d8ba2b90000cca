"""Model-free discoverability: BM25 rank of the expected tool, recall@k, tools nobody finds."""

from __future__ import annotations

import json
from pathlib import Path

from studio.contract import Registry, ToolContract, parse_registry
from studio.evals import parse_case, parse_set
from studio.evals.discover import ToolSearch, discoverability, search_tokens

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"


def _tool(name: str, summary: str) -> ToolContract:
    return ToolContract(name=name, summary=summary, parameters={"type": "object", "properties": {}})


def _case(case_id: str, user: str, tool: str) -> object:
    return parse_case(
        {"id": case_id, "user": user, "expect": {"kind": "tool", "calls": [{"tool": tool}]}}
    )


REGISTRY = Registry(
    name="r",
    tools=(
        _tool("query_invoices", "List the employee's invoices (发票) in a date range."),
        _tool("query_tickets", "Where a reimbursement ticket (报销单) is: its status."),
        _tool("search_policy", "Search the travel policy for limits."),
        _tool("get_weather", "Weather forecast."),
    ),
)


def test_chinese_is_tokenized_in_bigrams() -> None:
    assert "发票" in search_tokens("我上周打车的发票能报吗")
    assert "报销" in search_tokens("我的报销单到哪一步了")


def test_ranks_recall_and_unfound_tools() -> None:
    cases = [
        _case("a", "我上周打车的发票能报吗", "query_invoices"),
        _case("b", "我的报销单到哪一步了", "query_tickets"),
        _case("c", "what is the hotel limit in the policy?", "search_policy"),
        _case("d", "打车上限多少", "search_policy"),
        parse_case({"id": "e", "user": "thanks", "expect": {"kind": "no_tool"}}),
    ]
    report = discoverability(REGISTRY, cases)
    ranks = {r.case_id: r.rank for r in report.ranks}
    assert ranks == {"a": 1, "b": 1, "c": 1, "d": None}
    policy = next(t for t in report.tools if t.tool == "search_policy")
    assert policy.cases == 2 and policy.recall == {3: 0.5, 5: 0.5}
    assert report.recall(3) == 0.75
    assert report.unfound == ()
    assert report.untested == ("get_weather",)


def test_a_tool_no_case_finds_is_listed() -> None:
    report = discoverability(REGISTRY, [_case("x", "天气怎么样", "get_weather")])
    assert report.unfound == ("get_weather",)
    assert report.ranks[0].rank is None


def test_ties_count_against_the_tool() -> None:
    search = ToolSearch(
        Registry(name="r", tools=(_tool("alpha_x", "same words"), _tool("gamma_x", "same words")))
    )
    assert search.rank("same words", "alpha_x")[0] == 2
    assert search.rank("nothing here", "alpha_x") == (None, ())


def test_the_example_set_finds_every_tool() -> None:
    registry = parse_registry(
        json.loads((EXAMPLES / "travel-reimbursement.json").read_text("utf-8"))
    )
    text = (EXAMPLES / "evals" / "travel-reimbursement" / "core.jsonl").read_text("utf-8")
    report = discoverability(registry, parse_set("core", text).cases)
    assert report.unfound == () and report.untested == ()
    assert {t.tool for t in report.tools} == {t.name for t in registry.tools}
    assert report.recall(5) is not None and report.recall(5) >= 0.7
