"""A real HTTP server on 127.0.0.1 that answers like a model API, from a script.

It speaks both wire formats the studio's providers use, streaming (SSE) and
not, and validates the message history the way the real APIs do, so tests
drive the real clients (and the runtime) over loopback without mocks.

Usage::

    from tests.providers.scripted_server import ScriptedServer, ToolCall, Turn

    turns = [
        Turn(tool_calls=[ToolCall("get_invoice", '{"id": "INV-102"}', fragments=5)]),
        Turn(text="The invoice exceeds the limit.", text_fragments=3),
    ]
    with ScriptedServer(turns) as server:
        client = OpenAIChatClient(server.base_url, "m", "sk-test")       # /chat/completions
        client = AnthropicMessagesClient(server.base_url, "m", "sk-ant")   # /v1/messages
        ...
        server.requests[-1].body      # the JSON body the server received
        server.requests[-1].headers   # lower-cased header names

Endpoints:
    ``POST /v1/chat/completions`` and ``POST /chat/completions`` (OpenAI Chat
    Completions), ``POST /v1/messages`` (Anthropic Messages), ``GET /v1/models``
    and ``GET /models`` (a model list; Anthropic shape when the request carries
    ``anthropic-version``, else OpenAI shape).

Turns:
    Every POST that passes validation consumes the next :class:`Turn` (GETs and
    requests refused by validation or authentication consume none). A turn is
    answered in the endpoint's format, streamed when the request body says
    ``"stream": true``. Fields of :class:`Turn`:

    - ``text`` (split into ``text_fragments`` stream pieces) and ``tool_calls``
      (:class:`ToolCall`: ``name``, ``arguments`` — a string, sent verbatim
      even when it is invalid JSON — ``id`` (default ``call_<turn>_<i>`` /
      ``toolu_<turn>_<i>``), ``fragments``: how many stream pieces the
      arguments are split into). ``interleave=True`` streams the argument
      fragments of parallel calls interleaved (OpenAI, keyed by ``index``).
    - ``usage=(input_tokens, output_tokens)`` or None to report none;
      ``stop_reason`` overrides the natural one (``stop``/``tool_calls``,
      ``end_turn``/``tool_use``).
    - ``status`` (an HTTP error when not 200) with ``error_message``,
      ``error_type`` (defaults per status, in the vendor's names), a verbatim
      ``error_body`` if you need one, and ``retry_after`` (header value).
    - ``delay`` (seconds before answering), ``chunk_delay`` (between stream
      events), ``hang=True``: stream up to the first event that carries content
      (a text or tool-call piece), then keep the connection open, sending
      nothing, until the client closes it; the server then sets
      :attr:`ScriptedServer.disconnected` (see :meth:`wait_disconnected`).
    - ``stream_error=(type, message)``: after that same event, an error inside
      the stream (Anthropic ``event: error``; OpenAI ``data: {"error": …}``).

    When the script runs out the server answers ``400`` with error type
    ``scripted_server_exhausted`` (not retryable, so a test fails fast).

Validation (``400`` in the vendor's error shape; the messages are the real
APIs' and are exported as the ``OPENAI_*`` / ``ANTHROPIC_*`` constants):
    OpenAI: an assistant ``tool_calls`` message not followed by tool messages
    for every id; a tool message not answering a preceding ``tool_calls``
    message; a ``tool_call_id`` not in the previous ``tool_calls``;
    ``function.arguments`` that is not a string. Anthropic: missing
    ``anthropic-version``, missing ``max_tokens``; ``tool_use`` ids without
    ``tool_result`` blocks in the very next user message; ``tool_result``
    blocks that are not first in their message; a ``tool_use_id`` not found in
    the previous assistant message; a ``tool_use.input`` that is not an object.
    Pass ``validate=False`` to :class:`ScriptedServer` to accept anything.
    With ``api_key=...`` the server also answers 401 without that key
    (``Authorization: Bearer`` for OpenAI paths, ``x-api-key`` for Anthropic).
"""

from __future__ import annotations

import json
import select
import socket
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = [
    "ANTHROPIC_ORPHAN_RESULT",
    "ANTHROPIC_RESULT_NOT_FIRST",
    "ANTHROPIC_UNANSWERED",
    "OPENAI_ORPHAN_TOOL_MESSAGE",
    "OPENAI_UNANSWERED",
    "OPENAI_UNKNOWN_TOOL_CALL_ID",
    "RecordedRequest",
    "ScriptedServer",
    "ToolCall",
    "Turn",
]

