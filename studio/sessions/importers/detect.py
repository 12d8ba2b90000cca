"""Telling session formats apart by the shape of one decoded conversation."""

from __future__ import annotations

from typing import Any

FORMATS: tuple[str, ...] = (
    "openai", "openai-responses", "anthropic", "gemini", "studio", "claude-code", "codex",
)  # fmt: skip
_WIRE_NAMES = {
    "openai-chat": "openai",
    "anthropic-messages": "anthropic",
    "studio-session": "studio",
}
_ANTHROPIC_BLOCKS = frozenset({"tool_use", "tool_result", "thinking", "redacted_thinking"})
_OPENAI_ROLES = ("tool", "function", "system", "developer")
_GEMINI_ROLES = (None, "user", "model", "function")


def detect_session_format(data: Any) -> str | None:
    """The format of one conversation, or None when it matches none.

    Args:
        data: A decoded conversation: a list of messages/items/contents, or an
            object wrapping them.
    """
    if isinstance(data, dict):
        named = _WIRE_NAMES.get(str(data.get("format", "")))
        if named:
            return named
        if isinstance(data.get("contents"), list):
            return "gemini"
        if isinstance(data.get("input"), list | str) and "messages" not in data:
            return "openai-responses"
        if isinstance(data.get("output"), list) and "messages" not in data:
            return "openai-responses"
        if isinstance(data.get("history"), list) and "messages" not in data:
            return "openai"  # a SWE-agent trajectory
        messages = data.get("messages")
        if isinstance(messages, list):
            found = _list_format(messages)
            if found in ("anthropic", "studio") or _has_openai_only(messages):
                return found
            if "system" in data and found in (None, "openai") and not _has_openai_only(messages):
                return "anthropic"  # top-level system prompt: the Messages API shape
            if _tools_look_anthropic(data.get("tools")):
                return "anthropic"
            return found or ("openai" if not messages else None)
        return None
    if isinstance(data, list):
        return _list_format(data)
    return None


def _list_format(items: list[Any]) -> str | None:
    # The formats' modules on first use: an import of plain OpenAI logs detects nothing.
    from studio.sessions.importers import claude_code, codex, studio_jsonl
    from studio.sessions.importers.openai_responses import ITEM_TYPES

    if studio_jsonl.looks_like(items):
        return "studio"
    if claude_code.looks_like(items):
        return "claude-code"
    if codex.looks_like(items):
        return "codex"
    votes: set[str] = set()
    for item in items:
        if not isinstance(item, dict):
            continue
        if "parts" not in item and "type" not in item:
            # Neither Gemini's rule nor the Responses item's can vote (the usual chat
            # message): two dict lookups fewer per message of every conversation.
            if "tool_calls" in item or item.get("role") in _OPENAI_ROLES:
                votes.add("openai")
                continue
        elif isinstance(item.get("parts"), list) and item.get("role") in _GEMINI_ROLES:
            votes.add("gemini")
            continue
        elif _str(item.get("type")) in ITEM_TYPES:
            votes.add("openai-responses")
            continue
        elif "tool_calls" in item or item.get("role") in _OPENAI_ROLES:
            votes.add("openai")
            continue
        content = item.get("content")
        if not isinstance(content, list):
            continue
        if any(isinstance(b, dict) and _str(b.get("type")) in _ANTHROPIC_BLOCKS for b in content):
            votes.add("anthropic")
        elif any(
            isinstance(b, dict) and b.get("type") in ("input_text", "output_text") for b in content
        ):
            votes.add("openai-responses")
    if len(votes) == 1:
        return votes.pop()
    if not votes and items and all(isinstance(i, dict) and "role" in i for i in items):
        return "openai"  # plain text chat: every format reads it the same
    if votes == {"openai", "anthropic"}:
        return None
    return None


def _has_openai_only(messages: list[Any]) -> bool:
    return any(
        isinstance(m, dict) and ("tool_calls" in m or m.get("role") in ("tool", "system"))
        for m in messages
    )


def _tools_look_anthropic(tools: Any) -> bool:
    return isinstance(tools, list) and any(
        isinstance(t, dict) and "input_schema" in t for t in tools
    )


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None
