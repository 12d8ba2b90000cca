"""Ambiguity rules: near-duplicates, confusable names, crowded nouns, toolset size."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from studio.lint import Linter, Severity, Suppression, lint_registry, similar_pairs
from studio.lint.config import LintConfig
from studio.lint.engine import finding_tools
from studio.lint.model import RULES
from studio.lint.rules.ambiguity import (
    CLONED_BLOCK,
    CONFUSABLE_NAMES,
    DUPLICATE_TOOL,
    NEAR_DUPLICATE,
    NOUN_OVERLOAD,
    PAIR_RULE_IDS,
    TOOLSET_SIZE,
    name_key,
)
from tests.lint._fixtures import example, registry, tool

AMBIGUITY = (
    CONFUSABLE_NAMES,
    NEAR_DUPLICATE,
    NOUN_OVERLOAD,
    TOOLSET_SIZE,
    CLONED_BLOCK,
    DUPLICATE_TOOL,
)


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
    assert "neither description says when to use the other" in found.message


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


# ---------------------------------------------------------------- issue #11: short, vague, Chinese


def travel_with(*changes: tuple[str, dict], extra: tuple = ()) -> object:
    """The travel example with some tools' fields replaced and tools added."""
    reg = example("travel-reimbursement")
    edits = dict(changes)
    tools = tuple(
        dataclasses.replace(t, **edits[t.name]) if t.name in edits else t for t in reg.tools
    )
    return dataclasses.replace(reg, tools=(*tools, *extra))


def pair_findings(report) -> list:
    return [f for f in report.findings if f.rule_id in PAIR_RULE_IDS]


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("查询报销信息", "查询报销相关信息"),
        ("Get reimbursement info.", "Get reimbursement-related information."),
    ],
)
def test_short_pair_that_says_the_same_is_one_error(first: str, second: str) -> None:
    # Different names (the names alone would not pair them), 6- and 2-word summaries.
    reg = travel_with(extra=(tool("lookup_claims", first), tool("fetch_expenses", second)))
    report = lint_registry(reg)
    [found] = [f for f in pair_findings(report) if "lookup_claims" in pair_of(f)]
    assert found.rule_id == NEAR_DUPLICATE and found.severity is Severity.ERROR
    assert pair_of(found) == {"lookup_claims", "fetch_expenses"}
    assert f"{json.dumps(first, ensure_ascii=False)} / " in found.message
    assert "nothing in either description says what distinguishes them" in found.message
    # One finding, counted once, shown on both tools.
    assert found in report.for_tool("lookup_claims") and found in report.for_tool("fetch_expenses")
    assert report.counts[Severity.ERROR] == 1
    assert finding_tools(found) == ("lookup_claims", "fetch_expenses")


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("查询报销单信息", "查询报销信息"),
        ("List open invoices of a trip.", "List invoices of a trip."),
    ],
)
def test_one_summary_adding_a_detail_is_a_warning(first: str, second: str) -> None:
    reg = registry(tool("get_claims", first), tool("find_expenses", second))
    [found] = pair_findings(lint_registry(reg, config=only_ambiguity()))
    assert found.severity is Severity.WARNING and "differ only in detail" in found.message


def test_summaries_that_each_state_a_difference_are_not_an_error() -> None:
    reg = registry(
        tool("update_issue_title", "Update the title of an existing issue."),
        tool("update_issue_body", "Update the body of an existing issue."),
    )
    assert all(f.severity is Severity.INFO for f in pair_findings(lint_registry(reg)))


@pytest.mark.parametrize(
    ("search", "buy"),
    [
        (("search_flights", "Search flights by route and date."),
         ("book_flight", "Book a flight by route and date.")),
        (("search_hotels", "搜索酒店房间"), ("book_hotel", "预订酒店房间")),
    ],
)  # fmt: skip
def test_different_verbs_of_one_service_are_info(search: tuple, buy: tuple) -> None:
    reg = registry(tool(*search), tool(*buy))
    found = pair_findings(lint_registry(reg, config=only_ambiguity()))
    assert found and all(f.severity is Severity.INFO for f in found)


@pytest.mark.parametrize(
    "source",
    ["query_tickets", "search_policy"],
)
def test_cloned_blocks_are_one_finding_each_naming_both_tools(source: str) -> None:
    reg = example("travel-reimbursement")
    src = next(t for t in reg.tools if t.name == source)
    cloned = travel_with(("query_invoices", {"summary": src.summary, "usage": src.usage}))
    report = lint_registry(cloned)
    found = [f for f in pair_findings(report) if pair_of(f) == {"query_invoices", source}]
    assert sorted(f.path for f in found) == ["summary", "usage"]
    assert all(f.rule_id == CLONED_BLOCK and f.severity is Severity.ERROR for f in found)
    for f in found:
        assert "query_invoices" in f.message and source in f.message and f.path in f.message


