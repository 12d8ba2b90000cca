"""Executors and the timeout/retry policy."""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import replace

import httpx
import pytest

from studio.contract import Execution, RetryPolicy, TimeoutTier
from studio.runtime import (
    ExecutionRequest,
    HttpExecutor,
    HttpTarget,
    MockExecutor,
    MockSpecError,
    execute_with_policy,
    parse_mocks,
)
from tests.runtime.helpers import travel_registry


class RecordingSleep:
    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


def tool(name: str):
    return travel_registry().tool(name)


def mock(spec: dict) -> MockExecutor:
    return MockExecutor(parse_mocks({"tools": spec}).tools)


def run(coro):
    return asyncio.run(coro)


def test_matchers_choose_the_response():
    executor = mock({"query_invoices": {
        "responses": [
            {"when": [{"path": "category", "equals": "hotel"}], "body": "hotel"},
            {"when": [{"path": "start_date", "regex": "^2024-06"}], "body": "june"},
            {"when": [{"path": "tags", "contains": "x"}], "body": "tagged"},
        ],
        "default": {"body": "default"},
    }})  # fmt: skip
    t = tool("query_invoices")
    ask = lambda args: run(executor.execute(ExecutionRequest(t, args)))  # noqa: E731
    assert ask({"category": "hotel"}) == "hotel"
    assert ask({"start_date": "2024-06-01"}) == "june"
    assert ask({"tags": ["x", "y"]}) == "tagged"
    assert ask({}) == "default"


def test_a_write_that_times_out_is_unknown_and_not_retried():
    t = replace(tool("create_reimbursement_ticket"),
                execution=replace(Execution.for_tier(TimeoutTier.WRITE), timeout_seconds=0.05,
                                  retry=RetryPolicy(max_attempts=3)))  # fmt: skip
    executor = mock({t.name: {"default": {"fail": "timeout"}}})
    outcome = run(execute_with_policy(executor, ExecutionRequest(t, {}, idempotency_key="k1")))
    assert outcome.status == "unknown" and outcome.attempts == 1
    assert len(executor.calls) == 1
    result = outcome.error.to_result()
    assert result["status"] == "UNKNOWN" and result["retryable"] is False
    assert "k1" in result["hint"] and "retry" not in result["hint"].lower()


def test_429_retry_after_is_honoured_for_reads():
    t = tool("search_policy")
    executor = mock({t.name: {"responses": [{"fail": "429", "retry_after": 2, "times": 1}],
                              "default": {"body": {"clauses": []}}}})  # fmt: skip
    sleep = RecordingSleep()
    outcome = run(execute_with_policy(executor, ExecutionRequest(t, {}), sleep=sleep,
                                      rng=random.Random(1)))  # fmt: skip
    assert outcome.status == "ok" and outcome.attempts == 2 and outcome.error is None
    assert sleep.delays == [2.0]  # backoff would be ≤ 0.5 s; Retry-After wins


def test_429_retry_after_really_waits():
    t = tool("search_policy")
    executor = mock({t.name: {"responses": [{"fail": "429", "retry_after": 0.3, "times": 1}],
                              "default": {"body": 1}}})  # fmt: skip
    started = time.perf_counter()
    outcome = run(execute_with_policy(executor, ExecutionRequest(t, {})))
    assert outcome.body == 1 and time.perf_counter() - started >= 0.3


def test_reads_give_up_after_max_attempts_with_backoff():
    t = tool("search_policy")
    executor = mock({t.name: {"default": {"fail": "500"}}})
    sleep = RecordingSleep()
    outcome = run(execute_with_policy(executor, ExecutionRequest(t, {}), sleep=sleep,
                                      rng=random.Random(1)))  # fmt: skip
    assert outcome.status == "error" and outcome.attempts == 2
    assert len(sleep.delays) == 1 and 0 <= sleep.delays[0] <= 0.5
    assert outcome.error.code == "UPSTREAM_ERROR" and outcome.error.retryable


def test_malformed_body_and_writes_never_retried_on_500():
    t = tool("create_reimbursement_ticket")
    executor = mock({t.name: {"default": {"fail": "500"}}})
    outcome = run(execute_with_policy(executor, ExecutionRequest(t, {})))
    assert outcome.attempts == 1 and outcome.error.retryable is False
    executor = mock({"search_policy": {"default": {"fail": "malformed"}}})
    outcome = run(execute_with_policy(executor, ExecutionRequest(tool("search_policy"), {})))
    assert outcome.error.code == "MALFORMED_RESPONSE"


