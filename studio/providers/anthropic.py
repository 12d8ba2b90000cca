"""Anthropic Messages client (DESIGN §6).

``tool_use`` blocks carry ``input`` as an object; the very next user message
must answer every id with a ``tool_result`` block, the results first. The
request builder guarantees that shape from the internal history: results of
consecutive tool messages merge into one user message and lead its content.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
from httpx_sse import EventSource, SSEError

from studio.providers.base import (
    ModelRequest,
    ProviderError,
    StreamEvent,
    TextDelta,
    ToolCallDelta,
    ToolCallStarted,
    TurnCompleted,
    Usage,
)
from studio.providers.http import HTTPModelClient, read_json, status_error
from studio.sessions.model import Message, Part, Role, TextPart, ToolCallPart

log = logging.getLogger(__name__)

ANTHROPIC_VERSION = "2023-06-01"
DEFAULT_MAX_TOKENS = 1024
"""Anthropic requires ``max_tokens``; used when the parameters leave it unset."""

_RETRYABLE_STREAM_ERRORS = frozenset({"overloaded_error", "api_error", "rate_limit_error"})


# ---------------------------------------------------------------- request


def _tool_input(call: ToolCallPart, notes: list[str]) -> dict[str, Any]:
    if isinstance(call.arguments, dict):
        return call.arguments
    try:
        value = json.loads(call.arguments) if call.arguments.strip() else {}
    except ValueError:
        value = None
    if isinstance(value, dict):
        return value
    # The Messages API only accepts an object; the history stays sendable and the
    # note says what was replaced.
    notes.append(
        f"tool call {call.id} ({call.name}): arguments are not a JSON object, sent as {{}}: "
        f"{call.arguments[:200]!r}"
    )
    return {}


def to_anthropic_messages(
    messages: tuple[Message, ...], notes: list[str] | None = None
) -> tuple[list[dict[str, Any]], str]:
    """Internal messages in Messages API form, plus the text of system-role messages.

    Args:
        messages: The history.
        notes: Receives a line for every adaptation (unparseable arguments,
            dropped empty messages).

    Return:
        ``(messages, system_text)``.
    """
    notes = notes if notes is not None else []
    out: list[dict[str, Any]] = []
    system: list[str] = []
    for message in messages:
        if message.role is Role.SYSTEM:
            if message.text:
                system.append(message.text)
            continue
        blocks: list[dict[str, Any]] = []
        for part in message.parts:
            if isinstance(part, TextPart):
                if part.text:  # the API refuses empty text blocks
                    blocks.append({"type": "text", "text": part.text})
            elif isinstance(part, ToolCallPart):
                blocks.append(
                    {
                        "type": "tool_use",
                        "id": part.id,
                        "name": part.name,
                        "input": _tool_input(part, notes),
                    }
                )
            else:
                blocks.append(
                    {
                        "type": "tool_result",
                        "tool_use_id": part.id,
                        "content": part.content,
                        "is_error": part.is_error,
                    }
                )
        role = "assistant" if message.role is Role.ASSISTANT else "user"
        if not blocks:
            notes.append(f"an empty {message.role.value} message was left out")
            continue
        if out and out[-1]["role"] == role:
            # Consecutive tool (and user) messages become one user message.
            out[-1]["content"].extend(blocks)
        else:
            out.append({"role": role, "content": blocks})
    for entry in out:
        if entry["role"] == "user":
            # tool_result blocks first, everything else after, order kept within each group.
            entry["content"].sort(key=lambda b: b["type"] != "tool_result")
    return out, "\n\n".join(system)


def build_anthropic_body(
    model: str, request: ModelRequest, notes: list[str] | None = None
) -> dict[str, Any]:
    """The JSON body of a ``POST /v1/messages`` request."""
    params = request.params
    messages, system_text = to_anthropic_messages(request.messages, notes)
    system = "\n\n".join(s for s in (request.system, system_text) if s)
    body: dict[str, Any] = {
        "model": model,
        "max_tokens": params.max_tokens if params.max_tokens is not None else DEFAULT_MAX_TOKENS,
    }
    if system:
        body["system"] = system
    body["messages"] = messages
    if request.tools:
        body["tools"] = [
            {"name": t.name, "description": t.description, "input_schema": t.parameters}
            for t in request.tools
        ]
        choice: dict[str, Any] | None = None
        if params.tool_choice in ("auto", "none", "any"):
            choice = {"type": params.tool_choice}
        elif params.tool_choice == "required":
            choice = {"type": "any"}
        elif params.tool_choice:
            choice = {"type": "tool", "name": params.tool_choice}
        if params.parallel_tool_calls is False:
            choice = choice or {"type": "auto"}
            if choice["type"] != "none":
                choice["disable_parallel_tool_use"] = True
        if choice is not None:
            body["tool_choice"] = choice
    if params.temperature is not None:
        body["temperature"] = params.temperature
    body["stream"] = params.stream
    return body


# ---------------------------------------------------------------- response


def parse_anthropic_error(status: int, body: bytes) -> ProviderError:
    """``{"type": "error", "error": {"type", "message"}}``."""
    message, kind = "", ""
    try:
        data = json.loads(body)
    except ValueError:
        data = None
    if isinstance(data, dict):
        error = data.get("error")
        if isinstance(error, dict):
            message = str(error.get("message") or "")
            kind = str(error.get("type") or "")
        elif isinstance(error, str):
            message = error
    return status_error(status, body, message=message, type=kind)


def _parse_input(raw: str) -> str | dict[str, Any]:
    """The assembled ``input``: the object, or the raw text when it is not a JSON object."""
    if not raw.strip():
        return {}
    try:
        value = json.loads(raw)
    except ValueError:
        return raw
    return value if isinstance(value, dict) else raw


@dataclass
class _Block:
    kind: str
    text: list[str] = field(default_factory=list)
    id: str = ""
    name: str = ""
    call_index: int = -1
    initial_input: Any = None


class AnthropicStreamAssembler:
    """Turns Messages API stream events into StreamEvents and the final message.

    ``ToolCallStarted.index`` / ``ToolCallDelta.index`` count tool calls of the
    turn (0, 1, …), not content blocks, so they line up with OpenAI's indexes.
    """

    def __init__(self) -> None:
        self.blocks: dict[int, _Block] = {}
        self.stop_reason: str | None = None
        self.input_tokens: int | None = None
        self.output_tokens: int | None = None
        self.done = False
        self._calls = 0

    def feed(self, event: dict[str, Any]) -> Iterator[StreamEvent]:
        kind = event.get("type")
        if kind == "message_start":
            usage = (event.get("message") or {}).get("usage") or {}
            self.input_tokens = usage.get("input_tokens", self.input_tokens)
            self.output_tokens = usage.get("output_tokens", self.output_tokens)
        elif kind == "content_block_start":
            block = event.get("content_block") or {}
            index = int(event.get("index", len(self.blocks)))
            entry = _Block(str(block.get("type")))
            self.blocks[index] = entry
            if entry.kind == "text" and block.get("text"):
                entry.text.append(block["text"])
                yield TextDelta(block["text"])
            elif entry.kind == "tool_use":
                entry.id, entry.name = str(block.get("id", "")), str(block.get("name", ""))
                entry.call_index = self._calls
                entry.initial_input = block.get("input")
                self._calls += 1
                yield ToolCallStarted(entry.call_index, entry.id, entry.name)
        elif kind == "content_block_delta":
            target = self.blocks.get(int(event.get("index", -1)))
            delta = event.get("delta") or {}
            if target is None:
                return
            if delta.get("type") == "text_delta" and delta.get("text"):
                target.text.append(delta["text"])
                yield TextDelta(delta["text"])
            elif delta.get("type") == "input_json_delta" and delta.get("partial_json"):
                target.text.append(delta["partial_json"])
                yield ToolCallDelta(target.call_index, delta["partial_json"])
        elif kind == "message_delta":
            self.stop_reason = (event.get("delta") or {}).get("stop_reason") or self.stop_reason
            usage = event.get("usage") or {}
            # output_tokens in message_delta is cumulative for the whole message.
            self.output_tokens = usage.get("output_tokens", self.output_tokens)
            if usage.get("input_tokens") is not None:
                self.input_tokens = usage["input_tokens"]
        elif kind == "message_stop":
            self.done = True
        elif kind == "error":
            error = event.get("error") or {}
            kind_ = str(error.get("type") or "error")
            raise ProviderError(
                str(error.get("message") or ""),
                type=kind_,
                body=json.dumps(event),
                retryable=kind_ in _RETRYABLE_STREAM_ERRORS,
            )

    def message(self) -> Message:
        parts: list[Part] = []
        for index in sorted(self.blocks):
            block = self.blocks[index]
            if block.kind == "text" and block.text:
                parts.append(TextPart("".join(block.text)))
            elif block.kind == "tool_use":
                raw = "".join(block.text)
                if not raw and isinstance(block.initial_input, dict):
                    arguments: str | dict[str, Any] = block.initial_input
                else:
                    arguments = _parse_input(raw)
                parts.append(ToolCallPart(block.id, block.name, arguments))
        return Message(Role.ASSISTANT, tuple(parts))

    @property
    def usage(self) -> Usage:
        return Usage(self.input_tokens, self.output_tokens)


def parse_anthropic_message(data: dict[str, Any]) -> tuple[Message, str, Usage]:
    """Message, stop_reason and usage of a non-streamed Messages answer."""
    parts: list[Part] = []
    for block in data.get("content") or []:
        if block.get("type") == "text" and block.get("text"):
            parts.append(TextPart(block["text"]))
        elif block.get("type") == "tool_use":
            value = block.get("input")
            arguments = value if isinstance(value, dict | str) else json.dumps(value)
            parts.append(
                ToolCallPart(str(block.get("id", "")), str(block.get("name", "")), arguments)
            )
    usage = data.get("usage") or {}
    stop = data.get("stop_reason") or "end_turn"
    return (
        Message(Role.ASSISTANT, tuple(parts)),
        stop,
        Usage(usage.get("input_tokens"), usage.get("output_tokens")),
    )


def _replay_as_deltas(message: Message) -> Iterator[StreamEvent]:
    index = 0
    for part in message.parts:
        if isinstance(part, TextPart):
            yield TextDelta(part.text)
        elif isinstance(part, ToolCallPart):
            yield ToolCallStarted(index, part.id, part.name)
            text = part.arguments if isinstance(part.arguments, str) else json.dumps(part.arguments)
            yield ToolCallDelta(index, text)
            index += 1


# ---------------------------------------------------------------- client


class AnthropicMessagesClient(HTTPModelClient):
    """ModelClient for the Anthropic Messages API.

    ``base_url`` is the API root (``https://api.anthropic.com``; a trailing
    ``/v1`` is accepted too); requests go to ``{base_url}/v1/messages``. See
    :class:`HTTPModelClient` for the other arguments.
    """

    def headers(self) -> dict[str, str]:
        """Request headers, secret included (use :func:`redact_headers` to show them)."""
        headers = {
            "Content-Type": "application/json",
            "anthropic-version": ANTHROPIC_VERSION,
            **self.extra_headers,
        }
        if self._api_key:
            headers["x-api-key"] = self._api_key
        return headers

    @property
    def api_root(self) -> str:
        """The base URL with its ``/v1`` segment."""
        return self.base_url if self.base_url.endswith("/v1") else f"{self.base_url}/v1"

    @property
    def url(self) -> str:
        return f"{self.api_root}/messages"

    def build_body(self, request: ModelRequest) -> dict[str, Any]:
        return build_anthropic_body(self.model, request)

    async def stream(self, request: ModelRequest) -> AsyncIterator[StreamEvent]:
        """Send ``request``; yield deltas, then one TurnCompleted. Raises ProviderError."""
        notes: list[str] = []
        body = build_anthropic_body(self.model, request, notes)
        for note in notes:
            log.warning("anthropic request: %s", note)
        headers = self.headers()
        if request.params.stream:
            headers |= {"Accept": "text/event-stream", "Cache-Control": "no-store"}
        async with self.http.open(
            "POST", self.url, headers=headers, json=body, parse_error=parse_anthropic_error
        ) as response:
            content_type = response.headers.get("content-type", "")
            if not request.params.stream or "text/event-stream" not in content_type:
                data = await read_json(response)
                message, stop, usage = parse_anthropic_message(data)
                for event in _replay_as_deltas(message):
                    yield event
                yield TurnCompleted(message, stop, usage, body, tuple(notes))
                return
            assembler = AnthropicStreamAssembler()
            try:
                async for sse in EventSource(response).aiter_sse():
                    if not sse.data.strip():
                        continue
                    try:
                        event = json.loads(sse.data)
                    except ValueError as exc:
                        raise ProviderError(
                            f"unreadable stream event: {sse.data[:200]}",
                            type="invalid_response",
                            body=sse.data,
                        ) from exc
                    for out in assembler.feed(event):
                        yield out
                    if assembler.done:
                        break
            except (httpx.TransportError, SSEError) as exc:
                raise ProviderError(
                    f"the stream broke off: {exc}", type="stream_interrupted", retryable=True
                ) from exc
            if not assembler.done and assembler.stop_reason is None:
                raise ProviderError(
                    "the stream ended before message_stop",
                    type="stream_interrupted",
                    retryable=True,
                )
            yield TurnCompleted(
                assembler.message(),
                assembler.stop_reason or "end_turn",
                assembler.usage,
                body,
                tuple(notes),
            )
