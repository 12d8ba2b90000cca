"""Run events reach SQLite in batches: one commit per round trip, durable points at once.

Counts the store's write transactions instead of timing them (timings belong
in benchmarks/runtime_overhead.py): a model turn and the read call it asks
for share one commit, a write's completion and the run's end are committed
before the run goes on, and nothing waits in memory longer than the flush
interval.
"""

from __future__ import annotations

import asyncio

import pytest

from registry_db import RegistryStore
from registry_db.sessions import SessionStore
from studio.runtime import ApprovalRequired, Run, RunConfig
from studio.runtime.loop import FLUSH_SECONDS
from tests.runtime.helpers import (
    CONTEXT,
    FakeClient,
    answer,
    assistant,
    call,
    travel_mocks,
    travel_registry,
)

TICKET = {"invoice_ids": ["INV-102"], "amount": 118.5, "reason": "client visit"}


class CountingSessions(SessionStore):
    """A SessionStore that counts its batch writes and remembers their event types."""

    batches: list[list[str]]
    synced: list[bool]

    def append_batch(self, session_id, events=(), messages=(), outcomes=(), *, synced=True):  # type: ignore[no-untyped-def]
        self.batches.append([type_ for _seq, _run, type_, _data in events])
        self.synced.append(synced)
        super().append_batch(session_id, events, messages, outcomes, synced=synced)


@pytest.fixture
def sessions(tmp_path):
    store = RegistryStore.open(tmp_path / "studio.sqlite3")
    counting = CountingSessions.for_store(store)
    assert isinstance(counting, CountingSessions)
    counting.batches = []
    counting.synced = []
    yield counting
    store.close()


def config() -> RunConfig:
    return RunConfig(travel_registry(), context=CONTEXT, mock=travel_mocks(), max_turns=100)


def test_read_round_trips_cost_one_commit_each(sessions):
    rounds = 8
    script = [assistant(call(f"c{i}", "search_policy", f'{{"q": "taxi {i}"}}'), text="Let me look")
              for i in range(rounds)]  # fmt: skip
    run = Run(FakeClient(*script, answer("Done.")), config(), sessions=sessions)
    run.guard.repeat_limit = 10**9
    result = asyncio.run(run.execute("taxi?"))
    assert result.status == "completed"
    # One commit per read call (at tool_call.executing) and one for the end of the run.
    assert len(sessions.batches) <= rounds + 2
    for batch in sessions.batches[:rounds]:
        assert batch[-1] == "tool_call.executing"
    # Reads never wait for the disk; they survive a killed process all the same.
    assert not any(sessions.synced)
    stored = sessions.events(result.session_id)
    assert [e.seq for e in stored] == list(range(1, len(stored) + 1))
    assert len(stored) == len(run.log) and stored[-1].type == "run.completed"
    assert len(sessions.messages(result.session_id)) == len(result.messages)
    assert len(sessions.outcomes("travel-reimbursement")) == rounds


def test_write_completion_and_approval_are_committed_before_the_run_goes_on(sessions):
    client = FakeClient(assistant(call("w1", "create_reimbursement_ticket", TICKET)),
                        answer("Filed."))  # fmt: skip
    run = Run(client, config(), sessions=sessions)
    seen: dict[str, list[str]] = {}

    async def drive():
        run.start("file it")
        async for event in run.events():
            if isinstance(event, ApprovalRequired):
                stored = [e.type for e in sessions.events(run.session_id)]
                seen["at approval"] = stored
                run.approve(event.call_id)
            elif event.type == "tool_call.completed":
                seen["at completion"] = [e.type for e in sessions.events(run.session_id)]
                seen["outcomes"] = [o.tool for o in sessions.outcomes("travel-reimbursement")]
        return await run.wait()

    assert asyncio.run(drive()).status == "completed"
    # The write's tool_call.executing is the one batch that waits for the disk.
    synced = [b for b, sync in zip(sessions.batches, sessions.synced, strict=True) if sync]
    assert synced == [["tool_call.executing"]]
    assert seen["at approval"][-1] == "approval.required"
    assert seen["at completion"][-1] == "tool_call.completed"
    assert seen["outcomes"] == ["create_reimbursement_ticket"]


def test_events_wait_at_most_the_flush_interval(sessions):
    # The model hangs mid-stream: the deltas before the hang reach the store anyway.
    client = FakeClient((answer("a long answer, streamed"), 0.5))
    run = Run(client, config(), sessions=sessions)

    async def drive():
        run.start("hello")
        await asyncio.sleep(FLUSH_SECONDS * 4)
        during = [e.type for e in sessions.events(run.session_id)]
        await run.wait()
        return during

    during = asyncio.run(drive())
    assert during[:2] == ["run.started", "model.request"]
    assert "message.delta" in during
