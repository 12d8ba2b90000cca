"""Running the serving app on uvicorn: in the foreground (``studio serve``) or in a thread.

The socket is bound before uvicorn starts, so ``port=0`` gets a free port
whose real number is known (and printed) before the first request.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

try:  # uvicorn[standard]: the C HTTP parser, about twice as fast as h11 here
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
except ImportError:  # pragma: no cover - httptools is a declared dependency
    HttpToolsProtocol = None  # type: ignore[assignment,misc]

from registry_db.store import RegistryStore
from studio.server.app import create_app

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


def _set_nodelay(transport) -> None:
    """TCP_NODELAY on a served connection.

    The response goes out in two writes (head, then body); with Nagle on, the
    second waits for the peer's delayed ACK and a keep-alive request costs
    ~40 ms instead of ~1 ms.
    """
    sock = transport.get_extra_info("socket")
    if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
        with contextlib.suppress(OSError):  # not fatal: only latency suffers
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class _NoDelayH11Protocol(H11Protocol):
    """h11 with TCP_NODELAY on every connection (fallback without httptools)."""

    def connection_made(self, transport):
        _set_nodelay(transport)
        super().connection_made(transport)


if HttpToolsProtocol is not None:

    class _NoDelayHttpToolsProtocol(HttpToolsProtocol):
        """httptools with TCP_NODELAY on every connection."""

        def connection_made(self, transport):
            _set_nodelay(transport)
            super().connection_made(transport)

    _PROTOCOL: type = _NoDelayHttpToolsProtocol
else:  # pragma: no cover
    _PROTOCOL = _NoDelayH11Protocol


def _server(store: RegistryStore, token: str | None) -> uvicorn.Server:
    config = uvicorn.Config(
        create_app(store, token=token),
        http=_PROTOCOL,
        # "auto" picks uvloop when installed (uvicorn[standard]), else asyncio.
        loop="auto",
        lifespan="off",
        log_level="warning",
        access_log=False,
        server_header=False,
    )
    return uvicorn.Server(config)


def serve(
    store: RegistryStore,
    *,
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    token: str | None = None,
    on_ready: Callable[[str], None] | None = None,
) -> None:
    """Serve until interrupted (SIGINT/SIGTERM stop it gracefully).

    Args:
        store: The database to serve.
        host: Interface to bind; loopback unless told otherwise.
        port: TCP port; 0 picks a free one.
        token: Bearer token for outcome reports; None refuses them.
        on_ready: Called with the URL once the socket listens.
    """
    sock = bind_socket(host, port)
    try:
        if on_ready is not None:
            on_ready(socket_url(sock))
        _server(store, token).run(sockets=[sock])
    finally:
        sock.close()


class ServerThread:
    """The server on a background thread (tests, benchmarks, the GUI later)."""

    def __init__(
        self, store: RegistryStore, *, host: str = DEFAULT_HOST, port: int = 0,
        token: str | None = None,
    ) -> None:  # fmt: skip
        self._sock = bind_socket(host, port)
        self.url = socket_url(self._sock)
        self._server = _server(store, token)
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
