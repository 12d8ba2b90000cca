"""The agent loop against a scripted in-process client, storing into a real SQLite file."""

from __future__ import annotations

import asyncio
import json

import pytest

from registry_db import RegistryStore
from registry_db.sessions import SessionStore
from studio.runtime import (
    ApprovalRequired,
    Run,
    RunConfig,
    auto_approver,
    event_from_record,
)
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

TICKET = {"invoice_ids": ["INV-102"], "amount": 118.5, "reason": "client visit"}


@pytest.fixture
def sessions(tmp_path):
    store = RegistryStore.open(tmp_path / "studio.sqlite3")
    yield SessionStore.for_store(store)
    store.close()


def config(**kw) -> RunConfig:
    return RunConfig(travel_registry(), context=CONTEXT, mock=travel_mocks(), **kw)


def test_parallel_calls_are_paired_and_everything_is_persisted(sessions):
    client = FakeClient(
        assistant(call("c1", "query_invoices", '{"start_date": "2024-05-01", "end_date": '
                                               '"2024-05-10", "category": "的士"}'),
                  call("c2", "search_policy", '{"q": "taxi limit"}')),
        answer("INV-102 is 118.5, 38.5 over the limit of 80."),
    )  # fmt: skip
    run = Run(client, config(), sessions=sessions)
    result = asyncio.run(run.execute("Can I claim my taxi?"))
    assert result.status == "completed"
    tool_msg = result.messages[2]
    assert [r.id for r in tool_msg.tool_results] == ["c1", "c2"]
    res = results_of(tool_msg)
    assert res["c1"]["data"]["invoices"][0]["amount"] == 118.5
    assert res["c2"]["data"]["clauses"][0]["limits"]["taxi_per_trip"] == 80
    stored = sessions.events(result.session_id)
    assert [e.seq for e in stored] == list(range(1, len(stored) + 1))
    assert stored[0].type == "run.started" and stored[-1].type == "run.completed"
    assert len(sessions.messages(result.session_id)) == 4
    assert {o.tool for o in sessions.outcomes("travel-reimbursement")} == {
        "query_invoices",
        "search_policy",
    }
    prepared = [event_from_record(e.seq, e.type, e.data) for e in stored
                if e.type == "tool_call.prepared"]  # fmt: skip
    assert prepared[0].arguments["category"] == "taxi"
    assert prepared[0].arguments["employee_id"] == "E-1001"


def test_write_waits_for_approval_through_the_run_api(sessions):
    client = FakeClient(assistant(call("w1", "create_reimbursement_ticket", TICKET)),
                        answer("Filed R-55821."))  # fmt: skip
    run = Run(client, config(), sessions=sessions)

    async def drive():
        run.start("file it")
        async for event in run.events():
            if isinstance(event, ApprovalRequired):
                assert run.status == "waiting_approval" and event.phrase == ""
                run.approve(event.call_id)
        return await run.wait()

    result = asyncio.run(drive())
    assert results_of(result.messages[2])["w1"]["data"]["ticket_id"] == "R-55821"
    key = results_of(result.messages[2])["w1"]["data"]["idempotency_key"]
    # {message_id} is the user message the call serves (index 0), not the assistant's.
    assert key.startswith(result.session_id + ":0:create_reimbursement_ticket:")


def test_denied_write_is_reported_to_the_model():
    client = FakeClient(assistant(call("w1", "create_reimbursement_ticket", TICKET)),
                        answer("OK, not filed."))  # fmt: skip
    run = Run(client, config(), approver=auto_approver("none"))
    result = asyncio.run(run.execute("file it"))
    res = results_of(result.messages[2])["w1"]
    assert res["ok"] is False and res["error_code"] == "DENIED_BY_USER"
    assert "DENIED_BY_USER" in client.requests[1].messages[-1].tool_results[0].content


@pytest.mark.parametrize(("phrase", "ok"), [("", False), ("wrong", False),
                                            ("delete_reimbursement_ticket", True)])  # fmt: skip
