"""A tool API on 127.0.0.1 that records every request and answers with JSON.

Stands in for the services an ``http`` executor calls::

    with ToolApiServer({"/tickets": {"tickets": []}}) as api:
        ...  # point an HTTP target at api.base_url + "/tickets"
        api.requests[0].method, .path, .headers, .json()
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit


@dataclass(frozen=True)
class ToolApiRequest:
    method: str
    target: str
    """Path and query as sent (percent-encoding kept)."""
    headers: dict[str, str]
    body: bytes

    @property
    def path(self) -> str:
        return urlsplit(self.target).path

    def json(self) -> Any:
        return json.loads(self.body) if self.body else None


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def _answer(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        owner = self.server.owner
        path = urlsplit(self.path).path
        with owner.lock:
            owner.requests.append(
                ToolApiRequest(self.command, self.path, dict(self.headers.items()), body)
            )
            delays = owner.delays.get((self.command, path))
            delay = delays.pop(0) if delays else 0.0
        if delay:
            time.sleep(delay)  # the request took effect; the answer comes late
        answer = owner.routes.get(path, {"ok": True, "path": self.path})
        data = json.dumps(answer).encode()
        try:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except OSError:  # the client gave up waiting (a timed-out write)
            pass

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _answer

    def log_message(self, format: str, *args: Any) -> None:  # quiet test output
        pass


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    owner: ToolApiServer


class ToolApiServer:
    """Answers ``routes[path]`` (or ``{"ok": true, "path": …}``) to any method.

    ``delays[(method, path)]`` lists seconds to wait before answering the next
    requests of that method and path (one entry per request, then no delay), so a
    write can be recorded and still time out at the client.
    """

    def __init__(
        self,
        routes: dict[str, Any] | None = None,
        delays: dict[tuple[str, str], list[float]] | None = None,
    ) -> None:
        self.routes = dict(routes or {})
        self.delays = {k: list(v) for k, v in (delays or {}).items()}
        self.requests: list[ToolApiRequest] = []
        self.lock = threading.Lock()
        self._server: _Server | None = None

    def __enter__(self) -> ToolApiServer:
        server = _Server(("127.0.0.1", 0), _Handler)
        server.owner = self
        self._server = server
        thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
        thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    @property
    def base_url(self) -> str:
        assert self._server is not None, "enter the server first"
        return f"http://127.0.0.1:{self._server.server_address[1]}"
