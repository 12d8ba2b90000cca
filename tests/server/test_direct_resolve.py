"""Resolve answers written by the HTTP protocol are uvicorn's answers, byte for byte.

Two real servers on one database: one as served (plain resolve requests
answered by the protocol, studio.server.direct_resolve), one with those
direct answers off (every request through uvicorn's ASGI path and the
fast-path middleware). Raw requests over sockets get the same bytes from
both (the ``date`` header aside); the slow-client guard and pipelining
order still hold on a connection whose requests were answered directly.
"""

from __future__ import annotations

import logging
import re
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from registry_db import RegistryStore
from studio.release import set_canary
from studio.server import ServerThread, run
from studio.server.fast_resolve import ResolveFastPath
from studio.server.run import ServerLimits

from .conftest import REGISTRY, publish_versions

PATH = f"/v1/registries/{REGISTRY}/resolve"
LIMITS = ServerLimits(header_timeout=1.0, keep_alive=1)
_DATE = re.compile(rb"\r\ndate: [^\r]*")


@pytest.fixture(autouse=True)
def no_access_log(monkeypatch: pytest.MonkeyPatch) -> None:
    """uvicorn's access log off, as ``studio serve`` has it.

    pytest's log capture hangs its handlers on every logger during a test,
    uvicorn's access logger too, which turns uvicorn's access log on: then
    every request takes the ASGI path (it logs), and the direct answers
    would not be tested.
    """
    monkeypatch.setattr(logging.getLogger("uvicorn.access"), "hasHandlers", lambda: False)


@pytest.fixture(scope="module")
def module_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RegistryStore]:
    store = RegistryStore.open(tmp_path_factory.mktemp("direct") / "serve.sqlite3")
    publish_versions(store, REGISTRY, 3)
    set_canary(store, REGISTRY, version=3, share=30, who="test")
    yield store
    store.close()


@pytest.fixture(scope="module")
def servers(module_store: RegistryStore) -> Iterator[tuple[ServerThread, ServerThread]]:
    """(direct answers on, direct answers off) on the same database."""
    direct = ServerThread(module_store, limits=LIMITS).start()
    original = run._protocol
    run._protocol = lambda base, limits, fast=None: original(base, limits)
    try:
        plain = ServerThread(module_store, limits=LIMITS).start()
    finally:
        run._protocol = original
    yield direct, plain
    direct.stop()
    plain.stop()


def _connect(server: ServerThread) -> socket.socket:
    parts = urlsplit(server.url)
    assert parts.hostname and parts.port
    return socket.create_connection((parts.hostname, parts.port), timeout=10)


def _read_responses(sock: socket.socket, count: int) -> list[bytes]:
    """``count`` whole responses (by Content-Length; to EOF after ``connection: close``)."""
    data = b""
    responses: list[bytes] = []
    while len(responses) < count:
        end = data.find(b"\r\n\r\n")
        if end >= 0:
            head = data[: end + 4]
            length = re.search(rb"\r\ncontent-length: (\d+)", head.lower())
            if length is not None and len(data) >= end + 4 + int(length[1]):
                size = end + 4 + int(length[1])
                responses.append(data[:size])
                data = data[size:]
                continue
            if length is None and (b" 304 " in head.split(b"\r\n")[0] or b" 503 " in head):
                responses.append(head)
                data = data[end + 4 :]
                continue
        chunk = sock.recv(1 << 16)
        if not chunk:
            if data:
                responses.append(data)
            break
        data += chunk
    return [_DATE.sub(b"\r\ndate: -", r) for r in responses]


def _exchange(server: ServerThread, request: bytes, count: int = 1) -> list[bytes]:
    with _connect(server) as sock:
        sock.sendall(request)
        return _read_responses(sock, count)


def _get(target: str, *headers: str, version: str = "1.1", method: str = "GET") -> bytes:
    lines = [f"{method} {target} HTTP/{version}", "Host: studio", *headers, "", ""]
    return "\r\n".join(lines).encode()


def _etag(server: ServerThread, subject: str) -> str:
    response = _exchange(server, _get(f"{PATH}?subject={subject}"))[0]
    match = re.search(rb"\r\netag: ([^\r]*)", response)
    assert match is not None, response[:300]
    return match[1].decode()


