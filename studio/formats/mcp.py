"""MCP ``tools/list`` results.

Shape: ``{"tools": [{"name", "title"?, "description", "inputSchema", "outputSchema"?,
"annotations"?, "icons"?, "execution"?, "_meta"?}]}``, bare or as the ``result`` of a
JSON-RPC response.

Risk maps to annotations both ways (DESIGN §3):

============  ============  ===============  ======================================
risk          readOnlyHint  destructiveHint  idempotentHint
============  ============  ===============  ======================================
read          true          false            true
write         false         false            execution.idempotency.required
destructive   false         true             execution.idempotency.required
============  ============  ===============  ======================================

The annotations a server authored are kept on the contract where they say more than
the tier implies (``openWorldHint``, ``idempotentHint: false`` on a write, readOnly on
a tool also marked destructive …); the export starts from them, and the tier wins where they
contradict it (the lint rule ``consistency.annotations-contradict-risk`` says so).
``openWorldHint`` is exported only when authored: the contract does not record
whether a tool reaches systems outside the organisation, and a guess would mislead
clients (which then assume the spec default, true). ``outputSchema``, ``icons``,
``execution.taskSupport`` and ``_meta`` (opaque) round-trip; ``x-mcp-header`` on a
property is MCP's own extension (SEP-2243) and stays in the exported input schema.
"""

from __future__ import annotations

import copy
from typing import Any

from studio.contract import (
    Registry,
    RegistrySettings,
    RiskTier,
    TimeoutTier,
    ToolContract,
    join_path,
)
from studio.contract.risk import guess_risk
from studio.formats.base import ExportResult, FormatError, Note, dump_json, kind_of
from studio.formats.provider import ToolCollector, export_entries, text_field, unknown_keys
from studio.formats.provider_fields import NONE_KEPT, dropped_note
from studio.formats.schema import contract_notes, model_view

NAME = "mcp"
LABEL = "MCP tools"
_KNOWN = (
    "name",
    "title",
    "description",
    "inputSchema",
    "outputSchema",
    "annotations",
    "icons",
    "execution",
    "_meta",
)
MCP_SCHEMA_KEYS = ("x-mcp-header",)
"""``x-`` keys MCP itself defines: kept in the exported input schema."""
_RENAMES = {
    "parameters": "inputSchema",
    "output_schema": "outputSchema",
    "meta": "_meta",
    "execution.task_support": "execution.taskSupport",
}


def implied_annotations(tool: ToolContract) -> dict[str, bool]:
    """The hints the risk tier (and idempotency) of ``tool`` imply."""
    read = tool.risk is RiskTier.READ
    return {
        "readOnlyHint": read,
        "destructiveHint": tool.risk is RiskTier.DESTRUCTIVE,
        "idempotentHint": read or tool.execution.idempotency.required,
    }


def annotation_conflicts(tool: ToolContract) -> list[tuple[str, Any, bool]]:
    """``(hint, authored, implied)`` for each authored hint the risk tier contradicts."""
    implied = implied_annotations(tool)
    return [
        (key, tool.annotations[key], value)
        for key, value in implied.items()
        if key in tool.annotations and tool.annotations[key] is not value
    ]


def export_tool(
    tool: ToolContract, settings: RegistrySettings, path: str = ""
) -> tuple[dict[str, Any], list[Note]]:
    """One MCP tool definition and its loss notes."""
    description, schema, notes = model_view(tool, settings, path, keep=MCP_SCHEMA_KEYS)
    notes += contract_notes(
        tool,
        path,
        LABEL,
        settings.description_template,
        keeps_risk=True,
        keeps_title=True,
        keeps_mcp=True,
    )
    notes += dropped_note(tool, path, LABEL, NONE_KEPT)
    implied = implied_annotations(tool)
    annotations: dict[str, Any] = {}
    if tool.title:
        annotations["title"] = tool.title
    annotations.update(tool.annotations)
    for key, authored, value in annotation_conflicts(tool):
        notes.append(
            Note(
                join_path(path, "annotations", key),
                f"authored {key}={str(authored).lower()} contradicts risk tier "
                f"{tool.risk.value!r}; exported {str(value).lower()}",
                "guessed",
            )
        )
    for key, value in implied.items():
        if key not in tool.annotations or key in ("readOnlyHint", "destructiveHint"):
            annotations[key] = value
    if tool.title:
        annotations["title"] = tool.title
    if tool.risk is not RiskTier.READ:
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
    entry.update(description=description, inputSchema=schema)
    if tool.output_schema is not None:
        entry["outputSchema"] = copy.deepcopy(tool.output_schema)
    entry["annotations"] = annotations
    if tool.icons:
        entry["icons"] = copy.deepcopy(list(tool.icons))
    if tool.execution.task_support:
        entry["execution"] = {"taskSupport": tool.execution.task_support}
    if tool.meta:
        entry["_meta"] = copy.deepcopy(tool.meta)
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


