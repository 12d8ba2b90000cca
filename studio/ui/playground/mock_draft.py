"""The mock editor's working copy: tool → mock spec (JSON), compared with what is stored.

Plain data, no Qt. The editor changes specs only through these methods, so a
spec nobody touched stays exactly as stored (unknown keys included) and Save
writes only the tools that changed.
"""

from __future__ import annotations

import copy
import json
from typing import Any

DEFAULT = -1
"""The slot of a tool's default response (other slots index ``responses``)."""
FAILURE_LABELS = {
    "": "none: answer",
    "timeout": "timeout (hangs until the tier's timeout)",
    "429": "429 Too Many Requests",
    "500": "500 Internal Server Error",
    "malformed": "malformed body (not JSON)",
}
RESPONSE_DEFAULTS: dict[str, Any] = {
    "status": 200,
    "error_code": "",
    "latency_ms": 0,
    "fail": "",
    "retry_after": None,
    "times": None,
}


def matcher_value_text(value: Any, op: str) -> str:
    """How a matcher's value is shown: regexes and plain words as typed, the rest as JSON.

    A string that would read as other JSON (``"80"``, ``"true"``) is shown quoted,
    so :func:`parse_matcher_value` gives back exactly ``value``.
    """
    if op == "regex" and isinstance(value, str):
        return value
    if isinstance(value, str) and value:
        try:
            json.loads(value)
        except ValueError:
            return value
    return json.dumps(value, ensure_ascii=False)  # an empty string shows as ""


def parse_matcher_value(text: str, op: str) -> Any:
    """The value typed for a matcher: JSON when it parses (not for regex), else the text."""
    if op == "regex":
        return text
    try:
        return json.loads(text)
    except ValueError:
        return text


def _short(value: Any, limit: int = 48) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def describe_response(response: Any) -> str:
    """One line for the response list: matchers → outcome."""
    if not isinstance(response, dict):
        return "not an object: fix it in the JSON view"
    when = response.get("when") or []
    conditions = []
    for m in when if isinstance(when, list) else []:
        if isinstance(m, dict):
            op = next((o for o in ("equals", "contains", "regex") if o in m), "?")
            shown = matcher_value_text(m.get(op), op) if op != "?" else ""
            conditions.append(f"{m.get('path', '?')} {op} {shown}")
    head = " and ".join(conditions) if conditions else "any arguments"
    fail = response.get("fail")
    if fail:
        outcome = {"timeout": "times out", "malformed": "malformed body"}.get(
            str(fail), f"fails {fail}"
        )
        if fail == "429" and response.get("retry_after") is not None:
            outcome += f" (Retry-After {response['retry_after']:g} s)"
    else:
        status = response.get("status", 200)
        outcome = f"{status} {_short(response.get('body'))}"
        if response.get("error_code"):
            outcome = f"{status} {response['error_code']}"
    extras = []
    if response.get("latency_ms"):
        extras.append(f"+{response['latency_ms']:g} ms")
    if response.get("times") is not None:
        extras.append(f"first {response['times']}×")
    return f"{head} → {outcome}" + (f" [{', '.join(extras)}]" if extras else "")


class MockDraft:
    """Tool → spec, edited in memory; :attr:`saved` is what the store holds.

    Args:
        saved: The stored specs (without the ``""`` context entry).
    """

    def __init__(self, saved: dict[str, Any]) -> None:
        self.saved = copy.deepcopy(saved)
        self.specs = copy.deepcopy(saved)

    # ------------------------------------------------------------------ state

    def dirty(self, tool: str | None = None) -> bool:
        if tool is not None:
            return self.specs.get(tool) != self.saved.get(tool)
        return self.specs != self.saved

    def changes(self) -> tuple[dict[str, Any], list[str]]:
        """(specs to write, tools whose mocks to delete) to make the store equal this draft."""
        changed = {t: s for t, s in self.specs.items() if self.saved.get(t) != s}
        removed = [t for t in self.saved if t not in self.specs]
        return copy.deepcopy(changed), removed

    def mark_saved(self) -> None:
        self.saved = copy.deepcopy(self.specs)

    def revert(self, tool: str) -> None:
        if tool in self.saved:
            self.specs[tool] = copy.deepcopy(self.saved[tool])
        else:
            self.specs.pop(tool, None)

    # ------------------------------------------------------------------ specs

    def spec(self, tool: str) -> Any:
        """The tool's spec (an empty object when it has none)."""
        return self.specs.get(tool, {})

    def set_spec(self, tool: str, spec: Any) -> None:
        """Replace the tool's spec; an empty object means "no mocks" (deleted on save)."""
        if spec == {}:
            self.specs.pop(tool, None)
        else:
            self.specs[tool] = copy.deepcopy(spec)

    def _editable(self, tool: str) -> dict[str, Any]:
        spec = self.specs.get(tool)
        if not isinstance(spec, dict):
            spec = {}
        return copy.deepcopy(spec)

    def responses(self, tool: str) -> list[Any]:
        spec = self.spec(tool)
        responses = spec.get("responses") if isinstance(spec, dict) else None
        return list(responses) if isinstance(responses, list) else []

    def has_default(self, tool: str) -> bool:
        spec = self.spec(tool)
        return isinstance(spec, dict) and "default" in spec

    def slots(self, tool: str) -> list[int]:
        """The tool's response slots in the order the runtime tries them (default last)."""
        default = [DEFAULT] if self.has_default(tool) else []
        return list(range(len(self.responses(tool)))) + default

    def response(self, tool: str, slot: int) -> Any:
        spec = self.spec(tool)
        if slot == DEFAULT:
            return spec.get("default") if isinstance(spec, dict) else None
        responses = self.responses(tool)
        return responses[slot] if 0 <= slot < len(responses) else None

    def set_response(self, tool: str, slot: int, response: dict[str, Any]) -> None:
        spec = self._editable(tool)
        if slot == DEFAULT:
            spec["default"] = copy.deepcopy(response)
        else:
            responses = list(spec.get("responses") or [])
            responses[slot] = copy.deepcopy(response)
            spec["responses"] = responses
        self.set_spec(tool, spec)

    def add_response(self, tool: str, response: dict[str, Any]) -> int:
        """Append a response before the default; returns its slot."""
        spec = self._editable(tool)
        responses = list(spec.get("responses") or [])
        responses.append(copy.deepcopy(response))
        spec["responses"] = responses
        self.set_spec(tool, spec)
        return len(responses) - 1

    def add_default(self, tool: str, response: dict[str, Any]) -> int:
        spec = self._editable(tool)
        spec["default"] = copy.deepcopy(response)
        self.set_spec(tool, spec)
        return DEFAULT

    def remove(self, tool: str, slot: int) -> None:
        spec = self._editable(tool)
        if slot == DEFAULT:
            spec.pop("default", None)
        else:
            responses = list(spec.get("responses") or [])
            del responses[slot]
            if responses:
                spec["responses"] = responses
            else:
                spec.pop("responses", None)
        self.set_spec(tool, spec)

    def move(self, tool: str, slot: int, step: int) -> int:
        """Move a response up (-1) or down (+1) in the order tried; returns its new slot."""
        responses = self.responses(tool)
        target = slot + step
        if slot == DEFAULT or not 0 <= target < len(responses):
            return slot
        responses[slot], responses[target] = responses[target], responses[slot]
        spec = self._editable(tool)
        spec["responses"] = responses
        self.set_spec(tool, spec)
        return target
