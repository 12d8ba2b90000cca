"""Imports: detection, mapping, guesses and located errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.contract import REGISTRY_FORMAT, Registry, RiskTier
from studio.formats import (
    FormatError,
    detect_format,
    export_registry,
    import_path,
    import_text,
    write_export,
)

SCHEMA = {"type": "object", "properties": {"q": {"type": "string"}}}
DETECTED = [
    ({"format": REGISTRY_FORMAT, "name": "r", "tools": []}, "studio"),
    ({"name": "r", "tools": [{"name": "a", "risk": "read", "parameters": SCHEMA}]}, "studio"),
    ([{"type": "function", "function": {"name": "a", "parameters": SCHEMA}}], "openai"),
    ({"model": "gpt", "tools": [{"type": "function", "function": {"name": "a"}}]}, "openai"),
    ([{"type": "function", "name": "a", "parameters": SCHEMA}], "openai-responses"),
    ([{"name": "a", "description": "", "input_schema": SCHEMA}], "anthropic"),
    ({"functionDeclarations": [{"name": "a", "parameters": SCHEMA}]}, "gemini"),
    ({"tools": [{"functionDeclarations": [{"name": "a"}]}]}, "gemini"),
    ([{"name": "a", "description": "d", "parameters": SCHEMA}], "gemini"),
    ({"tools": [{"name": "a", "inputSchema": SCHEMA}]}, "mcp"),
    ([{"type": "web_search"}, {"type": "function", "name": "a"}], "openai-responses"),
    (
        {"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "a", "inputSchema": SCHEMA}]}},
        "mcp",
    ),
]


@pytest.mark.parametrize(("data", "expected"), DETECTED)
def test_detect_format_by_shape(data: object, expected: str):
    assert detect_format(data) == expected


@pytest.mark.parametrize(
    "data",
    [
        [],
        {"tools": []},
        [{"name": "a", "input_schema": SCHEMA}, {"name": "b", "inputSchema": SCHEMA}],
        {"something": "else"},
        "just a string",
    ],
)
def test_ambiguous_or_unknown_shapes_ask_for_format(data: object):
    with pytest.raises(FormatError, match="format"):
        detect_format(data)


def test_auto_import_of_a_folder_is_dir(travel: Registry, tmp_path: Path):
    write_export(export_registry(travel, "dir"), tmp_path / "reg")
    assert import_path(tmp_path / "reg").format == "dir"
    with pytest.raises(FormatError, match="folder"):
        import_path(tmp_path / "reg", "openai")


def test_malformed_json_names_file_line_and_column(tmp_path: Path):
    path = tmp_path / "tools.json"
    path.write_text('[\n  {"name": "a"\n    "description": "x"}\n]\n', "utf-8")
    with pytest.raises(FormatError) as info:
        import_path(path)
    assert str(info.value) == "tools.json: line 3 column 5: Expecting ',' delimiter"


def test_malformed_text_names_line_and_column():
    with pytest.raises(FormatError, match=r"^input: line 1 column 2: "):
        import_text("{oops}")


def test_invalid_schema_names_the_tool_path():
    tools = [
        {"type": "function", "function": {"name": "a", "parameters": SCHEMA}},
        {"type": "function", "function": {"name": "b", "parameters": SCHEMA}},
        {
            "type": "function",
            "function": {
                "name": "query_invoices",
                "parameters": {
                    "type": "object",
                    "properties": {"start_date": {"type": "date"}},
                },
            },
        },
    ]
    with pytest.raises(FormatError) as info:
        import_text(json.dumps(tools))
    paths = [p.path for p in info.value.problems]
    assert paths == ["tools[2].function.parameters.properties.start_date.type"]
    assert "tools[2].function.parameters.properties.start_date.type: 'date'" in str(info.value)


@pytest.mark.parametrize(
    ("fmt", "entry", "path"),
    [
        (
            "anthropic",
            {"name": "a", "input_schema": {"type": "array"}},
            "tools[0].input_schema.type",
        ),
        ("mcp", {"name": "a", "inputSchema": {"type": "array"}}, "tools[0].inputSchema.type"),
    ],
)
def test_problem_paths_use_the_provider_key(fmt: str, entry: dict, path: str):
    data = [entry] if fmt == "anthropic" else {"tools": [entry]}
    with pytest.raises(FormatError) as info:
        import_text(json.dumps(data), fmt)
    assert path in [p.path for p in info.value.problems]


def test_bad_names_are_sanitised_or_refused():
    tools = [{"name": "get.weather", "input_schema": SCHEMA}]
    result = import_text(json.dumps(tools), "anthropic")
    assert result.registry.tools[0].name == "get_weather"
    assert [(n.path, n.kind) for n in result.notes] == [
        ("tools[0].name", "guessed"),
        ("tools[0]", "guessed"),  # risk tier 'read' from the verb 'get'
    ]
    tools.append({"name": "查询发票", "input_schema": SCHEMA})
    with pytest.raises(FormatError, match=r"tools\[1\]\.name: '查询发票' cannot be made"):
        import_text(json.dumps(tools), "anthropic")


def test_duplicate_names_fail_with_both_paths():
    tools = [{"name": "a", "input_schema": SCHEMA}, {"name": "a", "input_schema": SCHEMA}]
    with pytest.raises(
        FormatError, match=r"tools\[1\]\.name: 'a' is already the name of tools\[0\]"
    ):
        import_text(json.dumps(tools), "anthropic")


def test_missing_parameters_become_an_empty_object_with_a_note():
    result = import_text(json.dumps([{"type": "function", "name": "ping"}]))
    assert result.format == "openai-responses"
    assert result.registry.tools[0].parameters == {"type": "object", "properties": {}}
    assert [(n.path, n.kind) for n in result.notes] == [
        ("tools[0].parameters", "guessed"),
        ("tools[0]", "guessed"),  # risk tier unknown: write
    ]


def test_openai_strict_is_kept_as_a_provider_option():
    data = [{"type": "function", "function": {"name": "a", "strict": True, "parameters": SCHEMA}}]
    result = import_text(json.dumps(data))
    assert result.registry.tools[0].provider.strict is True
    assert [(n.path, n.kind) for n in result.notes] == [
        ("tools[0].function", "guessed"),  # risk tier unknown: write
    ]


@pytest.mark.parametrize(
    ("fmt", "entry", "where"),
    [
        (
            "openai",
            {"type": "function", "function": {"name": "a", "strict": True, "x": 1}},
            "tools[1].function",
        ),
        ("openai-responses", {"type": "function", "name": "a", "strict": True, "x": 1}, "tools[1]"),
    ],
)
def test_both_openai_layouts_note_where_the_function_fields_sit(
    fmt: str, entry: dict[str, object], where: str
):
    data = [{"type": "web_search"}, entry]
    notes = import_text(json.dumps(data), fmt).notes
    assert [(n.path, n.message.split(";")[0], n.kind) for n in notes] == [
        ("tools[0]", "tool of type 'web_search' skipped", "lost"),
        (where, "keys not kept: x", "lost"),
        (f"{where}.parameters", "no parameters", "guessed"),
        (where, "risk tier unknown: set to write (the safe side)", "guessed"),
    ]


def test_openai_chat_entry_needs_a_function_object():
    data = [{"type": "function", "function": "get_weather"}]
    with pytest.raises(FormatError, match=r"tools\[0\]\.function: must be an object with name"):
        import_text(json.dumps(data), "openai")


def test_description_is_kept_as_free_text():
    data = [{"name": "a", "description": "Line one.\n\nUse when: x", "input_schema": SCHEMA}]
    tool = import_text(json.dumps(data)).registry.tools[0]
    assert tool.description == "Line one.\n\nUse when: x"
    assert tool.summary == "" and tool.usage == ""


@pytest.mark.parametrize(
    ("annotations", "risk", "guessed"),
    [
        ({"readOnlyHint": True}, RiskTier.READ, False),
        ({"destructiveHint": True}, RiskTier.DESTRUCTIVE, False),
        ({"readOnlyHint": False, "destructiveHint": True}, RiskTier.DESTRUCTIVE, False),
        ({"readOnlyHint": False, "destructiveHint": False}, RiskTier.WRITE, False),
        ({"readOnlyHint": False}, RiskTier.WRITE, True),
        (None, RiskTier.WRITE, True),
    ],
)
def test_mcp_annotations_map_to_risk(annotations: dict | None, risk: RiskTier, guessed: bool):
    entry = {"name": "a", "inputSchema": SCHEMA}
    if annotations is not None:
        entry["annotations"] = annotations
    result = import_text(json.dumps({"tools": [entry]}))
    assert result.registry.tools[0].risk is risk
    assert any(n.kind == "guessed" for n in result.notes) is guessed


def test_mcp_json_rpc_response_and_titles():
    entry = {
        "name": "a",
        "inputSchema": SCHEMA,
        "outputSchema": SCHEMA,
        "annotations": {"title": "The A tool", "readOnlyHint": True, "openWorldHint": True},
    }
    response = {"jsonrpc": "2.0", "id": 7, "result": {"tools": [entry]}}
    result = import_text(json.dumps(response))
    assert result.format == "mcp"
    tool = result.registry.tools[0]
    assert tool.title == "The A tool"
    # Everything the contract can hold is kept: nothing to note (issue #13).
    assert result.notes == []
    assert tool.output_schema == SCHEMA
    assert tool.annotations == {"openWorldHint": True}  # the rest the tier and title restore


def test_gemini_schema_converts_back_to_json_schema():
    data = {
        "tools": [
            {"googleSearch": {}},
            {
                "functionDeclarations": [
                    {
                        "name": "find",
                        "parameters": {
                            "type": "OBJECT",
                            "properties": {
                                "kind": {
                                    "type": "STRING",
                                    "format": "enum",
                                    "enum": ["a", "b"],
                                    "nullable": True,
                                },
                                "tags": {"type": "ARRAY", "items": {"type": "STRING"}},
                            },
                        },
                    }
                ]
            },
        ]
    }
    result = import_text(json.dumps(data))
    assert result.format == "gemini"
    assert result.registry.tools[0].parameters == {
        "type": "object",
        "properties": {
            "kind": {"type": ["string", "null"], "enum": ["a", "b", None]},
            "tags": {"type": "array", "items": {"type": "string"}},
        },
    }
    assert [(n.path, n.kind) for n in result.notes] == [
        ("tools[0]", "lost"),
        ("tools[1].functionDeclarations[0]", "guessed"),  # risk tier 'read' from 'find'
    ]


def test_registry_name_comes_from_argument_document_or_file(travel: Registry, tmp_path: Path):
    studio_file = tmp_path / "mine.json"
    write_export(export_registry(travel, "studio"), studio_file)
    assert import_path(studio_file).registry.name == "travel-reimbursement"
    assert import_path(studio_file, name="other").registry.name == "other"
    openai_file = tmp_path / "openai-tools.json"
    write_export(export_registry(travel, "openai"), openai_file)
    assert import_path(openai_file).registry.name == "openai-tools"
    assert import_text(openai_file.read_text("utf-8")).registry.name == "imported"


def test_studio_document_problems_keep_their_paths(travel: Registry):
    doc = json.loads(export_registry(travel, "studio").text)
    doc["tools"][2]["parameters"]["properties"]["ticket_id"]["type"] = "date"
    with pytest.raises(FormatError) as info:
        import_text(json.dumps(doc))
    assert info.value.problems[0].path == "tools[2].parameters.properties.ticket_id.type"


def test_missing_file_and_unknown_format(tmp_path: Path):
    with pytest.raises(FormatError, match="file not found"):
        import_path(tmp_path / "nope.json")
    with pytest.raises(FormatError, match="known formats"):
        import_text("[]", "yaml")
