"""The shell: the mode bar, a toolbar per mode, Help → Keyboard shortcuts, View → Language.

Switching the language rebuilds the mode widgets; the tests check that
nothing the user had is lost (open registry, mode, selected tool, unsaved
edits, geometry) and that the shell's texts really change.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QSettings, QTranslator
from PySide6.QtWidgets import QApplication

from registry_db import RegistryStore, UpsertTool
from studio.contract import ToolContract
from studio.editing import EditTool, SetField
from studio.ui import i18n
from studio.ui.main_window import MainWindow
from studio.ui.shortcuts_dialog import shortcut_rows
from tests.runtime.helpers import travel_registry
from tests.ui.registry_helpers import shown_window

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")


class BracketTranslator(QTranslator):
    """Every studio string comes back as «text»: shows which texts were re-read."""

    def translate(self, context, source, disambiguation=None, n=-1):
        return f"«{source}»" if source else source

    def isEmpty(self) -> bool:
        return False


@pytest.fixture
def store(tmp_path: Path) -> Iterator[RegistryStore]:
    store = RegistryStore.open(tmp_path / "studio.sqlite3")
    store.import_registry(travel_registry())
    store.create_registry("aaa-first", title="Sorted before the example")
    store.save_draft("aaa-first", [UpsertTool(ToolContract("ping", summary="Ping."))])
    yield store
    store.close()


@pytest.fixture
def window(qtbot, store: RegistryStore) -> Iterator[MainWindow]:
    with shown_window(qtbot, store, size=None) as w:
        yield w


def test_first_start_opens_the_exemplary_registry(window: MainWindow) -> None:
    doc = window.current_document()
    assert doc is not None and doc.name == "travel-reimbursement"


def test_the_mode_bar_shows_every_mode_with_a_label_and_its_shortcut(qtbot, window) -> None:
    bar = window.mode_bar
    assert bar.isVisible()
    labels = [bar.button(a).text() for a in window.mode_actions]
    assert labels == ["Editor", "Playground", "Sessions", "Diff", "Release"]
    shortcuts = ["Ctrl+1", "Ctrl+2", "Ctrl+3", "Ctrl+4", "Ctrl+5"]
    for action, keys in zip(window.mode_actions, shortcuts, strict=True):
        button = bar.button(action)
        assert button.isVisible() and not button.icon().isNull()
        assert keys in button.toolTip()
    bar.button(window.release_action).click()
    assert window.current_mode() == "release"
    assert window.release_action.isChecked()
    bar.button(window.playground_actions.show_editor).click()
    assert window.current_mode() == "editor"


def test_each_mode_shows_only_its_own_toolbar(qtbot, window) -> None:
    a = window.actions
    editor_bar = window.mode_toolbars["editor"]
    assert editor_bar.isVisible() and a.publish in editor_bar.actions()
    assert a.dark_theme not in editor_bar.actions()  # theme is under View
    for mode in ("playground", "sessions", "diff", "release"):
        window.show_mode(mode)
        assert window.current_mode() == mode
        visible = [name for name, bar in window.mode_toolbars.items() if bar.isVisible()]
        assert visible == [mode]
        shown = [act for act in window.mode_toolbars[mode].actions() if not act.isSeparator()]
        assert a.new_tool not in shown and a.publish not in shown and a.delete_tool not in shown
    assert window.playground_actions.run_prompt in window.mode_toolbars["playground"].actions()
    window.show_mode("editor")
    assert window.mode_toolbars["editor"].isVisible()


def test_view_menu_has_theme_and_language_and_help_lists_every_shortcut(window) -> None:
    view = window.view_menu.actions()
    assert window.actions.dark_theme in view
    assert window.language_menu.menuAction() in view
    codes = [a.data() for a in window.language_menu.group.actions()]
    assert codes == ["system", "en", "zh_CN"]
    assert window.actions.shortcuts_help in window.help_menu.actions()
    dialog = window.show_shortcuts()
    keys = dict(dialog.rows)
    for text, key in [
        ("New tool", "Ctrl+N"),
        ("Save", "Ctrl+S"),
        ("Editor", "Ctrl+1"),
        ("Release", "Ctrl+5"),
        ("Run", "Ctrl+Return"),
        ("Keyboard shortcuts", "Ctrl+/"),
        ("Next problem", "F8"),
        ("Replay: next message", "Alt+Right"),
    ]:
        assert keys.get(text) == key, (text, keys)
    assert dialog.table.rowCount() == len(dialog.rows) >= 20
    dialog.close()


def test_shortcut_rows_list_each_action_once_and_skip_those_without_keys(window) -> None:
    a = window.actions
    rows = shortcut_rows([a.save, a.save, a.publish, a.redo])
    assert rows == [("Redo", "Ctrl+Shift+Z / Ctrl+Y"), ("Save", "Ctrl+S")]


def test_switching_language_rebuilds_the_modes_and_loses_nothing(qtbot, window, store) -> None:
    window.resize(1000, 700)
    doc = window.current_document()
    assert doc is not None
    window.select_tool_named("query_invoices")
    entry = window.selected_entry()
    assert entry is not None
    doc.push(EditTool(entry.key, SetField("summary", "Find invoices, edited.")))
    assert doc.is_dirty
    window.editor.show_tab("contract")
    for mode in ("playground", "sessions", "diff"):  # every mode is rebuilt
        window.show_mode(mode)
    window.show_release()
    old_release, old_editor = window.release_view, window.editor
    geometry = window.geometry()

    app = QApplication.instance()
    translator = BracketTranslator()
    app.installTranslator(translator)
    try:
        qtbot.waitUntil(lambda: window.file_menu.title() == "«&File»")
        assert window.documents["travel-reimbursement"] is doc and doc.is_dirty
        assert window.current_mode() == "release" and window.release_action.isChecked()
        assert window.release_view is not old_release and window.editor is not old_editor
        assert window.release_view.registry == "travel-reimbursement"
        assert window.selected_tool().name == "query_invoices"
        assert window.selected_tool().summary == "Find invoices, edited."
        assert window.editor.current_tab() == "contract"
        assert window.geometry() == geometry
        assert window.actions.new_tool.text() == "«&New tool»"
        assert window.mode_bar.button(window.release_action).text() == "«Release»"
        for mode in ("playground", "sessions", "diff", "editor"):
            window.show_mode(mode)
            assert window.current_mode() == mode
        assert window.editor.tool().summary == "Find invoices, edited."
        doc.undo_stack.undo()
        assert not doc.is_dirty
    finally:
        app.removeTranslator(translator)
    qtbot.waitUntil(lambda: window.file_menu.title() == "&File")


def test_the_language_menu_remembers_the_choice_and_applies_it(qtbot, window) -> None:
    try:
        window.language_menu.action_for("zh_CN").trigger()
        assert QSettings().value("ui/language") == "zh_CN"
        assert i18n.current_language() in ("zh_CN", "en")  # en while the catalogue is missing
        assert window.language_menu.action_for("zh_CN").isChecked()
        qtbot.wait(10)
        assert window.current_document().name == "travel-reimbursement"
    finally:
        window.language_menu.action_for("en").trigger()
        QSettings().remove("ui/language")
    assert i18n.current_language() == "en"
    assert QCoreApplication.translate("MainWindow", "&File") == "&File"


def test_a_mode_named_with_an_ampersand_shows_it(qtbot) -> None:
    """``S&kills && agents``: the mnemonic goes, the literal & stays (was "Skills  agents")."""
    from studio.ui.mode_bar import _without_mnemonic

    assert _without_mnemonic("S&kills && agents") == "Skills & agents"
    assert _without_mnemonic("&Editor") == "Editor"
