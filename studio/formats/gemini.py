"""Gemini ``{"functionDeclarations": [{"name", "description", "parameters"}]}``.

Gemini's ``parameters`` take a subset of OpenAPI 3.0 schemas, not JSON Schema:
no ``additionalProperties``, ``const``, ``oneOf``/``allOf``/``not``, ``$ref``;
``enum`` only for strings; null is spelled ``nullable: true``. The export
converts what has an equivalent and drops the rest with a note; the import
does the reverse conversion (``STRING`` → ``string``, ``nullable`` → a type list).
"""

from __future__ import annotations

import re
from typing import Any

from studio.contract import Registry, RegistrySettings, ToolContract, join_path
from studio.contract.document import provider_settings
from studio.contract.provider_options import GEMINI_MODES
from studio.formats.base import ExportResult, FormatError, Note, dump_json, kind_of
from studio.formats.provider import ToolCollector, export_entries, text_field, unknown_keys
from studio.formats.provider_fields import NONE_KEPT, dropped_note
from studio.formats.schema import contract_notes, model_view

NAME = "gemini"
LABEL = "Gemini function declarations"

# The OpenAPI 3.0 subset Gemini's Schema object accepts.
_SUPPORTED = frozenset(
    {
        "type",
        "format",
        "description",
        "nullable",
        "enum",
        "items",
        "properties",
        "required",
        "minItems",
        "maxItems",
        "minimum",
        "maximum",
        "minLength",
        "maxLength",
        "pattern",
        "anyOf",
        "default",
        "title",
        "minProperties",
        "maxProperties",
        "propertyOrdering",
        "example",
    }
)
_GEMINI_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$")
_GEMINI_PARAM = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")
_DECL_KEYS = ("name", "description", "parameters", "parametersJsonSchema")


def to_gemini_schema(node: Any, path: str, lost: dict[str, list[str]], changed: list[str]) -> Any:
    """Convert a cleaned JSON Schema to Gemini's subset.

    Args:
        node: The schema (or subschema).
        path: Its JSON path, for the record.
        lost: Filled with dropped keyword → paths.
        changed: Filled with descriptions of conversions made.
    """
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "type" and isinstance(value, list):
            kinds = [k for k in value if k != "null"]
            if len(kinds) < len(value):
                out["nullable"] = True
            if len(kinds) == 1:
                out["type"] = kinds[0]
            elif kinds:
                out["anyOf"] = [{"type": k} for k in kinds]
                changed.append(f"{path}: type list became anyOf")
        elif key == "const" and isinstance(value, str):
            out["enum"] = [value]
            out.setdefault("type", "string")  # Gemini enums belong to strings
            changed.append(f"{path}: const became a one-value enum")
        elif key == "enum" and isinstance(value, list):
            values = [v for v in value if v is not None]
            if len(values) < len(value):
                out["nullable"] = True
            if all(isinstance(v, str) for v in values):
                out["enum"] = values
            else:
                lost.setdefault("non-string enum", []).append(path)
        elif key == "properties" and isinstance(value, dict):
            out[key] = {
                n: to_gemini_schema(s, join_path(path, key, n), lost, changed)
                for n, s in value.items()
            }
        elif key == "items" and isinstance(value, dict):
            out[key] = to_gemini_schema(value, join_path(path, key), lost, changed)
        elif key == "anyOf" and isinstance(value, list):
            out[key] = [
                to_gemini_schema(s, join_path(path, key, i), lost, changed)
                for i, s in enumerate(value)
            ]
        elif key in _SUPPORTED:
            out[key] = value
        else:
            lost.setdefault(key, []).append(path)
    return out


def export_tool(
    tool: ToolContract, settings: RegistrySettings, path: str = ""
) -> tuple[dict[str, Any], list[Note]]:
    """One function declaration and its loss notes."""
    description, schema, notes = model_view(tool, settings, path)
    notes += contract_notes(tool, path, LABEL, settings.description_template, keeps_title=False)
    where = join_path(path, "parameters")
    lost: dict[str, list[str]] = {}
    changed: list[str] = []
    converted = to_gemini_schema(schema, where, lost, changed)
    if lost:
        what = "; ".join(f"{k} (at {', '.join(v)})" for k, v in sorted(lost.items()))
        notes.append(Note(where, f"Gemini schemas cannot express, dropped: {what}", "lost"))
    if changed:
        notes.append(Note(where, "converted for Gemini: " + "; ".join(changed), "guessed"))
    bad = sorted(_bad_param_names(converted))
    if bad:
        notes.append(
            Note(
                where,
                "Gemini may reject these parameter names (ASCII letters, digits, _ only): "
                + ", ".join(bad),
                "info",
            )
        )
    if not _GEMINI_NAME.fullmatch(tool.name):
        notes.append(Note(path, "Gemini names must start with a letter or underscore", "info"))
    notes += dropped_note(tool, path, LABEL, NONE_KEPT)
    return {"name": tool.name, "description": description, "parameters": converted}, notes


