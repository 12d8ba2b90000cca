"""Running the serving app on uvicorn: in the foreground (``studio serve``) or in a thread.

The socket is bound before uvicorn starts, so ``port=0`` gets a free port
whose real number is known (and printed) before the first request.

Slow and idle clients are bounded (:class:`ServerLimits`): a connection that
has not finished its request head within ``header_timeout`` seconds (from
connecting, or from the first byte of a keep-alive request) is closed, as is
one whose head grows beyond ``max_header_bytes``; an idle keep-alive
connection is closed after ``keep_alive``; a request body must arrive within
``body_timeout`` (408); past ``max_connections`` connections or requests in
flight, uvicorn answers 503. uvicorn has no head timeout of its own (its
keep-alive timer is armed only after a response), hence the protocol subclass.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

try:  # uvicorn[standard]: the C HTTP parser, about twice as fast as h11 here
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
except ImportError:  # pragma: no cover - httptools is a declared dependency
    HttpToolsProtocol = None  # type: ignore[assignment,misc]

from registry_db.store import RegistryStore
from studio.mcp import server_heap
from studio.server import direct_resolve
from studio.server.app import create_app
from studio.server.coalesce import CoalescingTransport
from studio.server.direct_resolve import DirectResolveMixin, ResponseHeads
from studio.server.fast_resolve import ResolveFastPath

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765


def read_token_file(path: Path) -> str:
    """The bearer token in ``path`` (surrounding whitespace dropped).

    Raises:
        ValueError: the file is empty or unreadable.
    """
    try:
        token = path.read_text("utf-8").strip()
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path}: cannot read the token file: {exc}") from exc
    if not token:
        raise ValueError(f"{path}: the token file is empty")
    return token


def bind_socket(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host``:``port`` (0 picks a free port)."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    family, _, _, _, address = infos[0]
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(2048)
    except BaseException:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def socket_url(sock: socket.socket) -> str:
    """``http://host:port`` of a bound socket (IPv6 hosts in brackets)."""
    host, port = sock.getsockname()[:2]
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}"


def set_nodelay(transport: Any) -> None:
    """TCP_NODELAY on a served connection.

    The response goes out in two writes (head, then body); with Nagle on, the
    second waits for the peer's delayed ACK and a keep-alive request costs
    ~40 ms instead of ~1 ms.
    """
    sock = transport.get_extra_info("socket")
    if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
        with contextlib.suppress(OSError):  # not fatal: only latency suffers
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


@dataclass(frozen=True, slots=True)
class ServerLimits:
    """How long and how much a client may take (seconds, bytes, connections).

    Attributes:
        header_timeout: Seconds to send a complete request head.
        keep_alive: Seconds an idle keep-alive connection stays open.
        body_timeout: Seconds to send a request body (``POST /v1/outcomes``; 408 after).
        max_header_bytes: Bytes a request head may take (the connection is closed beyond).
        max_connections: Connections plus requests in flight before uvicorn answers 503.
    """

    header_timeout: float = 10.0
    keep_alive: int = 5
    body_timeout: float = 30.0
    max_header_bytes: int = 65_536
    max_connections: int = 512


DEFAULT_LIMITS = ServerLimits()


class _GuardMixin:
    """TCP_NODELAY and a request-head deadline on every served connection.

    The deadline runs while no request is in progress (its head not yet
    parsed): from the connection's start and from the first byte after a
    response. A request whose head is complete has a new ``cycle`` (or, when
    the protocol answered it directly, one more ``direct_answers``: see
    studio.server.direct_resolve); one whose response is still being written
    is left to the app (its body deadline) and to the keep-alive timer
    uvicorn arms after the response.
    """

    header_timeout: float = DEFAULT_LIMITS.header_timeout
    max_header_bytes: int = DEFAULT_LIMITS.max_header_bytes
    direct_answers = 0  # DirectResolveMixin counts its answers here
    transport: Any
    loop: Any
    cycle: Any

    def connection_made(self, transport: asyncio.Transport) -> None:
        set_nodelay(transport)
        super().connection_made(transport)  # type: ignore[misc]
        # A response's head and body in one write (see studio.server.coalesce).
        self.transport = CoalescingTransport(transport, self.loop)
        self._head_timer: asyncio.TimerHandle | None = None
        self._head_bytes = 0
        self._head_cycle = None
        self._head_answers = 0
        self._arm_head_timer()

    def _waiting_for_head(self) -> bool:
        """No head parsed since the deadline started."""
        return self.cycle is self._head_cycle and self.direct_answers == self._head_answers

    def _arm_head_timer(self) -> None:
        if self._head_timer is None:
            self._head_cycle = self.cycle  # the finished request before this one, if any
            self._head_answers = self.direct_answers
            self._head_bytes = 0
            self._head_timer = self.loop.call_later(self.header_timeout, self._head_timeout)

    def _cancel_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_timeout(self) -> None:
        self._head_timer = None
        if self._waiting_for_head() and not self.transport.is_closing():
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        cycle = self.cycle
        if self._head_timer is None and (
            cycle is None or cycle is self._head_cycle or cycle.response_complete
        ):
            # A new request starts with these bytes; its deadline counts from now.
            self._head_cycle = cycle
            self._head_answers = self.direct_answers
            self._head_bytes = 0
            started = True
        else:
            started = False
        super().data_received(data)  # type: ignore[misc]
        if self.cycle is self._head_cycle and self.direct_answers == self._head_answers:
            # The head is not complete yet.
            if self.transport.is_closing():
                self._cancel_head_timer()
                return
            if started:  # armed only when the head did not come whole in one read
                self._head_timer = self.loop.call_later(self.header_timeout, self._head_timeout)
            self._head_bytes += len(data)
            if self._head_bytes > self.max_header_bytes:
                self._cancel_head_timer()
                self.transport.close()
        elif self._head_timer is not None:  # the head is complete: the app has the request
            self._head_timer.cancel()
            self._head_timer = None

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_head_timer()
        super().connection_lost(exc)  # type: ignore[misc]


