"""The Evals mode in the main window: Ctrl+6 and its mode-bar button, its toolbar, 900×600.

The window's own five modes stay as they were; Evals sits after Release in
the View menu and the mode bar, follows the editor's registry, refreshes
from its toolbar, is rebuilt on a language switch, and never raises the
window's minimum size.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, Qt, QTranslator
from PySide6.QtWidgets import QApplication

from registry_db import RegistryStore, open_default_store
from studio.ui.main_window import MainWindow
from tests.ui.registry_helpers import shown_window

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")


class BracketTranslator(QTranslator):
    def translate(self, context, source, disambiguation=None, n=-1):
        return f"«{source}»" if source else source

    def isEmpty(self) -> bool:
        return False


@pytest.fixture
def store(tmp_path: Path) -> Iterator[RegistryStore]:
    opened = open_default_store(tmp_path / "studio.sqlite3", seed=True)
    yield opened
    opened.close()


@pytest.fixture
def window(qtbot, store: RegistryStore) -> Iterator[MainWindow]:
    with shown_window(qtbot, store, (900, 600)) as w:
        qtbot.wait(50)
        yield w
    w.lint_ops.shutdown()
    if w.release_view is not None:
        w.release_view.shutdown()


def test_evals_is_a_mode_after_release_with_its_own_toolbar(qtbot, window: MainWindow) -> None:
    bar = window.mode_bar
    button = bar.button(window.evals_action)
    assert button is not None and button.isVisible() and not button.icon().isNull()
    assert button.text() == "Evals" and "Ctrl+6" in button.toolTip()
    view_menu = window.view_menu.actions()
    assert view_menu.index(window.evals_action) == view_menu.index(window.release_action) + 1
    button.click()
    assert window.current_mode() == "evals" and window.evals_action.isChecked()
    view = window.evals_view
    assert view is not None and view.registry == "travel-reimbursement"
    assert view.set_combo.currentData() == "core" and view.cases_model.rowCount() >= 60
    visible = [name for name, b in window.mode_toolbars.items() if b.isVisible()]
    assert visible == ["evals"]
    assert window.refresh_action in window.mode_toolbars["evals"].actions()
    window.refresh_mode()  # reads the sets again, keeps the set shown
    assert view.set_combo.currentData() == "core"
    window.show_mode("release")
    assert not window.evals_action.isChecked() and window.current_mode() == "release"
    window.show_mode("evals")
    assert window.current_mode() == "evals"
    window.show_mode("editor")
    assert window.current_mode() == "editor" and window.mode_toolbars["editor"].isVisible()


def test_evals_never_raises_the_minimum_size_and_every_tab_fits_900_by_600(
    qtbot, window: MainWindow
) -> None:
    view = window.evals_action.trigger() or window.evals_view
    assert view is not None
    for tab in range(view.tabs.count()):
        view.tabs.setCurrentIndex(tab)
        qtbot.wait(20)
        hint = window.minimumSizeHint()
        assert hint.width() <= 900 and hint.height() <= 600, (tab, hint)
        assert window.size().toTuple() == (900, 600)
    report = view.report_view
    for tab in range(report.tabs.count()):
        report.tabs.setCurrentIndex(tab)
        qtbot.wait(20)
        assert window.minimumSizeHint().height() <= 600
    assert window.size().toTuple() == (900, 600)


def test_a_language_switch_rebuilds_the_page_in_the_new_language(qtbot, window: MainWindow) -> None:
    window.evals_action.trigger()
    old = window.evals_view
    translator = BracketTranslator()
    QCoreApplication.installTranslator(translator)
    try:
        window.retranslate_ui()
        assert window.current_mode() == "evals"
        assert window.evals_view is not None and window.evals_view is not old
        assert window.evals_action.text() == "«E&vals»"
        assert window.evals_view.run_button.text() == "«Run…»"
        assert window.evals_view.tabs.tabText(0) == "«Cases»"
    finally:
        QCoreApplication.removeTranslator(translator)
        window.retranslate_ui()
    QApplication.processEvents()
    assert window.evals_action.text() == "E&vals"


def test_the_heat_map_and_results_follow_the_theme(qtbot, window: MainWindow) -> None:
    from PySide6.QtGui import QPalette

    from studio.evals.metrics import Confusion
    from studio.ui.evals.cases_model import CasesModel
    from studio.ui.evals.heat_map import HeatDelegate
    from studio.ui.style import THEME_COLOURS, is_dark

    window.evals_action.trigger()
    view = window.evals_view
    assert view is not None
    heat = view.report_view.heat_map
    labels = ("a", "b")
    heat.set_confusion(Confusion(labels, {("a", "a"): 9, ("a", "b"): 1, ("b", "b"): 0}))
    delegate = heat.itemDelegate()
    assert isinstance(delegate, HeatDelegate)
    model = heat.heat_model

    def colours() -> tuple:
        palette = heat.palette()
        return tuple(delegate.cell_colour(model.index(r, c), palette) for r, c in
                     ((0, 0), (0, 1), (1, 0)))  # fmt: skip

    strong, weak, empty = colours()
    base = heat.palette().color(QPalette.ColorRole.Base)
    assert empty == base and strong.green() > strong.red() and weak.red() > weak.green()
    try:
        window.actions.dark_theme.setChecked(True)
        qtbot.waitUntil(lambda: is_dark(window))
        strong_dark, _weak, empty_dark = colours()
        assert empty_dark.lightness() < 128 and empty_dark != empty  # the dark Base
        assert strong_dark.green() > strong_dark.red()
        # Passed / failed in the dark theme's own colours.
        cases = view.cases_model
        cases.set_results({cases.cases()[0].id: False})
        colour = cases.index(0, 4).data(Qt.ItemDataRole.ForegroundRole)
        assert colour.name() == THEME_COLOURS["dark"]["error_fg"]
        assert cases.index(0, 4).data(CasesModel.ResultRole) is False
    finally:
        window.actions.dark_theme.setChecked(False)
