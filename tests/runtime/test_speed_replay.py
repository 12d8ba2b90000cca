"""Replay steps cost the same at message 10 and at message 100,000.

Asserted as work, not time: steps share the pending-calls state unless their
message changed it (building a long log's steps stays linear even with calls
left open), and jumping to the next or previous problem does not walk the
problems passed so far.
"""

from __future__ import annotations

from studio.sessions.model import Message, Role, TextPart, ToolCallPart, ToolResultPart
from studio.sessions.replay import SessionReplay


def _log(rounds: int) -> list[Message]:
    """An open call first (never answered), then rounds of user → call → result → answer."""
    messages = [
        Message(Role.USER, (TextPart("start"),)),
        Message(Role.ASSISTANT, (ToolCallPart("open", "search_policy", {"q": "x"}),)),
    ]
    for i in range(rounds):
        messages += [
            Message(Role.USER, (TextPart(f"question {i}"),)),
            Message(Role.ASSISTANT, (ToolCallPart(f"c{i}", "search_policy", {"q": str(i)}),)),
            Message(Role.TOOL, (ToolResultPart(f"c{i}", "clause 4.2", False, "search_policy"),)),
            Message(Role.ASSISTANT, (TextPart(f"answer {i}"),)),
        ]
    return messages


def test_steps_share_the_pending_state_their_message_did_not_change():
    replay = SessionReplay(_log(2_000))
    steps = replay.steps
    assert len(steps) == 2 + 4 * 2_000
    # A user message and a text answer change nothing: same tuple as the step before.
    assert steps[2].pending is steps[1].pending
    assert steps[5].pending is steps[4].pending
    assert [p.call_id for p in steps[3].pending] == ["open", "c0"]
    assert [p.call_id for p in steps[4].pending] == ["open"]
    distinct = {id(s.pending) for s in steps}
    assert len(distinct) <= 1 + 2 * 2_000 + 1


def test_problem_jumps_land_where_a_scan_would():
    replay = SessionReplay(_log(300))
    problems = replay.problem_steps
    assert problems, "the open call is a problem"
    for start in (-1, 0, 1, problems[0], len(replay) // 2, len(replay) - 1):
        replay.jump(start)
        expected_next = next((i for i in problems if i > replay.position), None)
        got = replay.next_problem()
        assert (got.index if got else None) == expected_next
        replay.jump(start)
        expected_previous = next((i for i in reversed(problems) if i < replay.position), None)
        got = replay.previous_problem()
        assert (got.index if got else None) == expected_previous
