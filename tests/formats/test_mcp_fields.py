"""The MCP format carries the MCP fields both ways; other formats say they cannot (issue #13)."""

from __future__ import annotations

import json

from studio.contract import Registry, RiskTier, ToolContract
from studio.formats import export_registry, import_text

OUTPUT = {
    "type": "object",
    "properties": {"datetime": {"type": "string"}},
    "required": ["datetime"],
}
ENTRY = {
    "name": "get_current_time",
    "title": "Current time",
    "description": "Get current time in a specific timezone",
    "inputSchema": {
        "type": "object",
        "properties": {"timezone": {"type": "string", "x-mcp-header": "Timezone"}},
        "required": ["timezone"],
    },
    "outputSchema": OUTPUT,
    "annotations": {"readOnlyHint": True, "openWorldHint": False},
    "icons": [{"src": "https://example.com/clock.svg", "mimeType": "image/svg+xml"}],
    "execution": {"taskSupport": "forbidden"},
    "_meta": {"com.example/team": "platform"},
}


def test_import_keeps_every_mcp_field():
    result = import_text(json.dumps({"tools": [ENTRY]}), "mcp")
    tool = result.registry.tools[0]
    assert tool.risk is RiskTier.READ
    assert tool.output_schema == OUTPUT
    assert tool.annotations == {"openWorldHint": False}  # readOnlyHint: the tier says so
    assert tool.icons == tuple(ENTRY["icons"])
    assert tool.meta == ENTRY["_meta"]
    assert tool.execution.task_support == "forbidden"
    assert tool.parameters["properties"]["timezone"]["x-mcp-header"] == "Timezone"
    assert result.notes == []


def test_export_round_trips_the_entry():
    registry = import_text(json.dumps({"tools": [ENTRY]}), "mcp").registry
    exported = json.loads(export_registry(registry, "mcp").text)["tools"][0]
    assert exported["outputSchema"] == OUTPUT
    assert exported["icons"] == ENTRY["icons"]
    assert exported["_meta"] == ENTRY["_meta"]
    assert exported["execution"] == {"taskSupport": "forbidden"}
    assert exported["inputSchema"]["properties"]["timezone"]["x-mcp-header"] == "Timezone"
    assert exported["annotations"] == {
        "title": "Current time",
        "readOnlyHint": True,
        "openWorldHint": False,
        "destructiveHint": False,
        "idempotentHint": True,
    }


def test_annotations_matching_the_tier_are_not_kept():
    entry = {**ENTRY, "annotations": {"readOnlyHint": True, "destructiveHint": False}}
    tool = import_text(json.dumps({"tools": [entry]}), "mcp").registry.tools[0]
    assert tool.annotations == {}


def test_risk_tier_wins_over_contradicting_annotations_on_export_with_a_note():
    tool = ToolContract(
        "delete_ticket", risk=RiskTier.DESTRUCTIVE, annotations={"readOnlyHint": True}
    )
    result = export_registry(Registry("r", tools=(tool,)), "mcp")
    annotations = json.loads(result.text)["tools"][0]["annotations"]
    assert annotations["readOnlyHint"] is False
    assert annotations["destructiveHint"] is True
    assert any("contradicts risk tier" in n.message for n in result.notes)


def test_other_formats_say_what_they_cannot_carry():
    tool = ToolContract(
        "get_current_time",
        output_schema=OUTPUT,
        icons=({"src": "https://example.com/i.png"},),
        meta={"k": 1},
    )
    for fmt in ("openai", "anthropic", "gemini"):
        notes = export_registry(Registry("r", tools=(tool,)), fmt).notes
        lost = " ".join(n.message for n in notes if n.kind == "lost")
        assert "output schema" in lost and "icons" in lost and "_meta" in lost, fmt
