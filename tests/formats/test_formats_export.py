"""What exports leave out, and the notes that say so."""

from __future__ import annotations

import json

import pytest

from studio.contract import Registry, RiskTier, ToolContract
from studio.formats import (
    FORMAT_NAMES,
    FormatError,
    Note,
    export_registry,
    export_tool,
    to_openai_strict,
)

PROVIDERS = ("openai", "openai-responses", "anthropic", "gemini", "mcp")


def _schemas(fmt: str, text: str) -> list[dict]:
    data = json.loads(text)
    if fmt == "openai":
        return [e["function"]["parameters"] for e in data]
    if fmt == "openai-responses":
        return [e["parameters"] for e in data]
    if fmt == "anthropic":
        return [e["input_schema"] for e in data]
    if fmt == "gemini":
        return [d["parameters"] for d in data["functionDeclarations"]]
    return [t["inputSchema"] for t in data["tools"]]


def _has_x_key(value: object) -> bool:
    if isinstance(value, dict):
        return any(k.startswith("x-") or _has_x_key(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_x_key(v) for v in value)
    return False


@pytest.mark.parametrize("fmt", PROVIDERS)
def test_injected_property_is_removed_with_a_note(travel: Registry, fmt: str):
    result = export_registry(travel, fmt)
    ticket = _schemas(fmt, result.text)[3]
    assert "employee_id" not in ticket["properties"]
    assert ticket["required"] == ["invoice_ids", "amount"]
    tickets = _schemas(fmt, result.text)[2]
    assert "required" not in tickets  # employee_id was the only required property
    injected = [n for n in result.notes if "injected" in n.message]
    assert [n.path for n in injected] == [f"tools[{i}].parameters" for i in (1, 2, 3)]
    assert all(n.kind == "lost" and "employee_id" in n.message for n in injected)


@pytest.mark.parametrize("fmt", PROVIDERS)
def test_exports_are_provider_valid_and_free_of_extensions(travel: Registry, fmt: str):
    schemas = _schemas(fmt, export_registry(travel, fmt).text)
    assert not any(_has_x_key(s) for s in schemas)
    for schema in schemas:
        assert schema["type"] == "object"
        assert isinstance(schema["properties"], dict)


@pytest.mark.parametrize("fmt", PROVIDERS)
def test_alias_losses_get_one_note_per_tool_and_kind(travel: Registry, fmt: str):
    notes = export_registry(travel, fmt).notes
    alias = [n for n in notes if n.message.startswith("parameter aliases dropped")]
    assert [n.path for n in alias] == [
        "tools[0].parameters",
        "tools[1].parameters",
        "tools[3].parameters",
    ]
    enum = [n for n in notes if n.message.startswith("enum value aliases dropped")]
    assert [n.path for n in enum] == ["tools[1].parameters"]
    assert "category" in enum[0].message


@pytest.mark.parametrize("fmt", ["openai", "openai-responses", "anthropic", "gemini"])
def test_risk_and_execution_losses_are_noted(travel: Registry, fmt: str):
    notes = [n for n in export_registry(travel, fmt).notes if n.path == "tools[3]"]
    messages = " | ".join(n.message for n in notes)
    assert "risk tier 'write' not representable" in messages
    assert "idempotency key required" in messages
    assert "permission" in messages


def test_read_tool_with_defaults_gets_no_contract_notes():
    tool = ToolContract(name="get_time", description="The time.")
    value, notes = export_tool(tool, "openai")
    assert notes == []
    assert value == {
        "type": "function",
        "function": {
            "name": "get_time",
            "description": "The time.",
            "parameters": {"type": "object", "properties": {}},
        },
    }


def test_errors_and_examples_are_kept_only_as_text(travel: Registry):
    notes = [n for n in export_registry(travel, "anthropic").notes if n.path == "tools[1]"]
    assert Note("tools[1]", "structured errors kept only as text in the description", "lost") in (
        notes
    )
    text = export_registry(travel, "anthropic").text
    assert "RANGE_TOO_LONG" in json.loads(text)[1]["description"]


def test_mcp_annotations_follow_the_risk_tier(travel: Registry):
    tools = json.loads(export_registry(travel, "mcp").text)["tools"]
    assert tools[0]["annotations"] == {
        "title": "Search reimbursement policy",
        "readOnlyHint": True,
        "destructiveHint": False,
        "idempotentHint": True,
    }
    assert tools[0]["title"] == "Search reimbursement policy"
    assert tools[3]["annotations"]["readOnlyHint"] is False
    assert tools[3]["annotations"]["destructiveHint"] is False
    assert tools[3]["annotations"]["idempotentHint"] is True  # idempotency key required
    destructive = ToolContract(name="delete_ticket", risk=RiskTier.DESTRUCTIVE)
    entry, notes = export_tool(destructive, "mcp")
    assert entry["annotations"] == {
        "readOnlyHint": False,
        "destructiveHint": True,
        "idempotentHint": False,
    }
    assert any("kept only as MCP annotations" in n.message for n in notes)


def test_mcp_explains_why_open_world_is_not_set(travel: Registry):
    notes = export_registry(travel, "mcp").notes
    assert any("openWorldHint" in n.message and n.kind == "info" for n in notes)


def test_gemini_converts_or_drops_what_it_cannot_express():
    tool = ToolContract(
        name="set_mode",
        parameters={
            "type": "object",
            "properties": {
                "mode": {"const": "fast"},
                "level": {"type": ["integer", "null"], "enum": [1, 2, None]},
                "note": {"type": ["string", "null"]},
                "meta": {"type": "object", "additionalProperties": {"type": "string"}},
            },
            "additionalProperties": False,
        },
    )
    entry, notes = export_tool(tool, "gemini")
    props = entry["parameters"]["properties"]
    assert props["mode"] == {"enum": ["fast"], "type": "string"}
    assert props["level"] == {"type": "integer", "nullable": True}
    assert props["note"] == {"type": "string", "nullable": True}
    assert props["meta"] == {"type": "object"}
    assert "additionalProperties" not in entry["parameters"]
    lost = [n for n in notes if n.kind == "lost"]
    assert len(lost) == 1 and "additionalProperties" in lost[0].message
    assert "non-string enum" in lost[0].message
    assert any(n.kind == "guessed" and "const" in n.message for n in notes)


def test_gemini_warns_about_non_ascii_parameter_names(cjk_registry: Registry):
    notes = export_registry(cjk_registry, "gemini").notes
    assert any("客户编号" in n.message and n.kind == "info" for n in notes)


@pytest.mark.parametrize("fmt", FORMAT_NAMES)
def test_export_tool_works_for_every_format(travel: Registry, fmt: str):
    value, notes = export_tool(travel.tools[3], fmt, travel.settings)
    json.dumps(value)
    assert all(not n.path.startswith("tools[") for n in notes)


def test_studio_export_tool_is_the_normalised_document(travel: Registry):
    value, notes = export_tool(travel.tools[0], "studio")
    assert value["parameters"]["properties"]["query"]["x-aliases"] == ["q", "keyword"]
    assert notes == []


def test_unknown_format_lists_the_known_ones(travel: Registry):
    with pytest.raises(FormatError, match=r"known formats: studio, openai, .*dir"):
        export_registry(travel, "openapi")


def test_openai_export_is_not_strict(travel: Registry):
    entries = json.loads(export_registry(travel, "openai").text)
    assert all("strict" not in e["function"] for e in entries)


def test_openai_strict_requires_everything_and_closes_objects():
    schema = {
        "type": "object",
        "properties": {
            "a": {"type": "string"},
            "b": {"type": "string", "enum": ["x", "y"]},
            "c": {"type": "object", "properties": {"d": {"type": "integer"}}},
            "e": {"description": "anything"},
        },
        "required": ["a"],
    }
    strict, notes = to_openai_strict(schema)
    assert strict["required"] == ["a", "b", "c", "e"]
    assert strict["additionalProperties"] is False
    assert strict["properties"]["a"] == {"type": "string"}
    assert strict["properties"]["b"] == {"type": ["string", "null"], "enum": ["x", "y", None]}
    nested = strict["properties"]["c"]
    assert nested["type"] == ["object", "null"]
    assert nested["additionalProperties"] is False and nested["required"] == ["d"]
    assert nested["properties"]["d"] == {"type": ["integer", "null"]}
    assert strict["properties"]["e"] == {"anyOf": [{"description": "anything"}, {"type": "null"}]}
    assert schema["required"] == ["a"]  # the input is not changed
    assert {n.kind for n in notes} == {"guessed"}


def test_openai_strict_notes_a_closed_open_object():
    _, notes = to_openai_strict({"type": "object", "properties": {}, "additionalProperties": True})
    assert notes == [Note("", "additionalProperties replaced by false", "lost")]
    with pytest.raises(FormatError):
        to_openai_strict({"type": "string"})
