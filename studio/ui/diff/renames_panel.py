"""Rename candidates with Confirm / Reject, and a manual pairing of a removed and an added tool."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.diff import RegistryDiff, ToolStatus

_COLUMNS = (
    QT_TRANSLATE_NOOP("RenamesPanel", "Old name"),
    QT_TRANSLATE_NOOP("RenamesPanel", "New name"),
    QT_TRANSLATE_NOOP("RenamesPanel", "Similarity"),
    QT_TRANSLATE_NOOP("RenamesPanel", "State"),
    "",
    "",
)


class RenamesPanel(QWidget):
    """Shows ``diff.renames``; emits the author's decisions, never recomputes itself.

    Signals:
        confirmRequested(str, str): treat old → new as a rename.
        rejectRequested(str, str): never treat old → new as a rename.
    """

    confirmRequested = Signal(str, str)
    rejectRequested = Signal(str, str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.table = QTableWidget(0, len(_COLUMNS))
        self.table.setHorizontalHeaderLabels([self.tr(str(c)) if c else "" for c in _COLUMNS])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.empty_label = QLabel(
            self.tr("No rename candidates: no removed tool resembles an added one.")
        )
        self.empty_label.setWordWrap(True)

        self.removed_combo = QComboBox()
        self.removed_combo.setToolTip(self.tr("A tool missing from B"))
        self.added_combo = QComboBox()
        self.added_combo.setToolTip(self.tr("A tool new in B"))
        self.pair_button = QPushButton(self.tr("Confirm rename"))
        self.pair_button.setToolTip(self.tr("Treat the removed tool as renamed to the added one"))
        self.pair_button.clicked.connect(self._confirm_pair)
        pair = QHBoxLayout()
        pair.addWidget(QLabel(self.tr("Pair:")))
        pair.addWidget(self.removed_combo, 1)
        pair.addWidget(QLabel("→"))
        pair.addWidget(self.added_combo, 1)
        pair.addWidget(self.pair_button)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.empty_label)
        layout.addWidget(self.table, 1)
        layout.addLayout(pair)
        self.set_diff(None)

    def set_diff(self, diff: RegistryDiff | None) -> None:
        """Show the candidates of ``diff`` and the tools still unpaired."""
        candidates = diff.renames if diff else ()
        self.table.setRowCount(len(candidates))
        for row, cand in enumerate(candidates):
            state = cand.source if cand.accepted or cand.source == "rejected" else "candidate"
            values = (cand.old, cand.new, f"{cand.score:.2f}", state)
            for column, value in enumerate(values):
                self.table.setItem(row, column, QTableWidgetItem(value))
            confirm = QPushButton(self.tr("Confirm"))
            confirm.setEnabled(cand.source != "confirmed")
            confirm.clicked.connect(
                lambda _=False, c=cand: self.confirmRequested.emit(c.old, c.new)
            )
            reject = QPushButton(self.tr("Reject"))
            reject.setEnabled(cand.source != "rejected")
            reject.clicked.connect(lambda _=False, c=cand: self.rejectRequested.emit(c.old, c.new))
            self.table.setCellWidget(row, 4, confirm)
            self.table.setCellWidget(row, 5, reject)
        self.table.setVisible(bool(candidates))
        self.empty_label.setVisible(not candidates)
        removed = [t.name for t in diff.tools if t.status is ToolStatus.REMOVED] if diff else []
        added = [t.name for t in diff.tools if t.status is ToolStatus.ADDED] if diff else []
        for combo, names in ((self.removed_combo, removed), (self.added_combo, added)):
            combo.clear()
            combo.addItems(names)
        self.pair_button.setEnabled(bool(removed and added))

    def confirm_button(self, row: int) -> QPushButton:
        return self.table.cellWidget(row, 4)  # type: ignore[return-value]

    def reject_button(self, row: int) -> QPushButton:
        return self.table.cellWidget(row, 5)  # type: ignore[return-value]

    def _confirm_pair(self) -> None:
        old, new = self.removed_combo.currentText(), self.added_combo.currentText()
        if old and new:
            self.confirmRequested.emit(old, new)
