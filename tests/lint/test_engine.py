"""The engine: configuration, suppressions, rule failures, profiles, incremental updates."""

from __future__ import annotations

import dataclasses
import gc
import logging

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from studio.contract import RegistrySettings, parse_settings, settings_to_dict
from studio.lint import (
    PROFILES,
    RULES,
    LintConfig,
    LintConfigError,
    Linter,
    Severity,
    Suppression,
    lint_registry,
)
from studio.lint.model import Hit, LintContext, Rule, Scope
from studio.lint.rules.ambiguity import CONFUSABLE_NAMES, NOUN_OVERLOAD
from tests.lint._fixtures import example, registry, tool


@pytest.fixture
def temp_rule():
    """Register rules for one test and remove them afterwards."""
    added: list[str] = []

    def add(rule: Rule) -> None:
        RULES[rule.id] = rule
        added.append(rule.id)

    yield add
    for rule_id in added:
        RULES.pop(rule_id, None)


def _fires(tool_, ctx: LintContext):
    yield Hit(None, "summary", f"{tool_.name} checked")


def _boom(tool_, ctx: LintContext):
    if tool_.name == "bad":
        raise RuntimeError("kaput")
    return ()


# ---------------------------------------------------------------- configuration


def test_config_round_trips_through_registry_settings() -> None:
    config = (
        LintConfig()
        .with_rule(CONFUSABLE_NAMES, enabled=False)
        .with_rule(NOUN_OVERLOAD, severity=Severity.ERROR)
        .with_options(**{"similarity.threshold": 0.7})
        .with_suppression(Suppression(CONFUSABLE_NAMES, "get_order", "legacy API", "usage"))
    )
    stored = config.to_settings(RegistrySettings(extra={"other": 1}))
    assert stored.extra["other"] == 1
    # Through the document form the registry is saved in, and back.
    reloaded = LintConfig.from_settings_strict(parse_settings(settings_to_dict(stored)))
    assert reloaded == config
    assert reloaded.option("similarity.threshold") == 0.7
    assert reloaded.option("summary.max_cjk_chars") == 20


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        ({"rules": {"no-such-rule": {"enabled": False}}}, "unknown rule id"),
        ({"rules": {CONFUSABLE_NAMES: {"severity": "fatal"}}}, "not one of error"),
        ({"suppressions": [{"rule_id": CONFUSABLE_NAMES, "tool": "x", "reason": " "}]}, "reason"),
        ({"suppressions": [{"rule_id": CONFUSABLE_NAMES, "tool": "x"}]}, "reason"),
        ({"options": {"similarity.threshold": "high"}}, "positive number"),
        ("yes", "must be an object"),
    ],
)
def test_invalid_config_is_a_message_not_a_traceback(data, needle: str) -> None:
    _config, problems = LintConfig.from_dict(data)
    assert problems and needle in problems[0]
    with pytest.raises(LintConfigError, match=needle):
        LintConfig.from_settings_strict(RegistrySettings(extra={"lint": data}))
    # The engine reports it as a finding and still lints.
    reg = dataclasses.replace(
        registry(tool("get_order")), settings=RegistrySettings(extra={"lint": data})
    )
    report = lint_registry(reg)
    assert any(f.rule_id == "lint-config-invalid" and needle in f.message for f in report.findings)


def test_disable_and_severity_override() -> None:
    reg = example("order-service")
    base = lint_registry(reg)
    assert any(f.rule_id == CONFUSABLE_NAMES for f in base.findings)
    off = lint_registry(reg, config=LintConfig().with_rule(CONFUSABLE_NAMES, enabled=False))
    assert not any(f.rule_id == CONFUSABLE_NAMES for f in off.findings)
    up = lint_registry(reg, config=LintConfig().with_rule(NOUN_OVERLOAD, severity=Severity.ERROR))
    assert {f.severity for f in up.findings if f.rule_id == NOUN_OVERLOAD} == {Severity.ERROR}


def test_suppression_keeps_finding_with_reason() -> None:
    reg = example("order-service")
    config = LintConfig().with_suppression(
        Suppression(CONFUSABLE_NAMES, "get_order", "kept for old clients")
    )
    report = lint_registry(reg, config=config)
    assert not [
        f for f in report.findings if f.rule_id == CONFUSABLE_NAMES and f.tool == "get_order"
    ]
    supp = [f for f in report.suppressed if f.tool == "get_order"]
    assert supp and {f.suppressed_reason for f in supp} == {"kept for old clients"}
    with pytest.raises(LintConfigError):
        LintConfig().with_suppression(Suppression(CONFUSABLE_NAMES, "get_order", ""))


