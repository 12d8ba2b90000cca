"""Ambiguity rules: near-duplicates, confusable names, crowded nouns, toolset size."""

from __future__ import annotations

from studio.lint import Severity, lint_registry, similar_pairs
from studio.lint.config import LintConfig
from studio.lint.model import RULES
from studio.lint.rules.ambiguity import (
    CONFUSABLE_NAMES,
    NEAR_DUPLICATE,
    NOUN_OVERLOAD,
    TOOLSET_SIZE,
    name_key,
)
from tests.lint._fixtures import example, registry, tool

AMBIGUITY = (CONFUSABLE_NAMES, NEAR_DUPLICATE, NOUN_OVERLOAD, TOOLSET_SIZE)


def only_ambiguity() -> LintConfig:
    disabled = frozenset(r for r in RULES if r not in AMBIGUITY)
    return LintConfig(disabled=disabled)


def hits(reg, rule_id, profile="openai"):
    report = lint_registry(reg, profile=profile, config=only_ambiguity())
    return [f for f in report.findings if f.rule_id == rule_id]


def test_name_key_normalises_verbs_and_decorations() -> None:
    assert name_key("get_order") == ("read", ("order",))
    assert name_key("queryOrderList") == ("read", ("order",))
    assert name_key("getOrderDetail") == ("read", ("order",))
    assert name_key("update_order_status") == ("update", ("order", "status"))
    assert name_key("create_order") != name_key("get_order")


def pair_of(finding) -> set[str]:
    """The tools a pair finding is about (shown on both in the GUI)."""
    return {finding.tool, *finding.related}


# Issue #11 changed these expectations deliberately: a pair is ONE finding (on the
# tool that does not tell the two apart, the other in ``related``), and its
# severity says how confusable the pair really is — same verb + same object +
# similar text is an error; names alone, or summaries that each state a
# difference, are less.


def test_confusable_names_neither_tells_apart_is_one_warning() -> None:
    reg = registry(
        tool("get_order", "Fetch one order by its number."),
        tool("queryOrderList", "Page through orders filtered by status."),
    )
    [found] = hits(reg, CONFUSABLE_NAMES)
    assert pair_of(found) == {"get_order", "queryOrderList"}
    assert found.tool == "get_order" and found.related == ("queryOrderList",)
    # The summaries each state what the tool acts on, so the names alone: a warning.
    assert found.severity is Severity.WARNING
    assert "nothing in either description says what distinguishes them" in found.message


def test_confusable_names_with_the_same_summary_is_an_error() -> None:
    reg = registry(tool("get_order", "Gets order."), tool("queryOrderList", "Query orders."))
    [found] = hits(reg, CONFUSABLE_NAMES)
    assert found.severity is Severity.ERROR
    assert '"Gets order." / "Query orders."' in found.message


def test_confusable_names_one_tells_apart_is_on_the_other() -> None:
    reg = registry(
        tool("get_order", "Fetch one order by its number.", "for one known order number."),
        tool(
            "queryOrderList",
            "Page through orders filtered by status.",
            "to browse orders; for a single known order use get_order.",
        ),
    )
    found = hits(reg, CONFUSABLE_NAMES)
    # One level below the warning of the pair that neither tells apart.
    assert [(f.tool, f.severity, f.related) for f in found] == [
        ("get_order", Severity.INFO, ("queryOrderList",))
    ]
    assert "only queryOrderList's description tells them apart" in found[0].message


def test_confusable_names_both_tell_apart_no_finding() -> None:
    reg = registry(
        tool("get_order", "Fetch one order.", "one known order; to browse use queryOrderList."),
        tool("queryOrderList", "Page through orders.", "to browse; use get_order instead for one."),
    )
    assert hits(reg, CONFUSABLE_NAMES) == []
    pairs = similar_pairs(lint_registry(reg, config=only_ambiguity()))
    assert pairs and pairs[0].a_mentions_b and pairs[0].b_mentions_a


