"""Playground models without a run: pairing flags in place, model tester, event log, cards."""

from __future__ import annotations

import pytest

from studio.runtime import events as ev
from studio.sessions.model import Message, Role, TextPart, ToolCallPart, ToolResultPart
from studio.ui.playground.card_html import card_html
from studio.ui.playground.conversation import ConversationView
from studio.ui.playground.conversation_model import ConversationModel
from studio.ui.playground.event_log import EventLogModel
from studio.ui.playground.executor_model import ExecutorTableModel
from tests.runtime.helpers import travel_registry

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")


def broken_session() -> list[Message]:
    """call_a answered, call_b never answered, call_a's id reused by a second call."""
    return [
        Message(Role.USER, (TextPart("taxi claim"),)),
        Message(
            Role.ASSISTANT,
            (
                ToolCallPart("call_a", "query_invoices", '{"start_date": "2024-05-01"}'),
                ToolCallPart("call_b", "search_policy", '{"query": "taxi"}'),
            ),
        ),
        Message(Role.TOOL, (ToolResultPart("call_a", '{"ok": true}'),)),
        Message(Role.ASSISTANT, (ToolCallPart("call_a", "query_tickets", "{}"),)),
        Message(Role.TOOL, (ToolResultPart("call_a", '{"ok": true}'),)),
        Message(Role.ASSISTANT, (TextPart("done"),)),
    ]


def test_missing_result_and_duplicate_id_are_flagged_in_place(qtbot):
    view = ConversationView()
    qtbot.addWidget(view)
    view.resize(900, 600)
    model = view.conversation
    model.set_messages(broken_session())
    items = model.items()
    call_b = next(it for it in items if it.call_id == "call_b")
    kinds = {p.kind.value for p in call_b.problems}
    assert "call-without-result" in kinds
    html = card_html(call_b, model.audit_of("call_b"), dark=False)
    assert "did not have response messages: call_b" in html  # OpenAI's error text
    assert "OpenAI would answer" in html and "Anthropic would answer" in html
    duplicate = next(it for it in items if it.kind == "call" and it.name == "query_tickets")
    assert "duplicate-call-id" in {p.kind.value for p in duplicate.problems}
    assert "Duplicate value for 'tool_call_id'" in card_html(duplicate, model.audit_of(""), False)
    # The flagged rows are drawn without error and are taller than plain ones.
    view.show()
    qtbot.waitExposed(view)
    rows = {it.call_id + it.kind: i for i, it in enumerate(items)}
    flagged = view.visualRect(model.index(rows["call_bcall"]))
    assert flagged.height() > 0
    view.grab()


def test_conversation_model_passes_the_model_tester(qtmodeltester):
    model = ConversationModel()
    model.set_messages(broken_session())
    qtmodeltester.check(model, force_py=True)
    model.apply_event(ev.MessageDelta(seq=1, turn=1, kind="text", text="hel"))
    model.apply_event(ev.MessageDelta(seq=2, turn=1, kind="tool_call_start", index=0,
                                      call_id="call_z", name="search_policy"))  # fmt: skip
    model.apply_event(ev.MessageDelta(seq=3, turn=1, kind="tool_call_arguments", index=0,
                                      text='{"query"'))  # fmt: skip
    assert [it.live for it in model.items()][-2:] == [True, True]
    assert model.items()[-1].arguments == '{"query"'
    messages = [*broken_session(), Message(Role.USER, (TextPart("more"),))]
    model.sync_messages(messages)
    assert not any(it.live for it in model.items())
    qtmodeltester.check(model, force_py=True)


def test_event_log_folds_deltas_and_passes_the_model_tester(qtmodeltester):
    model = EventLogModel()
    model.append(ev.RunStarted(seq=1, session_id="s", registry="r", version="draft"))
    for seq in range(2, 12):
        model.append(ev.MessageDelta(seq=seq, turn=1, kind="text", text="ab"))
    model.append(ev.RunCancelled(seq=12, reason="stopped by the user"))
    assert model.types() == ["run.started", "message.delta", "run.cancelled"]
    assert model.row(1).summary == "10 streamed pieces, 20 characters"
    assert model.index(1, 0).data() == "2–11"
    qtmodeltester.check(model, force_py=True)


def test_executor_model_defaults_to_mock_and_passes_the_model_tester(qtmodeltester):
    model = ExecutorTableModel()
    model.set_registry(travel_registry())
    assert {c.executor for c in model.choices()} == {"mock"}
    assert model.setData(model.index(0, 2), "http")
    assert not model.setData(model.index(0, 2), "ftp")
    assert model.setData(model.index(0, 3), " https://api.example/x ")
    assert model.choices()[0].url == "https://api.example/x"
    qtmodeltester.check(model, force_py=True)
