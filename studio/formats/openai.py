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


def from_openai_strict(schema: dict[str, Any]) -> dict[str, Any]:
    """A strict-mode schema back to the contract's form: nullable properties optional again.

    Strict mode makes every property required and an optional one nullable; the
    reverse treats a nullable property of a strict object as optional and not
    null. ``additionalProperties: false`` stays (the strict export sets it anyway).
    Exporting the result strict again gives the same schema.
    """

    def loosen(node: Any, path: str, _keyword: str = "") -> Any:
        if not isinstance(node, dict):
            return node
        out = map_subschemas(node, loosen, path)
        props = out.get("properties")
        required = out.get("required")
        if (
            isinstance(props, dict)
            and isinstance(required, list)
            and out.get("additionalProperties") is False
        ):
            optional = [n for n in required if n in props and _is_nullable(props[n])]
            for name in optional:
                props[name] = _without_null(props[name])
            out["required"] = [n for n in required if n not in optional]
            if not out["required"]:
                del out["required"]
        return out

    result: dict[str, Any] = loosen(schema, "")
    return result


def _is_nullable(prop: Any) -> bool:
    if not isinstance(prop, dict):
        return False
    kind = prop.get("type")
    if isinstance(kind, list) and "null" in kind and len(kind) > 1:
        return True
    branches = prop.get("anyOf")
    return (
        isinstance(branches, list)
        and len(branches) == 2
        and {"type": "null"} in branches
        and len(prop) == 1
    )


def _without_null(prop: dict[str, Any]) -> Any:
    """The inverse of :func:`_nullable`."""
    if isinstance(prop.get("anyOf"), list) and len(prop) == 1:
        return next(b for b in prop["anyOf"] if b != {"type": "null"})
    out = dict(prop)
    kinds = [k for k in prop["type"] if k != "null"]
    out["type"] = kinds[0] if len(kinds) == 1 else kinds
    if isinstance(out.get("enum"), list):
        out["enum"] = [v for v in out["enum"] if v is not None]
    return out


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
