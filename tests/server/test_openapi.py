"""The OpenAPI document against what the server does: routes, methods, statuses, body, size."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.routing import Route

from registry_db import RegistryStore
from studio.server import create_app
from studio.server.openapi import openapi_document
from studio.server.outcomes import MAX_BODY_BYTES, STATUSES, OutcomeError, parse_outcomes

from .conftest import REGISTRY, TOKEN

AUTH = {"Authorization": f"Bearer {TOKEN}"}
DOC = openapi_document()


class Asgi:
    """Requests straight into the ASGI app (no sockets), on one event loop."""

    def __init__(self, app: Any) -> None:
        self._runner = asyncio.Runner()
        self._client = httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://studio"
        )

    def request(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        return self._runner.run(self._client.request(method, path, **kwargs))

    def close(self) -> None:
        self._runner.run(self._client.aclose())
        self._runner.close()


@pytest.fixture
def asgi(store: RegistryStore) -> Iterator[Asgi]:
    client = Asgi(create_app(store, token=TOKEN))
    yield client
    client.close()


def test_every_route_is_documented_with_its_methods_and_nothing_else(
    store: RegistryStore,
) -> None:
    routes: dict[str, set[str]] = {}
    for route in create_app(store).routes:
        assert isinstance(route, Route)
        # Starlette answers HEAD wherever GET is routed; the document lists GET.
        routes[route.path] = {m for m in route.methods or () if m != "HEAD"}
    documented = {path: {method.upper() for method in item} for path, item in DOC["paths"].items()}
    assert routes == documented


def _schema(ref: dict[str, Any]) -> dict[str, Any]:
    """A schema of the document as a root schema, so its ``#/components/…`` refs resolve."""
    return {**ref, "components": DOC["components"]}


ERROR_SCHEMA = _schema({"$ref": "#/components/schemas/Error"})
BODY_SCHEMA = _schema(
    DOC["paths"]["/v1/outcomes"]["post"]["requestBody"]["content"]["application/json"]["schema"]
)


def _tamper(db_path: Path, number: int) -> None:
    raw = sqlite3.connect(db_path)
    with raw:
        raw.execute("DROP TRIGGER IF EXISTS versions_no_update")
        raw.execute(
            "UPDATE versions SET document = replace(document, 'Searches', 'Sorts')"
            " WHERE number = ?",
            (number,),
        )
    raw.close()


def _observed(asgi: Asgi, db_path: Path, store: RegistryStore) -> dict[tuple[str, str], set[int]]:
    """Send requests meant to produce every documented status; the statuses each got."""
    v = f"/v1/registries/{REGISTRY}"
    outcome = {"registry": REGISTRY, "version": 2, "tool": "search_policy", "status": "ok"}
    requests: dict[tuple[str, str], list[dict[str, Any]]] = {
        ("/healthz", "get"): [{"url": "/healthz"}],
        ("/openapi.json", "get"): [{"url": "/openapi.json"}],
        ("/v1/registries/{name}/resolve", "get"): [
            {"url": f"{v}/resolve"},
            {"url": f"{v}/resolve", "etag": True},
            {"url": f"{v}/resolve?format=yaml"},
            {"url": "/v1/registries/nope/resolve"},
        ],
        ("/v1/registries/{name}/snapshot", "get"): [
            {"url": f"{v}/snapshot"},
            {"url": f"{v}/snapshot", "etag": True},
            {"url": f"{v}/snapshot?format=dir"},
            {"url": "/v1/registries/nope/snapshot"},
        ],
        ("/v1/registries/{name}/versions/{number}", "get"): [
            {"url": f"{v}/versions/1"},
            {"url": f"{v}/versions/1", "etag": True},
            {"url": f"{v}/versions/0"},
            {"url": f"{v}/versions/9"},
        ],
        ("/v1/outcomes", "post"): [
            {"url": "/v1/outcomes", "json": outcome, "headers": AUTH},
            {"url": "/v1/outcomes", "content": b"{", "headers": AUTH},
            {"url": "/v1/outcomes", "json": outcome},
            {"url": "/v1/outcomes", "content": b" " * (MAX_BODY_BYTES + 1), "headers": AUTH},
            {"url": "/v1/outcomes", "json": {**outcome, "version": 9}, "headers": AUTH},
        ],
    }
    seen: dict[tuple[str, str], set[int]] = {}
    for (path, method), cases in requests.items():
        for case in cases:
            case = dict(case)
            url = case.pop("url")
            if case.pop("etag", False):
                etag = asgi.request(method, url).headers["etag"]
                case["headers"] = {"If-None-Match": etag}
            response = asgi.request(method, url, **case)
            seen.setdefault((path, method), set()).add(response.status_code)
            if response.status_code >= 400:
                jsonschema.validate(response.json(), ERROR_SCHEMA)
    # 403: a server without a token.
    tokenless = Asgi(create_app(store, token=None))
    try:
        response = tokenless.request("post", "/v1/outcomes", json=outcome, headers=AUTH)
        seen[("/v1/outcomes", "post")].add(response.status_code)
    finally:
        tokenless.close()
    seen[("/v1/outcomes", "post")].add(_slow_body_status(store))
    # 500: stable (version 2) was changed in the file behind the server's back.
    _tamper(db_path, 2)
    fresh = Asgi(create_app(store, token=TOKEN))
    try:
        for path, url in (("resolve", f"{v}/resolve"), ("snapshot", f"{v}/snapshot"),
                          ("versions/{number}", f"{v}/versions/2")):  # fmt: skip
            response = fresh.request("get", url)
            assert "failed its hash check" in response.json()["error"]["message"]
            seen[(f"/v1/registries/{{name}}/{path}", "get")].add(response.status_code)
    finally:
        fresh.close()
    return seen


