"""Shows the outcome of an import or export and the notes it produced."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.formats import Note
from studio.ui.i18n import note_message

_KIND_LABELS = {
    "lost": QT_TRANSLATE_NOOP("NotesDialog", "Lost"),
    "guessed": QT_TRANSLATE_NOOP("NotesDialog", "Guessed"),
    "info": QT_TRANSLATE_NOOP("NotesDialog", "Info"),
}


def kind_label(kind: str) -> str:
    """The shown name of a note kind (translated)."""
    label = _KIND_LABELS.get(kind)
    return QCoreApplication.translate("NotesDialog", str(label)) if label else kind


def notes_heading(notes: Sequence[Note]) -> str:
    """One line counting the notes by kind, e.g. ``2 lost, 1 guessed``."""
    if not notes:
        return QCoreApplication.translate("NotesDialog", "Nothing was guessed or lost.")
    counts = {k: sum(1 for n in notes if n.kind == k) for k in _KIND_LABELS}
    parts = [f"{c} {kind_label(k).lower()}" for k, c in counts.items() if c]
    return QCoreApplication.translate("NotesDialog", "Check these notes: {parts}.").format(
        parts=", ".join(parts)
    )


class NotesDialog(QDialog):
    """A summary line and the notes as a table (kind, where, what).

    Args:
        title: Window title.
        summary: What happened, one or two sentences.
        notes: The import's or export's notes.
        parent: The owning window.
    """

    def __init__(
        self, title: str, summary: str, notes: Sequence[Note], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.summary_label = QLabel(summary)
        self.summary_label.setWordWrap(True)
        self.heading_label = QLabel(notes_heading(notes))
        self.heading_label.setWordWrap(True)

        self.notes_view = QTreeWidget()
        self.notes_view.setRootIsDecorated(False)
        self.notes_view.setAlternatingRowColors(True)
        self.notes_view.setWordWrap(True)
        self.notes_view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.notes_view.setHeaderLabels([self.tr("Kind"), self.tr("Where"), self.tr("What")])
        for note in notes:
            item = QTreeWidgetItem(
                [kind_label(note.kind), note.path or "—", note_message(note.message)]
            )
            item.setToolTip(2, note_message(note.message))
            self.notes_view.addTopLevelItem(item)
        header = self.notes_view.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        self.notes_view.setColumnWidth(1, 200)
        self.notes_view.setVisible(bool(notes))

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        buttons.accepted.connect(self.accept)

        layout = QVBoxLayout(self)
        layout.addWidget(self.summary_label)
        layout.addWidget(self.heading_label)
        layout.addWidget(self.notes_view, 1)
        layout.addWidget(buttons)
        self.resize(680, 380 if notes else 140)

    def note_rows(self) -> list[tuple[str, str, str]]:
        """The rows shown, as text (for tests)."""
        rows = []
        for i in range(self.notes_view.topLevelItemCount()):
            item = self.notes_view.topLevelItem(i)
            rows.append((item.text(0), item.text(1), item.text(2)))
        return rows
