"""OpenAI Chat Completions client, for OpenAI and every compatible server (DESIGN §6).

Ollama, vLLM, llama.cpp server, LM Studio and OpenRouter speak the same
format at ``{base_url}/chat/completions``. Tool-call arguments are a JSON
*string* on this wire: they are assembled from stream fragments keyed by
``index`` and handed over as the exact string received, valid or not.
"""

from __future__ import annotations

import json
import logging
import uuid
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

_TOOL_CHOICE_WORDS = {"auto": "auto", "none": "none", "required": "required", "any": "required"}


# ---------------------------------------------------------------- request


def _arguments_string(arguments: str | dict[str, Any]) -> str:
    # A string is what the model sent: pass it through verbatim, even if invalid.
    return arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)


def to_openai_messages(messages: tuple[Message, ...], system: str = "") -> list[dict[str, Any]]:
    """Internal messages in Chat Completions form; ``system`` becomes the first message.

    Tool results become one ``{"role": "tool"}`` message each, wherever they
    sit internally (a user message holding results, as Anthropic histories
    do, yields the tool messages first, then the user's text).
    """
    out: list[dict[str, Any]] = []
    if system:
        out.append({"role": "system", "content": system})
    for message in messages:
        results = [
            {"role": "tool", "tool_call_id": r.id, "content": r.content}
            for r in message.tool_results
        ]
        if message.role is Role.TOOL:
            out.extend(results)
            continue
        if message.role is Role.ASSISTANT:
            entry: dict[str, Any] = {"role": "assistant", "content": message.text or None}
            calls = [
                {
                    "id": c.id,
                    "type": "function",
                    "function": {"name": c.name, "arguments": _arguments_string(c.arguments)},
                }
                for c in message.tool_calls
            ]
            if calls:
                entry["tool_calls"] = calls
            out.append(entry)
            continue
        out.extend(results)
        if message.text or not results:
            out.append({"role": message.role.value, "content": message.text})
    return out


def build_openai_body(model: str, request: ModelRequest) -> dict[str, Any]:
    """The JSON body of a Chat Completions request."""
    params = request.params
    body: dict[str, Any] = {
        "model": model,
        "messages": to_openai_messages(request.messages, request.system),
    }
    if request.tools:
        body["tools"] = [
            {
                "type": "function",
                "function": {
                    "name": t.name,
                    "description": t.description,
                    "parameters": t.parameters,
                },
            }
            for t in request.tools
        ]
        if params.tool_choice:
            word = _TOOL_CHOICE_WORDS.get(params.tool_choice)
            body["tool_choice"] = word or {
                "type": "function",
                "function": {"name": params.tool_choice},
            }
        if params.parallel_tool_calls is not None:
            body["parallel_tool_calls"] = params.parallel_tool_calls
    if params.temperature is not None:
        body["temperature"] = params.temperature
    if params.max_tokens is not None:
        body["max_tokens"] = params.max_tokens
    body["stream"] = params.stream
    if params.stream:
        body["stream_options"] = {"include_usage": True}
    return body


# ---------------------------------------------------------------- response


def parse_openai_error(status: int, body: bytes) -> ProviderError:
    """``{"error": {"message", "type", "code"}}`` (and the looser shapes of compatible servers)."""
    message, kind, code = "", "", ""
    try:
        data = json.loads(body)
    except ValueError:
        data = None
    if isinstance(data, dict):
        error = data.get("error", data)
        if isinstance(error, dict):
            message = str(error.get("message") or error.get("detail") or "")
            kind = str(error.get("type") or "")
            code = "" if error.get("code") is None else str(error["code"])
        elif isinstance(error, str):  # Ollama: {"error": "model not found"}
            message = error
        if not message and isinstance(data.get("detail"), str):  # FastAPI servers
            message = data["detail"]
    return status_error(status, body, message=message, type=kind, code=code)


def _usage(data: Any) -> Usage | None:
    if not isinstance(data, dict):
        return None
    return Usage(data.get("prompt_tokens"), data.get("completion_tokens"))


def _new_call_id() -> str:
    return f"call_{uuid.uuid4().hex[:24]}"


@dataclass
class _PendingCall:
    id: str
    name: str
    arguments: list[str] = field(default_factory=list)
    generated_id: bool = False


class OpenAIStreamAssembler:
    """Turns ``chat.completion.chunk`` objects into StreamEvents and the final message."""

    def __init__(self) -> None:
        self.text: list[str] = []
        self.calls: dict[int, _PendingCall] = {}
        self.finish_reason: str | None = None
        self.usage = Usage()
        self.done = False

    def feed(self, chunk: dict[str, Any]) -> Iterator[StreamEvent]:
        """Events for one chunk (in order: text, then tool-call fragments)."""
        if "error" in chunk:  # OpenRouter and vLLM report failures inside the stream
            error = parse_openai_error(0, json.dumps(chunk).encode())
            error.status = None
            raise error
        usage = _usage(chunk.get("usage"))
        if usage is not None:
            self.usage = usage
        for choice in chunk.get("choices") or []:
            if choice.get("index", 0) != 0:
                continue
            delta = choice.get("delta") or {}
            content = delta.get("content")
            if isinstance(content, str) and content:
                self.text.append(content)
                yield TextDelta(content)
            for position, fragment in enumerate(delta.get("tool_calls") or []):
                yield from self._feed_call(position, fragment)
            if choice.get("finish_reason"):
                self.finish_reason = choice["finish_reason"]

    def _feed_call(self, position: int, fragment: dict[str, Any]) -> Iterator[StreamEvent]:
        # Some servers omit ``index``; their fragments then arrive whole, in order.
        index = fragment.get("index")
        if not isinstance(index, int):
            index = len(self.calls) if fragment.get("id") else max(self.calls, default=position)
        function = fragment.get("function") or {}
        call = self.calls.get(index)
        if call is None:
            call_id = fragment.get("id") or ""
            call = _PendingCall(call_id or _new_call_id(), function.get("name") or "")
            call.generated_id = not call_id
            self.calls[index] = call
            yield ToolCallStarted(index, call.id, call.name)
        elif function.get("name") and not call.name:
            call.name = function["name"]
        piece = function.get("arguments")
        if isinstance(piece, dict):  # a few servers send an object; keep it as text
            piece = json.dumps(piece, ensure_ascii=False)
        if isinstance(piece, str) and piece:
            call.arguments.append(piece)
            yield ToolCallDelta(index, piece)

    @property
    def complete(self) -> bool:
        """Whether the stream said it ended (``[DONE]`` or a finish_reason)."""
        return self.done or self.finish_reason is not None

    def message(self) -> Message:
        """The assembled assistant message: text first, then calls by index."""
        parts: list[Part] = []
        if self.text:
            parts.append(TextPart("".join(self.text)))
        for index in sorted(self.calls):
            call = self.calls[index]
            extra = {"generated_id": True} if call.generated_id else {}
            parts.append(ToolCallPart(call.id, call.name, "".join(call.arguments), extra))
        return Message(Role.ASSISTANT, tuple(parts))


