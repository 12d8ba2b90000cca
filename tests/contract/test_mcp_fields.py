"""The MCP fields of a contract (issue #13): output schema, icons, annotations, _meta, tasks."""

from __future__ import annotations

import pytest

from studio.contract import ContractError, ToolContract, parse_tool, tool_hash, tool_to_dict

OUTPUT = {
    "type": "object",
    "properties": {"ticket_id": {"type": "string"}, "status": {"enum": ["open", "filed"]}},
    "required": ["ticket_id"],
}


def test_fields_round_trip_through_the_document():
    doc = {
        "name": "query_tickets",
        "output_schema": OUTPUT,
        "icons": [
            {"src": "https://example.com/t.png", "mimeType": "image/png", "sizes": ["48x48"]}
        ],
        "annotations": {"readOnlyHint": True, "openWorldHint": False},
        "meta": {"com.example/owner": "finance"},
        "execution": {"task_support": "optional"},
    }
    tool = parse_tool(doc)
    assert tool.output_schema == OUTPUT
    assert tool.icons[0]["sizes"] == ["48x48"]
    assert tool.annotations == {"readOnlyHint": True, "openWorldHint": False}
    assert tool.meta == {"com.example/owner": "finance"}
    assert tool.execution.task_support == "optional"
    assert parse_tool(tool_to_dict(tool)) == tool


def test_unset_fields_leave_the_document_and_its_hash_as_before():
    tool = ToolContract("search_policy")
    doc = tool_to_dict(tool)
    for key in ("output_schema", "icons", "annotations", "meta"):
        assert key not in doc
    assert "task_support" not in doc["execution"]
    assert tool_hash(tool) == tool_hash(parse_tool(doc))


def test_output_schema_is_checked_against_the_metaschema_and_must_be_an_object():
    with pytest.raises(ContractError) as err:
        parse_tool({"name": "a", "output_schema": {"type": "strng"}})
    paths = [p.path for p in err.value.problems]
    assert "output_schema.type" in paths
    assert any("must be 'object'" in p.message for p in err.value.problems)


def test_bad_mcp_fields_are_located_problems():
    with pytest.raises(ContractError) as err:
        parse_tool(
            {
                "name": "a",
                "icons": [{"mimeType": "image/png"}],
                "annotations": {"readOnlyHint": "yes"},
                "meta": [1],
                "execution": {"task_support": "sometimes"},
            }
        )
    paths = {p.path for p in err.value.problems}
    assert paths == {
        "icons[0].src",
        "annotations.readOnlyHint",
        "meta",
        "execution.task_support",
    }
