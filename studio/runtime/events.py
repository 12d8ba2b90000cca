"""Typed run events (DESIGN §5).

Every step of a run emits one of these. The runtime stamps each event with
the session's next sequence number and persists it before handing it to
subscribers, so the event log is the audit trail: model intent
(``tool_call.proposed``), request snapshot (``tool_call.executing``) and
response summary (``tool_call.completed``).

``event.data()`` is the JSON payload; :func:`event_to_json` gives the
``{"seq": n, "type": "...", "data": {...}}`` line of ``studio run --events jsonl``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, ClassVar

JSON = Any


@dataclass(frozen=True, slots=True, kw_only=True)
class RunEvent:
    """Base of every event: ``seq`` is per session, assigned when emitted."""

    TYPE: ClassVar[str] = ""
    seq: int = 0
    run_id: str = ""

    @property
    def type(self) -> str:
        return self.TYPE

    def data(self) -> dict[str, JSON]:
        """The event's own fields (without seq and run_id) as JSON values."""
        return {
            f.name: _jsonable(getattr(self, f.name))
            for f in dataclasses.fields(self)
            if f.name not in ("seq", "run_id")
        }


def _jsonable(value: JSON) -> JSON:
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    return value


@dataclass(frozen=True, slots=True, kw_only=True)
class RunStarted(RunEvent):
    TYPE: ClassVar[str] = "run.started"
    session_id: str
    registry: str
    version: str
    profile: str = ""
    context: dict[str, JSON] = field(default_factory=dict)
    from_message: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ModelRequested(RunEvent):
    TYPE: ClassVar[str] = "model.request"
    turn: int
    request: dict[str, JSON]
    """Snapshot of the request (messages, tools, params), secrets redacted."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ModelResponded(RunEvent):
    """The turn's assembled answer: stop reason, usage and the raw request as sent."""

    TYPE: ClassVar[str] = "model.response"
    turn: int
    stop_reason: str
    usage: dict[str, JSON]
    tool_calls: int
    raw_request: dict[str, JSON] = field(default_factory=dict)


@dataclass(frozen=True, slots=True, kw_only=True)
class MessageDelta(RunEvent):
    """A streamed piece: ``kind`` is ``text``, ``tool_call_start`` or ``tool_call_arguments``."""

    TYPE: ClassVar[str] = "message.delta"
    turn: int
    kind: str
    text: str = ""
    index: int | None = None
    call_id: str = ""
    name: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolCallProposed(RunEvent):
    """The raw model intent, exactly as received."""

    TYPE: ClassVar[str] = "tool_call.proposed"
    call_id: str
    name: str
    arguments: JSON
    turn: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolCallPrepared(RunEvent):
    """What the pipeline did: one record per step, final arguments or the error."""

    TYPE: ClassVar[str] = "tool_call.prepared"
    call_id: str
    tool: str
    ok: bool
    arguments: JSON
    steps: tuple[dict[str, JSON], ...]
    error: dict[str, JSON] | None = None
    risk: str = ""
    idempotency_key: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class ApprovalRequired(RunEvent):
    TYPE: ClassVar[str] = "approval.required"
    call_id: str
    tool: str
    risk: str
    arguments: JSON
    phrase: str = ""
    """The phrase the user must type (destructive calls); empty for a plain confirmation."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ApprovalDecided(RunEvent):
    TYPE: ClassVar[str] = "approval.decided"
    call_id: str
    approved: bool
    reason: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolCallExecuting(RunEvent):
    TYPE: ClassVar[str] = "tool_call.executing"
    call_id: str
    tool: str
    executor: str
    request: dict[str, JSON]


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolCallCompleted(RunEvent):
    TYPE: ClassVar[str] = "tool_call.completed"
    call_id: str
    tool: str
    status: str
    """``ok``, ``error``, ``unknown``, ``denied``, ``rejected`` (by the pipeline), ``skipped``,
    ``replayed`` (a write that already succeeded: its stored result, not sent again) or
    ``refused`` (a write whose earlier attempt has an unknown outcome not yet looked up)."""
    latency_ms: float
    summary: str
    error_code: str = ""
    attempts: int = 0
    result: JSON = None
    idempotency_key: str = ""
    replay_of: str = ""
    """For ``replayed``: the call whose stored result this is."""
    duplicate_of: str = ""
    """The earlier call of the same write intent that reached the tool (a duplicate attempt)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class LoopDetected(RunEvent):
    TYPE: ClassVar[str] = "loop.detected"
    reason: str
    detail: str
    action: str
    """``note`` (the model was asked to change approach) or ``stop``."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RunCompleted(RunEvent):
    TYPE: ClassVar[str] = "run.completed"
    status: str
    """``completed``, or ``partial`` when the loop guard or the turn cap ended the run."""
    reason: str = ""
    turns: int = 0
    tool_calls: int = 0
    usage: dict[str, JSON] = field(default_factory=dict)


@dataclass(frozen=True, slots=True, kw_only=True)
class RunFailed(RunEvent):
    TYPE: ClassVar[str] = "run.failed"
    error: str
    status: int | None = None
    error_type: str = ""
    body: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class RunCancelled(RunEvent):
    TYPE: ClassVar[str] = "run.cancelled"
    reason: str = ""
    pending_calls: tuple[str, ...] = ()


EVENT_TYPES: dict[str, type[RunEvent]] = {
    cls.TYPE: cls
    for cls in (
        RunStarted,
        ModelRequested,
        ModelResponded,
        MessageDelta,
        ToolCallProposed,
        ToolCallPrepared,
        ApprovalRequired,
        ApprovalDecided,
        ToolCallExecuting,
        ToolCallCompleted,
        LoopDetected,
        RunCompleted,
        RunFailed,
        RunCancelled,
    )
}

TERMINAL_TYPES = frozenset({RunCompleted.TYPE, RunFailed.TYPE, RunCancelled.TYPE})


def event_to_json(event: RunEvent) -> dict[str, JSON]:
    """The wire form ``{"seq": n, "type": "...", "data": {...}}``."""
    return {"seq": event.seq, "type": event.type, "data": event.data()}


def event_from_record(seq: int, type_: str, data: dict[str, JSON], run_id: str = "") -> RunEvent:
    """Rebuild a typed event from a stored row (unknown fields are ignored)."""
    cls = EVENT_TYPES[type_]
    names = {f.name for f in dataclasses.fields(cls)}
    kwargs = {k: v for k, v in data.items() if k in names}
    for f in dataclasses.fields(cls):
        if f.name in kwargs and isinstance(kwargs[f.name], list) and "tuple" in str(f.type):
            kwargs[f.name] = tuple(kwargs[f.name])
    return cls(seq=seq, run_id=run_id, **kwargs)
