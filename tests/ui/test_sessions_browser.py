"""The session browser: list and filters, the read-only viewer with flags, replay, export."""

from __future__ import annotations

import json

import pytest

from studio.sessions.importers import import_sessions
from studio.ui.main_window import MainWindow
from studio.ui.sessions.browser import SessionsView
from tests.ui.sessions_helpers import (
    FIXTURES,
    StubPrompts,
    duplicate_id_session,
    import_file,
    make_store,
    playground_session,
    write_problem_log,
)

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")


@pytest.fixture
def store(tmp_path):
    store = make_store(tmp_path / "studio.sqlite3")
    yield store
    store.close()


@pytest.fixture
def ids(store, tmp_path):
    return {
        "anthropic": import_file(store, FIXTURES / "anthropic.json")[0],
        "problems": import_file(store, write_problem_log(tmp_path))[0],
        "playground": playground_session(store),
        "duplicate": duplicate_id_session(store),
    }


@pytest.fixture
def view(qtbot, store, ids, tmp_path):
    view = SessionsView(store, StubPrompts(export_to=tmp_path / "out.json"))
    qtbot.addWidget(view)
    view.resize(1280, 800)
    view.show()
    yield view
    view.shutdown()


def row_of(view: SessionsView, session_id: str):
    return next(r for r in view.table_model.rows() if r.id == session_id)


def test_list_shows_every_session_with_its_problem_count(qtbot, view, ids, qtmodeltester):
    qtmodeltester.check(view.table_model)
    qtmodeltester.check(view.proxy)
    assert set(view.visible_ids()) == set(ids.values())
    # Sessions not counted when stored (a saved replay) are counted in the background.
    qtbot.waitUntil(lambda: row_of(view, ids["duplicate"]).problems >= 2, timeout=10_000)
    assert row_of(view, ids["anthropic"]).problems == 0
    assert row_of(view, ids["problems"]).problems >= 1  # call_2 never answered
    problems = row_of(view, ids["problems"])
    assert (problems.source, problems.model, problems.messages) == ("import", "gpt-4o", 6)
    assert view.count_label.text() == "4 sessions"


def test_filters_by_source_registry_and_text(view, ids):
    view.source_filter.setCurrentIndex(view.source_filter.findData("import"))
    assert set(view.visible_ids()) == {ids["anthropic"], ids["problems"]}
    assert view.count_label.text() == "2 of 4 sessions shown"
    view.source_filter.setCurrentIndex(0)
    view.registry_filter.setCurrentIndex(view.registry_filter.findData("travel-reimbursement"))
    assert set(view.visible_ids()) == {ids["playground"], ids["duplicate"]}
    view.text_filter.setText("duplicate")
    assert view.visible_ids() == [ids["duplicate"]]
    view.text_filter.clear()
    view.registry_filter.setCurrentIndex(0)
    assert len(view.visible_ids()) == 4


def test_selecting_shows_the_conversation_with_pairing_flags(view, ids, qtmodeltester):
    assert view.select_session(ids["duplicate"])
    model = view.viewer.model
    qtmodeltester.check(model)
    flagged = {p.kind.value: it.call_id for it in model.items() for p in it.problems}
    assert flagged.get("call-without-result") == "c3"
    assert "duplicate-call-id" in flagged and flagged["duplicate-call-id"] == "c1"
    assert "duplicate ids" in view.viewer.header.text()
    # Opening lands on the first problem (issue #14), not on the last step.
    first = view.viewer.replay.check.first_problem
    assert first is not None and view.viewer.replay.position == first.message
    assert view.viewer.replay.current.has_problem and "⚠" in view.viewer.findings_view.toPlainText()
    assert view.viewer.conversation.current_item().message == first.message
    assert view.viewer.visible_rows() < model.rowCount()

    view.select_session(ids["problems"])
    flagged = [(p.kind.value, it.call_id) for it in view.viewer.model.items() for p in it.problems]
    assert ("call-without-result", "call_2") in flagged


def test_selection_in_the_table_loads_the_session_and_its_events(view, ids, qtbot):
    view.select_session(ids["playground"])
    viewer = view.viewer
    assert viewer.event_log.log_model.types() == ["tool_call.proposed", "tool_call.prepared"]
    row = viewer.model.rows_of("p1")[0]
    viewer.conversation.select_row(row)
    assert "tool_call.proposed" not in viewer.inspector.text_of("Raw JSON")
    assert '"employee_id": "E-1"' in viewer.inspector.text_of("Raw JSON")  # prepared arguments
    assert '"name": "query_invoices"' in viewer.inspector.text_of("Model intent")


def test_replay_steps_next_previous_and_next_problem(view, ids):
    view.select_session(ids["problems"])
    bar, viewer = view.viewer.replay_bar, view.viewer
    bar.jump(0)
    assert viewer.replay.position == 0
    assert viewer.visible_rows() == 1  # only the user's message
    assert viewer.pending_model.rowCount() == 0
    assert bar.position_label.text().startswith("Step 1 / 6 · user")
    step = bar.next()
    assert step is not None and step.index == 1
    assert [c.call_id for c in viewer.pending_model.calls()] == ["call_1_0", "call_2"]
    assert viewer.conversation.current_item().message == 1
    assert viewer.conversation.isRowHidden(viewer.visible_rows())
    bar.next()
    assert [c.call_id for c in viewer.pending_model.calls()] == ["call_2"]
    assert "Answered here: call_1_0" in viewer.findings_view.toPlainText()
    bar.previous()
    assert viewer.replay.position == 1 and viewer.pending_model.rowCount() == 2
    assert bar.slider.value() == 1
    # Jump to the next problem: the problem steps lie ahead of the current one.
    problems = viewer.replay.problem_steps
    assert problems
    bar.jump(0)
    step = bar.next_problem()
    assert step is not None and step.index == problems[0] and step.has_problem
    assert "⚠" in viewer.findings_view.toPlainText()
    assert "problem" in bar.position_label.text()
    bar.slider.setValue(5)
    assert viewer.replay.position == 5
    assert viewer.visible_rows() == viewer.model.rowCount()
    assert not bar.next_button.isEnabled()


def test_export_writes_redacted_json(view, ids, tmp_path):
    view.select_session(ids["problems"])
    for fmt in ("openai", "anthropic", "jsonl"):
        view.prompts.export_to = tmp_path / f"out-{fmt}.json"
        path = view.export_session(fmt)
        assert path is not None
        text = path.read_text(encoding="utf-8")
        assert "sk-abcdefghijklmnopqrstuvwx" not in text and "[REDACTED]" in text
        (session,) = import_sessions(path).sessions
        assert len(session.messages) == len(view.messages)
    doc = json.loads((tmp_path / "out-openai.json").read_text())
    assert doc["messages"][0]["role"] == "user"
    view.prompts.export_to = None
    assert view.export_session("openai") is None


def test_sessions_mode_in_the_main_window(qtbot, store, ids):
    window = MainWindow(store)
    qtbot.addWidget(window)
    window.show()
    assert window.sessions_view is None
    window.sessions_action.trigger()
    assert window.modes.currentWidget() is window.sessions_view
    assert window.sessions_action.shortcut().toString() == "Ctrl+3"
    assert not window.versions_dock.isVisible()
    assert len(window.sessions_view.visible_ids()) == 4
    window.playground_actions.show_editor.trigger()
    assert window.modes.currentIndex() == 0 and window.versions_dock.isVisible()
    window.show_sessions()
    assert window.modes.currentWidget() is window.sessions_view
    window.close()
