"""Anthropic Messages: ``{"system", "messages", "tools"}`` with tool_use / tool_result blocks.

``tool_use.input`` is an object; the user message right after holds a
``tool_result`` block per id (DESIGN §6). A user message holding only
tool_result blocks becomes a tool message; a mixed one stays a user message
with its blocks in their order, so the "tool_result first" rule can be checked.
Blocks the session model has no part for (thinking, images, documents) are
kept in ``extra["blocks"]`` with their index.
"""

from __future__ import annotations

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

_TOP_KEYS = frozenset({"messages", "system", "tools"})


def read(data: Any, reader: Reader) -> Conversation:
    if isinstance(data, list):
        items, base, tools, meta, system = data, "$", [], {}, None
    elif isinstance(data, dict) and isinstance(data.get("messages"), list):
        items, base = data["messages"], "$.messages"
        tools = tool_definitions(data, reader)
        meta = vendor_fields(data, _TOP_KEYS)
        system = data.get("system")
    else:
        raise Rejected("$", "expected an object with 'messages' (and 'system', 'tools')")
    messages: list[Message] = []
    if system:
        extra: dict[str, Any] = {}
        try:
            text = content_text(system, "$.system", reader, extra)
            messages.append(Message(Role.SYSTEM, (TextPart(text),), extra))
        except Rejected as exc:
            reader.reject(exc)
    for _, path, entry in reader.each(items, base, messages):
        try:
            messages.append(read_message(entry, path, reader))
        except Rejected as exc:
            reader.reject(exc)
    return Conversation(renumber_ids(messages, reader, prefix="toolu"), tools, meta)


def read_message(entry: Any, path: str, reader: Reader) -> Message:
    if not isinstance(entry, dict):
        raise Rejected(path, f"a message must be an object, not {kind_of(entry)}")
    role_name = entry.get("role")
    if role_name not in ("user", "assistant"):
        raise Rejected(f"{path}.role", f"unknown role {role_name!r} (user or assistant)")
    extra = vendor_fields(entry, frozenset({"role", "content"}))
    content = entry.get("content")
    if isinstance(content, str):
        role = Role.USER if role_name == "user" else Role.ASSISTANT
        return Message(role, (TextPart(content),) if content else (), extra)
    if not isinstance(content, list):
        raise Rejected(
            f"{path}.content", f"must be a string or a list of blocks, not {kind_of(content)}"
        )
    parts: list[Part] = []
    kept: list[dict[str, Any]] = []
    for i, block in enumerate(content):
        bpath = f"{path}.content[{i}]"
        if isinstance(block, str):
            parts.append(TextPart(block))
            continue
        if not isinstance(block, dict):
            raise Rejected(bpath, f"a content block must be an object, not {kind_of(block)}")
        kind = block.get("type")
        if kind == "text":
            parts.append(TextPart(str(block.get("text", ""))))
        elif kind == "tool_use":
            parts.append(_tool_use(block, bpath, reader))
        elif kind == "tool_result":
            parts.append(_tool_result(block, bpath, reader))
        else:
            kept.append({"index": i, "block": block})
    if kept:
        extra["blocks"] = kept
    if role_name == "assistant":
        return Message(Role.ASSISTANT, tuple(parts), extra)
    only_results = parts and all(isinstance(p, ToolResultPart) for p in parts)
    return Message(Role.TOOL if only_results else Role.USER, tuple(parts), extra)


def _tool_use(block: dict[str, Any], path: str, reader: Reader) -> ToolCallPart:
    name = block.get("name")
    if not isinstance(name, str) or not name:
        raise Rejected(f"{path}.name", "a tool_use block needs a name")
    raw_id = block.get("id")
    args = decode_arguments(block.get("input"), f"{path}.input", reader, want="object")
    extra = vendor_fields(block, frozenset({"type", "id", "name", "input"}))
    return ToolCallPart("" if raw_id is None else str(raw_id), name, args, extra)


def _tool_result(block: dict[str, Any], path: str, reader: Reader) -> ToolResultPart:
    raw_id = block.get("tool_use_id")
    if isinstance(raw_id, list):
        raise Rejected(f"{path}.tool_use_id", "a tool_result answers one tool_use id, not a list")
    extra = vendor_fields(block, frozenset({"type", "tool_use_id", "content", "is_error"}))
    text = content_text(block.get("content"), f"{path}.content", reader, extra)
    return ToolResultPart(
        "" if raw_id is None else str(raw_id), text, bool(block.get("is_error", False)), "", extra
    )
