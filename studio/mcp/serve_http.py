"""The MCP endpoint of ``studio serve``: ``/mcp/{registry}`` over streamable HTTP, both eras.

``/mcp/{registry}`` serves the registry's channels (stable, with each caller
bucketed into a live canary by its subject); ``?version=N`` pins a version and
``?channel=NAME`` serves one channel; ``?role=R&scenario=S`` serves only the tools
that audience may call (the others are neither listed nor callable) and runs
calls as that role in that scenario. One SDK :class:`Server` and session
manager per served target, created on first use; the manager's task group
runs in a task of its own, since the serving app has no lifespan.

Auth: with a server token (``--token-file``) or per-credential contexts
(``--contexts``), every request needs ``Authorization: Bearer …`` naming one
of them (401 otherwise). The caller's subject for bucketing is the value of
``subject_header`` when configured, else the credential's hash; with neither,
the caller gets stable. Request bodies are capped and must arrive within the
server's body timeout (the connection is then treated as gone).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

# The SDK's handler of one 2026-07-28 POST and its SSE constants (see _direct_call).
from mcp.server._streamable_http_modern import (
    _SSE_HEADERS,
    _SSE_PING_INTERVAL,
    handle_modern_request,
)
from mcp.server.streamable_http import check_accept_headers
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import (
    RequestBodyLimitMiddleware,
    TransportSecurityMiddleware,
    TransportSecuritySettings,
)
from mcp.shared.exceptions import MCPError
from mcp.shared.inbound import (
    InboundModernRoute,
    classify_inbound_request,
    find_duplicated_routing_header,
)
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS
from starlette.requests import Request
from starlette.types import Message, Receive, Scope, Send

from registry_db.errors import NotFoundError
from registry_db.store import RegistryStore
from studio.contract.audience import Audience
from studio.mcp.serve_auth import bearer, token_allowed
from studio.mcp.server import (
    CURRENT_CALLER,
    Caller,
    ListingCache,
    ServedRegistry,
    ServeOptions,
    build_server,
    credential_hash,
    listing_cache,
    mock_context,
)
from studio.release.resolve import VersionCache
from studio.runtime.context import SessionContext
from studio.runtime.single_call import WRITER

MAX_MCP_BODY_BYTES = 1_048_576
MAX_TARGETS = 256
"""Distinct (registry, version or channel, audience) endpoints one server keeps: the
query string is the caller's, so its combinations must not grow memory without bound."""
IDLE_TARGET_SECONDS = 300.0
"""With :data:`MAX_TARGETS` endpoints kept, the least recently used one idle this long
makes room for a new one (its clients start a new session, as for any lost session);
without it 256 distinct ``?role=`` values from one caller locked out every new audience
until the server restarted."""
MAX_LISTING_BODY_BYTES = 65_536
"""A tools/list request longer than this takes the SDK's path (which applies its own limit)."""
LOOPBACK_HOSTS = ("127.0.0.1:*", "localhost:*", "[::1]:*")


@dataclass(frozen=True, slots=True)
class McpHttpOptions:
    """How ``studio serve`` serves MCP.

    Attributes:
        context_pairs: ``KEY=VALUE`` applied to each registry's suggested context.
        contexts: Credential subject → context (``--contexts``).
        subject_header: Request header whose value buckets the caller (else the credential).
        allowed_hosts: ``Host`` values accepted besides loopback (DNS-rebinding protection).
    """

    context_pairs: Sequence[str] = ()
    contexts: Mapping[str, SessionContext] = field(default_factory=dict)
    approve: str | None = None
    phrases: Mapping[str, str] = field(default_factory=dict)
    executors: str = "configured"
    subject_header: str | None = None
    allowed_hosts: Sequence[str] = ()


_TargetKey = tuple[str, int | None, str | None, Audience | None]
"""(registry, pinned version, channel, audience) of one served endpoint."""


@dataclass
class _Target:
    served: ServedRegistry
    manager: StreamableHTTPSessionManager
    ready: asyncio.Event
    listing: ListingCache
    task: asyncio.Task[None] | None = None
    last_used: float = 0.0  # time.monotonic() of the latest request