def _bad_param_names(schema: Any) -> set[str]:
    if not isinstance(schema, dict):
        return set()
    bad: set[str] = set()
    props = schema.get("properties")
    if isinstance(props, dict):
        bad.update(n for n in props if not _GEMINI_PARAM.fullmatch(n))
        for sub in props.values():
            bad |= _bad_param_names(sub)
    bad |= _bad_param_names(schema.get("items"))
    return bad


def export_registry(registry: Registry) -> ExportResult:
    """A Gemini ``Tool`` object holding every declaration."""
    entries, notes = export_entries(registry, export_tool, LABEL)
    mode = provider_settings(registry.settings).gemini.mode
    if not mode:
        return ExportResult(dump_json({"functionDeclarations": entries}), None, notes)
    # A calling mode is a request option: the export becomes the request's tools part.
    request = {
        "tools": [{"functionDeclarations": entries}],
        "toolConfig": {"functionCallingConfig": {"mode": mode}},
    }
    return ExportResult(dump_json(request), None, notes)


def from_gemini_schema(node: Any) -> Any:
    """Gemini's schema subset back to JSON Schema (exact where Gemini has a spelling)."""
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "type" and isinstance(value, str):
            out[key] = value.lower()
        elif key == "format" and value == "enum":
            continue  # Gemini's marker for string enums; JSON Schema needs none
        elif key == "nullable":
            continue  # folded into "type" below
        elif key == "properties" and isinstance(value, dict):
            out[key] = {n: from_gemini_schema(s) for n, s in value.items()}
        elif key == "items":
            out[key] = from_gemini_schema(value)
        elif key == "anyOf" and isinstance(value, list):
            out[key] = [from_gemini_schema(s) for s in value]
        else:
            out[key] = value
    if node.get("nullable") is True and isinstance(out.get("type"), str):
        out["type"] = [out["type"], "null"]
        if isinstance(out.get("enum"), list):
            out["enum"] = [*out["enum"], None]
    return out


def _declarations(data: Any, source: str, collector: ToolCollector) -> list[tuple[str, Any]]:
    """``(path, declaration)`` from any of the shapes Gemini tools come in."""

    def decls(obj: dict[str, Any], base: str) -> list[tuple[str, Any]] | None:
        for key in ("functionDeclarations", "function_declarations"):
            if isinstance(obj.get(key), list):
                where = join_path(base, key)
                return [(f"{where}[{i}]", d) for i, d in enumerate(obj[key])]
        return None

    if isinstance(data, dict) and (found := decls(data, "")) is not None:
        return found
    tools = data.get("tools") if isinstance(data, dict) else data
    base = "tools"
    if not isinstance(tools, list):
        if isinstance(data, dict):
            for key in ("functionDeclarations", "function_declarations", "tools"):
                if key in data:
                    raise FormatError(
                        f"{source}: {key}: must be an array, not {kind_of(data[key])}"
                    )
        raise FormatError(f"{source}: expected functionDeclarations, a list of them, or tools")
    out: list[tuple[str, Any]] = []
    for i, item in enumerate(tools):
        path = f"{base}[{i}]"
        if isinstance(item, dict) and (found := decls(item, path)) is not None:
            out.extend(found)
        elif isinstance(item, dict) and "name" in item:
            out.append((path, item))  # a bare list of declarations
        else:
            collector.note(path, "not a function declaration; skipped", "lost")
    return out


def import_tools(data: Any, source: str, *, owned: bool = False) -> ToolCollector:
    """Read Gemini function declarations.

    ``owned``: as for :class:`ToolCollector`.
    """
    collector = ToolCollector(owned=owned)
    _read_tool_config(data, collector)
    for path, decl in _declarations(data, source, collector):
        if not isinstance(decl, dict):
            collector.problem(path, "must be an object")
            continue
        unknown_keys(decl, _DECL_KEYS, path, collector)
        doc = {
            "name": decl.get("name"),
            "description": text_field(decl, "description", path, collector),
        }
        # Problems must name the key this declaration really used.
        collector.renames = {}
        if "parametersJsonSchema" in decl:
            doc["parameters"] = decl["parametersJsonSchema"]
            collector.renames = {"parameters": "parametersJsonSchema"}
        elif "parameters" in decl:
            doc["parameters"] = from_gemini_schema(decl["parameters"])
        collector.add(doc, path)
    return collector


def _read_tool_config(data: Any, collector: ToolCollector) -> None:
    """A request's ``toolConfig.functionCallingConfig.mode``, kept as the registry's setting."""
    if not isinstance(data, dict):
        return
    config = data.get("toolConfig", data.get("tool_config"))
    calling = config.get("functionCallingConfig") if isinstance(config, dict) else None
    if not isinstance(calling, dict):
        return
    mode = calling.get("mode")
    if isinstance(mode, str) and mode.upper() in GEMINI_MODES:
        collector.settings_extra.setdefault("provider", {})["gemini"] = {"mode": mode.upper()}
    elif mode is not None:
        collector.note("toolConfig.functionCallingConfig.mode", f"mode {mode!r} not kept", "lost")
    if "allowedFunctionNames" in calling:
        collector.note(
            "toolConfig.functionCallingConfig.allowedFunctionNames",
            "allowed function names not kept: they are chosen per audience at export",
            "lost",
        )
