"""Cost rules and the token helpers the engine and GUI use."""

from __future__ import annotations

import pytest

from studio.contract import Registry
from studio.lint.model import PROFILES
from studio.lint.rules.cost import model_schema, registry_token_summary, tool_tokens
from tests.lint.fixtures_rules import (
    ODD_TOOLS,
    context,
    example,
    example_context,
    hits,
    module_rules,
    params,
    run_on,
    tool,
)


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("rule_id", module_rules("cost"))
def test_rules_never_raise_on_odd_imports(rule_id: str, profile: str) -> None:
    run_on(rule_id, context(*ODD_TOOLS, profile=profile))
    for t in ODD_TOOLS:
        assert tool_tokens(t) >= 0


def test_travel_example_has_only_info_about_large_tools() -> None:
    ctx = example_context("travel-reimbursement")
    assert run_on("cost-registry-tokens", ctx) == []
    assert run_on("cost-repeated-boilerplate", ctx) == []
    assert all("estimate" in h.message for h in run_on("cost-tool-tokens", ctx))


def test_model_schema_drops_extensions_and_injected_properties() -> None:
    props = {
        "q": {"type": "string", "x-aliases": ["query"]},
        "employee_id": {"type": "string", "x-injected": "session.employee_id"},
    }
    schema = model_schema(tool(parameters=params(props, ["q", "employee_id"])))
    assert schema["properties"] == {"q": {"type": "string"}}
    assert schema["required"] == ["q"]


def test_tool_tokens_grow_with_the_description() -> None:
    short = tool()
    longer = tool(usage=short.usage + " 查询订单时请先确认订单号。" * 10)
    assert 0 < tool_tokens(short) < tool_tokens(longer)


def test_tool_token_budget_option() -> None:
    t = tool()
    assert hits("cost-tool-tokens", t) == []
    [hit] = hits("cost-tool-tokens", t, options={"cost.max_tool_tokens": 10})
    assert "≈" in hit.message and "(estimate)" in hit.message


def test_registry_token_summary() -> None:
    registry = example("order-service")
    summary = registry_token_summary(registry, rounds=3)
    assert summary["estimate"] is True and summary["tools"] == 10
    assert summary["total"] == sum(summary["per_tool"].values())
    assert summary["per_task"] == summary["total"] * 3
    assert registry_token_summary(Registry(name="empty"))["average"] == 0.0


def test_registry_tokens_fire_above_the_budget() -> None:
    ctx = context(
        tool("get_a"), tool("get_b"), options={"cost.max_task_tokens": 100, "cost.rounds": 2}
    )
    [hit] = hits("cost-registry-tokens", ctx=ctx)
    assert hit.tool is None and "2 rounds" in hit.message and "estimate" in hit.message
    assert hits("cost-registry-tokens", ctx=context(tool("get_a"))) == []


def own(n: str, **fields: object):
    """A tool whose own sentences are unique to it."""
    base = {
        "summary": f"Look up {n}.",
        "usage": f"Use when {n} is asked. Not for others.",
        "returns": f"The {n}.",
    }
    return tool(f"get_{n}", **{**base, **fields})


BOILER = "This tool is part of the ACME platform and follows its data policy."
BOILER_ZH = "本工具属于企业平台并遵守数据安全政策要求。"


@pytest.mark.parametrize("sentence", [BOILER, BOILER_ZH])
def test_boilerplate_in_three_tools(sentence: str) -> None:
    tools = [own(n, returns=f"The {n}. {sentence}") for n in ("a", "b", "c")]
    found = hits("cost-repeated-boilerplate", ctx=context(*tools))
    assert [h.tool for h in found] == ["get_a", "get_b", "get_c"]
    assert all(h.path == "returns" and len(h.related) == 2 for h in found)


def test_boilerplate_near_misses() -> None:
    two = [own(n, returns=f"The {n}. {BOILER}") for n in ("a", "b")]
    assert hits("cost-repeated-boilerplate", ctx=context(*two)) == []
    short = [own(n, returns=f"The {n}. Retry once.") for n in ("a", "b", "c")]
    assert hits("cost-repeated-boilerplate", ctx=context(*short)) == []
    options = {"cost.boilerplate_min_tools": 4}
    three = [own(n, returns=f"The {n}. {BOILER}") for n in ("a", "b", "c")]
    assert hits("cost-repeated-boilerplate", ctx=context(*three, options=options)) == []


def test_injected_descriptions_are_not_boilerplate() -> None:
    injected = {"type": "string", "x-injected": "session.e", "description": BOILER}
    tools = [own(n, parameters=params({"employee_id": injected})) for n in "abc"]
    assert hits("cost-repeated-boilerplate", ctx=context(*tools)) == []
