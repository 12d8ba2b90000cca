"""The session browser's models without widgets: rows, filters, sorting, pending, re-validation."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from studio.sessions.library import SessionRow
from studio.sessions.pairing import Position
from studio.sessions.replay import PendingCall
from studio.sessions.revalidate import FAILS, PASSES, RevalidationRow
from studio.ui.sessions.replay_bar import PendingCallsModel
from studio.ui.sessions.revalidate_view import RevalidationTableModel
from studio.ui.sessions.sessions_model import (
    COLUMNS,
    PROBLEMS_COLUMN,
    SessionsFilterModel,
    SessionsTableModel,
)

ROWS = [
    SessionRow("a1", "Show my taxi invoices", "import", "", "", "claude-x", 0, 5, "imported",
               "2026-11-03T10:00:00Z", 2, "travel/5f1c2a9e.jsonl"),
    SessionRow("b2", "File a ticket", "playground", "travel-reimbursement", "draft", "gpt-4o", 3,
               12, "completed", "2026-11-02T09:00:00Z", 4),
    SessionRow("c3", "Replayed ticket", "replay", "travel-reimbursement", "2", "gpt-4o", 1, 40,
               "completed", "2026-11-01T08:00:00Z", 11),
]  # fmt: skip


@pytest.fixture
def proxy(qtmodeltester):
    model = SessionsTableModel()
    model.set_rows(ROWS)
    qtmodeltester.check(model)
    proxy = SessionsFilterModel()
    proxy.setSourceModel(model)
    qtmodeltester.check(proxy)
    return proxy


def titles(proxy: SessionsFilterModel) -> list[str]:
    return [proxy.row_at(i).title for i in range(proxy.rowCount())]


def test_rows_show_source_registry_model_problems_and_date(proxy):
    model = proxy.sourceModel()
    assert model.columnCount() == len(COLUMNS)
    row = [model.index(1, c).data() for c in range(len(COLUMNS))]
    assert row == ["File a ticket", "playground", "travel-reimbursement draft", "gpt-4o", "4",
                   "3", "12", "—", "2026-11-02 09:00"]  # fmt: skip
    assert model.index(0, COLUMNS.index("File")).data() == "travel/5f1c2a9e.jsonl"
    assert model.index(0, 2).data() == "—"


def test_filters_by_source_registry_and_text(proxy):
    proxy.set_source_filter("import")
    assert titles(proxy) == ["Show my taxi invoices"]
    proxy.set_source_filter("")
    proxy.set_registry_filter("travel-reimbursement")
    assert titles(proxy) == ["File a ticket", "Replayed ticket"]
    proxy.set_text_filter("REPLAYED")
    assert titles(proxy) == ["Replayed ticket"]
    proxy.set_text_filter("gpt-4o")
    assert len(titles(proxy)) == 2
    proxy.set_registry_filter("")
    proxy.set_text_filter("")
    assert len(titles(proxy)) == 3


def test_sorts_numbers_as_numbers(proxy):
    proxy.sort(PROBLEMS_COLUMN, Qt.SortOrder.DescendingOrder)
    assert [proxy.row_at(i).problems for i in range(3)] == [3, 1, 0]
    proxy.sort(COLUMNS.index("Messages"), Qt.SortOrder.AscendingOrder)
    assert [proxy.row_at(i).messages for i in range(3)] == [5, 12, 40]
    proxy.sort(COLUMNS.index("Calls"), Qt.SortOrder.DescendingOrder)
    assert [proxy.row_at(i).calls for i in range(3)] == [11, 4, 2]
    proxy.sort(COLUMNS.index("File"), Qt.SortOrder.AscendingOrder)
    assert proxy.row_at(0).file == "travel/5f1c2a9e.jsonl"


def test_pending_calls_model(qtmodeltester):
    model = PendingCallsModel()
    model.set_calls([PendingCall("call_2", "search_policy", Position(1, 1), {"q": "taxi"})])
    qtmodeltester.check(model)
    assert "call_2" in model.index(0).data() and "search_policy" in model.index(0).data()
    assert '"q": "taxi"' in model.index(0).data(Qt.ItemDataRole.ToolTipRole)


def test_revalidation_table_model(qtmodeltester):
    model = RevalidationTableModel()
    model.set_rows([
        RevalidationRow(Position(1, 0), "a", "query_invoices", PASSES, recorded={}),
        RevalidationRow(Position(1, 1), "b", "query_invoices", FAILS, "category is required",
                        "INVALID_ARGUMENTS", recorded={"x": 1}),
    ])  # fmt: skip
    qtmodeltester.check(model)
    assert [model.index(1, c).data() for c in range(4)] == [
        "messages[1].parts[1]",
        "b",
        "query_invoices",
        FAILS,
    ]
    assert model.index(1, 3).data(Qt.ItemDataRole.ForegroundRole) is not None
    assert "INVALID_ARGUMENTS" in model.index(1, 0).data(Qt.ItemDataRole.ToolTipRole)
