"""Write intents: one idempotency key per intent, and what became of it (DESIGN §3, §5 step 9).

A write's key names its *intent*: the session, the **user** message the
model's turn serves, the tool and the hash of the canonical arguments. The
model re-issuing the same write with the same arguments anywhere in that
user turn (next model turn, after an UNKNOWN, in a run resumed from the
stored session) therefore gets the same key, and the runtime decides from
what the earlier attempt did (:meth:`WriteLedger.decide`):

- it **succeeded**: the write is not sent again; the stored result of the
  first call is returned, marked as a replay (same intent, same answer);
- its outcome is **unknown** (a timeout, or the run stopped while it was
  executing): the write is refused with ``WRITE_OUTCOME_UNKNOWN`` until the
  model has looked the key up with a read tool (a successful read whose
  arguments hold the key); after that it runs again, with the same key, so
  the backend can still deduplicate;
- it **failed** (an error the tool answered): it runs again with the same key.

A re-issue of an intent that already reached the tool is a *duplicate write
attempt*; outcomes record it (``duplicate_of``) for the guard metrics.

The ledger is rebuilt from the session's messages (every call with its
paired result) plus what the recorded events say about calls that started
executing, so a run continued or branched from a stored session
(:meth:`studio.runtime.loop.Run.from_session`) knows the earlier attempts.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from studio.runtime.results import ToolError
from studio.sessions.model import Message, Role, TextPart, ToolCallPart, ToolResultPart

SUCCEEDED = "succeeded"
UNKNOWN = "unknown"
FAILED = "failed"

REFUSED_CODE = "WRITE_OUTCOME_UNKNOWN"
"""Error code of a write refused because the same intent's outcome is still unknown."""

REPLAYED_STATUS = "replayed"
"""``tool_call.completed`` / outcome status of a call answered with a stored result."""
REFUSED_STATUS = "refused"
"""``tool_call.completed`` / outcome status of a write refused until it is reconciled."""

# Result codes of calls that never reached the tool: the pipeline, the risk gate
# and the loop guard stop a call before it executes.
NOT_EXECUTED_CODES = frozenset({
    "INVALID_ARGUMENTS_JSON", "UNKNOWN_TOOL", "INVALID_ARGUMENTS", "MISSING_CONTEXT_VALUE",
    "PERMISSION_DENIED", "DENIED_BY_USER", "LOOP_DETECTED", "LOOP_STOPPED", "CANCELLED",
    "RUN_FAILED", REFUSED_CODE,
})  # fmt: skip
# Event statuses (tool_call.completed) and what they say about the intent.
_EXECUTED_STATUSES = {"ok": SUCCEEDED, "unknown": UNKNOWN, "error": FAILED}

Decision = Literal["execute", "replay", "refuse"]


def user_turn_index(messages: Sequence[Message], before: int) -> int | None:
    """Index of the user message the assistant message at ``before`` serves.

    That is the last user message before it that the user wrote (text), not one
    that only carries tool results (Anthropic's tool_result messages).
    """
    for index in range(min(before, len(messages)) - 1, -1, -1):
        message = messages[index]
        if message.role is Role.USER and any(isinstance(p, TextPart) for p in message.parts):
            return index
    return None


@dataclass(slots=True)
class Intent:
    """What is known about one idempotency key.

    Attributes:
        first_call_id: The first call of this intent that reached the tool.
        state: :data:`SUCCEEDED`, :data:`UNKNOWN` or :data:`FAILED` (latest attempt).
        content: The stored result (tool result content) of the successful call.
        reported_key: The key the UNKNOWN result told the model to look up.
        reconciled: A read looked the key up after the outcome became unknown.
    """

    key: str
    tool: str
    first_call_id: str
    state: str
    content: str = ""
    reported_key: str = ""
    reconciled: bool = False


class WriteLedger:
    """Intents by idempotency key; see the module docstring."""

    def __init__(self) -> None:
        self.intents: dict[str, Intent] = {}

    def get(self, key: str) -> Intent | None:
        return self.intents.get(key) if key else None

    def decide(self, key: str) -> tuple[Decision, Intent | None]:
        """``execute``, ``replay`` (succeeded before) or ``refuse`` (unknown, not looked up)."""
        intent = self.get(key)
        if intent is None or intent.state == FAILED:
            return "execute", intent
        if intent.state == SUCCEEDED:
            return "replay", intent
        return ("execute" if intent.reconciled else "refuse"), intent

    def record(self, key: str, tool: str, call_id: str, state: str, content: str = "") -> None:
        """An attempt of ``key`` reached the tool and ended in ``state``."""
        if not key:
            return
        intent = self.intents.get(key)
        if intent is None:
            self.intents[key] = Intent(key, tool, call_id, state, content if state == SUCCEEDED
                                       else "", key if state == UNKNOWN else "")  # fmt: skip
            return
        if intent.state == SUCCEEDED:
            return  # the first success stays the answer
        intent.state = state
        intent.reconciled = False
        if state == SUCCEEDED:
            intent.content = content
        elif state == UNKNOWN and not intent.reported_key:
            intent.reported_key = key

    def observe_read(self, arguments: Any) -> None:
        """A read succeeded with ``arguments``: unknown intents whose key they hold are
        reconciled (the model looked them up)."""
        text = arguments if isinstance(arguments, str) else json.dumps(arguments)
        for intent in self.intents.values():
            if intent.state == UNKNOWN and not intent.reconciled:
                keys = {intent.key, intent.reported_key} - {""}
                if any(k in text for k in keys):
                    intent.reconciled = True


