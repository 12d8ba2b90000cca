"""Mock response specs: canned tool answers stored per registry, beside the draft.

A registry's mocks document (``tool-registry-studio/mocks@1``)::

    {"format": "tool-registry-studio/mocks@1", "registry": "travel-reimbursement",
     "context": {"role": "employee", "scenario": "reimbursement", "employee_id": "E-1001"},
     "tools": {"query_invoices": {
         "responses": [{"when": [{"path": "category", "equals": "hotel"}],
                        "body": {"invoices": []}}],
         "default": {"body": {"invoices": [{"id": "INV-102", "amount": 118.5}]}}}}}

A response (:class:`MockBehaviour`) has ``when`` (all matchers must hold;
each names an argument ``path`` like ``invoice_ids[0]`` and one of
``equals``, ``contains`` or ``regex``; a regex runs on RE2, in time linear in
the argument, so it has no backreferences or lookaround), ``body`` (strings ``{arg}`` and
``{idempotency_key}`` are filled in), ``status``/``error_code`` for an error
answer, ``latency_ms``, ``fail`` (``timeout``, ``429``, ``500``, ``malformed``),
``retry_after`` (seconds, with 429) and ``times`` (apply to the first n matches).
``context`` is a suggested session context for runs against the registry.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from studio.contract.patterns import check_linear, search_linear

MOCKS_FORMAT = "tool-registry-studio/mocks@1"
_PATH_PART = re.compile(r"([^.\[\]]+)|\[(\d+)\]")
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
FAILURES = ("timeout", "429", "500", "malformed")


class MockSpecError(ValueError):
    """A mocks document that does not follow the format."""


def value_at(arguments: Any, path: str) -> Any:
    """The value at ``path`` (``a.b[0]``); raises KeyError when absent."""
    node = arguments
    for name, index in _PATH_PART.findall(path):
        if name:
            if not isinstance(node, dict) or name not in node:
                raise KeyError(path)
            node = node[name]
        else:
            if not isinstance(node, list) or int(index) >= len(node):
                raise KeyError(path)
            node = node[int(index)]
    return node


@dataclass(frozen=True, slots=True)
class Matcher:
    path: str
    op: str
    value: Any

    def matches(self, arguments: dict[str, Any]) -> bool:
        try:
            actual = value_at(arguments, self.path)
        except KeyError:
            return False
        if self.op == "equals":
            return bool(actual == self.value)
        if self.op == "contains":
            if isinstance(actual, str):
                return isinstance(self.value, str) and self.value in actual
            return isinstance(actual, list | dict) and self.value in actual
        text = actual if isinstance(actual, str) else json.dumps(actual, ensure_ascii=False)
        # RE2: linear in the text, so a pattern like ^(a+)+$ cannot stall the event loop.
        return search_linear(str(self.value), text)


def _render(template: Any, values: dict[str, Any]) -> Any:
    if isinstance(template, str):
        whole = _PLACEHOLDER.fullmatch(template)
        if whole and whole.group(1) in values:
            return values[whole.group(1)]
        return _PLACEHOLDER.sub(
            lambda m: str(values[m.group(1)]) if m.group(1) in values else m.group(0), template
        )
    if isinstance(template, dict):
        return {k: _render(v, values) for k, v in template.items()}
    if isinstance(template, list):
        return [_render(v, values) for v in template]
    return template


@dataclass(frozen=True, slots=True)
class MockBehaviour:
    when: tuple[Matcher, ...] = ()
    body: Any = None
    status: int = 200
    error_code: str = ""
    latency_ms: float = 0.0
    fail: str = ""
    retry_after: float | None = None
    times: int | None = None

    def matches(self, arguments: dict[str, Any]) -> bool:
        return all(m.matches(arguments) for m in self.when)

    def render(self, arguments: dict[str, Any], idempotency_key: str = "") -> Any:
        return _render(self.body, {**arguments, "idempotency_key": idempotency_key})


@dataclass(frozen=True, slots=True)
class MockToolSpec:
    responses: tuple[MockBehaviour, ...] = ()
    default: MockBehaviour | None = None


@dataclass(frozen=True, slots=True)
class MockSet:
    """All mocks of one registry, plus its suggested session context."""

    tools: dict[str, MockToolSpec] = field(default_factory=dict)
    context: dict[str, Any] = field(default_factory=dict)


def parse_behaviour(data: Any, where: str) -> MockBehaviour:
    if not isinstance(data, dict):
        raise MockSpecError(f"{where}: a response must be an object")
    matchers = []
    when = data.get("when") or []
    if not isinstance(when, list | tuple):
        raise MockSpecError(f"{where}.when: must be a list of matchers")
    for i, m in enumerate(when):
        ops = (
            [op for op in ("equals", "contains", "regex") if op in m] if isinstance(m, dict) else []
        )
        if not isinstance(m, dict) or "path" not in m or len(ops) != 1:
            raise MockSpecError(
                f"{where}.when[{i}]: needs a path and one of equals, contains, regex"
            )
        if ops[0] == "regex":
            problem = check_linear(str(m["regex"]))
            if problem:
                raise MockSpecError(f"{where}.when[{i}].regex: {problem}")
        matchers.append(Matcher(str(m["path"]), ops[0], m[ops[0]]))
    fail = str(data.get("fail") or "")
    if fail and fail not in FAILURES:
        raise MockSpecError(f"{where}.fail: {fail!r} is not one of {', '.join(FAILURES)}")
    times = _number(data, "times", where, int)
    retry_after = _number(data, "retry_after", where, float)
    return MockBehaviour(
        tuple(matchers),
        data.get("body"),
        _number(data, "status", where, int, 200),
        str(data.get("error_code") or ""),
        _number(data, "latency_ms", where, float, 0.0) or 0.0,
        fail,
        retry_after,
        times,
    )


def _number(data: dict[str, Any], key: str, where: str, kind: type, default: Any = None) -> Any:
    """``kind(data[key])`` (``default`` when absent or null); MockSpecError when not a number."""
    value = data.get(key)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise MockSpecError(f"{where}.{key}: must be a number")
    try:
        return kind(value)
    except ValueError:
        raise MockSpecError(f"{where}.{key}: must be a number, not {value!r}") from None


def parse_tool_spec(data: Any, where: str = "tool") -> MockToolSpec:
    if not isinstance(data, dict):
        raise MockSpecError(f"{where}: must be an object")
    responses = tuple(
        parse_behaviour(r, f"{where}.responses[{i}]")
        for i, r in enumerate(data.get("responses") or ())
    )
    default = parse_behaviour(data["default"], f"{where}.default") if "default" in data else None
    return MockToolSpec(responses, default)


def parse_mocks(document: Any) -> MockSet:
    """Parse a mocks document; raises MockSpecError naming the bad place."""
    if not isinstance(document, dict) or not isinstance(document.get("tools", {}), dict):
        raise MockSpecError("a mocks document is an object with a 'tools' object")
    tools = {
        name: parse_tool_spec(spec, f"tools.{name}")
        for name, spec in (document.get("tools") or {}).items()
    }
    return MockSet(tools, dict(document.get("context") or {}))


def example_mocks(registry: str) -> dict[str, Any] | None:
    """The bundled mocks document of an example registry, or None."""
    try:
        entry = resources.files("resources") / "examples" / "mocks" / f"{registry}.json"
    except ModuleNotFoundError:
        return None
    if not entry.is_file():
        return None
    data: dict[str, Any] = json.loads(entry.read_text(encoding="utf-8"))
    return data
