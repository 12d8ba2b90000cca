"""Playground models without a run: pairing flags, model tester, event log, cards, mock drafts."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from studio.runtime import events as ev
from studio.sessions.model import Message, Role, TextPart, ToolCallPart, ToolResultPart
from studio.ui.playground.card_html import card_html
from studio.ui.playground.conversation import ConversationView
from studio.ui.playground.conversation_model import ConversationModel
from studio.ui.playground.event_log import EventLogModel
from studio.ui.playground.executor_model import ExecutorTableModel
from studio.ui.playground.mock_draft import (
    DEFAULT,
    MockDraft,
    matcher_value_text,
    parse_matcher_value,
)
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


def test_executor_model_defaults_to_mock_and_passes_the_model_tester(qtmodeltester, qtbot):
    model = ExecutorTableModel()
    target = {"method": "GET", "url": "https://api.example/tickets/{ticket_id}", "headers": {}}
    mocks = {"query_invoices": {"responses": [{"body": {}}], "default": {"body": {}}}}
    model.set_registry(travel_registry(), {"query_tickets": ("http", target)}, mocks)
    executors = {c.tool: c.executor for c in model.choices()}
    assert executors.pop("query_tickets") == "http"
    assert set(executors.values()) == {"mock"}
    tickets = model.choice("query_tickets")
    assert tickets.target_summary() == "GET https://api.example/tickets/{ticket_id}"
    assert model.index(2, 3).data() == "GET /tickets/{ticket_id}"  # the sidebar's short form
    assert model.choice("query_invoices").target_summary() == "1 response + default"
    assert model.choice("search_policy").target_summary() == "no mocks: double-click to add"
    with qtbot.wait_signal(model.executorChanged) as changed:
        assert model.setData(model.index(0, 2), "http")
    assert changed.args == ["search_policy", "http"]
    assert model.choice("search_policy").target_summary() == "no URL yet: double-click to set"
    assert not model.setData(model.index(0, 2), "ftp")
    assert not model.setData(model.index(0, 3), "https://api.example/x")  # edited in a dialog
    assert "(read)" in model.index(0, 0).data(Qt.ItemDataRole.ToolTipRole)
    qtmodeltester.check(model, force_py=True)


def test_mock_draft_keeps_untouched_specs_and_lists_only_real_changes():
    saved = {"a": {"responses": [{"when": [{"path": "x", "equals": "80"}], "extra": 1}],
                   "default": {"body": 1}}}  # fmt: skip
    draft = MockDraft(saved)
    assert draft.slots("a") == [0, DEFAULT] and not draft.dirty()
    draft.set_response("a", 0, dict(saved["a"]["responses"][0]))
    assert not draft.dirty() and draft.changes() == ({}, [])
    assert draft.move("a", 0, 1) == 0  # the default stays last
    draft.add_response("a", {"body": 2})
    assert draft.move("a", 1, -1) == 0 and draft.responses("a")[0] == {"body": 2}
    draft.remove("a", 0)
    draft.remove("a", 0)
    draft.remove("a", DEFAULT)
    assert draft.changes() == ({}, ["a"])
    draft.revert("a")
    assert not draft.dirty()
    draft.add_default("b", {"body": {}})
    assert draft.changes() == ({"b": {"default": {"body": {}}}}, [])


@pytest.mark.parametrize(
    ("value", "op", "text"),
    [("taxi", "equals", "taxi"), ("80", "equals", '"80"'), (80, "equals", "80"),
     (118.5, "equals", "118.5"), (True, "contains", "true"), (["INV-102"], "contains",
     '["INV-102"]'), ("^R-\\d{5}$", "regex", "^R-\\d{5}$"), ("", "equals", '""')],
)  # fmt: skip
def test_matcher_values_read_back_as_they_were(value, op, text):
    assert matcher_value_text(value, op) == text
    assert parse_matcher_value(text, op) == value
