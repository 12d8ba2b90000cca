"""The playground end to end: the real providers and runtime on the scripted loopback server."""

from __future__ import annotations

import json

import pytest

from studio.runtime import ApprovalDecision
from studio.sessions.export import messages_from_export
from studio.sessions.pairing import analyse_pairing
from tests.providers.scripted_server import (
    ScriptedServer,
    ToolCall,
    Turn,
    validate_anthropic,
    validate_openai,
)
from tests.ui.playground_helpers import (
    KEY_ENV,
    Approvals,
    add_profile,
    make_store,
    make_view,
    until,
)

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
INVOICE_ARGS = '{"start_date": "2024-05-01", "end_date": "2024-05-10", "category": "taxi"}'
ALIAS_ARGS = '{"startDate": "2024-05-01", "to": "2024-05-10", "类别": "出租车"}'


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.setenv(KEY_ENV, "sk-test")
    store = make_store(tmp_path / "studio.sqlite3")
    yield store
    store.close()


def run_turns(loop, view, server_turns, prompt="Can I claim my taxi invoice INV-102?",
              kind="openai", check=None):  # fmt: skip
    with ScriptedServer(server_turns) as server:
        add_profile(view.store, server.base_url, kind)
        view.sidebar.refresh()
        view.sidebar.profile_combo.setCurrentText("scripted")

        async def go():
            view.prompt_edit.setPlainText(prompt)
            assert view.run_prompt() is not None
            if check is not None:
                await check(view)
            await until(lambda: view.controller.result is not None and not view.controller.busy)

        loop.run_until_complete(go())
        return server


def test_parallel_calls_render_paired_cards_with_matching_chips(loop, qtbot, store):
    view = make_view(qtbot, store)
    turns = [
        Turn(tool_calls=[ToolCall("query_invoices", INVOICE_ARGS, fragments=5),
                         ToolCall("search_policy", '{"keyword": "taxi"}', fragments=3)]),
        Turn(text="The taxi invoice INV-102 (118.5) exceeds the limit of 80.", text_fragments=4),
    ]  # fmt: skip
    run_turns(loop, view, turns)
    assert view.controller.result.status == "completed"
    model = view.model
    calls = [it for it in model.items() if it.kind == "call"]
    results = [it for it in model.items() if it.kind == "result"]
    assert len(calls) == 2 and len(results) == 2
    for call in calls:
        (result,) = [r for r in results if r.call_id == call.call_id]
        assert call.colour == result.colour >= 0
        assert (call.lane, call.colour, "start") in call.lanes
        assert (call.lane, call.colour, "end") in result.lanes
    assert calls[0].colour != calls[1].colour
    assert not model.report.problems
    # Hovering a call highlights its result, and selecting a result highlights its call.
    call_row = model.rows_of(calls[0].call_id)[0]
    result_row = model.rows_of(calls[0].call_id)[1]
    view.conversation.hover_row(call_row)
    assert model.highlight_of(model.item(result_row)) == "hover"
    assert model.highlight_of(model.item(model.rows_of(calls[1].call_id)[1])) == ""
    view.conversation.hover_row(None)
    view.conversation.select_row(result_row)
    assert model.highlight_of(model.item(call_row)) == "selected"
    assert view.inspector.text_of("Response summary").find('"status": "ok"') >= 0
    assert '"name": "query_invoices"' in view.inspector.text_of("Model intent")
    assert view.event_log.log_model.types()[-1] == "run.completed"
    assert "Total:" in view.inspector.usage_label.text()


def test_prepared_arguments_show_the_alias_mapping(loop, qtbot, store):
    from studio.ui.playground.card_html import argument_diff, call_html

    view = make_view(qtbot, store)
    turns = [Turn(tool_calls=[ToolCall("query_invoices", ALIAS_ARGS)]), Turn(text="ok")]
    run_turns(loop, view, turns)
    (call,) = [it for it in view.model.items() if it.kind == "call"]
    audit = view.model.audit_of(call.call_id)
    prepared = audit.prepared["arguments"]
    assert prepared["start_date"] == "2024-05-01" and prepared["category"] == "taxi"
    diff = argument_diff(json.loads(ALIAS_ARGS), prepared)
    assert diff["startDate"] == "removed" and diff["start_date"] == "added"
    assert diff["category"] == "added" and diff["employee_id"] == "added"
    html = call_html(call, audit, dark=False)
    assert "is an alias of" in html and "enum alias" in html
    assert "background:#d5f5dd" in html  # added keys highlighted


def test_write_call_pauses_for_one_confirmation_and_destructive_needs_the_phrase(
    loop, qtbot, store
):
    approvals = Approvals(ApprovalDecision(True), ApprovalDecision(True, ""),
                          ApprovalDecision(True, "delete_reimbursement_ticket"))  # fmt: skip
    view = make_view(qtbot, store, approval_prompt=approvals)
    create = '{"invoice_ids": ["INV-102"], "amount": 80, "reason": "taxi to the airport"}'
    delete = '{"ticket_id": "R-55821"}'
    turns = [
        Turn(tool_calls=[ToolCall("create_reimbursement_ticket", create)]),
        Turn(tool_calls=[ToolCall("delete_reimbursement_ticket", delete)]),
        Turn(tool_calls=[ToolCall("delete_reimbursement_ticket", delete)]),
        Turn(text="done"),
    ]
    run_turns(loop, view, turns)
    assert [r.tool for r in approvals.requests] == [
        "create_reimbursement_ticket", "delete_reimbursement_ticket",
        "delete_reimbursement_ticket",
    ]  # fmt: skip
    assert approvals.requests[0].phrase == ""
    assert approvals.requests[1].phrase == "delete_reimbursement_ticket"
    statuses = [view.model.audit_of(it.call_id).completed["status"]
                for it in view.model.items() if it.kind == "call"]  # fmt: skip
    assert statuses[0] == "ok" and statuses[1] == "denied" and statuses[2] != "denied"
    assert "approval.required" in view.event_log.log_model.types()


