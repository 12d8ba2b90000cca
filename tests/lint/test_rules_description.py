"""Description rules: one per missing component, lengths, restating the name, examples."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from studio.contract import ErrorSpec
from studio.lint.model import PROFILES, Severity
from studio.lint.rules import description
from studio.lint.rules._common import PropertyRef
from studio.lint.text import has_cjk, split_identifier
from tests.lint.fixtures_rules import (
    ODD_TOOLS,
    context,
    example_context,
    hits,
    module_rules,
    params,
    run_on,
    tool,
)

BARE = {"summary": "", "usage": "", "returns": "", "preconditions": ""}


def free(description: str, **fields: object) -> object:
    """A tool with only a free-text description (as imported)."""
    return tool(**{**BARE, "description": description, **fields})


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("rule_id", module_rules("description"))
def test_rules_never_raise_on_odd_imports(rule_id: str, profile: str) -> None:
    run_on(rule_id, context(*ODD_TOOLS, profile=profile))


@pytest.mark.parametrize("rule_id", module_rules("description"))
def test_travel_example_has_no_errors_or_warnings(rule_id: str) -> None:
    found = run_on(rule_id, example_context("travel-reimbursement"))
    # Only long parameter descriptions (info) are reported on the exemplary registry.
    assert all(
        (h.severity or Severity.INFO) is Severity.INFO and rule_id == "param-description-too-long"
        for h in found
    )


def test_the_baseline_tool_is_clean() -> None:
    t = tool()
    for rule_id in module_rules("description"):
        assert hits(rule_id, t) == [], rule_id


# --- desc-no-purpose --------------------------------------------------------------------


def test_no_description_at_all_is_an_error() -> None:
    [hit] = hits("desc-no-purpose", free(""))
    assert hit.severity is Severity.ERROR and hit.path == "description"


def test_one_word_description_has_no_purpose() -> None:
    [hit] = hits("desc-no-purpose", free("Search."))
    assert hit.severity is None


@pytest.mark.parametrize("text", ["Search orders by customer name.", "按客户名称查询订单列表。"])
def test_purpose_stated_in_english_or_chinese(text: str) -> None:
    assert hits("desc-no-purpose", free(text)) == []


# --- desc-no-usage-guidance ------------------------------------------------------------------


def test_usage_missing_fires_on_the_usage_block() -> None:
    t = tool(usage="")
    [hit] = hits("desc-no-usage-guidance", t)
    assert hit.path == "usage"


@pytest.mark.parametrize(
    "text",
    [
        "Search orders. Use this when the user gives an order number.",
        "Search orders. Do not use it for refunds.",
        "Search orders; use list_orders instead for many orders.",
        "查询订单详情。用于用户给出订单号的情况。",
        "查询订单。不要用于退款，请改用 create_refund。",
    ],
)
def test_usage_cues_in_free_text(text: str) -> None:
    assert hits("desc-no-usage-guidance", free(text)) == []


@pytest.mark.parametrize("text", ["Search orders by customer name.", "按客户名称查询订单。"])
def test_usage_missing_in_free_text(text: str) -> None:
    [hit] = hits("desc-no-usage-guidance", free(text))
    assert hit.path == "description"


def test_usage_without_when_not_is_info() -> None:
    [hit] = hits("desc-no-usage-guidance", tool(usage="customer wants money back."))
    assert hit.severity is Severity.INFO
    assert (
        hits("desc-no-usage-guidance", tool(usage="用户要退款时；查询退款请改用 get_refund。"))
        == []
    )


# --- desc-no-limitations -----------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Lists orders; at most 100 per page.",
        "Lists the caller's orders only.",
        "查询订单，最多返回 100 条。",
        "查询订单，时间范围不超过 31 天。",
    ],
)
def test_limitations_stated(text: str) -> None:
    assert hits("desc-no-limitations", free(text)) == []


@pytest.mark.parametrize("text", ["Lists orders by customer.", "按客户查询订单。"])
def test_limitations_missing(text: str) -> None:
    t = free(text, parameters=params({"name": {"type": "string", "description": "Customer"}}))
    assert len(hits("desc-no-limitations", t)) == 1


def test_limitations_in_a_parameter_description_count() -> None:
    t = free(
        "Lists orders.", parameters=params({"size": {"type": "integer", "description": "max 100"}})
    )
    assert hits("desc-no-limitations", t) == []


# --- desc-no-returns -----------------------------------------------------------------------


@pytest.mark.parametrize("text", ["Find orders. Returns order ids.", "查询订单，返回订单号列表。"])
def test_returns_stated(text: str) -> None:
    assert hits("desc-no-returns", free(text)) == []


def test_returns_missing() -> None:
    [hit] = hits("desc-no-returns", tool(returns=""))
    assert hit.path == "returns" and "fill the returns block" in hit.message
    # Text that lives in the free-text description is pointed at there, not at an empty block.
    [hit] = hits("desc-no-returns", free("取消订单。"))
    assert hit.path == "description"
    assert hit.message.startswith("The free-text description does not say what the tool returns")
    assert "block." not in hit.message


# --- param-no-description --------------------------------------------------------------------


def test_parameter_without_description() -> None:
    t = tool(parameters=params({"reason": {"type": "string"}}))
    [hit] = hits("param-no-description", t)
    assert hit.path == "parameters.properties.reason"


@pytest.mark.parametrize(
    ("prop", "desc"),
    [
        ("start_date", "start date"),
        ("order_id", "order id"),
        ("status", "The order status"),
        ("start_date", "开始日期"),
    ],
)
def test_tautological_descriptions(prop: str, desc: str) -> None:
    schema = {"type": "string", "description": desc, "x-aliases": ["开始日期"]}
    t = tool("get_order", parameters=params({prop: schema}))
    [hit] = hits("param-no-description", t)
    assert hit.path == f"parameters.properties.{prop}.description"


@pytest.mark.parametrize(
    ("prop", "desc"),
    [
        ("start_date", "First day of the range, included."),
        ("status", "订单状态，默认全部"),
        ("order_id", "Order number as printed on the receipt"),
    ],
)
def test_informative_descriptions(prop: str, desc: str) -> None:
    t = tool("get_order", parameters=params({prop: {"type": "string", "description": desc}}))
    assert hits("param-no-description", t) == []


def test_injected_parameters_need_no_description() -> None:
    t = tool(parameters=params({"employee_id": {"type": "string", "x-injected": "session.e"}}))
    assert hits("param-no-description", t) == []


# --- param-format-unstated -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("prop", "desc"),
    [
        ("start_date", "First day"),
        ("callback_url", "Where to post"),
        ("email", "Contact"),
        ("order_id", "The order"),
        ("下单日期", "下单的日子"),
        ("客户ID", "客户"),
    ],
)
def test_format_unstated(prop: str, desc: str) -> None:
    t = tool(parameters=params({prop: {"type": "string", "description": desc}}))
    assert len(hits("param-format-unstated", t)) == 1


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "string", "format": "date", "description": "First day"},
        {"type": "string", "description": "First day, YYYY-MM-DD"},
        {"type": "string", "description": "开始日期，格式 2024-05-01"},
        {"type": "string", "description": "The order, e.g. ORD-1"},
        {"type": "string", "pattern": "^R-\\d{5}$"},
        {"type": "integer", "description": "Unix time"},
    ],
)
def test_format_stated(schema: dict) -> None:
    t = tool(parameters=params({"start_date": schema}))
    assert hits("param-format-unstated", t) == []


def test_idempotency_key_is_not_an_id() -> None:
    t = tool(parameters=params({"idempotency_key": {"type": "string", "description": "x"}}))
    assert hits("param-format-unstated", t) == []


# --- lengths -----------------------------------------------------------------------------------


def test_summary_length_limits_in_english_and_chinese() -> None:
    long_en = "Search the travel reimbursement policy clauses and their limit amounts for all trips"
    assert len(hits("desc-summary-too-long", tool(summary=long_en))) == 1
    assert hits("desc-summary-too-long", tool(summary="Search the policy clauses.")) == []
    assert hits("desc-summary-too-long", tool(summary="查询差旅报销制度条款及其限额")) == []
    long_zh = "查询差旅报销制度的全部条款以及每个条款规定的报销限额和适用范围"
    [hit] = hits("desc-summary-too-long", tool(summary=long_zh))
    assert hit.path == "summary" and "CJK" in hit.message


def test_summary_length_options() -> None:
    t = tool(summary="Search the policy clauses and limits.")
    assert hits("desc-summary-too-long", t, options={"summary.max_latin_words": 4})
    assert not hits("desc-summary-too-long", t, options={"summary.max_latin_words": "bad"})


def test_first_sentence_of_free_text_is_the_summary() -> None:
    t = free("Search all the orders of every customer in every warehouse of the company today. Ok.")
    [hit] = hits("desc-summary-too-long", t)
    assert hit.path == "description"


def test_parameter_description_length_and_option() -> None:
    t = tool(parameters=params({"q": {"type": "string", "description": "x" * 81}}))
    [hit] = hits("param-description-too-long", t)
    assert hit.path == "parameters.properties.q.description"
    assert hits("param-description-too-long", t, options={"param_description.max_chars": 100}) == []
    short = tool(parameters=params({"q": {"type": "string", "description": "中" * 80}}))
    assert hits("param-description-too-long", short) == []


# --- desc-restates-name ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "summary"),
    [
        ("get_order", "Gets order."),
        ("getOrderDetail", "Gets order details."),
        ("update_order_status", "Update the status of an order."),
        ("search", "Search."),
    ],
)
def test_restating_the_name(name: str, summary: str) -> None:
    [hit] = hits("desc-restates-name", free(summary, name=name))
    assert hit.path == "description"


@pytest.mark.parametrize(
    ("name", "summary"),
    [
        ("get_order", "Look up one order by its number."),
        ("get_order", "获取订单。"),
        ("send_notification", "Send a notification to a user by SMS."),
    ],
)
def test_not_restating_the_name(name: str, summary: str) -> None:
    assert hits("desc-restates-name", tool(name, summary=summary)) == []


# --- desc-example-instead-of-prose ------------------------------------------------------------


def test_json_example_instead_of_prose() -> None:
    t = free('Example: {"order_id": "ORD-1", "fields": ["status", "items"]}')
    [hit] = hits("desc-example-instead-of-prose", t)
    assert hit.path == "description"
    zh = free('示例：{"订单号": "ORD-1", "字段": ["状态", "明细"]}')
    assert len(hits("desc-example-instead-of-prose", zh)) == 1


def test_prose_with_a_short_example_is_fine() -> None:
    t = free(
        "Look up one order by its number and return its status and items, "
        'e.g. {"order_id": "ORD-1"}.'
    )
    assert hits("desc-example-instead-of-prose", t) == []
    assert hits("desc-example-instead-of-prose", tool(errors=(ErrorSpec("E1", "x"),))) == []


def test_parameter_description_that_is_only_json() -> None:
    t = tool(
        parameters=params(
            {"filter": {"type": "object", "description": '{"status": "paid", "page": 1}'}}
        )
    )
    [hit] = hits("desc-example-instead-of-prose", t)
    assert hit.path == "parameters.properties.filter.description"


MY_MODULES = ("naming", "description", "schema", "consistency", "security", "cost")


def _all_my_rules() -> list[str]:
    return [rid for m in MY_MODULES for rid in module_rules(m)]


@pytest.mark.parametrize("profile", ["openai", "anthropic", "gemini", "mcp"])
def test_travel_example_has_no_error_from_any_rule_module(profile: str) -> None:
    from tests.lint.fixtures_rules import example, run_all, severity_of

    found = run_all(example("travel-reimbursement"), _all_my_rules(), profile)
    assert [(rid, h.path) for rid, h in found if severity_of(rid, h) is Severity.ERROR] == []


def test_order_service_triggers_many_rules() -> None:
    from tests.lint.fixtures_rules import example, run_all

    fired = {rid for rid, _ in run_all(example("order-service"), _all_my_rules())}
    expected = {
        "name-generic", "name-verb-noun", "name-casing-mixed", "param-name-ambiguous",
        "desc-no-purpose", "desc-no-usage-guidance", "desc-no-limitations", "desc-no-returns",
        "param-no-description", "param-format-unstated", "desc-restates-name",
        "schema-additional-properties", "schema-enum-in-prose", "param-identity-not-injected",
        "risk-mutating-verb-on-read", "risk-write-without-idempotency", "risk-write-retried",
        "risk-destructive-not-marked",
    }  # fmt: skip
    assert expected <= fired


# --- desc-vague-summary ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "summary", "words"),
    [
        ("query_invoices", "Gets data.", "data"),
        ("query_invoices", "Handles requests.", "handles, requests"),
        ("query_invoices", "查询信息", "信息"),
        ("query_invoices", "处理请求", "请求"),
        ("query_invoices", "This tool returns the relevant information.", "tool, returns"),
        ("query_invoices", "获取相关数据。", "相关, 数据"),
    ],
)
def test_vague_summary_in_english_and_chinese(name: str, summary: str, words: str) -> None:
    [hit] = hits("desc-vague-summary", tool(name, summary=summary))
    assert hit.path == "summary" and hit.severity is None
    assert json.dumps(summary, ensure_ascii=False) in hit.message
    assert f"only generic words ({words}" in hit.message
    assert "(the name suggests invoices)" in hit.message


def test_vague_first_sentence_of_a_free_description() -> None:
    [hit] = hits("desc-vague-summary", free("Gets data. Returns it as JSON."))
    assert hit.path == "description"
    assert hit.message.startswith('The description\'s first sentence "Gets data."')


@pytest.mark.parametrize(
    "summary",
    [
        "查询报销信息",
        "Gets order.",
        "Look up reimbursement tickets by ticket id or status.",
        "按客户名称查询订单列表。",
        "Search.",  # no purpose at all: desc-no-purpose says so, not this rule
    ],
)
def test_summaries_naming_an_object_are_not_vague(summary: str) -> None:
    assert hits("desc-vague-summary", tool(summary=summary)) == []


def test_a_vague_summary_is_one_finding_not_also_restating_the_name() -> None:
    t = tool("get_data", summary="Gets data.")
    assert len(hits("desc-vague-summary", t)) == 1
    assert hits("desc-restates-name", t) == []


def _restates_name_as_written_first(name: str, summary: str) -> bool:
    """``restates_name`` before its shortcut on the name's words."""
    if not summary or has_cjk(summary):
        return False
    words = re.findall(r"[A-Za-z0-9]+", summary.lower())
    name_words = description._word_set(split_identifier(name))
    if len(words) > len(name_words) + 3:
        return False
    content = description._word_set(words)
    return bool(content) and content <= name_words


