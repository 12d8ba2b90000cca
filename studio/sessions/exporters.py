"""Exporting a session for sharing: OpenAI chat, Anthropic messages or studio JSONL, redacted.

The wire shapes come from the providers' own converters (the ones the
runtime sends), so an export is exactly what the studio would send; the
studio format keeps every part and vendor field. Secrets are redacted by
default (:mod:`studio.sessions.redact`). Every export reads back with
:func:`studio.sessions.importers.import_sessions`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from studio.providers.anthropic import to_anthropic_messages
from studio.providers.openai_chat import to_openai_messages
from studio.sessions.importers.studio_jsonl import dump_session
from studio.sessions.model import Message
from studio.sessions.redact import redact_messages, redact_value

EXPORT_FORMATS: tuple[str, ...] = ("openai", "anthropic", "jsonl")


def export_document(
    messages: Sequence[Message],
    fmt: str,
    *,
    tools: Sequence[Any] = (),
    title: str = "",
    meta: dict[str, Any] | None = None,
    redact: bool = True,
) -> dict[str, Any]:
    """The session as one JSON document.

    Args:
        fmt: ``openai`` (``{"messages", "tools"}``), ``anthropic`` (``{"system",
            "messages", "tools"}``) or ``jsonl`` (the studio session document).
        tools: Tool definitions to include (as found in the log).
        redact: Replace API keys and other secrets (default True).
    """
    msgs = redact_messages(messages) if redact else list(messages)
    tools = redact_value(list(tools)) if redact else list(tools)
    meta = redact_value(meta or {}) if redact else dict(meta or {})
    if fmt == "openai":
        doc: dict[str, Any] = {"messages": to_openai_messages(tuple(msgs))}
    elif fmt == "anthropic":
        wire, system = to_anthropic_messages(tuple(msgs), [])
        doc = {"system": system, "messages": wire} if system else {"messages": wire}
        if not system:
            doc["system"] = ""  # marks the Messages API shape for detection
    elif fmt == "jsonl":
        return json.loads(dump_session(msgs, tools=tools, title=title, meta=meta))
    else:
        raise ValueError(f"unknown export format {fmt!r}; use {', '.join(EXPORT_FORMATS)}")
    if tools:
        doc["tools"] = tools
    if meta.get("model"):
        doc["model"] = meta["model"]
    return doc


def export_text(messages: Sequence[Message], fmt: str, **kwargs: Any) -> str:
    """:func:`export_document` as text: one line for ``jsonl``, indented JSON otherwise."""
    doc = export_document(messages, fmt, **kwargs)
    if fmt == "jsonl":
        return json.dumps(doc, ensure_ascii=False, separators=(",", ":")) + "\n"
    return json.dumps(doc, ensure_ascii=False, indent=2) + "\n"


def export_jsonl(sessions: Sequence[Sequence[Message]], *, redact: bool = True) -> str:
    """Several sessions as JSONL, one per line."""
    return "".join(export_text(m, "jsonl", redact=redact) for m in sessions)
