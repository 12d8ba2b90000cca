"""The real providers and the runtime against the scripted model server on loopback."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace

import pytest

from registry_db import RegistryStore
from registry_db.sessions import SessionStore
from studio.contract import Execution, TimeoutTier
from studio.providers import AnthropicMessagesClient, OpenAIChatClient
from studio.runtime import (
    ApprovalRequired,
    MockExecutor,
    Run,
    RunConfig,
    auto_approver,
    parse_mocks,
)
from studio.runtime.results import parse_result_content
from tests.providers.scripted_server import ScriptedServer, ToolCall, Turn
from tests.runtime.helpers import CONTEXT, travel_mocks, travel_registry

KINDS = ["openai", "anthropic"]
INVOICE_ARGS = '{"start_date": "2024-05-01", "end_date": "2024-05-10", "category": "taxi"}'


def client(kind: str, server: ScriptedServer):
    if kind == "openai":
        return OpenAIChatClient(server.base_url + "/v1", "scripted-model", "sk-test")
    return AnthropicMessagesClient(server.base_url, "scripted-model", "sk-ant-test")


@pytest.fixture
def sessions(tmp_path):
    store = RegistryStore.open(tmp_path / "studio.sqlite3")
    yield SessionStore.for_store(store)
    store.close()


def config(**kw) -> RunConfig:
    kw.setdefault("mock", travel_mocks())
    return RunConfig(travel_registry(), context=CONTEXT, **kw)


def tool_results(server: ScriptedServer, kind: str) -> list[dict]:
    """Tool results the server received in the last request, parsed."""
    body = server.model_requests[-1].body
    out = []
    for message in body["messages"]:
        if kind == "openai" and message["role"] == "tool":
            out.append(parse_result_content(message["content"]))
        if kind == "anthropic" and isinstance(message.get("content"), list):
            for block in message["content"]:
                if block.get("type") == "tool_result":
                    content = block["content"]
                    text = content if isinstance(content, str) else content[0]["text"]
                    out.append(parse_result_content(text))
    return out


def execute(kind, turns, cfg=None, **run_kw):
    async def go():
        with ScriptedServer(turns) as server:
            model = client(kind, server)
            try:
                result = await Run(model, cfg or config(), **run_kw).execute("taxi claim")
            finally:
                await model.aclose()
            return result, server

    return asyncio.run(go())


@pytest.mark.parametrize("kind", KINDS)
def test_the_reimbursement_story_with_parallel_fragmented_calls(kind, sessions):
    turns = [
        Turn(tool_calls=[ToolCall("query_invoices", INVOICE_ARGS, fragments=9),
                         ToolCall("search_policy", '{"query": "taxi limit"}', fragments=4)],
             interleave=True),
        Turn(tool_calls=[ToolCall("create_reimbursement_ticket", json.dumps(
            {"invoice_ids": ["INV-102"], "amount": 118.5, "reason": "client visit",
             "over_limit_explanation": "late night"}), fragments=7)]),
        Turn(text="Filed R-55821 for 118.5 (38.5 over the limit of 80).", text_fragments=5),
    ]  # fmt: skip
    result, server = execute(kind, turns, sessions=sessions, approver=auto_approver("write"))
    assert result.status == "completed", result.reason
    results = tool_results(server, kind)
    assert results[0]["data"]["invoices"][0]["id"] == "INV-102"
    assert results[1]["data"]["clauses"][0]["clause"] == "4.2"
    assert results[2]["data"]["ticket_id"] == "R-55821"
    assert "R-55821" in result.messages[-1].text
    types = [e.type for e in sessions.events(result.session_id)]
    for needed in ("run.started", "model.request", "message.delta", "tool_call.proposed",
                   "tool_call.prepared", "approval.required", "approval.decided",
                   "tool_call.executing", "tool_call.completed", "run.completed"):  # fmt: skip
        assert needed in types
    snapshot = json.dumps([e.data for e in sessions.events(result.session_id)])
    assert "sk-test" not in snapshot and "sk-ant-test" not in snapshot


@pytest.mark.parametrize("kind", KINDS)
def test_invalid_json_is_fed_back_and_corrected(kind):
    turns = [
        Turn(tool_calls=[ToolCall("search_policy", '{"query": "taxi" "top_k": 1}', fragments=3)]),
        Turn(tool_calls=[ToolCall("search_policy", '{"query": "taxi", "top_k": 1}')]),
        Turn(text="80 per trip."),
    ]
    result, server = execute(kind, turns)
    assert result.status == "completed"
    first, second = tool_results(server, kind)
    if kind == "openai":
        assert first["error_code"] == "INVALID_ARGUMENTS_JSON" and "position" in first
    else:  # Anthropic's wire needs an object: the client reports what it could not parse
        assert first["ok"] is False
    assert second["ok"] is True


@pytest.mark.parametrize("kind", KINDS)
def test_unknown_tool_aliases_coercion_and_injected_field(kind):
    turns = [
        Turn(tool_calls=[
            ToolCall("search_policies", '{"query": "taxi"}'),
            ToolCall("query_invoices", '{"startDate": "2024-05-01", "to": "2024-05-10", '
                                       '"类别": "出租车", "employee_id": "E-9999"}'),
            ToolCall("search_policy", '{"keyword": ["taxi"], "topK": "2"}'),
        ]),
        Turn(text="done"),
    ]  # fmt: skip
    _result, server = execute(kind, turns)
    unknown, invoices, policy = tool_results(server, kind)
    assert unknown["error_code"] == "UNKNOWN_TOOL" and "search_policy" in unknown["close_names"]
    assert invoices["ok"] and policy["ok"]


def test_injected_value_reaches_the_executor_not_the_models():
    mocks = travel_mocks()
    turns = [Turn(tool_calls=[ToolCall("query_tickets", '{"employee_id": "E-9999"}')]),
             Turn(text="ok")]  # fmt: skip
    execute("openai", turns, config(mock=mocks))
    assert mocks.calls[0].arguments["employee_id"] == "E-1001"


@pytest.mark.parametrize("kind", KINDS)
def test_destructive_call_without_and_with_the_phrase(kind):
    args = '{"ticket_id": "R-55821"}'
    turns = [Turn(tool_calls=[ToolCall("delete_reimbursement_ticket", args)]),
             Turn(tool_calls=[ToolCall("delete_reimbursement_ticket", args)]),
             Turn(text="deleted")]  # fmt: skip
    typed = iter(["", "delete_reimbursement_ticket"])

    async def go():
        with ScriptedServer(turns) as server:
            model = client(kind, server)
            run = Run(model, config())
            run.start("delete R-55821")
            async for event in run.events():
                if isinstance(event, ApprovalRequired):
                    run.approve(event.call_id, phrase=next(typed))
            await run.wait()
            await model.aclose()
            return server

    server = asyncio.run(go())
    first, second = tool_results(server, kind)
    assert first["error_code"] == "DENIED_BY_USER" and second["ok"] is True


def test_write_timeout_is_unknown_and_not_retried():
    registry = travel_registry()
    tools = tuple(
        replace(t, execution=replace(Execution.for_tier(TimeoutTier.WRITE), timeout_seconds=0.1))
        if t.name == "create_reimbursement_ticket" else t
        for t in registry.tools
    )  # fmt: skip
    mocks = MockExecutor(parse_mocks({"tools": {
        "create_reimbursement_ticket": {"default": {"fail": "timeout"}}}}).tools)  # fmt: skip
    cfg = RunConfig(replace(registry, tools=tools), context=CONTEXT, mock=mocks)
    args = '{"invoice_ids": ["INV-102"], "amount": 118.5, "reason": "visit"}'
    turns = [Turn(tool_calls=[ToolCall("create_reimbursement_ticket", args)]),
             Turn(text="I will check whether it was created.")]  # fmt: skip
    _result, server = execute("openai", turns, cfg, approver=auto_approver("write"))
    (res,) = tool_results(server, "openai")
    assert res["status"] == "UNKNOWN" and res["error_code"] == "OUTCOME_UNKNOWN"
    assert res["idempotency_key"] in res["hint"] and len(mocks.calls) == 1


def test_429_with_retry_after_is_honoured_in_a_run():
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    mocks = MockExecutor(parse_mocks({"tools": {"search_policy": {
        "responses": [{"fail": "429", "retry_after": 1.5, "times": 1}],
        "default": {"body": {"clauses": [{"clause": "4.2"}]}}}}}).tools)  # fmt: skip
    turns = [Turn(tool_calls=[ToolCall("search_policy", '{"query": "taxi"}')]), Turn(text="80")]
    _result, server = execute("openai", turns, config(mock=mocks, sleep=sleep))
    (res,) = tool_results(server, "openai")
    assert res["ok"], res
    assert waits == [1.5] and len(mocks.calls) == 2


@pytest.mark.parametrize("kind", KINDS)
def test_loop_guard_on_repeated_identical_calls(kind):
    same = ToolCall("search_policy", '{"query": "taxi"}')
    turns = [Turn(tool_calls=[same]) for _ in range(4)]
    result, server = execute(kind, turns)
    assert result.status == "partial" and "repeated_call" in result.reason
    assert len(server.model_requests) == 4


@pytest.mark.parametrize("kind", KINDS)
def test_cancellation_mid_stream_closes_the_connection(kind, sessions):
    turns = [Turn(text="Let me look that up for you", text_fragments=4, hang=True)]

    async def go():
        with ScriptedServer(turns) as server:
            model = client(kind, server)
            run = Run(model, config(), sessions=sessions)
            run.start("taxi?")
            async for event in run.events():
                if event.type == "message.delta":
                    run.cancel()
            result = await run.wait()
            await model.aclose()
            gone = await asyncio.to_thread(server.wait_disconnected, 5.0)
            return result, gone

    result, gone = asyncio.run(go())
    assert result.status == "cancelled" and gone
    assert sessions.events(result.session_id)[-1].type == "run.cancelled"
