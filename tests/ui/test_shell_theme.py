"""The dark theme at runtime: custom colours follow a switch (banners, guard, charts)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCharts import QChart
from PySide6.QtGui import QPalette

from registry_db import RegistryStore
from studio.release import set_canary
from studio.ui.main_window import MainWindow
from studio.ui.style import THEME_COLOURS, is_dark
from tests.release.conftest import REGISTRY, publish_versions
from tests.ui.registry_helpers import ScriptedPrompts

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
DARK, LIGHT = THEME_COLOURS["dark"], THEME_COLOURS["light"]


@pytest.fixture
def store(tmp_path: Path) -> Iterator[RegistryStore]:
    opened = RegistryStore.open(tmp_path / "studio.sqlite3")
    publish_versions(opened, REGISTRY, 2)
    set_canary(opened, REGISTRY, version=2, share=10, who="ana", why="try")
    yield opened
    opened.close()


@pytest.fixture
def window(qtbot, store: RegistryStore, qapp) -> Iterator[MainWindow]:
    w = MainWindow(store, ScriptedPrompts())
    qtbot.addWidget(w)
    w.show()
    yield w
    w.actions.dark_theme.setChecked(False)
    w.registry_ops.shutdown()


def test_switching_themes_recolours_the_shells_own_colours(qtbot, window, qapp) -> None:
    window.open_version(1)  # the read-only banner shows
    release = window.show_release()
    release.guard.wait()
    qtbot.waitUntil(lambda: release.guard.result is not None)
    assert not is_dark(window)
    assert LIGHT["banner_bg"] in window.banner.styleSheet()
    assert LIGHT["hold_bg"] in release.guard.banner.styleSheet()

    window.actions.dark_theme.setChecked(True)
    qtbot.waitUntil(lambda: is_dark(window))
    assert qapp.palette().color(QPalette.ColorRole.Window).lightness() < 128
    assert DARK["banner_bg"] in window.banner.styleSheet()
    assert DARK["hold_bg"] in release.guard.banner.styleSheet()
    chart = release.guard.charts.success_chart.chart()
    assert chart.theme() == QChart.ChartTheme.ChartThemeDark
    editor_base = window.editor.palette().color(QPalette.ColorRole.Base)
    assert editor_base.lightness() < 128  # the editor's fields follow the palette
    # JSON colours for a dark background (set once every child has the new palette).
    qtbot.waitUntil(lambda: window.editor.json_tab.highlighter.dark)

    playground = window.show_playground()
    assert all(p.highlighter.dark for p in playground.inspector.panes.values())
    window.show_release()

    window.actions.dark_theme.setChecked(False)
    qtbot.waitUntil(lambda: not is_dark(window))
    assert not any(p.highlighter.dark for p in playground.inspector.panes.values())
    assert LIGHT["banner_bg"] in window.banner.styleSheet()
    assert LIGHT["hold_bg"] in release.guard.banner.styleSheet()
    assert chart.theme() == QChart.ChartTheme.ChartThemeLight
    qtbot.waitUntil(lambda: not window.editor.json_tab.highlighter.dark)


def test_lint_tints_follow_a_theme_switch(qtbot, window) -> None:
    from studio.lint.model import Finding, Severity

    controller = window.lint_ops.current_controller()  # its report would re-mark the fields
    qtbot.waitUntil(lambda: controller.report is not None and not controller.busy, timeout=20_000)
    summary = window.editor.overview_tab.summary_edit
    finding = Finding("desc-no-purpose", "description", Severity.WARNING, "search_policy",
                      "summary", "The description does not state the tool's purpose.")  # fmt: skip
    window.editor.set_markers({"summary": [finding]})
    base = QPalette.ColorRole.Base
    assert summary.palette().color(base).lightness() > 128  # a light tint
    window.actions.dark_theme.setChecked(True)
    qtbot.waitUntil(lambda: summary.palette().color(base).lightness() < 128)  # a dark tint


def test_every_theme_names_the_same_colours() -> None:
    assert set(DARK) == set(LIGHT)


def test_the_guard_without_outcomes_shows_no_empty_axis_and_no_zero_rate(qtbot, window) -> None:
    release = window.show_release()
    release.guard.wait()
    qtbot.waitUntil(lambda: release.guard.result is not None)
    release.tabs.setCurrentWidget(release.guard)
    charts = release.guard.charts
    assert charts.empty_label.isVisible() and not charts.success_chart.isVisible()
    assert "No outcomes recorded yet" in charts.empty_label.text()
    model = release.guard.model
    row = [model.data(model.index(0, c)) for c in range(model.columnCount())]
    assert row[1] == "0 / 0" and row[2] == "—" and row[3] == "—"
    assert "0.0 %" not in row
