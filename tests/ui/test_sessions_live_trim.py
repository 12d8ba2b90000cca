"""Trim… in the Sessions viewer: exact token counts once the tokenizer is loaded, else estimates."""

from __future__ import annotations

from registry_db import RegistryStore
from registry_db.sessions import SessionStore
from studio.ui.sessions.doctor_dialog import DoctorDialog, run_action
from tests.sessions.test_live_trim_tokens import HISTORY
from tests.ui.sessions_helpers import StubPrompts


def _dialog(qtbot, tmp_path) -> tuple[DoctorDialog, RegistryStore]:
    store = RegistryStore.open(tmp_path / "studio.sqlite3")
    sessions = SessionStore.for_store(store)
    info = sessions.create_session(title="long")
    dialog = DoctorDialog("trim", HISTORY, info, sessions, StubPrompts())
    qtbot.addWidget(dialog)
    return dialog, store


def _token_line(dialog: DoctorDialog) -> str:
    lines = [dialog.changes.item(i).text() for i in range(dialog.changes.count())]
    return next(line for line in lines if line.startswith("kept "))


def test_trim_counts_with_o200k_base_for_openai(qtbot, tmp_path, exact_tokens) -> None:
    dialog, store = _dialog(qtbot, tmp_path)
    try:
        dialog.max_tokens.setValue(60)
        qtbot.waitUntil(lambda: "counted with o200k_base" in _token_line(dialog))
        assert dialog.outcome.meta["tokens_counted_with"] == "o200k_base"
        dialog.provider.setCurrentIndex(dialog.provider.findData("anthropic"))
        assert "(estimated)" in _token_line(dialog)
        assert dialog.outcome.meta["tokens_counted_with"] == "estimate"
    finally:
        store.close()


def test_without_a_tokenizer_the_estimate_is_labelled(qtbot, tmp_path, estimated_tokens) -> None:
    dialog, store = _dialog(qtbot, tmp_path)
    try:
        assert "(estimated)" in _token_line(dialog)
    finally:
        store.close()


def test_run_action_counts_for_the_profile_given(exact_tokens) -> None:
    exact = run_action("trim", HISTORY, max_tokens=60, token_profile="openai")
    estimated = run_action("trim", HISTORY, max_tokens=60)
    assert exact.meta["tokens_counted_with"] == "o200k_base"
    assert estimated.meta["tokens_counted_with"] == "estimate"
    assert exact.meta["total_tokens"] != estimated.meta["total_tokens"]