class McpEndpoint:
    """The ASGI app behind ``/mcp/{registry}``."""

    def __init__(
        self,
        store: RegistryStore,
        *,
        token: str | None,
        options: McpHttpOptions | None = None,
        body_timeout: float = 30.0,
        cache: VersionCache | None = None,
    ) -> None:
        self.store = store
        self.token = token
        self.options = options or McpHttpOptions()
        self.body_timeout = body_timeout
        self.cache = cache or VersionCache()
        self.targets: dict[_TargetKey, _Target] = {}
        self._keys: dict[tuple[str, bytes], _TargetKey] = {}
        hosts = [*LOOPBACK_HOSTS, *self.options.allowed_hosts]
        self.security = TransportSecuritySettings(
            enable_dns_rebinding_protection=True,
            allowed_hosts=hosts,
            allowed_origins=[f"http://{h}" for h in hosts] + [f"https://{h}" for h in hosts],
        )

    # ------------------------------------------------------------------ ASGI

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        token = bearer(headers)
        needs_auth = self.token is not None or bool(self.options.contexts)
        if needs_auth:
            if token is None:
                return await _json(send, 401, "a bearer token is required", challenge=True)
            if not token_allowed(token, self.token, self.options.contexts):
                return await _json(send, 401, "the bearer token is wrong", challenge=True)
        try:
            target = await self._target(scope)
        except NotFoundError as exc:
            return await _json(send, 404, str(exc))
        except (ValueError, MCPError) as exc:
            return await _json(send, 400, str(exc))
        caller = self._caller(headers, token, scope.get("client"))
        receive = self._deadline(receive)
        if _listing_request(scope, headers):
            rest = await self._fast_listing(target, caller, scope, receive, send)
            if rest is None:
                return
            receive = rest
        reset = CURRENT_CALLER.set(caller)
        try:
            if _call_request(scope, headers) and _accepts_json_and_sse(scope):
                await self._direct_call(target, scope, receive, send)
            else:
                await target.manager.handle_request(scope, receive, send)
        finally:
            CURRENT_CALLER.reset(reset)
        if scope.get("method") == "DELETE":  # the client ended its MCP session
            target.served.close_caller(caller.key)

    async def _fast_listing(
        self, target: _Target, caller: Caller, scope: Scope, receive: Receive, send: Send
    ) -> Receive | None:
        """Answer a 2026-07-28 ``tools/list`` from its cached bytes; None when answered.

        The request passes the SDK's own checks first (Host/Origin, Accept, the
        JSON-RPC envelope, the routing headers against the body); anything they
        would refuse, or any listing with a cursor, goes to the SDK unchanged
        (the body is replayed). The answer is the one the SDK would give,
        rendered once per version by :class:`studio.mcp.server.ListingCache`
        through the SDK's serialiser.
        """
        request = Request(scope, receive)
        refused = await TransportSecurityMiddleware(self.security).validate_request(
            request, is_post=True
        )
        body = await _read_limited(receive)
        replay = _replay(body, receive)
        if refused is not None or body is None:
            return replay
        has_json, _ = check_accept_headers(request)
        try:
            decoded = json.loads(body)
            rid = decoded["id"]
            params = decoded.get("params") or {}
        except (ValueError, RecursionError, TypeError, KeyError, AttributeError):
            return replay
        if not has_json or decoded.get("method") != "tools/list" or params.get("cursor"):
            return replay
        if find_duplicated_routing_header(request.headers.items()) is not None:
            return replay
        verdict = classify_inbound_request(decoded, headers=dict(request.headers))
        if not isinstance(verdict, InboundModernRoute) or isinstance(rid, bool):
            return replay
        if not isinstance(rid, (int, str)):
            return replay
        wire = target.listing.wire_bytes(verdict.protocol_version, caller.subject)
        payload = b'{"jsonrpc":"2.0","id":' + json.dumps(rid).encode() + b',"result":' + wire + b"}"
        headers = [(b"content-type", b"application/json"),
                   (b"content-length", str(len(payload)).encode())]  # fmt: skip
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": payload})
        return None

    async def _direct_call(
        self, target: _Target, scope: Scope, receive: Receive, send: Send
    ) -> None:
        """A 2026-07-28 ``tools/call`` through the SDK's own request handling, minus its stream.

        The SDK answers such a POST (from a client that accepts JSON and SSE) by
        running the handler in an anyio task group beside a disconnect watcher,
        behind a memory stream for notifications, and commits to SSE only when
        a notification comes (the studio's handlers send none) or the answer
        takes longer than its ping interval (15 s). That machinery was ~0.5 ms
        of ~1.5 ms of CPU per call. Here the same SDK function runs in its JSON
        mode, inline, with the same body limit, and this method supplies the
        rest as the SDK would: a disconnect cancels the call (the session is
        recorded interrupted), and past the ping interval the SSE headers and
        pings go out, the answer following as the SDK's final ``message`` event.
        """
        exchange = _Exchange(send)

        async def handle(scope: Scope, body: Receive, send: Send) -> None:
            await handle_modern_request(target.manager.app, self.security, True,
                                        _lifespan_state(target.manager), scope, body,
                                        exchange.send)  # fmt: skip

        loop = asyncio.get_running_loop()
        task = asyncio.current_task()
        assert task is not None
        watcher: asyncio.Future[Message] | None = None

        def gone(done: asyncio.Future[Message]) -> None:
            hung_up = not done.cancelled() and done.exception() is None
            if hung_up and done.result().get("type") == "http.disconnect":
                exchange.gone = True
                task.cancel()

        async def body_then_watch(scope: Scope, body: Receive, send: Send) -> None:
            nonlocal watcher
            # The body is read: what comes next is a hang-up.
            watcher = asyncio.ensure_future(receive())
            watcher.add_done_callback(gone)
            await handle(scope, body, send)

        timer = loop.call_later(_SSE_PING_INTERVAL, exchange.start_sse)
        try:
            await RequestBodyLimitMiddleware(body_then_watch, MAX_MCP_BODY_BYTES)(
                scope, receive, send
            )
        except asyncio.CancelledError:
            if exchange.gone and task.uncancel() == 0:
                return  # the client hung up mid-call: nobody to answer
            raise
        finally:
            timer.cancel()
            if watcher is not None:
                watcher.remove_done_callback(gone)
                watcher.cancel()
            await exchange.stop()

    def _caller(
        self, headers: Mapping[str, str], token: str | None, peer: Sequence[Any] | None = None
    ) -> Caller:
        credential = credential_hash(token) if token else None
        subject = credential
        if self.options.subject_header:
            subject = headers.get(self.options.subject_header.lower()) or subject
        context = self.options.contexts.get(credential) if credential else None
        version = headers.get("mcp-protocol-version")
        session_id = headers.get("mcp-session-id")
        if session_id and (version is None or version in HANDSHAKE_PROTOCOL_VERSIONS):
            key = f"session:{session_id}"
        elif subject or credential:  # the 2026-07-28 era has no session: one per caller
            key = f"caller:{subject or credential}"
        else:  # nobody named: one per connection, so two clients never share a write ledger
            key = f"peer:{peer[0]}:{peer[1]}" if peer else "peer:unknown"
        return Caller(key, subject, context, "http")

    def _deadline(self, receive: Receive) -> Receive:
        """``receive`` that reports a disconnect when the body is not in after the timeout."""
        deadline = time.monotonic() + self.body_timeout
        body_done = False

        async def timed() -> Message:
            nonlocal body_done
            if body_done:
                return await receive()
            remaining = deadline - time.monotonic()
            try:
                async with asyncio.timeout(max(remaining, 0.0)):
                    message = await receive()
            except TimeoutError:
                body_done = True
                return {"type": "http.disconnect"}
            if message["type"] != "http.request" or not message.get("more_body", False):
                body_done = True
            return message

        return timed

    # ------------------------------------------------------------------ targets

    async def _target(self, scope: Scope) -> _Target:
        name = scope["path_params"]["registry"]
        raw_query: bytes = scope.get("query_string", b"")
        key = self._keys.get((name, raw_query))
        if key is None:  # parsed once per distinct query (parse_qs twice was ~10 µs a request)
            query = raw_query.decode("latin-1")
            version, channel = _which(query)
            audience = _audience(query)
            key = (name, version, channel, audience)
            if len(self._keys) >= 4 * MAX_TARGETS:
                self._keys.clear()
            self._keys[(name, raw_query)] = key
        target = self.targets.get(key)
        if target is None:
            if len(self.targets) >= MAX_TARGETS and not self._drop_idle_target():
                raise ValueError(
                    f"more than {MAX_TARGETS} registry/version/audience endpoints in use; "
                    f"one idle for {IDLE_TARGET_SECONDS:.0f} s makes room"
                )
            # From the key: a query seen before (its target refused, say) is not parsed again.
            target = self._create(*key)
            self.targets[key] = target
        target.last_used = time.monotonic()
        if target.task is None:
            target.task = asyncio.get_running_loop().create_task(self._run(target))
        await target.ready.wait()
        return target

    def _drop_idle_target(self) -> bool:
        """Stop the least recently used endpoint if it has been idle long enough."""
        key, target = min(self.targets.items(), key=lambda item: item[1].last_used)
        if time.monotonic() - target.last_used < IDLE_TARGET_SECONDS:
            return False
        del self.targets[key]
        for query, known in list(self._keys.items()):
            if known == key:
                del self._keys[query]
        if target.task is not None:
            target.task.cancel()  # its manager's sessions end; _run closes what it served
        return True

    def _create(
        self, name: str, version: int | None, channel: str | None, audience: Audience | None
    ) -> _Target:
        base = mock_context(self.store, name).with_pairs(self.options.context_pairs)
        if audience is not None:
            # The audience's callers act as that role in that scenario.
            pairs = [f"{k}={v}" for k, v in (("role", audience.role),
                                              ("scenario", audience.scenario)) if v]  # fmt: skip
            base = base.with_pairs(pairs)
        options = ServeOptions(base, self.options.approve, dict(self.options.phrases),
                               self.options.executors, audience)  # fmt: skip
        # Recording is written on its own thread: a request never waits on a commit.
        served = ServedRegistry(self.store, name, version=version, channel=channel,
                                options=options, cache=self.cache,
                                deferred_writes=True)  # fmt: skip
        server = build_server(served)
        manager = StreamableHTTPSessionManager(
            app=server,
            security_settings=self.security,
            max_request_body_size=MAX_MCP_BODY_BYTES,
        )
        return _Target(served, manager, asyncio.Event(), listing_cache(server))

    async def _run(self, target: _Target) -> None:
        """Hold the manager's task group open until the server stops."""
        try:
            async with target.manager.run():
                target.ready.set()
                await asyncio.Event().wait()
        finally:
            target.served.close_all()
            WRITER.flush()

    async def aclose(self) -> None:
        for target in self.targets.values():
            if target.task is not None:
                target.task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await target.task


