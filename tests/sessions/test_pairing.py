"""Pairing analysis over internal messages."""

from __future__ import annotations

from studio.sessions.model import Message, Role, TextPart, ToolCallPart, ToolResultPart
from studio.sessions.pairing import PairingKind, Position, analyse_pairing


def user(text: str) -> Message:
    return Message(Role.USER, (TextPart(text),))


def calls(*ids: str, args: str = '{"start_date": "2026-11-01"}') -> Message:
    return Message(Role.ASSISTANT, tuple(ToolCallPart(i, "query_invoices", args) for i in ids))


def tool(cid: str) -> Message:
    return Message(Role.TOOL, (ToolResultPart(cid, '{"ok": true}'),))


def kinds(messages: list[Message]) -> list[str]:
    return [p.kind.value for p in analyse_pairing(messages).problems]


def test_well_formed_parallel_calls_have_no_problems() -> None:
    history = [
        user("show my taxi invoices"),
        calls("call_1", "call_2"),
        tool("call_2"),
        tool("call_1"),
    ]
    report = analyse_pairing(history)
    assert report.problems == ()
    assert [(p.call_id, p.call, p.result) for p in report.pairs] == [
        ("call_1", Position(1, 0), Position(3, 0)),
        ("call_2", Position(1, 1), Position(2, 0)),
    ]
    assert report.partner_of(Position(3, 0)) == Position(1, 0)


def test_unanswered_call_carries_the_provider_errors() -> None:
    report = analyse_pairing([user("x"), calls("call_1", "call_2"), tool("call_1")])
    (problem,) = [p for p in report.problems if p.kind is PairingKind.CALL_WITHOUT_RESULT]
    assert problem.position == Position(1, 1)
    assert problem.provider_errors["openai"].endswith(
        "The following tool_call_ids did not have response messages: call_2"
    )
    assert (
        "`tool_use` ids were found without `tool_result` blocks immediately after: call_2"
        in (problem.provider_errors["anthropic"])
    )
    assert PairingKind.COUNT_MISMATCH.value in kinds([user("x"), calls("a", "b"), tool("a")])


def test_orphan_and_misplaced_results() -> None:
    assert kinds([user("x"), tool("call_9")]) == ["result-without-call"]
    late = [user("x"), calls("call_1"), user("hm?"), tool("call_1")]
    found = kinds(late)
    assert "result-not-directly-after" in found
    wrong = [user("x"), calls("call_1"), tool("call_2")]
    assert set(kinds(wrong)) >= {"call-without-result", "result-without-call"}


def test_duplicates_and_invalid_arguments() -> None:
    history = [user("x"), calls("call_1"), tool("call_1"), calls("call_1"), tool("call_1")]
    found = kinds(history)
    assert "duplicate-call-id" in found and "duplicate-result-id" in found
    bad = [user("x"), calls("call_1", args='{"start_date": "2026-11-01",}'), tool("call_1")]
    (problem,) = analyse_pairing(bad).problems
    assert problem.kind is PairingKind.INVALID_ARGUMENTS_JSON
    assert "line 1 column" in problem.message


def test_anthropic_results_must_come_first() -> None:
    answer = Message(Role.USER, (TextPart("here you go"), ToolResultPart("toolu_1", "ok")))
    history = [user("x"), Message(Role.ASSISTANT, (ToolCallPart("toolu_1", "q", {}),)), answer]
    (problem,) = analyse_pairing(history).problems
    assert problem.kind is PairingKind.RESULT_NOT_FIRST
    assert problem.provider_errors["anthropic"].startswith("messages.2.content.1:")


def test_problems_at_locates_flags_by_message() -> None:
    report = analyse_pairing([user("x"), calls("call_1"), user("next")])
    assert [p.kind for p in report.problems_at(1)] == [PairingKind.CALL_WITHOUT_RESULT]
    assert report.problems_at(0) == []