def parse_openai_completion(data: dict[str, Any]) -> tuple[Message, str, Usage]:
    """Message, finish_reason and usage of a non-streamed ``chat.completion``."""
    choices = data.get("choices") or []
    if not choices:
        raise ProviderError("the response has no choices", type="invalid_response", body=str(data))
    choice = choices[0]
    message = choice.get("message") or {}
    parts: list[Part] = []
    content = message.get("content")
    if isinstance(content, list):  # content-part arrays from some servers
        content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
    if content:
        parts.append(TextPart(str(content)))
    for call in message.get("tool_calls") or []:
        function = call.get("function") or {}
        arguments = function.get("arguments", "")
        extra: dict[str, Any] = {}
        call_id = call.get("id")
        if not call_id:
            call_id, extra = _new_call_id(), {"generated_id": True}
        parts.append(ToolCallPart(call_id, function.get("name", ""), arguments, extra))
    usage = _usage(data.get("usage")) or Usage()
    stop = choice.get("finish_reason") or ("tool_calls" if message.get("tool_calls") else "stop")
    return Message(Role.ASSISTANT, tuple(parts)), stop, usage


def _replay_as_deltas(message: Message) -> Iterator[StreamEvent]:
    """The deltas a non-streamed answer would have produced, so consumers see one shape."""
    if message.text:
        yield TextDelta(message.text)
    for index, call in enumerate(message.tool_calls):
        yield ToolCallStarted(index, call.id, call.name)
        if call.arguments:
            yield ToolCallDelta(index, _arguments_string(call.arguments))


# ---------------------------------------------------------------- client


class OpenAIChatClient(HTTPModelClient):
    """ModelClient for OpenAI Chat Completions and compatible servers.

    ``base_url`` is the API root including its version segment
    (``https://api.openai.com/v1``, ``http://localhost:11434/v1``); requests go
    to ``{base_url}/chat/completions``. See :class:`HTTPModelClient` for the
    other arguments. Consume :meth:`stream` inside ``contextlib.aclosing`` (or
    to the end) so an abandoned stream closes its connection at once.
    """

    def headers(self) -> dict[str, str]:
        """Request headers, secret included (use :func:`redact_headers` to show them)."""
        headers = {"Content-Type": "application/json", **self.extra_headers}
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        return headers

    @property
    def url(self) -> str:
        return f"{self.base_url}/chat/completions"

    def build_body(self, request: ModelRequest) -> dict[str, Any]:
        return build_openai_body(self.model, request)

    async def stream(self, request: ModelRequest) -> AsyncIterator[StreamEvent]:
        """Send ``request``; yield deltas, then one TurnCompleted. Raises ProviderError."""
        body = build_openai_body(self.model, request)
        headers = self.headers()
        if request.params.stream:
            headers |= {"Accept": "text/event-stream", "Cache-Control": "no-store"}
        async with self.http.open(
            "POST", self.url, headers=headers, json=body, parse_error=parse_openai_error
        ) as response:
            content_type = response.headers.get("content-type", "")
            if not request.params.stream or "text/event-stream" not in content_type:
                # Also the path of servers that ignore "stream": true and answer JSON.
                data = await read_json(response)
                message, stop, usage = parse_openai_completion(data)
                for event in _replay_as_deltas(message):
                    yield event
                yield TurnCompleted(message, stop, usage, body)
                return
            assembler = OpenAIStreamAssembler()
            try:
                async for sse in EventSource(response).aiter_sse():
                    if sse.data.strip() == "[DONE]":
                        assembler.done = True
                        break
                    if not sse.data.strip():
                        continue
                    try:
                        chunk = json.loads(sse.data)
                    except ValueError as exc:
                        raise ProviderError(
                            f"unreadable stream chunk: {sse.data[:200]}",
                            type="invalid_response",
                            body=sse.data,
                        ) from exc
                    for event in assembler.feed(chunk):
                        yield event
            except (httpx.TransportError, SSEError) as exc:
                raise ProviderError(
                    f"the stream broke off: {exc}", type="stream_interrupted", retryable=True
                ) from exc
            if not assembler.complete:
                raise ProviderError(
                    "the stream ended before the turn was complete (no finish_reason, no [DONE])",
                    type="stream_interrupted",
                    retryable=True,
                )
            yield TurnCompleted(
                assembler.message(), assembler.finish_reason or "stop", assembler.usage, body
            )
