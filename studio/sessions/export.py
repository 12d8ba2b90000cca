"""Export a session as OpenAI Chat or Anthropic Messages JSON, and read those back.

The wire shape comes from the providers' own converters, so an exported
session is exactly what the studio would send (DESIGN §6). The readers turn
such a file back into internal messages, e.g. to check its pairing with
:func:`studio.sessions.pairing.analyse_pairing`.

Typical use::

    document = export_session(messages, "openai", system="You are…")
    json.dumps(document)          # {"format": "openai-chat", "messages": [...]}
    messages_from_export(document)
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Literal

from studio.providers.anthropic import to_anthropic_messages
from studio.providers.openai_chat import to_openai_messages
from studio.sessions.model import Message, Part, Role, TextPart, ToolCallPart, ToolResultPart

ExportFormat = Literal["openai", "anthropic"]
FORMAT_NAMES = {"openai": "openai-chat", "anthropic": "anthropic-messages"}


def export_session(
    messages: Sequence[Message], fmt: ExportFormat, *, system: str = ""
) -> dict[str, Any]:
    """The session as a JSON document in the wire format ``fmt``.

    Args:
        messages: The internal messages.
        fmt: ``openai`` (Chat Completions ``messages``) or ``anthropic``
            (Messages API ``system`` + ``messages``).
        system: The run's system prompt.

    Return:
        ``{"format": ..., "messages": [...]}`` (plus ``system`` and ``notes``
        for Anthropic: what had to be adapted to fit the format).
    """
    if fmt == "openai":
        return {
            "format": FORMAT_NAMES[fmt],
            "messages": to_openai_messages(tuple(messages), system),
        }
    if fmt == "anthropic":
        notes: list[str] = []
        wire, system_text = to_anthropic_messages(tuple(messages), notes)
        document: dict[str, Any] = {"format": FORMAT_NAMES[fmt], "messages": wire}
        merged = "\n\n".join(s for s in (system, system_text) if s)
        if merged:
            document["system"] = merged
        if notes:
            document["notes"] = notes
        return document
    raise ValueError(f"unknown export format {fmt!r}; use openai or anthropic")


def messages_from_export(document: dict[str, Any]) -> list[Message]:
    """Internal messages from a document written by :func:`export_session`."""
    fmt = document.get("format")
    if fmt == FORMAT_NAMES["openai"]:
        return messages_from_openai(document["messages"])
    if fmt == FORMAT_NAMES["anthropic"]:
        return messages_from_anthropic(document["messages"])
    raise ValueError(f"unknown session format {fmt!r}")


def messages_from_openai(wire: Sequence[dict[str, Any]]) -> list[Message]:
    """Chat Completions messages → internal messages (system messages kept as such)."""
    out: list[Message] = []
    for entry in wire:
        role = entry["role"]
        if role == "tool":
            part = ToolResultPart(str(entry["tool_call_id"]), _text(entry.get("content")))
            out.append(Message(Role.TOOL, (part,)))
            continue
        parts: list[Part] = []
        text = _text(entry.get("content"))
        if text:
            parts.append(TextPart(text))
        for call in entry.get("tool_calls") or ():
            fn = call.get("function") or {}
            parts.append(
                ToolCallPart(str(call["id"]), str(fn.get("name", "")), fn.get("arguments", ""))
            )
        out.append(Message(Role(role), tuple(parts)))
    return out


def messages_from_anthropic(wire: Sequence[dict[str, Any]]) -> list[Message]:
    """Messages API messages → internal messages (tool results become tool messages)."""
    out: list[Message] = []
    for entry in wire:
        content = entry["content"]
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
        results: list[Part] = []
        parts: list[Part] = []
        for block in blocks:
            kind = block.get("type")
            if kind == "text":
                parts.append(TextPart(str(block.get("text", ""))))
            elif kind == "tool_use":
                parts.append(
                    ToolCallPart(str(block["id"]), str(block["name"]), block.get("input", {}))
                )
            elif kind == "tool_result":
                results.append(
                    ToolResultPart(
                        str(block["tool_use_id"]),
                        _text(block.get("content")),
                        bool(block.get("is_error", False)),
                    )
                )
        if results:
            out.append(Message(Role.TOOL, tuple(results)))
        if parts or not results:
            out.append(Message(Role(entry["role"]), tuple(parts)))
    return out


def _text(content: Any) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(str(b.get("text", "")) for b in content if isinstance(b, dict))
    return json.dumps(content, ensure_ascii=False)
