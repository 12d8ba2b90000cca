"""The internal message shape of a session (DESIGN §6).

A session is a list of messages ``{role, parts[]}`` where a part is text, a
tool call ``{id, name, arguments}`` or a tool result ``{id, content,
is_error}`` — close to the OpenTelemetry GenAI message shape. Providers,
importers and exporters translate at the edges; everything inside the studio
(runtime, pairing analysis, replay, the conversation view) speaks this.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

JSONValue = Any


class Role(StrEnum):
    SYSTEM = "system"
    USER = "user"
    ASSISTANT = "assistant"
    TOOL = "tool"


@dataclass(frozen=True, slots=True)
class TextPart:
    """Plain text."""

    text: str
    kind: str = field(default="text", init=False)


@dataclass(frozen=True, slots=True)
class ToolCallPart:
    """A tool call as the model proposed it.

    Attributes:
        id: The provider's call id (``call_…``, ``toolu_…``); pairs with a result.
        name: Tool name as the model sent it (may be unknown to the registry).
        arguments: The arguments exactly as received: a JSON *string* for
            OpenAI (possibly invalid), an object for Anthropic and Gemini.
        extra: Vendor fields kept verbatim (e.g. Gemini ``thoughtSignature``).
    """

    id: str
    name: str
    arguments: str | dict[str, JSONValue]
    extra: dict[str, JSONValue] = field(default_factory=dict)
    kind: str = field(default="tool_call", init=False)


@dataclass(frozen=True, slots=True)
class ToolResultPart:
    """The result paired to a tool call by ``id``."""

    id: str
    content: str
    is_error: bool = False
    name: str = ""
    extra: dict[str, JSONValue] = field(default_factory=dict)
    kind: str = field(default="tool_result", init=False)


Part = TextPart | ToolCallPart | ToolResultPart


@dataclass(frozen=True, slots=True)
class Message:
    """One message of a session."""

    role: Role
    parts: tuple[Part, ...]
    extra: dict[str, JSONValue] = field(default_factory=dict)
    """Vendor fields of the original message (kept on import, used on export)."""

    @property
    def text(self) -> str:
        return "".join([p.text for p in self.parts if isinstance(p, TextPart)])

    @property
    def tool_calls(self) -> tuple[ToolCallPart, ...]:
        # List comprehensions: the analyses call these per message, a generator costs 2×.
        return tuple([p for p in self.parts if isinstance(p, ToolCallPart)])

    @property
    def tool_results(self) -> tuple[ToolResultPart, ...]:
        return tuple([p for p in self.parts if isinstance(p, ToolResultPart)])


_new = object.__new__
_MESSAGE_SLOTS = vars(Message)
_set_role = _MESSAGE_SLOTS["role"].__set__
_set_parts = _MESSAGE_SLOTS["parts"].__set__
_set_extra = _MESSAGE_SLOTS["extra"].__set__
_set_text = vars(TextPart)["text"].__set__
_set_text_kind = vars(TextPart)["kind"].__set__


def new_message(role: Role, parts: tuple[Part, ...], extra: dict[str, JSONValue]) -> Message:
    """``Message(role, parts, extra)``, ~30 % faster, for importers building thousands.

    A frozen dataclass's ``__init__`` sets each field through ``object.__setattr__``;
    this sets them through their slots, giving an equal object (no ``__post_init__``).
    """
    message = _new(Message)
    _set_role(message, role)
    _set_parts(message, parts)
    _set_extra(message, extra)
    return message


def new_text_part(text: str) -> TextPart:
    """``TextPart(text)`` the way :func:`new_message` builds a message."""
    part = _new(TextPart)
    _set_text(part, text)
    _set_text_kind(part, "text")
    return part


_CALL_SLOTS = vars(ToolCallPart)
_RESULT_SLOTS = vars(ToolResultPart)
_CALL_SETTERS = tuple(_CALL_SLOTS[f].__set__ for f in ("id", "name", "arguments", "extra", "kind"))
_RESULT_SETTERS = tuple(
    _RESULT_SLOTS[f].__set__ for f in ("id", "content", "is_error", "name", "extra", "kind")
)


def new_tool_call(
    call_id: str, name: str, arguments: str | dict[str, JSONValue], extra: dict[str, JSONValue]
) -> ToolCallPart:
    """``ToolCallPart(call_id, name, arguments, extra)`` the way :func:`new_message` builds one."""
    part = _new(ToolCallPart)
    set_id, set_name, set_arguments, set_extra, set_kind = _CALL_SETTERS
    set_id(part, call_id)
    set_name(part, name)
    set_arguments(part, arguments)
    set_extra(part, extra)
    set_kind(part, "tool_call")
    return part


def new_tool_result(
    call_id: str, content: str, is_error: bool, name: str, extra: dict[str, JSONValue]
) -> ToolResultPart:
    """``ToolResultPart(call_id, content, is_error, name, extra)``, as :func:`new_tool_call`."""
    part = _new(ToolResultPart)
    set_id, set_content, set_is_error, set_name, set_extra, set_kind = _RESULT_SETTERS
    set_id(part, call_id)
    set_content(part, content)
    set_is_error(part, is_error)
    set_name(part, name)
    set_extra(part, extra)
    set_kind(part, "tool_result")
    return part


def part_to_dict(part: Part) -> dict[str, JSONValue]:
    """JSON form of a part (the studio's own session format)."""
    if isinstance(part, TextPart):
        return {"type": "text", "text": part.text}
    if isinstance(part, ToolCallPart):
        out: dict[str, JSONValue] = {
            "type": "tool_call",
            "id": part.id,
            "name": part.name,
            "arguments": part.arguments,
        }
    else:
        out = {
            "type": "tool_result",
            "id": part.id,
            "content": part.content,
            "is_error": part.is_error,
        }
        if part.name:
            out["name"] = part.name
    if part.extra:
        out["extra"] = part.extra
    return out


def message_to_dict(message: Message) -> dict[str, JSONValue]:
    """JSON form of a message (the studio's own session format)."""
    out: dict[str, JSONValue] = {
        "role": message.role._value_,  # .value is a property: ~10× slower, per message
        "parts": [part_to_dict(p) for p in message.parts],
    }
    if message.extra:
        out["extra"] = message.extra
    return out


def part_from_dict(data: dict[str, JSONValue]) -> Part:
    """Inverse of :func:`part_to_dict` (raises KeyError/ValueError on bad input)."""
    kind = data["type"]
    extra = dict(data.get("extra") or {})
    if kind == "text":
        return TextPart(str(data["text"]))
    if kind == "tool_call":
        return ToolCallPart(str(data["id"]), str(data["name"]), data["arguments"], extra)
    if kind == "tool_result":
        return ToolResultPart(
            str(data["id"]),
            str(data["content"]),
            bool(data.get("is_error", False)),
            str(data.get("name", "")),
            extra,
        )
    raise ValueError(f"unknown part type {kind!r}")


def message_from_dict(data: dict[str, JSONValue]) -> Message:
    """Inverse of :func:`message_to_dict`."""
    return Message(
        Role(data["role"]),
        tuple(part_from_dict(p) for p in data["parts"]),
        dict(data.get("extra") or {}),
    )