class _Exchange:
    """The response side of :meth:`McpEndpoint._direct_call`: JSON, or SSE once late.

    Until the ping interval passes, what the SDK sends goes out as it is (its
    JSON answer). After it, the SSE headers and a ping go out at once and a
    ping every interval, as the SDK's streaming branch does; the SDK's JSON
    answer then leaves as the final ``event: message`` frame (the same JSON
    text the SDK's frame carries).
    """

    def __init__(self, send: Send) -> None:
        self._send = send
        self.gone = False
        self._sse = False
        self._answered = False
        self._headers_sent = False
        self._pinger: asyncio.Task[None] | None = None

    def start_sse(self) -> None:
        if not self._answered:
            self._sse = True
            self._pinger = asyncio.get_running_loop().create_task(self._ping())

    async def _headers(self) -> None:
        if not self._headers_sent:
            self._headers_sent = True
            await self._send({"type": "http.response.start", "status": 200,
                              "headers": list(_SSE_HEADERS)})  # fmt: skip

    async def _ping(self) -> None:
        await self._headers()
        while True:
            await self._send({"type": "http.response.body", "body": b": ping\r\n\r\n",
                              "more_body": True})  # fmt: skip
            await asyncio.sleep(_SSE_PING_INTERVAL)

    async def send(self, message: Message) -> None:
        if not self._sse:
            self._answered = True
            await self._send(message)
            return
        if message["type"] != "http.response.body":
            return  # the JSON answer's head: the SSE head went out instead
        await self.stop()
        await self._headers()
        frame = b"event: message\r\ndata: " + bytes(message.get("body", b"")) + b"\r\n\r\n"
        await self._send({"type": "http.response.body", "body": frame, "more_body": False})

    async def stop(self) -> None:
        pinger, self._pinger = self._pinger, None
        if pinger is not None:
            pinger.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await pinger


