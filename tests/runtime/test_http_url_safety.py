"""HTTP targets cannot leave their allowed base: dot-segments, separators, prefixes.

A real loopback server records the request line each call arrives with; a
value is either refused before anything is sent, or arrives inside the
allowed path however the server decodes it. The URL checked, sent and
recorded in the snapshot is one string.
"""

from __future__ import annotations

import asyncio
import posixpath
import unicodedata
from urllib.parse import unquote

import pytest

from studio.runtime import ExecutionRequest, HttpExecutor, HttpTarget, execute_with_policy
from studio.runtime.executors import url_allowed
from studio.runtime.http_targets import check_target, preview_request
from tests.runtime.helpers import travel_registry
from tests.runtime.tool_api_server import ToolApiServer

ESCAPES = [
    "..", ".", "%2e%2e", "%2E.", ".%2e", "%2E%2E", "%252e%252e", "./x", "../x", "a/../..",
    "x/../../..", "..\\..", "a\\..\\..", "\\..", "..\\", "\uff0e\uff0e", "\u2024\u2024",
    "\ufe52\ufe52", "\uff0e", " .. ", "...",
]  # fmt: skip
HARMLESS = ["R-55821", "report.pdf", "v1.2", ".hidden", "a..b", "a/b", "a\\b", "50%", "x y", "é"]


def tool():
    return travel_registry().tool("query_tickets")


def decoded_path(target: str) -> str:
    """The path as a server that decodes everything (twice, NFKC, ``\\`` as ``/``) resolves it."""
    path = target.partition("?")[0]
    for _ in range(3):
        path = unquote(path)
    path = unicodedata.normalize("NFKC", path).replace("\\", "/")
    return posixpath.normpath(path)


def call(api: ToolApiServer, template: str, value: str, allowed: list[str]):
    t = tool()
    executor = HttpExecutor({t.name: HttpTarget(api.base_url + template, "GET")}, allowed)
    request = ExecutionRequest(t, {"ticket_id": value})

    async def go():
        try:
            return await execute_with_policy(executor, request)
        finally:
            await executor.aclose()

    before = len(api.requests)
    outcome = asyncio.run(go())
    sent = api.requests[before:]
    return outcome, sent, executor.snapshot(request)


@pytest.mark.parametrize("value", ESCAPES)
def test_a_value_that_reads_as_a_dot_segment_is_refused_before_sending(value: str) -> None:
    with ToolApiServer() as api:
        allowed = [api.base_url + "/api/docs"]
        outcome, sent, snapshot = call(api, "/api/docs/{ticket_id}", value, allowed)
    assert sent == [], f"{value!r} reached {sent[0].target}"
    assert outcome.status == "error" and outcome.error is not None
    assert outcome.error.code == "URL_NOT_ALLOWED" and outcome.error.retryable is False
    assert "ticket_id" in outcome.error.message
    assert "error" in snapshot


@pytest.mark.parametrize("value", HARMLESS)
def test_other_values_arrive_inside_the_base_as_one_segment(value: str) -> None:
    with ToolApiServer() as api:
        allowed = [api.base_url + "/api/docs"]
        outcome, sent, snapshot = call(api, "/api/docs/{ticket_id}", value, allowed)
        base_url = api.base_url
    assert outcome.status == "ok", outcome.error
    (request,) = sent
    raw = request.path
    assert raw.startswith("/api/docs/") and "/" not in raw.removeprefix("/api/docs/")
    assert "." not in raw.removeprefix("/api/docs/")  # dots travel as %2E
    assert unquote(raw.removeprefix("/api/docs/")) == value
    assert decoded_path(request.target).startswith("/api/docs/")
    # The snapshot records the URL exactly as it went out.
    assert snapshot["url"] == base_url + request.target


@pytest.mark.parametrize("value", ESCAPES)
def test_no_value_ever_reaches_a_path_outside_the_base(value: str) -> None:
    # Literal text around the placeholder cannot complete a dot-segment either.
    with ToolApiServer() as api:
        allowed = [api.base_url + "/api/docs"]
        templates = ("/api/docs/{ticket_id}", "/api/docs/.{ticket_id}",
                     "/api/docs/{ticket_id}./x", "/api/docs/{ticket_id}{ticket_id}")  # fmt: skip
        for template in templates:
            _outcome, sent, _ = call(api, template, value, allowed)
            for request in sent:
                assert decoded_path(request.target).startswith("/api/docs/"), (
                    template, value, request.target,
                )  # fmt: skip


def test_dots_in_the_query_stay_as_they_are() -> None:
    with ToolApiServer() as api:
        allowed = [api.base_url + "/api/docs"]
        outcome, sent, snapshot = call(api, "/api/docs/search?q={ticket_id}", "../..", allowed)
        base_url = api.base_url
    assert outcome.status == "ok"
    assert sent[0].target == "/api/docs/search?q=..%2F.."
    assert snapshot["url"] == base_url + sent[0].target


def test_the_base_prefix_is_a_whole_path_segment() -> None:
    with ToolApiServer() as api:
        allowed = [api.base_url + "/api/docs"]
        outcome, sent, _ = call(api, "/api/docs{ticket_id}", "evil", allowed)
        assert sent == [] and outcome.error is not None
        assert outcome.error.code == "URL_NOT_ALLOWED"
        outcome, sent, _ = call(api, "/api/docs{ticket_id}", "", allowed)
        assert outcome.status == "ok" and sent[0].target == "/api/docs"
        # A template that names a sibling path is refused by the checks too.
        problems = check_target(HttpTarget(api.base_url + "/api/docsevil/{ticket_id}", "GET"),
                                tool(), allowed)  # fmt: skip
        assert any("outside the allowed base URLs" in str(p) for p in problems)


@pytest.mark.parametrize(
    ("url", "allowed"),
    [
        ("https://api.example/api/docs", True),
        ("https://api.example/api/docs/", True),
        ("https://api.example/api/docs/x?y=1", True),
        ("https://api.example/api/docs?y=1", True),
        ("HTTPS://API.example:443/api/docs/x", True),
        ("https://api.example/api/docs/x/../y", True),
        ("https://api.example/api/docsevil", False),
        ("https://api.example/api/docs/../x", False),
        ("https://api.example/api/docs/..", False),
        ("https://api.example/api/./docs/../../x", False),
        ("https://api.example/api/Docs/x", False),
        ("https://api.example:8443/api/docs/x", False),
        ("http://api.example/api/docs/x", False),
        ("https://api.example.evil/api/docs/x", False),
        ("https://api.example@evil.example/api/docs/x", False),
        ("ftp://api.example/api/docs/x", False),
        ("https://api.example/api", False),
    ],
)
def test_url_allowed_compares_the_url_as_httpx_sends_it(url: str, allowed: bool) -> None:
    assert url_allowed(url, ["https://api.example/api/docs/"]) is allowed
    assert url_allowed(url, ["https://api.example/api/docs"]) is allowed


def test_the_preview_shows_the_url_as_sent() -> None:
    target = HttpTarget("https://api.example/api/docs/{ticket_id}", "GET")
    allowed = ["https://api.example/api/docs"]
    ok = preview_request(target, tool(), {"ticket_id": "v1.2 final"}, allowed)
    assert ok.url == "https://api.example/api/docs/v1%2E2%20final"
    refused = preview_request(target, tool(), {"ticket_id": ".."}, allowed)
    assert refused.url == "" and "ticket_id" in refused.error
