"""The proxy itself: an ASGI app that forwards to the upstream and records model calls.

Requests that are not model calls (model lists, token counts …) pass
through untouched and unrecorded. A model call is read, checked for pairing
problems *before* it is forwarded (the ``--on-broken`` policy decides what
happens to a broken one), placed into a conversation, and recorded; its
answer passes through as it arrives — a stream chunk by chunk, each chunk
sent on the moment it is read — while a watcher reads the same bytes to
record the assistant message.

Bodies and headers go upstream as the agent sent them (hop-by-hop headers
and the grouping header aside); the API key is passed on and never stored.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
import uuid
import zlib
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

import httpx

from studio.formats.base import load_json
from studio.proxy.grouping import Grouper, Placement, digests
from studio.proxy.policy import (
    OnBroken,
    check_request,
    problem_dict,
    provider_error,
    repair_hint,
    repair_history,
)
from studio.proxy.recorder import (
    MAX_PENDING,
    Recorder,
    Write,
    redacted_headers,
    session_start,
)
from studio.proxy.wire import (
    Answer,
    Kind,
    StreamWatcher,
    error_body,
    is_model_call,
    read_answer,
    read_request,
    write_messages,
)
from studio.sessions.model import Message, message_to_dict
from studio.sessions.redact import Secrets, redact_text

log = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]

DEFAULT_SESSION_HEADER = "x-studio-session"
MAX_BODY_BYTES = 64 * 1024 * 1024
MAX_ERROR_CHARS = 4000
"""An upstream error body is recorded up to this many characters."""
_HOP_BY_HOP = frozenset(
    {
        b"connection",
        b"keep-alive",
        b"proxy-connection",
        b"proxy-authenticate",
        b"proxy-authorization",
        b"te",
        b"trailer",
        b"transfer-encoding",
        b"upgrade",
        b"host",
        b"content-length",
    }
)
_PARAMS_LEFT_OUT = frozenset({"messages", "tools", "system"})


@dataclass(frozen=True, slots=True)
class ProxyConfig:
    """What the proxy forwards to and how it treats broken histories.

    Attributes:
        upstream: The provider's base URL; a request's path and query are appended.
        kind: The upstream's wire format.
        on_broken: What to do with a request the provider would refuse.
        session_header: Requests carrying this header are grouped by its value.
    """

    upstream: str
    kind: Kind
    on_broken: OnBroken = OnBroken.FORWARD
    session_header: str = DEFAULT_SESSION_HEADER


def build_client(*, trust_env: bool = True) -> httpx.AsyncClient:
    """The upstream client: no overall read deadline (models think), many connections."""
    return httpx.AsyncClient(
        timeout=httpx.Timeout(connect=15.0, read=600.0, write=60.0, pool=60.0),
        limits=httpx.Limits(max_connections=1000, max_keepalive_connections=200),
        follow_redirects=False,
        trust_env=trust_env,
    )


class ProxyApp:
    """The ASGI app (served by :mod:`studio.proxy.run`).

    Args:
        config: Upstream, wire format and policy.
        recorder: Where exchanges are recorded (None: forward and check only).
        client: The upstream HTTP client (one is built when None).
    """

    def __init__(
        self,
        config: ProxyConfig,
        recorder: Recorder | None = None,
        client: httpx.AsyncClient | None = None,
    ) -> None:
        self.config = config
        self.recorder = recorder
        self.client = client or build_client()
        self.grouper = Grouper()
        self._upstream = config.upstream.rstrip("/")
        self._session_header = config.session_header.lower().encode("latin-1")

    @property
    def upstream_label(self) -> str:
        """The upstream as recorded in each session's meta (key-like parts redacted)."""
        return redact_text(self._upstream)

    async def aclose(self) -> None:
        await self.client.aclose()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        body = await _read_body(receive)
        if body is None:
            await _send_bytes(
                send, 413, [(b"content-type", b"text/plain")], b"request body too large"
            )
            return
        method = scope["method"]
        path = scope["path"]
        headers = [(k.lower(), v) for k, v in scope["headers"]]
        target = self._upstream + scope.get("raw_path", path.encode()).decode("latin-1")
        if scope.get("query_string"):
            target += "?" + scope["query_string"].decode("latin-1")
        if is_model_call(self.config.kind, method, path):
            with contextlib.suppress(_NotAModelCall):
                await self._model_call(scope, receive, send, target, headers, body)
                return
        await self._forward(receive, send, method, target, headers, body, None)

    # ---------------------------------------------------------------- model calls

    async def _model_call(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
        target: str,
        headers: list[tuple[bytes, bytes]],
        body: bytes,
    ) -> None:
        try:
            # The importers' loader: a body the studio could not store (lone
            # surrogates, huge ints, deep nesting) passes through unrecorded.
            data = load_json(body.decode("utf-8"), "")
        except ValueError:  # FormatError, UnicodeDecodeError
            raise _NotAModelCall from None
        if not isinstance(data, dict) or not isinstance(data.get("messages"), list):
            raise _NotAModelCall
        kind, policy = self.config.kind, self.config.on_broken
        text_headers = [(k.decode("latin-1"), v.decode("latin-1")) for k, v in headers]
        # The grouping header is named like a session credential but only names a conversation.
        grouping = self._session_header.decode("latin-1")
        secrets = Secrets.from_headers({k: v for k, v in text_headers if k != grouping})
        try:
            read = read_request(kind, data)
            check = check_request(kind, read.messages)
        except Exception:  # a body the readers choke on still reaches the provider
            log.exception("proxy: could not read a %s request; forwarded unrecorded", kind.value)
            raise _NotAModelCall from None
        sent_messages: list[Message] = read.messages
        events: list[tuple[str, dict[str, Any]]] = []
        action = "forward"
        if check.broken and policy is OnBroken.REFUSE:
            action = "refuse"
        elif check.broken and policy is OnBroken.REPAIR:
            try:
                repaired = repair_history(kind, read.messages)
            except Exception as exc:  # a doctor that fails must not stop the agent
                events.append(("proxy.repair_failed", {"reason": repr(exc)}))
            else:
                action = "repair"
                sent_messages = repaired.messages
                data = write_messages(kind, data, read, repaired.messages)
                body = json.dumps(data, ensure_ascii=False).encode("utf-8")
                events.append(
                    (
                        "proxy.repaired",
                        {
                            "changes": repaired.changes,
                            "problems": [problem_dict(p, kind) for p in check.enforced],
                            "after": [
                                problem_dict(p, kind)
                                for p in check_request(kind, repaired.messages).enforced
                            ],
                        },
                    )
                )

        header_key = next(
            (v for k, v in text_headers if k.encode("latin-1") == self._session_header), ""
        )
        placement = self.grouper.place(digests(sent_messages), header_key)
        conversation = placement.conversation
        conversation.exchanges += 1
        if check.broken:
            conversation.broken_requests += 1
        run_id = uuid.uuid4().hex[:16]
        request_event = {
            "method": scope["method"],
            "path": scope["path"],
            "headers": redacted_headers([(k, v) for k, v in text_headers if k != grouping]),
            "model": str(data.get("model") or ""),
            "stream": bool(data.get("stream")),
            "params": {k: v for k, v in data.items() if k not in _PARAMS_LEFT_OUT},
            "messages": len(sent_messages),
            "new_messages": len(sent_messages) - placement.start,
            "tools": len(data["tools"]) if isinstance(data.get("tools"), list) else 0,
            "policy": policy.value,
            "action": action,
            "problems": [problem_dict(p, kind) for p in check.problems],
            "broken": check.broken,
            "unreadable": read.unreadable,
        }
        events.insert(0, ("proxy.request", request_event))
        refusal: dict[str, Any] | None = None
        if action == "refuse":
            refusal = error_body(kind, provider_error(kind, check), repair_hint(check, policy))
            events.append(("proxy.refused", {"status": 400, "body": refusal}))
        if self.recorder is not None and self.recorder.pending >= MAX_PENDING:
            # The writer is behind (a burst, a slow disk): hold this call until it catches
            # up rather than queue without bound.
            await self.recorder.below(MAX_PENDING // 2)
        self._record_request(
            placement, run_id, events, sent_messages, data, secrets, len(check.problems)
        )
        if refusal is not None:
            payload = json.dumps(refusal).encode()
            await _send_bytes(
                send,
                400,
                [
                    (b"content-type", b"application/json"),
                    (b"x-studio-proxy", b"refused"),
                    *self._session_headers(placement),
                ],
                payload,
            )
            return
        forward_headers = [(k, v) for k, v in headers if k != self._session_header]
        exchange = _Exchange(placement, run_id, secrets, time.perf_counter())
        await self._forward(receive, send, scope["method"], target, forward_headers, body, exchange)

    def _session_headers(self, placement: Placement) -> list[tuple[bytes, bytes]]:
        return [(b"x-studio-session-id", placement.conversation.id.encode())]

    def _record_request(
        self,
        placement: Placement,
        run_id: str,
        events: list[tuple[str, dict[str, Any]]],
        messages: list[Message],
        data: dict[str, Any],
        secrets: Secrets,
        problems: int = 0,
    ) -> None:
        if self.recorder is None:
            return
        conversation = placement.conversation
        start = None
        if placement.created:
            meta = {
                "model": str(data.get("model") or ""),
                "kind": self.config.kind.value,
                "upstream": self.upstream_label,
                "policy": self.config.on_broken.value,
                "grouped_by": "header" if conversation.header_key else "history",
            }
            if conversation.header_key:
                meta["session_header"] = conversation.header_key
            start = session_start(messages, data, meta)
        self.recorder.submit(
            Write(
                conversation,
                run_id,
                conversation.take_seq(len(events)),
                events,
                messages[placement.start :],
                placement.start,
                start,
                # The list's problem badge: what the check found in this request.
                meta={"broken_requests": conversation.broken_requests, "problems": problems},
                secrets=secrets,
            )
        )

    def _record_answer(
        self,
        exchange: _Exchange,
        status: int,
        answer: Answer | None,
        error_text: str,
        timing: dict[str, float],
        streamed: bool,
    ) -> None:
        if self.recorder is None:
            return
        conversation = exchange.placement.conversation
        data: dict[str, Any] = {"status": status, "stream": streamed, **timing}
        messages: list[Message] = []
        first_index = len(conversation.digests)
        if answer is not None:
            data.update(
                stop_reason=answer.stop_reason,
                complete=answer.complete,
                usage={
                    "input_tokens": answer.usage.input_tokens,
                    "output_tokens": answer.usage.output_tokens,
                },
            )
            if answer.error:
                data["stream_error"] = answer.error
            if answer.unreadable:
                data["unreadable"] = answer.unreadable
            if answer.message is not None and not answer.complete and answer.message.parts:
                # An answer cut short is not part of the conversation the agent goes on with.
                data["partial"] = message_to_dict(answer.message)
            elif answer.message is not None and status == 200 and answer.message.parts:
                messages.append(answer.message)
                first_index -= 1  # already counted by Grouper.answered
                data["tool_calls"] = [
                    {"id": c.id, "name": c.name} for c in answer.message.tool_calls
                ]
        if error_text:
            data["error"] = error_text[:MAX_ERROR_CHARS]
        recheck = None
        if messages and messages[0].tool_calls and self.recorder.registry is not None:
            recheck = messages[0]
        self.recorder.submit(
            Write(
                conversation,
                exchange.run_id,
                conversation.take_seq(2 if recheck else 1),
                [("proxy.response", data)],
                messages,
                first_index,
                revalidate=recheck,
                secrets=exchange.secrets,
            )
        )

    # ---------------------------------------------------------------- forwarding

    async def _forward(
        self,
        receive: Receive,
        send: Send,
        method: str,
        target: str,
        headers: list[tuple[bytes, bytes]],
        body: bytes,
        exchange: _Exchange | None,
    ) -> None:
        upstream_headers = [(k, v) for k, v in headers if k not in _HOP_BY_HOP]
        request = httpx.Request(method, target, headers=upstream_headers, content=body)
        try:
            response = await self.client.send(request, stream=True)
        except httpx.HTTPError as exc:
            message = f"studio proxy: the upstream {self.upstream_label} did not answer: {exc!r}"
            if exchange is not None:
                self._record_answer(exchange, 502, None, message, {}, False)
            payload = json.dumps(_gateway_error(self.config.kind, message)).encode()
            await _send_bytes(send, 502, [(b"content-type", b"application/json")], payload)
            return
        disconnected = asyncio.Event()
        watcher = asyncio.ensure_future(_wait_disconnect(receive, disconnected))
        relay = asyncio.ensure_future(self._relay(send, response, exchange))
        try:
            await asyncio.wait({relay, watcher}, return_when=asyncio.FIRST_COMPLETED)
            if not relay.done():  # the agent went away: stop reading the upstream
                relay.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await relay
            else:
                relay.result()
        finally:
            watcher.cancel()
            await response.aclose()

    async def _relay(
        self, send: Send, response: httpx.Response, exchange: _Exchange | None
    ) -> None:
        out_headers = [
            (k.lower(), v)
            for k, v in response.headers.raw
            if k.lower() not in _HOP_BY_HOP or k.lower() == b"content-length"
        ]
        if exchange is not None:
            out_headers += self._session_headers(exchange.placement)
        status = response.status_code
        if exchange is None:  # not a model call: bytes through, nothing read
            await send({"type": "http.response.start", "status": status, "headers": out_headers})
            with contextlib.suppress(httpx.HTTPError):  # a broken upstream body ends ours
                async for chunk in response.aiter_raw():
                    await send({"type": "http.response.body", "body": chunk, "more_body": True})
            await send({"type": "http.response.body", "body": b"", "more_body": False})
            return
        started = exchange.started
        decoder = _Decoder(response.headers.get("content-encoding", ""))
        is_stream = "text/event-stream" in response.headers.get("content-type", "")
        if is_stream and status == 200:
            await self._relay_stream(send, response, exchange, out_headers, decoder)
            return
        # One JSON document (an answer or an error): read whole, then sent on.
        try:
            raw = b"".join([chunk async for chunk in response.aiter_raw()])
        except httpx.HTTPError as exc:
            message = (
                f"studio proxy: the upstream {self.upstream_label} broke off its answer: {exc!r}"
            )
            self._record_answer(exchange, 502, None, message, {}, False)
            payload = json.dumps(_gateway_error(self.config.kind, message)).encode()
            await _send_bytes(send, 502, [(b"content-type", b"application/json")], payload)
            return
        decoded = decoder.decode(raw)
        answer = None
        error_text = ""
        if status == 200:
            answer = read_answer(self.config.kind, decoded)
            if answer.message is not None and answer.message.parts:
                self.grouper.answered(exchange.placement.conversation, answer.message)
        else:
            error_text = decoded.decode("utf-8", "replace")
        elapsed = round((time.perf_counter() - started) * 1000, 3)
        await send({"type": "http.response.start", "status": status, "headers": out_headers})
        await send({"type": "http.response.body", "body": raw, "more_body": False})
        self._record_answer(exchange, status, answer, error_text, {"latency_ms": elapsed}, False)

    async def _relay_stream(
        self,
        send: Send,
        response: httpx.Response,
        exchange: _Exchange,
        out_headers: list[tuple[bytes, bytes]],
        decoder: _Decoder,
    ) -> None:
        watcher = StreamWatcher(self.config.kind)
        conversation = exchange.placement.conversation
        answered = False
        first_byte = 0.0
        await send({"type": "http.response.start", "status": 200, "headers": out_headers})
        broke = ""
        try:
            async for chunk in response.aiter_raw():
                if not first_byte:
                    first_byte = time.perf_counter()
                watcher.feed(decoder.decode(chunk))
                if not answered and watcher.complete:
                    # Known before the agent sees the end, so its next request finds it.
                    answer = watcher.answer()
                    if answer.message is not None and answer.message.parts:
                        self.grouper.answered(conversation, answer.message)
                    answered = True
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        except httpx.HTTPError as exc:  # the status is sent: end the body, record why
            broke = f"the upstream stream broke off: {exc!r}"
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        except asyncio.CancelledError:
            broke = "the agent closed the connection before the answer ended"
            raise
        finally:
            answer = watcher.answer()
            message = answer.message
            if not answered and answer.complete and message is not None and message.parts:
                self.grouper.answered(conversation, message)
            if not answer.complete and not answer.error:
                answer.error = broke or "the stream ended before the answer did"
            now = time.perf_counter()
            timing = {"latency_ms": round((now - exchange.started) * 1000, 3)}
            if first_byte:
                timing["first_byte_ms"] = round((first_byte - exchange.started) * 1000, 3)
            self._record_answer(exchange, 200, answer, "", timing, True)


@dataclass(slots=True)
class _Exchange:
    placement: Placement
    run_id: str
    secrets: Secrets
    started: float


class _NotAModelCall(Exception):
    """The body is not a model call after all (not JSON, no messages): forward it as is."""


class _Decoder:
    """Undoes gzip/deflate for the watcher (the agent gets the bytes as they came)."""

    def __init__(self, encoding: str) -> None:
        encoding = encoding.strip().lower()
        self._zlib = zlib.decompressobj(47) if encoding in ("gzip", "deflate") else None
        self.unsupported = encoding if encoding not in ("", "identity", "gzip", "deflate") else ""

    def decode(self, chunk: bytes) -> bytes:
        if self.unsupported:
            return b""
        if self._zlib is None:
            return chunk
        try:
            return self._zlib.decompress(chunk)
        except zlib.error:
            self.unsupported = "a damaged compressed body"
            return b""


async def _read_body(receive: Receive) -> bytes | None:
    chunks, size = [], 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            return None
        chunks.append(chunk)
        if not message.get("more_body"):
            break
    return b"".join(chunks)


async def _wait_disconnect(receive: Receive, flag: asyncio.Event) -> None:
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            flag.set()
            return


async def _send_bytes(
    send: Send, status: int, headers: list[tuple[bytes, bytes]], body: bytes
) -> None:
    headers = [*headers, (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body, "more_body": False})


def _gateway_error(kind: Kind, message: str) -> dict[str, Any]:
    if kind is Kind.OPENAI_CHAT:
        return {
            "error": {
                "message": message,
                "type": "api_connection_error",
                "param": None,
                "code": None,
            }
        }
    return {"type": "error", "error": {"type": "api_error", "message": message}}
