"""The Skills & agents mode in the main window: built on first show, undo through Edit, save."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from registry_db import RegistryStore, open_default_store
from studio.ui.main_window import MainWindow
from tests.ui.registry_helpers import shown_window

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
REGISTRY = "travel-reimbursement"


@pytest.fixture
def store(tmp_path: Path) -> Iterator[RegistryStore]:
    opened = open_default_store(tmp_path / "studio.sqlite3", seed=True)
    yield opened
    opened.close()


@pytest.fixture
def window(qtbot, store: RegistryStore) -> Iterator[MainWindow]:
    with shown_window(qtbot, store) as w:
        qtbot.waitUntil(lambda: w.current_document() is not None)
        yield w
    w.lint_ops.shutdown()


def test_skills_mode_is_lazy_edits_undo_through_the_window_and_save_to_the_draft(
    qtbot, window: MainWindow, store: RegistryStore
) -> None:
    assert window.skills_panel is None  # nothing built before the mode is shown
    button = window.mode_bar.button(window.skills_action)
    assert button is not None and "Ctrl+7" in button.toolTip()
    button.click()
    assert window.current_mode() == "skills" and window.skills_action.isChecked()
    panel = window.skills_panel
    assert panel is not None
    groups = [panel.tree.topLevelItem(i).text(0) for i in range(3)]
    assert groups == ["Tools (4)", "Skills (1)", "Remote agents (1)"]
    assert [n for n, b in window.mode_toolbars.items() if b.isVisible()] == ["skills"]
    assert window.actions.undo in window.mode_toolbars["skills"].actions()

    assert panel.select("skill", REGISTRY)
    editor = panel.editor
    original = editor.description_edit.toPlainText()
    editor.description_edit.setPlainText("处理差旅报销。")
    qtbot.waitUntil(lambda: editor.skill is not None and editor.skill.description != original)
    undo = window.actions.undo
    assert undo.isEnabled()  # the window's Edit ▸ Undo drives the skill's stack here
    undo.trigger()
    assert editor.skill is not None and editor.skill.description == original
    window.actions.redo.trigger()
    assert editor.skill.description == "处理差旅报销。"

    panel.save()
    draft = store.draft_registry(REGISTRY)
    assert draft.skills[0].description == "处理差旅报销。"

    window.show_mode("editor")  # the registry's own stack is active again
    doc = window.current_document()
    assert doc is not None and window.undo_group.activeStack() is doc.undo_stack
    window.show_mode("skills")
    assert window.skills_panel is panel  # kept, not rebuilt
