"""The read-only, sortable, one-row-selection table the lint panels show."""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, Qt
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget


def read_only_table(
    parent: QWidget,
    model: QAbstractItemModel,
    sort_column: int,
    widths: dict[int, int],
    order: Qt.SortOrder = Qt.SortOrder.DescendingOrder,
) -> QTableView:
    """A table of whole-row selection, no editing, compact rows, sorted by ``sort_column``.

    ``widths`` gives the starting width of columns by number; the last column
    stretches.
    """
    view = QTableView(parent)
    view.setModel(model)
    view.setSortingEnabled(True)
    view.sortByColumn(sort_column, order)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.setWordWrap(False)
    view.verticalHeader().setVisible(False)
    view.verticalHeader().setDefaultSectionSize(parent.fontMetrics().height() + 6)
    header = view.horizontalHeader()
    header.setStretchLastSection(True)
    header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    for column, width in widths.items():
        view.setColumnWidth(column, width)
    return view
