"""The loop guard on its own."""

from __future__ import annotations

from studio.runtime import LoopGuard


def test_third_identical_call_notes_then_stops():
    guard = LoopGuard()
    sig = ("search_policy", "abc")
    assert guard.before_call(sig) is None
    assert guard.before_call(sig) is None
    verdict = guard.before_call(sig)
    assert verdict.reason == "repeated_call" and verdict.action == "note"
    assert "change approach" in verdict.note
    assert guard.before_call(sig).action == "stop"


def test_same_error_twice_in_a_row():
    guard = LoopGuard()
    assert guard.after_call("INVALID_ARGUMENTS") is None
    assert guard.after_call("INVALID_ARGUMENTS").reason == "repeated_error"
    guard = LoopGuard()
    guard.after_call("A")
    guard.after_call("")
    assert guard.after_call("A") is None


def test_abab_oscillation():
    guard = LoopGuard()
    a, b = ("t1", "x"), ("t2", "y")
    assert [guard.before_call(s) for s in (a, b, a)] == [None, None, None]
    assert guard.before_call(b).reason == "oscillation"


def test_execution_cap_counts_only_executions():
    guard = LoopGuard(max_tool_calls=2)
    assert guard.before_call(("t", "1")) is None
    assert guard.before_call(("t", "2"), executes=False) is None
    assert guard.before_call(("t", "3")) is None
    assert guard.before_call(("t", "4")).reason == "max_tool_calls"
