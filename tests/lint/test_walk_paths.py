"""The shared schema walks build the same JSON paths and injected fields as the contract."""

from __future__ import annotations

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
    ],
)
def test_injected_fields_are_the_contracts(parameters: dict[str, Any]) -> None:
    tool = ToolContract(name="t", parameters=parameters)
    assert injected_fields_of(tool) == injected_fields(parameters)
