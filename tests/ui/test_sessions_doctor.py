"""Repair…, Convert… and Trim… in the Sessions viewer: before | after, save as a linked session."""

from __future__ import annotations

import json

import pytest

from registry_db.sessions import SessionStore
from studio.sessions.pairing import analyse_pairing
from studio.ui.sessions.browser import SessionsView
from studio.ui.sessions.doctor_dialog import run_action
from tests.ui.sessions_helpers import (
    StubPrompts,
    duplicate_id_session,
    import_file,
    make_store,
    write_problem_log,
)

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")


@pytest.fixture
def store(tmp_path):
    store = make_store(tmp_path / "studio.sqlite3")
    yield store
    store.close()


@pytest.fixture
def view(qtbot, store, tmp_path):
    view = SessionsView(store, StubPrompts(export_to=tmp_path / "out.json"))
    qtbot.addWidget(view)
    view.resize(1280, 800)
    view.show()
    yield view
    view.shutdown()


def test_repair_shows_before_and_after_and_saves_a_linked_session(view, store, tmp_path):
    problems = import_file(store, write_problem_log(tmp_path))[0]
    view.refresh(select=problems)
    assert view.viewer.doctor_buttons["repair"].isEnabled()
    view.viewer.doctor_buttons["repair"].click()
    dialog = view.doctor_dialog
    assert dialog is not None and dialog.isVisible()
    dialog.provider.setCurrentIndex(dialog.provider.findData("anthropic"))
    before = [it for it in dialog.before.conversation.items() if it.problems]
    after = [it for it in dialog.after.conversation.items() if it.problems]
    assert before and not after  # the pairing views: problems before, none after
    lines = [dialog.changes.item(i).text() for i in range(dialog.changes.count())]
    assert any("add-result call_2" in line for line in lines)
    assert dialog.changes.currentRow() >= 0 and dialog.after.current_item() is not None
    new_id = dialog.save()
    info = SessionStore.for_store(store).get_session(new_id)
    assert (info.source, info.parent_session_id) == ("repair", problems)
    assert new_id in view.visible_ids()
    path = dialog.export()
    assert path is not None and json.loads(path.read_text())["messages"]


def test_convert_and_trim_dialogs(view, store):
    session_id = duplicate_id_session(store)
    view.refresh(select=session_id)
    dialog = view.open_doctor("convert")
    dialog.provider.setCurrentIndex(dialog.provider.findData("gemini"))
    assert dialog.after.conversation.rowCount() > 0
    trim = view.open_doctor("trim")
    trim.max_tokens.setValue(60)
    assert "kept " in trim.changes.item(trim.changes.count() - 1).text()
    assert analyse_pairing(trim.outcome.messages).problems == ()


def test_run_action_is_plain_data():
    from tests.sessions.helpers import assistant, call, user

    outcome = run_action("repair", [user("q"), assistant(call("c1", "search_policy", {}))])
    assert outcome.lines and outcome.positions == [1]


def test_a_renumbered_call_shows_the_logs_id_beside_the_studios(view, store, tmp_path):
    problems = import_file(store, write_problem_log(tmp_path))[0]
    view.refresh(select=problems)
    renumbered = [it for it in view.viewer.model.items() if it.file_id]
    assert renumbered and {it.file_id for it in renumbered} == {"call_1"}
    assert all(it.call_id != "call_1" for it in renumbered)
    flags = [p.message for it in view.viewer.model.items() for p in it.problems]
    assert not any("'call_1_0'" in m and "'call_1'" not in m for m in flags)
