"""The A vs B pairs as a table model: broken first, then fixed, then the unchanged.

A model instead of table items: a 10,000-case comparison is shown without
building 70,000 items (the report of a big run stays quick to re-read while
the run goes). Status colours come from the theme at paint time.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor

from studio.evals.stats import CasePair
from studio.ui.style import theme_colour

_Index = QModelIndex | QPersistentModelIndex
CaseRole = Qt.ItemDataRole.UserRole + 41
_ORDER = {"broken": 0, "fixed": 1}
_COLOURS = {"broken": "error_fg", "fixed": "promote_fg"}


def why(pair: CasePair) -> str:
    """What failed: B's failures for a broken or unchanged pair, A's for a fixed one."""
    failures = pair.a_failures if pair.status == "fixed" else pair.b_failures
    return "; ".join(failures) or "—"


class FlipsModel(QAbstractTableModel):
    """Columns: status, case, profile, expected, A chose, B chose, why."""

    COLUMNS = 7

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._pairs: list[CasePair] = []

    def set_pairs(self, pairs: Sequence[CasePair]) -> None:
        self.beginResetModel()
        self._pairs = sorted(pairs, key=lambda p: (_ORDER.get(p.status, 2), p.case_id))
        self.endResetModel()

    def pairs(self) -> list[CasePair]:
        return list(self._pairs)

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._pairs)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else self.COLUMNS

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal or role != Qt.ItemDataRole.DisplayRole:
            return None
        titles = (self.tr("Status"), self.tr("Case"), self.tr("Profile"), self.tr("Expected"),
                  self.tr("A chose"), self.tr("B chose"), self.tr("Why"))  # fmt: skip
        return titles[section] if 0 <= section < len(titles) else None

    def _status(self, status: str) -> str:
        return {"broken": self.tr("broken"), "fixed": self.tr("fixed")}.get(
            status, self.tr("unchanged")
        )

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._pairs):
            return None
        p = self._pairs[index.row()]
        if role == CaseRole:
            return p.case_id
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            cells = (self._status(p.status), p.case_id, p.profile, p.expected, p.a_chosen,
                     p.b_chosen, why(p))  # fmt: skip
            return cells[index.column()]
        if role == Qt.ItemDataRole.ForegroundRole and index.column() == 0:
            name = _COLOURS.get(p.status)
            return QColor(theme_colour(name)) if name else None
        return None