def _slow_body_status(store: RegistryStore) -> int:
    """The status of an outcome whose body never finishes arriving (body timeout 0.05 s)."""
    app = create_app(store, token=TOKEN, body_timeout=0.05)
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        if not sent:
            sent.append({})
            return {"type": "http.request", "body": b"{", "more_body": True}
        await asyncio.sleep(10)
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
        "scheme": "http", "path": "/v1/outcomes", "raw_path": b"/v1/outcomes",
        "query_string": b"", "root_path": "", "server": ("studio", 80), "client": ("x", 1),
        "headers": [(b"authorization", f"Bearer {TOKEN}".encode())],
    }  # fmt: skip
    asyncio.run(app(scope, receive, send))
    start = next(m for m in sent if m.get("type") == "http.response.start")
    return int(start["status"])


def test_every_documented_status_happens_and_no_other(
    asgi: Asgi, db_path: Path, store: RegistryStore
) -> None:
    seen = _observed(asgi, db_path, store)
    del seen[("/v1/outcomes", "post")]  # checked below, with the storage error
    for (path, method), statuses in seen.items():
        documented = {int(code) for code in DOC["paths"][path][method]["responses"]}
        assert statuses == documented, (path, method)


def test_the_outcome_statuses_are_documented(
    asgi: Asgi, db_path: Path, store: RegistryStore
) -> None:
    seen = _observed(asgi, db_path, store)[("/v1/outcomes", "post")]
    documented = {int(c) for c in DOC["paths"]["/v1/outcomes"]["post"]["responses"]}
    # 500 (a storage failure while writing) cannot be provoked from outside.
    assert seen == documented - {500}


def test_the_documented_size_limit_is_the_enforced_one(asgi: Asgi) -> None:
    body = DOC["paths"]["/v1/outcomes"]["post"]["requestBody"]
    assert body["x-max-body-bytes"] == MAX_BODY_BYTES
    assert str(MAX_BODY_BYTES) in body["description"]
    at_limit = asgi.request("post", "/v1/outcomes", content=b" " * MAX_BODY_BYTES, headers=AUTH)
    assert at_limit.status_code == 400  # read in full, then refused as not JSON
    over = asgi.request("post", "/v1/outcomes", content=b" " * (MAX_BODY_BYTES + 1), headers=AUTH)
    assert over.status_code == 413


_text = st.one_of(
    st.sampled_from(["", "a", REGISTRY, "x" * 200, "x" * 201, *STATUSES]),
    st.text(max_size=5),
)
_values = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 2**54), _text,
    st.floats(allow_nan=False, allow_infinity=False), st.sampled_from([1.0, 3.0, 2.5, 0.0]),
    st.sampled_from(["1", "0", "007", "-1", "1.0", "9" * 16, "9" * 17, " 1"]),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=2), st.none(), max_size=1),
)  # fmt: skip
_keys = st.sampled_from(
    [
        *("registry", "version", "tool", "status", "error_code", "latency_ms", "call_id"),
        *("risk", "idempotency_key", "duplicate_of", "colour"),
    ]
)


def _mostly(good: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Usually a valid value, sometimes any value (so both answers get exercised)."""
    return st.integers(0, 9).flatmap(lambda n: good if n < 8 else _values)


_complete = st.fixed_dictionaries(
    {
        "registry": _mostly(st.text(min_size=1, max_size=200)),
        "version": _mostly(
            st.one_of(st.integers(1, 2**53 - 1), st.from_regex(r"\A0*[1-9][0-9]{0,5}\Z"))
        ),
        "tool": _mostly(st.text(min_size=1, max_size=200)),
        "status": _mostly(st.sampled_from(STATUSES)),
    },
    optional={
        "error_code": _mostly(st.one_of(st.none(), st.text(max_size=200))),
        "latency_ms": _mostly(st.floats(min_value=0, allow_infinity=False)),
        "call_id": _mostly(st.one_of(st.none(), st.text(max_size=200))),
        "risk": _mostly(st.sampled_from([None, "", "read", "write", "destructive"])),
        "idempotency_key": _mostly(st.one_of(st.none(), st.text(max_size=200))),
        "duplicate_of": _mostly(st.one_of(st.none(), st.text(max_size=200))),
    },
)
_outcome = st.one_of(_complete, st.dictionaries(_keys, _values, max_size=8))
_bodies = st.one_of(
    _outcome,
    st.fixed_dictionaries({"outcomes": st.lists(_outcome, max_size=3)}),
    st.dictionaries(st.sampled_from(["outcomes", "x"]), _values, max_size=2),
    _values,
)


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_bodies)
def test_the_body_schema_accepts_exactly_what_the_server_accepts(body: Any) -> None:
    validator = jsonschema.Draft202012Validator(BODY_SCHEMA)
    text = json.dumps(body).encode()
    try:
        parse_outcomes(text)
        accepted = True
    except OutcomeError:
        accepted = False
    assert accepted == validator.is_valid(body), body
