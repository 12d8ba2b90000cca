"""Session context of a run: who is asking, in which scenario, and injected values.

Injected fields name a context path such as ``session.employee_id``; the
``session.`` prefix is optional, and dots reach into nested values.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

_MISSING = object()


@dataclass(frozen=True, slots=True)
class SessionContext:
    """Role, scenario and the values behind ``x-injected`` fields.

    Attributes:
        role: The caller's role, checked against tool permissions.
        scenario: The business scenario, checked against tool permissions.
        values: Everything else (``employee_id`` …), read by injected fields.
    """

    role: str = ""
    scenario: str = ""
    values: Mapping[str, Any] = field(default_factory=dict)

    def lookup(self, path: str) -> Any:
        """The value at ``path`` (``session.employee_id``); raises KeyError when absent."""
        parts = _parts(path)
        if parts == ("role",):
            return self.role
        if parts == ("scenario",):
            return self.scenario
        node: Any = self.values
        for part in parts:
            if not (type(node) is dict or isinstance(node, Mapping)) or part not in node:
                raise KeyError(path)
            node = node[part]
        return node

    def to_dict(self) -> dict[str, Any]:
        return {"role": self.role, "scenario": self.scenario, "values": dict(self.values)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SessionContext:
        values = dict(data.get("values") or {})
        for key, value in data.items():
            if key not in ("role", "scenario", "values"):
                values[key] = value
        return cls(str(data.get("role", "")), str(data.get("scenario", "")), values)

    def with_pairs(self, pairs: Iterable[str]) -> SessionContext:
        """This context with ``KEY=VALUE`` pairs applied (``role`` and ``scenario`` included).

        Raises:
            ValueError: a pair has no ``=`` or an empty key.
        """
        role, scenario, values = self.role, self.scenario, dict(self.values)
        for pair in pairs:
            key, sep, value = pair.partition("=")
            key = key.strip()
            if not sep or not key:
                raise ValueError(f"context {pair!r} is not KEY=VALUE")
            if key.startswith("session."):
                key = key[len("session.") :]
            if key == "role":
                role = value
            elif key == "scenario":
                scenario = value
            else:
                values[key] = value
        return SessionContext(role, scenario, values)


@functools.lru_cache(maxsize=256)
def _parts(path: str) -> tuple[str, ...]:
    """The keys of a context path (``session.`` dropped): read once per path, not per call."""
    parts = path.split(".")
    if parts and parts[0] == "session":
        parts = parts[1:]
    return tuple(parts)
