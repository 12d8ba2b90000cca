"""Changes of the MCP fields of a tool: output schema, annotations, icons, ``_meta``, tasks.

An output schema is read by the *callers* of a tool (the agent, its code, the model
reading ``structuredContent``), so compatibility runs the other way from parameters:
a property that results no longer carry breaks whoever relied on it, while a new one
is additive.

=====================================================  ===========
change                                                 class
=====================================================  ===========
output schema removed, property removed,
type changed, required → optional, enum value added    breaking
output schema added, property added, optional →
required, enum value removed                           compatible
any other keyword (description, format …)              behavioural
annotations, task support                              behavioural
icons, ``_meta``                                       metadata
=====================================================  ===========
"""

from __future__ import annotations

from typing import Any

from studio.contract.model import ToolContract
from studio.diff.model import Change, ChangeClass
from studio.diff.schema_diff import canonical

B = ChangeClass.BREAKING
H = ChangeClass.BEHAVIOURAL
C = ChangeClass.COMPATIBLE
M = ChangeClass.METADATA

_MAX_DEPTH = 32


def diff_mcp_fields(a: ToolContract, b: ToolContract, tool: str) -> list[Change]:
    """Classified changes of ``output_schema``, ``annotations``, ``icons``, ``meta`` and
    ``execution.task_support`` from ``a`` to ``b``."""
    out = diff_output_schema(a.output_schema, b.output_schema, tool=tool)
    if a.annotations != b.annotations:
        out.append(
            Change(
                "tool.annotations-changed", H, tool, "annotations", a.annotations or None,
                b.annotations or None,
                "MCP annotations changed (clients decide on confirmation from these hints)",
            )
        )  # fmt: skip
    ta, tb = a.execution.task_support, b.execution.task_support
    if ta != tb:
        out.append(
            Change(
                "tool.task-support-changed", H, tool, "execution.task_support", ta or None,
                tb or None, f"task support {ta or 'undeclared'} → {tb or 'undeclared'}",
            )
        )  # fmt: skip
    if a.icons != b.icons:
        out.append(
            Change("tool.icons-changed", M, tool, "icons", list(a.icons), list(b.icons), "icons")
        )
    if a.meta != b.meta:
        out.append(Change("tool.meta-changed", M, tool, "meta", a.meta, b.meta, "_meta"))
    return out


def diff_output_schema(
    before: dict[str, Any] | None, after: dict[str, Any] | None, *, tool: str
) -> list[Change]:
    """Classified changes from output schema ``before`` to ``after`` (None: not declared)."""
    path = "output_schema"
    if before is None and after is None:
        return []
    if before is None:
        return [
            Change(
                "output.schema-added", C, tool, path, None, after,
                "output schema declared (results now promise structured content)",
            )
        ]  # fmt: skip
    if after is None:
        return [
            Change(
                "output.schema-removed", B, tool, path, before, None,
                "output schema removed: callers relying on structured content lose it",
            )
        ]  # fmt: skip
    out: list[Change] = []
    _walk(before, after, path, tool, out, 0)
    return out


def _walk(before: Any, after: Any, path: str, tool: str, out: list[Change], depth: int) -> None:
    if canonical(before) == canonical(after):
        return
    if not isinstance(before, dict) or not isinstance(after, dict) or depth > _MAX_DEPTH:
        out.append(Change("output.changed", H, tool, path, before, after, "output schema changed"))
        return
    ta, tb = _types(before), _types(after)
    if ta != tb:
        out.append(
            Change(
                "output.type-changed", B, tool, f"{path}.type", before.get("type"),
                after.get("type"), "result type changed: callers reading the old type break",
            )
        )  # fmt: skip
    pa, pb = _props(before), _props(after)
    ra, rb = set(_strings(before.get("required"))), set(_strings(after.get("required")))
    for name in pa:
        where = f"{path}.properties.{name}"
        if name not in pb:
            out.append(
                Change(
                    "output.property-removed", B, tool, where, pa[name], None,
                    f"result property {name!r} removed: callers reading it break",
                )
            )  # fmt: skip
            continue
        if name in ra and name not in rb:
            out.append(
                Change(
                    "output.required-removed", B, tool, where, True, False,
                    f"result property {name!r} may now be absent",
                )
            )  # fmt: skip
        elif name in rb and name not in ra:
            out.append(
                Change(
                    "output.required-added", C, tool, where, False, True,
                    f"result property {name!r} is now always present",
                )
            )  # fmt: skip
        _walk(pa[name], pb[name], where, tool, out, depth + 1)
    for name in pb:
        if name not in pa:
            out.append(
                Change(
                    "output.property-added", C, tool, f"{path}.properties.{name}", None,
                    pb[name], f"result property {name!r} added",
                )
            )  # fmt: skip
    ea, eb = before.get("enum"), after.get("enum")
    if isinstance(ea, list) and isinstance(eb, list):
        added = [v for v in eb if v not in ea]
        removed = [v for v in ea if v not in eb]
        if added:
            out.append(
                Change(
                    "output.enum-value-added", B, tool, f"{path}.enum", ea, eb,
                    f"results may now hold {added!r}, which callers have not seen",
                )
            )  # fmt: skip
        if removed:
            out.append(
                Change(
                    "output.enum-value-removed", C, tool, f"{path}.enum", ea, eb,
                    f"results no longer hold {removed!r}",
                )
            )  # fmt: skip
    items_a, items_b = before.get("items"), after.get("items")
    if isinstance(items_a, dict) and isinstance(items_b, dict):
        _walk(items_a, items_b, f"{path}.items", tool, out, depth + 1)
    handled = {"type", "properties", "required", "enum", "items"}
    rest_a = {k: v for k, v in before.items() if k not in handled}
    rest_b = {k: v for k, v in after.items() if k not in handled}
    for key in sorted(set(rest_a) | set(rest_b)):
        if canonical(rest_a.get(key)) != canonical(rest_b.get(key)):
            out.append(
                Change(
                    "output.keyword-changed", H, tool, f"{path}.{key}", rest_a.get(key),
                    rest_b.get(key), f"output schema {key} changed",
                )
            )  # fmt: skip


def _types(schema: dict[str, Any]) -> frozenset[str]:
    value = schema.get("type")
    if isinstance(value, str):
        return frozenset([value])
    if isinstance(value, list):
        return frozenset(v for v in value if isinstance(v, str))
    return frozenset()


def _props(schema: dict[str, Any]) -> dict[str, Any]:
    props = schema.get("properties")
    return props if isinstance(props, dict) else {}


def _strings(value: Any) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []
