"""OpenAI Responses items: ``input`` and ``output`` lists of messages and function calls.

A ``function_call`` item ``{id, call_id, name, arguments}`` pairs with a
``function_call_output`` ``{call_id, output}`` by ``call_id`` — the item
``id`` (``fc_…``) is kept in the part's ``extra["item_id"]`` (DESIGN §6).
Consecutive function calls form one assistant turn (with the assistant text
before them); consecutive outputs form one tool message. Other items
(reasoning, web search calls …) are kept in the next assistant message's
``extra["items"]`` so nothing is lost.
"""

from __future__ import annotations

from typing import Any

from studio.sessions.importers.base import (
    Conversation,
    Origin,
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

_ROLES = {"system": Role.SYSTEM, "developer": Role.SYSTEM, "user": Role.USER,
          "assistant": Role.ASSISTANT}  # fmt: skip
ITEM_TYPES = frozenset({"message", "function_call", "function_call_output", "reasoning"})


def read(data: Any, reader: Reader) -> Conversation:
    tools: list[Any] = []
    meta: dict[str, Any] = {}
    lists: list[tuple[str, list[Any]]] = []
    if isinstance(data, list):
        lists.append(("$", data))
    elif isinstance(data, dict) and (
        isinstance(data.get("input"), list | str) or isinstance(data.get("output"), list)
    ):
        tools = tool_definitions(data, reader)
        meta = vendor_fields(data, frozenset({"input", "output", "tools", "instructions"}))
        if isinstance(data.get("input"), str):
            lists.append(("$.input", [{"role": "user", "content": data["input"]}]))
        elif isinstance(data.get("input"), list):
            lists.append(("$.input", data["input"]))
        if isinstance(data.get("output"), list):
            lists.append(("$.output", data["output"]))
    else:
        raise Rejected("$", "expected a list of items or an object with 'input' / 'output'")
    builder = _Builder()
    if (
        isinstance(data, dict)
        and isinstance(data.get("instructions"), str)
        and data["instructions"]
    ):
        builder.add(Role.SYSTEM, TextPart(data["instructions"]), {"from": "instructions"})
    for base, items in lists:
        for i, path, item in reader.each(items, base):
            builder.at = (path, reader.item_lines[i] if i < len(reader.item_lines) else reader.line)
            try:
                _read_item(item, path, reader, builder)
            except Rejected as exc:
                reader.reject(exc)
    messages = renumber_ids(builder.finish(), reader)
    return Conversation(messages, tools, meta, builder.origins)


class _Builder:
    """Groups items: calls join the current assistant turn; outputs form one tool message."""

    def __init__(self) -> None:
        self.messages: list[Message] = []
        self.role: Role | None = None
        self.parts: list[Part] = []
        self.extra: dict[str, Any] = {}
        self.pending_items: list[Any] = []
        self.at: tuple[str, int] = ("", 1)
        """The item being read (JSON path, file line): where a message starts."""
        self.origins: list[Origin] = []
        self._start: tuple[str, int] = ("", 1)
        self._pending_start: tuple[str, int] | None = None

    def add(self, role: Role, part: Part | None, extra: dict[str, Any] | None = None,
            *, new: bool = False) -> None:  # fmt: skip
        if new or role is not self.role or role in (Role.USER, Role.SYSTEM):
            self.flush()
            self.role = role
            self._start = self._pending_start or self.at
            self._pending_start = None
        if part is not None:
            self.parts.append(part)
        if extra:
            self.extra.update(extra)

    def flush(self) -> None:
        if self.role is not None:
            extra = dict(self.extra)
            if self.role is Role.ASSISTANT and self.pending_items:
                extra["items"] = self.pending_items
                self.pending_items = []
            self.messages.append(Message(self.role, tuple(self.parts), extra))
            self.origins.append(Origin(*self._start))
        self.role, self.parts, self.extra = None, [], {}

    def keep(self, item: Any) -> None:
        """An item the studio has no part for: kept with the next assistant message."""
        self.flush()
        if not self.pending_items:
            self._pending_start = self.at
        self.pending_items.append(item)

    def finish(self) -> list[Message]:
        self.flush()
        if self.pending_items:
            self.messages.append(Message(Role.ASSISTANT, (), {"items": self.pending_items}))
            self.origins.append(Origin(*(self._pending_start or self.at)))
            self.pending_items = []
        return self.messages


def _read_item(item: Any, path: str, reader: Reader, b: _Builder) -> None:
    if not isinstance(item, dict):
        raise Rejected(path, f"an item must be an object, not {kind_of(item)}")
    kind = item.get("type")
    if kind == "function_call":
        name = item.get("name")
        if not isinstance(name, str) or not name:
            raise Rejected(f"{path}.name", "a function_call item needs a name")
        call_id = item.get("call_id")
        if call_id is None and item.get("id") is not None:
            reader.warn(path, "function_call has no call_id; its item id is used")
            call_id = item.get("id")
        args = decode_arguments(item.get("arguments"), f"{path}.arguments", reader, want="string")
        extra = vendor_fields(item, frozenset({"type", "call_id", "name", "arguments", "id"}))
        if item.get("id") is not None:
            extra["item_id"] = item["id"]
        # a function call continues the assistant turn started by an output message
        b.add(
            Role.ASSISTANT, ToolCallPart("" if call_id is None else str(call_id), name, args, extra)
        )
        return
    if kind == "function_call_output":
        call_id = item.get("call_id")
        if isinstance(call_id, list):
            raise Rejected(
                f"{path}.call_id", "a function_call_output answers one call_id, not a list"
            )
        extra = vendor_fields(item, frozenset({"type", "call_id", "output", "id"}))
        if item.get("id") is not None:
            extra["item_id"] = item["id"]
        text = content_text(item.get("output"), f"{path}.output", reader, extra)
        b.add(
            Role.TOOL,
            ToolResultPart("" if call_id is None else str(call_id), text, False, "", extra),
        )
        return
    if kind in (None, "message"):
        role_name = item.get("role")
        role = _ROLES.get(role_name) if isinstance(role_name, str) else None
        if role is None:
            raise Rejected(f"{path}.role", f"unknown role {item.get('role')!r}")
        extra = vendor_fields(item, frozenset({"type", "role", "content"}))
        text = content_text(item.get("content"), f"{path}.content", reader, extra)
        if item.get("role") == "developer":
            extra["role"] = "developer"
        b.add(role, TextPart(text) if text else None, extra, new=True)
        return
    if not isinstance(kind, str):
        raise Rejected(f"{path}.type", f"unknown item type {kind!r}")
    b.keep(item)  # reasoning & co: kept with the next assistant message