def _lifespan_state(manager: StreamableHTTPSessionManager) -> Any:
    """The lifespan state the manager hands its modern-era requests (set while it runs)."""
    return manager._lifespan_state


def _call_request(scope: Scope, headers: Mapping[str, str]) -> bool:
    """A POST the routing headers say is a 2026-07-28 ``tools/call``."""
    return (
        scope.get("method") == "POST"
        and headers.get("mcp-method") == "tools/call"
        and headers.get("mcp-protocol-version") in MODERN_PROTOCOL_VERSIONS
    )


def _accepts_json_and_sse(scope: Scope) -> bool:
    """The client accepts both answers (the SDK's streaming branch; else the SDK decides)."""
    has_json, has_sse = check_accept_headers(Request(scope))
    return has_json and has_sse


def _listing_request(scope: Scope, headers: Mapping[str, str]) -> bool:
    """A POST the routing headers say is a 2026-07-28 ``tools/list``."""
    return (
        scope.get("method") == "POST"
        and headers.get("mcp-method") == "tools/list"
        and headers.get("mcp-protocol-version") in MODERN_PROTOCOL_VERSIONS
    )


async def _read_limited(receive: Receive) -> bytes | None:
    """The request body; None when it is longer than a listing request can be (or gone)."""
    body = bytearray()
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        body += message.get("body", b"")
        if len(body) > MAX_LISTING_BODY_BYTES:
            return None
        if not message.get("more_body", False):
            return bytes(body)