def test_one_character_apart_names_are_confusable() -> None:
    reg = registry(tool("get_report", "Read a report."), tool("set_report", "Store a report."))
    [found] = hits(reg, CONFUSABLE_NAMES)
    assert pair_of(found) == {"get_report", "set_report"}
    # get reads, set updates: verbs of different classes tell them apart.
    assert found.severity is Severity.INFO


def test_near_miss_names_are_not_confusable() -> None:
    reg = registry(
        tool("get_order", "Fetch one order by its number."),
        tool("create_order", "Place a new order for the cart."),
        tool("get_invoice", "Fetch one invoice by its number."),
    )
    assert hits(reg, CONFUSABLE_NAMES) == []


def test_near_duplicate_descriptions_english() -> None:
    reg = registry(
        tool("list_bookings", "List the employee's hotel bookings within a date range."),
        tool("fetch_reservations", "List the employee's hotel bookings in a date range."),
        tool("send_invoice", "Email an invoice PDF to the finance mailbox."),
    )
    [found] = hits(reg, NEAR_DUPLICATE)
    assert pair_of(found) == {"list_bookings", "fetch_reservations"}
    assert found.severity is Severity.ERROR


def test_near_duplicate_descriptions_chinese() -> None:
    reg = registry(
        tool("query_order", "查询订单"),
        tool("query_order_list", "查询订单列表"),
        tool("create_refund", "创建退款申请并通知客户"),
    )
    # The names say the same too, so the one finding is the confusable-names one.
    [found] = hits(reg, NEAR_DUPLICATE) + hits(reg, CONFUSABLE_NAMES)
    assert pair_of(found) == {"query_order", "query_order_list"}
    assert found.severity is Severity.ERROR and "say the same thing" in found.message


def test_chinese_instead_line_tells_apart() -> None:
    reg = registry(
        tool("query_order", "查询订单", "查询单个订单；浏览多个订单请改用 query_order_list"),
        tool("query_order_list", "查询订单列表", "浏览订单列表；单个订单请使用 query_order"),
    )
    assert hits(reg, NEAR_DUPLICATE) == []


def test_distinct_descriptions_are_not_near_duplicates() -> None:
    reg = registry(
        tool("search_policy", "Search the travel policy clauses and limits."),
        tool("query_invoices", "List the employee's invoices in a date range."),
    )
    assert hits(reg, NEAR_DUPLICATE) == []


def test_noun_overload_fires_at_four_tools() -> None:
    four = registry(
        tool("get_order"),
        tool("list_orders"),
        tool("cancel_order"),
        tool("update_order_status"),
        tool("get_invoice"),
    )
    found = hits(four, NOUN_OVERLOAD)
    assert len(found) == 1 and "'order'" in found[0].message and found[0].tool is None
    three = registry(tool("get_order"), tool("list_orders"), tool("cancel_order"))
    assert hits(three, NOUN_OVERLOAD) == []


def test_toolset_size_thresholds_and_profiles() -> None:
    def many(n: int):
        return registry(*(tool(f"get_thing{i:03d}x", f"Read thing {i}.") for i in range(n)))

    assert hits(many(40), TOOLSET_SIZE) == []
    found = hits(many(41), TOOLSET_SIZE)
    assert len(found) == 1 and found[0].severity is Severity.INFO
    big = many(129)
    assert hits(big, TOOLSET_SIZE, "openai")[0].severity is Severity.ERROR
    assert hits(big, TOOLSET_SIZE, "anthropic")[0].severity is Severity.INFO


def test_travel_example_siblings_are_told_apart() -> None:
    report = lint_registry(example("travel-reimbursement"))
    assert not [f for f in report.findings if f.rule_id in AMBIGUITY and f.severity.rank >= 2]


def test_order_example_confusables() -> None:
    found = hits(example("order-service"), CONFUSABLE_NAMES)
    assert {frozenset(pair_of(f)) for f in found} == {
        frozenset(p)
        for p in (
            ("get_order", "queryOrderList"),
            ("get_order", "getOrderDetail"),
            ("queryOrderList", "getOrderDetail"),
        )
    }
    assert all(f.severity is Severity.ERROR for f in found)
    # One finding per pair: the near-duplicate rule does not report them again.
    assert hits(example("order-service"), NEAR_DUPLICATE) == []
