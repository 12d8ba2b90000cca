"""The session list: a table model over :class:`SessionRow` and a filter/sort proxy.

The model only adapts rows read by :func:`studio.sessions.library.session_rows`;
filtering (source, registry, text) and sorting live in :class:`SessionsFilterModel`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)

from studio.sessions.library import SessionRow

_Index = QModelIndex | QPersistentModelIndex
COLUMNS = ("Title", "Source", "Registry", "Model", "Problems", "Messages", "Date")
PROBLEMS_COLUMN = COLUMNS.index("Problems")
ROW_ROLE = Qt.ItemDataRole.UserRole + 1
SORT_ROLE = Qt.ItemDataRole.UserRole + 2


def _registry_label(row: SessionRow) -> str:
    if not row.registry:
        return "—"
    return f"{row.registry} {row.version}" if row.version else row.registry


def _date_label(created_at: str) -> str:
    return created_at.replace("T", " ")[:16]


class SessionsTableModel(QAbstractTableModel):
    """One row per stored session (newest first, as given)."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._rows: list[SessionRow] = []

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 - Qt signature
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 - Qt signature
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if (
            role == Qt.ItemDataRole.DisplayRole
            and orientation == Qt.Orientation.Horizontal
            and 0 <= section < len(COLUMNS)
        ):
            return COLUMNS[section]
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row = self._rows[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(row, column)
        if role == SORT_ROLE:
            if column == PROBLEMS_COLUMN:
                return row.problems
            if column == COLUMNS.index("Messages"):
                return row.messages
            if column == COLUMNS.index("Date"):
                return row.created_at
            return (self._display(row, column) or "").casefold()
        if role == Qt.ItemDataRole.ToolTipRole:
            if column == 0:
                return f"{row.title or '(untitled)'}\n{row.id} · {row.status}"
            if column == PROBLEMS_COLUMN:
                return f"{row.problems} pairing problem(s) and suspicious pattern(s)"
            return self._display(row, column)
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (PROBLEMS_COLUMN, 5):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == ROW_ROLE:
            return row
        return None

    @staticmethod
    def _display(row: SessionRow, column: int) -> str:
        values = (
            row.title or "(untitled)",
            row.source,
            _registry_label(row),
            row.model or "—",
            str(row.problems),
            str(row.messages),
            _date_label(row.created_at),
        )
        return values[column] if 0 <= column < len(values) else ""

    def flags(self, index: _Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    # ------------------------------------------------------------------ rows

    def set_rows(self, rows: Sequence[SessionRow]) -> None:
        self.beginResetModel()
        self._rows = list(rows)
        self.endResetModel()

    def rows(self) -> list[SessionRow]:
        return list(self._rows)

    def row_of(self, session_id: str) -> int:
        return next((i for i, r in enumerate(self._rows) if r.id == session_id), -1)


class SessionsFilterModel(QSortFilterProxyModel):
    """Sessions filtered by source, registry and a text (title, id, model, registry)."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._source = ""
        self._registry = ""
        self._text = ""
        self.setSortRole(SORT_ROLE)
        self.setDynamicSortFilter(True)

    def set_source_filter(self, source: str) -> None:
        """Only sessions of ``source`` (``playground``, ``import``, ``replay``; empty: all)."""
        self.beginFilterChange()
        self._source = source
        self.endFilterChange()

    def set_registry_filter(self, registry: str) -> None:
        self.beginFilterChange()
        self._registry = registry
        self.endFilterChange()

    def set_text_filter(self, text: str) -> None:
        self.beginFilterChange()
        self._text = text.strip().casefold()
        self.endFilterChange()

    def filterAcceptsRow(self, source_row: int, source_parent: _Index) -> bool:
        model = self.sourceModel()
        if not isinstance(model, SessionsTableModel):
            return True
        row = model.data(model.index(source_row, 0, source_parent), ROW_ROLE)
        if row is None:
            return False
        if self._source and row.source != self._source:
            return False
        if self._registry and row.registry != self._registry:
            return False
        if self._text:
            haystack = " ".join((row.title, row.id, row.model, row.registry)).casefold()
            return self._text in haystack
        return True

    def row_at(self, proxy_row: int) -> SessionRow | None:
        return self.index(proxy_row, 0).data(ROW_ROLE) if 0 <= proxy_row < self.rowCount() else None
