"""Anthropic Messages tools: ``[{"name", "description", "input_schema"}]``."""

from __future__ import annotations

from typing import Any

from studio.contract import Registry, RegistrySettings, ToolContract
from studio.formats.base import ExportResult, Note, dump_json
from studio.formats.provider import (
    ToolCollector,
    export_entries,
    text_field,
    tool_list,
    unknown_keys,
)
from studio.formats.schema import contract_notes, model_view

NAME = "anthropic"
LABEL = "Anthropic tools"
# Server tools (web_search, bash …) carry a versioned "type"; client tools have none
# or "custom".
_CLIENT_TYPES = (None, "custom")
_KNOWN = ("type", "name", "description", "input_schema")


def export_tool(
    tool: ToolContract, settings: RegistrySettings, path: str = ""
) -> tuple[dict[str, Any], list[Note]]:
    """One Anthropic tool definition and its loss notes."""
    description, schema, notes = model_view(tool, settings, path)
    notes += contract_notes(tool, path, LABEL, settings.description_template, keeps_title=False)
    return {"name": tool.name, "description": description, "input_schema": schema}, notes


def export_registry(registry: Registry) -> ExportResult:
    """The ``tools`` array of a Messages request."""
    entries, notes = export_entries(registry, export_tool, LABEL)
    return ExportResult(dump_json(entries), None, notes)


def import_tools(data: Any, source: str) -> ToolCollector:
    """Read a Messages ``tools`` array (bare, or inside a request body)."""
    collector = ToolCollector({"parameters": "input_schema"})
    for path, entry in tool_list(data, source):
        if not isinstance(entry, dict):
            collector.problem(path, "must be an object")
            continue
        if entry.get("type") not in _CLIENT_TYPES:
            collector.note(path, f"server tool of type {entry.get('type')!r} skipped", "lost")
            continue
        unknown_keys(entry, _KNOWN, path, collector)
        doc = {
            "name": entry.get("name"),
            "description": text_field(entry, "description", path, collector),
        }
        if "input_schema" in entry:
            doc["parameters"] = entry["input_schema"]
        collector.add(doc, path)
    return collector
