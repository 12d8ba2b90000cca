"""A 2026-07-28 tools/call answered by the endpoint's direct path matches the SDK's own answer.

``McpEndpoint._direct_call`` runs the SDK's request handler in its JSON mode
instead of its streaming branch; every request here is sent twice to one real
server, once down each path (the switch is ``_call_request``), and the status,
content type and body must agree byte for byte — errors and rejections too —
and, for an answer slower than the SSE ping interval, the stream's shape.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import mcp.server._streamable_http_modern as sdk_modern
import pytest

import studio.mcp.serve_http as serve_http
from registry_db import RegistryStore
from studio.server import ServerThread

from .serve_helpers import REGISTRY, published_db

VERSION = "2026-07-28"
META = {"io.modelcontextprotocol/protocolVersion": VERSION,
        "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "0"},
        "io.modelcontextprotocol/clientCapabilities": {}}  # fmt: skip
SLOW_MS = 700


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    mocks = {"query_invoices": {"default": {"latency_ms": SLOW_MS, "body": {"invoices": []}}}}
    db = published_db(tmp_path_factory.mktemp("direct") / "serve.sqlite3", mocks=mocks)
    store = RegistryStore.open(db)
    server = ServerThread(store).start()
    try:
        yield f"{server.url}/mcp/{REGISTRY}?version=1"
    finally:
        server.stop()
        store.close()


def _post(url: str, name: str, arguments: Any, **headers: str) -> httpx.Response:
    body = {"jsonrpc": "2.0", "id": 7, "method": "tools/call",
            "params": {"name": name, "arguments": arguments, "_meta": META}}  # fmt: skip
    sent = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json",
            "Mcp-Protocol-Version": VERSION, "Mcp-Method": "tools/call", "Mcp-Name": name,
            **headers}  # fmt: skip
    return httpx.post(url, content=json.dumps(body), headers=sent, timeout=30)


def _both(monkeypatch: pytest.MonkeyPatch, url: str, *args: Any, **headers: str) -> tuple[
    httpx.Response, httpx.Response
]:  # fmt: skip
    direct = _post(url, *args, **headers)
    with monkeypatch.context() as m:
        m.setattr(serve_http, "_call_request", lambda scope, headers: False)
        sdk = _post(url, *args, **headers)
    return direct, sdk


@pytest.mark.parametrize(
    ("name", "arguments", "headers"),
    [
        ("get_employee_profile", {}, {}),  # a call that runs
        ("query_invoices", {"start_date": "2024-05-01"}, {}),  # the tool's own error
        ("no_such_tool", {}, {}),  # a JSON-RPC error (unknown tool)
        ("get_employee_profile", {}, {"Mcp-Name": "other_tool"}),  # header and body disagree
        ("get_employee_profile", {}, {"Accept": "application/json"}),  # the SDK decides
    ],
)
def test_the_direct_answer_is_the_sdks(
    monkeypatch: pytest.MonkeyPatch, url: str, name: str, arguments: Any, headers: dict[str, str]
) -> None:
    direct, sdk = _both(monkeypatch, url, name, arguments, **headers)
    assert direct.status_code == sdk.status_code
    assert direct.headers.get("content-type") == sdk.headers.get("content-type")
    assert direct.content == sdk.content


def test_a_body_over_the_limit_is_413_on_both_paths(
    monkeypatch: pytest.MonkeyPatch, url: str
) -> None:
    pad = "x" * (serve_http.MAX_MCP_BODY_BYTES + 1)
    direct, sdk = _both(monkeypatch, url, "get_employee_profile", {"pad": pad})
    assert direct.status_code == 413
    assert (direct.status_code, direct.content) == (sdk.status_code, sdk.content)


def test_an_answer_slower_than_the_ping_interval_streams_as_the_sdk_does(
    monkeypatch: pytest.MonkeyPatch, url: str
) -> None:
    monkeypatch.setattr(serve_http, "_SSE_PING_INTERVAL", 0.25)
    monkeypatch.setattr(sdk_modern, "_SSE_PING_INTERVAL", 0.25)
    args = {"start_date": "2024-05-01", "end_date": "2024-05-31"}
    direct, sdk = _both(monkeypatch, url, "query_invoices", args)
    for response in (direct, sdk):
        assert response.status_code == 200
        assert response.headers["content-type"] == "text/event-stream"
        assert response.content.startswith(b": ping\r\n\r\n")
        assert response.content.count(b"event: message\r\n") == 1
    final = [r.content[r.content.index(b"event: message") :] for r in (direct, sdk)]
    assert final[0] == final[1]
    assert b'"isError":false' in final[0]
