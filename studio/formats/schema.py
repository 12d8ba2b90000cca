"""What a model sees of a tool: the rendered description and a cleaned schema.

Every provider export goes through :func:`model_view`, so the rules of DESIGN §3
hold in one place: ``x-`` keys are stripped everywhere, ``x-injected`` properties
are removed (also from ``required``) and the root is a provider-valid object.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable
from typing import Any

from studio.contract import (
    Execution,
    RegistrySettings,
    RiskTier,
    TimeoutTier,
    ToolContract,
    join_path,
    render_description,
)
from studio.contract.model import injected_fields
from studio.formats.base import Note

JSONDict = dict[str, Any]

# Keywords whose value maps names to subschemas: the names are data, never stripped.
SCHEMA_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
SCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
SCHEMA_SINGLES = (
    "items",
    "additionalProperties",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedProperties",
    "unevaluatedItems",
)


def map_subschemas(node: JSONDict, fn: Callable[[Any, str, str], Any], path: str) -> JSONDict:
    """Copy ``node`` with ``fn(subschema, path, keyword)`` applied to each direct subschema.

    Values of other keywords (``enum``, ``default``, ``const`` …) are copied
    untouched: they are data, not schemas.
    """
    out: JSONDict = {}
    for key, value in node.items():
        if key in SCHEMA_MAPS and isinstance(value, dict):
            out[key] = {n: fn(s, join_path(path, key, n), key) for n, s in value.items()}
        elif key in SCHEMA_LISTS and isinstance(value, list):
            out[key] = [fn(s, join_path(path, key, i), key) for i, s in enumerate(value)]
        elif key in SCHEMA_SINGLES and isinstance(value, dict):
            out[key] = fn(value, join_path(path, key), key)
        else:
            out[key] = copy.deepcopy(value)
    return out


def clean_schema(
    schema: JSONDict, path: str = "parameters", keep: tuple[str, ...] = ()
) -> tuple[JSONDict, dict[str, list[str]]]:
    """Strip ``x-`` keys and remove injected properties, recording what went.

    Args:
        schema: A tool's ``parameters``.
        path: JSON path of ``schema``, used in the returned record.
        keep: ``x-`` keys the target format defines itself (MCP's ``x-mcp-header``),
            kept where they are.

    Return:
        The cleaned copy, and a record ``{"x-injected": [property paths], "x-aliases":
        […], …}`` of every extension key found, by key.
    """
    found: dict[str, list[str]] = {}
    # The runtime's definition of injected (any depth), so exports hide exactly what it fills.
    hidden = {f.json_path for f in injected_fields(schema, path)}

    def clean(node: Any, where: str, _keyword: str = "") -> Any:
        if not isinstance(node, dict):
            return copy.deepcopy(node)
        props = node.get("properties")
        if not isinstance(props, dict):
            props = {}
        injected = (
            {n for n in props if join_path(where, "properties", n) in hidden} if hidden else set()
        )
        kept = {k: v for k, v in node.items() if not k.startswith("x-") or k in keep}
        for key in node:
            if key.startswith("x-") and key not in keep:
                found.setdefault(key, []).append(where)
        if injected:
            for name in props:
                if name in injected:
                    found.setdefault("x-injected", []).append(join_path(where, "properties", name))
            kept["properties"] = {n: s for n, s in props.items() if n not in injected}
            required = node.get("required")
            if isinstance(required, list):
                rest = [r for r in required if r not in injected]
                if rest:
                    kept["required"] = rest
                else:
                    kept.pop("required")
        return map_subschemas(kept, clean, where)

    cleaned = clean(schema, path)
    cleaned.setdefault("type", "object")
    cleaned.setdefault("properties", {})
    return cleaned, found


def _names(paths: list[str]) -> str:
    return ", ".join(p.rsplit(".", 1)[-1] for p in paths)


def extension_notes(found: dict[str, list[str]], tool_path: str) -> list[Note]:
    """One note per kind of extension dropped from a tool's schema."""
    where = join_path(tool_path, "parameters")
    notes = []
    if "x-injected" in found:
        notes.append(
            Note(
                where,
                f"injected properties removed ({_names(found['x-injected'])}): "
                "the runtime fills them from the session, the model never sees them",
                "lost",
            )
        )
    # x-injected also appears as a key of the removed properties; it is covered above.
    described = {"x-injected", "x-aliases", "x-enum-aliases"}
    if "x-aliases" in found:
        notes.append(
            Note(where, f"parameter aliases dropped (on {_names(found['x-aliases'])})", "lost")
        )
    if "x-enum-aliases" in found:
        on = _names(found["x-enum-aliases"])
        notes.append(Note(where, f"enum value aliases dropped (on {on})", "lost"))
    others = sorted(k for k in found if k not in described)
    if others:
        notes.append(Note(where, f"extension keys dropped: {', '.join(others)}", "lost"))
    return notes


def model_view(
    tool: ToolContract, settings: RegistrySettings, tool_path: str, keep: tuple[str, ...] = ()
) -> tuple[str, JSONDict, list[Note]]:
    """The rendered description and cleaned schema a model sees, with loss notes.

    ``keep`` names ``x-`` keys the target format defines (see :func:`clean_schema`).
    """
    description = render_description(tool, settings.description_template)
    schema, found = clean_schema(tool.parameters, join_path(tool_path, "parameters"), keep)
    return description, schema, extension_notes(found, tool_path)


def contract_notes(
    tool: ToolContract,
    tool_path: str,
    fmt: str,
    template: str,
    *,
    keeps_risk: bool = False,
    keeps_title: bool,
    keeps_mcp: bool = False,
    keeps_output_schema: bool = False,
) -> list[Note]:
    """Notes for contract fields a provider format cannot carry.

    Only what an import of the export would not restore is reported: a
    ``read`` tool with house defaults loses nothing worth a note.

    Args:
        tool: The tool exported.
        tool_path: Its path in the registry (``tools[3]``), or "" for one tool.
        fmt: Display name of the format, for messages.
        template: The registry's description template.
        keeps_risk: The format maps risk itself (MCP annotations).
        keeps_title: The format has a title field.
        keeps_mcp: The format carries the MCP fields (output schema, icons,
            annotations, ``_meta``, task support).
        keeps_output_schema: The format carries the output schema (OpenAI Responses).
    """
    notes = []
    if tool.risk is not RiskTier.READ and not keeps_risk:
        notes.append(Note(tool_path, f"risk tier {tool.risk.value!r} not representable", "lost"))
    tier = TimeoutTier.READ
    if keeps_risk and tool.risk is not RiskTier.READ:
        tier = TimeoutTier.WRITE
    lost = []
    if dataclasses.replace(tool.execution, task_support="") != Execution.for_tier(tier):
        ex = tool.execution
        lost.append(f"timeout {ex.timeout_seconds:g} s ({ex.timeout_tier.value} tier)")
        lost.append(f"{ex.retry.max_attempts} attempt(s)")
        if ex.idempotency.required:
            lost.append("idempotency key required")
        if ex.fallback:
            lost.append(f"soft fallback ({ex.fallback})")
    if tool.permissions:
        lost.append(f"{len(tool.permissions)} permission(s)")
    if tool.title and not keeps_title:
        lost.append("title")
    if tool.tags:
        lost.append("tags")
    if tool.domain:
        lost.append("domain")
    if tool.deprecated is not None:
        lost.append("deprecation")
    if not keeps_mcp:
        if tool.output_schema is not None and not keeps_output_schema:
            lost.append("output schema")
        if tool.icons:
            lost.append("icons")
        if tool.annotations:
            lost.append("MCP annotations")
        if tool.meta:
            lost.append("_meta")
        if tool.execution.task_support:
            lost.append("task support")
    if lost:
        notes.append(Note(tool_path, f"not representable in {fmt}: {', '.join(lost)}", "lost"))
    for block in ("errors", "examples"):
        if getattr(tool, block):
            shown = "{" + block + "}" in template
            how = "kept only as text in the description" if shown else "dropped (not in template)"
            notes.append(Note(tool_path, f"structured {block} {how}", "lost"))
    return notes


def blocks_summary(fmt: str) -> Note:
    """The registry-level note every provider export carries."""
    return Note(
        "",
        f"{fmt} has one description per tool: description blocks are rendered with the "
        "registry template and come back on import as free text",
        "info",
    )
