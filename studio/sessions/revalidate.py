"""Re-validating a recorded session's tool calls against a registry version.

Every recorded call goes through the runtime's own
:class:`~studio.runtime.pipeline.ArgumentPipeline` (parse, resolve, aliases,
coercion, injection, validation, permission) built for the chosen version,
so "would this session still work with version 7?" gets the answer the
runtime would give. Each call ends in one status:

- ``passes`` — accepted, arguments as recorded;
- ``mapped-differently`` — accepted, but the pipeline now changes the
  arguments (alias, enum synonym, coercion), or they differ from what the
  recording's runtime prepared;
- ``fails`` — rejected (why: the runtime's error code and message);
- ``tool-gone`` — the version has no tool of that name.

Values of ``x-injected`` fields come from the session's context; when the
recording has none, a placeholder fitting the field's schema stands in (the
row says so), and permissions are not checked unless a role was recorded.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from studio.contract import Registry, canonical_json
from studio.runtime.context import SessionContext
from studio.runtime.pipeline import ArgumentPipeline
from studio.runtime.repair import ArgumentsParseError, parse_arguments
from studio.sessions.model import Message
from studio.sessions.pairing import Position

PASSES = "passes"
MAPPED = "mapped-differently"
FAILS = "fails"
TOOL_GONE = "tool-gone"
STATUSES: tuple[str, ...] = (PASSES, MAPPED, FAILS, TOOL_GONE)


@dataclass(frozen=True, slots=True)
class RevalidationRow:
    """One recorded call, re-checked.

    Attributes:
        position: Where the call is in the session.
        call_id: The call's id.
        tool: The tool name as recorded.
        status: One of :data:`STATUSES`.
        reason: Why (the runtime's error message, or what is mapped differently).
        error_code: The runtime's error code for ``fails`` / ``tool-gone``.
        recorded: The arguments as recorded (parsed when they were a string).
        prepared: The arguments the pipeline would execute with now (``{}`` on failure).
        changes: What the pipeline changed (aliases, coercion, injection), each with its reason.
        notes: Caveats (placeholder for an injected value, permission not checked).
    """

    position: Position
    call_id: str
    tool: str
    status: str
    reason: str = ""
    error_code: str = ""
    recorded: Any = None
    prepared: dict[str, Any] = field(default_factory=dict)
    changes: tuple[dict[str, Any], ...] = ()
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        out = dataclasses.asdict(self)
        out["position"] = str(self.position)
        out["changes"] = list(self.changes)
        out["notes"] = list(self.notes)
        return out


@dataclass(frozen=True, slots=True)
class RevalidationReport:
    """The table of every recorded call and its counts per status."""

    registry: str
    version: str
    rows: tuple[RevalidationRow, ...]

    @property
    def counts(self) -> dict[str, int]:
        found = Counter(r.status for r in self.rows)
        return {s: found.get(s, 0) for s in STATUSES}

    @property
    def problems(self) -> tuple[RevalidationRow, ...]:
        """Rows that are not ``passes`` (``mapped-differently`` included: behaviour changed)."""
        return tuple(r for r in self.rows if r.status != PASSES)

    def summary(self) -> str:
        counts = self.counts
        return ", ".join(f"{counts[s]} {s}" for s in STATUSES)

    def to_dict(self) -> dict[str, Any]:
        return {"registry": self.registry, "version": self.version, "counts": self.counts,
                "rows": [r.to_dict() for r in self.rows]}  # fmt: skip


def revalidate(
    messages: Sequence[Message],
    registry: Registry,
    *,
    version: str = "draft",
    context: SessionContext | None = None,
    recorded_prepared: Mapping[str, Any] | None = None,
    session_id: str = "",
) -> RevalidationReport:
    """Run every recorded tool call of ``messages`` through the pipeline of ``registry``.

    Args:
        messages: The session.
        registry: The chosen registry version (or draft).
        version: Its label, for the report.
        context: The session's context (role, scenario, injected values), if recorded.
        recorded_prepared: call id → the arguments the recording's runtime
            executed with (from ``tool_call.prepared`` events), when known.
        session_id: Used by the idempotency key template.
    """
    context = context or SessionContext()
    filled, placeholders = _with_placeholders(context, registry)
    pipeline = ArgumentPipeline(registry, filled, session_id)
    recorded_prepared = recorded_prepared or {}
    rows: list[RevalidationRow] = []
    for mi, message in enumerate(messages):
        for pi, part in enumerate(message.parts):
            if part.kind != "tool_call":
                continue
            call = part  # a ToolCallPart
            notes: list[str] = []
            tool = registry.tool(call.name)  # type: ignore[union-attr]
            pipeline.context = filled
            if tool is not None and tool.permissions and not (context.role or context.scenario):
                first = tool.permissions[0]
                pipeline.context = dataclasses.replace(
                    filled,
                    role="" if first.role == "*" else first.role,
                    scenario="" if first.scenario == "*" else first.scenario,
                )
                notes.append("permission not checked: the session recorded no role")
            if tool is not None:
                used = sorted(n for n, p in tool.injected_properties().items() if p in placeholders)
                if used:
                    notes.append(f"no recorded value for injected {', '.join(used)}; "
                                 "a placeholder was used")  # fmt: skip
            prepared = pipeline.prepare(call, message_id=str(mi))  # type: ignore[arg-type]
            rows.append(_row(Position(mi, pi), call, prepared, recorded_prepared, notes, tool))
    return RevalidationReport(registry.name, version, tuple(rows))


def _row(position: Position, call: Any, prepared: Any, recorded_prepared: Mapping[str, Any],
         notes: list[str], tool: Any) -> RevalidationRow:  # fmt: skip
    try:
        recorded, _ = parse_arguments(call.arguments)
    except ArgumentsParseError:
        recorded = call.arguments
    base = {"position": position, "call_id": call.id, "tool": call.name, "recorded": recorded,
            "notes": tuple(notes)}  # fmt: skip
    if prepared.error is not None:
        status = TOOL_GONE if prepared.error.code == "UNKNOWN_TOOL" else FAILS
        return RevalidationRow(status=status, reason=prepared.error.message,
                               error_code=prepared.error.code, **base)  # fmt: skip
    changes = tuple(c for s in prepared.steps if s.step in (3, 4, 5) for c in s.changes)
    injected = set(tool.injected_properties()) if tool is not None else set()
    mapping = [c for s in prepared.steps if s.step in (3, 4) for c in s.changes]
    if call.id in recorded_prepared and isinstance(recorded_prepared[call.id], dict):
        before = {k: v for k, v in recorded_prepared[call.id].items() if k not in injected}
        after = {k: v for k, v in prepared.arguments.items() if k not in injected}
        if canonical_json(before) != canonical_json(after):
            keys = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
            reason = f"prepared arguments differ from the recording at {', '.join(keys)}"
            return RevalidationRow(status=MAPPED, reason=reason, prepared=prepared.arguments,
                                   changes=changes, **base)  # fmt: skip
    elif mapping:
        reason = "; ".join(str(c.get("reason", c.get("action", ""))) for c in mapping)
        return RevalidationRow(status=MAPPED, reason=reason, prepared=prepared.arguments,
                               changes=changes, **base)  # fmt: skip
    return RevalidationRow(status=PASSES, prepared=prepared.arguments, changes=changes, **base)


def _with_placeholders(
    context: SessionContext, registry: Registry
) -> tuple[SessionContext, set[str]]:
    """The context plus a schema-fitting value for every injected path it lacks."""
    values = dict(context.values)
    missing: set[str] = set()
    for tool in registry.tools:
        props = tool.parameters.get("properties") or {}
        for name, path in tool.injected_properties().items():
            try:
                context.lookup(path)
                continue
            except KeyError:
                pass
            missing.add(path)
            keys = path.split(".")
            if keys[0] == "session":
                keys = keys[1:]
            node = values
            for key in keys[:-1]:
                node = node.setdefault(key, {}) if isinstance(node.get(key, {}), dict) else {}
            if keys:
                node.setdefault(keys[-1], _sample(props.get(name) or {}))
    return SessionContext(context.role, context.scenario, values), missing


def _sample(schema: Mapping[str, Any]) -> Any:
    """A value that satisfies simple schemas (default, const, enum, examples, type)."""
    for key in ("default", "const"):
        if key in schema:
            return schema[key]
    for key in ("enum", "examples"):
        if isinstance(schema.get(key), list) and schema[key]:
            return schema[key][0]
    kind = schema.get("type")
    kind = kind[0] if isinstance(kind, list) and kind else kind
    return {"integer": 0, "number": 0, "boolean": False, "array": [], "object": {},
            "null": None}.get(str(kind), "injected")  # fmt: skip


def recorded_prepared_arguments(events: Sequence[Any]) -> dict[str, Any]:
    """call id → prepared arguments, from stored ``tool_call.prepared`` events."""
    out: dict[str, Any] = {}
    for event in events:
        data = getattr(event, "data", None) or {}
        if getattr(event, "type", "") == "tool_call.prepared" and data.get("ok"):
            out[str(data.get("call_id", ""))] = data.get("arguments")
    return out
