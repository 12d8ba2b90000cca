"""The two wire formats the proxy understands: which requests are model calls, how to read them.

A :class:`WireFormat` knows, for OpenAI Chat Completions or Anthropic
Messages: the request paths that are model calls (everything else passes
through unrecorded), how a request body's messages read as internal messages
(:mod:`studio.sessions.model`) and go back to wire form, the error body the
provider sends for a refused request, and how an answer — one JSON document
or a stream of server-sent events — becomes the assistant message.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from studio.formats.base import load_json
from studio.providers.anthropic import (
    AnthropicStreamAssembler,
    parse_anthropic_message,
    to_anthropic_messages,
)
from studio.providers.base import ProviderError, Usage
from studio.providers.openai_chat import (
    OpenAIStreamAssembler,
    parse_openai_completion,
    to_openai_messages,
)
from studio.proxy.sse import SSEReader
from studio.sessions.importers import anthropic as anthropic_importer
from studio.sessions.importers import openai_chat as openai_importer
from studio.sessions.importers.base import Reader, Rejected, content_text
from studio.sessions.model import Message, Role, TextPart


class Kind(StrEnum):
    """The wire format an upstream speaks (``--kind``)."""

    OPENAI_CHAT = "openai-chat"
    ANTHROPIC_MESSAGES = "anthropic-messages"

    @property
    def provider(self) -> str:
        """The provider key of :attr:`PairingProblem.provider_errors`."""
        return "openai" if self is Kind.OPENAI_CHAT else "anthropic"


@dataclass(slots=True)
class ReadRequest:
    """The messages of one request body, and where each came from.

    Attributes:
        messages: Internal messages (Anthropic's ``system`` first, as a system message).
        origin: For each message, the index of the wire message it was read
            from (``-1``: the top-level ``system``), so unchanged messages go
            back to the provider byte for byte after a repair.
        unreadable: Paths and reasons of wire messages that could not be read
            (each is recorded as a placeholder text message).
    """

    messages: list[Message]
    origin: list[int]
    unreadable: list[str] = field(default_factory=list)


def is_model_call(kind: Kind, method: str, path: str) -> bool:
    """Whether a request is a model call the proxy records and checks."""
    if method != "POST":
        return False
    if kind is Kind.OPENAI_CHAT:
        return path.rstrip("/").endswith("/chat/completions")
    return path.rstrip("/").endswith("/messages")


def read_request(kind: Kind, body: dict[str, Any]) -> ReadRequest:
    """The messages of a model-call body (ids exactly as sent: nothing is renumbered)."""
    reader = Reader("request", 1)
    out = ReadRequest([], [])
    if kind is Kind.ANTHROPIC_MESSAGES and body.get("system"):
        extra: dict[str, Any] = {}
        try:
            text = content_text(body["system"], "$.system", reader, extra)
            out.messages.append(Message(Role.SYSTEM, (TextPart(text),), extra))
            out.origin.append(-1)
        except Rejected as exc:
            out.unreadable.append(f"{exc.path}: {exc.message}")
    items = body.get("messages")
    for i, entry in enumerate(items if isinstance(items, list) else []):
        path = f"$.messages[{i}]"
        try:
            if kind is Kind.OPENAI_CHAT:
                read = openai_importer.read_message(entry, path, reader)
            else:
                read = [anthropic_importer.read_message(entry, path, reader)]
        except Rejected as exc:
            out.unreadable.append(f"{exc.path}: {exc.message}")
            role = entry.get("role") if isinstance(entry, dict) else None
            placeholder = Role.ASSISTANT if role == "assistant" else Role.USER
            text = f"[unreadable message: {exc.message}]"
            read = [Message(placeholder, (TextPart(text),), {"proxy_unreadable": exc.path})]
        for message in read:
            out.messages.append(message)
            out.origin.append(i)
    return out


def write_messages(
    kind: Kind, body: dict[str, Any], read: ReadRequest, messages: list[Message]
) -> dict[str, Any]:
    """A copy of ``body`` whose messages are ``messages`` (after a repair).

    A message equal to one read from the body, and the only one read from its
    wire message, goes back as that wire message unchanged; the others are
    converted by the provider clients' own converters.
    """
    wire = body.get("messages") or []
    single = {
        i: m
        for i, m in zip(read.origin, read.messages, strict=True)
        if i >= 0 and read.origin.count(i) == 1
    }
    by_message: dict[int, int] = {id(m): i for i, m in single.items()}
    original_by_value = {i: m for i, m in single.items()}
    out: list[tuple[dict[str, Any], bool]] = []  # (wire message, converted)
    system = body.get("system")
    for message in messages:
        index = by_message.get(id(message))
        if index is None:
            index = next((i for i, m in original_by_value.items() if m == message), None)
        if index is not None:
            out.append((wire[index], False))
            original_by_value.pop(index, None)
            continue
        if kind is Kind.OPENAI_CHAT:
            out.extend((m, True) for m in to_openai_messages((message,)))
        elif message.role is not Role.SYSTEM:  # Anthropic's system stays the top-level field
            out.extend((m, True) for m in to_anthropic_messages((message,))[0])
    if kind is Kind.ANTHROPIC_MESSAGES:
        out = _merge_turns(out)
    new = {**body, "messages": [m for m, _ in out]}
    if system is not None:
        new["system"] = system
    return new


def _merge_turns(
    messages: list[tuple[dict[str, Any], bool]],
) -> list[tuple[dict[str, Any], bool]]:
    """A converted message joins a neighbour of the same role (Anthropic pairs results with
    the very next turn); two messages the agent sent are left as they were."""
    out: list[tuple[dict[str, Any], bool]] = []
    for message, converted in messages:
        if out and (converted or out[-1][1]) and out[-1][0].get("role") == message.get("role"):
            previous = dict(out[-1][0])
            previous["content"] = _blocks(previous.get("content")) + _blocks(message.get("content"))
            if previous["role"] == "user":
                previous["content"].sort(key=lambda b: b.get("type") != "tool_result")
            out[-1] = (previous, True)
        else:
            out.append((message, converted))
    return out


def _blocks(content: Any) -> list[dict[str, Any]]:
    if isinstance(content, str):
        return [{"type": "text", "text": content}] if content else []
    return [b for b in content or [] if isinstance(b, dict)]


# ---------------------------------------------------------------- errors


def error_body(kind: Kind, message: str, hint: str) -> dict[str, Any]:
    """The provider's 400 body for an invalid request, with the proxy's hint beside the message.

    OpenAI: ``{"error": {"message", "type", "param", "code"}}``; Anthropic:
    ``{"type": "error", "error": {"type", "message"}}``. ``message`` is the
    provider's own text; ``hint`` (what to do about it) is an extra field of
    the error object, which the SDKs keep in the error they raise.
    """
    if kind is Kind.OPENAI_CHAT:
        return {
            "error": {
                "message": message,
                "type": "invalid_request_error",
                "param": "messages",
                "code": None,
                "hint": hint,
            }
        }
    return {
        "type": "error",
        "error": {"type": "invalid_request_error", "message": message, "hint": hint},
    }


# ---------------------------------------------------------------- answers


@dataclass(slots=True)
class Answer:
    """What the proxy learnt from an answer.

    Attributes:
        message: The assistant message (None when none could be read).
        stop_reason: ``stop``/``tool_calls``, ``end_turn``/``tool_use`` … when known.
        usage: Token usage when reported.
        complete: The answer said it ended (``[DONE]``, ``message_stop``, a whole document).
        error: An error the answer carried (an error event inside a stream).
        unreadable: Why the answer could not be read, if it could not.
    """

    message: Message | None = None
    stop_reason: str = ""
    usage: Usage = field(default_factory=Usage)
    complete: bool = False
    error: str = ""
    unreadable: str = ""


def read_answer(kind: Kind, body: bytes) -> Answer:
    """A non-streamed answer (one JSON document)."""
    try:
        data = load_json(body.decode("utf-8"), "")
        if kind is Kind.OPENAI_CHAT:
            message, stop, usage = parse_openai_completion(data)
        else:
            message, stop, usage = parse_anthropic_message(data)
    except (ValueError, ProviderError, AttributeError, TypeError) as exc:
        return Answer(unreadable=f"the answer is not a {kind.value} response: {exc}")
    return Answer(message, stop, usage, complete=True)


class StreamWatcher:
    """Reads a streamed answer from the chunks that pass through to the agent.

    Never raises: a stream it cannot read is still forwarded, and
    :meth:`answer` says why it was not understood.
    """

    def __init__(self, kind: Kind) -> None:
        self.kind = kind
        self._sse = SSEReader()
        self._openai = OpenAIStreamAssembler() if kind is Kind.OPENAI_CHAT else None
        self._anthropic = AnthropicStreamAssembler() if kind is Kind.ANTHROPIC_MESSAGES else None
        self._error = ""
        self._unreadable = ""
        self.events = 0

    @property
    def complete(self) -> bool:
        """The stream said it ended (``[DONE]`` or ``message_stop``)."""
        if self._openai is not None:
            return self._openai.done
        assert self._anthropic is not None
        return self._anthropic.done

    def feed(self, chunk: bytes) -> None:
        if self._unreadable:
            return
        try:
            for event in self._sse.feed(chunk):
                self.events += 1
                self._event(event.event, event.data)
        except ProviderError as exc:
            self._error = f"{exc.type or 'error'}: {exc}"
        except (ValueError, TypeError, AttributeError, KeyError) as exc:
            self._unreadable = f"the stream is not a {self.kind.value} stream: {exc}"

    def _event(self, name: str, data: str) -> None:
        if self._openai is not None:
            if data.strip() == "[DONE]":
                self._openai.done = True
                return
            if data:
                for _ in self._openai.feed(load_json(data, "")):
                    pass
            return
        assert self._anthropic is not None
        if data:
            payload = load_json(data, "")
            if name == "error" and isinstance(payload, dict):
                payload.setdefault("type", "error")
            for _ in self._anthropic.feed(payload):
                pass

    def answer(self) -> Answer:
        if self._unreadable:
            return Answer(unreadable=self._unreadable, error=self._error)
        if self._openai is not None:
            a = self._openai
            message = a.message()
            return Answer(message, a.finish_reason or "", a.usage, a.complete, self._error)
        assert self._anthropic is not None
        b = self._anthropic
        message = b.message()
        return Answer(message, b.stop_reason or "", b.usage, b.done, self._error)
