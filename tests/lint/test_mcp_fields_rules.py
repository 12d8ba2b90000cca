"""Lint of the MCP fields (issue #13): annotations against the risk tier, output schemas."""

from __future__ import annotations

from studio.contract import Registry, RiskTier, ToolContract
from studio.editing.edits import SetField
from studio.lint import lint_registry

RULE = "risk-annotations-contradict"


def _hits(tool: ToolContract) -> list:
    report = lint_registry(Registry("r", tools=(tool,)))
    return [f for f in report.findings if f.rule_id == RULE]


def test_read_only_hint_on_a_destructive_tool_is_flagged_with_a_fix():
    tool = ToolContract(
        "delete_ticket",
        risk=RiskTier.DESTRUCTIVE,
        annotations={"readOnlyHint": True, "openWorldHint": False},
    )
    [finding] = _hits(tool)
    assert finding.path == "annotations"
    assert "readOnlyHint=true" in finding.message and "destructive" in finding.message
    assert finding.fix is not None
    fixed, _ = finding.fix.edits[0].apply(tool)
    assert isinstance(finding.fix.edits[0], SetField)
    assert fixed.annotations == {"openWorldHint": False}
    assert _hits(fixed) == []


def test_hints_that_agree_or_say_more_are_not_flagged():
    assert _hits(ToolContract("query_tickets", annotations={"openWorldHint": False})) == []
    write = ToolContract(
        "create_reimbursement_ticket",
        risk=RiskTier.WRITE,
        annotations={"readOnlyHint": False, "idempotentHint": False},
    )
    assert _hits(write) == []
    assert _hits(ToolContract("query_tickets")) == []


def test_output_schema_required_but_undefined_is_flagged():
    tool = ToolContract(
        "query_tickets",
        output_schema={
            "type": "object",
            "properties": {"ticket_id": {"type": "string"}},
            "required": ["ticket_id", "status"],
        },
    )
    report = lint_registry(Registry("r", tools=(tool,)))
    [finding] = [f for f in report.findings if f.rule_id == "output-schema-required-undefined"]
    assert finding.path == "output_schema.required[1]"
    assert "'status'" in finding.message
