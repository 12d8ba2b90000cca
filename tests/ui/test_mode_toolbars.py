"""The Sessions, Diff and Release toolbars: each mode's actions, enabled by state, as its buttons.

A real store (order-service v1 with a breaking draft, two imported sessions and
an unpublished registry) behind a real main window, offscreen.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QAction
from PySide6.QtTest import QTest

from registry_db import RegistryStore, UpsertTool
from studio.contract import ToolContract
from studio.ui.main_window import MainWindow
from tests.ui.diff_helpers import break_the_draft, edit_tool, seed_order_service
from tests.ui.registry_helpers import shown_window
from tests.ui.sessions_helpers import FIXTURES, import_file, write_problem_log

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")

EXPECTED = {
    "sessions": [
        "sessions_import_log", "sessions_record_proxy", "sessions_export",
        "sessions_replay_model", "sessions_stop_replay", "sessions_previous_step",
        "sessions_next_step", "sessions_previous_problem", "sessions_next_problem",
        "sessions_doctor", "sessions_revalidate", "sessions_eval_case", "refresh_mode",
    ],
    "diff": [
        "diff_swap", "diff_previous_change", "diff_next_change", "diff_export", "refresh_mode",
    ],
    "release": [
        "release_publish", "release_set_canary", "release_promote", "release_pause_canary",
        "release_rollback_stable", "release_simulate", "release_guard", "release_serve",
        "refresh_mode",
    ],
}  # fmt: skip


@pytest.fixture
def store(tmp_path: Path) -> Iterator[RegistryStore]:
    store = seed_order_service(tmp_path / "studio.sqlite3")
    break_the_draft(store)
    edit_tool(store, "check_stock", summary="Check the stock of a product, per warehouse.")
    store.create_registry("unpublished", title="Never published")
    store.save_draft("unpublished", [UpsertTool(ToolContract("ping", summary="Ping."))])
    import_file(store, FIXTURES / "anthropic.json")
    import_file(store, write_problem_log(tmp_path))
    yield store
    store.close()


@pytest.fixture
def window(qtbot, store: RegistryStore) -> Iterator[MainWindow]:
    with shown_window(qtbot, store, (900, 600)) as w:
        qtbot.waitUntil(lambda: w.current_document() is not None)
        yield w


def action(window: MainWindow, name: str) -> QAction:
    return window.view_toolbars.action(name)


def shown(window: MainWindow, mode: str) -> list[str]:
    bar = window.mode_toolbars[mode]
    return [a.objectName() for a in bar.actions() if not a.isSeparator()]


def test_each_mode_toolbar_shows_its_actions_with_icon_label_and_tooltip(window) -> None:
    assert window.current_document().name == "order-service"
    for mode, names in EXPECTED.items():
        window.show_mode(mode)
        assert window.mode_toolbars[mode].isVisible()
        assert shown(window, mode) == names
        for name in names[:-1]:
            act = action(window, name)
            assert not act.icon().isNull(), name
            assert act.text() and act.toolTip(), name
            assert "&" not in act.text().replace("&&", ""), name


def test_sessions_actions_wait_for_a_selection_then_do_what_the_buttons_do(qtbot, window) -> None:
    view = window.show_sessions()
    # The rows of buttons the toolbar carries are hidden (at 900 px they were cut off).
    assert not view.list_actions.isVisible() and not view.viewer.action_row.isVisible()
    view.refresh()
    view._show(None)
    for name in ("sessions_replay_model", "sessions_doctor", "sessions_export",
                 "sessions_next_step", "sessions_eval_case", "sessions_revalidate"):  # fmt: skip
        assert not action(window, name).isEnabled(), name
        assert "Select a session" in action(window, name).toolTip() or name.endswith("step")
    assert action(window, "sessions_import_log").isEnabled()

    problem = next(r.id for r in view.table_model.rows() if r.problems)
    assert view.select_session(problem)
    for name in ("sessions_replay_model", "sessions_doctor", "sessions_export",
                 "sessions_eval_case", "sessions_revalidate"):  # fmt: skip
        assert action(window, name).isEnabled(), name
    replay = view.viewer.replay
    assert replay is not None
    start = replay.position
    # The toolbar's steps and the replay bar's buttons are one path: same moves, same states.
    assert action(window, "sessions_previous_step").isEnabled() == (
        view.viewer.replay_bar.previous_button.isEnabled()
    )
    action(window, "sessions_previous_step").trigger()
    assert replay.position == start - 1
    action(window, "sessions_next_step").trigger()
    assert replay.position == start
    view.viewer.replay_bar.jump(len(replay) - 1)
    assert not action(window, "sessions_next_step").isEnabled()

    action(window, "sessions_import_log").trigger()
    assert view.import_dialog is not None and view.import_dialog.isVisible()
    view.import_dialog.close()

    repair = next(a for a in action(window, "sessions_doctor").menu().actions())
    assert repair.objectName() == "sessions_repair" and repair.isEnabled()
    repair.trigger()
    assert view.doctor_dialog is not None and view.doctor_dialog.isVisible()
    view.doctor_dialog.close()

    menu = action(window, "sessions_export").menu()
    menu.aboutToShow.emit()
    assert menu.actions() == view.export_button.menu().actions()  # the view's own actions

    action(window, "sessions_revalidate").trigger()
    assert view.viewer.bottom_tabs.currentWidget() is view.revalidate_view
    qtbot.waitUntil(lambda: view.revalidate_view.report is not None, timeout=20000)


def test_release_on_an_unpublished_registry_says_why_and_offers_publish(qtbot, window) -> None:
    window.open_registry("unpublished")
    qtbot.waitUntil(lambda: window.current_document().name == "unpublished")
    view = window.show_release()
    canary = action(window, "release_set_canary")
    assert not canary.isEnabled()
    assert "no published version" in canary.toolTip()
    assert not action(window, "release_promote").isEnabled()
    assert not action(window, "release_simulate").isEnabled()
    publish = action(window, "release_publish")
    assert publish.isEnabled()
    clicked: list[bool] = []
    view.empty_publish_button.clicked.connect(lambda: clicked.append(True))
    view.blockSignals(True)  # the window would open its (modal) publish review
    publish.trigger()
    view.blockSignals(False)
    assert clicked == [True]  # the empty state's own Publish the draft…

    window.open_registry("order-service")
    qtbot.waitUntil(lambda: window.current_document().name == "order-service")
    window.show_release()
    assert canary.isEnabled() and "no published version" not in canary.toolTip()
    assert not publish.isEnabled() and not publish.isVisible()  # published: from the Editor
    assert not view.promote_button.isVisible()  # the toolbar carries the channel buttons
    assert not action(window, "release_promote").isEnabled()  # no canary yet
    assert "set a canary first" in action(window, "release_promote").toolTip()
    action(window, "release_simulate").trigger()
    assert view.tabs.currentWidget() is view.simulator
    action(window, "release_guard").trigger()
    assert view.tabs.currentWidget() is view.guard
    serve = action(window, "release_serve")
    assert serve.isCheckable() and not serve.isChecked() and not view.serve_check.isVisible()


def test_diff_steps_through_changed_tools_and_exports_the_report(qtbot, window, tmp_path) -> None:
    view = window.show_diff()
    qtbot.waitUntil(lambda: view.result is not None, timeout=20000)
    assert view.tool_model.rowCount() == 2  # two changed tools
    nxt, prev = action(window, "diff_next_change"), action(window, "diff_previous_change")
    assert nxt.shortcut().toString() == "F7" and "F7" in nxt.toolTip()
    view.tool_list.setCurrentIndex(view.tool_model.index(0, 0))
    assert not prev.isEnabled() and nxt.isEnabled()
    nxt.trigger()
    assert view.tool_list.currentIndex().row() == 1
    assert prev.isEnabled() and not nxt.isEnabled()
    assert "No changed tool after this one" in nxt.toolTip()
    prev.trigger()
    assert view.tool_list.currentIndex().row() == 0
    # F7 acts only where its toolbar is shown: not from the Editor.
    window.show_mode("editor")
    QTest.keyClick(window, Qt.Key.Key_F7)
    assert view.tool_list.currentIndex().row() == 0
    window.show_mode("diff")  # computes the diff again: wait for it
    qtbot.waitUntil(lambda: not view.runner.busy, timeout=20000)
    view.tool_list.setCurrentIndex(view.tool_model.index(0, 0))
    QTest.keyClick(window, Qt.Key.Key_F7)
    assert view.tool_list.currentIndex().row() == 1
    assert action(window, "diff_swap").isEnabled() and not view.swap_button.isVisible()
    target = tmp_path / "report.md"
    view.choose_file = lambda *_args: str(target)
    export = action(window, "diff_export")
    assert export.isEnabled()
    markdown = next(a for a in export.menu().actions() if a.objectName() == "diff_export_markdown")
    markdown.trigger()
    assert target.exists() and "order-service" in target.read_text(encoding="utf-8")


def test_diff_before_a_publish_disables_every_action_and_says_why(qtbot, window) -> None:
    window.open_registry("unpublished")
    qtbot.waitUntil(lambda: window.current_document().name == "unpublished")
    window.show_diff()
    assert window.modes.currentWidget() is window.diff_empty
    swap = action(window, "diff_swap")
    assert not swap.isEnabled() and "publish a version" in swap.toolTip()


def test_the_toolbars_follow_the_views_rebuilt_by_a_language_switch(qtbot, window) -> None:
    old = window.show_sessions()
    window.retranslate_ui()  # every mode view is built again
    new = window.sessions_view
    assert new is not None and new is not old
    assert window.view_toolbars.toolbars["sessions"].view is new
    action(window, "sessions_import_log").trigger()
    assert new.import_dialog is not None and new.import_dialog.isVisible()
    new.import_dialog.close()


def test_no_mode_toolbar_raises_the_window_minimum_size(qtbot, window) -> None:
    window.resize(900, 600)
    for mode in ("sessions", "diff", "release", "editor"):
        window.show_mode(mode)
        qtbot.wait(1)
        hint = window.minimumSizeHint().expandedTo(window.minimumSize())
        assert hint.width() <= 900 and hint.height() <= 600, (mode, hint)
        assert window.size() == QSize(900, 600), mode
