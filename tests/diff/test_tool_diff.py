"""Tool-level changes: description blocks with CJK-aware word diffs, risk, execution, the rest."""

from __future__ import annotations

from dataclasses import replace

import pytest

from studio.contract import (
    Deprecation,
    ErrorSpec,
    Example,
    Execution,
    Permission,
    RiskTier,
    TimeoutTier,
    ToolContract,
)
from studio.diff import ChangeClass, diff_tool, word_diff

H = ChangeClass.BEHAVIOURAL

BASE = ToolContract(
    name="query_invoices",
    summary="查询发票",
    usage="Use when the user asks about invoices.",
    returns="A list of invoices.",
    errors=(ErrorSpec("NOT_FOUND", "no such invoice"),),
    examples=(Example("latest", {"limit": 1}),),
    parameters={"type": "object", "properties": {"limit": {"type": "integer"}}},
    permissions=(Permission("employee"),),
)


def rules(a: ToolContract, b: ToolContract) -> dict[str, ChangeClass]:
    changes, _ = diff_tool(a, b)
    return {c.rule_id: c.klass for c in changes}


def test_cjk_word_diff_shows_changed_characters() -> None:
    ops = word_diff("查询发票", "查询订单")
    assert [(o.op, o.before, o.after) for o in ops] == [
        ("equal", "查询", "查询"),
        ("replace", "发票", "订单"),
    ]


def test_latin_word_diff_works_on_words() -> None:
    ops = [o for o in word_diff("Returns the order.", "Returns every order.") if o.op != "equal"]
    assert [(o.before, o.after) for o in ops] == [("the", "every")]


@pytest.mark.parametrize(
    ("before", "after"),
    [("", "新增"), ("old text", ""), ("mixed 中文 and English", "mixed 英文 and Chinese!")],
)
def test_word_diff_reassembles_both_sides(before: str, after: str) -> None:
    ops = word_diff(before, after)
    assert "".join(o.before for o in ops) == before
    assert "".join(o.after for o in ops) == after


def test_summary_change_is_behavioural_with_a_block_diff() -> None:
    changes, blocks = diff_tool(BASE, replace(BASE, summary="查询订单"))
    assert [(c.rule_id, c.klass, c.path) for c in changes] == [
        ("desc.summary-changed", H, "summary")
    ]
    [block] = blocks
    assert block.block == "summary"
    assert ("replace", "发票", "订单") in [(o.op, o.before, o.after) for o in block.ops]


@pytest.mark.parametrize(
    ("field", "value", "rule"),
    [
        ("usage", "Use for invoices; not for tickets (use query_tickets).", "desc.usage-changed"),
        ("preconditions", "The user is signed in.", "desc.preconditions-changed"),
        ("returns", "Invoices, newest first.", "desc.returns-changed"),
        ("examples", (Example("latest two", {"limit": 2}),), "desc.examples-changed"),
    ],
)
def test_each_block_has_its_rule(field: str, value: object, rule: str) -> None:
    assert rules(BASE, replace(BASE, **{field: value})) == {rule: H}


def test_error_changes_per_code() -> None:
    after = replace(
        BASE, errors=(ErrorSpec("NOT_FOUND", "no such invoice", True), ErrorSpec("DENIED", "x"))
    )
    changes, _ = diff_tool(BASE, after)
    assert {(c.rule_id, c.path) for c in changes} == {
        ("desc.error-changed", "errors.NOT_FOUND"),
        ("desc.error-added", "errors.DENIED"),
    }
    assert rules(BASE, replace(BASE, errors=())) == {"desc.error-removed": H}


def test_free_description_hidden_by_blocks_is_metadata() -> None:
    assert rules(BASE, replace(BASE, description="legacy text")) == {
        "desc.description-changed": ChangeClass.METADATA
    }
    bare = ToolContract(name="t", description="Gets order.")
    assert rules(bare, replace(bare, description="Gets one order.")) == {
        "desc.description-changed": H
    }


def test_risk_and_execution_changes() -> None:
    after = replace(BASE, risk=RiskTier.WRITE, execution=Execution.for_tier(TimeoutTier.WRITE))
    assert rules(BASE, after) == {
        "tool.risk-changed": H,
        "exec.timeout-tier-changed": H,
        "exec.timeout-changed": H,
        "exec.retry-changed": H,
        "exec.idempotency-changed": H,
    }


def test_soft_fallback_change_is_shown() -> None:
    after = replace(BASE, execution=replace(BASE.execution, fallback="last_success"))
    assert rules(BASE, after) == {"exec.fallback-changed": H}


def test_permissions() -> None:
    narrower = replace(BASE, permissions=(Permission("manager"),))
    assert rules(BASE, narrower) == {
        "tool.permission-removed": ChangeClass.BREAKING,
        "tool.permission-added": ChangeClass.COMPATIBLE,
    }
    # A wildcard grant still covers the old one: nothing is lost.
    wider = replace(BASE, permissions=(Permission("*"),))
    assert rules(BASE, wider) == {"tool.permission-added": ChangeClass.COMPATIBLE}
    assert rules(replace(BASE, permissions=()), BASE) == {
        "tool.permissions-restricted": ChangeClass.BREAKING
    }
    assert rules(BASE, replace(BASE, permissions=())) == {
        "tool.permissions-opened": ChangeClass.COMPATIBLE
    }


def test_deprecation() -> None:
    dep = replace(BASE, deprecated=Deprecation("query_invoices_v2"))
    assert rules(BASE, dep) == {"tool.deprecated": H}
    assert rules(dep, BASE) == {"tool.undeprecated": H}
    assert rules(dep, replace(dep, deprecated=Deprecation("x"))) == {"tool.deprecation-changed": H}


def test_metadata_only() -> None:
    after = replace(BASE, title="Invoices", tags=("finance",), domain="finance")
    assert rules(BASE, after) == dict.fromkeys(
        ("tool.title-changed", "tool.tags-changed", "tool.domain-changed"), ChangeClass.METADATA
    )
    # Tag order is not a change.
    tagged = replace(BASE, tags=("a", "b"))
    assert rules(tagged, replace(BASE, tags=("b", "a"))) == {}


def test_same_tool_under_new_name_has_no_changes() -> None:
    assert diff_tool(BASE, replace(BASE, name="search_invoices")) == ([], [])