def test_the_approval_dialog_needs_the_typed_phrase(loop, qtbot, store):
    from PySide6.QtWidgets import QApplication

    from studio.ui.playground.approval_dialog import ApprovalDialog

    view = make_view(qtbot, store)
    turns = [Turn(tool_calls=[ToolCall("delete_reimbursement_ticket", '{"ticket_id": "R-55821"}')]),
             Turn(text="deleted")]  # fmt: skip

    async def answer(view):
        def dialog():
            return next((w for w in QApplication.topLevelWidgets()
                         if isinstance(w, ApprovalDialog) and w.isVisible()), None)  # fmt: skip

        await until(lambda: dialog() is not None)
        d = dialog()
        assert not d.approve_button.isEnabled()
        d.phrase_edit.setText("delete_reimbursement_ticket")
        assert d.approve_button.isEnabled()
        d.approve_button.click()

    run_turns(loop, view, turns, check=answer)
    (call,) = [it for it in view.model.items() if it.kind == "call"]
    audit = view.model.audit_of(call.call_id)
    assert audit.decided["approved"] is True and audit.executing["executor"] == "mock"


def test_stop_mid_stream_cancels_and_the_gui_stays_responsive(loop, qtbot, store):
    view = make_view(qtbot, store)
    long_text = "word " * 400
    turns = [Turn(text=long_text, text_fragments=200, chunk_delay=0.02)]
    ticks = []

    async def stop_midway(view):
        from PySide6.QtCore import QTimer

        timer = QTimer(view)
        timer.timeout.connect(lambda: ticks.append(1))
        timer.start(10)
        await until(lambda: len([it for it in view.model.items() if it.live]) == 1
                    and len(view.model.items()[-1].text) > 50)  # fmt: skip
        streamed = len(view.model.items()[-1].text)
        assert view.stop_button.isEnabled() and not view.run_button.isEnabled()
        assert view.status_label.text() == "Streaming…"
        view.stop()
        await until(lambda: view.controller.result is not None)
        timer.stop()
        assert streamed < len(long_text)

    run_turns(loop, view, turns, check=stop_midway)
    assert view.controller.result.status == "cancelled"
    assert view.event_log.log_model.types()[-1] == "run.cancelled"
    assert len(ticks) > 5  # Qt timers kept firing while the model streamed
    assert view.run_button.isEnabled() and not view.stop_button.isEnabled()


def test_run_again_from_here_starts_a_new_session_with_the_prefix(loop, qtbot, store):
    view = make_view(qtbot, store)
    turns = [
        Turn(tool_calls=[ToolCall("query_invoices", INVOICE_ARGS)]),
        Turn(text="first answer"),
        Turn(text="second answer"),
    ]
    with ScriptedServer(turns) as server:
        add_profile(store, server.base_url)
        view.sidebar.refresh()

        async def go():
            view.prompt_edit.setPlainText("taxi claim")
            view.run_prompt()
            await until(lambda: view.controller.result is not None)
            first = view.controller.session_id
            # Select the tool result (message 2) and run again from there.
            row = next(i for i, it in enumerate(view.model.items()) if it.kind == "result")
            view.conversation.select_row(row)
            assert view.run_again_from_selected() is not None
            await until(lambda: view.controller.result is not None)
            return first

        first = loop.run_until_complete(go())
    second = view.controller.session_id
    assert second != first
    info = view.sessions.get_session(second)
    assert info.parent_session_id == first and info.parent_message_index == 2
    texts = [m.text for m in view.model.messages]
    assert texts[0] == "taxi claim" and texts[-1] == "second answer"
    assert len(view.model.messages) == 4
    assert view.controller.result.status == "completed"


@pytest.mark.parametrize("fmt", ["openai", "anthropic"])
def test_export_passes_pairing_and_the_api_validation(loop, qtbot, store, tmp_path, fmt):
    target = tmp_path / f"{fmt}.json"
    view = make_view(qtbot, store, export_path=lambda _parent, _fmt: target)
    turns = [
        Turn(tool_calls=[ToolCall("query_invoices", INVOICE_ARGS),
                         ToolCall("search_policy", '{"keyword": "taxi"}')]),
        Turn(text="over the limit"),
    ]  # fmt: skip
    run_turns(loop, view, turns)
    assert view.export_to_file(fmt) == target
    document = json.loads(target.read_text(encoding="utf-8"))
    assert not analyse_pairing(messages_from_export(document)).problems
    if fmt == "openai":
        assert validate_openai({"model": "m", "messages": document["messages"]}) is None
    else:
        body = {"model": "m", "max_tokens": 10, "messages": document["messages"]}
        assert validate_anthropic(body, {"anthropic-version": "2023-06-01"}) is None
