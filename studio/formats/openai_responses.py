"""OpenAI Responses API tools: ``[{"type": "function", "name", "description", "parameters"}]``."""

from __future__ import annotations

from typing import Any

from studio.contract import Registry, RegistrySettings, ToolContract
from studio.formats.base import ExportResult, Note, dump_json
from studio.formats.openai import note_strict
from studio.formats.provider import (
    ToolCollector,
    export_entries,
    text_field,
    tool_list,
    unknown_keys,
)
from studio.formats.schema import contract_notes, model_view

NAME = "openai-responses"
LABEL = "OpenAI Responses tools"
_KNOWN = ("type", "name", "description", "parameters", "strict")


def export_tool(
    tool: ToolContract, settings: RegistrySettings, path: str = ""
) -> tuple[dict[str, Any], list[Note]]:
    """One Responses API function tool and its loss notes."""
    description, schema, notes = model_view(tool, settings, path)
    notes += contract_notes(tool, path, LABEL, settings.description_template, keeps_title=False)
    entry = {
        "type": "function",
        "name": tool.name,
        "description": description,
        "parameters": schema,
    }
    return entry, notes


def export_registry(registry: Registry) -> ExportResult:
    """The ``tools`` array of a Responses API request."""
    entries, notes = export_entries(registry, export_tool, LABEL)
    return ExportResult(dump_json(entries), None, notes)


def import_tools(data: Any, source: str) -> ToolCollector:
    """Read a Responses ``tools`` array; built-in tools (web search …) are skipped."""
    collector = ToolCollector()
    for path, entry in tool_list(data, source):
        if not isinstance(entry, dict):
            collector.problem(path, "must be an object")
            continue
        if entry.get("type") != "function":
            collector.note(path, f"tool of type {entry.get('type')!r} skipped", "lost")
            continue
        unknown_keys(entry, _KNOWN, path, collector)
        note_strict(entry, path, collector)
        doc = {
            "name": entry.get("name"),
            "description": text_field(entry, "description", path, collector),
        }
        if "parameters" in entry:
            doc["parameters"] = entry["parameters"]
        collector.add(doc, path)
    return collector
