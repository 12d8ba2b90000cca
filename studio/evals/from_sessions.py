"""Eval cases from stored sessions: each user turn that led to tool calls becomes a case.

A session recorded in the playground, by the proxy or imported from a log
already says what a user asked and what the model called. Every user turn
followed (before the next user turn) by tool calls becomes a case that
expects those calls, in order, with each top-level argument as an ``equals``
matcher the author can loosen afterwards. Earlier text turns, the session's
system prompt and context come along, so the case is replayed as it happened.

Fields the runtime injects (``employee_id``) are not expected from the
model; arguments that were not valid JSON give no matchers. Two turns with
the same words, history and calls are one case (counted as merged), also
against the cases already in the set being appended to.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from registry_db import RegistryStore
from registry_db.sessions import SessionInfo, SessionStore
from studio.evals.model import CaseError, EvalCase, case_to_json, parse_case
from studio.evals.paths import PathError, parse_path
from studio.sessions.model import Message, Role, message_from_dict

_CJK = re.compile(r"[\u3400-\u9fff]")
_MAX_TURNS = 8
"""Earlier text turns kept per case (the most recent ones)."""


@dataclass(frozen=True, slots=True)
class FromSessions:
    """What was made: the new cases, the sessions read, and how many turns merged."""

    cases: list[EvalCase] = field(default_factory=list)
    sessions: list[str] = field(default_factory=list)
    merged: int = 0


def _decoded(arguments: Any) -> dict[str, Any] | None:
    if isinstance(arguments, dict):
        return arguments
    try:
        value = json.loads(arguments) if isinstance(arguments, str) and arguments.strip() else {}
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _matchers(arguments: Any, injected: set[str]) -> dict[str, Any]:
    decoded = _decoded(arguments)
    if decoded is None:
        return {}
    out: dict[str, Any] = {}
    for key, value in decoded.items():
        if key in injected:
            continue
        try:
            parse_path(key)
        except PathError:
            continue  # a key the path syntax cannot name: left for the author
        out[key] = {"equals": value}
    return out


def _context(info: SessionInfo) -> dict[str, Any]:
    ctx = info.context or {}
    values = dict(ctx.get("values") or {})
    values.update({k: v for k, v in ctx.items() if k not in ("role", "scenario", "values")})
    out: dict[str, Any] = {}
    if ctx.get("role"):
        out["role"] = str(ctx["role"])
    if ctx.get("scenario"):
        out["scenario"] = str(ctx["scenario"])
    if values:
        out["values"] = values
    return out


def _user_text(message: Message) -> str:
    return message.text.strip() if message.role is Role.USER else ""


def _cases_of(
    info: SessionInfo, messages: list[Message], injected: dict[str, set[str]]
) -> list[dict[str, Any]]:
    """The JSON form of the cases one session yields, in order."""
    out: list[dict[str, Any]] = []
    history: list[dict[str, str]] = []
    i = turn = 0
    while i < len(messages):
        user = _user_text(messages[i])
        if not user:
            if (
                messages[i].role is Role.ASSISTANT
                and messages[i].text
                and not messages[i].tool_calls
            ):
                history.append({"role": "assistant", "content": messages[i].text})
            i += 1
            continue
        turn += 1
        calls: list[dict[str, Any]] = []
        seen: set[str] = set()
        j = i + 1
        final = ""
        while j < len(messages) and not _user_text(messages[j]):
            message = messages[j]
            for call in message.tool_calls:
                expected: dict[str, Any] = {"tool": call.name}
                args = _matchers(call.arguments, injected.get(call.name, set()))
                if args:
                    expected["args"] = args
                signature = json.dumps(expected, sort_keys=True, ensure_ascii=False)
                if signature not in seen:  # a retried call is one expectation
                    seen.add(signature)
                    calls.append(expected)
            if message.role is Role.ASSISTANT and message.text and not message.tool_calls:
                final = message.text
            j += 1
        if calls:
            case: dict[str, Any] = {
                "id": f"{info.id[:8]}-t{turn}",
                "tags": ["from-session", "zh" if _CJK.search(user) else "en"],
            }
            if info.system:
                case["system"] = info.system
            if history:
                case["turns"] = history[-_MAX_TURNS:]
            case["user"] = user
            context = _context(info)
            if context:
                case["context"] = context
            if len(calls) == 1:
                case["expect"] = {"kind": "tool", "calls": calls}
            else:
                case["expect"] = {"kind": "tools", "calls": calls, "order": "sequence"}
            case["note"] = f"from session {info.id}"
            out.append(case)
        history.append({"role": "user", "content": user})
        if final:
            history.append({"role": "assistant", "content": final})
        i = j
    return out


def _identity(case: dict[str, Any]) -> str:
    """What makes two cases the same: words, history, context and expectation (not id or note)."""
    keep = {k: v for k, v in case.items() if k not in ("id", "note", "tags")}
    return hashlib.sha256(json.dumps(keep, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def cases_from_sessions(
    store: RegistryStore,
    registry: str,
    session_ids: Sequence[str] | None = None,
    *,
    existing: Sequence[EvalCase] = (),
) -> FromSessions:
    """Cases from the registry's sessions (or the ones named).

    Args:
        store: The open database.
        registry: The registry the cases are for (its draft names the injected fields).
        session_ids: Only these sessions; None reads every session of the registry.
        existing: Cases already in the target set: duplicates of them are merged, and
            new ids do not collide with theirs.

    Raises:
        registry_db.NotFoundError: a named session or the registry does not exist.
    """
    sessions = SessionStore.for_store(store)
    draft = store.draft_registry(registry)
    injected = {t.name: {".".join(f.path) for f in t.injected_fields()} for t in draft.tools}
    infos = (
        [sessions.get_session(s) for s in session_ids]
        if session_ids
        else sorted(sessions.list_sessions(registry), key=lambda s: s.created_at)
    )
    seen = {_identity(case_to_json(c)) for c in existing}
    ids = {c.id for c in existing}
    made: list[EvalCase] = []
    merged = 0
    for info in infos:
        messages = [message_from_dict(m) for m in sessions.messages(info.id)]
        for data in _cases_of(info, messages, injected):
            identity = _identity(data)
            if identity in seen:
                merged += 1
                continue
            seen.add(identity)
            base, n = data["id"], 2
            while data["id"] in ids:
                data["id"] = f"{base}-{n}"
                n += 1
            try:
                case = parse_case(data)
            except CaseError:
                # An argument value no matcher can hold: keep the selection, drop the args.
                for call in data["expect"]["calls"]:
                    call.pop("args", None)
                case = parse_case(data)
            ids.add(case.id)
            made.append(case)
    return FromSessions(made, [i.id for i in infos], merged)
