"""Pairs that look alike but do different things are not errors (issue #11, precision).

Each mechanism has its data file under ``studio/lint/data`` (contrasts,
quantities, boilerplate) and one test here, in English and Chinese; the
central pairs of the issue stay errors alongside.
"""

from __future__ import annotations

import pytest

from studio.lint import Severity, lint_registry
from studio.lint.lexicon import contrast_marks, contrasting, extent, quantity
from studio.lint.rules._pairs import AmbiguityState
from tests.lint._fixtures import registry, tool
from tests.lint.test_ambiguity import only_ambiguity, pair_findings


def worst(*tools) -> Severity | None:
    """The highest severity of the pair findings of a registry of ``tools`` (None: none)."""
    order = [Severity.INFO, Severity.WARNING, Severity.ERROR]
    found = pair_findings(lint_registry(registry(*tools), config=only_ambiguity()))
    return max((f.severity for f in found), key=order.index, default=None)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (("azure_start_vm", "Start an Azure Virtual Machine"),
         ("azure_restart_vm", "Restart an Azure Virtual Machine")),
        (("opt_in", "Opt in the Admin Console to entitlement management"),
         ("opt_out", "Opt out the Admin Console from entitlement management")),
        (("assign_user_to_application", "Assign an application user"),
         ("update_application_user", "Update an application user")),
        (("enable_rule", "启用告警规则"), ("disable_rule", "停用告警规则")),
        (("adriel_tech_stack", "Retrieves the technologies Adriel is currently working with."),
         ("get_tech_stack", "Retrieve the technologies Adriel was working on.")),
    ],
)  # fmt: skip
def test_opposite_or_sibling_verbs_are_not_errors(a: tuple, b: tuple) -> None:
    # Each of these was an error before contrasts.txt.
    assert worst(tool(a[0], a[1]), tool(b[0], b[1])) in (None, Severity.INFO, Severity.WARNING)


def test_contrast_marks() -> None:
    start, restart = contrast_marks("Start a VM"), contrast_marks("Restarts a VM")
    assert contrasting(start, restart)
    # One saying more (start or stop) is not a contrast; the same member is not one.
    assert not contrasting(contrast_marks("Start or stop a VM"), contrast_marks("Stop the VM"))
    assert not contrasting(contrast_marks("Starting a VM"), start)
    assert contrast_marks("Startled") == frozenset()
    assert contrasting(contrast_marks("opt_in"), contrast_marks("opts out"))
    assert contrasting(contrast_marks("关注用户"), contrast_marks("取消关注用户"))


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (("send_single_message", "Send a branded SMS to a single number"),
         ("send_bulk_message", "Send a branded SMS to multiple numbers")),
        (("revoke_current_api_token", "Revoke the current API token"),
         ("revoke_api_token", "Revoke an API token")),
        (("get_specific_dog_breed", "Get all info from specific dog breed"),
         ("get_all_dog_breeds", "Get all info from dog breeds")),
        (("delete_queue_message", "Delete message from Azure Storage Queue"),
         ("clear_queue", "Clear all messages from Azure Storage Queue")),
        (("get_user", "Get a user"), ("get_user_v2", "Get a user with more details")),
        (("tickerdata", "Returns a list of ticker records"),
         ("tickerslist", "Returns a list of available tickers")),
        (("list_realm_assignments", "List all realm assignments"),
         ("list_realm_assignment_operations", "List all realm assignment operations")),
        (("get_user", "获取用户信息"), ("get_user_full", "获取用户的详细信息")),
        # "a" of another noun ("a Discord guild") says nothing of the members.
        (("discord_get_guild_members", "Get members of a Discord guild."),
         ("discord_get_guild_member", "Get a specific member of a Discord guild.")),
        # Numbers the summaries state differ: thresholds, not ids.
        (("m2_5_earthquakes_past_hour", "Magnitude 2.5+ Earthquakes, Past Hour"),
         ("m4_5_earthquakes_past_hour", "Magnitude 4.5+ Earthquakes, Past Hour")),
        (("resume_agent_pools_update", "Resume an agent pool update"),
         ("retry_agent_pools_update", "Retry an agent pool update")),
    ],
)  # fmt: skip
def test_summaries_that_say_more_are_warnings(a: tuple, b: tuple) -> None:
    # Each of these was an error before quantities.txt, its head nouns and extent words.
    assert worst(tool(a[0], a[1]), tool(b[0], b[1])) is not Severity.ERROR


def test_quantity_and_extent_words() -> None:
    assert quantity("Get one or more artists") == "many"
    assert quantity("Get all info from dog breeds") == ""  # the fields of one item
    assert quantity("Revoke the current API token") == "current"
    assert quantity("查询全部订单") == "all"
    assert extent("Get user with more details") == {"more"}
    assert extent("获取用户的详细信息") == {"详细"}


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (("query_reimbursement", "查询报销信息"), ("query_reimbursement_info", "查询报销相关信息")),
        (("triangle_area", "Calculate the area of a triangle with given base and height"),
         ("calculate_triangle_area",
          "Calculate the area of a triangle given its base and height.")),
        (("calc_compound_interest", "Compute compound interest."),
         ("financial_compound_interest", "Calculates compound interest.")),
        (("get_current_time", "Fetches current time for a given location"),
         ("time_zones_get_current_time", "Retrieve current time for the specified location")),
        (("get_order", "Gets order."), ("queryOrderList", "Query orders.")),
    ],
)  # fmt: skip
def test_central_pairs_stay_errors(a: tuple, b: tuple) -> None:
    assert worst(tool(a[0], a[1]), tool(b[0], b[1])) is Severity.ERROR


