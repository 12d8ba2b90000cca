"""OpenAI Chat Completions messages: a bare list, or ``{"messages": [...], "tools": [...]}``.

Assistant ``tool_calls[].function.arguments`` is a JSON string; each call is
answered by a ``{"role": "tool", "tool_call_id": …}`` message (DESIGN §6).
Legacy ``function_call`` / ``role: "function"`` messages are read too.
Messy variants accepted with a warning: arguments logged as objects or
encoded twice, a tool message whose ``tool_call_id`` is a list of ids, and
SWE-agent trajectories (``{"history": [...]}``; tool messages carry
``"tool_call_ids": [id]`` with ``"tool_call_id": null``).
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
    plain_json_arguments,
    renumber_ids,
    tool_definitions,
    vendor_fields,
)
from studio.sessions.model import (
    Message,
    Part,
    Role,
    ToolCallPart,
    ToolResultPart,
    new_message,
    new_text_part,
    new_tool_call,
    new_tool_result,
)

_MESSAGE_KEYS = frozenset(
    {"role", "content", "tool_calls", "tool_call_id", "tool_call_ids", "name", "function_call"}
)
_CALL_KEYS = frozenset({"id", "type", "function"})
_FUNCTION_KEYS = frozenset({"name", "arguments"})
_ROLES = {"system": Role.SYSTEM, "developer": Role.SYSTEM, "user": Role.USER,
          "assistant": Role.ASSISTANT, "tool": Role.TOOL, "function": Role.TOOL}  # fmt: skip
# Read per message: an enum member looked up on its class costs ~0.2 µs (Python 3.11).
_TOOL, _ASSISTANT = Role.TOOL, Role.ASSISTANT


def read(data: Any, reader: Reader) -> Conversation:
    """One conversation (list or object) → internal messages."""
    tools: list[Any]
    if isinstance(data, list):
        items, base, tools, meta = data, "$", [], {}
    elif isinstance(data, dict) and _history_only(data):
        # A SWE-agent trajectory (.traj): the model's messages are its "history".
        items, base, tools = data["history"], "$.history", []
        meta = {k: v for k, v in data.items() if k in ("environment", "replay_config")}
        info = data.get("info")
        if isinstance(info, dict) and isinstance(info.get("model_stats"), dict):
            meta["model_stats"] = info["model_stats"]
    elif isinstance(data, dict) and isinstance(data.get("messages"), list):
        items, base = data["messages"], "$.messages"
        tools = tool_definitions(data, reader, "tools", "functions")
        meta = vendor_fields(data, frozenset({"messages", "tools", "functions"}))
    else:
        raise Rejected("$", "expected a list of messages or an object with 'messages'")
    messages: list[Message] = []
    reader.read_each(items, base, messages, _message)
    return Conversation(renumber_ids(messages, reader), tools, meta)


def _history_only(data: dict[str, Any]) -> bool:
    return isinstance(data.get("history"), list) and "messages" not in data


def read_message(entry: Any, path: str, reader: Reader) -> list[Message]:
    """One logged message as internal messages (always one; a list for the proxy's wire reader)."""
    return [_message(entry, path, reader)]


def _message(entry: Any, path: str, reader: Reader) -> Message:
    if not isinstance(entry, dict):
        raise Rejected(path, f"a message must be an object, not {kind_of(entry)}")
    role_name = entry.get("role")
    role = _ROLES.get(role_name) if isinstance(role_name, str) else None
    if role is None:
        raise Rejected(f"{path}.role", f"unknown role {role_name!r}")
    # The usual message (known keys only, text content) skips the helpers' calls.
    extra = {} if entry.keys() <= _MESSAGE_KEYS else vendor_fields(entry, _MESSAGE_KEYS)
    if role_name == "developer":
        extra["role"] = "developer"
    if role is _TOOL:
        return _tool_message(entry, path, reader, extra)
    content = entry.get("content")
    text = (
        content if type(content) is str else content_text(content, f"{path}.content", reader, extra)
    )
    parts: list[Part] = [new_text_part(text)] if text else []
    if role is _ASSISTANT:
        calls = entry.get("tool_calls")
        if calls is not None and not isinstance(calls, list):
            raise Rejected(f"{path}.tool_calls", f"must be a list, not {kind_of(calls)}")
        for i, call in enumerate(calls or ()):
            parts.append(_call(call, f"{path}.tool_calls[{i}]", reader))
        legacy = entry.get("function_call")
        if isinstance(legacy, dict):
            parts.append(_call({"id": "", "function": legacy}, f"{path}.function_call", reader))
    elif "name" in entry:
        extra["name"] = entry["name"]
    return new_message(role, tuple(parts), extra)


def _call(call: Any, path: str, reader: Reader) -> ToolCallPart:
    if not isinstance(call, dict):
        raise Rejected(path, f"a tool call must be an object, not {kind_of(call)}")
    fn = call.get("function")
    if not isinstance(fn, dict) or not isinstance(fn.get("name"), str) or not fn["name"]:
        raise Rejected(f"{path}.function.name", "a tool call needs a function name")
    raw_id = call.get("id")
    call_id = "" if raw_id is None else str(raw_id)
    raw = fn.get("arguments")
    if type(raw) is str and plain_json_arguments(raw):
        args: str | dict[str, Any] = raw  # the usual case, with no warning to word
    else:
        args = decode_arguments(raw, f"{path}.function.arguments", reader, want="string")
    # The usual call (known keys only) skips vendor_fields' calls, as _message does.
    extra = {} if call.keys() <= _CALL_KEYS else vendor_fields(call, _CALL_KEYS)
    if not fn.keys() <= _FUNCTION_KEYS:
        extra["function"] = vendor_fields(fn, _FUNCTION_KEYS)
    return new_tool_call(call_id, fn["name"], args, extra)


def _tool_message(
    entry: dict[str, Any], path: str, reader: Reader, extra: dict[str, Any]
) -> Message:
    ids = entry.get("tool_call_id")
    listed = entry.get("tool_call_ids")
    if ids is None and isinstance(listed, list):
        # SWE-agent trajectories: "tool_call_ids": ["call_…"] and "tool_call_id": null.
        if not listed or not all(isinstance(i, str) for i in listed):
            raise Rejected(f"{path}.tool_call_ids", "a list of tool_call_ids must hold strings")
        reader.warn(
            f"{path}.tool_call_ids",
            "tool_call_id is null; paired by the list tool_call_ids (SWE-agent form)",
        )
        ids = listed[0] if len(listed) == 1 else listed
    elif ids is not None and listed is not None:
        extra["tool_call_ids"] = listed
    raw_name = entry.get("name")
    name = raw_name if isinstance(raw_name, str) else ""
    extra.pop("name", None)
    content = entry.get("content")
    if isinstance(ids, list):
        if not ids or not all(isinstance(i, str) for i in ids):
            raise Rejected(f"{path}.tool_call_id", "a list of tool_call_ids must hold strings")
        reader.warn(
            f"{path}.tool_call_id",
            f"one tool message answers {len(ids)} ids; split into one result per id",
        )
        if isinstance(content, list) and len(content) == len(ids):
            contents = [_one_content(c) for c in content]
        else:
            text = content_text(content, f"{path}.content", reader, extra)
            contents = [text] * len(ids)
        parts = tuple(ToolResultPart(i, c, False, name) for i, c in zip(ids, contents, strict=True))
        return Message(Role.TOOL, parts, extra)
    if ids is None and entry.get("role") == "function":
        ids = ""
    if not isinstance(ids, str):
        raise Rejected(f"{path}.tool_call_id", f"must be a string, not {kind_of(ids)}")
    text = content if type(content) is str else content_text(content, f"{path}.content", reader,
                                                                extra)  # fmt: skip
    is_error = bool(extra.pop("is_error", False))
    return new_message(_TOOL, (new_tool_result(ids, text, is_error, name, {}),), extra)


def _one_content(item: Any) -> str:
    if isinstance(item, str):
        return item
    if isinstance(item, dict) and isinstance(item.get("text"), str):
        return item["text"]
    return json.dumps(item, ensure_ascii=False)