def test_cloned_chinese_usage_block() -> None:
    usage = "用户问报销单进度时使用；查询发票请改用 query_invoices。"
    reg = registry(
        tool("query_claim_status", "查询报销单的审批进度", usage),
        tool("query_claim_history", "查询报销单的修改历史", "  " + usage + " "),
    )
    [found] = pair_findings(lint_registry(reg, config=only_ambiguity()))
    assert (found.rule_id, found.path, found.severity) == (CLONED_BLOCK, "usage", Severity.ERROR)


def test_the_same_function_imported_twice_is_a_duplicate_tool() -> None:
    reg = example("travel-reimbursement")
    original = next(t for t in reg.tools if t.name == "query_tickets")
    twice = dataclasses.replace(
        reg, tools=(*reg.tools, dataclasses.replace(original, name="query_tickets_2"))
    )
    found = [f for f in pair_findings(lint_registry(twice)) if "query_tickets_2" in pair_of(f)]
    assert [(f.rule_id, f.tool, f.related, f.severity) for f in found] == [
        (DUPLICATE_TOOL, "query_tickets_2", ("query_tickets",), Severity.ERROR)
    ]


def test_one_finding_per_pair_across_rules() -> None:
    report = lint_registry(example("order-service"))
    pairs = [frozenset(pair_of(f)) for f in pair_findings(report)]
    assert len(pairs) == len(set(pairs)) >= 3


def test_a_suppression_on_either_tool_covers_the_pair_finding() -> None:
    reg = registry(
        tool("lookup_claims", "查询报销信息"), tool("fetch_expenses", "查询报销相关信息")
    )
    config = only_ambiguity().with_suppression(
        Suppression(NEAR_DUPLICATE, "fetch_expenses", "both stay for old clients")
    )
    report = lint_registry(reg, config=config)
    assert pair_findings(report) == []
    assert [f.suppressed_reason for f in report.suppressed] == ["both stay for old clients"]


def test_shared_terms_are_distinctive_content_words() -> None:
    noise = "Call it after all other tools; the argument 1008292230 is an example id INV-102."
    reg = registry(
        tool("list_bookings", f"List the employee's hotel bookings in a date range. {noise}"),
        tool("fetch_reservations", f"List the employee's hotel bookings for a date range. {noise}"),
        tool("send_invoice", "Email an invoice PDF to the finance mailbox."),
    )
    [pair] = [p for p in similar_pairs(lint_registry(reg)) if p.b == "fetch_reservations"]
    assert pair.shared_terms and set(pair.shared_terms) <= {
        "hotel",
        "booking",
        "employee",
        "date",
        "range",
    }
    for word in ("after", "all", "argument", "1008292230", "102", "inv", "call", "id"):
        assert word not in pair.shared_terms


def test_as_you_type_each_case_is_flagged_incrementally() -> None:
    """What the editor does: Linter.update_tool for one edited tool at a time."""
    reg = example("travel-reimbursement")
    linter = Linter(reg)
    assert linter.report.counts[Severity.ERROR] == 0
    tools = {t.name: t for t in reg.tools}
    vague = dataclasses.replace(tools["query_invoices"], summary="Gets data.")
    report = linter.update_tool("query_invoices", vague)
    assert [f.rule_id for f in report.for_tool("query_invoices") if f.path == "summary"] == [
        "desc-vague-summary"
    ]
    copy = dataclasses.replace(
        vague, summary=tools["query_tickets"].summary, usage=tools["query_tickets"].usage
    )
    report = linter.update_tool("query_invoices", copy)
    for name in ("query_invoices", "query_tickets"):
        assert {f.path for f in report.for_tool(name) if f.rule_id == CLONED_BLOCK} == {
            "summary",
            "usage",
        }
    report = linter.update_tool("query_invoices", tools["query_invoices"])
    assert not [f for f in report.findings if f.rule_id == CLONED_BLOCK]
    report = linter.update_tool(None, tool("lookup_claims", "查询报销信息"))
    report = linter.update_tool(None, tool("fetch_expenses", "查询报销相关信息"))
    [found] = [f for f in report.for_tool("fetch_expenses") if f.rule_id in PAIR_RULE_IDS]
    assert found.severity is Severity.ERROR
    assert _comparable(report) == _comparable(lint_registry(linter.registry))


