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
    QT_TRANSLATE_NOOP,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QColor

from studio.evals.model import EvalCase
from studio.ui.models.table_base import RowTableModel
from studio.ui.style import theme_colour

_Index = QModelIndex | QPersistentModelIndex

# Result filter values (the proxy's ``result`` attribute).
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


class CasesModel(RowTableModel[EvalCase]):
    """Rows are cases; columns id, user turn, expected, tags, result."""

    CaseRole = RowTableModel.RowRole
    ResultRole = Qt.ItemDataRole.UserRole + 3
    columns = (
        (str(QT_TRANSLATE_NOOP("Columns", "Id")), lambda c: c.id),
        (str(QT_TRANSLATE_NOOP("Columns", "User turn")), lambda c: _one_line(c.user)),
        (str(QT_TRANSLATE_NOOP("Columns", "Expected")), expectation_text),
        (str(QT_TRANSLATE_NOOP("Columns", "Tags")), lambda c: ", ".join(c.tags)),
        (str(QT_TRANSLATE_NOOP("Columns", "Result")), lambda _c: ""),
    )
    _RESULT = 4

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._results: dict[str, bool] = {}

    # ------------------------------------------------------------------ data in

    def set_cases(self, cases: Sequence[EvalCase]) -> None:
        self.set_rows(cases)

    def cases(self) -> list[EvalCase]:
        return self.rows()

    def set_results(self, results: Mapping[str, bool]) -> None:
        """Pass/fail per case id in the chosen run (empty: no run chosen)."""
        self._results = dict(results)
        if self.rowCount():
            last = self.rowCount() - 1
            self.dataChanged.emit(self.index(0, self._RESULT), self.index(last, self._RESULT))

    def result_of(self, case_id: str) -> bool | None:
        return self._results.get(case_id)

    def tags(self) -> list[str]:
        """Every tag used, sorted."""
        return sorted({t for c in self.rows() for t in c.tags})

    def row_of(self, case_id: str) -> int:
        return next((i for i, c in enumerate(self.rows()) if c.id == case_id), -1)

    # ------------------------------------------------------------------ cells

    def display(self, row: EvalCase, column: int) -> Any:
        if column == self._RESULT:
            result = self._results.get(row.id)
            return "" if result is None else self._result_word(result)
        return self.value(row, column)

    def tooltip(self, row: EvalCase, column: int) -> Any:
        if column == 1:
            return row.user  # the whole turn; the cell shows one line
        if column == self._RESULT and self._results.get(row.id) is None:
            return self.tr("Not in the run")
        return self.display(row, column)

    def _result_word(self, result: bool) -> str:
        return self.tr("passed") if result else self.tr("failed")

    def foreground(self, row: EvalCase, column: int) -> Any:
        result = self._results.get(row.id) if column == self._RESULT else None
        return None if result is None else _colour("promote_fg" if result else "error_fg")

    def role_data(self, row: EvalCase, column: int, role: int) -> Any:
        if role == self.ResultRole:
            return self._results.get(row.id)
        return super().role_data(row, column, role)


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
