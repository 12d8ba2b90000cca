"""Naming rules: charset per profile, uniqueness, generic names, verb_noun, casing, parameters."""

from __future__ import annotations

import pytest

from studio.contract import Registry, RegistrySettings
from studio.lint.model import PROFILES, Severity
from tests.lint.fixtures_rules import (
    ODD_TOOLS,
    apply_fix,
    context,
    example_context,
    hits,
    module_rules,
    params,
    run_on,
    tool,
)


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("rule_id", module_rules("naming"))
def test_rules_never_raise_on_odd_imports(rule_id: str, profile: str) -> None:
    run_on(rule_id, context(*ODD_TOOLS, profile=profile))


@pytest.mark.parametrize("rule_id", module_rules("naming"))
def test_travel_example_has_no_naming_findings(rule_id: str) -> None:
    assert run_on(rule_id, example_context("travel-reimbursement")) == []


# --- name-charset -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "profile", "fires"),
    [
        ("get_order", "openai", False),
        ("get-order-2", "anthropic", False),
        ("get.order", "openai", True),
        ("get.order", "gemini", False),
        ("get.order", "mcp", False),
        ("1st_order", "openai", False),
        ("1st_order", "gemini", True),
        ("查询订单", "openai", True),
        ("get order", "anthropic", True),
        ("a" * 64, "openai", False),
        ("a" * 65, "openai", True),
        ("a" * 100, "mcp", False),
    ],
)
def test_name_charset_per_profile(name: str, profile: str, fires: bool) -> None:
    assert bool(hits("name-charset", tool(name), profile=profile)) is fires


def test_name_charset_fix_sanitises_the_name() -> None:
    bad = tool("get order.v2")
    [hit] = hits("name-charset", bad)
    assert hit.path == "name"
    fixed = apply_fix(bad, hit)
    assert fixed.name == "get_order_v2"
    assert hits("name-charset", fixed) == []


def test_name_charset_gemini_fix_prefixes_underscore() -> None:
    bad = tool("2fa-reset")
    [hit] = hits("name-charset", bad, profile="gemini")
    assert hits("name-charset", apply_fix(bad, hit), profile="gemini") == []


# --- name-unique ------------------------------------------------------------------------


def test_name_unique_fires_on_case_folded_duplicates() -> None:
    ctx = context(tool("get_order"), tool("Get_Order"), tool("list_orders"))
    [hit] = hits("name-unique", ctx=ctx)
    assert hit.tool == "Get_Order" and hit.related == ("get_order",)
    assert "case" in hit.message


def test_name_unique_fires_on_exact_duplicates_and_not_on_distinct_names() -> None:
    assert len(hits("name-unique", ctx=context(tool("a_b"), tool("a_b")))) == 1
    assert hits("name-unique", ctx=context(tool("get_order"), tool("get_orders"))) == []


# --- name-generic -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    ["search", "query", "run", "tool1", "do_stuff", "execute", "process", "handle", "get_data"],
)
def test_generic_names_fire(name: str) -> None:
    [hit] = hits("name-generic", tool(name))
    assert hit.path == "name"


@pytest.mark.parametrize(
    "name", ["search_orders", "run_sql_report", "query_invoices", "process_refund"]
)
def test_specific_names_do_not_fire(name: str) -> None:
    assert hits("name-generic", tool(name)) == []


# --- name-verb-noun ---------------------------------------------------------------------


def test_verb_noun_uses_the_registry_vocabulary() -> None:
    assert len(hits("name-verb-noun", tool("check_stock"))) == 1
    custom = RegistrySettings(verbs=("get", "check"))
    t = tool("check_stock")
    assert hits("name-verb-noun", t, context(t, settings=custom)) == []


def test_verb_noun_follows_each_vocabulary_of_any_shape() -> None:
    """The vocabulary is worked out once per value: another value (or a list, which
    cannot be cached) is read afresh, never taken for one seen before."""
    t = tool("fetch_orders")
    messages = []
    for verbs in (("get", "list"), ("list", "fetch"), ["get", "list", 3], ("Get", "List")):
        settings = RegistrySettings(verbs=verbs)  # type: ignore[arg-type]
        messages.append(
            [h.message for h in hits("name-verb-noun", t, context(t, settings=settings))]
        )
    first, second, listed, capitals = messages
    assert "use 'get'" in first[0] and "(get, list)" in first[0]
    assert second == []
    assert listed == first
    assert capitals == first


@pytest.mark.parametrize(
    ("name", "instead"),
    [("fetch_orders", "get"), ("find_flights", "list"), ("book_hotel", None), ("查询_发票", "get")],
)
def test_a_verb_outside_the_vocabulary_is_recognised_as_a_verb(
    name: str, instead: str | None
) -> None:
    [hit] = hits("name-verb-noun", tool(name))
    assert hit.severity is Severity.INFO
    assert "starts with the verb" in hit.message
    if instead:
        assert f"use {instead!r}" in hit.message
    else:
        assert "use " not in hit.message


def test_a_name_without_a_verb_says_so() -> None:
    [hit] = hits("name-verb-noun", tool("order_key"))
    assert hit.severity is None
    assert "does not start with a verb ('order'" in hit.message


def test_verb_noun_needs_a_noun_and_accepts_camel_case() -> None:
    [hit] = hits("name-verb-noun", tool("search"))
    assert "no noun" in hit.message
    assert hits("name-verb-noun", tool("getOrderDetail")) == []
    assert hits("name-verb-noun", tool("create_reimbursement_ticket")) == []


# --- name-casing-mixed -------------------------------------------------------------------


def test_casing_mix_flags_the_minority_with_a_snake_case_fix() -> None:
    camel = tool("queryOrderList")
    ctx = context(tool("get_order"), camel, tool("update_order"), tool("search"))
    [hit] = hits("name-casing-mixed", ctx=ctx)
    assert hit.tool == "queryOrderList"
    assert apply_fix(camel, hit).name == "query_order_list"


def test_casing_consistent_registry_is_clean() -> None:
    ctx = context(tool("getOrder"), tool("listOrders"), tool("search"))
    assert hits("name-casing-mixed", ctx=ctx) == []


def test_casing_fix_is_withheld_when_the_target_name_exists() -> None:
    ctx = context(tool("get_order"), tool("getOrder"), tool("list_orders"))
    [hit] = hits("name-casing-mixed", ctx=ctx)
    assert hit.fix is None


def test_casing_mix_works_on_an_empty_registry() -> None:
    assert hits("name-casing-mixed", Registry(name="empty")) == []


# --- param-name-ambiguous ----------------------------------------------------------------


@pytest.mark.parametrize("prop", ["id", "data", "value", "user", "info", "type", "obj"])
def test_ambiguous_parameter_names_fire(prop: str) -> None:
    t = tool(parameters=params({prop: {"type": "string", "description": "x"}}))
    [hit] = hits("param-name-ambiguous", t)
    assert hit.path == f"parameters.properties.{prop}"


@pytest.mark.parametrize("prop", ["order_id", "user_email", "userId", "notification_data", "类型"])
def test_qualified_parameter_names_do_not_fire(prop: str) -> None:
    t = tool(parameters=params({prop: {"type": "string"}}))
    assert hits("param-name-ambiguous", t) == []


def test_injected_and_nested_parameters() -> None:
    injected = {"type": "string", "x-injected": "session.user"}
    nested = {"type": "object", "properties": {"value": {"type": "number"}}}
    t = tool(parameters=params({"user": injected, "line": nested}))
    [hit] = hits("param-name-ambiguous", t)
    assert hit.path == "parameters.properties.line.properties.value"
