"""The main window end to end on a real SQLite file: edit, undo, save, conflicts, versions."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from PySide6.QtWidgets import QWidget

from registry_db import RegistryStore, TamperedVersionError, UpsertTool, VersionInfo
from studio.contract import RiskTier, ToolContract
from studio.editing import DraftWorkspace, EditTool, SetField
from studio.ui.dialogs.publish_dialog import Publisher, PublishRequest
from studio.ui.main_window import MainWindow, Prompts
from studio.ui.models.tool_list_model import DIRTY_MARKER

TOOLS = [
    ToolContract("search_policy", title="Search policy", summary="Search the policy clauses."),
    ToolContract("query_invoices", title="Invoices", summary="Find the employee's invoices."),
    ToolContract(
        "create_reimbursement_ticket",
        title="File a claim",
        summary="File a reimbursement claim.",
        risk=RiskTier.WRITE,
    ),
]


class FakePrompts(Prompts):
    """Scripted answers; records what was asked."""

    def __init__(self) -> None:
        self.unsaved_answer = "cancel"
        self.conflict_answer = "cancel"
        self.save_first = True
        self.publish_request: PublishRequest | None = PublishRequest("first cut", "1.0.0")
        self.asked: list[tuple[str, str]] = []

    def unsaved_changes(self, parent: QWidget, names: Sequence[str]) -> str:
        self.asked.append(("unsaved", ", ".join(names)))
        return self.unsaved_answer

    def conflict(self, parent: QWidget, registry: str, message: str) -> str:
        self.asked.append(("conflict", message))
        return self.conflict_answer

    def save_before_publish(self, parent: QWidget, registry: str) -> bool:
        self.asked.append(("save_before_publish", registry))
        return self.save_first

    def publish(
        self, parent: QWidget, registry: str, tool_count: int, publisher: Publisher
    ) -> VersionInfo | None:
        self.asked.append(("publish", f"{registry}:{tool_count}"))
        return None if self.publish_request is None else publisher(self.publish_request)

    def error(self, parent: QWidget, title: str, text: str) -> None:
        self.asked.append(("error", f"{title}: {text}"))


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    path = tmp_path / "studio.sqlite3"
    with RegistryStore.open(path) as store:
        store.create_registry("travel", title="Travel reimbursement")
        store.save_draft("travel", [UpsertTool(t) for t in TOOLS])
    return path


@pytest.fixture
def store(db_path: Path):
    store = RegistryStore.open(db_path)
    yield store
    store.close()


@pytest.fixture
def prompts() -> FakePrompts:
    return FakePrompts()


@pytest.fixture
def window(qtbot, store: RegistryStore, prompts: FakePrompts) -> MainWindow:
    w = MainWindow(store, prompts)
    qtbot.addWidget(w)
    # Closing at teardown must not ask: answer Discard from here on.
    yield w
    prompts.unsaved_answer = "discard"


def _rows(w: MainWindow) -> list[str]:
    proxy = w.tool_proxy
    return [proxy.index(r, 0).data() for r in range(proxy.rowCount())]


def _edit_summary(w: MainWindow, text: str) -> None:
    doc = w.current_document()
    assert doc is not None
    key = w.selected_key()
    assert key is not None
    doc.push(EditTool(key, SetField("summary", text)))


def test_opens_first_registry_and_selects_first_tool(window: MainWindow) -> None:
    assert window.current_document().name == "travel"
    assert _rows(window) == [t.name for t in TOOLS]
    assert window.selected_tool().name == "search_policy"
    assert window.windowTitle() == "travel — Tool Registry Studio"
    assert "3 tools" in window.status_label.text()
    assert window.editor.tool().name == "search_policy"


def test_filter_narrows_the_list(qtbot, window: MainWindow) -> None:
    window.actions.find.trigger()
    window.filter_edit.setText("INVOICE")
    assert _rows(window) == ["query_invoices"]
    window.filter_edit.setText("claim")  # matches the title and the summary
    assert _rows(window) == ["create_reimbursement_ticket"]
    window.filter_edit.clear()
    assert len(_rows(window)) == 3


def test_new_tool_marks_dirty_then_save_persists(
    qtbot, window: MainWindow, db_path: Path, prompts: FakePrompts
) -> None:
    window.actions.new_tool.trigger()
    assert window.selected_tool().name == "new_tool"
    assert f"{DIRTY_MARKER} new_tool" in _rows(window)
    assert window.windowTitle().startswith("*")
    assert "unsaved changes" in window.status_label.text()

    window.actions.save.trigger()
    assert "error" not in {kind for kind, _ in prompts.asked}, prompts.asked
    assert not window.windowTitle().startswith("*")
    assert "new_tool" in _rows(window)
    assert "last saved" in window.status_label.text()

    with RegistryStore.open(db_path) as other:
        again = MainWindow(other, FakePrompts())
        qtbot.addWidget(again)
        assert "new_tool" in _rows(again)


def test_duplicate_and_delete_with_undo(window: MainWindow) -> None:
    window.select_tool_named("query_invoices")
    window.actions.duplicate_tool.trigger()
    assert _rows(window)[2] == f"{DIRTY_MARKER} query_invoices_copy"
    assert window.selected_tool().name == "query_invoices_copy"

    window.actions.delete_tool.trigger()
    assert "query_invoices_copy" not in " ".join(_rows(window))
    window.select_tool_named("search_policy")
    window.actions.delete_tool.trigger()
    assert [r.lstrip(f"{DIRTY_MARKER} ") for r in _rows(window)] == [
        "query_invoices",
        "create_reimbursement_ticket",
    ]
    assert window.actions.undo.text() == "Undo Delete tool"
    window.actions.undo.trigger()
    assert _rows(window)[0] == "search_policy"
    assert not window.current_document().workspace.deleted


def test_edit_undo_redo_through_the_group_actions(window: MainWindow) -> None:
    _edit_summary(window, "Search clauses and limits.")
    assert window.selected_tool().summary == "Search clauses and limits."
    assert window.actions.undo.isEnabled()
    assert window.actions.undo.text() == "Undo Edit summary"
    window.actions.undo.trigger()
    assert window.selected_tool().summary == "Search the policy clauses."
    assert not window.windowTitle().startswith("*")
    assert window.actions.redo.text() == "Redo Edit summary"
    window.actions.redo.trigger()
    assert window.selected_tool().summary == "Search clauses and limits."
    assert window.windowTitle().startswith("*")


def test_save_refused_lists_problems_and_keeps_the_edit(
    window: MainWindow, prompts: FakePrompts
) -> None:
    doc = window.current_document()
    doc.push(EditTool(window.selected_key(), SetField("name", "bad name!")))
    assert window.save_current() is False
    kind, text = prompts.asked[-1]
    assert kind == "error"
    assert "tools[0].name" in text
    assert window.selected_tool().name == "bad name!"
    assert doc.is_dirty


def test_conflict_is_reported_and_nothing_is_overwritten(
    window: MainWindow, db_path: Path, prompts: FakePrompts
) -> None:
    _edit_summary(window, "Mine.")
    with RegistryStore.open(db_path) as other:
        theirs = DraftWorkspace.load(other, "travel")
        theirs.run(EditTool(theirs.entries[0].key, SetField("summary", "Theirs.")))
        theirs.save(other)

    prompts.conflict_answer = "cancel"
    assert window.save_current() is False
    kind, message = prompts.asked[-1]
    assert kind == "conflict"
    assert "search_policy was changed elsewhere" in message
    assert window.selected_tool().summary == "Mine."  # still editing
    assert window.current_document().is_dirty
    with RegistryStore.open(db_path) as check:
        assert check.draft_registry("travel").tool("search_policy").summary == "Theirs."

    prompts.conflict_answer = "reload"
    assert window.save_current() is False
    assert window.selected_tool().summary == "Theirs."
    assert not window.current_document().is_dirty
    assert window.undo_group.activeStack() is window.current_document().undo_stack


@pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")  # offscreen QPA
def test_close_with_unsaved_changes_asks(qtbot, window: MainWindow, prompts) -> None:
    window.show()
    _edit_summary(window, "Unsaved.")
    prompts.unsaved_answer = "cancel"
    assert window.close() is False
    assert window.isVisible()
    assert prompts.asked[-1] == ("unsaved", "travel")
    prompts.unsaved_answer = "discard"
    assert window.close() is True


def test_close_with_save_answer_saves(window: MainWindow, store: RegistryStore, prompts) -> None:
    _edit_summary(window, "Saved on close.")
    prompts.unsaved_answer = "save"
    assert window.close() is True
    assert store.draft_registry("travel").tool("search_policy").summary == "Saved on close."


def test_publish_lists_version_and_opens_it_read_only(
    window: MainWindow, prompts: FakePrompts, store: RegistryStore
) -> None:
    _edit_summary(window, "Published summary.")
    info = window.actions.publish.trigger() or store.latest_version("travel")
    assert ("save_before_publish", "travel") in prompts.asked  # unsaved: saved first
    assert info is not None and info.number == 1 and info.semver == "1.0.0"
    tree = window.versions_panel.tree
    assert tree.topLevelItemCount() == 1
    row = [tree.topLevelItem(0).text(c) for c in range(tree.columnCount())]
    assert row[0] == "1" and row[1] == "1.0.0" and row[4] == "3" and row[6] == "first cut"
    assert row[5] == info.content_hash.rpartition(":")[2][:12]

    doc = window.open_version(1)
    assert doc is not None and doc.read_only
    assert window.banner.isVisibleTo(window)
    assert "Version 1 (published, read-only)" in window.banner_label.text()
    assert "read-only" in window.windowTitle()
    assert not window.actions.new_tool.isEnabled()
    assert not window.actions.delete_tool.isEnabled()
    assert not window.actions.save.isEnabled()
    assert window.selected_tool().summary == "Published summary."
    assert _rows(window) == [t.name for t in TOOLS]  # no unsaved markers in a version
    # Edits are blocked whichever way they come.
    window.new_tool()
    doc.push(EditTool(window.selected_key(), SetField("summary", "Nope.")))
    assert len(doc.workspace.entries) == 3
    assert window.selected_tool().summary == "Published summary."

    window.banner_button.click()
    assert not window.current_document().read_only
    assert not window.banner.isVisibleTo(window)
    assert window.actions.new_tool.isEnabled()


def test_publish_refused_by_prompt_publishes_nothing(
    window: MainWindow, prompts: FakePrompts, store: RegistryStore
) -> None:
    _edit_summary(window, "Not yet.")
    prompts.save_first = False
    assert window.publish_current() is None
    assert store.list_versions("travel") == []
    assert window.current_document().is_dirty


def test_tampered_version_is_reported(
    window: MainWindow, prompts: FakePrompts, store: RegistryStore, monkeypatch
) -> None:
    window.publish_current()

    def tampered(name: str, number: int):
        raise TamperedVersionError(name, number, "aaaa", "bbbb")

    monkeypatch.setattr(store, "load_version", tampered)
    assert window.open_version(1) is None
    kind, text = prompts.asked[-1]
    assert kind == "error" and "integrity check" in text and "hash" in text
    assert not window.current_document().read_only


def test_registries_keep_separate_documents_and_undo_stacks(
    window: MainWindow, store: RegistryStore
) -> None:
    store.create_registry("orders", title="Order service")
    window.refresh_registries()
    _edit_summary(window, "Travel edit.")
    travel = window.current_document()
    window.open_registry("orders")
    assert window.current_document().name == "orders"
    assert window.undo_group.activeStack() is window.current_document().undo_stack
    assert not window.actions.undo.isEnabled()
    window.open_registry("travel")
    assert window.current_document() is travel
    assert window.actions.undo.isEnabled()


def test_preview_follows_the_selected_tool(qtbot, window: MainWindow) -> None:
    window.preview.flush()
    assert '"name": "search_policy"' in window.preview.json_view.toPlainText()
    _edit_summary(window, "Brand new summary.")
    qtbot.waitUntil(lambda: "Brand new summary." in window.preview.json_view.toPlainText())


def test_run_gui_reports_a_broken_database_without_traceback(
    qapp, tmp_path: Path, monkeypatch
) -> None:
    from studio.ui import app as app_module

    shown: list[str] = []
    monkeypatch.setattr(
        app_module.QMessageBox, "critical", lambda _p, title, text: shown.append(text)
    )
    monkeypatch.setattr(app_module, "install_excepthook", lambda *_a: None)
    broken = tmp_path / "broken.sqlite3"
    broken.write_bytes(b"this is not a database" * 100)
    assert app_module.run_gui(broken) == 1
    assert len(shown) == 1
    assert str(broken) in shown[0]
    assert "Traceback" not in shown[0]


def test_excepthook_logs_and_shows_a_short_message(qapp, monkeypatch, caplog) -> None:
    import sys

    from studio.ui import app as app_module

    shown: list[str] = []
    monkeypatch.setattr(
        app_module.QMessageBox, "warning", lambda _p, title, text: shown.append(text)
    )
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    app_module.install_excepthook(None)
    try:
        raise RuntimeError("boom")
    except RuntimeError as exc:
        sys.excepthook(type(exc), exc, exc.__traceback__)
    assert shown == [
        "The studio hit an unexpected error (RuntimeError: boom). "
        "Your open work is still there; save it if you can."
    ]
    assert "Traceback" in caplog.text


def test_palettes_are_readable(qapp) -> None:
    from studio.ui.app import apply_palette

    try:
        for theme in ("dark", "light"):
            assert apply_palette(qapp, theme) == theme
            palette = qapp.palette()
            text, base = palette.text().color(), palette.base().color()
            assert abs(text.lightnessF() - base.lightnessF()) > 0.6
    finally:
        apply_palette(qapp, "light")


def test_shortcuts_are_the_documented_ones(window: MainWindow) -> None:
    a = window.actions

    def keys(action) -> list[str]:
        return [s.toString() for s in action.shortcuts()]

    assert keys(a.new_tool) == ["Ctrl+N"]
    assert keys(a.duplicate_tool) == ["Ctrl+D"]
    assert keys(a.delete_tool) == ["Del"]
    assert keys(a.save) == ["Ctrl+S"]
    assert keys(a.undo) == ["Ctrl+Z"]
    assert keys(a.redo) == ["Ctrl+Shift+Z", "Ctrl+Y"]
    assert keys(a.find) == ["Ctrl+F"]
    assert keys(a.quit) == ["Ctrl+Q"]


def test_dark_theme_toggle_switches_the_palette(qapp, window: MainWindow) -> None:
    light_base = qapp.palette().base().color().lightnessF()
    try:
        window.actions.dark_theme.setChecked(True)
        assert qapp.palette().base().color().lightnessF() < 0.3
    finally:
        window.actions.dark_theme.setChecked(False)
    assert qapp.palette().base().color().lightnessF() == pytest.approx(light_base)


@pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")  # offscreen QPA
def test_run_gui_seeds_only_the_embedded_database(qapp, tmp_path: Path, monkeypatch) -> None:
    from registry_db import default_db_path
    from studio.ui import app as app_module

    shown: list[MainWindow] = []
    monkeypatch.setattr(app_module, "install_excepthook", lambda *_a: None)
    monkeypatch.setattr(type(qapp), "exec", lambda *_a: shown.extend(qapp.topLevelWidgets()) or 0)

    def registries_shown(db: Path | None) -> int:
        shown.clear()
        assert app_module.run_gui(db) == 0
        windows = [w for w in shown if isinstance(w, MainWindow) and w.isVisible()]
        assert len(windows) == 1
        count = windows[0].registry_model.rowCount()
        windows[0].hide()
        windows[0].deleteLater()
        return count

    # The embedded default (tests/conftest.py points it into a temporary home).
    assert registries_shown(None) == 2, "seeded with both example registries"
    assert default_db_path().is_file()
    # A file named with --db is the user's own and starts empty.
    assert registries_shown(tmp_path / "new" / "studio.sqlite3") == 0


def test_publish_dialog_keeps_input_when_the_store_refuses(qtbot) -> None:
    from registry_db import InvalidSemverError
    from studio.ui.dialogs.publish_dialog import PublishDialog

    requests: list[PublishRequest] = []
    published = VersionInfo(1, "1.0.0", None, "sha256:ab", "notes", "me", "now", 3)

    def publisher(request: PublishRequest) -> VersionInfo:
        requests.append(request)
        if request.semver == "banana":
            raise InvalidSemverError("'banana' is not a semantic version (MAJOR.MINOR.PATCH)")
        return published

    dialog = PublishDialog("travel", 3, publisher)
    qtbot.addWidget(dialog)
    dialog.notes_edit.setPlainText("  first cut  ")
    dialog.semver_edit.setText("banana")
    dialog.accept()
    assert dialog.result() != PublishDialog.DialogCode.Accepted
    assert dialog.published is None
    assert "banana" in dialog.error_label.text()
    assert dialog.notes_edit.toPlainText() == "  first cut  "  # nothing typed is lost

    dialog.semver_edit.setText("")
    dialog.accept()
    assert requests[-1] == PublishRequest("first cut", None)
    assert dialog.published is published
    assert dialog.result() == PublishDialog.DialogCode.Accepted
