"""The token delta's direct count equals the counter's own path on random edits (issue 16).

``token_delta`` sums a tool's name, rendered description and model-view JSON
itself instead of handing the counter a copy of the tool to strip again. This
differential test edits random tools of the examples (summaries, x- keys,
injected properties, strings holding ``"x-``, key order, numbers that compare
equal across types) and checks every per-tool count against the counter's
path: ``tool_tokens`` of the tool with sorted keys, which strips it itself.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import random
from typing import Any

import pytest

from registry_db import load_examples
from studio.contract import Registry, ToolContract
from studio.diff import diff_registries
from studio.diff.registry_diff import _model_view, _share_unchanged, _sorted_keys, token_delta
from studio.lint.rules._common import model_parameters
from studio.lint.rules.cost import tool_tokens


def _reference(a: Registry, b: Registry) -> dict[str, tuple[int, int]]:
    """Per-tool counts through the counter's own strip (no view, no direct sum)."""

    def tokens(tool: ToolContract, registry: Registry) -> int:
        tool = dataclasses.replace(tool, parameters=_sorted_keys(tool.parameters))
        return tool_tokens(tool, registry.settings, None)

    per_tool = {t.name: (tokens(t, a), 0) for t in a.tools}
    for t in b.tools:
        per_tool[t.name] = (per_tool.get(t.name, (0, 0))[0], tokens(t, b))
    return per_tool


def _objects(value: Any) -> list[dict[str, Any]]:
    """Every dict inside ``value`` (the places an edit can land)."""
    out: list[dict[str, Any]] = []
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            out.append(node)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return out


def _edit(tool: ToolContract, rng: random.Random) -> ToolContract:
    kind = rng.randrange(7)
    if kind == 0:
        return dataclasses.replace(tool, summary=(tool.summary or "") + " 新的说明 New.")
    params = copy.deepcopy(tool.parameters) if isinstance(tool.parameters, dict) else {}
    params.setdefault("type", "object")
    target = rng.choice(_objects(params))
    if kind == 1:
        target[f"x-note-{rng.randrange(99)}"] = {"x-injected": "not a property"}
    elif kind == 2:
        props = params.setdefault("properties", {})
        if isinstance(props, dict):
            props[f"who_{rng.randrange(99)}"] = {"type": "string", "x-injected": "session.id"}
            params.setdefault("required", []).append(f"who_{rng.randrange(99)}")
    elif kind == 3:
        target["description"] = 'say "x-large" or 大号'
    elif kind == 4:
        params = dict(reversed(list(params.items())))
    elif kind == 5:
        target["default"] = rng.choice([1, 1.0, True, 1.5, None])
    else:
        target["enum"] = ["x-small", "小", 2]
    return dataclasses.replace(tool, parameters=params)


@pytest.fixture(scope="module")
def examples() -> Registry:
    tools = [t for r in load_examples() for t in r.tools]
    return Registry("r", tools=tuple(tools))


@pytest.mark.parametrize("seed", range(12))
def test_direct_count_equals_the_counters_path(examples: Registry, seed: int) -> None:
    rng = random.Random(seed)
    a_tools = list(examples.tools)
    for i in rng.sample(range(len(a_tools)), k=min(5, len(a_tools))):
        a_tools[i] = _edit(a_tools[i], rng)
    a = dataclasses.replace(examples, tools=tuple(a_tools))
    b_tools = list(a.tools)
    for i in rng.sample(range(len(b_tools)), k=min(8, len(b_tools))):
        b_tools[i] = _edit(b_tools[i], rng)
    b = dataclasses.replace(a, tools=tuple(b_tools[1:]))  # one removed too
    delta = token_delta(a, b)
    assert dict(delta.per_tool) == _reference(a, b)
    assert delta.total_after == sum(after for _, after in delta.per_tool.values())
    # A second diff of the same objects (memo hits) reports the same counts.
    assert token_delta(a, b) == delta
    # The whole diff hands its unchanged tools over instead of comparing them again.
    assert diff_registries(a, b, lint_profile=None).token_delta == delta


# -------------------------------------------------- the view against the linter's strip

_KEYS = ["properties", "items", "anyOf", "oneOf", "$defs", "not", "prefixItems", "examples",
         "if", "patternProperties", "const", "x-meta"]  # fmt: skip
_NAMES = ["a", "b", "properties", "required", "x-odd", "客户", "items", "type"]


