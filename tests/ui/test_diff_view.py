"""The Diff view on a real SQLite store: counts, suggestion, word diff, renames, export, models."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from registry_db import RegistryStore
from studio.diff import ChangeClass, ToolStatus, to_markdown
from studio.ui.diff.diff_models import ChangeTableModel, ToolDiffListModel
from studio.ui.diff.diff_view import DiffView
from studio.ui.diff.side_by_side import lines_html, ops_html
from studio.ui.diff.sides import DRAFT, DiffSide, available_sides
from tests.ui.diff_helpers import TOOL, break_the_draft, rename_tool, seed_order_service


@pytest.fixture
def store(tmp_path: Path):
    store = seed_order_service(tmp_path / "diff.sqlite3")
    yield store
    store.close()


def show(qtbot, view: DiffView, action) -> None:
    with qtbot.wait_signal(view.diffShown, timeout=20000):
        action()


@pytest.fixture
def view(qtbot, store: RegistryStore) -> DiffView:
    view = DiffView(store, lint_profile=None)
    qtbot.addWidget(view)
    yield view
    view.runner.wait()


def test_sides_list_draft_versions_and_stable(store: RegistryStore) -> None:
    labels = [s.label for s in available_sides(store, "order-service")]
    assert labels == ["draft", "v1", "stable (v1)"]


def test_v1_against_a_breaking_draft(qtbot, store: RegistryStore, view: DiffView) -> None:
    break_the_draft(store)
    show(qtbot, view, lambda: view.set_registry("order-service"))
    diff = view.diff
    assert diff is not None and (diff.a_label, diff.b_label) == ("v1", "draft")
    assert diff.counts[ChangeClass.BREAKING] == 2
    assert diff.semver.level == "major"
    text = view.counts_label.text()
    assert "<b>2</b> breaking" in text and "behavioural" in text
    assert "MAJOR" in view.semver_label.text()
    assert "schema.enum-value-removed" in view.semver_label.text()
    assert "schema.required-added" in view.semver_label.text()
    # Only the changed tool is listed, coloured as breaking; its changes fill the table.
    assert view.tool_model.rowCount() == 1
    assert view.selected_tool().name == TOOL
    index = view.tool_model.index(0, 0)
    assert view.tool_model.data(index, ToolDiffListModel.WorstRole) == "breaking"
    rules = [view.change_model.data(view.change_model.index(r, 0)) for r in range(3)]
    assert {"schema.enum-value-removed", "schema.required-added"} <= set(rules)
    assert view.change_model.rowCount() == 3


def test_word_diff_highlights_changed_words_and_cjk(qtbot, store, view: DiffView) -> None:
    break_the_draft(store)
    show(qtbot, view, lambda: view.set_registry("order-service"))
    left = view.description_diff.left.toHtml()
    right = view.description_diff.right.toHtml()
    assert "Update" in left and "Change" in right
    # The highlighted runs: the old word on the left, the new word and the CJK text on the right.
    left_html, right_html = ops_html(view.selected_tool().blocks[0].ops)
    assert '<span class="del"' in left_html and "Update</span>" in left_html
    assert '<span class="ins"' in right_html and "Change</span>" in right_html
    assert "更新订单状态" in right_html.split('class="ins"', 2)[-1]
    # The schema pane highlights the removed enum value.
    schema_left = view.schema_diff.left.toPlainText()
    assert "cancelled" in schema_left
    _, right_schema = lines_html('"a": 1\n"b": 2', '"a": 1\n"b": 3\n"c": 4')
    assert 'class="ins" style="background-color:#bff0c9">3<' in right_schema


def test_cjk_characters_are_units_of_the_word_diff() -> None:
    from studio.diff import word_diff

    left, right = ops_html(word_diff("查询订单", "查询退款"))
    assert "查询" not in left.split("<span")[1] and "订单" in left
    assert "退款" in right


def test_confirm_rename_shows_the_tool_as_renamed(qtbot, store, view: DiffView) -> None:
    rename_tool(store, "send_notification", "notify_customer")
    show(qtbot, view, lambda: view.set_registry("order-service"))
    detected = view.diff.tool("notify_customer")
    if detected.status is ToolStatus.RENAMED:  # detected: reject it first
        show(qtbot, view, lambda: view.renames.reject_button(0).click())
        assert view.diff.tool("notify_customer").status is ToolStatus.ADDED
    panel = view.renames
    panel.removed_combo.setCurrentText("send_notification")
    panel.added_combo.setCurrentText("notify_customer")
    show(qtbot, view, panel.pair_button.click)
    tool = view.diff.tool("notify_customer")
    assert tool.status is ToolStatus.RENAMED and tool.old_name == "send_notification"
    assert view.confirmed == {"send_notification": "notify_customer"}
    row = view.tool_model.row_of("notify_customer")
    shown = view.tool_model.data(view.tool_model.index(row, 0), Qt.ItemDataRole.DisplayRole)
    assert "send_notification → notify_customer" in shown and "renamed" in shown
    assert view.diff.tool("send_notification") is None


def test_export_markdown_and_json(qtbot, store, view: DiffView, tmp_path: Path) -> None:
    break_the_draft(store)
    asked: list[str] = []

    def choose(_parent, _caption, suggested, _filter):
        asked.append(suggested)
        return str(tmp_path / suggested)

    view.choose_file = choose
    show(qtbot, view, lambda: view.set_registry("order-service"))
    path = view.export_markdown()
    assert path is not None and path.read_text(encoding="utf-8") == to_markdown(view.diff)
    assert asked[0].endswith(".md")
    json_path = view.export_json()
    assert json_path is not None and '"breaking": 2' in json_path.read_text(encoding="utf-8")
    view.choose_file = lambda *_: None
    assert view.export_markdown() is None


def test_newest_request_wins_and_swap(qtbot, store, view: DiffView) -> None:
    break_the_draft(store)
    view.set_registry("order-service")  # not awaited: replaced by the next request
    show(qtbot, view, lambda: view.compare(DRAFT, DiffSide("version", 1)))
    assert (view.diff.a_label, view.diff.b_label) == ("draft", "v1")
    show(qtbot, view, view.swap)
    assert (view.diff.a_label, view.diff.b_label) == ("v1", "draft")
    show(qtbot, view, lambda: view.compare(DiffSide("channel", 1, "stable"), DRAFT))
    assert view.diff.a_label == "stable (v1)"


def test_lint_delta_is_shown(qtbot, store: RegistryStore) -> None:
    break_the_draft(store)
    view = DiffView(store)
    qtbot.addWidget(view)
    show(qtbot, view, lambda: view.set_registry("order-service"))
    text = view.deltas.toPlainText()
    assert "Lint (openai)" in text and "added" in text and "Tokens" in text
    view.runner.wait()


def test_models_pass_the_model_tester(qtmodeltester, qtbot, store, view: DiffView) -> None:
    break_the_draft(store)
    show(qtbot, view, lambda: view.set_registry("order-service"))
    tools = ToolDiffListModel()
    tools.set_tools(view.diff.tools, show_unchanged=True)
    qtmodeltester.check(tools)
    changes = ChangeTableModel()
    changes.set_changes(view.diff.changes)
    qtmodeltester.check(changes)
