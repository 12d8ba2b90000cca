"""``studio mcp serve … --stdio`` used by the SDK's own ``Client``, in both protocol eras."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from .serve_helpers import ROOT, mcp_sessions, outcomes, published_db, stdio_params

ERAS = ["legacy", "auto"]  # the 2025-11-25 handshake; auto negotiates 2026-07-28


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return published_db(tmp_path / "serve.sqlite3")


def _run(coro: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coro, 60))


@pytest.mark.parametrize("mode", ERAS)
def test_tools_list_is_the_mcp_export_in_registry_order(db: Path, mode: str) -> None:
    async def go() -> Any:
        async with Client(stdio_params(db, "--version", "1"), mode=mode) as client:
            return client.protocol_version, await client.list_tools()

    version, listing = _run(go())
    assert version == ("2025-11-25" if mode == "legacy" else "2026-07-28")
    names = [t.name for t in listing.tools]
    assert names == ["search_policy", "query_invoices", "query_tickets",
                     "create_reimbursement_ticket"]  # fmt: skip
    create = listing.tools[3]
    # employee_id is x-injected: hidden from every schema a model sees, x- keys stripped.
    assert "employee_id" not in create.input_schema["properties"]
    assert "x-aliases" not in json.dumps(create.input_schema)
    assert create.annotations is not None and create.annotations.read_only_hint is False
    if mode == "auto":  # a pinned version is immutable: public, cacheable
        assert (listing.ttl_ms, listing.cache_scope) == (86_400_000, "public")


@pytest.mark.parametrize("mode", ERAS)
def test_tools_call_goes_through_the_runtime_and_is_recorded(db: Path, mode: str) -> None:
    async def go() -> Any:
        async with Client(stdio_params(db, "--version", "1"), mode=mode) as client:
            ok = await client.call_tool(
                "query_invoices",
                {"startDate": "2024-05-01", "end_date": "2024-05-31", "category": "出租车"},
            )
            bad = await client.call_tool(
                "query_invoices", {"start_date": "May 1st", "end_date": "2024-05-31"}
            )
            with pytest.raises(MCPError) as unknown:
                await client.call_tool("query_invoice", {})
            return ok, bad, unknown.value

    ok, bad, unknown = _run(go())
    assert ok.is_error is False
    body = json.loads(ok.content[0].text)
    assert body["ok"] is True and body["data"]["invoices"][0]["amount"] == 118.5
    # A schema failure is a tool execution error the model can act on, not a protocol error.
    assert bad.is_error is True
    assert "INVALID_ARGUMENTS" in bad.content[0].text and "start_date" in bad.content[0].text
    assert "Unknown tool" in str(unknown) and "query_invoices" in json.dumps(unknown.error.data)

    [(info, messages, events)] = mcp_sessions(db)
    assert info.source == "mcp" and info.status == "completed" and info.version == "1"
    assert [m["role"] for m in messages] == ["assistant", "tool"] * 3
    call, result = messages[0]["parts"][0], messages[1]["parts"][0]
    assert call["id"] == result["id"] and call["name"] == "query_invoices"
    prepared = next(e for e in events if e.type == "tool_call.prepared")
    changes = [c for s in prepared.data["steps"] for c in s["changes"]]
    assert {"renamed", "mapped", "injected"} <= {c["action"] for c in changes}
    assert prepared.data["arguments"]["employee_id"] == "E-1001"
    assert prepared.data["arguments"]["category"] == "taxi"
    assert [o.status for o in outcomes(db)] == ["ok", "rejected", "rejected"]


def test_writes_need_a_policy_or_a_confirmation(db: Path) -> None:
    args = {"invoice_ids": ["INV-102"], "amount": 118.5,
            "reason": "client visit", "employee_id": "E-9999"}  # fmt: skip

    async def refused() -> Any:
        async with Client(stdio_params(db, "--version", "1"), mode="legacy") as client:
            return await client.call_tool("create_reimbursement_ticket", args)

    result = _run(refused())
    assert result.is_error and '"code": "CONFIRM_REQUIRED"' in result.content[0].text

    async def approved() -> Any:
        params = stdio_params(db, "--version", "1", "--approve", "write",
                              "--context", "employee_id=E-2002")  # fmt: skip
        async with Client(params) as client:
            first = await client.call_tool("create_reimbursement_ticket", args)
            again = await client.call_tool("create_reimbursement_ticket", args)
            return first, again

    first, again = _run(approved())
    assert first.is_error is False
    assert json.loads(first.content[0].text)["data"]["ticket_id"] == "R-55821"
    # The same write intent in one session is answered once: a replay, not a second ticket.
    assert "replay" in json.loads(again.content[0].text)
    _, (_, _, events) = mcp_sessions(db)
    executing = [e for e in events if e.type == "tool_call.executing"]
    assert len(executing) == 1
    # The model's employee_id is discarded; the server's context is injected.
    assert executing[0].data["request"]["arguments"]["employee_id"] == "E-2002"
    assert [o.status for o in outcomes(db)] == ["denied", "ok", "replayed"]


@pytest.mark.parametrize("mode", ERAS)  # an elicitation request; an InputRequiredResult
def test_a_client_that_can_elicit_is_asked(db: Path, mode: str) -> None:
    from mcp import types

    asked: list[str] = []

    async def answer(context: Any, params: Any) -> types.ElicitResult:
        asked.append(params.message)
        return types.ElicitResult(action="accept", content={"confirm": True})

    async def go() -> Any:
        params = stdio_params(db, "--version", "1")
        async with Client(params, mode=mode, elicitation_callback=answer) as client:
            return await client.call_tool(
                "create_reimbursement_ticket",
                {"invoice_ids": ["INV-102"], "amount": 118.5,
                 "reason": "client visit"},
            )  # fmt: skip

    result = _run(go())
    assert result.is_error is False, result.content[0].text
    assert len(asked) == 1 and "create_reimbursement_ticket" in asked[0]
    [(_, messages, events)] = mcp_sessions(db)
    assert [m["role"] for m in messages] == ["assistant", "tool"]  # one call, recorded once
    decided = next(e for e in events if e.type == "approval.decided")
    assert decided.data["approved"] is True


def test_killing_the_client_mid_call_closes_the_session_as_interrupted(tmp_path: Path) -> None:
    slow = {"query_invoices": {"default": {"latency_ms": 10_000, "body": {"invoices": []}}}}
    db = published_db(tmp_path / "serve.sqlite3", mocks=slow)
    proc = subprocess.Popen(
        [sys.executable, "-m", "studio.cli", "mcp", "serve", "travel-reimbursement", "--stdio",
         "--version", "1", "--db", str(db)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
    )  # fmt: skip
    assert proc.stdin is not None and proc.stdout is not None

    def send(message: dict[str, Any]) -> None:
        assert proc.stdin is not None
        proc.stdin.write((json.dumps(message) + "\n").encode())
        proc.stdin.flush()

    try:
        send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "killed", "version": "0"}}})  # fmt: skip
        assert b'"id":1' in proc.stdout.readline()
        send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        send({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "query_invoices",
            "arguments": {"start_date": "2024-05-01", "end_date": "2024-05-31"}}})  # fmt: skip
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:  # wait until the call is executing
            [(_, _, events)] = mcp_sessions(db) or [(None, None, [])]
            if any(e.type == "run.started" for e in events):
                break
            time.sleep(0.1)
        time.sleep(0.5)
        proc.stdin.close()  # the client dies: both pipes close
        proc.stdout.close()
        assert proc.wait(timeout=20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
    [(info, messages, events)] = mcp_sessions(db)
    assert info.status == "interrupted"
    # Nothing half-written: the call is paired with a CANCELLED result, and its events end.
    assert [m["role"] for m in messages] == ["assistant", "tool"]
    assert '"CANCELLED"' in messages[1]["parts"][0]["content"]
    assert [e.type for e in events][-2:] == ["tool_call.completed", "run.cancelled"]
    assert [o.status for o in outcomes(db)] == ["cancelled"]


def test_per_credential_contexts_on_stdio(db: Path, tmp_path: Path) -> None:
    contexts = tmp_path / "contexts.json"
    contexts.write_text(json.dumps({"credentials": [
        {"token": "alice-token", "context": {"employee_id": "E-4004"}}]}))  # fmt: skip
    args = {"invoice_ids": ["INV-102"], "amount": 118.5, "reason": "client visit"}

    async def go() -> Any:
        params = stdio_params(db, "--version", "1", "--approve", "write", "--contexts",
                              str(contexts), env={"STUDIO_MCP_TOKEN": "alice-token"})  # fmt: skip
        async with Client(params) as client:
            return await client.call_tool("create_reimbursement_ticket", args)

    assert _run(go()).is_error is False
    [(info, _, events)] = mcp_sessions(db)
    executing = next(e for e in events if e.type == "tool_call.executing")
    assert executing.data["request"]["arguments"]["employee_id"] == "E-4004"
    assert info.context["values"]["employee_id"] == "E-4004"
