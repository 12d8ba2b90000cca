"""cost-audience-tokens: C = N·t̄·R for each (role, scenario) the permissions name (issue #17)."""

from __future__ import annotations

from studio.contract import Permission, Registry, ToolContract
from studio.lint.engine import lint_registry
from studio.lint.rules.cost import audience_token_summary, registry_token_summary, tool_tokens
from tests.lint.fixtures_rules import context, run_on


def _tool(name: str, *perms: tuple[str, str]) -> ToolContract:
    return ToolContract(
        name=name,
        summary=f"Does {name.replace('_', ' ')} for the expense desk, with care.",
        parameters={"type": "object", "properties": {"id": {"type": "string"}}},
        permissions=tuple(Permission(r, s) for r, s in perms),
    )


TOOLS = (
    _tool("submit_claim", ("employee", "reimbursement")),
    _tool("approve_claim", ("manager", "reimbursement")),
    _tool("list_policies"),
    _tool("查询_ledger", ("财务", "*")),
)


def test_summary_per_audience_is_n_times_mean_times_rounds() -> None:
    registry = Registry("expenses", tools=TOOLS)
    rows = audience_token_summary(registry, rounds=4)
    assert [(r["role"], r["scenario"], r["tools"]) for r in rows] == [
        ("employee", "reimbursement", 2),
        ("manager", "reimbursement", 2),
        ("财务", "*", 2),
    ]
    employee = rows[0]
    expected = tool_tokens(TOOLS[0]) + tool_tokens(TOOLS[2])
    assert employee["total"] == expected
    assert employee["per_task"] == expected * 4
    assert employee["average"] * employee["tools"] == expected
    assert employee["per_task"] < registry_token_summary(registry, 4)["per_task"]


def test_rule_reports_each_audience_beside_the_whole_registry() -> None:
    found = run_on("cost-audience-tokens", context(*TOOLS))
    assert len(found) == 3
    first = found[0].message
    assert "'employee'" in first and "'reimbursement'" in first and "2 of 4 tools" in first
    assert "C = 2 ×" in first and "× 5 =" in first and "all tools:" in first
    assert "'财务'" in found[2].message


def test_no_permissions_no_finding() -> None:
    assert run_on("cost-audience-tokens", context(_tool("a_b"), _tool("c_d"))) == []
    report = lint_registry(Registry("expenses", tools=(_tool("a_b"),)))
    assert not [f for f in report.findings if f.rule_id == "cost-audience-tokens"]