def test_http_executor_templates_and_allow_list():
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        if "slow" in str(request.url):
            return httpx.Response(429, headers={"Retry-After": "1"}, text="busy")
        return httpx.Response(200, json={"tickets": [{"ticket_id": "R-55821"}]})

    client = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    executor = HttpExecutor(
        {
            "query_tickets": HttpTarget("https://api.example/tickets/{ticket_id}?who={employee_id}",
                                        "GET", {"Authorization": "Bearer s3cret"}),
            "search_policy": HttpTarget("https://evil.example/search", "POST"),
            "create_reimbursement_ticket": HttpTarget(
                "https://api.example/tickets", "POST", body={"ids": "{invoice_ids}", "by": "x"}
            ),
        },
        ["https://api.example"],
        client=client,
    )  # fmt: skip
    args = {"ticket_id": "R-55821", "employee_id": "E 1"}
    request = ExecutionRequest(tool("query_tickets"), args)
    body = run(executor.execute(request))
    assert body["tickets"][0]["ticket_id"] == "R-55821"
    assert str(seen[0].url) == "https://api.example/tickets/R-55821?who=E%201"
    assert executor.snapshot(request)["headers"]["Authorization"] == "***"
    outcome = run(execute_with_policy(executor, ExecutionRequest(tool("search_policy"), {})))
    assert outcome.error.code == "URL_NOT_ALLOWED" and len(seen) == 1
    write = ExecutionRequest(tool("create_reimbursement_ticket"), {"invoice_ids": ["INV-102"]},
                             idempotency_key="s:1:t:abc")  # fmt: skip
    run(executor.execute(write))
    assert seen[-1].headers["Idempotency-Key"] == "s:1:t:abc"
    assert seen[-1].content == b'{"ids":["INV-102"],"by":"x"}'


@pytest.mark.parametrize("fail", ["timeout", "429", "500", "malformed"])
def test_every_injected_failure_becomes_a_structured_result(fail):
    t = replace(tool("search_policy"), execution=replace(tool("search_policy").execution,
                                                         timeout_seconds=0.02))  # fmt: skip
    executor = mock({t.name: {"default": {"fail": fail, "retry_after": 0}}})
    outcome = run(execute_with_policy(executor, ExecutionRequest(t, {}), sleep=RecordingSleep()))
    result = outcome.error.to_result()
    assert set(result) >= {"ok", "error_code", "message", "retryable", "hint"}


@pytest.mark.parametrize(
    ("response", "message"),
    [
        ({"when": [{"path": "q", "regex": "(unclosed"}]}, "tools.t.responses[0].when[0].regex:"),
        ({"when": [7]}, "tools.t.responses[0].when[0]: needs a path and one of"),
        ({"when": {"path": "q"}}, "tools.t.responses[0].when: must be a list of matchers"),
        ({"status": "two hundred"}, "tools.t.responses[0].status: must be a number"),
        ({"latency_ms": [5]}, "tools.t.responses[0].latency_ms: must be a number"),
        ({"times": True}, "tools.t.responses[0].times: must be a number"),
    ],
)
def test_a_broken_mock_spec_is_refused_with_its_place(response, message) -> None:
    # Refused when the mocks load, before a run, never as a crash mid-run.
    with pytest.raises(MockSpecError) as caught:
        parse_mocks({"tools": {"t": {"responses": [response]}}})
    assert str(caught.value).startswith(message)


def test_numbers_in_a_mock_spec_may_be_written_as_strings() -> None:
    spec = parse_mocks({"tools": {"t": {"default": {"status": "429", "latency_ms": "20"}}}})
    default = spec.tools["t"].default
    assert default is not None and (default.status, default.latency_ms) == (429, 20.0)


def test_the_request_snapshot_hides_every_credential_looking_header() -> None:
    target = HttpTarget(
        "https://api.example/tickets/{ticket_id}",
        "GET",
        {"X-Auth-Token": "{ticket_id}-t0k", "X-Session-Secret": "abc", "Accept": "text/plain"},
    )
    executor = HttpExecutor({"query_tickets": target}, ["https://api.example"])
    request = ExecutionRequest(tool("query_tickets"), {"ticket_id": "R-1"})
    headers = executor.snapshot(request)["headers"]
    assert headers["X-Auth-Token"] == headers["X-Session-Secret"] == "***"
    assert headers["Accept"] == "text/plain"
    run(executor.aclose())


def test_a_server_that_nests_its_json_beyond_reason_is_a_malformed_response() -> None:
    """200 OK with ``[[[…]]]`` 100,000 deep: json's recursion limit, worded, not a traceback."""

    def handler(request: httpx.Request) -> httpx.Response:
        deep = "[" * 100_000 + "]" * 100_000
        return httpx.Response(200, text=deep, headers={"content-type": "application/json"})

    client = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    executor = HttpExecutor(
        {"search_policy": HttpTarget("https://api.example/search", "GET")},
        ["https://api.example"],
        client=client,
    )
    outcome = run(execute_with_policy(executor, ExecutionRequest(tool("search_policy"), {})))
    assert outcome.status == "error"
    assert outcome.error.code == "MALFORMED_RESPONSE"
    assert "nested" in outcome.error.message
