"""The serving endpoints against a real uvicorn on an ephemeral port."""

from __future__ import annotations

import httpx
import pytest

from registry_db import RegistryStore
from registry_db.sessions import SessionStore
from studio.release import resolve
from studio.server import ServerThread

from .conftest import REGISTRY, TOKEN

RESOLVE = f"/v1/registries/{REGISTRY}/resolve"


def test_healthz_and_openapi(http: httpx.Client, server: ServerThread) -> None:
    assert server.url.startswith("http://127.0.0.1:")
    assert http.get("/healthz").json() == {"status": "ok"}
    doc = http.get("/openapi.json").json()
    assert doc["openapi"].startswith("3.")
    assert {"/v1/registries/{name}/resolve", "/v1/outcomes", "/healthz"} <= set(doc["paths"])


def test_resolve_without_subject_is_stable(http: httpx.Client, store: RegistryStore) -> None:
    body = http.get(RESOLVE).json()
    assert (body["channel"], body["version"], body["semver"]) == ("stable", 2, "1.1.0")
    assert body["content_hash"] == store.list_versions(REGISTRY)[1].content_hash
    assert body["format"] == "openai"


def test_resolve_matches_the_library_for_many_subjects(
    http: httpx.Client, store: RegistryStore
) -> None:
    channels = set()
    for i in range(60):
        subject = f"user-{i}"
        body = http.get(RESOLVE, params={"subject": subject}).json()
        expected = resolve(store, REGISTRY, subject)
        assert (body["channel"], body["version"]) == (expected.channel, expected.version)
        channels.add(body["channel"])
    assert channels == {"stable", "canary"}


@pytest.mark.parametrize(
    ("fmt", "probe"),
    [
        ("openai", lambda t: t[0]["function"]["name"]),
        ("anthropic", lambda t: t[0]["name"]),
        ("mcp", lambda t: t["tools"][0]["name"]),
        ("gemini", lambda t: t["functionDeclarations"][0]["name"]),
        ("studio", lambda t: t["tools"][0]["name"]),
    ],
)
def test_resolve_formats(http: httpx.Client, fmt: str, probe) -> None:
    response = http.get(RESOLVE, params={"format": fmt})
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert body["format"] == fmt
    assert probe(body["tools"]) in ("search_policy", "query_invoices_1", "query_invoices_2")


