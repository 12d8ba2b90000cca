"""The diff's one-walk model view counts the same tokens as the linter's strip (issue 16).

``token_delta`` hands the token counter the parameters already sorted and
stripped (:func:`studio.diff.registry_diff._model_view`) instead of letting it
strip them itself, which is ~3× slower; the view must be exactly what the
counter would have built, so the counts, and every diff report, are unchanged.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from registry_db import load_examples
from studio.contract import Registry, ToolContract
from studio.diff.registry_diff import _model_view, _sorted_keys, token_delta
from studio.lint.rules._common import model_parameters
from studio.lint.rules.cost import tool_tokens

EDGE_PARAMETERS: list[Any] = [
    {},
    {"type": "object"},
    {
        "type": "object",
        "required": ["b", "who", "a"],
        "properties": {
            "b": {"type": "string", "enum": ["x-large", "small"], "x-aliases": ["B"]},
            "who": {"type": "string", "x-injected": "session.employee_id"},
            "a": {"type": "integer", "x-note": {"x-injected": "not a property"}},
            "x-hidden-name": {"type": "string"},
        },
    },
    {
        "type": "object",
        "properties": {
            "lines": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["amount", "employee_id"],
                    "properties": {
                        "employee_id": {"type": "string", "x-injected": "session.employee_id"},
                        "amount": {"type": "number"},
                    },
                },
            },
            "claim": {
                "anyOf": [
                    {
                        "type": "object",
                        "properties": {"客户 编号": {"type": "string", "x-injected": "session.c"}},
                    },
                    {"type": "null"},
                ]
            },
        },
    },
    {
        "type": "object",
        "$defs": {"who": {"type": "object", "properties": {"id": {"x-injected": "session.id"}}}},
        "properties": {"w": {"$ref": "#/$defs/who"}, "n": {"type": "number", "default": 1.5}},
    },
    {"type": "object", "properties": {'odd key "q"': {"type": "string"}, "z": True}},
]


def _tools() -> list[ToolContract]:
    tools = [t for r in load_examples() for t in r.tools]
    tools += [ToolContract(f"edge_{i}", parameters=p) for i, p in enumerate(EDGE_PARAMETERS)]
    return tools


@pytest.mark.parametrize("tool", _tools(), ids=lambda t: t.name)
def test_the_view_is_what_the_linter_strips_to(tool: ToolContract) -> None:
    sorted_tool = dataclasses.replace(tool, parameters=_sorted_keys(tool.parameters))
    expected = json.dumps(model_parameters(sorted_tool), ensure_ascii=False)
    view = _model_view(tool.parameters)
    if view is None:  # left to the counter
        assert tool.name == "edge_2"
        return
    assert json.dumps(view, ensure_ascii=False) == expected


def test_non_json_parameters_are_left_to_the_counter() -> None:
    assert _model_view({"type": "object", 3: {"type": "string"}}) is None
    assert _model_view({"enum": [{1, 2}]}) is None
    assert _model_view(["not", "an", "object"]) is None


def _old_token_delta(a: Registry, b: Registry) -> dict[str, tuple[int, int]]:
    """The per-tool counts as token_delta computed them before the view (sorted keys only)."""

    def tokens(tool: ToolContract, registry: Registry) -> int:
        tool = dataclasses.replace(tool, parameters=_sorted_keys(tool.parameters))
        return tool_tokens(tool, registry.settings, None)

    per_tool = {t.name: (tokens(t, a), 0) for t in a.tools}
    for t in b.tools:
        per_tool[t.name] = (per_tool.get(t.name, (0, 0))[0], tokens(t, b))
    return per_tool


def test_token_delta_counts_as_before() -> None:
    a = Registry("r", tools=tuple(_tools()))
    tools = list(a.tools)
    tools[0] = dataclasses.replace(tools[0], summary="A new summary.")
    tools[-1] = dataclasses.replace(tools[-1], parameters={"type": "object", "x-a": 1})
    b = dataclasses.replace(a, tools=(*tools[:-2], tools[-1]))
    delta = token_delta(a, b)
    assert dict(delta.per_tool) == _old_token_delta(a, b)
    assert delta.total_before == sum(p[0] for p in delta.per_tool.values())
