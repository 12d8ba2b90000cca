"""Suspicious patterns in a session: duplicate side effects and blind retries of writes.

- ``duplicate-write``: the same write tool called twice with the same
  canonical arguments after the first call succeeded ("why did the agent
  create two tickets?"). A repeat whose first attempt returned an error is a
  retry, not a duplicate side effect, and is not reported; nor is one whose
  first attempt has no result (that call is reported by the pairing check).
- ``retry-after-timeout``: a write whose result was a timeout / UNKNOWN
  outcome, followed by the same write again — DESIGN §5 says such a write
  must be looked up by its idempotency key, never retried blindly.

A tool is a write when the registry says its risk is ``write`` or
``destructive``; without a registry (or for a tool it does not know) the
name's verb decides by its class in ``verbs.txt`` (create, update, delete,
send … are writes), as on import (:func:`studio.contract.risk.verb_risk`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from studio.sessions.model import Message, ToolCallPart, ToolResultPart
from studio.sessions.pairing import Position
from studio.sessions.writes import is_write_tool

if TYPE_CHECKING:
    from studio.contract.model import Registry

_TIMEOUT_CODES = frozenset({"TIMEOUT", "OUTCOME_UNKNOWN", "DEADLINE_EXCEEDED", "GATEWAY_TIMEOUT"})
_TIMEOUT_TEXT = re.compile(r"\btim(ed|e)[ -]?out\b|\bdeadline exceeded\b", re.IGNORECASE)


class SuspiciousKind(StrEnum):
    DUPLICATE_WRITE = "duplicate-write"
    RETRY_AFTER_TIMEOUT = "retry-after-timeout"


@dataclass(frozen=True, slots=True)
class SuspiciousFinding:
    """One suspicious call: ``position`` is the repeat, ``related`` the earlier call."""

    kind: SuspiciousKind
    position: Position
    call_id: str
    tool: str
    message: str
    related: tuple[Position, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "position": str(self.position), "call_id": self.call_id,
                "tool": self.tool, "message": self.message,
                "related": [str(p) for p in self.related]}  # fmt: skip


def _parse_result_content(content: str) -> Any:
    """:func:`studio.runtime.results.parse_result_content`, imported on the first write call.

    Only a write called twice reaches it: an import of a log whose calls are reads (most)
    loads neither the runtime's results nor their dataclasses (~2 ms of every start).
    """
    from studio.runtime.results import parse_result_content

    return parse_result_content(content)


def is_timeout_result(result: ToolResultPart) -> bool:
    """A result saying the call timed out or its outcome is UNKNOWN."""
    try:
        body = _parse_result_content(result.content)
    except ValueError:
        body = None
    if isinstance(body, dict):
        if str(body.get("status", "")).upper() == "UNKNOWN":
            return True
        if str(body.get("error_code", "")).upper() in _TIMEOUT_CODES:
            return True
    return bool(_TIMEOUT_TEXT.search(result.content))


def is_error_result(result: ToolResultPart) -> bool:
    """A result saying the call failed (``is_error``, a fault marker, or an error body)."""
    if result.is_error or result.content.lstrip().startswith("[SYSTEM_FAULT]"):
        return True
    try:
        body = _parse_result_content(result.content)
    except ValueError:
        return result.content.lstrip().lower().startswith(("error", "exception", "traceback"))
    if not isinstance(body, dict):
        return False
    if body.get("ok") is False or body.get("error") or body.get("error_code"):
        return True
    return str(body.get("status", "")).lower() in ("failed", "error", "rejected")


def call_signature(call: ToolCallPart) -> str:
    """Tool name plus canonical JSON of the (repaired) arguments."""
    # Imported here: only writes are signed, and a log of reads need not load the runtime.
    from studio.contract.canonical import canonical_json
    from studio.runtime.repair import ArgumentsParseError, parse_arguments

    try:
        args, _ = parse_arguments(call.arguments)
        return call.name + "\x00" + canonical_json(args).decode()
    except (ArgumentsParseError, TypeError, ValueError):
        return call.name + "\x00" + str(call.arguments)


def find_suspicious(
    messages: Sequence[Message], registry: Registry | None = None
) -> list[SuspiciousFinding]:
    """Every duplicate write and retried-after-timeout write, in session order."""
    calls: list[tuple[int, int, ToolCallPart]] = []
    for mi, message in enumerate(messages):
        for pi, part in enumerate(message.parts):
            if isinstance(part, ToolCallPart):
                calls.append((mi, pi, part))
    writes: dict[str, bool] = {}
    for _, _, part in calls:
        if part.name not in writes:
            writes[part.name] = is_write_tool(part.name, registry)
    if not any(writes.values()):
        return []  # reads only (most logs): no result needs looking at
    # Every first result by id: a repeat's first call may be answered after the repeat.
    results: dict[str, ToolResultPart] = {}
    for message in messages:
        for part in message.parts:
            if isinstance(part, ToolResultPart) and part.id not in results:
                results[part.id] = part
    seen: dict[str, tuple[Position, ToolCallPart]] = {}
    out: list[SuspiciousFinding] = []
    for mi, pi, part in calls:
        if not writes[part.name]:
            continue
        pos = Position(mi, pi)
        key = call_signature(part)
        earlier = seen.get(key)
        seen[key] = (pos, part)
        if earlier is None:
            continue
        first_pos, first = earlier
        first_result = results.get(first.id)
        guess = "" if registry is not None and registry.tool(part.name) is not None else (
            " (a write by its name's verb: no registry risk tier)")  # fmt: skip
        if first_result is None:
            continue  # outcome unknown: the pairing check reports the missing result
        if is_timeout_result(first_result):
            out.append(SuspiciousFinding(
                SuspiciousKind.RETRY_AFTER_TIMEOUT, pos, part.id, part.name,
                f"{part.name} is called again with the same arguments after the call at "
                f"{first_pos} timed out (outcome UNKNOWN): look it up by its idempotency "
                f"key instead of retrying{guess}", (first_pos,),
            ))  # fmt: skip
        elif not is_error_result(first_result):
            out.append(SuspiciousFinding(
                SuspiciousKind.DUPLICATE_WRITE, pos, part.id, part.name,
                f"{part.name} is called twice with the same arguments (first at "
                f"{first_pos}): a duplicate side effect{guess}", (first_pos,),
            ))  # fmt: skip
    return out
