"""OpenAI Chat Completions ``tools``: ``[{"type": "function", "function": {…}}]``.

Exports are non-strict; :func:`to_openai_strict` turns a cleaned schema into
the shape strict mode demands for callers that want it.
"""

from __future__ import annotations

from typing import Any

from studio.formats.base import FormatError, Note
from studio.formats.openai_layout import FunctionLayout
from studio.formats.schema import map_subschemas

NAME = "openai"
LABEL = "OpenAI tools"
_LAYOUT = FunctionLayout(LABEL, nested_under="function")

export_tool = _LAYOUT.export_tool
export_registry = _LAYOUT.export_registry
import_tools = _LAYOUT.import_tools


def to_openai_strict(schema: dict[str, Any]) -> tuple[dict[str, Any], list[Note]]:
    """The strict-mode form of an already cleaned parameter schema.

    Every object gets ``additionalProperties: false`` and lists all its
    properties as required; a property that was optional becomes nullable, so
    the model can still leave it out by sending null.

    Args:
        schema: A cleaned schema, e.g. from an ``openai`` export.

    Return:
        The strict schema and notes (paths relative to the schema root).

    Raises:
        FormatError: when the root is not an object schema.
    """
    if not isinstance(schema, dict) or schema.get("type") != "object":
        raise FormatError("to_openai_strict: the root must be an object schema")
    notes: list[Note] = []

    def strict(node: Any, path: str, _keyword: str = "") -> Any:
        if not isinstance(node, dict):
            return node
        out = map_subschemas(node, strict, path)
        if out.get("type") == "object" or "properties" in out:
            props = out.setdefault("properties", {})
            if out.get("additionalProperties", False) is not False:
                notes.append(Note(path, "additionalProperties replaced by false", "lost"))
            out["additionalProperties"] = False
            required = out.get("required", [])
            optional = [n for n in props if n not in required]
            for name in optional:
                props[name] = _nullable(props[name])
            if optional:
                notes.append(
                    Note(
                        path,
                        f"optional made required and nullable: {', '.join(optional)}",
                        "guessed",
                    )
                )
            out["required"] = list(props)
        return out

    return strict(schema, ""), notes


def _nullable(prop: Any) -> Any:
    """``prop`` widened to accept null, in the form strict mode understands."""
    if not isinstance(prop, dict):
        return prop
    kind = prop.get("type")
    out = dict(prop)
    if isinstance(kind, str) and kind != "null":
        out["type"] = [kind, "null"]
    elif isinstance(kind, list) and "null" not in kind:
        out["type"] = [*kind, "null"]
    elif kind is None:
        return {"anyOf": [prop, {"type": "null"}]}
    if isinstance(out.get("enum"), list) and None not in out["enum"]:
        out["enum"] = [*out["enum"], None]
    return out
