"""Slow, idle and oversized clients against a real uvicorn on 127.0.0.1 (issue #10, item 8)."""

from __future__ import annotations

import select
import socket
import threading
import time
from collections.abc import Iterator
from urllib.parse import urlsplit

import httpx
import psutil
import pytest

from registry_db import RegistryStore
from registry_db.sessions import SessionStore
from studio.server import ServerThread
from studio.server.outcomes import MAX_BODY_BYTES
from studio.server.run import DEFAULT_LIMITS, ServerLimits

from .conftest import REGISTRY, TOKEN

LIMITS = ServerLimits(header_timeout=1.0, keep_alive=1, body_timeout=1.0, max_connections=6)
AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture
def limited(store: RegistryStore) -> Iterator[ServerThread]:
    server = ServerThread(store, token=TOKEN, limits=LIMITS).start()
    try:
        yield server
    finally:
        server.stop()


def _connect(server: ServerThread) -> socket.socket:
    parts = urlsplit(server.url)
    assert parts.hostname and parts.port
    return socket.create_connection((parts.hostname, parts.port), timeout=10)


def _closed_within(sock: socket.socket, seconds: float) -> float | None:
    """Seconds until the server closed ``sock`` (EOF or reset), None if it stayed open."""
    start = time.monotonic()
    sock.settimeout(seconds)
    try:
        while True:
            if not sock.recv(65536):
                return time.monotonic() - start
    except (ConnectionResetError, BrokenPipeError):
        return time.monotonic() - start
    except TimeoutError:
        return None


def _read_response(sock: socket.socket, timeout: float = 10.0) -> bytes:
    """Everything the server sends until it closes (or ``timeout``)."""
    sock.settimeout(timeout)
    data = b""
    try:
        while chunk := sock.recv(65536):
            data += chunk
    except (ConnectionResetError, TimeoutError):
        pass
    return data


class _PeakRss:
    """The highest RSS of this process (the server runs in it) while the block runs."""

    def __init__(self) -> None:
        self._process = psutil.Process()
        self.start = self.peak = self._process.memory_info().rss
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while not self._stop.wait(0.005):
            self.peak = max(self.peak, self._process.memory_info().rss)

    def __enter__(self) -> _PeakRss:
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, self._process.memory_info().rss)

    @property
    def growth_mb(self) -> float:
        return (self.peak - self.start) / 1e6


def test_the_defaults_bound_every_client() -> None:
    assert DEFAULT_LIMITS.header_timeout > 0 and DEFAULT_LIMITS.body_timeout > 0
    assert DEFAULT_LIMITS.keep_alive > 0
    assert DEFAULT_LIMITS.max_connections and DEFAULT_LIMITS.max_header_bytes


def test_the_limits_reach_uvicorn(limited: ServerThread) -> None:
    config = limited._server.config
    assert config.limit_concurrency == LIMITS.max_connections
    assert config.timeout_keep_alive == LIMITS.keep_alive


def test_a_chunked_body_over_the_limit_is_refused_while_streaming(
    limited: ServerThread, store: RegistryStore
) -> None:
    """50 MB sent chunked: 413 after about a megabyte, and the server never holds the rest."""
    total = 50 * 1024 * 1024
    chunk = b"x" * (1024 * 1024)
    head = (
        "POST /v1/outcomes HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
        f"Authorization: Bearer {TOKEN}\r\nTransfer-Encoding: chunked\r\n\r\n"
    ).encode()
    frame = b"%x\r\n" % len(chunk) + chunk + b"\r\n"
    sent = 0
    response = b""
    with _connect(limited) as sock, _PeakRss() as rss:
        sock.sendall(head)
        while sent < total:
            try:
                sock.sendall(frame)
            except (BrokenPipeError, ConnectionResetError):
                break
            sent += len(chunk)
            readable, _, _ = select.select([sock], [], [], 0.005)
            if readable:
                break
        response = _read_response(sock)
    status_line = response.split(b"\r\n", 1)[0]
    assert status_line == b"HTTP/1.1 413 Request Entity Too Large", response[:200]
    assert b'"status":413' in response
    assert b"connection: close" in response.lower()
    assert sent < total / 2, f"the server read {sent} bytes before refusing"
    assert rss.growth_mb < 20, f"RSS grew {rss.growth_mb:.1f} MB for a {total / 1e6:.0f} MB body"
    assert SessionStore.for_store(store).outcomes(REGISTRY) == []
    print(f"\nRSS growth while refusing a {total / 1e6:.0f} MB chunked body: "
          f"{rss.growth_mb:.1f} MB (sent {sent / 1e6:.1f} MB before the 413)")  # fmt: skip


def test_a_body_of_exactly_the_limit_is_read(limited: ServerThread) -> None:
    with httpx.Client(base_url=limited.url, timeout=10) as http:
        at_limit = http.post("/v1/outcomes", content=b" " * MAX_BODY_BYTES, headers=AUTH)
        assert at_limit.status_code == 400  # read, then refused as not JSON
        over = http.post("/v1/outcomes", content=b" " * (MAX_BODY_BYTES + 1), headers=AUTH)
        assert over.status_code == 413


