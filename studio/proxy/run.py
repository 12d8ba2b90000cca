"""Running the proxy on uvicorn: in the foreground (``studio proxy``) or in a thread.

The socket is bound before uvicorn starts, so ``port=0`` gets a free port
whose number is known before the first request. Every served connection has
TCP_NODELAY (a streamed chunk goes out at once, not after the agent's
delayed ACK). uvicorn's access log is off: request lines never reach a log,
and headers (the API key) are never logged anywhere.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Callable
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

try:  # uvicorn[standard]: the C HTTP parser
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
except ImportError:  # pragma: no cover - httptools is a declared dependency
    HttpToolsProtocol = None  # type: ignore[assignment,misc]

from registry_db.store import RegistryStore
from studio.proxy.app import ProxyApp, ProxyConfig, build_client
from studio.proxy.recorder import Recorder, RegistryTarget, recorded_conversations
from studio.server.run import bind_socket, set_nodelay, socket_url

DEFAULT_HOST = "127.0.0.1"
_BASE: type = HttpToolsProtocol if HttpToolsProtocol is not None else H11Protocol


class _NoDelayProtocol(_BASE):
    def connection_made(self, transport: asyncio.Transport) -> None:
        set_nodelay(transport)
        super().connection_made(transport)


class _Lifespan:
    """Closes the upstream client when uvicorn shuts down (on uvicorn's loop)."""

    def __init__(self, app: ProxyApp) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    await self.app.aclose()
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        await self.app(scope, receive, send)


def _server(app: ProxyApp) -> uvicorn.Server:
    config = uvicorn.Config(
        _Lifespan(app),
        http=_NoDelayProtocol,
        loop="auto",
        lifespan="on",
        log_level="warning",
        access_log=False,
        server_header=False,
        date_header=False,
        timeout_keep_alive=30,
    )
    return uvicorn.Server(config)


def make_app(
    config: ProxyConfig,
    store: RegistryStore | None,
    registry: RegistryTarget | None = None,
    *,
    trust_env: bool = True,
) -> ProxyApp:
    """The proxy app recording into ``store`` (None: check and forward only)."""
    recorder = Recorder(store, registry) if store is not None else None
    app = ProxyApp(config, recorder, build_client(trust_env=trust_env))
    if recorder is not None:
        for conversation in recorded_conversations(
            recorder.sessions, kind=config.kind.value, upstream=app.upstream_label
        ):
            app.grouper.adopt(conversation)
    return app


def serve(
    config: ProxyConfig,
    store: RegistryStore | None,
    *,
    host: str = DEFAULT_HOST,
    port: int = 0,
    registry: RegistryTarget | None = None,
    on_ready: Callable[[str], None] | None = None,
) -> None:
    """Serve until interrupted (SIGINT/SIGTERM stop it); queued records are written first."""
    sock = bind_socket(host, port)
    if store is not None:
        # The proxy's own connection: with WAL, NORMAL never corrupts the file and loses
        # nothing when the process dies; only an OS crash may lose the last commits. A
        # commit then costs ~0.1 ms instead of an fsync (~3 ms), so the one writer keeps
        # up with an agent's traffic instead of queueing it in memory.
        with store.lock:
            store.connection.execute("PRAGMA synchronous=NORMAL")
    app = make_app(config, store, registry)
    try:
        if on_ready is not None:
            on_ready(socket_url(sock))
        # uvicorn stops gracefully on SIGINT, then re-raises it: that is the normal end.
        with contextlib.suppress(KeyboardInterrupt):
            _server(app).run(sockets=[sock])
    finally:
        sock.close()
        if app.recorder is not None:
            app.recorder.close()


class ProxyThread:
    """The proxy on a background thread (tests, benchmarks)."""

    def __init__(
        self,
        config: ProxyConfig,
        store: RegistryStore | None,
        *,
        host: str = DEFAULT_HOST,
        port: int = 0,
        registry: RegistryTarget | None = None,
    ) -> None:
        self._sock = bind_socket(host, port)
        self.url = socket_url(self._sock)
        self.app = make_app(config, store, registry, trust_env=False)
        self._server = _server(self.app)
        self._thread = threading.Thread(
            target=self._server.run,
            kwargs={"sockets": [self._sock]},
            daemon=True,
            name="studio-proxy",
        )

    @property
    def recorder(self) -> Recorder | None:
        return self.app.recorder

    def flush(self, timeout: float = 30.0) -> None:
        """Wait until everything recorded so far is committed."""
        if self.app.recorder is not None:
            self.app.recorder.flush(timeout)

    def start(self, timeout: float = 10.0) -> ProxyThread:
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the proxy did not start")
            time.sleep(0.01)
        return self

    def stop(self, timeout: float = 10.0) -> None:
        self._server.should_exit = True
        self._thread.join(timeout)
        self._sock.close()
        if self.app.recorder is not None:
            self.app.recorder.close()

    def __enter__(self) -> ProxyThread:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()
