"""The cases of one eval set as a table, filtered by tag and by result in a chosen run.

The table shows what a reviewer scans for: id, the user turn, what is expected
(tool names, ``no tool`` or ``ask``), tags, and — when a run is chosen — whether
the case passed there. Results are keyed by case id, so a set edited after the
run still shows the results of the cases it kept.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QColor

from studio.evals.model import EvalCase
from studio.ui.style import theme_colour

_Index = QModelIndex | QPersistentModelIndex

#: Result filter values (the proxy's ``result`` attribute).
RESULT_ANY, RESULT_PASSED, RESULT_FAILED, RESULT_NOT_RUN = "any", "passed", "failed", "not run"


def expectation_text(case: EvalCase) -> str:
    """``query_invoices``, ``a → b`` (sequence), ``a + b`` (set), ``no tool`` or ``ask``."""
    kind = case.expect.kind
    if kind == "no_tool":
        return "(no tool)"
    if kind == "ask":
        return "(ask)"
    joiner = " → " if case.expect.order == "sequence" and kind == "tools" else " + "
    return joiner.join(case.expect.tools)


class CasesModel(QAbstractTableModel):
    """Rows are cases; columns id, user turn, expected, tags, result."""

    CaseRole = Qt.ItemDataRole.UserRole + 1
    ResultRole = Qt.ItemDataRole.UserRole + 2
    COLUMNS = 5

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._cases: list[EvalCase] = []
        self._results: dict[str, bool] = {}

    # ------------------------------------------------------------------ data in

    def set_cases(self, cases: Sequence[EvalCase]) -> None:
        self.beginResetModel()
        self._cases = list(cases)
        self.endResetModel()

    def cases(self) -> list[EvalCase]:
        return list(self._cases)

    def set_results(self, results: Mapping[str, bool]) -> None:
        """Pass/fail per case id in the chosen run (empty: no run chosen)."""
        self._results = dict(results)
        if self._cases:
            self.dataChanged.emit(self.index(0, 4), self.index(len(self._cases) - 1, 4))

    def result_of(self, case_id: str) -> bool | None:
        return self._results.get(case_id)

    def tags(self) -> list[str]:
        """Every tag used, sorted."""
        return sorted({t for c in self._cases for t in c.tags})

    def row_of(self, case_id: str) -> int:
        return next((i for i, c in enumerate(self._cases) if c.id == case_id), -1)

    # ------------------------------------------------------------------ Qt model

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._cases)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else self.COLUMNS

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal or role != Qt.ItemDataRole.DisplayRole:
            return None
        titles = (self.tr("Id"), self.tr("User turn"), self.tr("Expected"), self.tr("Tags"),
                  self.tr("Result"))  # fmt: skip
        return titles[section] if 0 <= section < len(titles) else None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._cases):
            return None
        case = self._cases[index.row()]
        column = index.column()
        if role == self.CaseRole:
            return case
        result = self._results.get(case.id)
        if role == self.ResultRole:
            return result
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            if column == 0:
                return case.id
            if column == 1:
                text = case.user if role == Qt.ItemDataRole.ToolTipRole else _one_line(case.user)
                return text
            if column == 2:
                return expectation_text(case)
            if column == 3:
                return ", ".join(case.tags)
            if column == 4:
                if result is None:
                    return "" if role == Qt.ItemDataRole.DisplayRole else self.tr("Not in the run")
                return self.tr("passed") if result else self.tr("failed")
        if role == Qt.ItemDataRole.ForegroundRole and column == 4 and result is not None:
            return _colour("promote_fg" if result else "error_fg")
        return None


def _colour(name: str) -> QColor:
    """A theme colour (green for passed, red for failed) read at paint time: follows a switch."""
    return QColor(theme_colour(name))


def _one_line(text: str, limit: int = 120) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


class CasesFilter(QSortFilterProxyModel):
    """Text (id and user turn), one tag, and a result (passed, failed, not run)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.tag = ""
        self.result = RESULT_ANY
        self.text = ""

    def set_filters(self, *, tag: str | None = None, result: str | None = None,
                    text: str | None = None) -> None:  # fmt: skip
        self.beginFilterChange()
        if tag is not None:
            self.tag = tag
        if result is not None:
            self.result = result
        if text is not None:
            self.text = text.strip().lower()
        self.endFilterChange()

    def refilter(self) -> None:
        """Apply the filters again (the results of the chosen run changed)."""
        self.beginFilterChange()
        self.endFilterChange()

    def filterAcceptsRow(self, row: int, parent: _Index) -> bool:
        model = self.sourceModel()
        if not isinstance(model, CasesModel):
            return True
        case: EvalCase = model.data(model.index(row, 0, parent), CasesModel.CaseRole)
        if self.tag and self.tag not in case.tags:
            return False
        if self.text and self.text not in case.id.lower() and self.text not in case.user.lower():
            return False
        if self.result != RESULT_ANY:
            outcome = model.result_of(case.id)
            wanted = {RESULT_PASSED: True, RESULT_FAILED: False, RESULT_NOT_RUN: None}
            if outcome is not wanted[self.result]:
                return False
        return True