def test_half_a_request_line_is_disconnected_within_the_header_timeout(
    limited: ServerThread,
) -> None:
    with _connect(limited) as sock:
        sock.sendall(b"GET /heal")
        closed = _closed_within(sock, LIMITS.header_timeout + 3)
    assert closed is not None, "a half-sent request line kept its connection open"
    assert closed < LIMITS.header_timeout + 1


def test_a_silent_connection_is_disconnected(limited: ServerThread) -> None:
    with _connect(limited) as sock:
        closed = _closed_within(sock, LIMITS.header_timeout + 3)
    assert closed is not None and closed < LIMITS.header_timeout + 1


def test_a_trickled_head_does_not_reset_the_deadline(limited: ServerThread) -> None:
    """One byte every 0.3 s: the deadline counts from the request's first byte."""
    with _connect(limited) as sock:
        start = time.monotonic()
        try:
            for byte in b"GET /healthz HTTP/1.1\r\nHost: x\r\n":
                sock.sendall(bytes([byte]))
                time.sleep(0.3)
                if time.monotonic() - start > LIMITS.header_timeout + 2:
                    break
        except (BrokenPipeError, ConnectionResetError):
            pass
        closed = _closed_within(sock, 2)
    assert closed is not None
    assert time.monotonic() - start < LIMITS.header_timeout + 3


def test_a_partial_request_after_keep_alive_is_disconnected(limited: ServerThread) -> None:
    with _connect(limited) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        sock.settimeout(5)
        assert sock.recv(65536).startswith(b"HTTP/1.1 200")
        sock.sendall(b"GET /healthz HT")
        closed = _closed_within(sock, LIMITS.header_timeout + 3)
    assert closed is not None and closed < LIMITS.header_timeout + 1


def test_an_idle_keep_alive_connection_is_closed(limited: ServerThread) -> None:
    with _connect(limited) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        sock.settimeout(5)
        assert sock.recv(65536).startswith(b"HTTP/1.1 200")
        closed = _closed_within(sock, LIMITS.keep_alive + 3)
    assert closed is not None and closed < LIMITS.keep_alive + 1


def test_a_huge_request_head_is_disconnected(limited: ServerThread) -> None:
    with _connect(limited) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\n")
        try:
            for _ in range(200):
                sock.sendall(b"X-Filler: " + b"y" * 1000 + b"\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass
        closed = _closed_within(sock, 3)
    assert closed is not None


def test_a_slow_body_gets_408(limited: ServerThread, store: RegistryStore) -> None:
    body = b'{"registry": "travel-reimbursement", "version": 2, "tool": "t", "status": "ok"}'
    with _connect(limited) as sock:
        sock.sendall(
            b"POST /v1/outcomes HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + TOKEN.encode()
            + b"\r\nContent-Length: %d\r\n\r\n" % len(body) + body[:10]
        )  # fmt: skip
        start = time.monotonic()
        response = _read_response(sock, LIMITS.body_timeout + 5)
    assert response.startswith(b"HTTP/1.1 408"), response[:200]
    assert time.monotonic() - start < LIMITS.body_timeout + 2
    assert SessionStore.for_store(store).outcomes(REGISTRY) == []


def test_connections_beyond_the_limit_get_503(limited: ServerThread) -> None:
    idle = [_connect(limited) for _ in range(LIMITS.max_connections)]
    try:
        with httpx.Client(base_url=limited.url, timeout=10) as http:
            assert http.get("/healthz").status_code == 503
    finally:
        for sock in idle:
            sock.close()
    deadline = time.monotonic() + 5  # until uvicorn notices the closed sockets
    with httpx.Client(base_url=limited.url, timeout=10) as http:
        while (status := http.get("/healthz").status_code) == 503 and time.monotonic() < deadline:
            time.sleep(0.05)
    assert status == 200


def test_outcomes_for_a_version_never_published_are_refused(
    limited: ServerThread, store: RegistryStore
) -> None:
    def outcome(version: object) -> dict[str, object]:
        return {"registry": REGISTRY, "version": version, "tool": "search_policy", "status": "ok"}

    with httpx.Client(base_url=limited.url, timeout=10) as http:
        for version in (4, "4", 99, 2**40):
            response = http.post("/v1/outcomes", json=outcome(version), headers=AUTH)
            assert response.status_code == 422, response.text
            assert "has no version" in response.json()["error"]["message"]
        batch = {"outcomes": [outcome(3), outcome(5)]}
        assert http.post("/v1/outcomes", json=batch, headers=AUTH).status_code == 422
        assert SessionStore.for_store(store).outcomes(REGISTRY) == []
        ok = http.post("/v1/outcomes", json={"outcomes": [outcome(1), outcome(3.0)]}, headers=AUTH)
        assert ok.status_code == 201, ok.text
    assert [o.version for o in SessionStore.for_store(store).outcomes(REGISTRY)] == ["1", "3"]
