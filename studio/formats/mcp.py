"""MCP ``tools/list`` results.

Shape: ``{"tools": [{"name", "title"?, "description", "inputSchema", "annotations"}]}``,
bare or as the ``result`` of a JSON-RPC response.

Risk maps to annotations both ways (DESIGN §3):

============  ============  ===============  ======================================
risk          readOnlyHint  destructiveHint  idempotentHint
============  ============  ===============  ======================================
read          true          false            true
write         false         false            execution.idempotency.required
destructive   false         true             execution.idempotency.required
============  ============  ===============  ======================================

``openWorldHint`` is left out: the contract does not record whether a tool
reaches systems outside the organisation, and a guess would mislead clients
(which then assume the spec default, true).
"""

from __future__ import annotations

from typing import Any

from studio.contract import Registry, RegistrySettings, RiskTier, ToolContract, join_path
from studio.formats.base import ExportResult, FormatError, Note, dump_json, kind_of
from studio.formats.provider import ToolCollector, export_entries, text_field, unknown_keys
from studio.formats.schema import contract_notes, model_view

NAME = "mcp"
LABEL = "MCP tools"
_KNOWN = ("name", "title", "description", "inputSchema", "annotations")


def export_tool(
    tool: ToolContract, settings: RegistrySettings, path: str = ""
) -> tuple[dict[str, Any], list[Note]]:
    """One MCP tool definition and its loss notes."""
    description, schema, notes = model_view(tool, settings, path)
    notes += contract_notes(
        tool, path, LABEL, settings.description_template, keeps_risk=True, keeps_title=True
    )
    read = tool.risk is RiskTier.READ
    annotations: dict[str, Any] = {}
    if tool.title:
        annotations["title"] = tool.title
    annotations["readOnlyHint"] = read
    annotations["destructiveHint"] = tool.risk is RiskTier.DESTRUCTIVE
    annotations["idempotentHint"] = read or tool.execution.idempotency.required
    if not read:
        notes.append(
            Note(
                path,
                f"risk tier {tool.risk.value!r} kept only as MCP annotations "
                f"readOnlyHint=false, destructiveHint={str(annotations['destructiveHint']).lower()}"
                " (hints; clients need not ask for confirmation)",
                "lost",
            )
        )
    entry: dict[str, Any] = {"name": tool.name}
    if tool.title:
        entry["title"] = tool.title
    entry.update(description=description, inputSchema=schema, annotations=annotations)
    return entry, notes


def export_registry(registry: Registry) -> ExportResult:
    """A ``tools/list`` result."""
    entries, notes = export_entries(registry, export_tool, LABEL)
    notes.append(
        Note(
            "",
            "openWorldHint not set: the contract does not say whether a tool reaches "
            "outside systems, so clients assume the MCP default (true)",
            "info",
        )
    )
    return ExportResult(dump_json({"tools": entries}), None, notes)


def _tool_entries(data: Any, source: str) -> list[tuple[str, Any]]:
    """``(path, entry)`` from a tools/list result, bare or in a JSON-RPC response."""
    base = ""
    if isinstance(data, dict) and "jsonrpc" in data:
        if "error" in data:
            raise FormatError(
                f"{source}: error: the JSON-RPC response is an error, not a tools list"
            )
        data = data.get("result")
        base = "result"
    tools = data.get("tools") if isinstance(data, dict) else data
    key = join_path(base, "tools")
    if not isinstance(tools, list):
        raise FormatError(f"{source}: {key}: expected an array of tools, not {kind_of(tools)}")
    return [(f"{key}[{i}]", entry) for i, entry in enumerate(tools)]


def import_tools(data: Any, source: str) -> ToolCollector:
    """Read MCP tools, mapping annotations back to a risk tier."""
    collector = ToolCollector({"parameters": "inputSchema"})
    for path, entry in _tool_entries(data, source):
        if not isinstance(entry, dict):
            collector.problem(path, "must be an object")
            continue
        unknown_keys(entry, _KNOWN, path, collector)
        annotations = entry.get("annotations") or {}
        if not isinstance(annotations, dict):
            collector.problem(
                join_path(path, "annotations"), f"must be an object, not {kind_of(annotations)}"
            )
            annotations = {}
        title = text_field(entry, "title", path, collector) or _text(annotations.get("title"))
        doc = {
            "name": entry.get("name"),
            "title": title,
            "description": text_field(entry, "description", path, collector),
            "risk": risk_from_annotations(
                annotations, join_path(path, "annotations"), collector
            ).value,
        }
        _note_other_hints(annotations, join_path(path, "annotations"), collector)
        if "inputSchema" in entry:
            doc["parameters"] = entry["inputSchema"]
        collector.add(doc, path)
    return collector


def risk_from_annotations(
    annotations: dict[str, Any], path: str, collector: ToolCollector
) -> RiskTier:
    """The risk tier the hints describe, noting every guess.

    ``destructiveHint: true`` → destructive; ``readOnlyHint: true`` → read;
    explicit ``false`` for both → write. Anything less explicit becomes write,
    noted as guessed: the MCP default for a tool without hints is "may be
    destructive", but calling every unannotated tool destructive would make
    users type a confirmation phrase for trivial writes.
    """
    read_only = annotations.get("readOnlyHint")
    destructive = annotations.get("destructiveHint")
    if destructive is True:
        if read_only is True:
            collector.note(
                path, "readOnlyHint and destructiveHint both true; took destructive", "guessed"
            )
        return RiskTier.DESTRUCTIVE
    if read_only is True:
        return RiskTier.READ
    if read_only is False and destructive is False:
        return RiskTier.WRITE
    collector.note(
        path,
        "risk tier 'write' guessed: no readOnlyHint/destructiveHint says read or destructive",
        "guessed",
    )
    return RiskTier.WRITE


def _note_other_hints(annotations: dict[str, Any], path: str, collector: ToolCollector) -> None:
    """Hints with no contract field; silent when the tier defaults say the same."""
    lost = []
    if annotations.get("idempotentHint") is False and annotations.get("readOnlyHint") is not True:
        lost.append("idempotentHint=false (writes get an idempotency key by default)")
    if "openWorldHint" in annotations:
        lost.append(f"openWorldHint={str(annotations['openWorldHint']).lower()}")
    if lost:
        collector.note(path, f"not kept: {', '.join(lost)}", "lost")


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""