def import_tools(data: Any, source: str, *, owned: bool = False) -> ToolCollector:
    """Read MCP tools, mapping annotations back to a risk tier.

    ``owned``: as for :class:`ToolCollector`.
    """
    collector = ToolCollector(_RENAMES, owned=owned)
    for path, entry in _tool_entries(data, source):
        if not isinstance(entry, dict):
            collector.problem(path, "must be an object")
            continue
        collector.add(tool_document(entry, path, collector), path)
    return collector


def tool_document(entry: dict[str, Any], path: str, collector: ToolCollector) -> dict[str, Any]:
    """The studio tool document of one MCP tool definition, noting what it guessed or lost.

    Args:
        entry: The tool as listed (wire names: ``inputSchema``, ``_meta`` …).
        path: Where it sits in the source (``tools[3]``), for notes and problems.
        collector: Receives the notes and problems.
    """
    unknown_keys(entry, _KNOWN, path, collector)
    where = join_path(path, "annotations")
    annotations = entry.get("annotations") or {}
    if not isinstance(annotations, dict):
        collector.problem(where, f"must be an object, not {kind_of(annotations)}")
        annotations = {}
    title = text_field(entry, "title", path, collector) or _text(annotations.get("title"))
    description = text_field(entry, "description", path, collector)
    name = entry.get("name")
    risk = risk_from_annotations(
        annotations, where, collector, name if isinstance(name, str) else "", description
    )
    doc: dict[str, Any] = {
        "name": name,
        "title": title,
        "description": description,
        "risk": risk.value,
    }
    if "inputSchema" in entry:
        doc["parameters"] = entry["inputSchema"]
    if entry.get("outputSchema") is not None:
        doc["output_schema"] = entry["outputSchema"]
    execution = entry.get("execution")
    if isinstance(execution, dict):
        tier = TimeoutTier.READ if risk is RiskTier.READ else TimeoutTier.WRITE
        doc["execution"] = {"timeout_tier": tier.value}
        if execution.get("taskSupport") is not None:
            doc["execution"]["task_support"] = execution["taskSupport"]
        unknown_keys(execution, ("taskSupport",), join_path(path, "execution"), collector)
    elif execution is not None:
        collector.problem(
            join_path(path, "execution"), f"must be an object, not {kind_of(execution)}"
        )
    if entry.get("icons") is not None:
        doc["icons"] = entry["icons"]
    if entry.get("_meta") is not None:
        doc["meta"] = entry["_meta"]
    kept = _authored_annotations(annotations, risk, title)
    if kept:
        doc["annotations"] = kept
    return doc


def _authored_annotations(
    annotations: dict[str, Any], risk: RiskTier, title: str
) -> dict[str, Any]:
    """The authored annotations the risk tier (and title) would not restore on export.

    Only those are kept, so an import of an export gives the same contract back.
    """
    read = risk is RiskTier.READ
    # A write imported from MCP gets an idempotency key by default (Execution.for_tier).
    implied: dict[str, Any] = {
        "readOnlyHint": read,
        "destructiveHint": risk is RiskTier.DESTRUCTIVE,
        "idempotentHint": True,
        "title": title,
    }
    return {k: v for k, v in annotations.items() if k not in implied or implied[k] != v}


def risk_from_annotations(
    annotations: dict[str, Any],
    path: str,
    collector: ToolCollector,
    name: str = "",
    description: str = "",
) -> RiskTier:
    """The risk tier the hints describe, else the verb; every guess noted.

    ``destructiveHint: true`` → destructive; ``readOnlyHint: true`` → read;
    explicit ``false`` for both → write. Anything less explicit is guessed
    from the name's verb by :func:`studio.contract.risk.guess_risk` (a hint
    explicitly false still rules its tier out), and with no known verb
    becomes write: the MCP default for a tool without hints is "may be
    destructive", but calling every unannotated tool destructive would make
    users type a confirmation phrase for trivial writes.
    """
    tier, why = guess_risk(name, description, annotations=annotations)
    if why:
        collector.note(path, why, "guessed")
    return tier


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""