def test_suppression_by_path_covers_children_only() -> None:
    s = Suppression("r", "t", "why", "parameters.properties.a")
    from studio.lint.model import Finding

    def f(path: str) -> Finding:
        return Finding("r", "c", Severity.INFO, "t", path, "m")

    assert s.matches(f("parameters.properties.a"))
    assert s.matches(f("parameters.properties.a.description"))
    assert not s.matches(f("parameters.properties.ab"))


# ---------------------------------------------------------------- engine behaviour


def test_failing_rule_becomes_internal_error_finding(temp_rule, caplog) -> None:
    temp_rule(Rule("test-boom", "test", Severity.INFO, "r", Scope.TOOL, _boom))
    reg = registry(tool("good", "Fine."), tool("bad", "Broken."))
    with caplog.at_level(logging.ERROR):
        report = lint_registry(reg)
    errs = [f for f in report.findings if f.rule_id == "internal-rule-error"]
    assert len(errs) == 1 and errs[0].tool == "bad" and "test-boom" in errs[0].message
    assert "kaput" in errs[0].message and "test-boom" in caplog.text


def test_profile_filtering(temp_rule) -> None:
    temp_rule(
        Rule("test-strict-only", "t", Severity.INFO, "r", Scope.TOOL, _fires, frozenset({"mcp"}))
    )
    reg = registry(tool("get_order", "Fetch one order."))
    assert any(f.rule_id == "test-strict-only" for f in lint_registry(reg, profile="mcp").findings)
    assert not any(
        f.rule_id == "test-strict-only" for f in lint_registry(reg, profile="openai").findings
    )
    with pytest.raises(ValueError, match="unknown lint profile"):
        lint_registry(reg, profile="gpt")


def test_findings_sorted_and_counted() -> None:
    report = lint_registry(example("order-service"))
    ranks = [f.severity.rank for f in report.findings]
    assert ranks == sorted(ranks, reverse=True)
    order = {n: i for i, n in enumerate(report.tool_order)}
    for sev in Severity:
        tools = [order.get(f.tool, -1) for f in report.findings if f.severity is sev]
        assert tools == sorted(tools)
    assert sum(report.counts.values()) == len(report.findings)
    assert report.tokens.total == sum(report.tokens.per_tool.values()) > 0
    assert report.tokens.per_task == report.tokens.total * report.tokens.rounds
    assert set(report.scores) == set(report.tool_order)


def test_order_service_fires_at_least_eight_rules() -> None:
    report = lint_registry(example("order-service"))
    assert len({f.rule_id for f in report.findings}) >= 8


def test_travel_reimbursement_has_no_errors() -> None:
    # openai-strict is left out: strict mode legitimately rejects its optional
    # parameters and numeric bounds (schema rules, not ambiguity).
    for profile in (p for p in PROFILES if p != "openai-strict"):
        report = lint_registry(example("travel-reimbursement"), profile=profile)
        assert report.counts[Severity.ERROR] == 0, [
            (f.rule_id, f.tool, f.message) for f in report.findings if f.severity is Severity.ERROR
        ]


def test_scores_are_one_to_five() -> None:
    report = lint_registry(example("travel-reimbursement"))
    good = report.scores["query_invoices"]
    assert all(1 <= v <= 5 for v in good.as_dict().values())
    bad = lint_registry(example("order-service")).scores["search"]
    assert bad.total < good.total and bad.usage == 1 and bad.examples == 1


# ---------------------------------------------------------------- incremental


def _comparable(report):
    return (
        report.findings,
        report.suppressed,
        dict(report.counts),
        report.tool_order,
        dict(report.scores),
        dict(report.tokens.per_tool),
    )


