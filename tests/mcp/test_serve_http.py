"""``/mcp/{registry}`` on ``studio serve``: the SDK's ``Client`` over streamable HTTP, both eras."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from registry_db import RegistryStore
from studio.mcp.serve_auth import token_digest
from studio.mcp.serve_http import McpHttpOptions
from studio.release import set_canary
from studio.release.bucketing import in_share
from studio.release.channels import release_state
from studio.runtime.context import SessionContext
from studio.server import ServerThread

from .serve_helpers import REGISTRY, mcp_sessions, outcomes, published_db

TOKEN = "s3cret-token"
ALICE = "alice-token"
ERAS = ["legacy", "auto"]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return published_db(tmp_path / "serve.sqlite3", versions=2)


def _serve(db: Path, options: McpHttpOptions | None = None) -> Iterator[ServerThread]:
    store = RegistryStore.open(db)
    server = ServerThread(store, token=TOKEN, mcp=options).start()
    try:
        yield server
    finally:
        server.stop()
        store.close()


@pytest.fixture
def server(db: Path) -> Iterator[ServerThread]:
    contexts = {token_digest(ALICE)[:32]: SessionContext(values={"employee_id": "E-3003"})}
    yield from _serve(db, McpHttpOptions(contexts=contexts, approve="write",
                                         subject_header="X-Studio-User"))  # fmt: skip


def _client(url: str, mode: str, token: str = TOKEN, **headers: str) -> Client:
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}", **headers})
    return Client(streamable_http_client(url, http_client=http), mode=mode)


def _run(coro: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coro, 60))


@pytest.mark.parametrize("mode", ERAS)
def test_list_and_call_over_http_in_both_eras(db: Path, server: ServerThread, mode: str) -> None:
    url = f"{server.url}/mcp/{REGISTRY}?version=1"

    async def go() -> Any:
        async with _client(url, mode) as client:
            listing = await client.list_tools()
            called = await client.call_tool(
                "query_invoices", {"from": "2024-05-01", "to": "2024-05-31", "category": "的士"}
            )
            return client.protocol_version, listing, called

    version, listing, called = _run(go())
    assert version == ("2025-11-25" if mode == "legacy" else "2026-07-28")
    assert listing.tools[0].name == "search_policy"
    assert listing.meta["studio/version"] == 1
    assert called.is_error is False
    assert json.loads(called.content[0].text)["data"]["invoices"][0]["id"] == "INV-102"
    [(info, messages, _)] = mcp_sessions(db)
    assert info.meta["transport"] == "http" and info.version == "1"
    assert [m["role"] for m in messages] == ["assistant", "tool"]
    assert [(o.version, o.status) for o in outcomes(db)] == [("1", "ok")]


def test_per_credential_context_is_injected(db: Path, server: ServerThread) -> None:
    url = f"{server.url}/mcp/{REGISTRY}?version=2"
    args = {"invoice_ids": ["INV-102"], "amount": 118.5, "reason": "client visit"}

    async def go() -> Any:
        async with _client(url, "auto", token=ALICE) as client:
            return await client.call_tool("create_reimbursement_ticket", args)

    result = _run(go())
    assert result.is_error is False, result.content[0].text
    [(_, _, events)] = mcp_sessions(db)
    executing = next(e for e in events if e.type == "tool_call.executing")
    assert executing.data["request"]["arguments"]["employee_id"] == "E-3003"


def test_auth_and_bad_targets_are_refused(server: ServerThread) -> None:
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
    with httpx.Client(base_url=server.url, timeout=10) as http:
        assert http.post(f"/mcp/{REGISTRY}", json=body).status_code == 401
        wrong = http.post(f"/mcp/{REGISTRY}", json=body, headers={"Authorization": "Bearer x"})
        assert wrong.status_code == 401 and "Bearer" in wrong.headers["www-authenticate"]
        auth = {"Authorization": f"Bearer {TOKEN}"}
        for _ in range(2):  # the second time from the parsed-query cache (it raised a 500 once)
            assert http.post("/mcp/no-such-registry", json=body, headers=auth).status_code == 404
            missing = http.post(f"/mcp/{REGISTRY}?version=9", json=body, headers=auth)
            assert missing.status_code == 404, missing.text
        assert http.post(f"/mcp/{REGISTRY}?version=x", json=body, headers=auth).status_code == 400
        huge = b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"x": "' + (
            b"a" * 2_000_000
        ) + b'"}}'  # fmt: skip
        headers = {**auth, "Content-Type": "application/json",
                   "Accept": "application/json, text/event-stream"}  # fmt: skip
        assert http.post(f"/mcp/{REGISTRY}", content=huge, headers=headers).status_code == 413


def test_a_channel_buckets_each_caller_stickily(db: Path, server: ServerThread) -> None:
    with RegistryStore.open(db) as store:
        set_canary(store, REGISTRY, version=2, share=50, who="test")
        canary = release_state(store, REGISTRY).channel("canary")
    # ``stable`` is pinned to nothing: it serves the newest version (2) too, so pin it to 1.
    with RegistryStore.open(db) as store:
        from studio.release import set_channel

        set_channel(store, REGISTRY, "stable", version=1, who="test")
    users = [f"user-{i}" for i in range(12)]
    expected = {u: 2 if in_share(canary.salt, u, 50) else 1 for u in users}
    assert set(expected.values()) == {1, 2}  # both cohorts are present
    url = f"{server.url}/mcp/{REGISTRY}"

    async def version_of(user: str, mode: str) -> int:
        async with _client(url, mode, **{"X-Studio-User": user}) as client:
            listing = await client.list_tools()
            await client.call_tool("search_policy", {"query": "taxi"})
            assert listing.meta["studio/channel"] == ("canary" if expected[user] == 2 else "stable")
            if mode == "auto":  # a channel is private and short-lived
                assert (listing.ttl_ms, listing.cache_scope) == (10_000, "private")
            return int(listing.meta["studio/version"])

    async def go() -> dict[str, list[int]]:
        seen: dict[str, list[int]] = {}
        for user in users:
            for mode in ERAS:  # the same caller sees the same version every time
                seen.setdefault(user, []).append(await version_of(user, mode))
        return seen

    seen = _run(go())
    assert seen == {u: [v, v] for u, v in expected.items()}
    recorded = {(o.version, o.tool) for o in outcomes(db)}
    assert recorded == {("1", "search_policy"), ("2", "search_policy")}


def test_sessions_end_with_the_server_and_anonymous_callers_are_kept_apart(db: Path) -> None:
    store = RegistryStore.open(db)
    server = ServerThread(store, mcp=McpHttpOptions(approve="write")).start()  # no token
    url = f"{server.url}/mcp/{REGISTRY}?version=1"
    args = {"invoice_ids": ["INV-102"], "amount": 118.5, "reason": "client visit"}

    async def one_client() -> Any:
        async with Client(url, mode="auto") as client:
            return await client.call_tool("create_reimbursement_ticket", args)

    try:
        first, second = _run(one_client()), _run(one_client())
    finally:
        server.stop()
        store.close()
    # Two clients nobody named are two sessions: the second one's write is not a replay of
    # the first one's.
    assert "replay" not in json.loads(second.content[0].text)
    assert first.is_error is False and second.is_error is False
    sessions = mcp_sessions(db)
    assert len(sessions) == 2
    assert {info.status for info, _, _ in sessions} == {"completed"}


def test_studio_serve_flags_reach_the_endpoint(db: Path, tmp_path: Path) -> None:
    import re
    import subprocess
    import sys

    from .serve_helpers import ROOT

    token_file = tmp_path / "token"
    token_file.write_text(TOKEN)
    proc = subprocess.Popen(
        [sys.executable, "-m", "studio.cli", "serve", "--db", str(db), "--port", "0",
         "--token-file", str(token_file), "--approve", "write", "--executors", "mock",
         "--context", "employee_id=E-5005"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        match = re.search(r"http://127\.0\.0\.1:\d+", proc.stdout.readline())
        assert match
        url = f"{match.group(0)}/mcp/{REGISTRY}?version=1"
        args = {"invoice_ids": ["INV-102"], "amount": 118.5, "reason": "client visit"}

        async def go() -> Any:
            async with _client(url, "auto") as client:
                return await client.call_tool("create_reimbursement_ticket", args)

        result = _run(go())
    finally:
        proc.terminate()
        proc.wait(timeout=15)
    assert result.is_error is False, result.content[0].text
    [(info, _, events)] = mcp_sessions(db)
    assert info.status == "completed"  # closed when the server stopped
    executing = next(e for e in events if e.type == "tool_call.executing")
    assert executing.data["request"]["arguments"]["employee_id"] == "E-5005"


def test_a_caller_gone_mid_call_leaves_it_cancelled_and_the_session_interrupted(
    tmp_path: Path,
) -> None:
    import time

    slow = {"query_invoices": {"default": {"latency_ms": 3000, "body": {"invoices": []}}}}
    db = published_db(tmp_path / "serve.sqlite3", mocks=slow)
    store = RegistryStore.open(db)
    server = ServerThread(store).start()
    meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {}}  # fmt: skip
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "query_invoices", "_meta": meta,
        "arguments": {"start_date": "2024-05-01", "end_date": "2024-05-31"}}}  # fmt: skip
    headers = {"Accept": "application/json, text/event-stream",
               "Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call",
               "Mcp-Name": "query_invoices"}  # fmt: skip
    try:
        with pytest.raises(httpx.ReadTimeout):  # the client gives up and hangs up
            httpx.post(f"{server.url}/mcp/{REGISTRY}?version=1", json=body, headers=headers,
                       timeout=1.0)  # fmt: skip
        time.sleep(1.0)
    finally:
        server.stop()
        store.close()
    [(info, messages, events)] = mcp_sessions(db)
    assert info.status == "interrupted"
    assert [e.type for e in events][-2:] == ["tool_call.completed", "run.cancelled"]
    assert [m["role"] for m in messages] == ["assistant", "tool"]
    assert '"CANCELLED"' in messages[1]["parts"][0]["content"]
    assert [o.status for o in outcomes(db)] == ["cancelled"]


def test_an_audience_in_the_url_lists_and_runs_only_its_tools(
    db: Path, server: ServerThread
) -> None:
    """``?role=finance&scenario=reimbursement``: 2 of the example's 4 tools (issue #17)."""
    url = f"{server.url}/mcp/{REGISTRY}?version=1&role=finance&scenario=reimbursement"

    async def go() -> Any:
        async with _client(url, "auto") as client:
            listing = await client.list_tools()
            allowed = await client.call_tool("search_policy", {"query": "taxi"})
            with pytest.raises(MCPError, match="Unknown tool: query_invoices"):
                await client.call_tool("query_invoices", {"from": "2024-05-01"})
            return listing, allowed

    listing, allowed = _run(go())
    assert [t.name for t in listing.tools] == ["search_policy", "query_tickets"]
    assert allowed.is_error is False
    bad = httpx.post(f"{server.url}/mcp/{REGISTRY}?role=%0a", headers={
        "Authorization": f"Bearer {TOKEN}"}, json={})  # fmt: skip
    assert bad.status_code == 400 and "role must be printable" in bad.text