def test_a_usage_pattern_filled_in_per_tool_is_a_warning() -> None:
    # Okta: one usage pattern, each tool's summary says what differs.
    tail = (
        " for a role (identified by `roleAssignmentId`) that's assigned to a user"
        " (identified by `userId`)"
    )
    sources = tool(
        "get_user_assigned_role_governance",
        "Retrieve all user role governance sources",
        f"Retrieves the governance sources{tail}",
    )
    grant = tool(
        "get_role_assignment_governance_grant",
        "Retrieve a user role governance source",
        f"Retrieves a governance source (identified by `grantId`){tail}",
    )
    assert worst(sources, grant) is Severity.WARNING
    # The same usage copied word for word stays an error: nothing was filled in.
    copied = tool(grant.name, grant.summary, sources.usage)
    assert worst(sources, copied) is Severity.ERROR


def test_placeholder_descriptions_are_not_duplicates() -> None:
    # ToolBench tools whose whole description is "-": no text, not a copy.
    params = {"type": "object", "properties": {}}
    first = tool("get_host_language_filters", description="-", parameters=params)
    second = tool("get_top_tier_stays_filter", description="-", parameters=params)
    assert worst(first, second) is not Severity.ERROR
    # A real description under two names, with the same parameters, stays a duplicate.
    text = "Filters of top-tier stays."
    same = tool("get_top_tier_stays_filter", description=text, parameters=params)
    copy = tool("get_top_tier_stays", description=text, parameters=params)
    assert worst(same, copy) is Severity.ERROR


def test_messages_say_how_the_summaries_differ() -> None:
    def message(*tools) -> str:
        [found] = pair_findings(lint_registry(registry(*tools), config=only_ambiguity()))
        return found.message

    opposite = message(
        tool("azure_start_vm", "Start an Azure Virtual Machine"),
        tool("azure_restart_vm", "Restart an Azure Virtual Machine"),
    )
    assert "differ only in an opposite or sibling verb" in opposite
    detail = message(
        tool("send_single_message", "Send a branded SMS to a single number"),
        tool("send_bulk_message", "Send a branded SMS to multiple numbers"),
    )
    assert "use the same words for different things" in detail
    same = message(
        tool("query_reimbursement", "查询报销信息"), tool("lookup_claims", "查询报销相关信息")
    )
    assert "say the same thing" in same


def test_an_opening_shared_by_the_registry_is_its_boilerplate() -> None:
    import dataclasses

    from studio.lint import Linter
    from tests.lint.test_ambiguity import _comparable

    # An unknown generator's long opening, shared by three tools: the summaries are
    # what follows it (without this, all three "say the same thing": the opening).
    opening = (
        "Part of the Acme HR suite, which manages employees, payroll, leave, expenses, "
        "benefits, recruiting, onboarding, offboarding, performance reviews, training "
        "records, equipment, office access badges, travel requests, company cars, parking "
        "spaces, pension plans and every other record an HR team keeps about its staff."
    )
    tails = {
        "get_payslip": "Get a payslip of one employee by month.",
        "get_leave_balance": "Get the leave balance of one employee.",
        "list_employees": "List the employees of a department.",
    }
    tools = [tool(n, description=f"{opening} {t}") for n, t in tails.items()]
    found = pair_findings(lint_registry(registry(*tools), config=only_ambiguity()))
    assert {f.severity for f in found} <= {Severity.INFO}
    assert not any("Acme" in f.message for f in found)
    # The same in Chinese.
    zh = "本工具属于某某人事系统，用于管理员工、薪资、假期、报销、福利、招聘、入职、离职" * 5
    zh_tools = [
        tool("get_payslip", description=f"{zh}。按月份查询某位员工的工资单。"),
        tool("get_leave", description=f"{zh}。查询某位员工剩余的假期。"),
        tool("list_staff", description=f"{zh}。列出一个部门的员工。"),
    ]
    found = pair_findings(lint_registry(registry(*zh_tools), config=only_ambiguity()))
    assert {f.severity for f in found} <= {Severity.INFO}
    assert not any("人事系统" in f.message for f in found)
    state = AmbiguityState.for_registry(registry(*zh_tools))
    assert state.summary_of("get_leave") == "查询某位员工剩余的假期。"
    # Typed in one at a time: the third tool makes the opening boilerplate, and the
    # incremental report matches a full lint at each step.
    linter = Linter(registry(*tools[:2]), config=only_ambiguity())
    report = linter.update_tool(None, tools[2])
    assert _comparable(report) == _comparable(
        lint_registry(linter.registry, config=only_ambiguity())
    )
    edited = dataclasses.replace(tools[2], description=tails["list_employees"])
    report = linter.update_tool("list_employees", edited)
    assert _comparable(report) == _comparable(
        lint_registry(linter.registry, config=only_ambiguity())
    )
