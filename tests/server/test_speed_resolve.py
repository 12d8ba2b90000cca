"""The resolve hot path answers exactly what the Starlette route answers, without it.

Every request is sent twice: to the app as served (the fast path in front) and
to the same app with the fast path removed (plain Starlette routing). Status,
headers and body must match byte for byte; requests the fast path does not
take (errors, other endpoints) must reach Starlette untouched.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from registry_db import RegistryStore
from studio.server import ServerThread, create_app
from studio.server.fast_resolve import ResolveFastPath, query_params

from .conftest import REGISTRY

PATH = f"/v1/registries/{REGISTRY}/resolve"


class Client:
    """Requests straight into an ASGI app on one event loop."""

    def __init__(self, app: Any) -> None:
        self._runner = asyncio.Runner()
        self._client = httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://studio"
        )

    def get(self, path: str, **kwargs: Any) -> httpx.Response:
        return self._runner.run(self._client.get(path, **kwargs))

    def close(self) -> None:
        self._runner.run(self._client.aclose())
        self._runner.close()


@pytest.fixture
def pair(store: RegistryStore) -> Iterator[tuple[Client, Client]]:
    fast = Client(create_app(store))
    plain_app = create_app(store)
    plain_app.user_middleware.clear()  # before the first request builds the stack
    plain = Client(plain_app)
    yield fast, plain
    fast.close()
    plain.close()


def _same(a: httpx.Response, b: httpx.Response) -> None:
    assert (a.status_code, a.content) == (b.status_code, b.content)
    assert a.headers.raw == b.headers.raw


def test_answers_match_the_starlette_route(pair: tuple[Client, Client]) -> None:
    fast, plain = pair
    etags = set()
    cases: list[dict[str, str]] = [{}, {"subject": "", "format": "mcp"}, {"subject": "x" * 256},
                                   {"format": "openai", "subject": "含 空格 & 符号"}]  # fmt: skip
    cases += [{"subject": f"user-{i}", "format": fmt}
              for i in range(15) for fmt in ("openai", "anthropic")]  # fmt: skip
    for params in cases:
        a, b = fast.get(PATH, params=params), plain.get(PATH, params=params)
        _same(a, b)
        assert a.status_code == 200
        etags.add(a.headers["etag"])
        for header in (a.headers["etag"], f"W/{a.headers['etag']}", '"other", *', '"no"'):
            _same(fast.get(PATH, params=params, headers={"If-None-Match": header}),
                  plain.get(PATH, params=params, headers={"If-None-Match": header}))  # fmt: skip
    assert len(etags) >= 4  # stable and canary, in several formats


def test_errors_and_other_requests_are_left_to_starlette(pair: tuple[Client, Client]) -> None:
    fast, plain = pair
    for path, params in (
        (PATH, {"format": "dir"}),
        (PATH, {"format": "nope"}),
        (PATH, {"subject": "x" * 257}),
        ("/v1/registries/missing/resolve", {}),
        ("/v1/registries//resolve", {}),
        (f"/v1/registries/{REGISTRY}/snapshot", {}),
        ("/healthz", {}),
    ):
        a, b = fast.get(path, params=params), plain.get(path, params=params)
        _same(a, b)


def test_well_formed_requests_never_reach_the_app_behind(store: RegistryStore) -> None:
    app = create_app(store)
    reached: list[str] = []

    async def behind(scope: Any, receive: Any, send: Any) -> None:
        reached.append(scope["path"])
        await app(scope, receive, send)

    client = Client(ResolveFastPath(behind, app.state.api))
    try:
        for i in range(50):
            assert client.get(PATH, params={"subject": f"u{i}"}).status_code == 200
        assert reached == []
        assert client.get(PATH, params={"format": "nope"}).status_code == 400
        assert reached == [PATH]
    finally:
        client.close()


def test_query_parsing_matches_starlette() -> None:
    from starlette.datastructures import QueryParams

    for raw in (b"", b"a=1&a=2", b"subject=&format=mcp", b"x", b"&&a=b=c", b"s=%E5%90%AB+x",
                b"s=caf\xc3\xa9", b"a=1;b=2", b"%zz=1"):  # fmt: skip
        assert query_params(raw) == dict(QueryParams(raw.decode("latin-1")))


def test_a_real_server_answers_304_for_its_etag(store: RegistryStore) -> None:
    with ServerThread(store) as server, httpx.Client(base_url=server.url) as http:
        first = http.get(PATH, params={"subject": "user-7"})
        assert first.status_code == 200 and first.json()["registry"] == REGISTRY
        again = http.get(PATH, params={"subject": "user-7"},
                         headers={"If-None-Match": first.headers["etag"]})  # fmt: skip
        assert again.status_code == 304 and again.content == b""
        assert again.headers["etag"] == first.headers["etag"]
