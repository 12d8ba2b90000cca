"""Lossless type coercion of tool arguments (DESIGN §5, step 4).

A value is changed only when the change loses nothing: ``"3"`` becomes ``3``
for an integer, but ``"3.5"`` stays a string for an integer and fails
validation. Each change is reported as a note ``(path, before, after)``.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

_INT = re.compile(r"^\s*-?\d+\s*$")
_NUMBER = re.compile(r"^\s*-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$")

Note = tuple[str, Any, Any]


def _types(schema: dict[str, Any]) -> list[str]:
    t = schema.get("type")
    if isinstance(t, str):
        return [t]
    if isinstance(t, list):
        return [x for x in t if isinstance(x, str)]
    return []


def matches_type(value: Any, type_: str) -> bool:
    """JSON Schema type test (bool is not a number; 3.0 is an integer)."""
    if type_ == "null":
        return value is None
    if type_ == "boolean":
        return isinstance(value, bool)
    if type_ == "integer":
        return (isinstance(value, int) and not isinstance(value, bool)) or (
            isinstance(value, float) and value.is_integer()
        )
    if type_ == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    if type_ == "string":
        return isinstance(value, str)
    if type_ == "array":
        return isinstance(value, list)
    if type_ == "object":
        return isinstance(value, dict)
    return True


_FAIL = object()


def _convert(value: Any, type_: str, schema: dict[str, Any]) -> Any:
    """``value`` converted to ``type_`` without loss, or ``_FAIL``."""
    if type_ == "integer":
        if isinstance(value, str) and _INT.match(value):
            return int(value)
        if isinstance(value, float) and value.is_integer():
            return int(value)
    elif type_ == "number":
        if isinstance(value, str) and _NUMBER.match(value):
            number = float(value)
            if math.isfinite(number):
                return int(value) if _INT.match(value) else number
    elif type_ == "boolean":
        if isinstance(value, str) and value.strip().lower() in ("true", "false"):
            return value.strip().lower() == "true"
    elif type_ == "string":
        if isinstance(value, list) and len(value) == 1 and isinstance(value[0], str):
            return value[0]
        if isinstance(value, int | float) and not isinstance(value, bool):
            return json.dumps(value)
    elif type_ == "array":
        if isinstance(value, str) and value.lstrip().startswith("["):
            try:
                parsed = json.loads(value)
            except ValueError:
                parsed = None
            if isinstance(parsed, list):
                return parsed
        if not isinstance(value, list | dict) and value is not None:
            return [value]
    elif type_ == "object" and isinstance(value, str) and value.lstrip().startswith("{"):
        try:
            parsed = json.loads(value)
        except ValueError:
            return _FAIL
        if isinstance(parsed, dict):
            return parsed
    return _FAIL


def coerce(value: Any, schema: Any, path: str, notes: list[Note]) -> Any:
    """``value`` coerced (recursively) to ``schema`` where lossless; changes go to ``notes``."""
    if not isinstance(schema, dict):
        return value
    types = _types(schema)
    if types and not any(matches_type(value, t) for t in types):
        for type_ in types:
            converted = _convert(value, type_, schema)
            if converted is not _FAIL:
                notes.append((path, value, converted))
                value = converted
                break
    if isinstance(value, dict):
        props = schema.get("properties")
        if isinstance(props, dict):
            for key in list(value):
                if key in props:
                    value[key] = coerce(value[key], props[key], f"{path}.{key}", notes)
    elif isinstance(value, list) and isinstance(schema.get("items"), dict):
        items = schema["items"]
        for i, item in enumerate(value):
            value[i] = coerce(item, items, f"{path}[{i}]", notes)
    return value


class CoercePlan:
    """What :func:`coerce` reads from one schema node, read once per tool.

    A tool's schema does not change between calls, so its types and its
    sub-schemas are looked up once; :func:`coerce_planned` then does what
    :func:`coerce` does without the dictionary lookups. Sub-schemas that are not
    objects are left out (``coerce`` returns their values unchanged).
    """

    __slots__ = ("exact", "items", "leaf", "props", "types")

    def __init__(self, schema: dict[str, Any], depth: int = 0) -> None:
        if depth > 200:
            raise RecursionError("schema too deep to plan")
        self.types = tuple(_types(schema))
        # Python types that surely match one of the types (the common case, one test);
        # others (3.0 for an integer, subclasses) go through matches_type.
        self.exact = frozenset(t for name in self.types for t in _EXACT.get(name, ()))
        props = schema.get("properties")
        self.props: dict[str, CoercePlan] | None = None
        if isinstance(props, dict):
            self.props = {
                name: CoercePlan(sub, depth + 1)
                for name, sub in props.items()
                if isinstance(sub, dict)
            }
        items = schema.get("items")
        self.items = CoercePlan(items, depth + 1) if isinstance(items, dict) else None
        self.leaf = self.props is None and self.items is None

    @classmethod
    def of(cls, schema: Any) -> CoercePlan | None:
        """The plan of ``schema``; None when it is not an object or is too deep to plan."""
        if not isinstance(schema, dict):
            return None
        try:
            return cls(schema)
        except RecursionError:
            return None


_EXACT: dict[str, tuple[type, ...]] = {
    "null": (type(None),),
    "boolean": (bool,),
    "integer": (int,),
    "number": (int, float),
    "string": (str,),
    "array": (list,),
    "object": (dict,),
}


def coerce_planned(value: Any, plan: CoercePlan, path: str, notes: list[Note]) -> Any:
    """:func:`coerce` on a planned schema: the same changes, the same notes."""
    types = plan.types
    if types and type(value) not in plan.exact and not any(matches_type(value, t) for t in types):
        for type_ in types:
            converted = _convert(value, type_, {})
            if converted is not _FAIL:
                notes.append((path, value, converted))
                value = converted
                break
    if isinstance(value, dict):
        props = plan.props
        if props is not None:
            for key in list(value):
                sub = props.get(key)
                if sub is None:
                    continue
                item = value[key]
                if sub.leaf and (not sub.types or type(item) in sub.exact):
                    continue  # a leaf whose value already has its type: nothing to do
                value[key] = coerce_planned(item, sub, f"{path}.{key}", notes)
    elif isinstance(value, list):
        items = plan.items
        if items is not None:
            for i, item in enumerate(value):
                value[i] = coerce_planned(item, items, f"{path}[{i}]", notes)
    return value
