"""Editor comfort: lint state and labelled risk in the tool list, growing blocks, long summaries."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from registry_db import RegistryStore, UpsertTool
from studio.contract import RiskTier, ToolContract
from studio.editing import EditTool, SetField
from studio.ui.main_window import MainWindow
from studio.ui.models.tool_list_model import ToolListModel
from studio.ui.widgets.overview_tab import GrowingTextEdit
from tests.ui.registry_helpers import ScriptedPrompts, shown_window

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")

LONG_SUMMARY = (
    "Find the employee's invoices for a period, newest first, with their amounts, "
    "currencies, merchants and whether each was already claimed in a reimbursement."
)
TOOLS = [
    ToolContract("query_invoices", title="Invoices", summary=LONG_SUMMARY),
    # No summary, no blocks: lint warnings, although a read tool (a green dot read as healthy).
    ToolContract("legacy_lookup", description="Legacy text kept from an import."),
    ToolContract(
        "delete_claim", summary="Delete a reimbursement claim.", risk=RiskTier.DESTRUCTIVE
    ),
]


@pytest.fixture
def store(tmp_path: Path) -> Iterator[RegistryStore]:
    opened = RegistryStore.open(tmp_path / "studio.sqlite3")
    opened.create_registry("travel")
    opened.save_draft("travel", [UpsertTool(t) for t in TOOLS])
    yield opened
    opened.close()


@pytest.fixture
def window(qtbot, store: RegistryStore) -> Iterator[MainWindow]:
    with shown_window(qtbot, store) as w:
        yield w


def _row(window: MainWindow, name: str):  # type: ignore[no-untyped-def]
    model = window.current_model()
    doc = window.current_document()
    row = next(i for i, e in enumerate(doc.workspace.entries) if e.tool.name == name)
    return model.index(row, 0)


def test_the_tool_list_shows_lint_state_and_a_labelled_risk(qtbot, window) -> None:
    controller = window.lint_ops.current_controller()
    qtbot.waitUntil(lambda: controller.report is not None and not controller.busy, timeout=20_000)
    bad = _row(window, "legacy_lookup")
    assert bad.data(ToolListModel.LintRole) == "warning"
    assert bad.data(ToolListModel.RiskRole) == "read"
    tip = bad.data(Qt.ItemDataRole.ToolTipRole)
    assert "lint: " in tip and " warnings" in tip and "risk tier R — read: only reads" in tip
    delete = _row(window, "delete_claim")
    assert "risk tier D — destructive" in delete.data(Qt.ItemDataRole.ToolTipRole)
    assert not delete.data(Qt.ItemDataRole.DecorationRole).isNull()
    legend = window.tool_legend.text()
    assert "✕ errors" in legend and "R read" in legend and "D destructive" in legend
    assert window.tool_legend.isVisible()


def test_before_lint_a_tool_says_lint_has_not_run(window) -> None:
    model = window.current_model()
    model.set_lint(None)
    index = _row(window, "query_invoices")
    assert index.data(ToolListModel.LintRole) == ""
    assert "lint: not run yet" in index.data(Qt.ItemDataRole.ToolTipRole)


def test_description_blocks_grow_with_their_text(qtbot, window) -> None:
    window.select_tool_named("query_invoices")
    doc, entry = window.current_document(), window.selected_entry()
    usage = window.editor.overview_tab.block_edits["usage"]
    assert isinstance(usage, GrowingTextEdit)
    short = usage.height()
    text = "\n".join(f"Line {i}: when to use it and when not." for i in range(12))
    doc.push(EditTool(entry.key, SetField("usage", text)))
    qtbot.waitUntil(lambda: usage.height() > short)
    assert usage.lines() >= 12
    assert usage.height() >= usage.fontMetrics().lineSpacing() * 12
    assert usage.verticalScrollBarPolicy() == Qt.ScrollBarPolicy.ScrollBarAlwaysOff


def test_a_long_summary_shows_its_beginning(window) -> None:
    window.select_tool_named("delete_claim")
    window.select_tool_named("query_invoices")
    summary = window.editor.overview_tab.summary_edit
    assert summary.text() == LONG_SUMMARY
    assert summary.cursorPosition() == 0


def test_text_in_the_free_text_description_is_pointed_at(window) -> None:
    window.select_tool_named("legacy_lookup")
    overview = window.editor.overview_tab
    assert overview.free_text_note.isVisible()
    assert "free-text description" in overview.free_text_note.text()
    window.select_tool_named("query_invoices")
    assert not overview.free_text_note.isVisible()


def test_the_example_registries_say_what_they_are(qtbot, tmp_path) -> None:
    from registry_db import open_default_store

    store = open_default_store(tmp_path / "seeded.sqlite3", seed=True)
    window = MainWindow(store, ScriptedPrompts())
    qtbot.addWidget(window)
    window.show()
    assert window.current_document().name == "travel-reimbursement"
    assert "exemplary" in window.example_note.text()
    window.open_registry("order-service")
    assert window.example_note.isVisible()
    assert "flawed on purpose" in window.example_note.text()
    window.registry_ops.shutdown()
    window.lint_ops.shutdown()
    store.close()