def test_every_request_gets_the_same_bytes_with_and_without_direct_answers(
    servers: tuple[ServerThread, ServerThread],
) -> None:
    direct, plain = servers
    etag = _etag(direct, "user-3")
    requests = [_get(f"{PATH}?subject=user-{i}&format={fmt}")
                for i in range(12) for fmt in ("openai", "anthropic")]  # fmt: skip
    requests += [
        _get(PATH),
        _get(f"{PATH}?subject=user-3", f"If-None-Match: {etag}"),
        _get(f"{PATH}?subject=user-3", f"If-None-Match: W/{etag}"),
        _get(f"{PATH}?subject=user-3", 'If-None-Match: "other", *'),
        _get(f"{PATH}?subject=user-3", 'If-None-Match: "no"'),
        _get(f"{PATH}?subject=user-3", 'If-None-Match: "no"', f"If-None-Match: {etag}"),
        _get(f"{PATH}?subject=%E5%90%AB+x&format=openai"),
        _get(f"{PATH}?subject=user-1&role=finance"),
        _get(f"{PATH}?subject=user-1&restrict=filter"),
        _get(f"{PATH}?format=nope"),
        _get(f"{PATH}?subject=" + "x" * 257),
        _get("/v1/registries/missing/resolve"),
        _get("/v1/registries/%74ravel-reimbursement/resolve"),
        _get(f"http://studio{PATH}?subject=user-5"),
        _get(f"{PATH}?subject=user-5#frag"),
        _get(f"{PATH}?subject=user-5", version="1.0"),
        _get(f"{PATH}?subject=user-5", "Connection: close"),
        _get(f"{PATH}?subject=user-5", "Content-Length: 0"),
        _get(f"{PATH}?subject=user-5", "Expect: 100-continue"),
        _get(f"{PATH}?subject=user-5", "Connection: close", method="HEAD"),  # no body: read to EOF
        _get("/healthz"),
    ]
    for request in requests:
        ours, theirs = _exchange(direct, request), _exchange(plain, request)
        assert ours == theirs, request
        assert ours and ours[0].startswith(b"HTTP/1.1 "), request


def test_plain_resolve_requests_are_answered_by_the_protocol(
    servers: tuple[ServerThread, ServerThread], monkeypatch: pytest.MonkeyPatch
) -> None:
    direct, _ = servers
    reached: list[str] = []
    original = ResolveFastPath.__call__

    async def spy(self: ResolveFastPath, scope: Any, receive: Any, send: Any) -> None:
        reached.append(scope["path"])
        await original(self, scope, receive, send)

    monkeypatch.setattr(ResolveFastPath, "__call__", spy)
    etag = _etag(direct, "user-1")
    requests = b"".join(_get(f"{PATH}?subject=user-{i}") for i in range(20))
    last = _get(f"{PATH}?subject=user-1", f"If-None-Match: {etag}")
    responses = _exchange(direct, requests + last, 21)
    assert [r[:12] for r in responses] == [b"HTTP/1.1 200"] * 20 + [b"HTTP/1.1 304"]
    assert reached == []
    assert _exchange(direct, _get(f"{PATH}?format=nope"))[0].startswith(b"HTTP/1.1 400")
    assert reached and set(reached) == {PATH}  # the ASGI stack (twice: in front, and in Starlette)


def test_pipelined_requests_are_answered_in_order(
    servers: tuple[ServerThread, ServerThread],
) -> None:
    direct, plain = servers
    # /healthz goes through the app (a task): the resolve behind it must wait its turn.
    mixed = _get("/healthz") + _get(f"{PATH}?subject=user-2") + _get("/openapi.json")
    mixed += _get(f"{PATH}?subject=user-9") * 2
    ours, theirs = _exchange(direct, mixed, 5), _exchange(plain, mixed, 5)
    assert ours == theirs
    assert b'"status":"ok"' in ours[0] and b'"openapi"' in ours[2]


def _closed_within(sock: socket.socket, seconds: float) -> float | None:
    start = time.monotonic()
    sock.settimeout(seconds)
    try:
        while sock.recv(1 << 16):
            pass
        return time.monotonic() - start
    except (ConnectionResetError, BrokenPipeError):
        return time.monotonic() - start
    except TimeoutError:
        return None