def test_etag_and_304(http: httpx.Client) -> None:
    first = http.get(RESOLVE, params={"format": "anthropic"})
    etag = first.headers["etag"]
    assert etag.startswith('"sha256:') and "anthropic" in etag
    assert "no-cache" in first.headers["cache-control"]
    again = http.get(RESOLVE, params={"format": "anthropic"}, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    assert again.headers["etag"] == etag
    other = http.get(RESOLVE, params={"format": "mcp"}, headers={"If-None-Match": etag})
    assert other.status_code == 200 and other.headers["etag"] != etag
    weak = http.get(RESOLVE, params={"format": "anthropic"}, headers={"If-None-Match": f"W/{etag}"})
    assert weak.status_code == 304


def test_version_endpoint(http: httpx.Client, store: RegistryStore) -> None:
    response = http.get(f"/v1/registries/{REGISTRY}/versions/1", params={"format": "studio"})
    body = response.json()
    assert (body["version"], body["semver"], body["notes"]) == (1, "1.0.0", "release 1")
    assert body["content_hash"] == store.list_versions(REGISTRY)[0].content_hash
    assert "immutable" in response.headers["cache-control"]
    again = http.get(
        f"/v1/registries/{REGISTRY}/versions/1",
        params={"format": "studio"},
        headers={"If-None-Match": response.headers["etag"]},
    )
    assert again.status_code == 304


def _outcome(**overrides):
    body = {"registry": REGISTRY, "version": 3, "tool": "search_policy", "status": "ok",
            "latency_ms": 12.5, "call_id": "call_1"}  # fmt: skip
    body.update(overrides)
    return body


def test_outcomes_need_a_configured_token(tokenless_server: ServerThread, store) -> None:
    with httpx.Client(base_url=tokenless_server.url) as client:
        for headers in ({}, {"Authorization": "Bearer anything"}):
            response = client.post("/v1/outcomes", json=_outcome(), headers=headers)
            assert response.status_code == 403
            assert "no token" in response.json()["error"]["message"]
    assert SessionStore.for_store(store).outcomes(REGISTRY) == []


@pytest.mark.parametrize(
    "headers",
    [{}, {"Authorization": "Bearer wrong"}, {"Authorization": f"Basic {TOKEN}"},
     {"Authorization": "Bearer"}, {"Authorization": f"Bearer {TOKEN}x"}],
)  # fmt: skip
def test_outcomes_refuse_a_wrong_token(http: httpx.Client, store, headers) -> None:
    response = http.post("/v1/outcomes", json=_outcome(), headers=headers)
    assert response.status_code == 401
    assert response.headers["www-authenticate"].startswith("Bearer")
    assert SessionStore.for_store(store).outcomes(REGISTRY) == []


def test_outcomes_are_written(http: httpx.Client, store: RegistryStore) -> None:
    auth = {"Authorization": f"Bearer {TOKEN}"}
    one = http.post("/v1/outcomes", json=_outcome(), headers=auth)
    assert one.status_code == 201 and one.json() == {"accepted": 1}
    batch = {"outcomes": [_outcome(version="2", status="error", error_code="TIMEOUT"),
                          _outcome(tool="query_invoices_1", status="rejected",
                                   error_code="INVALID_ARGUMENTS", latency_ms=0)]}  # fmt: skip
    assert http.post("/v1/outcomes", json=batch, headers=auth).json() == {"accepted": 2}
    rows = SessionStore.for_store(store).outcomes(REGISTRY)
    assert [(r.version, r.tool, r.status, r.error_code) for r in rows] == [
        ("3", "search_policy", "ok", ""),
        ("2", "search_policy", "error", "TIMEOUT"),
        ("3", "query_invoices_1", "rejected", "INVALID_ARGUMENTS"),
    ]
    assert rows[0].latency_ms == 12.5 and rows[0].call_id == "call_1"
    assert rows[0].created_at.endswith("Z")


BAD_BODIES = [
    b"",
    b"not json",
    b"\xff\xfe\x00",
    b"[]",
    b"null",
    b"42",
    b'"text"',
    b"[" * 50_000,
    b'{"outcomes": []}',
    b'{"outcomes": {}}',
    b'{"outcomes": [1, 2]}',
    b'{"outcomes": [], "extra": 1}',
    b'{"registry": "travel-reimbursement"}',
    b'{"registry": 5, "version": 1, "tool": "t", "status": "ok"}',
    b'{"registry": "travel-reimbursement", "version": 0, "tool": "t", "status": "ok"}',
    b'{"registry": "travel-reimbursement", "version": true, "tool": "t", "status": "ok"}',
    b'{"registry": "travel-reimbursement", "version": "x", "tool": "t", "status": "ok"}',
    b'{"registry": "travel-reimbursement", "version": 1, "tool": "", "status": "ok"}',
    b'{"registry": "travel-reimbursement", "version": 1, "tool": "t", "status": "great"}',
    b'{"registry": "travel-reimbursement", "version": 1, "tool": "t", "status": "ok",'
    b' "latency_ms": -1}',
    b'{"registry": "travel-reimbursement", "version": 1, "tool": "t", "status": "ok",'
    b' "latency_ms": 1e999}',
    b'{"registry": "travel-reimbursement", "version": 1, "tool": "t", "status": "ok",'
    b' "latency_ms": "fast"}',
    b'{"registry": "travel-reimbursement", "version": 1, "tool": "t", "status": "ok",'
    b' "colour": "red"}',
    b'{"registry": "travel-reimbursement", "version": 1' + b"9" * 5000 + b', "tool": "t",'
    b' "status": "ok"}',
]


@pytest.mark.parametrize("body", BAD_BODIES)
def test_malformed_outcomes_get_400_json(http: httpx.Client, store, body: bytes) -> None:
    response = http.post(
        "/v1/outcomes",
        content=body,
        headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"},
    )
    assert response.status_code == 400, response.text
    assert response.json()["error"]["message"]
    assert SessionStore.for_store(store).outcomes(REGISTRY) == []


def test_unknown_registry_and_huge_body(http: httpx.Client) -> None:
    auth = {"Authorization": f"Bearer {TOKEN}"}
    response = http.post("/v1/outcomes", json=_outcome(registry="nope"), headers=auth)
    assert response.status_code == 422
    huge = http.post("/v1/outcomes", content=b"x" * 2_000_000, headers=auth)
    assert huge.status_code == 413 and huge.json()["error"]["status"] == 413


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("GET", "/v1/registries/nope/resolve", 404),
        ("GET", f"{RESOLVE}?format=dir", 400),
        ("GET", f"{RESOLVE}?format=", 400),
        ("GET", f"{RESOLVE}?format=yaml&subject=a", 400),
        ("GET", f"{RESOLVE}?subject=" + "a" * 300, 400),
        ("GET", f"/v1/registries/{REGISTRY}/versions/abc", 400),
        ("GET", f"/v1/registries/{REGISTRY}/versions/0", 400),
        ("GET", f"/v1/registries/{REGISTRY}/versions/-1", 400),
        ("GET", f"/v1/registries/{REGISTRY}/versions/99", 404),
        ("GET", f"/v1/registries/{REGISTRY}/versions/1?format=../../etc", 400),
        ("GET", f"/v1/registries/{REGISTRY}/versions/%C3%A9", 400),
        ("GET", "/v1/registries/%00/resolve", 404),
        ("GET", "/no/such/endpoint", 404),
        ("DELETE", RESOLVE, 405),
        ("GET", "/v1/outcomes", 405),
        ("PUT", "/healthz", 405),
    ],
)
def test_bad_requests_get_4xx_json(http: httpx.Client, method: str, path: str, status: int):
    response = http.request(method, path)
    assert response.status_code == status, response.text
    assert response.json()["error"]["status"] == status


