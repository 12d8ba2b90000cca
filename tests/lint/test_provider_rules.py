"""Lint for the provider fields (issue #17): namespaces, deferred tools, strict mode."""

from __future__ import annotations

import pytest

from studio.contract import Example
from studio.contract.provider_options import ProviderOptions
from studio.lint.engine import lint_registry
from tests.lint.fixtures_rules import ODD_TOOLS, context, example, module_rules, run_on, tool


@pytest.mark.parametrize("rule_id", module_rules("provider"))
def test_rules_never_raise_on_odd_imports(rule_id: str) -> None:
    run_on(rule_id, context(*ODD_TOOLS))


def test_a_namespace_of_more_than_ten_functions() -> None:
    crm = [tool(f"get_thing_{i}", provider=ProviderOptions(namespace="crm")) for i in range(12)]
    small = [tool(f"list_item_{i}", provider=ProviderOptions(namespace="shop")) for i in range(3)]
    found = run_on("provider-namespace-too-large", context(*crm, *small))
    assert len(found) == 1
    assert "'crm' groups 12 functions, more than 10" in found[0].message
    assert found[0].tool == "get_thing_0" and "get_thing_10" in found[0].related
    options = {"provider.max_namespace_tools": 12}
    assert run_on("provider-namespace-too-large", context(*crm, options=options)) == []


def test_a_deferred_tool_its_own_use_cases_do_not_find() -> None:
    deferred = ProviderOptions(defer_loading=True)
    refund = tool(
        "refund_payment",
        summary="Refund a card payment to the customer.",
        usage="the customer wants money back for a payment.",
        examples=(Example("refund the card payment of order 7", {"order_id": "A-7"}),),
        provider=deferred,
    )
    # Six look-alikes: a search for their use case ties them all, so each may be cut off.
    clones = [
        tool(
            f"handle_case_{i}",
            summary="Handle the case for the customer.",
            usage="the customer has a case to handle.",
            provider=deferred,
        )
        for i in range(6)
    ]
    loaded = tool("get_order", provider=ProviderOptions())  # not deferred: not searched
    found = run_on("provider-deferred-not-found", context(refund, *clones, loaded))
    assert [h.tool for h in found] == [f"handle_case_{i}" for i in range(6)]
    assert "1 of its 1 use cases" in found[0].message and "top 5" in found[0].message
    assert run_on("provider-deferred-not-found", context(refund, *clones[:4])) == []
    assert run_on("provider-deferred-not-found", context(loaded)) == []


def test_strict_on_a_schema_strict_mode_cannot_express() -> None:
    open_map = tool(
        "tag_order",
        parameters={
            "type": "object",
            "properties": {
                "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                "target": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
            },
        },
        provider=ProviderOptions(strict=True),
    )
    found = run_on("provider-strict-inexpressible", context(open_map))
    messages = " | ".join(h.message for h in found)
    assert "additionalProperties replaced by false" in messages
    assert "does not support 'oneOf'" in messages
    assert any(h.path == "parameters.properties.target" for h in found)
    closed = tool("get_order", provider=ProviderOptions(strict=True))
    assert run_on("provider-strict-inexpressible", context(closed)) == []
    unset = tool("tag_order_2", parameters=open_map.parameters)
    assert run_on("provider-strict-inexpressible", context(unset)) == []


def test_examples_without_provider_options_have_no_provider_findings() -> None:
    for name in ("travel-reimbursement", "order-service"):
        report = lint_registry(example(name))
        assert not [f for f in report.findings if f.rule_id.startswith("provider-")]
