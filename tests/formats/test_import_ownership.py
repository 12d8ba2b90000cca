"""Imported tools never share schema objects with a caller's data, nor with each other.

A file's import owns what it decoded and keeps those objects (no copy); a
caller's own data (the MCP client's listing, a test's dict) is copied, so
changing it later changes no tool.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from studio.formats import anthropic, gemini, import_path, mcp, openai

_SCHEMA = {
    "type": "object",
    "properties": {"city": {"type": "string", "enum": ["Paris", "Oslo"]}},
    "required": ["city"],
}


def _openai(schema: dict[str, Any]) -> dict[str, Any]:
    function = {"name": "get_weather", "description": "Get the weather.", "parameters": schema}
    return {"type": "function", "function": function}


@pytest.mark.parametrize(
    ("module", "document"),
    [
        (openai, lambda s: [_openai(s)]),
        (anthropic, lambda s: [{"name": "get_weather", "input_schema": s}]),
        (mcp, lambda s: {"tools": [{"name": "get_weather", "inputSchema": s}]}),
        (gemini, lambda s: [{"name": "get_weather", "parametersJsonSchema": s}]),
    ],
)
def test_a_callers_data_is_copied(module: Any, document: Any) -> None:
    schema = copy.deepcopy(_SCHEMA)
    tool = module.import_tools(document(schema), "test").tools[0]
    schema["properties"]["city"]["enum"].append("Rome")
    schema["required"].clear()
    assert tool.parameters == _SCHEMA


def test_a_file_import_keeps_the_same_tools(tmp_path: Path) -> None:
    # Two tools with equal schemas: decoded twice, so never one shared object.
    path = tmp_path / "tools.json"
    path.write_text(
        json.dumps(
            [
                _openai(_SCHEMA),
                {
                    **_openai(_SCHEMA),
                    "function": {**_openai(_SCHEMA)["function"], "name": "get_forecast"},
                },
            ]
        ),
        "utf-8",
    )
    first, second = import_path(path).registry.tools
    assert first.parameters == second.parameters == _SCHEMA
    assert first.parameters is not second.parameters
    assert first.parameters["properties"] is not second.parameters["properties"]
    # And the same tools as an import of data the caller keeps (copied).
    kept = openai.import_tools(json.loads(path.read_text("utf-8")), "tools.json")
    assert [t.parameters for t in kept.tools] == [first.parameters, second.parameters]