def test_a_full_set_of_endpoints_makes_room_for_a_new_audience_once_one_is_idle(
    server: ServerThread, monkeypatch: pytest.MonkeyPatch
) -> None:
    from studio.mcp import serve_http

    monkeypatch.setattr(serve_http, "MAX_TARGETS", 2)
    monkeypatch.setattr(serve_http, "IDLE_TARGET_SECONDS", 1.0)
    # Stateless 2026-07-28 requests: each carries its own envelope, no session.
    meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "0"},
            "io.modelcontextprotocol/clientCapabilities": {}}  # fmt: skip
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": meta}}
    headers = {"Authorization": f"Bearer {TOKEN}", "Mcp-Protocol-Version": "2026-07-28",
               "Mcp-Method": "tools/list",
               "Accept": "application/json, text/event-stream"}  # fmt: skip

    def listing(role: str) -> httpx.Response:
        return http.post(f"/mcp/{REGISTRY}?version=1&role={role}", json=body, headers=headers)

    with httpx.Client(base_url=server.url, timeout=10) as http:
        assert listing("a").status_code == 200 and listing("b").status_code == 200
        refused = listing("c")  # two endpoints in use, neither idle
        assert refused.status_code == 400 and "idle" in refused.text, refused.text
        assert listing("b").status_code == 200  # an endpoint in use still answers
        time.sleep(1.2)
        assert listing("c").status_code == 200  # "a" (the least recently used) made room
        assert listing("b").status_code == 200
        assert listing("a").status_code == 400  # gone: "b" and "c" are in use


def test_a_name_given_twice_in_the_query_reads_its_last_value_as_resolve_does() -> None:
    from studio.mcp.serve_http import _audience, _which

    assert _audience("role=a&scenario=s&role=b") == _audience("scenario=s&role=b")
    assert _audience("role=a&role=b").role == "b"
    assert _which("version=1&version=2") == (2, None)