def _comparable(report) -> list:
    return sorted((f.rule_id, f.tool or "", f.path, f.message, f.related) for f in report.findings)


def test_incremental_pairs_match_a_full_lint_after_random_edits() -> None:
    rng = random.Random(11)
    verbs = ("get", "list", "query", "book", "cancel", "查询")
    summaries = (
        "查询报销信息",
        "查询报销相关信息",
        "查询报销单信息",
        "Gets data.",
        "Get invoice info.",
        "Get invoice details.",
        "List open invoices of a trip.",
        "Book a hotel room for a trip.",
        "Search hotel rooms for a trip.",
    )
    usages = ("", "Use it for one trip; use list_trips instead for many.", "查询单据时使用。")

    def make(i: int) -> object:
        return tool(
            f"{rng.choice(verbs)}_{rng.choice(('claim', 'invoice', 'room'))}_{i % 7}x{i}",
            rng.choice(summaries),
            rng.choice(usages),
        )

    config = only_ambiguity()
    linter = Linter(registry(*(make(i) for i in range(80))), config=config)
    for step in range(40):
        names = list(linter.report.tool_order)
        roll = rng.random()
        if roll < 0.15:
            linter.update_tool(rng.choice(names), None)
        elif roll < 0.3:
            linter.update_tool(None, make(1000 + step))
        elif roll < 0.45:
            # One function imported twice, or a block copied from a sibling.
            source = next(t for t in linter.registry.tools if t.name == rng.choice(names))
            linter.update_tool(None, dataclasses.replace(source, name=f"{source.name}_{step}"))
        else:
            target = rng.choice(names)
            linter.update_tool(target, dataclasses.replace(make(2000 + step), name=target))
        full = lint_registry(linter.registry, config=config)
        assert _comparable(linter.report) == _comparable(full), step


def test_three_copies_are_two_findings_against_the_first() -> None:
    usage = "Use when the user asks about a claim; for invoices use query_invoices instead."
    reg = registry(
        tool("query_claim_status", "Show the approval status of one claim.", usage),
        tool("query_claim_history", "Show the edit history of one claim.", usage),
        tool("query_claim_comments", "Show the reviewer's comments on one claim.", usage),
    )
    found = pair_findings(lint_registry(reg, config=only_ambiguity()))
    assert sorted((f.rule_id, f.tool, f.path, f.related) for f in found) == [
        (CLONED_BLOCK, "query_claim_status", "usage", ("query_claim_comments",)),
        (CLONED_BLOCK, "query_claim_status", "usage", ("query_claim_history",)),
    ]


@pytest.mark.parametrize(
    ("edit", "rule_id", "needle"),
    [
        ({"summary": "Gets data."}, "desc-vague-summary", 'The summary "Gets data."'),
        ({"summary": "查询信息"}, "desc-vague-summary", "only generic words (信息)"),
        ({"usage": "@tickets"}, CLONED_BLOCK, "have the same usage"),
        ({"summary": "查询报销信息"}, NEAR_DUPLICATE, "nothing in either description says"),
    ],
)
def test_the_cli_reports_each_case(capsys, tmp_path, edit: dict, rule_id: str, needle: str) -> None:
    from studio.cli import main
    from studio.contract import registry_to_dict

    reg = example("travel-reimbursement")
    tickets = next(t for t in reg.tools if t.name == "query_tickets")
    if edit.get("usage") == "@tickets":
        edit = {"usage": tickets.usage}
    extra = (tool("lookup_claims", "查询报销相关信息"),) if rule_id == NEAR_DUPLICATE else ()
    changed = travel_with(("query_invoices", edit), extra=extra)
    path = tmp_path / "travel.json"
    path.write_text(json.dumps(registry_to_dict(changed), ensure_ascii=False), "utf-8")
    code = main(["lint", str(path), "--fail-on", "warning"])
    out = capsys.readouterr().out
    [line] = [x for x in out.splitlines() if f" {rule_id} " in x]
    assert code == 1 and needle in line and "query_invoices" in line


