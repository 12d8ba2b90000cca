"""Step-through replay and replay-as-model through the current runtime."""

from __future__ import annotations

import asyncio
import json

from registry_db import load_examples
from studio.runtime import RunConfig, SessionContext
from studio.sessions.replay import ReplayModel, SessionReplay, replay_session
from tests.runtime.helpers import FakeClient, answer, travel_mocks
from tests.sessions.helpers import assistant, call, results, system, user

ARGS = {"start_date": "2026-11-01", "end_date": "2026-11-30", "category": "taxi"}
CTX = SessionContext("employee", "reimbursement", {"employee_id": "E-1001"})


def recorded() -> list:
    return [
        system("You are the travel-reimbursement assistant."),
        user("Can I claim my taxi invoice?"),
        assistant(call("c1", "query_invoices", ARGS), call("c2", "search_policy", {"q": "taxi"})),
        results(("c2", {"clause": "4.2"})),
        results(("c1", [{"id": "INV-102"}])),
        assistant(text="INV-102 is 38.5 over the limit."),
        user("and hotels?"),
        assistant(call("c3", "query_invoices", {**ARGS, "category": "hotel"})),
        assistant(text="No hotel invoices."),
    ]


def travel():
    return next(r for r in load_examples() if r.name == "travel-reimbursement")


def test_stepping_shows_pending_calls_and_jumps_to_problems() -> None:
    replay = SessionReplay(recorded())
    assert len(replay) == 9 and replay.current is None
    step = replay.jump(2)
    assert step is not None and [p.call_id for p in step.pending] == ["c1", "c2"]
    step = replay.next()
    assert step is not None and step.answered == ("c2",)
    assert [p.call_id for p in step.pending] == ["c1"]
    assert replay.next() is not None and replay.current.pending == ()  # type: ignore[union-attr]
    problem = replay.next_problem()
    assert problem is not None and problem.index == 7  # c3 is never answered
    assert {f.kind for f in problem.findings} == {"call-without-result"}
    assert [p.call_id for p in problem.pending] == ["c3"]
    assert replay.next_problem() is None and replay.position == 7
    assert replay.previous_problem() is None
    assert replay.previous() is not None and replay.position == 6
    replay.jump(0)
    assert replay.previous() is None and replay.position == -1
    assert replay.problem_steps == [7]


def test_replay_as_model_drives_the_current_runtime() -> None:
    model = ReplayModel(recorded())
    config = RunConfig(travel(), context=CTX, mock=travel_mocks())
    outcome = asyncio.run(replay_session(recorded(), config, model))
    assert [r.status for r in outcome] == ["completed", "completed"]
    final = outcome[-1].messages
    # the runtime executed the recorded calls itself and paired the results
    tool_messages = [m for m in final if m.tool_results]
    assert [r.id for r in tool_messages[0].tool_results] == ["c1", "c2"]
    mapped = json.loads(tool_messages[0].tool_results[1].content)
    assert mapped.get("ok") is not False  # alias q → query applied by the pipeline
    assert final[-1].text == "No hotel invoices."
    assert model.played == 4 and model.exhausted
    # the system message travelled with the history
    assert model.requests[0].messages[0].text.startswith("You are")


def test_fork_hands_over_to_a_live_model() -> None:
    live = FakeClient(answer("live answer"))
    model = ReplayModel(recorded())
    model.fork_at(5, live)  # the live model answers instead of the recorded message 5
    config = RunConfig(travel(), context=CTX, mock=travel_mocks())
    outcome = asyncio.run(replay_session(recorded(), config, model))
    assert len(outcome) == 1 and outcome[0].messages[-1].text == "live answer"
    assert model.played == 1 and model.live_turns == 1
    assert len(live.requests) == 1 and live.requests[0].messages[-1].tool_results


def test_exhausted_recording_fails_the_run_cleanly() -> None:
    history = [user("x"), assistant(call("c1", "search_policy", {"query": "taxi"}))]
    config = RunConfig(travel(), context=CTX, mock=travel_mocks())
    (result,) = asyncio.run(replay_session(history, config))
    assert result.status == "failed" and "no more assistant turns" in result.reason