def test_destructive_call_needs_the_typed_phrase(phrase, ok):
    client = FakeClient(assistant(call("d1", "delete_reimbursement_ticket",
                                       {"ticket_id": "R-55821"})), answer("done"))  # fmt: skip
    run = Run(client, config())

    async def drive():
        run.start("delete R-55821")
        async for event in run.events():
            if isinstance(event, ApprovalRequired):
                assert event.phrase == "delete_reimbursement_ticket"
                run.approve(event.call_id, phrase=phrase)
        return await run.wait()

    res = results_of(asyncio.run(drive()).messages[2])["d1"]
    assert res["ok"] is ok
    if not ok:
        assert res["error_code"] == "DENIED_BY_USER"


def test_loop_guard_notes_then_ends_the_run_as_partial():
    same = '{"query": "taxi"}'
    client = FakeClient(*(assistant(call(f"c{i}", "search_policy", same)) for i in range(5)))
    run = Run(client, config())
    result = asyncio.run(run.execute("limit?"))
    assert result.status == "partial" and "repeated_call" in result.reason
    loops = [e for e in run.log if e.type == "loop.detected"]
    assert [e.action for e in loops] == ["note", "stop"]
    third = results_of(result.messages[6])["c2"]
    assert "change approach" in third["runtime_note"]
    assert results_of(result.messages[-1])["c3"]["error_code"] == "LOOP_DETECTED"
    assert run.log[-1].type == "run.completed" and run.log[-1].status == "partial"


def test_cancel_mid_stream_closes_the_stream_and_keeps_pairing(sessions):
    client = FakeClient((assistant(call("c1", "search_policy", {"query": "x"}), text="Let me"),
                         30.0))  # fmt: skip
    run = Run(client, config(), sessions=sessions)

    async def drive():
        run.start("limit?")
        async for event in run.events():
            if event.type == "message.delta":
                run.cancel()
        return await run.wait()

    result = asyncio.run(drive())
    assert result.status == "cancelled" and client.closed_streams == 1
    assert run.log[-1].type == "run.cancelled"
    assert sessions.get_session(result.session_id).status == "cancelled"
    assert sessions.events(result.session_id)[-1].type == "run.cancelled"


def test_cancel_while_waiting_for_approval_answers_the_pending_call():
    client = FakeClient(assistant(call("w1", "create_reimbursement_ticket", TICKET)))
    run = Run(client, config())

    async def drive():
        run.start("file it")
        async for event in run.events():
            if isinstance(event, ApprovalRequired):
                run.cancel()
        return await run.wait()

    result = asyncio.run(drive())
    assert result.status == "cancelled"
    assert results_of(result.messages[-1])["w1"]["error_code"] == "CANCELLED"
    assert run.log[-1].pending_calls == ("w1",)


def test_run_again_from_a_message(sessions):
    client = FakeClient(assistant(call("c1", "search_policy", {"query": "taxi"})),
                        answer("Limit 80."), answer("Again: limit 80."))  # fmt: skip
    first = asyncio.run(Run(client, config(), sessions=sessions).execute("limit?"))
    again = Run.from_session(client, config(), sessions, first.session_id, upto=2)
    result = asyncio.run(again.execute())
    assert result.session_id != first.session_id
    assert [m.role.value for m in result.messages] == ["user", "assistant", "tool", "assistant"]
    assert result.messages[-1].text == "Again: limit 80."
    info = sessions.get_session(result.session_id)
    assert info.parent_session_id == first.session_id and info.parent_message_index == 2
    assert len(sessions.messages(first.session_id)) == 4


def test_provider_error_fails_the_run():
    from studio.providers.base import ProviderError

    class Broken(FakeClient):
        async def stream(self, request):
            raise ProviderError("bad tool_call_id", status=400, type="invalid_request_error")
            yield  # pragma: no cover

    run = Run(Broken(), config())
    result = asyncio.run(run.execute("hi"))
    assert result.status == "failed" and run.log[-1].status == 400
    assert json.dumps(run.log[-1].data())
