"""studio.client: local resolution equals the server's; ETag caching; reporting."""

from __future__ import annotations

import httpx
import pytest

from registry_db import RegistryStore
from registry_db.sessions import SessionStore
from studio.client import ClientError, Snapshot, StudioClient
from studio.release import generate_subjects, rollback
from studio.server import ServerThread

from .conftest import REGISTRY, TOKEN


def test_local_resolution_equals_server_resolution(server: ServerThread) -> None:
    with StudioClient(server.url) as client:
        snapshot = client.snapshot(REGISTRY, fmt="anthropic")
        assert [c.name for c in snapshot.channels] == ["stable", "canary"]
        seen = set()
        for subject in [*generate_subjects(150, seed=11), None, ""]:
            local = snapshot.resolve(subject)
            remote = client.resolve(REGISTRY, subject, fmt="anthropic")
            assert local == remote
            seen.add(local.channel)
        assert seen == {"stable", "canary"}


def test_snapshot_round_trips_as_plain_json(server: ServerThread) -> None:
    with httpx.Client(base_url=server.url) as http:
        doc = http.get(f"/v1/registries/{REGISTRY}/snapshot").json()
    snapshot = Snapshot.from_document(doc)
    assert snapshot.resolve("user-1").registry == REGISTRY


def test_etag_caching_sends_if_none_match_and_gets_304(server: ServerThread) -> None:
    exchanges: list[tuple[str | None, int]] = []

    def record(response: httpx.Response) -> None:
        exchanges.append((response.request.headers.get("if-none-match"), response.status_code))

    http = httpx.Client(event_hooks={"response": [record]})
    with StudioClient(server.url, http=http) as client:
        first = client.resolve(REGISTRY, "user-7", fmt="mcp")
        second = client.resolve(REGISTRY, "user-7", fmt="mcp")
        assert first == second
        assert client.not_modified == 1
        client.snapshot(REGISTRY)
        client.snapshot(REGISTRY)
        assert client.not_modified == 2
    http.close()
    assert exchanges[0] == (None, 200)
    assert exchanges[1][0] is not None and exchanges[1][1] == 304
    assert exchanges[3][1] == 304


def test_snapshot_etag_changes_with_the_channels(server: ServerThread, store) -> None:
    with StudioClient(server.url) as client:
        before = client.snapshot(REGISTRY)
        rollback(store, REGISTRY)
        after = client.snapshot(REGISTRY)
        assert client.not_modified == 0
    assert len(before.channels) == 2 and len(after.channels) == 1
    assert {after.resolve(f"u{i}").channel for i in range(50)} == {"stable"}


def test_errors_become_client_errors(server: ServerThread) -> None:
    with StudioClient(server.url) as client:
        with pytest.raises(ClientError) as info:
            client.resolve("nope")
        assert info.value.status == 404 and "does not exist" in info.value.message
        with pytest.raises(ClientError) as info:
            client.resolve(REGISTRY, fmt="dir")
        assert info.value.status == 400
        with pytest.raises(ClientError, match="token"):
            client.report([{"registry": REGISTRY, "version": 1, "tool": "t", "status": "ok"}])
    with StudioClient("http://127.0.0.1:9", timeout=1) as offline:
        with pytest.raises(ClientError) as info:
            offline.resolve(REGISTRY)
        assert info.value.status == 0


def test_report(server: ServerThread, store: RegistryStore) -> None:
    with StudioClient(server.url, token=TOKEN) as client:
        n = client.report([
            {"registry": REGISTRY, "version": 3, "tool": "search_policy", "status": "ok",
             "latency_ms": 20},
            {"registry": REGISTRY, "version": 2, "tool": "search_policy", "status": "error",
             "error_code": "TIMEOUT"},
        ])  # fmt: skip
        assert n == 2
    with StudioClient(server.url, token="wrong") as client, pytest.raises(ClientError) as info:
        client.report([{"registry": REGISTRY, "version": 3, "tool": "t", "status": "ok"}])
    assert info.value.status == 401
    assert len(SessionStore.for_store(store).outcomes(REGISTRY)) == 2


def test_version(server: ServerThread) -> None:
    with StudioClient(server.url) as client:
        doc = client.version(REGISTRY, 1, fmt="gemini")
    assert doc["version"] == 1 and "functionDeclarations" in doc["tools"]
