"""The shared schema walks build the same JSON paths and injected fields as the contract."""

from __future__ import annotations

import json
from typing import Any

import pytest

from studio.contract.model import ToolContract, injected_fields
from studio.contract.problems import join_path
from studio.lint.rules._common import (
    _key_suffix,
    all_properties,
    all_schemas,
    injected_fields_of,
)

NAMES = ["plain", "with space", '引号"q"', "客户编号", "$ref", "a-b", "9lives", "", "back\\slash"]


@pytest.mark.parametrize("name", NAMES)
def test_a_key_suffix_is_what_join_path_appends(name: str) -> None:
    for base in ("parameters", "parameters.properties", "x[0]"):
        assert base + _key_suffix(name) == join_path(base, name)


def _schema() -> dict[str, Any]:
    nested = {"type": "object", "properties": {n: {"type": "string"} for n in NAMES}}
    return {
        "type": "object",
        "properties": {
            **{n: {"type": "string"} for n in NAMES},
            "deep": nested,
            "list": {"type": "array", "items": nested},
            "either": {"anyOf": [nested, {"type": "null"}]},
        },
        "$defs": {"d ef": nested},
    }


def _reference_paths(schema: dict[str, Any], path: str, out: list[str]) -> None:
    out.append(path)
    for key in ("properties", "$defs"):
        for name, sub in schema.get(key, {}).items():
            _reference_paths(sub, join_path(path, key, name), out)
    if isinstance(schema.get("items"), dict):
        _reference_paths(schema["items"], join_path(path, "items"), out)
    for i, sub in enumerate(schema.get("anyOf", [])):
        _reference_paths(sub, join_path(path, "anyOf", i), out)


def test_walk_paths_are_join_path_paths() -> None:
    tool = ToolContract(name="t", parameters=_schema())
    expected: list[str] = []
    _reference_paths(_schema(), "parameters", expected)
    assert sorted(n.json_path for n in all_schemas(tool)) == sorted(expected)
    props = {r.json_path for r in all_properties(tool)}
    assert join_path("parameters", "properties", "deep", "properties", "with space") in props
    assert join_path("parameters", "properties", "list", "items", "properties", "$ref") in props


@pytest.mark.parametrize(
    "parameters",
    [
        {"type": "object", "properties": {"a": {"type": "string"}}},
        {"type": "object", "properties": {"who": {"type": "string", "x-injected": "user.id"}}},
        {
            "type": "object",
            "properties": {
                "rows": {
                    "type": "array",
                    "items": {"properties": {"by": {"x-injected": "user.id"}}},
                }
            },
        },
        {"anyOf": [{"properties": {"x": {"x-injected": "s"}}}]},
        {"type": "object", "properties": {"a": {"enum": [{"x-injected": 1}]}}},
        {"type": "object", "properties": []},
        {"type": "object", "properties": {"a": {"description": 'say "x-injected"'}}},
    ],
)
def test_injected_fields_are_the_contracts(parameters: dict[str, Any]) -> None:
    from studio.lint.rules.cost import _model_schema_json

    tool = ToolContract(name="t", parameters=parameters)
    assert injected_fields_of(tool) == injected_fields(parameters)
    counted_first = ToolContract(name="t", parameters=parameters)
    _model_schema_json(counted_first)  # the token count notes the parameters' JSON first
    assert injected_fields_of(counted_first) == injected_fields(parameters)


def _reference_texts(tool: ToolContract) -> list[tuple[str, str]]:
    """``tool_texts`` as it was written with join_path for every path."""
    from studio.lint.rules._common import _TEXT_LIST_KEYS, _TOOL_TEXT_FIELDS, iter_schemas, text

    out: list[tuple[str, str]] = []

    def strings(value: Any, path: str) -> None:
        if isinstance(value, str):
            if value:
                out.append((path, value))
        elif isinstance(value, dict):
            for k, v in value.items():
                strings(v, join_path(path, k))
        elif isinstance(value, list):
            for i, v in enumerate(value):
                strings(v, join_path(path, i))

    for field in _TOOL_TEXT_FIELDS:
        if text(getattr(tool, field, "")):
            out.append((field, getattr(tool, field)))
    for i, err in enumerate(tool.errors):
        for key in ("code", "meaning", "hint"):
            if text(getattr(err, key, "")):
                out.append((join_path("errors", i, key), getattr(err, key)))
    for i, ex in enumerate(tool.examples):
        if text(ex.description):
            out.append((join_path("examples", i, "description"), ex.description))
        strings(ex.arguments, join_path("examples", i, "arguments"))
    for node in iter_schemas(tool):
        schema, where = node.schema, node.json_path
        for key in ("description", "title"):
            if schema.get(key) and isinstance(schema[key], str):
                out.append((join_path(where, key), schema[key]))
        if _TEXT_LIST_KEYS.isdisjoint(schema):
            continue
        for key in ("enum", "examples"):
            if isinstance(schema.get(key), list):
                for j, v in enumerate(schema[key]):
                    if isinstance(v, str) and v:
                        out.append((join_path(where, key, j), v))
        for key in ("default", "const"):
            if schema.get(key) and isinstance(schema[key], str):
                out.append((join_path(where, key), schema[key]))
        if isinstance(schema.get("properties"), dict):
            for name in schema["properties"]:
                out.append((join_path(where, "properties", name), name))
    return out


def test_tool_texts_paths_are_join_path_paths() -> None:
    from studio.contract import parse_registry
    from studio.lint.rules._common import tool_texts
    from tests.lint._fixtures import EXAMPLES

    schema = _schema()
    schema["properties"]["plain"] = {"type": "string", "enum": ["a", "b"], "default": "a"}
    from studio.contract import parse_tool

    weird = parse_tool({
        "name": "t",
        "description": "d",
        "parameters": schema,
        "examples": [
            {"description": "one", "arguments": {"with space": ["x", {"客户": "y"}], "a": "b"}}
        ],
        "errors": [{"code": "E1", "meaning": "m", "hint": "h"}],
    })  # fmt: skip
    tools = [weird]
    for path in EXAMPLES.glob("*.json"):
        tools.extend(parse_registry(json.loads(path.read_text("utf-8"))).tools)
    for tool in tools:
        assert tool_texts(tool) == _reference_texts(tool), tool.name


def test_a_property_keyword_path_is_join_paths() -> None:
    tool = ToolContract(name="t", parameters=_schema())
    for ref in all_properties(tool):
        for key in ("description", "enum", "x-aliases", "a b"):
            assert ref.at(key) == join_path(ref.json_path, key)
