"""Sessions viewer → "Eval case…": a step's user turn and its calls become a case in a set.

The case comes from the same logic as ``studio eval from-sessions``; the
author sees it as JSON, chooses a set (or names a new one), and it is saved
there validated. A duplicate of a case already in the set is refused.
"""

from __future__ import annotations

import json

import pytest

from studio.evals.store import EvalStore
from studio.ui.evals.session_case import SessionCaseDialog, user_turn_of
from studio.ui.sessions.browser import SessionsView
from tests.ui.sessions_helpers import StubPrompts, make_store, playground_session

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
REGISTRY = "travel-reimbursement"


@pytest.fixture
def store(tmp_path):
    store = make_store(tmp_path / "studio.sqlite3")
    yield store
    store.close()


@pytest.fixture
def view(qtbot, store):
    session = playground_session(store)
    view = SessionsView(store, StubPrompts())
    qtbot.addWidget(view)
    view.resize(1280, 800)
    view.show()
    assert view.select_session(session)
    yield view
    view.shutdown()


def test_a_step_becomes_a_case_in_a_new_then_an_existing_set(qtbot, view, store) -> None:
    viewer = view.viewer
    assert viewer.add_case_button.isEnabled()
    answered: list[SessionCaseDialog] = []

    def answer(dialog: SessionCaseDialog) -> bool:
        answered.append(dialog)
        data = json.loads(dialog.editor.toPlainText())
        assert data["user"] == "November taxi invoices"
        assert data["expect"]["calls"][0]["tool"] == "query_invoices"
        assert "employee_id" not in data["expect"]["calls"][0].get("args", {})  # injected
        assert data["context"]["values"]["employee_id"] == "E-1"
        dialog.set_combo.setEditText("bad name!")
        assert dialog.validate()[-1].startswith("set: 'bad name!' is not a set name")
        dialog.set_combo.setEditText("from-gui")
        assert dialog.validate() == []
        dialog.accept()
        return True

    viewer.replay_bar.jump(3)  # the last step: the answer after the call
    from studio.ui.evals import session_case

    outcome = session_case.add_case_from_viewer(viewer, run_dialog=answer)
    assert isinstance(outcome, tuple) and outcome[0] == "from-gui"
    stored = EvalStore(store).load(REGISTRY, "from-gui")
    assert [c.user for c in stored.cases] == ["November taxi invoices"]

    # The same step again: the set has that case already, OK stays disabled.
    def again(dialog: SessionCaseDialog) -> bool:
        dialog.set_combo.setEditText("from-gui")
        problems = dialog.validate()
        assert problems[-1] == f"the set from-gui has this case already: {stored.cases[0].id}"
        assert not dialog.buttons.button(dialog.buttons.StandardButton.Ok).isEnabled()
        return False

    assert session_case.add_case_from_viewer(viewer, run_dialog=again) == "Nothing added"


def test_the_viewer_button_reports_what_happened(qtbot, view, monkeypatch) -> None:
    from studio.ui.evals import session_case

    monkeypatch.setattr(SessionCaseDialog, "exec", lambda self: (self.accept(), 1)[1])
    outcome = view.viewer.add_eval_case()
    assert isinstance(outcome, tuple)
    assert view.viewer.replay_status.text() == f"Added {outcome[1].id} to the eval set core"
    assert session_case.user_turn_of([], 0) == 0


def test_user_turn_of_counts_turns_up_to_the_step() -> None:
    from tests.sessions.helpers import assistant, call, user

    messages = [user("a"), assistant(call("c", "t", {})), user("b"), assistant(text="x")]
    assert [user_turn_of(messages, i) for i in range(4)] == [1, 1, 2, 2]