def _result_json(part: ToolResultPart) -> Any:
    """The JSON of a result's content; a leading ``[MARKER]`` token (failures) is skipped."""
    text = part.content.lstrip() if isinstance(part.content, str) else ""
    for candidate in (text, text.partition("]")[2] if text.startswith("[") else ""):
        try:
            return json.loads(candidate)
        except ValueError:
            continue
    return None


def state_of_result(part: ToolResultPart) -> str | None:
    """What a recorded write result says: a state, or None when the call never ran."""
    data = _result_json(part)
    if not isinstance(data, dict):
        return FAILED if part.is_error else SUCCEEDED
    if "replay" in data:
        return None  # an answer from the ledger, not an attempt
    if data.get("ok") is True:
        return SUCCEEDED
    if data.get("error_code") in NOT_EXECUTED_CODES:
        return None
    if data.get("status") == "UNKNOWN":
        return UNKNOWN
    return FAILED


def ledger_from_history(
    messages: Sequence[Message],
    key_of: Callable[[ToolCallPart, int], tuple[str, str] | None],
    is_read: Callable[[str], bool],
    *,
    event_status: Mapping[str, str] | None = None,
    executing: Iterable[str] = (),
) -> WriteLedger:
    """The ledger of a session from its messages.

    Args:
        messages: The session's messages (calls and their paired results).
        key_of: ``(call, index of its assistant message)`` → ``(key, tool)`` for a
            write, None for anything else.
        is_read: Whether a tool name is a read tool (reads reconcile unknown writes).
        event_status: call id → status of its ``tool_call.completed`` event, when
            recorded (more precise than the result text).
        executing: Call ids that emitted ``tool_call.executing``; one without a
            completed event was cut off mid-call (cancelled, crashed): unknown.
    """
    statuses = dict(event_status or {})
    started = set(executing)
    results: dict[str, ToolResultPart] = {}
    for message in messages:
        for result in message.tool_results:
            results.setdefault(result.id, result)
    ledger = WriteLedger()
    for index, message in enumerate(messages):
        if message.role is not Role.ASSISTANT:
            continue
        for call in message.tool_calls:
            part = results.get(call.id)
            if is_read(call.name):
                if part is not None and statuses.get(call.id, "ok") == "ok":
                    data = _result_json(part)
                    # A stale fallback answer is no lookup.
                    if isinstance(data, dict) and data.get("ok") is True and "stale" not in data:
                        ledger.observe_read(call.arguments)
                continue
            found = key_of(call, index)
            if found is None:
                continue
            key, tool = found
            state: str | None
            if call.id in statuses:
                state = _EXECUTED_STATUSES.get(statuses[call.id])
            elif call.id in started:
                state = UNKNOWN
            else:
                state = state_of_result(part) if part is not None else None
            if state is None:
                continue
            content = part.content if part is not None else ""
            if state == SUCCEEDED and part is not None:
                content = stored_content(part)
            ledger.record(key, tool, call.id, state, content)
            if state == UNKNOWN and part is not None:
                data = _result_json(part)
                reported = data.get("idempotency_key") if isinstance(data, dict) else None
                intent = ledger.get(key)
                if intent is not None and isinstance(reported, str) and reported:
                    intent.reported_key = reported
    return ledger


def stored_content(part: ToolResultPart) -> str:
    """A successful result as it is kept for replays (without per-call runtime notes)."""
    data = _result_json(part)
    if isinstance(data, dict):
        data.pop("runtime_note", None)
        return json.dumps(data, ensure_ascii=False)
    return part.content


def replay_result(intent: Intent) -> dict[str, Any]:
    """The stored result of ``intent``'s successful call, marked as a replay."""
    try:
        data = json.loads(intent.content)
    except (TypeError, ValueError):
        data = None
    result: dict[str, Any] = (
        dict(data) if isinstance(data, dict) else {"ok": True, "data": intent.content}
    )
    result["replay"] = {
        "of_call_id": intent.first_call_id,
        "idempotency_key": intent.key,
        "note": f"{intent.tool} already ran with these arguments for this request; it was not "
        "sent again. This is the result of that call.",
    }
    return result


def refusal(intent: Intent, lookup_tools: Sequence[str]) -> ToolError:
    """The error for a re-issued write whose earlier attempt has an unknown outcome."""
    key = intent.reported_key or intent.key
    if lookup_tools:
        how = f"Look it up first with {' or '.join(lookup_tools)} using idempotency key {key!r}"
    else:
        how = (f"No tool can look it up by its idempotency key {key!r}: tell the user the "
               "outcome is unknown and let them check")  # fmt: skip
    return ToolError(
        REFUSED_CODE,
        f"{intent.tool} with these arguments was already sent for this request (call "
        f"{intent.first_call_id}) and its outcome is unknown; it was not sent again",
        retryable=False,
        hint=f"{how}; call {intent.tool} again only if that shows it did not take effect.",
        details={
            "idempotency_key": key,
            "first_call_id": intent.first_call_id,
            "lookup_tools": list(lookup_tools),
        },
        status="UNKNOWN",
    )
