"""The "similar tools" view: pairs a model may confuse, and what their descriptions lack."""

from __future__ import annotations

from functools import partial
from typing import Any

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QCoreApplication,
    QModelIndex,
    Qt,
    Signal,
)
from PySide6.QtWidgets import (
    QLabel,
    QVBoxLayout,
    QWidget,
)

from studio.lint import Severity, SimilarPair
from studio.ui.models.table_base import RowTableModel, SourceSortProxy
from studio.ui.widgets.field_markers import severity_icon
from studio.ui.widgets.read_only_table import read_only_table

COLUMNS: tuple[tuple[str, str], ...] = (
    ("a", str(QT_TRANSLATE_NOOP("Columns", "Tool"))),
    ("b", str(QT_TRANSLATE_NOOP("Columns", "Similar to"))),
    ("score", str(QT_TRANSLATE_NOOP("Columns", "Similarity"))),
    ("kind", str(QT_TRANSLATE_NOOP("Columns", "Why"))),
    ("shared", str(QT_TRANSLATE_NOOP("Columns", "Shared words"))),
    ("apart", str(QT_TRANSLATE_NOOP("Columns", "Tells them apart"))),
)
COLUMN = {key: i for i, (key, _) in enumerate(COLUMNS)}
PairRole = RowTableModel.RowRole
SortRole = RowTableModel.SortRole


def apart_text(pair: SimilarPair) -> str:
    """Which description lacks the line that tells the two tools apart."""
    if pair.a_mentions_b and pair.b_mentions_a:
        return QCoreApplication.translate("SimilarToolsView", "both descriptions")
    if pair.a_mentions_b:
        return QCoreApplication.translate("SimilarToolsView", "only {a}: add a line to {b}").format(
            a=pair.a, b=pair.b
        )
    if pair.b_mentions_a:
        return QCoreApplication.translate("SimilarToolsView", "only {a}: add a line to {b}").format(
            a=pair.b, b=pair.a
        )
    return QCoreApplication.translate("SimilarToolsView", "neither: add “use X instead” to both")


def kind_text(pair: SimilarPair) -> str:
    kinds = []
    if pair.near_duplicate:
        kinds.append(QCoreApplication.translate("SimilarToolsView", "similar descriptions"))
    if pair.confusable_names:
        kinds.append(QCoreApplication.translate("SimilarToolsView", "confusable names"))
    return ", ".join(kinds) or QCoreApplication.translate("SimilarToolsView", "related")


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


class SimilarPairsModel(RowTableModel[SimilarPair]):
    """Adapts the report's :class:`SimilarPair` tuple to a read-only table."""

    columns = tuple((title, partial(_text, key=key)) for key, title in COLUMNS)

    def set_pairs(self, pairs: tuple[SimilarPair, ...] | list[SimilarPair]) -> None:
        pairs = tuple(pairs)
        if pairs == self.given_rows():
            return
        self.set_rows(pairs)

    def pairs(self) -> tuple[SimilarPair, ...]:
        """The pairs in table order."""
        return tuple(self._rows)

    # ------------------------------------------------------------------ hooks

    def sort_key(self, row: SimilarPair, column: int) -> Any:
        key = COLUMNS[column][0]
        return row.score if key == "score" else _text(row, key).casefold()

    def decoration(self, row: SimilarPair, column: int) -> Any:
        if COLUMNS[column][0] != "apart":
            return None
        told = row.a_mentions_b or row.b_mentions_a
        both = row.a_mentions_b and row.b_mentions_a
        return None if both else severity_icon(Severity.WARNING if told else Severity.ERROR)

    def alignment(self, row: SimilarPair, column: int) -> Any:
        if COLUMNS[column][0] == "score":
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def tooltip(self, row: SimilarPair, column: int) -> str:
        return QCoreApplication.translate(
            "SimilarToolsView",
            "{a} ↔ {b}: similarity {score:.2f} ({kind}); shared words: {shared}. "
            "Line that tells them apart: {apart}.",
        ).format(
            a=row.a,
            b=row.b,
            score=row.score,
            kind=kind_text(row),
            shared=", ".join(row.shared_terms) or "—",
            apart=apart_text(row),
        )


class SimilarToolsView(QWidget):
    """A sortable table of similar pairs; double-click (or Enter) opens tool a.

    Signals:
        toolActivated(str): the name of the tool to show.
    """

    toolActivated = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = SimilarPairsModel(self)
        self.proxy = SourceSortProxy(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setSortRole(SortRole)
        self.note = QLabel(
            self.tr(
                "Pairs of tools a model may confuse. Each description should say when to use "
                "the other tool instead."
            ),
            self,
        )
        self.note.setWordWrap(True)
        self.note.setEnabled(False)
        widths = {"a": 140, "b": 140, "score": 80, "kind": 190, "shared": 160}
        self.view = read_only_table(
            self, self.proxy, COLUMN["score"], {COLUMN[k]: w for k, w in widths.items()}
        )
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