@pytest.mark.parametrize(
    ("usage", "tweaked"),
    [
        (
            "the user asks whether a claim has been filed, where it is, or why it was "
            "rejected; filter by status or give the ticket id. Do not use it to list "
            "invoices: use query_invoices.",
            "the user asks whether a claim has been filed, where it is, or why it was "
            "rejected; filter by status or give the ticket id. Do not use it to list "
            "tickets: use query_tickets.",
        ),
        (
            "用户问报销单是否已提交、审批到哪一步、为什么被驳回时使用；可按状态筛选或给出单号。"
            "不要用它查询发票，请改用 query_invoices。",
            "用户问报销单是否已提交、审批到哪一步、为什么被驳回时使用；可按状态筛选或给出单号。"
            "不要用它查询报销单，请改用 query_tickets。",
        ),
    ],
)
def test_a_usage_copied_then_edited_is_a_near_clone(usage: str, tweaked: str) -> None:
    reg = registry(
        tool("query_tickets", "Look up reimbursement tickets by id or status.", usage),
        tool("query_invoices", "List the employee's invoices in a date range.", tweaked),
    )
    [found] = pair_findings(lint_registry(reg, config=only_ambiguity()))
    assert (found.rule_id, found.path, found.severity) == (CLONED_BLOCK, "usage", Severity.ERROR)
    assert "have nearly the same usage" in found.message


def test_a_shared_opening_sentence_of_free_text_is_not_the_summary() -> None:
    opening = 'This is the subfunction for tool "reddit", you can use this tool.'
    reg = registry(
        tool(
            "posts_by_subreddit", description=f"{opening} Lists the newest posts of one subreddit."
        ),
        tool("comments_by_user", description=f"{opening} Lists the comments a user wrote."),
        tool("post_details", description=f"{opening} Returns one post with its score."),
    )
    found = pair_findings(lint_registry(reg, config=only_ambiguity()))
    assert all(f.severity is not Severity.ERROR for f in found)
    # Descriptions that say nothing beyond the boilerplate but the tool's own name
    # differ only where the names do (likes vs media): a model reads the names, so
    # the pair is a warning (the emptiness is the description rules' finding).
    bare = registry(
        tool(
            "user_likes", description=f'{opening} The description of this function is: "user_likes"'
        ),
        tool(
            "user_media", description=f'{opening} The description of this function is: "user_media"'
        ),
    )
    [same] = pair_findings(lint_registry(bare, config=only_ambiguity()))
    assert same.severity is Severity.WARNING
    # The same boilerplate under names that say the same thing stays an error.
    alike = registry(
        tool("get_user_likes", description=f"{opening} Returns the likes of a user."),
        tool("fetch_user_likes", description=f"{opening} Returns the likes of one user."),
    )
    [twins] = pair_findings(lint_registry(alike, config=only_ambiguity()))
    assert twins.severity is Severity.ERROR


def test_a_shared_preamble_naming_both_objects_does_not_hide_what_each_says() -> None:
    # Same content words as sets (the preamble names accounts and stocks), yet each
    # summary ends on its own object: a warning, not "nothing tells them apart".
    preamble = (
        "This tool belongs to the trading system, which allows users to trade stocks, "
        "manage their account, and view stock information. Tool description:"
    )
    reg = registry(
        tool("get_account_info", description=f"{preamble} Get account information."),
        tool("get_stock_info", description=f"{preamble} Get stock information."),
    )
    found = pair_findings(lint_registry(reg, config=only_ambiguity()))
    assert found and all(f.severity is not Severity.ERROR for f in found)


def test_a_summary_shared_by_many_tools_is_a_template_not_a_clone() -> None:
    opening = 'This is the subfunction for tool "fdj", you can use this tool.'
    names = ("odds_for_fdj", "matches_for_fdj", "teams_for_fdj")
    reg = registry(*(tool(n, description=opening) for n in names))
    found = pair_findings(lint_registry(reg, config=only_ambiguity()))
    assert found and all(f.severity is Severity.WARNING for f in found)
    # Two tools only: still the generator's template (boilerplate.txt), not a copy.
    pair = registry(*(tool(n, description=opening) for n in names[:2]))
    assert {f.severity for f in pair_findings(lint_registry(pair, config=only_ambiguity()))} == {
        Severity.WARNING
    }
    # A real description copied after the template is a copy, in any registry size.
    copied = f'{opening}The description of this function is: "Latest odds of a match"'
    pair = registry(*(tool(n, description=copied) for n in names[:2]))
    [clone] = pair_findings(lint_registry(pair, config=only_ambiguity()))
    assert clone.severity is Severity.ERROR  # same parameters too: duplicate-tool


def test_boilerplate_is_stripped_before_comparing() -> None:
    # What each tool does, after a generator's template (Chinese here).
    zh = "这是工具“报销”的子功能，你可以使用此工具。该函数的描述是："
    reg = registry(
        tool("query_claims", description=f"{zh}“查询报销单的审批进度”"),
        tool("query_claim_rules", description=f"{zh}“查询公司的报销标准”"),
    )
    assert all(
        f.severity is not Severity.ERROR
        for f in pair_findings(lint_registry(reg, config=only_ambiguity()))
    )
    # …while the central pair stays an error behind the template too.
    reg = registry(
        tool("query_reimbursement", description=f"{zh}“查询报销信息”"),
        tool("query_reimbursement_info", description=f"{zh}“查询报销相关信息”"),
    )
    assert Severity.ERROR in {
        f.severity for f in pair_findings(lint_registry(reg, config=only_ambiguity()))
    }