def test_update_insert_replace_remove_rename() -> None:
    reg = example("order-service")
    linter = Linter(reg)
    renamed = dataclasses.replace(reg.tools[0], name="fetch_order_by_number")
    linter.update_tool("get_order", renamed)
    assert linter.report.tool_order[0] == "fetch_order_by_number"
    linter.update_tool(None, tool("get_order_history", "Past orders of the customer."))
    linter.update_tool("search", None)
    assert _comparable(linter.report) == _comparable(lint_registry(linter.registry))
    with pytest.raises(KeyError):
        linter.update_tool("nope", None)
    with pytest.raises(ValueError, match="already exists"):
        linter.update_tool(
            "check_stock", dataclasses.replace(reg.tools[3], name="send_notification")
        )


NAMES = (
    "get_order",
    "queryOrderList",
    "getOrderDetail",
    "list_invoices",
    "query_order",
    "query_order_list",
    "send_notice",
    "set_order",
    "create_refund",
    "search",
)
TEXTS = (
    "Fetch one order by number.",
    "List orders of a customer.",
    "查询订单",
    "查询订单列表",
    "List the employee's invoices in a date range.",
    "",
    "Use query_order instead for one order.",
    "Send a notice by sms or email.",
)


@st.composite
def edits(draw):
    return [
        (
            draw(st.sampled_from(("insert", "replace", "remove", "rename"))),
            draw(st.integers(0, 50)),
            draw(st.sampled_from(NAMES)),
            draw(st.sampled_from(TEXTS)),
            draw(st.sampled_from(TEXTS)),
        )
        for _ in range(draw(st.integers(1, 8)))
    ]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edits())
def test_incremental_equals_full_relint(steps) -> None:
    reg = example("order-service")
    linter = Linter(reg)
    for action, pick, name, summary, usage in steps:
        names = list(linter.report.tool_order)
        target = names[pick % len(names)] if names else None
        if action == "insert" or target is None:
            if name not in names:
                linter.update_tool(None, tool(name, summary, usage))
        elif action == "remove":
            linter.update_tool(target, None)
        else:
            current = linter.registry.tool(target)
            new_name = name if action == "rename" and name not in names else target
            linter.update_tool(
                target, dataclasses.replace(current, name=new_name, summary=summary, usage=usage)
            )
        assert _comparable(linter.report) == _comparable(lint_registry(linter.registry))


def test_incremental_equals_full_relint_past_the_small_index_size() -> None:
    import random

    rng = random.Random(3)
    nouns = (
        "order",
        "invoice",
        "ticket",
        "refund",
        "hotel",
        "flight",
        "policy",
        "claim",
        "budget",
        "receipt",
        "订单",
        "发票",
    )
    verbs = ("get", "list", "query", "create", "update", "delete")

    def make(i: int) -> object:
        noun, other = rng.choice(nouns), rng.choice(nouns)
        return tool(
            f"{rng.choice(verbs)}_{noun}_{i}",
            f"{rng.choice(verbs).capitalize()} the {noun} records of a {other}.",
            rng.choice(
                (
                    "",
                    f"use for {noun}s; for {other}s use list_{other}_1 instead.",
                    f"查询{noun}时使用",
                )
            ),
        )

    reg = registry(*(make(i) for i in range(90)))
    linter = Linter(reg)
    for step in range(25):
        names = list(linter.report.tool_order)
        target = rng.choice(names)
        roll = rng.random()
        if roll < 0.15:
            linter.update_tool(target, None)
        elif roll < 0.3:
            linter.update_tool(None, make(1000 + step))
        else:
            new = make(2000 + step)
            linter.update_tool(target, dataclasses.replace(new, name=target))
    full = lint_registry(linter.registry)
    assert _comparable(linter.report) == _comparable(full)
    assert linter.report.similar == full.similar or {(p.a, p.b) for p in linter.report.similar} == {
        (p.a, p.b) for p in full.similar
    }


def _gc_state_for_test(enabled: bool, frozen: bool):  # type: ignore[no-untyped-def]
    """Set the collector's state for one test; return a function that restores it."""
    was_enabled, was_frozen = gc.isenabled(), gc.get_freeze_count() > 0
    gc.unfreeze()
    if frozen:
        gc.freeze()
    (gc.enable if enabled else gc.disable)()

    def restore() -> None:
        (gc.enable if was_enabled else gc.disable)()
        gc.unfreeze()
        if was_frozen:
            gc.freeze()

    return restore


def _frozen(obj: object) -> bool:
    """Tracked by the collector but in none of its generations: frozen."""
    return gc.is_tracked(obj) and not any(
        o is obj for generation in range(3) for o in gc.get_objects(generation=generation)
    )