def _random_schema(rng: random.Random, depth: int) -> Any:
    """A random schema-like value: the keys injected_fields follows and ones it does not."""
    if depth <= 0 or rng.random() < 0.2:
        return rng.choice(["string", 1, 1.5, True, None, ["x-small", 2], {"type": "integer"}])
    node: dict[str, Any] = {"type": rng.choice(["object", "array", "string"])}
    for _ in range(rng.randrange(1, 4)):
        key = rng.choice(_KEYS)
        if key in ("properties", "$defs", "patternProperties"):
            names = rng.sample(_NAMES, k=rng.randrange(1, 4))
            node[key] = {n: _random_schema(rng, depth - 1) for n in names}
            for n in names:
                if rng.random() < 0.35:
                    node[key][n] = {"type": "string", "x-injected": "session.id"}
            node.setdefault("required", []).extend(rng.sample(names, k=1))
        elif key in ("anyOf", "oneOf", "prefixItems", "examples"):
            node[key] = [_random_schema(rng, depth - 1) for _ in range(rng.randrange(1, 3))]
            if rng.random() < 0.3:
                node[key].append([_random_schema(rng, depth - 1)])  # a list in the list
        else:
            node[key] = _random_schema(rng, depth - 1)
    return node


def _deep(levels: int) -> dict[str, Any]:
    node: dict[str, Any] = {"type": "object", "properties": {"id": {"x-injected": "s.id"}}}
    for _ in range(levels):
        node = {"type": "object", "properties": {"inner": node}, "required": ["inner"]}
    return node


def _linter_view(parameters: Any) -> str:
    tool = ToolContract("t", parameters=_sorted_keys(parameters))
    return json.dumps(model_parameters(tool), ensure_ascii=False)


@pytest.mark.parametrize("parameters", [_deep(62), _deep(63), _deep(64), _deep(70)])
def test_the_view_stops_where_injected_fields_stops(parameters: Any) -> None:
    view = _model_view(parameters)
    assert view is not None
    assert json.dumps(view, ensure_ascii=False) == _linter_view(parameters)


def test_random_schemas_view_as_the_linter_strips() -> None:
    rng = random.Random(16)
    compared = 0
    for _ in range(400):
        parameters = _random_schema(rng, 5)
        if not isinstance(parameters, dict):
            continue
        view = _model_view(parameters)
        if view is None:  # an x- property name beside an injected one: left to the counter
            continue
        assert json.dumps(view, ensure_ascii=False) == _linter_view(parameters), parameters
        compared += 1
    assert compared > 200


# ----------------------------------------- the lint delta with B sharing A's tool objects


def _fresh(registry: Registry) -> Registry:
    """The same registry with new tool objects (nothing cached by the linter for them)."""
    return dataclasses.replace(registry, tools=tuple(copy.deepcopy(t) for t in registry.tools))


def _sibling_edit(tools: list[ToolContract], rng: random.Random) -> None:
    """Edits that change other tools' findings: a near-copy, a shared summary, a removal."""
    kind = rng.randrange(3)
    src = rng.choice(tools)
    if kind == 0:
        tools.append(dataclasses.replace(src, name=src.name + "_copy"))
    elif kind == 1:
        i = rng.randrange(len(tools))
        tools[i] = dataclasses.replace(tools[i], summary=src.summary)
    elif len(tools) > 2:
        tools.pop(rng.randrange(len(tools)))


@pytest.mark.parametrize("seed", range(6))
def test_lint_delta_sharing_a_tools_equals_linting_b_afresh(examples: Registry, seed: int) -> None:
    from studio.lint import lint_registry

    rng = random.Random(seed)
    a = examples
    b_tools = list(a.tools)
    for i in rng.sample(range(len(b_tools)), k=3):
        b_tools[i] = _edit(b_tools[i], rng)
    _sibling_edit(b_tools, rng)
    b = dataclasses.replace(a, tools=tuple(b_tools))
    lint_registry(a, profile="openai")  # A's tools linted first, as lint_delta does
    shared = _share_unchanged(a, b)
    assert sum(t is o for t in shared.tools for o in a.tools) >= len(a.tools) - 4
    after = lint_registry(shared, profile="openai").findings
    assert after == lint_registry(_fresh(b), profile="openai").findings
    assert diff_registries(a, b).lint_delta == diff_registries(_fresh(a), _fresh(b)).lint_delta


def test_tools_equal_only_loosely_are_not_shared() -> None:
    params: dict[str, Any] = {"type": "object", "properties": {"n": {"default": 1}}}
    loose: dict[str, Any] = {"type": "object", "properties": {"n": {"default": True}}}
    reordered = {"properties": params["properties"], "type": "object"}
    a = Registry("r", tools=(ToolContract("t", parameters=params),))
    for other in (loose, reordered):
        b = Registry("r", tools=(ToolContract("t", parameters=other),))
        assert a.tools[0] == b.tools[0]  # equal as Python values…
        assert _share_unchanged(a, b).tools[0] is b.tools[0]  # …but not shared
    same = Registry("r", tools=(ToolContract("t", parameters=copy.deepcopy(params)),))
    assert _share_unchanged(a, same).tools[0] is a.tools[0]
