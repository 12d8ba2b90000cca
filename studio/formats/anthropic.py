"""Anthropic Messages tools: ``[{"name", "description", "input_schema", …}]``.

Beside the three core keys, a tool carries the provider options Anthropic
defines (``strict``, ``defer_loading``, ``input_examples``, ``allowed_callers``,
``eager_input_streaming``; :mod:`studio.formats.provider_fields`), and the
registry may ask for a ``cache_control`` breakpoint on the last tool so the
tools block is cached as a prompt prefix.
"""

from __future__ import annotations

from typing import Any

from studio.contract import Registry, RegistrySettings, ToolContract, join_path
from studio.contract.document import provider_settings
from studio.formats.base import ExportResult, Note, dump_json
from studio.formats.provider import (
    ToolCollector,
    export_entries,
    text_field,
    tool_list,
    unknown_keys,
)
from studio.formats.provider_fields import anthropic_fields, examples_from_input, read_options
from studio.formats.schema import contract_notes, model_view

NAME = "anthropic"
LABEL = "Anthropic tools"
# Server tools (web_search, bash …) carry a versioned "type"; client tools have none
# or "custom".
_CLIENT_TYPES = (None, "custom")
_KNOWN = (
    "type",
    "name",
    "description",
    "input_schema",
    "strict",
    "defer_loading",
    "input_examples",
    "allowed_callers",
    "eager_input_streaming",
    "cache_control",
)
_CACHE = {"type": "ephemeral"}


def export_tool(
    tool: ToolContract, settings: RegistrySettings, path: str = ""
) -> tuple[dict[str, Any], list[Note]]:
    """One Anthropic tool definition and its loss notes."""
    description, schema, notes = model_view(tool, settings, path)
    notes += contract_notes(tool, path, LABEL, settings.description_template, keeps_title=False)
    fields, field_notes = anthropic_fields(tool, schema, path)
    entry = {"name": tool.name, "description": description, "input_schema": schema, **fields}
    return entry, notes + field_notes


def export_registry(registry: Registry) -> ExportResult:
    """The ``tools`` array of a Messages request (with the cache breakpoint, if asked)."""
    entries, notes = export_entries(registry, export_tool, LABEL)
    if entries and provider_settings(registry.settings).anthropic_cache == "tools":
        entries[-1]["cache_control"] = dict(_CACHE)
    return ExportResult(dump_json(entries), None, notes)


def import_tools(data: Any, source: str, *, owned: bool = False) -> ToolCollector:
    """Read a Messages ``tools`` array (bare, or inside a request body).

    ``owned``: as for :class:`ToolCollector`.
    """
    collector = ToolCollector({"parameters": "input_schema"}, owned=owned)
    for path, entry in tool_list(data, source):
        if not isinstance(entry, dict):
            collector.problem(path, "must be an object")
            continue
        if entry.get("type") not in _CLIENT_TYPES:
            collector.note(path, f"server tool of type {entry.get('type')!r} skipped", "lost")
            continue
        unknown_keys(entry, _KNOWN, path, collector)
        doc: dict[str, Any] = {
            "name": entry.get("name"),
            "description": text_field(entry, "description", path, collector),
        }
        if "input_schema" in entry:
            doc["parameters"] = entry["input_schema"]
        if (options := read_options(entry, path, collector, provider="anthropic")) is not None:
            doc["provider"] = options
        if examples := examples_from_input(entry):
            doc["examples"] = examples
        if "cache_control" in entry:
            _read_cache(entry["cache_control"], join_path(path, "cache_control"), collector)
        collector.add(doc, path)
    return collector


def _read_cache(value: Any, path: str, collector: ToolCollector) -> None:
    """A breakpoint on a tool: kept as the registry's "cache the tools block" setting."""
    if not isinstance(value, dict) or value.get("type") != "ephemeral":
        collector.note(path, 'cache_control not kept: only {"type": "ephemeral"} is', "lost")
        return
    if set(value) - {"type"}:
        collector.note(
            path, f"cache_control keys not kept: {', '.join(sorted(set(value) - {'type'}))}", "lost"
        )
    collector.settings_extra.setdefault("provider", {})["anthropic"] = {"cache_control": "tools"}
