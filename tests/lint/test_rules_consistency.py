"""Contract consistency: injected identity and credentials, risk tiers, idempotency, aliases."""

from __future__ import annotations

import dataclasses

import pytest

from studio.contract import Execution, RetryPolicy, RiskTier, TimeoutTier
from studio.lint.model import PROFILES
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
@pytest.mark.parametrize("rule_id", module_rules("consistency"))
def test_rules_never_raise_on_odd_imports(rule_id: str, profile: str) -> None:
    run_on(rule_id, context(*ODD_TOOLS, profile=profile))


@pytest.mark.parametrize("rule_id", module_rules("consistency"))
def test_travel_example_is_clean(rule_id: str) -> None:
    assert run_on(rule_id, example_context("travel-reimbursement")) == []


@pytest.mark.parametrize(
    "prop", ["api_key", "token", "access_token", "password", "session_id", "密码", "clientSecret"]
)
def test_credentials_must_be_injected(prop: str) -> None:
    t = tool(parameters=params({prop: {"type": "string"}}))
    [hit] = hits("param-credential-not-injected", t)
    fixed = apply_fix(t, hit)
    assert fixed.parameters["properties"][prop]["x-injected"].startswith("session.")
    assert hits("param-credential-not-injected", fixed) == []


@pytest.mark.parametrize(
    "prop", ["page_token", "next_token", "max_tokens", "idempotency_key", "keyword"]
)
def test_not_credentials(prop: str) -> None:
    t = tool(parameters=params({prop: {"type": "string"}}))
    assert hits("param-credential-not-injected", t) == []
    assert hits("param-identity-not-injected", t) == []


@pytest.mark.parametrize(
    ("prop", "key"),
    [
        ("user_id", "session.user_id"),
        ("userId", "session.user_id"),
        ("employee_id", "session.employee_id"),
        ("用户ID", "session.用户ID"),
    ],
)
def test_identity_must_be_injected(prop: str, key: str) -> None:
    t = tool(parameters=params({prop: {"type": "string"}}))
    [hit] = hits("param-identity-not-injected", t)
    assert key in hit.message
    assert hits("param-identity-not-injected", apply_fix(t, hit)) == []


def test_identity_near_misses() -> None:
    props = {
        "target_user_id": {"type": "string"},
        "order_id": {"type": "string"},
        "employee_id": {"type": "string", "x-injected": "session.employee_id"},
        "line": {"type": "object", "properties": {"user_id": {"type": "string"}}},
    }
    assert hits("param-identity-not-injected", tool(parameters=params(props))) == []


def test_mutating_verb_on_read_tier() -> None:
    for name in ("delete_user", "create_order", "sendMessage", "refund_payment"):
        t = tool(name, risk=RiskTier.READ)
        [hit] = hits("risk-mutating-verb-on-read", t)
        assert hit.path == "risk"
        assert hits("risk-mutating-verb-on-read", apply_fix(t, hit)) == []
    assert hits("risk-mutating-verb-on-read", tool("get_order")) == []
    assert hits("risk-mutating-verb-on-read", tool("create_order", risk=RiskTier.WRITE)) == []


def test_write_without_idempotency() -> None:
    t = tool("create_refund", risk=RiskTier.WRITE, execution=Execution.for_tier(TimeoutTier.READ))
    [hit] = hits("risk-write-without-idempotency", t)
    assert hit.path == "execution.idempotency"
    fixed = apply_fix(t, hit)
    assert fixed.execution.idempotency.required and fixed.execution.idempotency.key_template
    assert hits("risk-write-without-idempotency", fixed) == []
    good = tool(
        "create_refund", risk=RiskTier.WRITE, execution=Execution.for_tier(TimeoutTier.WRITE)
    )
    assert hits("risk-write-without-idempotency", good) == []
    assert hits("risk-write-without-idempotency", tool("get_order")) == []


def test_write_retried() -> None:
    execution = dataclasses.replace(Execution.for_tier(TimeoutTier.WRITE), retry=RetryPolicy(3))
    t = tool("create_refund", risk=RiskTier.WRITE, execution=execution)
    [hit] = hits("risk-write-retried", t)
    assert hits("risk-write-retried", apply_fix(t, hit)) == []
    assert hits("risk-write-retried", tool("get_order")) == []


@pytest.mark.parametrize(
    ("name", "fields"),
    [
        ("delete_user", {}),
        ("purge_cache", {}),
        ("cancel_order", {}),
        ("close_account", {"summary": "Close the account permanently."}),
        (
            "close_account",
            {"summary": "Close the account.", "returns": "Nothing; this cannot be undone."},
        ),
        ("clear_cart", {"summary": "删除购物车中的全部商品。"}),
        ("update_user", {"summary": "更新用户，操作不可恢复。"}),
        # Reversible verbs of what they cannot bring back: an instance, an account.
        ("terminate_instance", {}),
        ("stop_job", {"summary": "Terminate the EC2 instance."}),
        ("stop_job", {"summary": "终止云服务器实例。"}),
        ("close_account", {"summary": "注销账户。"}),
        ("deactivate_user", {"summary": "停用用户。", "returns": "该操作不可恢复。"}),
    ],
)
def test_destructive_not_marked(name: str, fields: dict) -> None:
    t = tool(name, risk=RiskTier.WRITE, **fields)
    [hit] = hits("risk-destructive-not-marked", t)
    fixed = apply_fix(t, hit)
    assert fixed.risk is RiskTier.DESTRUCTIVE
    assert hits("risk-destructive-not-marked", fixed) == []


