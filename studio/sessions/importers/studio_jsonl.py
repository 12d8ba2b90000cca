"""The studio's own session format: one JSON object per conversation (one per line in JSONL).

``{"format": "studio-session", "version": 1, "title", "meta", "tools",
"messages": [message_to_dict(...)]}`` — the internal messages verbatim, so
an export → import round trip is exact. :func:`dump_session` writes it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from studio.sessions.importers.base import (
    Conversation,
    Reader,
    Rejected,
    kind_of,
    renumber_ids,
    tool_definitions,
)
from studio.sessions.model import Message, message_from_dict, message_to_dict

FORMAT = "studio-session"
VERSION = 1
_PART_TYPES = ("text", "tool_call", "tool_result")


def session_document(
    messages: Sequence[Message],
    *,
    tools: Sequence[Any] = (),
    title: str = "",
    meta: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The JSON document of one session."""
    doc: dict[str, Any] = {"format": FORMAT, "version": VERSION}
    if title:
        doc["title"] = title
    if meta:
        doc["meta"] = meta
    if tools:
        doc["tools"] = list(tools)
    doc["messages"] = [message_to_dict(m) for m in messages]
    return doc


def dump_session(messages: Sequence[Message], **kwargs: Any) -> str:
    """One JSONL line (no newline) holding the session."""
    return json.dumps(
        session_document(messages, **kwargs), ensure_ascii=False, separators=(",", ":")
    )


def looks_like(data: Any) -> bool:
    if isinstance(data, dict):
        return data.get("format") == FORMAT
    return isinstance(data, list) and bool(data) and all(_is_studio_message(m) for m in data)


def _is_studio_message(entry: Any) -> bool:
    return (
        isinstance(entry, dict)
        and isinstance(entry.get("parts"), list)
        and all(isinstance(p, dict) and p.get("type") in _PART_TYPES for p in entry["parts"])
    )


def read(data: Any, reader: Reader) -> Conversation:
    if isinstance(data, dict):
        items, base = data.get("messages"), "$.messages"
        if not isinstance(items, list):
            raise Rejected(base, f"must be a list of messages, not {kind_of(items)}")
        version = data.get("version", VERSION)
        if isinstance(version, int) and version > VERSION:
            reader.warn(
                "$.version", f"written by a newer studio (version {version}); read as {VERSION}"
            )
        tools = tool_definitions(data, reader)
        meta_value = data.get("meta")
        meta = dict(meta_value) if isinstance(meta_value, dict) else {}
        if meta_value is not None and not isinstance(meta_value, dict):
            reader.warn("$.meta", f"must be an object, not {kind_of(meta_value)}; left out")
        if data.get("title"):
            meta.setdefault("title", data["title"])
    elif isinstance(data, list):
        items, base, tools, meta = data, "$", [], {}
    else:
        raise Rejected("$", "expected a studio session document")
    messages: list[Message] = []
    for _, path, entry in reader.each(items, base, messages):
        try:
            messages.append(message_from_dict(entry))
        except (KeyError, ValueError, TypeError, AttributeError) as exc:
            detail = f"missing field {exc}" if isinstance(exc, KeyError) else str(exc)
            reader.reject(Rejected(path, f"not a studio message: {detail}"))
    return Conversation(renumber_ids(messages, reader), tools, meta)
