"""Cost rules and the token helpers the engine and GUI use."""

from __future__ import annotations

import json

import pytest

from studio.contract import Registry, RegistrySettings, render_description
from studio.contract.token_count import count_tokens
from studio.contract.tokens import estimate_tokens
from studio.lint.model import PROFILES
from studio.lint.rules.cost import (
    PER_TOOL_OVERHEAD,
    model_schema,
    registry_token_summary,
    tool_tokens,
)
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


def test_travel_example_has_only_info_about_large_tools(estimated_tokens: None) -> None:
    ctx = example_context("travel-reimbursement")
    assert run_on("cost-registry-tokens", ctx) == []
    assert run_on("cost-repeated-boilerplate", ctx) == []
    found = run_on("cost-tool-tokens", ctx)
    assert found and all("≈" in h.message and "(estimate)" in h.message for h in found)


@pytest.mark.parametrize("profile", ["openai", "openai-strict"])
def test_openai_profiles_report_exact_counts(exact_tokens: None, profile: str) -> None:
    ctx = example_context("travel-reimbursement", profile)
    found = run_on("cost-tool-tokens", ctx)
    assert found
    for hit in found:
        tokens = tool_tokens(ctx.registry.tool(hit.tool), ctx.settings, profile)
        assert f"costs {tokens} tokens (o200k_base), over the 600-token budget" in hit.message
        assert "≈" not in hit.message and "estimate" not in hit.message


@pytest.mark.parametrize("profile", ["anthropic", "gemini", "mcp"])
def test_other_profiles_stay_estimated_with_a_tokenizer(exact_tokens: None, profile: str) -> None:
    ctx = example_context("travel-reimbursement", profile)
    found = run_on("cost-tool-tokens", ctx)
    assert found and all("(estimate)" in h.message for h in found)
    assert all("o200k_base" not in h.message for h in found)


def test_exact_tool_tokens_are_the_parts_plus_the_wrapper_allowance(exact_tokens: None) -> None:
    import bpe_openai

    encode = bpe_openai.get_encoding("o200k_base").encode_ordinary
    registry = example("travel-reimbursement")
    t = registry.tool("create_reimbursement_ticket")
    schema = json.dumps(model_schema(t), ensure_ascii=False, separators=(",", ":"))
    rendered = render_description(t, registry.settings.description_template)
    parts = [t.name, rendered, schema]
    expected = PER_TOOL_OVERHEAD + sum(len(encode(p)) for p in parts)
    assert tool_tokens(t, registry.settings, "openai") == expected
    assert tool_tokens(t, registry.settings, "anthropic") == PER_TOOL_OVERHEAD + sum(
        estimate_tokens(p) for p in parts
    )
    assert tool_tokens(t, registry.settings) == tool_tokens(t, registry.settings, "anthropic")


def test_tool_tokens_follow_the_description_template(estimated_tokens: None) -> None:
    t = tool()
    short = RegistrySettings(description_template="{summary}")
    full = RegistrySettings()
    # The same tool object under two templates: no count is served from the other's cache.
    assert tool_tokens(t, short) < tool_tokens(t, full)
    assert tool_tokens(t, short) == tool_tokens(t, short)


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


def test_tool_token_budget_option(estimated_tokens: None) -> None:
    t = tool()
    assert hits("cost-tool-tokens", t) == []
    [hit] = hits("cost-tool-tokens", t, options={"cost.max_tool_tokens": 10})
    tokens = tool_tokens(t, RegistrySettings(), "openai")
    assert f"costs ≈ {tokens} tokens (estimate), over the 10-token budget" in hit.message


def test_tool_token_budget_option_exact(exact_tokens: None) -> None:
    t = tool()
    [hit] = hits("cost-tool-tokens", t, options={"cost.max_tool_tokens": 10})
    tokens = tool_tokens(t, RegistrySettings(), "openai")
    assert f"costs {tokens} tokens (o200k_base), over the 10-token budget" in hit.message
    [hit] = hits("cost-tool-tokens", t, options={"cost.max_tool_tokens": 10}, profile="anthropic")
    assert "(estimate)" in hit.message


def test_registry_token_summary(estimated_tokens: None) -> None:
    registry = example("order-service")
    for profile in (None, "openai", "anthropic"):
        summary = registry_token_summary(registry, rounds=3, profile=profile)
        assert summary["method"] == "estimate" and summary["estimate"] is True
        assert summary["tools"] == 10
        assert summary["total"] == sum(summary["per_tool"].values())
        assert summary["per_task"] == summary["total"] * 3
    assert registry_token_summary(Registry(name="empty"))["average"] == 0.0


def test_registry_token_summary_exact(exact_tokens: None) -> None:
    registry = example("order-service")
    exact = registry_token_summary(registry, rounds=3, profile="openai")
    assert exact["method"] == "o200k_base" and exact["estimate"] is False
    estimate = registry_token_summary(registry, rounds=3, profile="anthropic")
    assert estimate["method"] == "estimate"
    # The offline estimate errs high against o200k_base (benchmarks/token_estimate.py).
    assert 0 < exact["total"] < estimate["total"]


def test_registry_tokens_fire_above_the_budget(estimated_tokens: None) -> None:
    ctx = context(
        tool("get_a"), tool("get_b"), options={"cost.max_task_tokens": 100, "cost.rounds": 2}
    )
    [hit] = hits("cost-registry-tokens", ctx=ctx)
    total = registry_token_summary(ctx.registry, 2, "openai")["total"]
    assert hit.tool is None
    assert hit.message.startswith(
        f"The 2 tool definitions cost ≈ {total} tokens (estimate) per request "
        f"and ≈ {total * 2} per task of 2 rounds;"
    )
    assert hits("cost-registry-tokens", ctx=context(tool("get_a"))) == []


def test_registry_tokens_fire_above_the_budget_exact(exact_tokens: None) -> None:
    options = {"cost.max_task_tokens": 100, "cost.rounds": 2}
    ctx = context(tool("get_a"), tool("get_b"), options=options)
    [hit] = hits("cost-registry-tokens", ctx=ctx)
    total = registry_token_summary(ctx.registry, 2, "openai")["total"]
    assert hit.message.startswith(
        f"The 2 tool definitions cost {total} tokens (o200k_base) per request "
        f"and {total * 2} per task of 2 rounds;"
    )
    ctx = context(tool("get_a"), tool("get_b"), options=options, profile="gemini")
    [hit] = hits("cost-registry-tokens", ctx=ctx)
    assert "(estimate)" in hit.message and "o200k_base" not in hit.message


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


@pytest.mark.parametrize(("profile", "label"), [("openai", "o200k_base"), ("mcp", "estimate")])
def test_boilerplate_message_says_how_it_counted(
    exact_tokens: None, profile: str, label: str
) -> None:
    tools = [own(n, returns=f"The {n}. {BOILER}") for n in ("a", "b", "c")]
    found = hits("cost-repeated-boilerplate", ctx=context(*tools, profile=profile))
    tokens = count_tokens(BOILER, profile)
    approx = "≈ " if label == "estimate" else ""
    assert all(f"costs {approx}{tokens} tokens ({label}) in each" in h.message for h in found)


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
