"""Asks for the name, title and description of a new, empty registry."""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

NAME_MAX = 64
_NAME_CHARS = re.compile(r"[a-z0-9._-]")

ERROR_STYLE = "color: #d64545;"


@dataclass(frozen=True)
class NewRegistryRequest:
    """What the author entered for a new registry."""

    name: str
    title: str
    description: str


def registry_name_problem(name: str, existing: Collection[str] = ()) -> str | None:
    """Why ``name`` cannot name a new registry, or None when it can.

    The rule: 1–64 characters from ``a-z 0-9 . _ -``, starting with a letter or
    digit. Names appear in file names, URLs and ``studio export NAME``, so they
    stay lowercase ASCII and free of spaces.

    Args:
        name: The proposed name.
        existing: Names already taken.

    Return:
        A sentence naming what is wrong, or None.
    """
    if not name:
        return QCoreApplication.translate("NewRegistryDialog", "Enter a name.")
    if len(name) > NAME_MAX:
        return QCoreApplication.translate(
            "NewRegistryDialog", "The name has {count} characters; at most {maximum} are allowed."
        ).format(count=len(name), maximum=NAME_MAX)
    bad = sorted({c for c in name if not _NAME_CHARS.fullmatch(c)})
    if bad:
        space = QCoreApplication.translate("NewRegistryDialog", "space")
        shown = ", ".join(space if c == " " else repr(c) for c in bad)
        return QCoreApplication.translate(
            "NewRegistryDialog",
            "Not allowed in a name: {shown}. Use lowercase a-z, digits 0-9, '.', '_' or '-'.",
        ).format(shown=shown)
    if not name[0].isalnum():
        return QCoreApplication.translate(
            "NewRegistryDialog", "The name must start with a lowercase letter or a digit."
        )
    if name in existing:
        return QCoreApplication.translate(
            "NewRegistryDialog", "A registry named {name!r} already exists."
        ).format(name=name)
    return None


class NewRegistryDialog(QDialog):
    """Collects a :class:`NewRegistryRequest`; OK stays disabled while the name is invalid.

    Args:
        existing: Names of the registries that already exist.
        parent: The owning window.
    """

    def __init__(self, existing: Collection[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("New registry"))
        self._existing = frozenset(existing)

        intro = QLabel(self.tr("Create an empty registry. You can import or add tools afterwards."))
        intro.setWordWrap(True)
        self.name_edit = QLineEdit()
        self.name_edit.setPlaceholderText(self.tr("e.g. travel-reimbursement"))
        self.name_edit.setMaxLength(NAME_MAX + 16)  # long enough to explain "too long"
        self.title_edit = QLineEdit()
        self.title_edit.setPlaceholderText(
            self.tr("shown in the registry list, e.g. Travel reimbursement")
        )
        self.description_edit = QPlainTextEdit()
        self.description_edit.setPlaceholderText(self.tr("What the tools of this registry are for"))
        self.name_problem = QLabel()
        self.name_problem.setWordWrap(True)
        self.name_problem.setStyleSheet(ERROR_STYLE)
        self.name_problem.setTextFormat(Qt.TextFormat.PlainText)

        form = QFormLayout()
        form.addRow(self.tr("&Name:"), self.name_edit)
        form.addRow("", self.name_problem)
        form.addRow(self.tr("&Title:"), self.title_edit)
        form.addRow(self.tr("&Description:"), self.description_edit)

        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.ok_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok_button.setText(self.tr("Create"))
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addWidget(self.buttons)
        self.name_edit.textChanged.connect(self._validate)
        self._validate()
        self.resize(460, 300)

    def problem(self) -> str | None:
        """Why the entered name is refused, or None."""
        return registry_name_problem(self.name_edit.text().strip(), self._existing)

    def request(self) -> NewRegistryRequest:
        return NewRegistryRequest(
            self.name_edit.text().strip(),
            self.title_edit.text().strip(),
            self.description_edit.toPlainText().strip(),
        )

    def _validate(self) -> None:
        problem = self.problem()
        # An untouched empty field needs no red text; the disabled button says enough.
        typed = bool(self.name_edit.text())
        self.name_problem.setText(problem if problem and typed else "")
        self.name_problem.setVisible(bool(problem and typed))
        self.ok_button.setEnabled(problem is None)

    def accept(self) -> None:
        if self.problem() is None:
            super().accept()