@settings(max_examples=400, deadline=None)
@given(
    st.sampled_from(["get_order", "getOrders", "the_a_of", "list", "query_order_list", "x", ""]),
    st.lists(
        st.sampled_from(["get", "gets", "order", "orders", "the", "a", "of", "list", "Query", "x"]),
        max_size=9,
    ).map(" ".join),
)
def test_restates_name_answers_as_before_its_shortcut(name: str, summary: str) -> None:
    assert description.restates_name(name, summary) == _restates_name_as_written_first(
        name, summary
    )


def _is_tautological_as_written_first(ref: PropertyRef, desc: str, tool_name: str) -> bool:
    """``is_tautological`` before its path for properties without aliases."""
    if not desc:
        return False
    words = None
    if desc.isascii():
        words = re.findall(r"[A-Za-z0-9]+", desc.lower())
        norm = "".join(words)
    else:
        norm = description._norm(desc)
    names = [ref.name, *(a for a in ref.schema.get("x-aliases") or () if isinstance(a, str))]
    if any(norm == description._norm(n) for n in names):
        return True
    if words is None:
        if has_cjk(desc):
            return False
        words = re.findall(r"[A-Za-z0-9]+", desc.lower())
    if not words or len(words) > len(split_identifier(ref.name)) + 2:
        return False
    own = description._word_set(split_identifier(ref.name)) | description._word_set(
        split_identifier(tool_name)
    )
    content = description._word_set(words)
    return bool(content) and content <= own


_ALIASES = st.one_of(
    st.none(),
    st.just([]),
    st.lists(st.sampled_from(["开始日期", "from", "start-date", 3, "order no"]), max_size=3),
)


@settings(max_examples=400, deadline=None)
@given(
    st.sampled_from(["start_date", "status", "orderNo", "id", "x"]),
    _ALIASES,
    st.lists(
        st.sampled_from(
            ["start", "date", "Start-Date", "the", "order", "no", "开始日期", "状态", "x"]
        ),
        max_size=5,
    ).map(" ".join),
    st.sampled_from(["queryOrderList", "get_status", ""]),
)
def test_is_tautological_answers_as_before_its_alias_path(
    name: str, aliases: list | None, desc: str, tool_name: str
) -> None:
    schema: dict = {"type": "string"}
    if aliases is not None:
        schema["x-aliases"] = aliases
    ref = PropertyRef(name, schema, (name,), f"parameters.properties.{name}", {}, True)
    assert description.is_tautological(ref, desc, tool_name) == _is_tautological_as_written_first(
        ref, desc, tool_name
    )