def test_destructive_near_misses() -> None:
    assert (
        hits(
            "risk-destructive-not-marked",
            tool("list_deleted_orders", summary="List deleted orders."),
        )
        == []
    )
    assert (
        hits("risk-destructive-not-marked", tool("query_orders", summary="查询已删除的订单。"))
        == []
    )
    assert hits("risk-destructive-not-marked", tool("delete_user", risk=RiskTier.DESTRUCTIVE)) == []


@pytest.mark.parametrize(
    ("name", "summary"),
    [
        # What can be granted, started or switched on again is not destroyed.
        ("revoke_okta_support", "Revoke Okta Support access"),
        ("terminate_migration", "Termination of the migrator after a successful conversion"),
        ("end_request", "Terminates a request session and performs cleanup."),
        ("deactivate_user", "Deactivate a user"),
        ("suspend_subscription", "Suspend a subscription."),
        ("revoke_permission", "撤销用户的访问权限。"),
        ("pause_job", "停用定时任务。"),
        ("disable_rule", "暂停告警规则。"),
        ("stop_task", "终止迁移任务。"),
        # Stopping or deactivating an instance or a server loses nothing.
        ("azure_stop_vm", "Stop an Azure Virtual Machine"),
        ("deactivate_authorization_server", "Deactivate an authorization server"),
    ],
)
def test_reversible_verbs_are_not_destructive(name: str, summary: str) -> None:
    t = tool(name, risk=RiskTier.WRITE, summary=summary)
    assert hits("risk-destructive-not-marked", t) == []


def test_reversible_verb_still_destructive_when_the_text_says_so() -> None:
    t = tool(
        "deactivate_user",
        risk=RiskTier.WRITE,
        summary="Deactivate a user",
        usage="Deactivating a user destroys their data. This action cannot be recovered!",
    )
    [hit] = hits("risk-destructive-not-marked", t)
    assert "cannot be recovered" in hit.message


def test_alias_collisions() -> None:
    props = {
        "start_date": {"type": "string", "x-aliases": ["from", "end_date"]},
        "end_date": {"type": "string", "x-aliases": ["to", "from"]},
        "客户编号": {"type": "string", "x-aliases": ["customerId"]},
    }
    found = hits("param-alias-collision", tool(parameters=params(props)))
    assert [h.path for h in found] == [
        "parameters.properties.start_date.x-aliases[1]",
        "parameters.properties.end_date.x-aliases[1]",
    ]


def test_aliases_without_collision() -> None:
    props = {
        "start_date": {"type": "string", "x-aliases": ["startDate", "开始日期"]},
        "end_date": {"type": "string", "x-aliases": ["endDate", "结束日期"]},
    }
    assert hits("param-alias-collision", tool(parameters=params(props))) == []


def test_enum_alias_targets() -> None:
    schema = {
        "type": "string",
        "enum": ["taxi"],
        "x-enum-aliases": {"出租车": "taxi", "酒店": "hotel"},
    }
    [hit] = hits("param-enum-alias-unknown", tool(parameters=params({"category": schema})))
    assert hit.path.endswith('x-enum-aliases["酒店"]') or "酒店" in hit.path


@pytest.mark.parametrize(
    ("name", "summary", "flagged"),
    [
        ("views_update", "Update an existing view.", True),  # after a namespace: the verb
        ("display_set_screen_brightness", "Sets the screen brightness.", True),
        ("games_update_find", "Find the latest updates of a game.", False),  # games.update.find
        ("getBookMetadata", "Retrieve metadata for a book of the Bible.", False),  # a noun
    ],
)
def test_a_second_word_is_the_verb_only_where_a_verb_stands(
    name: str, summary: str, flagged: bool
) -> None:
    found = hits("risk-mutating-verb-on-read", tool(name, summary=summary, risk=RiskTier.READ))
    assert bool(found) is flagged


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("api_token", "credential"),
        ("admin_password", "credential"),
        ("secret_value", "credential"),
        ("secretId", None),  # names a secret, is not one
        ("tokenLifetimeSeconds", None),
        ("credentialsRefreshInterval", None),
        ("push_apn_credential_sid", None),
    ],
)
def test_a_credential_is_what_the_name_ends_on(name: str, kind: str | None) -> None:
    from studio.lint.rules.consistency import credential_kind

    assert credential_kind(name) == kind


def test_credential_settings_objects_are_not_credentials() -> None:
    settings = {
        "type": "object",
        "properties": {
            "signing": {
                "type": "object",
                "properties": {"rotationMode": {"type": "string"}, "use": {"type": "string"}},
            }
        },
    }
    assert (
        hits("param-credential-not-injected", tool(parameters=params({"credentials": settings})))
        == []
    )
    secret = {
        "type": "object",
        "properties": {"username": {"type": "string"}, "password": {"type": "string"}},
    }
    [hit] = hits("param-credential-not-injected", tool(parameters=params({"credentials": secret})))
    assert "credentials" in hit.message
    # An object that declares nothing may hold anything: still a credential.
    bare = {"type": "object"}
    assert hits("param-credential-not-injected", tool(parameters=params({"credentials": bare})))


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "boolean"},
        {"type": ["integer", "null"]},
        {"type": "string", "enum": ["required", "preferred", "discouraged"]},
    ],
)
def test_flags_numbers_and_enums_are_not_credentials(schema: dict) -> None:
    t = tool(parameters=params({"alwaysIncludeInToken": schema, "api_token": {"type": "string"}}))
    [hit] = hits("param-credential-not-injected", t)
    assert "api_token" in hit.message
