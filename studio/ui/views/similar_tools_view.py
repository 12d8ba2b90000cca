"""The "similar tools" view: pairs a model may confuse, and what their descriptions lack."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
    Signal,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from studio.lint import Severity, SimilarPair
from studio.ui.widgets.field_markers import severity_icon

Index = QModelIndex | QPersistentModelIndex
_NO_PARENT = QModelIndex()

COLUMNS: tuple[tuple[str, str], ...] = (
    ("a", "Tool"),
    ("b", "Similar to"),
    ("score", "Similarity"),
    ("kind", "Why"),
    ("shared", "Shared words"),
    ("apart", "Tells them apart"),
)
COLUMN = {key: i for i, (key, _) in enumerate(COLUMNS)}
PairRole = Qt.ItemDataRole.UserRole + 1
SortRole = Qt.ItemDataRole.UserRole + 2


def apart_text(pair: SimilarPair) -> str:
    """Which description lacks the line that tells the two tools apart."""
    if pair.a_mentions_b and pair.b_mentions_a:
        return "both descriptions"
    if pair.a_mentions_b:
        return f"only {pair.a}: add a line to {pair.b}"
    if pair.b_mentions_a:
        return f"only {pair.b}: add a line to {pair.a}"
    return "neither: add “use X instead” to both"


def kind_text(pair: SimilarPair) -> str:
    kinds = []
    if pair.near_duplicate:
        kinds.append("similar descriptions")
    if pair.confusable_names:
        kinds.append("confusable names")
    return ", ".join(kinds) or "related"


class SimilarPairsModel(QAbstractTableModel):
    """Adapts the report's :class:`SimilarPair` tuple to a read-only table."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._pairs: tuple[SimilarPair, ...] = ()

    def set_pairs(self, pairs: tuple[SimilarPair, ...] | list[SimilarPair]) -> None:
        pairs = tuple(pairs)
        if pairs == self._pairs:
            return
        self.beginResetModel()
        self._pairs = pairs
        self.endResetModel()

    def pairs(self) -> tuple[SimilarPair, ...]:
        return self._pairs

    def rowCount(self, parent: Index = _NO_PARENT) -> int:
        return 0 if parent.isValid() else len(self._pairs)

    def columnCount(self, parent: Index = _NO_PARENT) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        horizontal = orientation == Qt.Orientation.Horizontal
        if horizontal and role == Qt.ItemDataRole.DisplayRole and 0 <= section < len(COLUMNS):
            return COLUMNS[section][1]
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._pairs):
            return None
        pair = self._pairs[index.row()]
        key = COLUMNS[index.column()][0]
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(pair, key)
        if role == PairRole:
            return pair
        if role == SortRole:
            return pair.score if key == "score" else self._text(pair, key).casefold()
        if role == Qt.ItemDataRole.DecorationRole and key == "apart":
            told = pair.a_mentions_b or pair.b_mentions_a
            both = pair.a_mentions_b and pair.b_mentions_a
            if not both:
                return severity_icon(Severity.WARNING if told else Severity.ERROR)
        if role == Qt.ItemDataRole.TextAlignmentRole and key == "score":
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ToolTipRole:
            return (
                f"{pair.a} ↔ {pair.b}: similarity {pair.score:.2f} ({kind_text(pair)}); "
                f"shared words: {', '.join(pair.shared_terms) or '—'}. "
                f"Line that tells them apart: {apart_text(pair)}."
            )
        return None

    @staticmethod
    def _text(pair: SimilarPair, key: str) -> str:
        if key == "a":
            return pair.a
        if key == "b":
            return pair.b
        if key == "score":
            return f"{pair.score:.2f}"
        if key == "kind":
            return kind_text(pair)
        if key == "shared":
            return ", ".join(pair.shared_terms)
        return apart_text(pair)


class SimilarToolsView(QWidget):
    """A sortable table of similar pairs; double-click (or Enter) opens tool a.

    Signals:
        toolActivated(str): the name of the tool to show.
    """

    toolActivated = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = SimilarPairsModel(self)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setSortRole(SortRole)
        self.note = QLabel(
            "Pairs of tools a model may confuse. Each description should say when to use "
            "the other tool instead.",
            self,
        )
        self.note.setWordWrap(True)
        self.note.setEnabled(False)
        self.view = QTableView(self)
        self.view.setModel(self.proxy)
        self.view.setSortingEnabled(True)
        self.view.sortByColumn(COLUMN["score"], Qt.SortOrder.DescendingOrder)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.setWordWrap(False)
        self.view.verticalHeader().setVisible(False)
        self.view.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        header = self.view.horizontalHeader()
        header.setStretchLastSection(True)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        for key, width in (("a", 140), ("b", 140), ("score", 80), ("kind", 190), ("shared", 160)):
            self.view.setColumnWidth(COLUMN[key], width)
        self.view.activated.connect(self._activated)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.note)
        layout.addWidget(self.view, 1)

    def set_pairs(self, pairs: tuple[SimilarPair, ...] | list[SimilarPair]) -> None:
        self.model.set_pairs(pairs)

    def pair_at(self, row: int) -> SimilarPair | None:
        value = self.proxy.index(row, 0).data(PairRole)
        return value if isinstance(value, SimilarPair) else None

    def _activated(self, index: QModelIndex) -> None:
        pair = index.data(PairRole)
        if isinstance(pair, SimilarPair):
            self.toolActivated.emit(pair.a)