def _replay(body: bytes | None, receive: Receive) -> Receive:
    """``receive`` that first hands back the body already read."""
    pending = [] if body is None else [{"type": "http.request", "body": body, "more_body": False}]

    async def replayed() -> Message:
        if pending:
            return pending.pop()
        return await receive()

    return replayed


def _which(query: str) -> tuple[int | None, str | None]:
    """``version`` and ``channel`` of the query string (ValueError when malformed)."""
    from urllib.parse import parse_qs

    params = parse_qs(query)  # a name given twice: the last value, as resolve reads it
    raw_version = params.get("version", [None])[-1]
    channel = params.get("channel", [None])[-1]
    if raw_version is not None and channel is not None:
        raise ValueError("give version or channel, not both")
    if raw_version is None:
        return None, channel
    if not raw_version.isascii() or not raw_version.isdigit() or len(raw_version) > 9:
        raise ValueError(f"version must be a positive integer, not {raw_version!r}")
    return int(raw_version), None


def _audience(query: str) -> Audience | None:
    """``role`` and ``scenario`` of the query string: serve only what that audience may call.

    Raises:
        ValueError: a value too long or holding control characters.
    """
    from urllib.parse import parse_qs

    params = parse_qs(query)  # a name given twice: the last value, as resolve reads it
    role = params.get("role", [None])[-1]
    scenario = params.get("scenario", [None])[-1]
    if role is None and scenario is None:
        return None
    for key, value in (("role", role), ("scenario", scenario)):
        if value is not None and (len(value) > 200 or not value.isprintable()):
            raise ValueError(f"{key} must be printable and at most 200 characters")
    return Audience(role or "", scenario or "")


async def _json(send: Send, status: int, message: str, *, challenge: bool = False) -> None:
    body = json.dumps({"error": {"status": status, "message": message}}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if challenge:
        headers.append((b"www-authenticate", b'Bearer realm="studio"'))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
