"""The records a session store hands out beside :class:`registry_db.sessions.SessionInfo`:
the session list's rows, run events and tool-call outcomes.

A module of their own, loaded on first use (``registry_db.sessions`` names them through
its module ``__getattr__``): importing or checking a session log uses none of them, and
each frozen dataclass costs ~0.5 ms to define at every start of such a command.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class SessionSummary:
    """A session as the session list shows it: no system text, context or tools (a proxy
    session's tool list can be large), and how many messages it holds."""

    id: str
    registry: str
    version: str
    profile: str
    title: str
    status: str
    created_at: str
    updated_at: str
    source: str
    meta: dict[str, Any]
    message_count: int
    """Grows with every message appended (messages are never removed one by one)."""


@dataclass(frozen=True, slots=True)
class StoredEvent:
    seq: int
    run_id: str
    type: str
    data: dict[str, Any]
    created_at: str


@dataclass(frozen=True, slots=True)
class Outcome:
    session_id: str | None
    call_id: str
    registry: str
    version: str
    tool: str
    status: str
    error_code: str
    latency_ms: float
    created_at: str
    risk: str = ""
    """The tool's risk tier (``read``, ``write``, ``destructive``); empty when not reported."""
    idempotency_key: str = ""
    duplicate_of: str = ""
    """Set on a duplicate write attempt: the earlier call of the same intent (same
    idempotency key) that reached the tool. Replayed and refused calls are duplicates
    the runtime absorbed; other statuses reached the tool again."""