def test_the_head_deadline_holds_after_direct_answers(
    servers: tuple[ServerThread, ServerThread],
) -> None:
    direct, _ = servers
    with _connect(direct) as sock:
        sock.sendall(_get(f"{PATH}?subject=user-1") * 3)
        assert len(_read_responses(sock, 3)) == 3
        sock.sendall(b"GET /v1/registries/tra")  # half a head, then nothing
        closed = _closed_within(sock, LIMITS.header_timeout + 3)
    assert closed is not None and closed < LIMITS.header_timeout + 1


def test_an_idle_connection_after_a_direct_answer_is_closed(
    servers: tuple[ServerThread, ServerThread],
) -> None:
    direct, _ = servers
    with _connect(direct) as sock:
        sock.sendall(_get(f"{PATH}?subject=user-1"))
        assert _read_responses(sock, 1)[0].startswith(b"HTTP/1.1 200")
        closed = _closed_within(sock, LIMITS.keep_alive + 3)
    assert closed is not None and closed < LIMITS.keep_alive + 1


def test_a_huge_head_after_direct_answers_is_disconnected(
    servers: tuple[ServerThread, ServerThread],
) -> None:
    direct, _ = servers
    with _connect(direct) as sock:
        sock.sendall(_get(f"{PATH}?subject=user-1"))
        assert _read_responses(sock, 1)[0].startswith(b"HTTP/1.1 200")
        sock.sendall(f"GET {PATH} HTTP/1.1\r\n".encode())
        try:
            for _ in range(200):
                sock.sendall(b"X-Filler: " + b"y" * 1000 + b"\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass
        assert _closed_within(sock, 3) is not None


def test_the_direct_path_is_off_without_httptools(tmp_path: Path) -> None:
    from uvicorn.protocols.http.h11_impl import H11Protocol

    protocol = run._protocol(H11Protocol, LIMITS, object())  # type: ignore[arg-type]
    assert not hasattr(protocol, "resolve_fast_path")


def test_the_direct_path_is_off_for_a_uvicorn_it_was_not_written_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    from studio.server import direct_resolve

    assert direct_resolve.supports()  # the installed uvicorn is one it was tested on
    assert not direct_resolve.supports("0.99.0") and not direct_resolve.supports("1.0")
    assert not direct_resolve.supports("garbage")
    monkeypatch.setattr(direct_resolve, "WRITTEN_FOR", ())
    protocol = run._protocol(HttpToolsProtocol, LIMITS, object())  # type: ignore[arg-type]
    assert not hasattr(protocol, "resolve_fast_path")


def test_a_lookup_that_raises_is_left_to_the_asgi_path(
    servers: tuple[ServerThread, ServerThread], monkeypatch: pytest.MonkeyPatch
) -> None:
    direct, plain = servers

    def broken(self: ResolveFastPath, path: str, query: bytes) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(ResolveFastPath, "lookup", broken)
    request = _get(f"{PATH}?subject=user-1")
    ours, theirs = _exchange(direct, request), _exchange(plain, request)
    assert ours == theirs and ours[0].startswith(b"HTTP/1.1 500")


_KEYS = ["subject", "format", "role", "scenario", "restrict", "x", "", "subject%00", "f+o"]
_VALUES = ["user-1", "user-77", "openai", "anthropic", "mcp", "nope", "", "%E5%90%AB+x", "%zz",
           "+", "x" * 257, "filter", "choice", "含", "a=b", "%0A", "\u202e", "%ff"]  # fmt: skip
_fields = st.tuples(st.sampled_from(_KEYS), st.sampled_from(["=", ""]), st.sampled_from(_VALUES))


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
@given(st.lists(_fields, max_size=5), st.sampled_from(["&", ";", "&&"]))
def test_generated_queries_get_the_same_bytes_with_and_without_direct_answers(
    servers: tuple[ServerThread, ServerThread], fields: list[tuple[str, str, str]], sep: str
) -> None:
    direct, plain = servers
    query = sep.join(f"{k}{eq}{v}" for k, eq, v in fields)
    request = _get(f"{PATH}?{query}".replace(" ", "%20")).replace("含".encode(), b"%E5%90%AB")
    ours, theirs = _exchange(direct, request), _exchange(plain, request)
    assert ours == theirs, request
    assert ours and not ours[0].startswith(b"HTTP/1.1 5"), request
