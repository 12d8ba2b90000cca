"""Gemini ``contents``: ``{role: user|model, parts: [text | functionCall | functionResponse]}``.

``functionCall {id?, name, args}`` pairs with ``functionResponse {id?, name,
response}``; ids are optional, so calls without one get a deterministic id
(``gemini_{message}_{part}``) and responses without one answer the oldest
open call of the same name. Every sibling field of a part — notably
``thoughtSignature`` — is kept verbatim in the part's ``extra`` so it can be
sent back untouched (DESIGN §6).
"""

from __future__ import annotations

import json
from typing import Any

from studio.sessions.importers.base import (
    Conversation,
    Reader,
    Rejected,
    content_text,
    decode_arguments,
    kind_of,
    renumber_ids,
    tool_definitions,
    vendor_fields,
)
from studio.sessions.model import Message, Part, Role, TextPart, ToolCallPart, ToolResultPart


def read(data: Any, reader: Reader) -> Conversation:
    tools: list[Any] = []
    meta: dict[str, Any] = {}
    messages: list[Message] = []
    if isinstance(data, list):
        items, base = data, "$"
    elif isinstance(data, dict) and isinstance(data.get("contents"), list):
        items, base = data["contents"], "$.contents"
        tools = tool_definitions(data, reader)
        meta = vendor_fields(data, frozenset({"contents", "tools", "systemInstruction",
                                              "system_instruction"}))  # fmt: skip
        system = data.get("systemInstruction") or data.get("system_instruction")
        if system:
            try:
                extra: dict[str, Any] = {}
                parts = system.get("parts") if isinstance(system, dict) else system
                text = content_text(parts, "$.systemInstruction.parts", reader, extra)
                messages.append(Message(Role.SYSTEM, (TextPart(text),), extra))
            except Rejected as exc:
                reader.reject(exc)
    else:
        raise Rejected("$", "expected a list of contents or an object with 'contents'")
    state = _Ids()
    for _, path, entry in reader.each(items, base, messages):
        try:
            messages.extend(read_content(entry, path, reader, state, len(messages)))
        except Rejected as exc:
            reader.reject(exc)
    return Conversation(renumber_ids(messages, reader, prefix="gemini"), tools, meta)


class _Ids:
    """Open calls by name, for responses that carry no id."""

    def __init__(self) -> None:
        self.open: dict[str, list[str]] = {}

    def call(self, name: str, call_id: str) -> None:
        self.open.setdefault(name, []).append(call_id)

    def answer(self, name: str, call_id: str | None) -> str | None:
        queue = self.open.get(name) or []
        if call_id is not None:
            if call_id in queue:
                queue.remove(call_id)
            return call_id
        return queue.pop(0) if queue else None


def read_content(entry: Any, path: str, reader: Reader, ids: _Ids, index: int) -> list[Message]:
    if not isinstance(entry, dict):
        raise Rejected(path, f"a content must be an object, not {kind_of(entry)}")
    role_name = entry.get("role", "user")
    if role_name not in ("user", "model", "function", "tool"):
        raise Rejected(f"{path}.role", f"unknown role {role_name!r} (user or model)")
    raw_parts = entry.get("parts")
    if not isinstance(raw_parts, list):
        raise Rejected(f"{path}.parts", f"must be a list of parts, not {kind_of(raw_parts)}")
    extra = vendor_fields(entry, frozenset({"role", "parts"}))
    parts: list[Part] = []
    kept: list[dict[str, Any]] = []
    for pi, part in enumerate(raw_parts):
        ppath = f"{path}.parts[{pi}]"
        if not isinstance(part, dict):
            raise Rejected(ppath, f"a part must be an object, not {kind_of(part)}")
        call = part.get("functionCall") or part.get("function_call")
        response = part.get("functionResponse") or part.get("function_response")
        if isinstance(call, dict):
            parts.append(_call(call, part, ppath, reader, ids, index, pi))
        elif isinstance(response, dict):
            parts.append(_response(response, part, ppath, ids))
        elif isinstance(part.get("text"), str):
            part_extra = vendor_fields(part, frozenset({"text"}))
            if part.get("thought") is True:
                kept.append({"index": pi, "part": part})
            else:
                parts.append(TextPart(part["text"]))
                if part_extra:
                    kept.append({"index": pi, "extra": part_extra})
        else:
            kept.append({"index": pi, "part": part})
    if kept:
        extra["parts"] = kept
    if role_name == "model":
        return [Message(Role.ASSISTANT, tuple(parts), extra)]
    results = tuple(p for p in parts if isinstance(p, ToolResultPart))
    others = tuple(p for p in parts if not isinstance(p, ToolResultPart))
    if results and others:
        # The kept parts (images…) belong with the user's text, not the results.
        return [Message(Role.TOOL, results), Message(Role.USER, others, extra)]
    return [Message(Role.TOOL if results else Role.USER, tuple(parts), extra)]


def _call(call: dict[str, Any], part: dict[str, Any], path: str, reader: Reader, ids: _Ids,
          mi: int, pi: int) -> ToolCallPart:  # fmt: skip
    name = call.get("name")
    if not isinstance(name, str) or not name:
        raise Rejected(f"{path}.functionCall.name", "a functionCall needs a name")
    args = decode_arguments(call.get("args"), f"{path}.functionCall.args", reader, want="object")
    extra = vendor_fields(part, frozenset({"functionCall", "function_call"}))
    call_extra = vendor_fields(call, frozenset({"id", "name", "args"}))
    if call_extra:
        extra["functionCall"] = call_extra
    raw_id = call.get("id")
    if raw_id is None:
        call_id = f"gemini_{mi}_{pi}"
        extra["id_assigned"] = True
    else:
        call_id = str(raw_id)
    ids.call(name, call_id)
    return ToolCallPart(call_id, name, args, extra)


def _response(
    response: dict[str, Any], part: dict[str, Any], path: str, ids: _Ids
) -> ToolResultPart:
    name = response.get("name")
    name = name if isinstance(name, str) else ""
    raw_id = response.get("id")
    call_id = ids.answer(name, None if raw_id is None else str(raw_id))
    extra = vendor_fields(part, frozenset({"functionResponse", "function_response"}))
    resp_extra = vendor_fields(response, frozenset({"id", "name", "response"}))
    if resp_extra:
        extra["functionResponse"] = resp_extra
    if raw_id is None:
        extra["id_assigned"] = True
    body = response.get("response")
    content = body if isinstance(body, str) else json.dumps(body, ensure_ascii=False)
    is_error = isinstance(body, dict) and "error" in body and len(body) == 1
    # {"content": text} / {"error": text} is how a text result travels (studio.sessions.wire).
    if isinstance(body, dict) and len(body) == 1:
        ((key, value),) = body.items()
        if key in ("content", "error") and isinstance(value, str):
            content = value
    return ToolResultPart(call_id or "", content, is_error, name, extra)
