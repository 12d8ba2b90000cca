"""Generated requests through the ASGI app: never a 500, every 4xx in the server's error shape."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from registry_db import RegistryStore
from studio.server import create_app
from studio.server.openapi import openapi_document

from .conftest import REGISTRY, TOKEN
from .test_openapi import Asgi

ERROR_SCHEMA = {
    "$ref": "#/components/schemas/Error",
    "components": openapi_document()["components"],
}

_json_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=20),
    st.text(st.characters(exclude_categories=()), max_size=4),  # lone surrogates too
    st.sampled_from(["9" * 5000, "1" * 17, "x" * 201]),
)  # fmt: skip
_json = st.recursive(
    _json_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=12,
)
_segment = st.one_of(
    st.sampled_from([REGISTRY, "nope", "", "1", "0", "-1", "99", "%00", "..", "é"]),
    st.text(max_size=12),
)
_VALID = {
    "registry": REGISTRY, "version": 2, "tool": "search_policy", "status": "ok",
    "error_code": "", "latency_ms": 1.5, "call_id": "call_1",
}  # fmt: skip
_near_miss = st.sampled_from([1, 3, 4, "2", "0002", 2.0, 2.5, 0, -1, True, "9" * 5000, 2**64])


@st.composite
def _outcome(draw: st.DrawFn) -> dict[str, Any]:
    """A valid outcome with fields dropped, others wrong or odd, maybe a stray key."""
    keys = draw(st.sets(st.sampled_from(sorted(_VALID)), min_size=3))
    outcome: dict[str, Any] = {k: _VALID[k] for k in sorted(keys)}
    for key in draw(st.sets(st.sampled_from(sorted(_VALID)), max_size=2)):
        outcome[key] = draw(st.one_of(_json, _near_miss))
    if draw(st.integers(0, 9)) == 0:
        outcome[draw(st.text(max_size=6))] = draw(_json)
    return outcome


_body_value = st.one_of(
    _outcome(),
    st.fixed_dictionaries({"outcomes": st.one_of(st.lists(_outcome(), max_size=3), _json)}),
    _json,
)


@st.composite
def _requests(draw: st.DrawFn) -> dict[str, Any]:
    seg = quote(draw(_segment), safe="")
    path = draw(
        st.one_of(
            st.sampled_from([
                "/healthz", "/openapi.json", "/v1/outcomes", f"/v1/registries/{seg}/resolve",
                f"/v1/registries/{seg}/snapshot", f"/v1/registries/{REGISTRY}/versions/{seg}",
                f"/v1/registries/{seg}/versions/1", "/v1/registries", "/", "/v1/outcomes/x",
            ]),
            st.lists(st.text(min_size=1, max_size=8), max_size=4).map(
                lambda parts: "/" + "/".join(quote(p, safe="") for p in parts)
            ),
        )
    )  # fmt: skip
    params = draw(
        st.dictionaries(
            st.sampled_from(["format", "subject", "x"]),
            st.one_of(st.sampled_from(["openai", "mcp", "dir", "yaml", "a" * 300]),
                      st.text(max_size=12)),
            max_size=3,
        )
    )  # fmt: skip
    method = draw(st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"]))
    headers = draw(
        st.dictionaries(
            st.sampled_from(["if-none-match", "accept", "content-type", "x-anything", "cookie"]),
            st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=30),
            max_size=3,
        )
    )
    auth = draw(st.sampled_from([None, f"Bearer {TOKEN}", "Bearer wrong", "Basic x", "Bearer"]))
    if auth is not None:
        headers["authorization"] = auth
    kind = draw(st.sampled_from(["none", "json", "bytes"]))
    request: dict[str, Any] = {"method": method, "path": path, "params": params, "headers": headers}
    if kind == "json":
        request["content"] = json.dumps(draw(_body_value)).encode()
    elif kind == "bytes":
        request["content"] = draw(st.binary(max_size=64))
    return request


@pytest.fixture(scope="module")
def fuzz_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RegistryStore]:
    from .conftest import publish_versions

    store = RegistryStore.open(tmp_path_factory.mktemp("fuzz") / "fuzz.sqlite3")
    publish_versions(store, REGISTRY, 3)
    yield store
    store.close()


@pytest.fixture(scope="module")
def fuzz_client(fuzz_store: RegistryStore) -> Iterator[Asgi]:
    client = Asgi(create_app(fuzz_store, token=TOKEN))
    yield client
    client.close()


def _check(response: Any, request: dict[str, Any]) -> None:
    assert response.status_code < 500, (request, response.text)
    if response.status_code >= 400 and request["method"] != "HEAD":
        body = response.json()
        jsonschema.validate(body, ERROR_SCHEMA)
        assert body["error"]["status"] == response.status_code


# About 4 s for 500 requests: bounded well under the 20 s budget.
@settings(
    max_examples=500,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(request=_requests())
def test_generated_requests_never_get_a_500(fuzz_client: Asgi, request: dict[str, Any]) -> None:
    _check(fuzz_client.request(**request), request)


_AUTHORISED = {"authorization": f"Bearer {TOKEN}", "content-type": "application/json"}


# About 3 s: outcome reports that get past the token, mostly one field away from valid.
@settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(body=_body_value)
def test_generated_outcome_reports_never_get_a_500(fuzz_client: Asgi, body: Any) -> None:
    request = {"method": "POST", "path": "/v1/outcomes", "headers": _AUTHORISED,
               "content": json.dumps(body).encode()}  # fmt: skip
    response = fuzz_client.request(**request)
    _check(response, request)
    assert response.status_code in (201, 400, 422), response.text