OPENAI_UNANSWERED = (
    "An assistant message with 'tool_calls' must be followed by tool messages responding to "
    "each 'tool_call_id'. The following tool_call_ids did not have response messages: {ids}"
)
OPENAI_ORPHAN_TOOL_MESSAGE = (
    "Invalid parameter: messages with role 'tool' must be a response to a preceeding message "
    "with 'tool_calls'."
)
OPENAI_UNKNOWN_TOOL_CALL_ID = (
    "Invalid parameter: 'tool_call_id' of '{id}' not found in 'tool_calls' of previous message."
)
ANTHROPIC_UNANSWERED = (
    "messages.{index}: `tool_use` ids were found without `tool_result` blocks immediately "
    "after: {ids}. Each `tool_use` block must have a corresponding `tool_result` block in the "
    "next message."
)
ANTHROPIC_ORPHAN_RESULT = (
    "messages.{index}.content.{block}: unexpected `tool_use_id` found in `tool_result` blocks: "
    "{id}. Each `tool_result` block must have a corresponding `tool_use` block in the previous "
    "message."
)
ANTHROPIC_RESULT_NOT_FIRST = (
    "messages.{index}: `tool_result` blocks must come before any other content in a user "
    "message; found a `{kind}` block at content.{block} before a `tool_result` block."
)

_OPENAI_TYPES = {
    400: "invalid_request_error",
    401: "invalid_request_error",
    404: "invalid_request_error",
    429: "rate_limit_exceeded",
    500: "server_error",
    502: "server_error",
    503: "server_error",
    504: "server_error",
}
_ANTHROPIC_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    529: "overloaded_error",
}


@dataclass
class ToolCall:
    """One tool call of a scripted turn; ``arguments`` is sent verbatim."""

    name: str
    arguments: str = "{}"
    id: str | None = None
    fragments: int = 1


@dataclass
class Turn:
    """What the server answers to the next model request (see the module docstring)."""

    text: str = ""
    tool_calls: list[ToolCall] = field(default_factory=list)
    text_fragments: int = 1
    interleave: bool = False
    usage: tuple[int, int] | None = (12, 7)
    stop_reason: str | None = None
    status: int = 200
    error_message: str = "scripted error"
    error_type: str | None = None
    error_body: str | None = None
    retry_after: str | None = None
    delay: float = 0.0
    chunk_delay: float = 0.0
    hang: bool = False
    stream_error: tuple[str, str] | None = None

    @classmethod
    def error(
        cls,
        status: int,
        message: str = "scripted error",
        *,
        type: str | None = None,
        retry_after: str | None = None,
    ) -> Turn:
        """An HTTP error answer in the endpoint's vendor format."""
        return cls(status=status, error_message=message, error_type=type, retry_after=retry_after)


