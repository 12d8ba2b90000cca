"""Diffs of the MCP fields: output schema compatibility runs the callers' way (issue #13)."""

from __future__ import annotations

from dataclasses import replace

from studio.contract import ToolContract
from studio.diff import ChangeClass
from studio.diff.tool_diff import diff_tool

OUTPUT = {
    "type": "object",
    "properties": {"ticket_id": {"type": "string"}, "status": {"enum": ["open", "filed"]}},
    "required": ["ticket_id", "status"],
}


def _changes(before: ToolContract, after: ToolContract) -> dict[str, ChangeClass]:
    changes, _ = diff_tool(before, after)
    return {c.rule_id: c.klass for c in changes}


def _with(schema):
    return ToolContract("query_tickets", output_schema=schema)


def test_removing_an_output_property_is_breaking():
    after = {**OUTPUT, "properties": {"ticket_id": {"type": "string"}}, "required": ["ticket_id"]}
    changes = _changes(_with(OUTPUT), _with(after))
    assert changes["output.property-removed"] is ChangeClass.BREAKING


def test_adding_an_output_property_is_compatible():
    after = {**OUTPUT, "properties": {**OUTPUT["properties"], "amount": {"type": "number"}}}
    assert _changes(_with(OUTPUT), _with(after)) == {
        "output.property-added": ChangeClass.COMPATIBLE
    }


def test_type_change_optional_property_and_new_enum_value_are_breaking():
    after = {
        "type": "object",
        "properties": {
            "ticket_id": {"type": "integer"},
            "status": {"enum": ["open", "filed", "x"]},
        },
        "required": ["ticket_id"],
    }
    changes = _changes(_with(OUTPUT), _with(after))
    assert changes["output.type-changed"] is ChangeClass.BREAKING
    assert changes["output.required-removed"] is ChangeClass.BREAKING
    assert changes["output.enum-value-added"] is ChangeClass.BREAKING


def test_declaring_and_dropping_the_output_schema():
    assert _changes(_with(None), _with(OUTPUT)) == {"output.schema-added": ChangeClass.COMPATIBLE}
    assert _changes(_with(OUTPUT), _with(None)) == {"output.schema-removed": ChangeClass.BREAKING}


def test_annotations_icons_meta_and_task_support():
    a = ToolContract("query_tickets")
    b = replace(
        a,
        annotations={"openWorldHint": False},
        icons=({"src": "https://example.com/i.png"},),
        meta={"k": 1},
        execution=replace(a.execution, task_support="optional"),
    )
    assert _changes(a, b) == {
        "tool.annotations-changed": ChangeClass.BEHAVIOURAL,
        "tool.task-support-changed": ChangeClass.BEHAVIOURAL,
        "tool.icons-changed": ChangeClass.METADATA,
        "tool.meta-changed": ChangeClass.METADATA,
    }
