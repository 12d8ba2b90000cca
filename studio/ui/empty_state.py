"""An empty state: what a mode is waiting for, and a button for the next step.

A blank table or a "draft → draft" comparison read as a bug; an empty state
says in a sentence why there is nothing yet and offers what to do about it.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWidget


def empty_note(text: str, name: str) -> QLabel:
    """A greyed, centred, wrapped sentence in place of content that is not there yet."""
    label = QLabel(text)
    label.setObjectName(name)
    label.setWordWrap(True)
    label.setAlignment(Qt.AlignmentFlag.AlignCenter)
    label.setEnabled(False)  # greyed: it is a note, not content
    return label


class EmptyStateWidget(QWidget):
    """A centred title, a sentence and one action button.

    Signals:
        actionRequested(): the button was pressed.
    """

    actionRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title_label = QLabel()
        self.title_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        font = self.title_label.font()
        font.setPointSizeF(font.pointSizeF() * 1.25)
        font.setBold(True)
        self.title_label.setFont(font)
        self.text_label = QLabel()
        self.text_label.setWordWrap(True)
        self.text_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.text_label.setMaximumWidth(560)
        self.button = QPushButton()
        self.button.clicked.connect(self.actionRequested.emit)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(24, 24, 24, 24)
        layout.addStretch(1)
        layout.addWidget(self.title_label)
        layout.addWidget(self.text_label, 0, Qt.AlignmentFlag.AlignHCenter)
        layout.addSpacing(8)
        layout.addWidget(self.button, 0, Qt.AlignmentFlag.AlignHCenter)
        layout.addStretch(2)

    def show_state(self, title: str, text: str, action: str = "") -> None:
        """Say ``title`` and ``text``; the button reads ``action`` (hidden when empty)."""
        self.title_label.setText(title)
        self.text_label.setText(text)
        self.button.setText(action)
        self.button.setVisible(bool(action))