def test_strip_boilerplate() -> None:
    from studio.lint.lexicon import strip_boilerplate

    opening = 'This is the subfunction for tool "x", you can use this tool.'
    assert strip_boilerplate(opening) == ""
    assert strip_boilerplate(f'{opening}The description of this function is: "Get a"') == "Get a"
    bfcl = "This tool belongs to the trading system, which allows users to trade. "
    assert strip_boilerplate(f"{bfcl}Tool description: Cancel an order.") == "Cancel an order."
    assert strip_boilerplate("这是工具“x”的子功能，你可以使用此工具。") == ""
    assert strip_boilerplate('Get "quoted" text') == 'Get "quoted" text'


def test_a_usage_pattern_filled_in_with_each_tools_own_subject_is_a_warning() -> None:
    # Okta's pattern: one usage text, each tool naming its own target (and saying so
    # in its name and summary). Not a forgotten copy, so not an error; still reported.
    pattern = (
        "Assigns an app instance target to an APP_ADMIN role assignment to {}. When you "
        "assign the first app instance target, you reduce the scope of the role assignment."
    )
    reg = registry(
        tool(
            "assign_app_target_for_group",
            "Assign a group role app target.",
            pattern.format("a group"),
        ),
        tool(
            "assign_app_target_for_user", "Assign a user role app target.", pattern.format("a user")
        ),
    )
    [found] = pair_findings(lint_registry(reg, config=only_ambiguity()))
    assert (found.rule_id, found.path, found.severity) == (CLONED_BLOCK, "usage", Severity.WARNING)


def test_opposite_conversions_are_not_confusable_names() -> None:
    reg = registry(
        tool("fahrenheit_to_celsius", "Converts a temperature from Fahrenheit to Celsius."),
        tool("celsius_to_fahrenheit", "Converts a temperature given in Celsius to Fahrenheit."),
    )
    found = pair_findings(lint_registry(reg, config=only_ambiguity()))
    assert all(f.severity is Severity.INFO for f in found)
    assert not [f for f in found if f.rule_id == CONFUSABLE_NAMES]


def test_tools_without_any_description_are_not_duplicates_of_each_other() -> None:
    # Nothing to duplicate: desc-no-purpose reports each of them.
    reg = registry(
        tool("weather_metar", description="", parameters={"type": "object", "properties": {}}),
        tool("vatsim_pilots", description="", parameters={"type": "object", "properties": {}}),
    )
    assert not [f for f in pair_findings(lint_registry(reg)) if f.rule_id == DUPLICATE_TOOL]


def test_summaries_that_name_different_changes_are_told_apart() -> None:
    reg = registry(
        tool("upload_memberships_for_delete", "Upload the group memberships to be deleted."),
        tool("upload_memberships_for_upsert", "Upload the group memberships to be upserted."),
    )
    found = pair_findings(lint_registry(reg, config=only_ambiguity()))
    assert found and all(f.severity is not Severity.ERROR for f in found)
    # Synonyms are one verb class: the same function twice stays an error.
    twins = registry(
        tool("calc_simple_interest", "Compute simple interest."),
        tool("financial_simple_interest", "Calculates simple interest."),
    )
    [same] = pair_findings(lint_registry(twins, config=only_ambiguity()))
    assert same.severity is Severity.ERROR


def test_all_items_and_one_item_are_told_apart() -> None:
    reg = registry(
        tool("delete_all_customizations", "Delete all email customizations."),
        tool("delete_email_customization", "Delete an email customization."),
    )
    found = pair_findings(lint_registry(reg, config=only_ambiguity()))
    assert all(f.severity is not Severity.ERROR for f in found)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Delete Azure File Share.", "Delete file from Azure File Share."),  # another thing
        ("List all users for an IdP.", "List all IdPs for a user."),  # the converse
    ],
)
def test_summaries_about_another_thing_with_the_same_words_are_told_apart(
    first: str, second: str
) -> None:
    reg = registry(tool("azure_first", first), tool("azure_second", second))
    found = pair_findings(lint_registry(reg, config=only_ambiguity()))
    assert all(f.severity is not Severity.ERROR for f in found)
