"""Redacting secrets from sessions before they leave the studio.

API-key-like strings are replaced by ``[REDACTED]`` wherever they appear —
text, tool arguments, results and vendor fields: OpenAI-style keys
(``sk-…``, ``sk-proj-…``), Anthropic keys (``sk-ant-…``), ``Bearer …``
tokens, ``x-api-key: …`` / ``api_key=…`` pairs, and the values of fields
named like secrets (``authorization``, ``api_key``, ``password`` …).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from studio.sessions.model import Message, Part, TextPart, ToolCallPart, ToolResultPart

REDACTED = "[REDACTED]"
_SECRET_FIELDS = frozenset({
    "authorization", "proxy-authorization", "x-api-key", "api-key", "api_key", "apikey",
    "x-goog-api-key", "password", "secret", "client_secret", "access_token", "refresh_token",
    "cookie", "set-cookie", "token",
})  # fmt: skip
_PATTERNS = (
    # key: value / key=value pairs (headers in logs, query strings)
    re.compile(
        r"(?i)\b((?:x-api-key|x-goog-api-key|api[_-]?key|access[_-]?token|client[_-]?secret)"
        r"[\"']?\s*[:=]\s*[\"']?)([^\s\"'&,;}]{6,})"
    ),
    re.compile(r"(?i)\b(bearer\s+)([A-Za-z0-9._~+/=-]{8,})"),
    re.compile(r"()\bsk-(?:ant-|proj-|live-|test-)?[A-Za-z0-9_-]{16,}"),
    re.compile(r"()\bAIza[0-9A-Za-z_-]{30,}"),  # Google API keys
)


def redact_text(text: str) -> str:
    """``text`` with every API-key-like string replaced."""
    if not text:
        return text
    for pattern in _PATTERNS:
        text = pattern.sub(lambda m: m.group(1) + REDACTED, text)
    return text


def redact_value(value: Any) -> Any:
    """A JSON value with secret fields and key-like strings replaced (a copy)."""
    if isinstance(value, str):
        return redact_text(value)
    if isinstance(value, dict):
        return {
            k: (REDACTED if str(k).lower() in _SECRET_FIELDS and v else redact_value(v))
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [redact_value(v) for v in value]
    return value


def redact_part(part: Part) -> Part:
    if isinstance(part, TextPart):
        return TextPart(redact_text(part.text))
    if isinstance(part, ToolCallPart):
        return ToolCallPart(
            part.id, part.name, redact_value(part.arguments), redact_value(part.extra)
        )
    return ToolResultPart(part.id, redact_text(part.content), part.is_error, part.name,
                          redact_value(part.extra))  # fmt: skip


def redact_messages(messages: Sequence[Message]) -> list[Message]:
    """Copies of ``messages`` with secrets replaced."""
    return [Message(m.role, tuple(redact_part(p) for p in m.parts), redact_value(m.extra))
            for m in messages]  # fmt: skip
