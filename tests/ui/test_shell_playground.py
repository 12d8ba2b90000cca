"""What you see is what runs: the Playground follows the editor and runs its working copy.

Also the messages a run gives before any request (a missing API key variable)
and the empty state before the first run.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from registry_db import RegistryStore, UpsertTool
from studio.contract import ToolContract
from studio.editing import EditTool, SetField
from studio.ui.main_window import MainWindow
from tests.ui.playground_helpers import KEY_ENV, add_profile, make_store
from tests.ui.registry_helpers import shown_window

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
REGISTRY = "travel-reimbursement"


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[RegistryStore]:
    monkeypatch.setenv(KEY_ENV, "sk-test")
    store = make_store(tmp_path / "studio.sqlite3")
    store.create_registry("aaa-other", title="Another registry")
    store.save_draft("aaa-other", [UpsertTool(ToolContract("ping", summary="Ping it."))])
    add_profile(store, "http://127.0.0.1:9")  # never contacted by these tests
    yield store
    store.close()


@pytest.fixture
def window(qtbot, store: RegistryStore) -> Iterator[MainWindow]:
    with shown_window(qtbot, store) as w:
        yield w


def _edit(window: MainWindow, tool: str, *edits: tuple[str, str]) -> None:
    doc = window.current_document()
    window.select_tool_named(tool)
    entry = window.selected_entry()
    assert doc is not None and entry is not None
    for field, text in edits:  # two fields: typing bursts in one field merge into one step
        doc.push(EditTool(entry.key, SetField(field, text)))


def test_the_playground_runs_the_editors_working_copy_and_says_so(qtbot, window) -> None:
    assert window.current_document().name == REGISTRY
    tool = window.current_document().workspace.entries[0].tool.name
    _edit(window, tool, ("title", "Edited title"), ("summary", "Edited, not saved."))
    view = window.show_playground()
    sidebar = view.sidebar
    assert sidebar.registry_combo.currentText() == REGISTRY
    assert sidebar.version_combo.itemText(0) == "draft · 2 unsaved edits"
    header = view.header_label.text()
    assert REGISTRY in header and "draft · 2 unsaved edits" in header
    assert "profile scripted" in header and "executors:" in header and "mock" in header
    config, _profile = sidebar.run_config()
    assert config.registry.tool(tool).summary == "Edited, not saved."
    assert config.version == "draft"

    # Undo (Ctrl+Z works in every mode): the count and the working copy follow.
    window.current_document().undo_stack.undo()
    assert sidebar.version_combo.itemText(0) == "draft · 1 unsaved edit"
    assert "draft · 1 unsaved edit" in view.header_label.text()
    config, _profile = sidebar.run_config()
    assert config.registry.tool(tool).title == "Edited title"
    assert config.registry.tool(tool).summary != "Edited, not saved."


def test_the_playground_follows_the_editors_registry_unless_pinned(qtbot, window) -> None:
    view = window.show_playground()
    sidebar = view.sidebar
    assert sidebar.registry_combo.currentText() == REGISTRY
    window.show_playground(False)
    window.open_registry("aaa-other")
    window.show_playground()
    assert sidebar.registry_combo.currentText() == "aaa-other"
    assert view.header_label.text().startswith("Runs aaa-other · draft")

    sidebar.pin_check.setChecked(True)
    window.show_playground(False)
    window.open_registry(REGISTRY)
    window.show_playground()
    assert sidebar.registry_combo.currentText() == "aaa-other"
    assert "(pinned)" in view.header_label.text()

    # Picking a registry by hand pins it.
    sidebar.pin_check.setChecked(False)
    window.show_playground()
    assert sidebar.registry_combo.currentText() == REGISTRY
    sidebar.registry_combo.activated.emit(sidebar.registry_combo.findText("aaa-other"))
    assert sidebar.pin_check.isChecked()


def test_a_published_version_is_named_in_the_header(qtbot, window, store) -> None:
    store.publish(REGISTRY, notes="first")
    view = window.show_playground()
    view.sidebar.refresh()
    view.sidebar.version_combo.setCurrentIndex(view.sidebar.version_combo.findData("1"))
    assert "version 1" in view.header_label.text()
    assert view.sidebar.run_config()[0].version == "1"


def test_a_missing_key_variable_is_named_before_any_request(qtbot, window, monkeypatch) -> None:
    monkeypatch.delenv(KEY_ENV, raising=False)
    made = []
    view = window.show_playground()
    view.controller.client_factory = lambda profile: made.append(profile)
    view.prompt_edit.setPlainText("Find my invoices")
    assert view.run_prompt() is None
    message = view.status_label.text()
    assert message.startswith(f"{KEY_ENV} is not set")
    assert "None" not in message and "  " not in message
    assert made == []  # no client, no request


def test_before_a_run_the_playground_says_what_it_waits_for(qtbot, window) -> None:
    view = window.show_playground()
    assert view.empty_label.isVisible() and not view.conversation.isVisible()
    assert "Run" in view.empty_label.text() and "Ctrl+Return" in view.empty_label.text()


def test_an_empty_event_log_says_what_it_waits_for(qtbot) -> None:
    from PySide6.QtGui import QImage

    from studio.ui.playground.event_log import EventLogView

    log = EventLogView()
    qtbot.addWidget(log)
    log.resize(500, 160)
    log.show()
    assert "Imported logs carry only their messages" in log.placeholder
    blank = QImage(log.viewport().size(), QImage.Format.Format_ARGB32)
    log.set_placeholder("")
    log.viewport().render(blank)
    with_text = QImage(log.viewport().size(), QImage.Format.Format_ARGB32)
    log.set_placeholder("Run events appear here.")
    log.viewport().render(with_text)
    assert blank != with_text  # the sentence is drawn over the empty table