@dataclass
class RecordedRequest:
    """A request as the server received it."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any
    turn: int | None
    """Index of the turn that answered it; None when none was consumed."""
    status: int = 0
    """The status the server answered with."""


def _split(text: str, pieces: int) -> list[str]:
    """``text`` cut into ``pieces`` nearly equal, non-empty parts (fewer if it is short)."""
    pieces = max(1, min(pieces, len(text) or 1))
    size, rest = divmod(len(text), pieces)
    out, start = [], 0
    for i in range(pieces):
        end = start + size + (1 if i < rest else 0)
        out.append(text[start:end])
        start = end
    return out


class _ClientGone(Exception):
    pass


# ---------------------------------------------------------------- validation


def validate_openai(body: Any) -> str | None:
    """The 400 message a real OpenAI Chat Completions API would give, or None."""
    if not isinstance(body, dict) or not isinstance(body.get("messages"), list):
        return "'messages' is a required property"
    if not body.get("model"):
        return "you must provide a model parameter"
    messages = body["messages"]
    for i, message in enumerate(messages):
        calls = message.get("tool_calls") if message.get("role") == "assistant" else None
        for j, call in enumerate(calls or []):
            arguments = (call.get("function") or {}).get("arguments")
            if not isinstance(arguments, str):
                kind = "an object" if isinstance(arguments, dict) else type(arguments).__name__
                return (
                    f"Invalid type for 'messages[{i}].tool_calls[{j}].function.arguments': "
                    f"expected a string, but got {kind} instead."
                )
        if calls:
            wanted = [c.get("id") for c in calls]
            answered: set[str] = set()
            k = i + 1
            while k < len(messages) and messages[k].get("role") == "tool":
                answered.add(messages[k].get("tool_call_id"))
                k += 1
            missing = [x for x in wanted if x not in answered]
            if missing:
                return OPENAI_UNANSWERED.format(ids=", ".join(str(x) for x in missing))
        if message.get("role") == "tool":
            k = i - 1
            while k >= 0 and messages[k].get("role") == "tool":
                k -= 1
            previous = messages[k] if k >= 0 else {}
            if previous.get("role") != "assistant" or not previous.get("tool_calls"):
                return OPENAI_ORPHAN_TOOL_MESSAGE
            ids = {c.get("id") for c in previous["tool_calls"]}
            if message.get("tool_call_id") not in ids:
                return OPENAI_UNKNOWN_TOOL_CALL_ID.format(id=message.get("tool_call_id"))
    return None


def _blocks(message: dict[str, Any]) -> list[dict[str, Any]]:
    content = message.get("content")
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return [b for b in content or [] if isinstance(b, dict)]


def validate_anthropic(body: Any, headers: dict[str, str]) -> str | None:
    """The 400 message a real Anthropic Messages API would give, or None."""
    if "anthropic-version" not in headers:
        return "anthropic-version: header is required"
    if not isinstance(body, dict) or not isinstance(body.get("messages"), list):
        return "messages: Field required"
    if "max_tokens" not in body:
        return "max_tokens: Field required"
    messages = body["messages"]
    for i, message in enumerate(messages):
        blocks = _blocks(message)
        for j, block in enumerate(blocks):
            if block.get("type") == "tool_use" and not isinstance(block.get("input"), dict):
                return (
                    f"messages.{i}.content.{j}.tool_use.input: Input should be a valid dictionary"
                )
        if message.get("role") == "user":
            previous = messages[i - 1] if i > 0 else {}
            use_ids = [
                b.get("id")
                for b in (_blocks(previous) if previous.get("role") == "assistant" else [])
                if b.get("type") == "tool_use"
            ]
            seen_other: tuple[int, str] | None = None
            for j, block in enumerate(blocks):
                if block.get("type") != "tool_result":
                    seen_other = seen_other or (j, str(block.get("type")))
                    continue
                if seen_other is not None:
                    return ANTHROPIC_RESULT_NOT_FIRST.format(
                        index=i, kind=seen_other[1], block=seen_other[0]
                    )
                if block.get("tool_use_id") not in use_ids:
                    return ANTHROPIC_ORPHAN_RESULT.format(
                        index=i, block=j, id=block.get("tool_use_id")
                    )
        if message.get("role") == "assistant":
            use_ids = [b.get("id") for b in blocks if b.get("type") == "tool_use"]
            if not use_ids:
                continue
            following = messages[i + 1] if i + 1 < len(messages) else None
            answered = {
                b.get("tool_use_id")
                for b in (_blocks(following) if following and following["role"] == "user" else [])
                if b.get("type") == "tool_result"
            }
            missing = [x for x in use_ids if x not in answered]
            if missing:
                return ANTHROPIC_UNANSWERED.format(index=i, ids=", ".join(map(str, missing)))
    return None


# ---------------------------------------------------------------- handler


class _Handler(BaseHTTPRequestHandler):
    server: _HTTPServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        pass  # keep test output quiet

    # -- plumbing

    def _headers_dict(self) -> dict[str, str]:
        return {k.lower(): v for k, v in self.headers.items()}

    def _read_body(self) -> Any:
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            return json.loads(raw) if raw else None
        except ValueError:
            return raw.decode("utf-8", "replace")

    def _send_json(self, status: int, payload: Any, extra: dict[str, str] | None = None) -> None:
        data = payload.encode() if isinstance(payload, str) else json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for key, value in (extra or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()

    def _start_sse(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True

    def _sse(self, data: Any, event: str | None = None, delay: float = 0.0) -> None:
        if delay:
            time.sleep(delay)
        text = data if isinstance(data, str) else json.dumps(data)
        frame = (f"event: {event}\n" if event else "") + f"data: {text}\n\n"
        try:
            self.wfile.write(frame.encode())
            self.wfile.flush()
        except OSError as exc:
            raise _ClientGone from exc

    def _hang(self) -> None:
        """Keep the connection open until the client closes it (or 30 s pass)."""
        sock: socket.socket = self.connection
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            readable, _, _ = select.select([sock], [], [], 0.02)
            if readable:
                try:
                    if sock.recv(1, socket.MSG_PEEK) == b"":
                        break
                except OSError:
                    break
        else:
            return
        self.server.owner._note_disconnect()

    def _error(
        self,
        status: int,
        fmt: str,
        message: str,
        type_: str | None = None,
        retry_after: str | None = None,
        body: str | None = None,
    ) -> None:
        table = _ANTHROPIC_TYPES if fmt == "anthropic" else _OPENAI_TYPES
        kind = type_ or table.get(status, "api_error")
        if body is None:
            if fmt == "anthropic":
                payload: Any = {"type": "error", "error": {"type": kind, "message": message}}
            else:
                payload = {"error": {"message": message, "type": kind, "param": None, "code": None}}
        else:
            payload = body
        extra = {"Retry-After": retry_after} if retry_after is not None else None
        self._send_json(status, payload, extra)

    # -- routes

    def do_GET(self) -> None:
        headers = self._headers_dict()
        owner = self.server.owner
        path = self.path.split("?")[0]
        record = RecordedRequest("GET", path, headers, None, None)
        owner._record(record)
        if path not in ("/v1/models", "/models"):
            record.status = 404
            self._send_json(404, {"error": {"message": f"no route {path}", "type": "not_found"}})
            return
        anthropic = "anthropic-version" in headers
        fmt = "anthropic" if anthropic else "openai"
        if not owner._authorised(headers, fmt):
            record.status = 401
            self._error(401, fmt, owner._auth_message(fmt), "authentication_error")
            return
        record.status = 200
        if anthropic:
            data = [
                {"type": "model", "id": m, "display_name": m, "created_at": "2025-01-01T00:00:00Z"}
                for m in owner.models
            ]
            self._send_json(200, {"data": data, "has_more": False})
        else:
            data = [
                {"id": m, "object": "model", "created": 0, "owned_by": "scripted"}
                for m in owner.models
            ]
            self._send_json(200, {"object": "list", "data": data})

    def do_POST(self) -> None:
        headers = self._headers_dict()
        body = self._read_body()
        owner = self.server.owner
        path = self.path.split("?")[0]
        record = RecordedRequest("POST", path, headers, body, None)
        owner._record(record)
        if path in ("/v1/chat/completions", "/chat/completions"):
            fmt = "openai"
        elif path == "/v1/messages":
            fmt = "anthropic"
        else:
            record.status = 404
            self._send_json(404, {"error": {"message": f"no route {path}", "type": "not_found"}})
            return
        if not owner._authorised(headers, fmt):
            record.status = 401
            self._error(401, fmt, owner._auth_message(fmt), "authentication_error")
            return
        if owner.validate:
            problem = (
                validate_anthropic(body, headers) if fmt == "anthropic" else validate_openai(body)
            )
            if problem:
                record.status = 400
                self._error(400, fmt, problem, "invalid_request_error")
                return
        index, turn = owner._next_turn()
        if turn is None:
            record.status = 400
            message = f"scripted server: no turn left for request #{len(owner.requests)}"
            self._error(400, fmt, message, "scripted_server_exhausted")
            return
        record.turn, record.status = index, turn.status
        if turn.delay:
            time.sleep(turn.delay)
        if turn.status != 200:
            self._error(
                turn.status,
                fmt,
                turn.error_message,
                turn.error_type,
                turn.retry_after,
                turn.error_body,
            )
            return
        stream = bool(isinstance(body, dict) and body.get("stream"))
        model = str(body.get("model", "scripted")) if isinstance(body, dict) else "scripted"
        try:
            if fmt == "openai":
                include_usage = bool(
                    isinstance(body, dict)
                    and (body.get("stream_options") or {}).get("include_usage")
                )
                if stream:
                    self._openai_stream(turn, index, model, include_usage)
                else:
                    self._send_json(200, _openai_completion(turn, index, model))
            elif stream:
                self._anthropic_stream(turn, index, model)
            else:
                self._send_json(200, _anthropic_message(turn, index, model))
        except _ClientGone:
            owner._note_disconnect()

    # -- OpenAI streaming

    def _openai_stream(self, turn: Turn, index: int, model: str, include_usage: bool) -> None:
        self._start_sse()
        base = {
            "id": f"chatcmpl-{index}",
            "object": "chat.completion.chunk",
            "created": 0,
            "model": model,
        }

        def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
            choice = {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}
            return {**base, "choices": [choice]}

        frames: list[dict[str, Any]] = [chunk({"role": "assistant", "content": ""})]
        if turn.text:
            frames += [chunk({"content": p}) for p in _split(turn.text, turn.text_fragments)]
        calls = _call_ids(turn, index, "call")
        per_call: list[list[dict[str, Any]]] = []
        for i, (call, call_id) in enumerate(calls):
            first = {
                "index": i,
                "id": call_id,
                "type": "function",
                "function": {"name": call.name, "arguments": ""},
            }
            pieces = [first] + [
                {"index": i, "function": {"arguments": p}}
                for p in _split(call.arguments, call.fragments)
                if p
            ]
            per_call.append([chunk({"tool_calls": [p]}) for p in pieces])
        if turn.interleave:
            longest = max((len(p) for p in per_call), default=0)
            for k in range(longest):
                frames += [p[k] for p in per_call if k < len(p)]
        else:
            for pieces in per_call:
                frames += pieces
        finish = turn.stop_reason or ("tool_calls" if calls else "stop")
        frames.append(chunk({}, finish))
        cut = 1 if len(frames) > 2 else 0  # the first frame that carries content
        for n, frame in enumerate(frames):
            self._sse(frame, delay=turn.chunk_delay)
            if n == cut and turn.stream_error:
                kind, message = turn.stream_error
                self._sse({"error": {"message": message, "type": kind, "code": None}})
                return
            if n == cut and turn.hang:
                self._hang()
                return
        if include_usage and turn.usage is not None:
            prompt, completion = turn.usage
            usage = {
                "prompt_tokens": prompt,
                "completion_tokens": completion,
                "total_tokens": prompt + completion,
            }
            self._sse({**base, "choices": [], "usage": usage}, delay=turn.chunk_delay)
        self._sse("[DONE]")

    # -- Anthropic streaming

    def _anthropic_stream(self, turn: Turn, index: int, model: str) -> None:
        self._start_sse()
        prompt, completion = turn.usage or (0, 0)
        start = {
            "id": f"msg_{index}",
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {"input_tokens": prompt, "output_tokens": 1},
        }
        frames: list[tuple[str, dict[str, Any]]] = [
            ("message_start", {"type": "message_start", "message": start}),
            ("ping", {"type": "ping"}),
        ]
        block = 0
        if turn.text:
            frames.append(
                (
                    "content_block_start",
                    {
                        "type": "content_block_start",
                        "index": block,
                        "content_block": {"type": "text", "text": ""},
                    },
                )
            )
            for piece in _split(turn.text, turn.text_fragments):
                delta = {"type": "text_delta", "text": piece}
                frames.append(
                    (
                        "content_block_delta",
                        {"type": "content_block_delta", "index": block, "delta": delta},
                    )
                )
            frames.append(("content_block_stop", {"type": "content_block_stop", "index": block}))
            block += 1
        calls = _call_ids(turn, index, "toolu")
        for call, call_id in calls:
            cb = {"type": "tool_use", "id": call_id, "name": call.name, "input": {}}
            frames.append(
                (
                    "content_block_start",
                    {"type": "content_block_start", "index": block, "content_block": cb},
                )
            )
            for piece in _split(call.arguments, call.fragments):
                if piece:
                    delta = {"type": "input_json_delta", "partial_json": piece}
                    frames.append(
                        (
                            "content_block_delta",
                            {"type": "content_block_delta", "index": block, "delta": delta},
                        )
                    )
            frames.append(("content_block_stop", {"type": "content_block_stop", "index": block}))
            block += 1
        stop = turn.stop_reason or ("tool_use" if calls else "end_turn")
        message_delta: dict[str, Any] = {
            "type": "message_delta",
            "delta": {"stop_reason": stop, "stop_sequence": None},
        }
        if turn.usage is not None:
            message_delta["usage"] = {"output_tokens": completion}
        frames.append(("message_delta", message_delta))
        frames.append(("message_stop", {"type": "message_stop"}))
        # The first frame that carries content: a text delta or a tool_use start.
        cut = next(
            (
                n
                for n, (event, data) in enumerate(frames)
                if event == "content_block_delta"
                or (event == "content_block_start" and data["content_block"]["type"] == "tool_use")
            ),
            0,
        )
        for n, (event, data) in enumerate(frames):
            self._sse(data, event=event, delay=turn.chunk_delay)
            if n == cut and turn.stream_error:
                kind, message = turn.stream_error
                self._sse({"type": "error", "error": {"type": kind, "message": message}}, "error")
                return
            if n == cut and turn.hang:
                self._hang()
                return


def _call_ids(turn: Turn, index: int, prefix: str) -> list[tuple[ToolCall, str]]:
    return [(c, c.id or f"{prefix}_{index}_{i}") for i, c in enumerate(turn.tool_calls)]


def _openai_completion(turn: Turn, index: int, model: str) -> dict[str, Any]:
    calls = _call_ids(turn, index, "call")
    message: dict[str, Any] = {"role": "assistant", "content": turn.text or None}
    if calls:
        message["tool_calls"] = [
            {"id": cid, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
            for c, cid in calls
        ]
    out: dict[str, Any] = {
        "id": f"chatcmpl-{index}",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": message,
                "logprobs": None,
                "finish_reason": turn.stop_reason or ("tool_calls" if calls else "stop"),
            }
        ],
    }
    if turn.usage is not None:
        prompt, completion = turn.usage
        out["usage"] = {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
        }
    return out


def _anthropic_message(turn: Turn, index: int, model: str) -> dict[str, Any]:
    content: list[dict[str, Any]] = []
    if turn.text:
        content.append({"type": "text", "text": turn.text})
    calls = _call_ids(turn, index, "toolu")
    for call, call_id in calls:
        try:
            value: Any = json.loads(call.arguments) if call.arguments else {}
        except ValueError:
            # The real API always sends an object here; a raw string lets tests
            # check that a client keeps what it cannot parse.
            value = call.arguments
        content.append({"type": "tool_use", "id": call_id, "name": call.name, "input": value})
    prompt, completion = turn.usage or (0, 0)
    return {
        "id": f"msg_{index}",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": turn.stop_reason or ("tool_use" if calls else "end_turn"),
        "stop_sequence": None,
        "usage": {"input_tokens": prompt, "output_tokens": completion},
    }


# ---------------------------------------------------------------- server


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    owner: ScriptedServer


class ScriptedServer:
    """The scripted model API; use as a context manager (see the module docstring).

    Args:
        turns: The answers, in order.
        api_key: When set, requests without it are refused with 401.
        models: What ``GET /v1/models`` lists.
        validate: Validate message histories like the real APIs (default on).
    """

    def __init__(
        self,
        turns: list[Turn] | None = None,
        *,
        api_key: str | None = None,
        models: list[str] | None = None,
        validate: bool = True,
    ) -> None:
        self.turns = list(turns or [])
        self.api_key = api_key
        self.models = list(models or ["scripted-model"])
        self.validate = validate
        self.requests: list[RecordedRequest] = []
        self.disconnected = threading.Event()
        """Set when a client closed a connection the server was still answering."""
        self.disconnect_count = 0
        self._next = 0
        self._lock = threading.Lock()
        self._server: _HTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle

    def start(self) -> ScriptedServer:
        server = _HTTPServer(("127.0.0.1", 0), _Handler)
        server.owner = self
        self._server = server
        self._thread = threading.Thread(
            target=server.serve_forever, args=(0.02,), name="scripted-server"
        )
        self._thread.daemon = True
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> ScriptedServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>`` (both ``/v1/...`` and ``/chat/completions`` work)."""
        assert self._server is not None, "start the server first"
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    # -- script

    def add(self, *turns: Turn) -> None:
        """Append turns to the script (also while running)."""
        with self._lock:
            self.turns.extend(turns)

    @property
    def remaining(self) -> int:
        """Turns not consumed yet."""
        with self._lock:
            return len(self.turns) - self._next

    @property
    def model_requests(self) -> list[RecordedRequest]:
        """The POSTs that consumed a turn."""
        return [r for r in self.requests if r.turn is not None]

    def wait_disconnected(self, timeout: float = 5.0) -> bool:
        """Wait until a client closes a connection mid-answer; True if it did."""
        return self.disconnected.wait(timeout)

    # -- used by the handler

    def _record(self, request: RecordedRequest) -> None:
        with self._lock:
            self.requests.append(request)

    def _next_turn(self) -> tuple[int, Turn | None]:
        with self._lock:
            index = self._next
            if index >= len(self.turns):
                return index, None
            self._next += 1
            return index, self.turns[index]

    def _note_disconnect(self) -> None:
        with self._lock:
            self.disconnect_count += 1
        self.disconnected.set()

    def _authorised(self, headers: dict[str, str], fmt: str) -> bool:
        if self.api_key is None:
            return True
        if fmt == "anthropic":
            return headers.get("x-api-key") == self.api_key
        return headers.get("authorization") == f"Bearer {self.api_key}"

    @staticmethod
    def _auth_message(fmt: str) -> str:
        if fmt == "anthropic":
            return "invalid x-api-key"
        return "Incorrect API key provided."
