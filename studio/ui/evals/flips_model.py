"""The A vs B pairs as a table model: broken first, then fixed, then the unchanged.

A model instead of table items: a 10,000-case comparison is shown without
building 70,000 items (the report of a big run stays quick to re-read while
the run goes). Status colours come from the theme at paint time.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt
from PySide6.QtGui import QColor

from studio.evals.stats import CasePair
from studio.ui.models.table_base import RowTableModel
from studio.ui.style import theme_colour

CaseRole = Qt.ItemDataRole.UserRole + 41
_ORDER = {"broken": 0, "fixed": 1}
_COLOURS = {"broken": "error_fg", "fixed": "promote_fg"}
_STATUS_WORDS = {
    "broken": QT_TRANSLATE_NOOP("FlipsModel", "broken"),
    "fixed": QT_TRANSLATE_NOOP("FlipsModel", "fixed"),
    "unchanged": QT_TRANSLATE_NOOP("FlipsModel", "unchanged"),
}


def why(pair: CasePair) -> str:
    """What failed: B's failures for a broken or unchanged pair, A's for a fixed one."""
    failures = pair.a_failures if pair.status == "fixed" else pair.b_failures
    return "; ".join(failures) or "—"


def status_word(status: str) -> str:
    """``broken``, ``fixed`` or ``unchanged`` in the UI language."""
    word = _STATUS_WORDS.get(status, _STATUS_WORDS["unchanged"])
    return QCoreApplication.translate("FlipsModel", str(word))


class FlipsModel(RowTableModel[CasePair]):
    """Columns: status, case, profile, expected, A chose, B chose, why."""

    columns = (
        (str(QT_TRANSLATE_NOOP("Columns", "Status")), lambda p: status_word(p.status)),
        (str(QT_TRANSLATE_NOOP("Columns", "Case")), lambda p: p.case_id),
        (str(QT_TRANSLATE_NOOP("Columns", "Profile")), lambda p: p.profile),
        (str(QT_TRANSLATE_NOOP("Columns", "Expected")), lambda p: p.expected),
        (str(QT_TRANSLATE_NOOP("Columns", "A chose")), lambda p: p.a_chosen),
        (str(QT_TRANSLATE_NOOP("Columns", "B chose")), lambda p: p.b_chosen),
        (str(QT_TRANSLATE_NOOP("Columns", "Why")), why),
    )

    def set_pairs(self, pairs: Sequence[CasePair]) -> None:
        """Show ``pairs``: broken first, then fixed, then the unchanged, by case id."""
        self.set_rows(sorted(pairs, key=lambda p: (_ORDER.get(p.status, 2), p.case_id)))

    def pairs(self) -> list[CasePair]:
        return self.rows()

    def tooltip(self, row: CasePair, column: int) -> Any:
        return self.display(row, column)

    def foreground(self, row: CasePair, column: int) -> Any:
        name = _COLOURS.get(row.status) if column == 0 else None
        return QColor(theme_colour(name)) if name else None

    def role_data(self, row: CasePair, column: int, role: int) -> Any:
        return row.case_id if role == CaseRole else super().role_data(row, column, role)
