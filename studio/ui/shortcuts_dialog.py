"""Help → Keyboard shortcuts: every shortcut of the window, read from its actions.

The list is built from the live ``QAction`` objects (actions.py defines each
shortcut once), so it cannot drift from what the keys really do.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)


def widget_shortcuts() -> list[tuple[str, str]]:
    """Keys bound to buttons rather than actions (the replay bar), which no action lists."""
    native = QKeySequence.SequenceFormat.NativeText
    return [
        (
            QCoreApplication.translate("ShortcutsDialog", "Replay: previous message"),
            QKeySequence("Alt+Left").toString(native),
        ),
        (
            QCoreApplication.translate("ShortcutsDialog", "Replay: next message"),
            QKeySequence("Alt+Right").toString(native),
        ),
    ]


def shortcut_rows(actions: Iterable[QAction]) -> list[tuple[str, str]]:
    """(what it does, keys) for every action with a shortcut, each action once.

    Return:
        Rows sorted by the action's text; the keys in the platform's notation,
        several sequences joined with " or ".
    """
    seen: set[int] = set()
    rows: list[tuple[str, str]] = []
    native = QKeySequence.SequenceFormat.NativeText
    for action in actions:
        if id(action) in seen or not action.shortcuts():
            continue
        seen.add(id(action))
        text = action.text().replace("&", "").rstrip("…").strip()
        if not text:
            continue
        keys = " / ".join(s.toString(native) for s in action.shortcuts())
        rows.append((text, keys))
    return sorted(rows, key=lambda row: row[0].lower())


class ShortcutsDialog(QDialog):
    """A two-column table: action, keys.

    Args:
        actions: The window's actions (``window.findChildren(QAction)``).
        parent: The main window.
    """

    def __init__(self, actions: Iterable[QAction], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Keyboard shortcuts"))
        self.rows = sorted(
            [*shortcut_rows(actions), *widget_shortcuts()], key=lambda row: row[0].lower()
        )
        self.table = QTableWidget(len(self.rows), 2)
        self.table.setHorizontalHeaderLabels([self.tr("Action"), self.tr("Keys")])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        for row, (text, keys) in enumerate(self.rows):
            self.table.setItem(row, 0, QTableWidgetItem(text))
            self.table.setItem(row, 1, QTableWidgetItem(keys))
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(buttons)
        self.resize(460, 520)
