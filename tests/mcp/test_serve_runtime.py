"""The served version in process (the SDK's ``Client`` on our low-level ``Server``):
structured results, channel bucketing by subject, and what a session records."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from registry_db import RegistryStore, UpsertTool
from studio.mcp.server import Caller, ServedRegistry, ServeOptions, build_server, mock_context
from studio.release import set_canary, set_channel
from studio.release.bucketing import in_share
from studio.release.channels import release_state

from .serve_helpers import REGISTRY, mcp_sessions, outcomes, published_db

INVOICES = {"type": "object", "properties": {"invoices": {"type": "array"}},
            "required": ["invoices"]}  # fmt: skip
ARGS = {"start_date": "2024-05-01", "end_date": "2024-05-31"}


def _with_output_schema(db: Path, schema: dict[str, Any], semver: str) -> None:
    """Publish a version whose query_invoices declares ``schema`` as its output schema."""
    with RegistryStore.open(db) as store:
        row = next(t for t in store.draft_tools(REGISTRY) if t.tool.name == "query_invoices")
        tool = dataclasses.replace(row.tool, output_schema=schema)
        store.save_draft(REGISTRY, [UpsertTool(tool, row.id, row.revision)])
        store.publish(REGISTRY, notes="output schema", semver=semver)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[RegistryStore]:
    db = published_db(tmp_path / "serve.sqlite3")
    _with_output_schema(db, INVOICES, "1.1.0")
    _with_output_schema(db, {**INVOICES, "required": ["invoices", "total"]}, "1.2.0")
    opened = RegistryStore.open(db)
    yield opened
    opened.close()


def _served(store: RegistryStore, **kwargs: Any) -> ServedRegistry:
    options = ServeOptions(mock_context(store, REGISTRY), executors="mock")
    return ServedRegistry(store, REGISTRY, options=options, **kwargs)


def _call(served: ServedRegistry, subject: str | None = None, mode: str = "auto") -> Any:
    server = build_server(served, Caller("test", subject, None, "memory"))

    async def go() -> Any:
        async with Client(server, mode=mode) as client:
            listing = await client.list_tools()
            return listing, await client.call_tool("query_invoices", ARGS)

    try:
        return asyncio.run(asyncio.wait_for(go(), 30))
    finally:
        served.close_all()


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_structured_content_is_the_body_validated_against_the_output_schema(
    store: RegistryStore, mode: str
) -> None:
    listing, result = _call(_served(store, version=2), mode=mode)
    declared = next(t for t in listing.tools if t.name == "query_invoices")
    assert declared.output_schema == INVOICES
    assert result.is_error is False
    assert result.structured_content == {"invoices": [
        {"id": "INV-102", "date": "2024-05-06", "category": "taxi", "amount": 118.5,
         "merchant": "Hangzhou Taxi Co.", "claimed": False}]}  # fmt: skip


def test_a_body_that_breaks_the_output_schema_is_a_tool_error(store: RegistryStore) -> None:
    _, result = _call(_served(store, version=3))
    assert result.is_error is True and result.structured_content is None
    text = result.content[0].text
    assert "OUTPUT_SCHEMA_MISMATCH" in text and "'total' is a required property" in text


def test_channel_callers_are_bucketed_by_subject(store: RegistryStore) -> None:
    set_channel(store, REGISTRY, "stable", version=1, who="test")
    set_canary(store, REGISTRY, version=2, share=40, who="test")
    salt = release_state(store, REGISTRY).channel("canary").salt
    served = _served(store, channel="stable")
    for subject in [f"user-{i}" for i in range(10)] + [None]:
        listing, result = _call(served, subject)
        canary = subject is not None and in_share(salt, subject, 40)
        assert listing.meta["studio/version"] == (2 if canary else 1)
        assert listing.meta["studio/channel"] == ("canary" if canary else "stable")
        # Version 2 declares an output schema, version 1 does not: the call ran on that version.
        assert (result.structured_content is not None) == canary
    served_versions = {o.version for o in outcomes(store.path)}
    assert served_versions == {"1", "2"}
    assert {s.version for s, _, _ in mcp_sessions(store.path)} == {"1", "2"}


def test_a_named_channel_serves_its_version(store: RegistryStore) -> None:
    set_canary(store, REGISTRY, version=2, share=10, who="test")
    listing, _ = _call(_served(store, channel="canary"), "anyone")
    assert (listing.meta["studio/channel"], listing.meta["studio/version"]) == ("canary", 2)
    assert (listing.ttl_ms, listing.cache_scope) == (10_000, "private")


def test_every_call_is_recorded_with_the_pipeline_steps(store: RegistryStore) -> None:
    _call(_served(store, version=1))
    [(info, messages, events)] = mcp_sessions(store.path)
    assert info.source == "mcp" and info.status == "completed"
    assert info.context["values"]["employee_id"] == "E-1001"
    types = [e.type for e in events]
    assert types == ["run.started", "tool_call.proposed", "tool_call.prepared",
                     "tool_call.executing", "tool_call.completed", "run.completed"]  # fmt: skip
    result = json.loads(messages[1]["parts"][0]["content"])
    assert result["ok"] is True and result["data_is_untrusted"] is True


def test_calls_use_the_executor_configured_for_the_tool(store: RegistryStore) -> None:
    from registry_db.executors import ExecutorStore
    from tests.runtime.tool_api_server import ToolApiServer

    policy = {"clauses": [{"clause": "4.2", "limit": 80}]}
    with ToolApiServer({"/policy/search": policy}) as api:
        ExecutorStore.for_store(store).save_http_target(
            REGISTRY, "search_policy",
            {"url": api.base_url + "/policy/search", "method": "POST", "body": {"q": "{query}"}},
            allowed_base_urls=[api.base_url],
        )  # fmt: skip
        options = ServeOptions(mock_context(store, REGISTRY), executors="configured")
        served = ServedRegistry(store, REGISTRY, version=1, options=options)
        server = build_server(served, Caller("test", None, None, "memory"))

        async def go() -> Any:
            async with Client(server) as client:
                http = await client.call_tool("search_policy", {"q": "taxi limit"})
                mock = await client.call_tool("query_invoices", ARGS)  # not set: mock
                return http, mock

        try:
            http, mock = asyncio.run(asyncio.wait_for(go(), 30))
        finally:
            served.close_all()
        (request,) = api.requests
    assert json.loads(request.body) == {"q": "taxi limit"}  # alias q → query, then the target
    assert json.loads(http.content[0].text)["data"] == policy
    assert json.loads(mock.content[0].text)["data"]["invoices"][0]["id"] == "INV-102"
    [(_, _, events)] = mcp_sessions(store.path)
    executors = [e.data["executor"] for e in events if e.type == "tool_call.executing"]
    assert executors == ["http", "mock"]


def test_a_turn_named_in_meta_scopes_the_write_intent(store: RegistryStore) -> None:
    options = ServeOptions(mock_context(store, REGISTRY), approve="write", executors="mock")
    served = ServedRegistry(store, REGISTRY, version=1, options=options)
    server = build_server(served, Caller("test", None, None, "memory"))
    args = {"invoice_ids": ["INV-102"], "amount": 118.5, "reason": "client visit"}

    async def go() -> list[Any]:
        async with Client(server) as client:
            return [
                await client.call_tool("create_reimbursement_ticket", args, meta=meta)
                for meta in ({"studio/turn": "1"}, {"studio/turn": "1"}, {"studio/turn": "2"})
            ]

    try:
        results = asyncio.run(asyncio.wait_for(go(), 30))
    finally:
        served.close_all()
    replayed = ["replay" in json.loads(r.content[0].text) for r in results]
    assert replayed == [False, True, False]  # the same request once; a new request runs again
    assert [o.status for o in outcomes(store.path)] == ["ok", "replayed", "ok"]
