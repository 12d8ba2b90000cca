"""OpenAI Chat Completions ``tools``: ``[{"type": "function", "function": {…}}]``.

Exports are non-strict; :func:`to_openai_strict` turns a cleaned schema into
the shape strict mode demands for callers that want it.
"""

from __future__ import annotations

from typing import Any

from studio.contract import Registry, RegistrySettings, ToolContract, join_path
from studio.formats.base import ExportResult, FormatError, Note, dump_json
from studio.formats.provider import (
    ToolCollector,
    export_entries,
    text_field,
    tool_list,
    unknown_keys,
)
from studio.formats.schema import contract_notes, map_subschemas, model_view

NAME = "openai"
LABEL = "OpenAI tools"


def export_tool(
    tool: ToolContract, settings: RegistrySettings, path: str = ""
) -> tuple[dict[str, Any], list[Note]]:
    """One Chat Completions tool entry and its loss notes."""
    description, schema, notes = model_view(tool, settings, path)
    notes += contract_notes(tool, path, LABEL, settings.description_template, keeps_title=False)
    function = {"name": tool.name, "description": description, "parameters": schema}
    return {"type": "function", "function": function}, notes


def export_registry(registry: Registry) -> ExportResult:
    """The ``tools`` array of a Chat Completions request."""
    entries, notes = export_entries(registry, export_tool, LABEL)
    return ExportResult(dump_json(entries), None, notes)


def import_tools(data: Any, source: str) -> ToolCollector:
    """Read a ``tools`` array (bare, or inside a request body)."""
    collector = ToolCollector()
    for path, entry in tool_list(data, source):
        if not isinstance(entry, dict):
            collector.problem(path, "must be an object")
            continue
        if entry.get("type") != "function":
            collector.note(path, f"tool of type {entry.get('type')!r} skipped", "lost")
            continue
        function = entry.get("function")
        fpath = join_path(path, "function")
        if not isinstance(function, dict):
            collector.problem(fpath, "must be an object with name, description, parameters")
            continue
        unknown_keys(function, ("name", "description", "parameters", "strict"), fpath, collector)
        note_strict(function, fpath, collector)
        doc = {
            "name": function.get("name"),
            "description": text_field(function, "description", fpath, collector),
        }
        if "parameters" in function:
            doc["parameters"] = function["parameters"]
        collector.add(doc, fpath)
    return collector


def note_strict(entry: dict[str, Any], path: str, collector: ToolCollector) -> None:
    """Strict mode is a request option, not part of a contract: say so."""
    if entry.get("strict"):
        collector.note(
            join_path(path, "strict"),
            "strict mode not kept; the schema is kept as written (in strict mode every "
            "property is required and optional ones are nullable)",
            "lost",
        )


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
