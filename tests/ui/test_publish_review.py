"""Publishing with a review: the diff against stable, acknowledgements, the stored review."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox

from registry_db import RegistryStore, UpsertTool
from studio.contract import ToolContract
from studio.ui.dialogs.publish_dialog import PublishDialog, PublishRequest
from studio.ui.diff.sides import publish_baseline
from studio.ui.main_window import MainWindow, Prompts
from tests.ui.diff_helpers import TOOL, break_the_draft, edit_tool, seed_order_service


@pytest.fixture
def store(tmp_path: Path):
    store = seed_order_service(tmp_path / "publish.sqlite3")
    yield store
    store.close()


def dialog_for(qtbot, store: RegistryStore, published: list[PublishRequest]) -> PublishDialog:
    baseline = publish_baseline(store, "order-service")

    def publish(request: PublishRequest):
        published.append(request)
        return store.publish(
            "order-service", notes=request.notes, semver=request.semver, review=request.review
        )

    dialog = PublishDialog("order-service", 10, publish, baseline=baseline, author="alice")
    qtbot.addWidget(dialog)
    return dialog


def publish_button(dialog: PublishDialog):
    return dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)


def test_breaking_changes_need_every_acknowledgement(qtbot, store: RegistryStore) -> None:
    break_the_draft(store)
    requests: list[PublishRequest] = []
    dialog = dialog_for(qtbot, store, requests)
    assert "stable" not in dialog.baseline.label or "v1" in dialog.baseline.label
    assert "latest version (v1)" in dialog.baseline_label.text()
    assert dialog.semver_edit.text() == "2.0.0"  # 1.0.0 + major
    items = dialog.ack_items()
    assert len(items) == 2
    assert not publish_button(dialog).isEnabled()
    items[0].setCheckState(Qt.CheckState.Checked)
    assert not publish_button(dialog).isEnabled()
    dialog.accept()  # refused while one is missing
    assert requests == [] and dialog.published is None
    items[1].setCheckState(Qt.CheckState.Checked)
    assert publish_button(dialog).isEnabled()
    dialog.notes_edit.setPlainText("drop cancelled")
    qtbot.mouseClick(publish_button(dialog), Qt.MouseButton.LeftButton)
    assert dialog.published is not None and dialog.published.semver == "2.0.0"

    review = store.load_version("order-service", 2).info.review
    assert review["against"] == "v1"
    assert review["counts"]["breaking"] == 2
    assert review["semver"]["level"] == "major"
    assert set(review["semver"]["reasons"]) == {
        "schema.enum-value-removed",
        "schema.required-added",
    }
    assert review["acknowledged_by"] == "alice"
    acked = {(a["rule_id"], a["tool"], a["path"]) for a in review["acknowledged"]}
    assert acked == {
        ("schema.enum-value-removed", TOOL, "parameters.properties.status.enum"),
        ("schema.required-added", TOOL, "parameters.properties.reason"),
    }
    assert store.list_versions("order-service")[-1].review == review


def test_compared_with_the_stable_channel(qtbot, store: RegistryStore) -> None:
    from studio.release import set_channel

    set_channel(store, "order-service", "stable", version=1, who="ops", why="pin")
    edit_tool(store, TOOL, title="Order status")
    dialog = dialog_for(qtbot, store, [])
    assert dialog.baseline.label == "stable (v1)"
    assert "stable channel" in dialog.baseline_label.text()


def test_no_breaking_change_needs_no_acknowledgement(qtbot, store: RegistryStore) -> None:
    row = next(t for t in store.draft_tools("order-service") if t.tool.name == TOOL)
    params = {**row.tool.parameters}
    params["properties"] = {**params["properties"], "note": {"type": "string"}}
    edit_tool(store, TOOL, parameters=params)
    requests: list[PublishRequest] = []
    dialog = dialog_for(qtbot, store, requests)
    assert dialog.ack_list.count() == 0
    assert publish_button(dialog).isEnabled()
    assert dialog.semver_edit.text() == "1.1.0"
    dialog.accept()
    review = store.latest_version("order-service").review
    assert review["acknowledged"] == [] and review["semver"]["level"] == "minor"


def test_never_published_registry_says_so(qtbot, tmp_path: Path) -> None:
    with RegistryStore.open(tmp_path / "new.sqlite3") as store:
        store.create_registry("fresh")
        store.save_draft("fresh", [UpsertTool(ToolContract("ping", summary="Ping it."))])
        baseline = publish_baseline(store, "fresh")
        assert "never been published" in baseline.note
        dialog = PublishDialog("fresh", 1, lambda r: None, baseline=baseline)  # type: ignore[arg-type]
        qtbot.addWidget(dialog)
        assert dialog.semver_edit.text() == "1.0.0"
        assert publish_button(dialog).isEnabled()


def test_main_window_publishes_with_review_and_shows_it(
    qtbot, store: RegistryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    break_the_draft(store)

    def run_dialog(dialog: PublishDialog) -> int:
        assert not publish_button(dialog).isEnabled()
        dialog.acknowledge_all()
        dialog.accept()
        return dialog.result()

    monkeypatch.setattr(PublishDialog, "exec", run_dialog)
    window = MainWindow(store, Prompts())
    qtbot.addWidget(window)
    window.open_registry("order-service")
    info = window.publish_current()
    assert info is not None and info.number == 2 and info.review is not None
    assert len(info.review["acknowledged"]) == 2
    tree = window.versions_panel.tree
    top = tree.topLevelItem(0)
    column = tree.columnCount() - 1
    assert top.text(column) == "major · breaking ack'd: 2"
    assert "acknowledged by" in top.toolTip(column)
    assert tree.topLevelItem(1).text(column) == ""  # v1 was published without a review


def test_compare_from_versions_panel_opens_diff_mode(qtbot, store: RegistryStore) -> None:
    break_the_draft(store)
    window = MainWindow(store, Prompts())
    qtbot.addWidget(window)
    window.open_registry("order-service")
    window.versions_panel.select_version(1)
    view = None
    with qtbot.wait_signal(window.versions_panel.compareRequested):
        window.versions_panel.compare_button.click()
    view = window.diff_view
    assert view is not None and window.modes.currentWidget() is view
    qtbot.wait_until(lambda: view.diff is not None, timeout=20000)
    assert (view.diff.a_label, view.diff.b_label) == ("v1", "draft")
    assert window.diff_action.isChecked()
    window.playground_actions.show_editor.trigger()
    assert window.modes.currentIndex() == 0
    view.runner.wait()