def _protocol(base: type, limits: ServerLimits, fast: ResolveFastPath | None = None) -> type:
    """``base`` (uvicorn's HTTP protocol) with the head deadline of ``limits``.

    With ``fast`` and httptools, plain resolve requests are answered by the
    protocol itself (studio.server.direct_resolve).
    """
    bases: tuple[type, ...] = (_GuardMixin, base)
    attributes: dict[str, Any] = {
        "header_timeout": limits.header_timeout,
        "max_header_bytes": limits.max_header_bytes,
    }
    if (
        fast is not None
        and HttpToolsProtocol is not None
        and issubclass(base, HttpToolsProtocol)
        and direct_resolve.supports()
    ):
        bases = (_GuardMixin, DirectResolveMixin, base)
        attributes |= {"resolve_fast_path": fast, "response_heads": ResponseHeads()}
    return type(f"_Guarded{base.__name__}", bases, attributes)


# httptools when installed: the C HTTP parser, about twice as fast as h11 here.
_BASE_PROTOCOL: type = HttpToolsProtocol if HttpToolsProtocol is not None else H11Protocol


def _server(
    store: RegistryStore, token: str | None, limits: ServerLimits, mcp: Any = None
) -> uvicorn.Server:
    app = create_app(store, token=token, body_timeout=limits.body_timeout, mcp=mcp)
    # The resolve hot path also in front of Starlette itself (its error
    # middleware and app call are ~5 µs a request): see studio.server.fast_resolve;
    # and in the HTTP protocol, before uvicorn's ASGI machinery (direct_resolve).
    fast = ResolveFastPath(app, app.state.api)
    config = uvicorn.Config(
        fast,
        http=_protocol(_BASE_PROTOCOL, limits, fast),
        # "auto" picks uvloop when installed (uvicorn[standard]), else asyncio.
        loop="auto",
        # On: the app's shutdown closes the MCP endpoint's sessions (recorded as ended)
        # before uvicorn re-raises the stopping signal.
        lifespan="on",
        log_level="warning",
        access_log=False,
        server_header=False,
        timeout_keep_alive=limits.keep_alive,
        limit_concurrency=limits.max_connections,
    )
    return uvicorn.Server(config)


def serve(
    store: RegistryStore,
    *,
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    token: str | None = None,
    on_ready: Callable[[str], None] | None = None,
    limits: ServerLimits = DEFAULT_LIMITS,
    mcp: Any = None,
) -> None:
    """Serve until interrupted (SIGINT/SIGTERM stop it gracefully).

    Args:
        store: The database to serve.
        host: Interface to bind; loopback unless told otherwise.
        port: TCP port; 0 picks a free one.
        token: Bearer token for outcome reports; None refuses them.
        on_ready: Called with the URL once the socket listens.
        limits: Timeouts and sizes for slow or idle clients.
        mcp: How ``/mcp/{registry}`` runs calls (``studio.mcp.serve_http.McpHttpOptions``).
    """
    sock = bind_socket(host, port)
    try:
        server = _server(store, token, limits, mcp)
        # Everything imported and built so far lives as long as the process:
        # out of the collector's sight, a full collection under load walks the
        # requests' objects only (it walked ~115,000 startup objects, 100+ ms).
        # No collection first: it would cost the start that much, for a few
        # dozen cyclic leftovers of the imports.
        gc.freeze()
        server_heap.enable()  # and so is what a first request builds to serve a version
        if on_ready is not None:
            on_ready(socket_url(sock))
        server.run(sockets=[sock])
    finally:
        sock.close()


class ServerThread:
    """The server on a background thread (tests, benchmarks, the GUI later)."""

    def __init__(
        self, store: RegistryStore, *, host: str = DEFAULT_HOST, port: int = 0,
        token: str | None = None, limits: ServerLimits = DEFAULT_LIMITS, mcp: Any = None,
    ) -> None:  # fmt: skip
        self._sock = bind_socket(host, port)
        self.url = socket_url(self._sock)
        self.limits = limits
        self._server = _server(store, token, limits, mcp)
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [self._sock]}, daemon=True
        )

    def start(self, timeout: float = 10.0) -> ServerThread:
        """Start serving and wait until uvicorn reports it started."""
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.01)
        return self

    def stop(self, timeout: float = 10.0) -> None:
        """Ask uvicorn to exit and wait for the thread."""
        self._server.should_exit = True
        self._thread.join(timeout)
        self._sock.close()

    def __enter__(self) -> ServerThread:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()
