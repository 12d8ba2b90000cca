"""Re-validation of a stored session against the draft and a modified version, in a worker."""

from __future__ import annotations

import pytest

from registry_db.sessions import SessionStore
from studio.sessions.library import load_messages
from studio.sessions.revalidate import FAILS, MAPPED, PASSES, TOOL_GONE
from studio.ui.sessions.browser import SessionsView
from studio.ui.sessions.revalidate_view import RevalidateView
from tests.ui.sessions_helpers import (
    StubPrompts,
    import_file,
    make_store,
    playground_session,
    require_category,
    write_problem_log,
)

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")


@pytest.fixture
def store(tmp_path):
    store = make_store(tmp_path / "studio.sqlite3")
    store.publish("travel-reimbursement", notes="as shipped")  # v1: category optional
    require_category(store)  # the draft: category now required
    yield store
    store.close()


def test_draft_versus_version_counts_a_call_that_now_fails(qtbot, store, tmp_path, qtmodeltester):
    (session_id,) = import_file(store, write_problem_log(tmp_path))
    view = RevalidateView(store)
    qtbot.addWidget(view)
    view.set_session(load_messages(SessionStore.for_store(store), session_id))
    assert [view.version_combo.itemData(i) for i in range(view.version_combo.count())] == [
        "draft",
        "1",
    ]

    view.choose("travel-reimbursement", "1")
    with qtbot.waitSignal(view.reportReady, timeout=10_000):
        assert view.run() is not None
    report = view.report
    assert report is not None and report.version == "1"
    assert report.counts[FAILS] == 0 and report.counts[TOOL_GONE] == 0
    assert view.table_model.rowCount() == 3  # every recorded call
    assert "3 recorded calls against travel-reimbursement 1" in view.summary.text()
    qtmodeltester.check(view.table_model)

    view.choose("travel-reimbursement", "draft")
    view.run()
    qtbot.waitUntil(
        lambda: view.report is not None and view.report.version == "draft", timeout=10_000
    )
    counts = view.report.counts
    assert counts[FAILS] == 2  # both query_invoices calls lack the now-required category
    assert counts[PASSES] + counts[MAPPED] == 1  # search_policy is unchanged
    failing = [r for r in view.table_model.rows() if r.status == FAILS]
    assert {r.tool for r in failing} == {"query_invoices"}
    assert all("category" in r.reason for r in failing)
    assert "<b>2</b> fails" in view.summary.text()
    assert view.run_button.isEnabled()


def test_gui_stays_responsive_and_a_stale_result_is_dropped(qtbot, store, tmp_path):
    (session_id,) = import_file(store, write_problem_log(tmp_path))
    view = RevalidateView(store)
    qtbot.addWidget(view)
    messages = load_messages(SessionStore.for_store(store), session_id)
    view.set_session(messages)
    view.choose("travel-reimbursement", "draft")
    view.run()
    view.set_session(messages)  # another selection before the worker reports
    assert view.runner.wait(10_000)
    qtbot.wait(50)  # let the queued report arrive
    assert view.report is None and view.table_model.rowCount() == 0


def test_browser_uses_the_recorded_context_and_feeds_problems_to_the_replay(qtbot, store, tmp_path):
    session_id = playground_session(store)
    view = SessionsView(store, StubPrompts())
    qtbot.addWidget(view)
    view.select_session(session_id)
    revalidate = view.revalidate_view
    assert revalidate.registry_combo.currentText() == "travel-reimbursement"
    assert revalidate.version_combo.currentData() == "draft"
    assert revalidate.context is not None and revalidate.context.role == "employee"
    assert "p1" in revalidate.recorded_prepared
    assert view.viewer.replay.problem_steps == []
    with qtbot.waitSignal(revalidate.reportReady, timeout=10_000):
        revalidate.run()
    assert revalidate.report.counts[FAILS] == 1
    # The failing call now counts as a problem of the replay.
    assert view.viewer.replay.problem_steps == [1]
    view.shutdown()
