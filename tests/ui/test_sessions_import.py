"""Import log…: progress and Cancel in a worker, errors and warnings listed, tools as a draft."""

from __future__ import annotations

import json
import threading

import pytest

from studio.ui.sessions.browser import SessionsView
from studio.ui.sessions.import_dialog import draft_name_for
from tests.ui.sessions_helpers import FIXTURES, StubPrompts, make_store

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")


@pytest.fixture
def store(tmp_path):
    store = make_store(tmp_path / "studio.sqlite3")
    yield store
    store.close()


@pytest.fixture
def view(qtbot, store):
    view = SessionsView(store, StubPrompts(log_file=FIXTURES / "openai_messy.json"))
    qtbot.addWidget(view)
    yield view
    view.shutdown()


def big_log(path, calls: int = 3000):
    lines = []
    for i in range(calls):
        conversation = [
            {"role": "user", "content": f"question {i}"},
            {"role": "assistant", "content": f"answer {i}"},
        ]
        lines.append(json.dumps({"messages": conversation}))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_import_reports_errors_and_warnings_and_the_session_appears(qtbot, view):
    dialog = view.import_log()
    dialog.browse()  # the stubbed file chooser
    assert view.prompts.asked == ["log file"]
    assert dialog.draft_edit.text() == "openai-messy-tools"
    progress: list[tuple[int, int]] = []
    with qtbot.waitSignal(dialog.imported, timeout=10_000):
        job = dialog.start()
        job.signals.progress.connect(lambda d, t: progress.append((d, t)))
    outcome = dialog.outcome
    assert outcome is not None and not outcome.cancelled
    assert len(dialog.session_ids) == 1
    text = dialog.report.toPlainText()
    error = outcome.errors[0]
    assert f"error: openai_messy.json:{error.line}: {error.path}: {error.message}" in text
    assert "warning: openai_messy.json:" in text
    assert "Imported 1 session" in dialog.status.text()
    assert dialog.progress.value() == dialog.progress.maximum()
    assert view.visible_ids() == dialog.session_ids
    assert view.info is not None and view.info.id == dialog.session_ids[0]


def test_cancel_through_the_injected_event(qtbot, view, tmp_path):
    dialog = view.import_log()
    cancel = threading.Event()
    cancel.set()
    job = dialog.start(big_log(tmp_path / "big.jsonl"), cancel=cancel)
    assert job is not None
    qtbot.waitUntil(lambda: dialog.outcome is not None, timeout=10_000)
    assert dialog.outcome.cancelled
    assert dialog.outcome.sessions == [] and dialog.session_ids == []
    assert dialog.status.text().startswith("Cancelled; kept 0 sessions")
    assert dialog.import_button.isEnabled() and not dialog.cancel_button.isEnabled()


def test_cancel_button_stops_a_running_import(qtbot, view, tmp_path):
    dialog = view.import_log()
    path = big_log(tmp_path / "big.jsonl", 20_000)
    dialog.start(path)
    assert dialog.cancel_button.isEnabled() and not dialog.import_button.isEnabled()
    dialog.cancel_button.click()
    assert dialog.cancel_event.is_set()
    qtbot.waitUntil(lambda: dialog.outcome is not None, timeout=20_000)
    # Cancelled mid-file (what was read is kept), or finished before the click landed.
    assert dialog.outcome.cancelled or len(dialog.outcome.sessions) == 20_000
    assert len(dialog.session_ids) == len(dialog.outcome.sessions)


def test_tools_of_the_log_become_a_registry_draft(qtbot, view, store):
    dialog = view.import_log()
    dialog.tools_check.setChecked(True)
    dialog.draft_edit.setText("from-log")
    with qtbot.waitSignal(dialog.imported, timeout=10_000):
        dialog.start(FIXTURES / "openai_chat.json", fmt="openai")
    assert dialog.draft_registry == "from-log"
    names = [t.name for t in store.draft_registry("from-log").tools]
    assert len(names) == 2
    assert "2 tool(s) in the draft of from-log" in dialog.status.text()
    assert view.revalidate_view.registry_combo.findText("from-log") >= 0


def test_unreadable_file_is_reported(qtbot, view, tmp_path):
    dialog = view.import_log()
    dialog.start(tmp_path / "missing.json")
    qtbot.waitUntil(lambda: dialog.import_button.isEnabled(), timeout=10_000)
    assert dialog.status.text().startswith("Could not read the file")
    assert dialog.outcome is None


def test_draft_name_from_the_file_name(tmp_path):
    assert draft_name_for(tmp_path / "Prod Log 2026.jsonl") == "prod-log-2026-tools"


def test_a_folder_of_agent_transcripts_is_imported(qtbot, view):
    dialog = view.import_log()
    with qtbot.waitSignal(dialog.imported, timeout=10_000):
        dialog.start(FIXTURES / "claude_projects")
    assert len(dialog.session_ids) == 3  # live chain, abandoned branch, subagent
    assert "Imported 3 sessions" in dialog.status.text()
    files = {r.file for r in view.table_model.rows()}
    assert "-home-dev-travel/5f1c2a9e-0000-4000-8000-000000000001.jsonl" in files