def test_registry_without_versions_is_404(http: httpx.Client, store: RegistryStore) -> None:
    store.create_registry("empty")
    response = http.get("/v1/registries/empty/resolve")
    assert response.status_code == 404
    assert "no published version" in response.json()["error"]["message"]


def test_channel_changes_show_up_without_restart(http: httpx.Client, store) -> None:
    from studio.release import promote

    subjects = [f"s{i}" for i in range(40)]
    before = {http.get(RESOLVE, params={"subject": s}).json()["version"] for s in subjects}
    assert before == {2, 3}
    promote(store, REGISTRY)
    after = {http.get(RESOLVE, params={"subject": s}).json()["version"] for s in subjects}
    assert after == {3}


def test_channel_changes_from_another_connection_show_up(
    http: httpx.Client, store: RegistryStore, db_path
) -> None:
    """The cached channel state notices commits of other connections (PRAGMA data_version)."""
    from studio.release import rollback

    subjects = [f"s{i}" for i in range(40)]
    before = {http.get(RESOLVE, params={"subject": s}).json()["version"] for s in subjects}
    assert before == {2, 3}
    other = RegistryStore.open(db_path)  # as `studio channel … rollback` in a shell would
    try:
        rollback(other, REGISTRY, "canary", who="ops", why="elsewhere")
    finally:
        other.close()
    after = {http.get(RESOLVE, params={"subject": s}).json()["version"] for s in subjects}
    assert after == {2}
