"""Write intents end to end: a re-issued write keeps its key, waits for a lookup after an
UNKNOWN outcome, and is answered from the stored result after a success (issue #10, 6 and 11).

The tools run through the real HTTP executor against a loopback API that records
every request, so the counts below are what a backend would see.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from typing import Any

import pytest

from registry_db import RegistryStore
from registry_db.sessions import SessionStore
from studio.providers.base import ModelRequest
from studio.runtime import (
    HttpExecutor,
    HttpTarget,
    Run,
    RunConfig,
    auto_approver,
    event_from_record,
)
from studio.runtime.events import ApprovalRequired, ToolCallCompleted, ToolCallExecuting
from studio.runtime.idempotency import user_turn_index
from studio.runtime.pipeline import args_hash
from studio.runtime.results import parse_result_content
from studio.sessions.model import Message, Role, TextPart, ToolResultPart
from tests.runtime.helpers import (
    CONTEXT,
    FakeClient,
    answer,
    assistant,
    call,
    results_of,
    travel_mocks,
    travel_registry,
)
from tests.runtime.tool_api_server import ToolApiServer

CREATE = "create_reimbursement_ticket"
TICKET = {"invoice_ids": ["INV-102"], "amount": 118.5, "reason": "client visit"}
ROUTES = {
    "/tickets": {"ticket_id": "R-55821", "status": "submitted"},
    "/tickets/lookup": {"tickets": []},
}
HANG_FIRST_POST = {("POST", "/tickets"): [1.0]}


@pytest.fixture
def sessions(tmp_path):
    store = RegistryStore.open(tmp_path / "studio.sqlite3")
    yield SessionStore.for_store(store)
    store.close()


class ReadingClient(FakeClient):
    """A FakeClient whose script may hold functions of the request (to read earlier results)."""

    async def stream(self, request: ModelRequest):  # type: ignore[override]
        if callable(self.script[0]):
            self.script[0] = self.script[0](request)
        async for item in super().stream(request):
            yield item


def lookup_reported_key(call_id: str):
    """A script step: look the last reported idempotency key up with query_tickets."""

    def step(request: ModelRequest) -> Message:
        key = ""
        for message in request.messages:
            for part in message.tool_results:
                data = parse_result_content(part.content)
                key = data.get("idempotency_key", key)
        assert key, "no idempotency key was reported"
        return assistant(call(call_id, "query_tickets", {"idempotency_key": key}))

    return step


def http_config(api: ToolApiServer, *, timeout: float = 0.3) -> tuple[RunConfig, HttpExecutor]:
    registry = travel_registry(with_destructive=False)
    tools = tuple(
        replace(t, execution=replace(t.execution, timeout_seconds=timeout)) if t.name == CREATE
        else t for t in registry.tools
    )  # fmt: skip
    executor = HttpExecutor(
        {
            CREATE: HttpTarget(api.base_url + "/tickets", "POST"),
            "query_tickets": HttpTarget(
                api.base_url + "/tickets/lookup?idempotency_key={idempotency_key}", "GET"
            ),
        },
        [api.base_url],
    )
    config = RunConfig(replace(registry, tools=tools), context=CONTEXT, mock=travel_mocks(),
                       executors={CREATE: executor, "query_tickets": executor})  # fmt: skip
    return config, executor


def run(client, config, executor, sessions, prompt="File my taxi invoice INV-102.", **kw):
    async def go():
        try:
            r = Run(client, config, sessions=sessions, approver=auto_approver("write"), **kw)
            return await r.execute(prompt), r
        finally:
            await executor.aclose()

    return asyncio.run(go())


def tool_results(messages) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for m in messages:
        if m.role is Role.TOOL:
            out |= results_of(m)
    return out


def posts(api: ToolApiServer) -> list:
    return [r for r in api.requests if r.method == "POST" and r.path == "/tickets"]


def stored_events(sessions: SessionStore, session_id: str) -> list:
    return [event_from_record(e.seq, e.type, e.data, e.run_id)
            for e in sessions.events(session_id)]  # fmt: skip


def completed(events, call_id: str) -> ToolCallCompleted:
    return next(e for e in events if isinstance(e, ToolCallCompleted) and e.call_id == call_id)


def test_after_unknown_the_same_write_keeps_its_key_and_runs_only_after_a_lookup(sessions):
    with ToolApiServer(ROUTES, delays=HANG_FIRST_POST) as api:
        config, executor = http_config(api)
        client = ReadingClient(
            assistant(call("w1", CREATE, TICKET)),  # times out: UNKNOWN
            assistant(call("w2", CREATE, TICKET)),  # the model tries again at once
            lookup_reported_key("r1"),  # looks it up as told
            assistant(call("w3", CREATE, TICKET)),  # not found: files it again
            answer("Filed as R-55821."),
        )
        result, _ = run(client, config, executor, sessions)
    results = tool_results(result.messages)
    key = results["w1"]["idempotency_key"]
    assert results["w1"]["status"] == "UNKNOWN"
    assert key == f"{result.session_id}:0:{CREATE}:{args_hash({**TICKET, 'employee_id': 'E-1001'})}"
    # The re-issue within the same user turn is refused, not sent: check status first.
    refused = results["w2"]
    assert refused["error_code"] == "WRITE_OUTCOME_UNKNOWN" and refused["status"] == "UNKNOWN"
    assert refused["idempotency_key"] == key and refused["lookup_tools"] == ["query_tickets"]
    assert "query_tickets" in refused["hint"] and refused["first_call_id"] == "w1"
    assert results["r1"]["ok"] and results["w3"]["ok"]
    # What the backend saw: two POSTs (the timed-out one and the one after the
    # lookup), both with the same Idempotency-Key, so it can deduplicate them.
    sent = posts(api)
    assert len(sent) == 2
    assert {r.headers["Idempotency-Key"] for r in sent} == {key}
    lookups = [r for r in api.requests if r.path == "/tickets/lookup"]
    assert len(lookups) == 1 and key.split(":")[0] in lookups[0].target
    events = stored_events(sessions, result.session_id)
    assert completed(events, "w2").status == "refused"
    assert completed(events, "w2").duplicate_of == "w1"
    assert completed(events, "w3").status == "ok" and completed(events, "w3").duplicate_of == "w1"
    # Only the calls that could reach the backend asked for approval.
    asked = [e.call_id for e in events if isinstance(e, ApprovalRequired)]
    assert asked == ["w1", "w3"]
    outcomes = {o.call_id: o for o in sessions.outcomes(config.registry.name)}
    assert outcomes["w1"].status == "unknown" and outcomes["w1"].idempotency_key == key
    assert (outcomes["w2"].status, outcomes["w2"].duplicate_of) == ("refused", "w1")
    assert outcomes["w3"].duplicate_of == "w1" and outcomes["w3"].risk == "write"
    assert outcomes["r1"].risk == "read" and outcomes["r1"].duplicate_of == ""


def test_after_success_the_same_write_is_answered_from_the_stored_result(sessions):
    with ToolApiServer(ROUTES) as api:
        config, executor = http_config(api)
        client = FakeClient(
            assistant(call("w1", CREATE, TICKET)),
            assistant(call("w2", CREATE, json.dumps(TICKET))),  # same intent, next turn
            answer("Filed as R-55821."),
        )
        result, _ = run(client, config, executor, sessions)
    results = tool_results(result.messages)
    assert len(posts(api)) == 1  # the second call never reached the backend
    first, second = results["w1"], results["w2"]
    assert second["ok"] is True and second["data"] == first["data"] == ROUTES["/tickets"]
    assert second["replay"]["of_call_id"] == "w1"
    assert second["replay"]["idempotency_key"] == posts(api)[0].headers["Idempotency-Key"]
    events = stored_events(sessions, result.session_id)
    done = completed(events, "w2")
    assert (done.status, done.replay_of, done.duplicate_of) == ("replayed", "w1", "w1")
    assert done.idempotency_key == completed(events, "w1").idempotency_key
    prepared = next(e for e in events if e.type == "tool_call.prepared" and e.call_id == "w2")
    step9 = next(s for s in prepared.steps if s["step"] == 9)
    assert [c["action"] for c in step9["changes"]] == ["key", "replay"]
    assert not any(isinstance(e, ToolCallExecuting) and e.call_id == "w2" for e in events)
    assert [e.call_id for e in events if isinstance(e, ApprovalRequired)] == ["w1"]
    outcome = next(o for o in sessions.outcomes(config.registry.name) if o.call_id == "w2")
    assert (outcome.status, outcome.duplicate_of, outcome.risk) == ("replayed", "w1", "write")


def test_identical_writes_in_one_message_reach_the_backend_once(sessions):
    with ToolApiServer(ROUTES) as api:
        config, executor = http_config(api)
        client = FakeClient(
            assistant(call("w1", CREATE, TICKET), call("w2", CREATE, TICKET)),
            answer("Filed."),
        )
        result, _ = run(client, config, executor, sessions)
    results = tool_results(result.messages)
    assert len(posts(api)) == 1
    assert results["w2"]["data"] == results["w1"]["data"]
    assert results["w2"]["replay"]["of_call_id"] == "w1"
    events = stored_events(sessions, result.session_id)
    assert completed(events, "w2").status == "replayed"


def test_other_arguments_or_a_new_user_turn_are_new_intents(sessions):
    with ToolApiServer(ROUTES) as api:
        config, executor = http_config(api)
        other = {**TICKET, "amount": 80}
        client = FakeClient(
            assistant(call("w1", CREATE, TICKET), call("w2", CREATE, other)),
            answer("Filed both."),
            assistant(call("w3", CREATE, TICKET)),
            answer("Filed again, as you asked."),
        )
        first, _ = run(client, config, executor, sessions)
        config, executor = http_config(api)
        run(client, config, executor, sessions, prompt="File INV-102 once more.",
            session_id=first.session_id)  # fmt: skip
    keys = [r.headers["Idempotency-Key"] for r in posts(api)]
    assert len(keys) == len(set(keys)) == 3
    # The new user message (index 4) is a new request, so a new key.
    assert keys[2].startswith(f"{first.session_id}:4:{CREATE}:")
    assert keys[0].startswith(f"{first.session_id}:0:{CREATE}:")


def test_a_run_branched_from_a_stored_session_replays_a_write_of_the_prefix(sessions):
    with ToolApiServer(ROUTES) as api:
        config, executor = http_config(api)
        client = FakeClient(assistant(call("w1", CREATE, TICKET)), answer("Filed."))
        first, _ = run(client, config, executor, sessions)
        config, executor = http_config(api)
        # A new Run (nothing in memory) on a new session from the stored prefix
        # user → assistant(w1) → tool result; the model files it again.
        client = FakeClient(assistant(call("w2", CREATE, TICKET)), answer("Filed, R-55821."))

        async def go():
            try:
                branch = Run.from_session(client, config, sessions, first.session_id, upto=2,
                                          approver=auto_approver("write"))  # fmt: skip
                return await branch.execute()
            finally:
                await executor.aclose()

        result = asyncio.run(go())
    assert result.session_id != first.session_id
    assert len(posts(api)) == 1
    w2 = tool_results(result.messages)["w2"]
    assert w2["replay"]["of_call_id"] == "w1" and w2["data"] == ROUTES["/tickets"]
    # The branch keeps the key of the user turn it copied (the original session's).
    key = posts(api)[0].headers["Idempotency-Key"]
    assert key.startswith(first.session_id + ":0:") and w2["replay"]["idempotency_key"] == key


def test_a_branch_after_an_unknown_outcome_refuses_until_looked_up(sessions):
    with ToolApiServer(ROUTES, delays=HANG_FIRST_POST) as api:
        config, executor = http_config(api)
        client = FakeClient(assistant(call("w1", CREATE, TICKET)), answer("It may exist."))
        first, _ = run(client, config, executor, sessions)
        config, executor = http_config(api)
        client = ReadingClient(
            assistant(call("w2", CREATE, TICKET)),
            lookup_reported_key("r1"),
            assistant(call("w3", CREATE, TICKET)),
            answer("Filed."),
        )

        async def go():
            try:
                branch = Run.from_session(client, config, sessions, first.session_id, upto=2,
                                          approver=auto_approver("write"))  # fmt: skip
                return await branch.execute()
            finally:
                await executor.aclose()

        result = asyncio.run(go())
    results = tool_results(result.messages)
    assert results["w2"]["error_code"] == "WRITE_OUTCOME_UNKNOWN"
    assert results["w3"]["ok"] is True
    sent = posts(api)
    assert len(sent) == 2 and len({r.headers["Idempotency-Key"] for r in sent}) == 1


def test_a_write_cut_off_while_executing_counts_as_unknown_from_the_events(sessions):
    with ToolApiServer(ROUTES, delays={("POST", "/tickets"): [2.0]}) as api:
        config, executor = http_config(api, timeout=5.0)
        client = FakeClient(assistant(call("w1", CREATE, TICKET)))
        holder: dict[str, Run] = {}

        def on_event(event):
            if isinstance(event, ToolCallExecuting):
                holder["run"].cancel("stopped while the ticket was being filed")

        async def go():
            try:
                r = Run(client, config, sessions=sessions, approver=auto_approver("write"),
                        on_event=on_event)  # fmt: skip
                holder["run"] = r
                return await r.execute("File INV-102.")
            finally:
                await executor.aclose()

        first = asyncio.run(go())
        assert first.status == "cancelled"
        assert results_of(first.messages[-1])["w1"]["error_code"] == "CANCELLED"
        config, executor = http_config(api)
        client = FakeClient(assistant(call("w2", CREATE, TICKET)), answer("Unknown."))

        async def branch():
            try:
                b = Run.from_session(client, config, sessions, first.session_id, upto=2,
                                     approver=auto_approver("write"))  # fmt: skip
                return await b.execute()
            finally:
                await executor.aclose()

        result = asyncio.run(branch())
        sent = len(posts(api))
    assert tool_results(result.messages)["w2"]["error_code"] == "WRITE_OUTCOME_UNKNOWN"
    assert sent <= 1  # at most the cut-off attempt; the re-issue was not sent


def test_the_user_turn_skips_messages_that_only_carry_tool_results():
    messages = [
        Message(Role.USER, (TextPart("file it"),)),
        assistant(call("w1", CREATE, TICKET)),
        Message(Role.USER, (ToolResultPart("w1", "{}"),)),  # Anthropic-style results
        assistant(call("w2", CREATE, TICKET)),
    ]
    assert user_turn_index(messages, 1) == 0
    assert user_turn_index(messages, 3) == 0
    assert user_turn_index(messages, 0) is None