def _in_oldest_generation(obj: object) -> bool:
    return any(o is obj for o in gc.get_objects(generation=2))


def test_full_lint_leaves_collection_on_with_its_objects_in_the_oldest_generation() -> None:
    reg = registry(*(tool(f"get_item_{i}", summary=f"Get item {i} by id.") for i in range(30)))
    restore = _gc_state_for_test(enabled=True, frozen=False)
    try:
        report = lint_registry(reg)
        assert gc.isenabled()
        assert gc.get_freeze_count() == 0
        # Moved there at once, not scanned by the next young collection.
        assert _in_oldest_generation(report.findings[0])
    finally:
        restore()


def test_full_lint_keeps_frozen_objects_frozen_and_a_disabled_collector_disabled() -> None:
    reg = registry(tool("get_item", summary="Get an item by id."))
    before = [object()]  # tracked by the collector, frozen below
    restore = _gc_state_for_test(enabled=True, frozen=True)
    after = [object()]  # allocated after the freeze
    try:
        lint_registry(reg)
        # Not the freeze count: frozen cache entries the lint replaces are freed
        # by reference counting and lower it. What must hold: nothing was
        # unfrozen and nothing newly frozen.
        assert _frozen(before)
        assert not _frozen(after)
        assert gc.isenabled()
        gc.disable()
        lint_registry(reg)
        assert not gc.isenabled()
    finally:
        restore()


# ---------------------------------------------------------------- token totals


@pytest.mark.parametrize(
    ("profile", "method"),
    [
        ("openai", "o200k_base"),
        ("openai-strict", "o200k_base"),
        ("anthropic", "estimate"),
        ("gemini", "estimate"),
        ("mcp", "estimate"),
    ],
)
def test_token_totals_report_the_real_method(exact_tokens: None, profile: str, method: str) -> None:
    from studio.lint.rules.cost import tool_tokens

    reg = example("travel-reimbursement")
    linter = Linter(reg, profile)
    t = linter.report.tokens
    assert t.method == method
    assert dict(t.per_tool) == {x.name: tool_tokens(x, reg.settings, profile) for x in reg.tools}
    assert t.total == sum(t.per_tool.values()) and t.per_task == t.total * t.rounds
    # An edit keeps the method and recounts only the edited tool.
    edited = dataclasses.replace(reg.tools[0], summary=reg.tools[0].summary + " More words here.")
    again = linter.update_tool(edited.name, edited).tokens
    assert again.method == method
    assert again.per_tool[edited.name] > t.per_tool[edited.name]
    assert {n: v for n, v in again.per_tool.items() if n != edited.name} == {
        n: v for n, v in t.per_tool.items() if n != edited.name
    }


def test_token_totals_without_a_tokenizer_are_estimates(estimated_tokens: None) -> None:
    for profile in PROFILES:
        assert lint_registry(example("order-service"), profile=profile).tokens.method == "estimate"


def test_exact_and_estimated_counts_of_the_same_tools_are_kept_apart(exact_tokens: None) -> None:
    reg = example("travel-reimbursement")
    exact = lint_registry(reg, profile="openai").tokens
    estimate = lint_registry(reg, profile="anthropic").tokens
    again = lint_registry(reg, profile="openai").tokens
    assert exact.per_tool == again.per_tool
    assert all(exact.per_tool[n] < estimate.per_tool[n] for n in exact.per_tool)


def test_a_lint_counts_each_tool_once(estimated_tokens: None, monkeypatch) -> None:
    from studio.contract import tokens
    from studio.contract.tokens import estimate_tokens

    counted: list[str] = []

    def counting(text: str) -> int:
        counted.append(text)
        return estimate_tokens(text)

    monkeypatch.setattr(tokens, "estimate_tokens", counting)  # token_count imports it per use
    reg = example("travel-reimbursement")
    reg = dataclasses.replace(reg, tools=tuple(dataclasses.replace(t) for t in reg.tools))
    linter = Linter(reg, "openai", LintConfig())
    # The name, the rendered description and the schema of each tool, once, although
    # both the engine and the cost rules ask for every tool's count.
    assert len(counted) == 3 * len(reg.tools)
    counted.clear()
    linter.update_tool(reg.tools[1].name, dataclasses.replace(reg.tools[1], summary="Changed."))
    assert len(counted) == 3
