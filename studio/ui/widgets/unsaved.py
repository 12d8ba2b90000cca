"""The Save / Discard / Cancel question asked before unsaved changes would be lost."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QMessageBox, QWidget

UnsavedAnswer = Literal["save", "discard", "cancel"]
UnsavedPrompt = Callable[[QWidget, str], UnsavedAnswer]
"""Asks about unsaved changes to ``what``; tests inject a scripted answer."""


def ask_save_discard_cancel(parent: QWidget, text: str, detail: str) -> UnsavedAnswer:
    """A modal Save / Discard / Cancel box (Save is the default)."""
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle(QCoreApplication.translate("unsaved", "Unsaved changes"))
    box.setText(text)
    box.setInformativeText(detail)
    box.setStandardButtons(
        QMessageBox.StandardButton.Save
        | QMessageBox.StandardButton.Discard
        | QMessageBox.StandardButton.Cancel
    )
    box.setDefaultButton(QMessageBox.StandardButton.Save)
    answer = box.exec()
    if answer == QMessageBox.StandardButton.Save:
        return "save"
    if answer == QMessageBox.StandardButton.Discard:
        return "discard"
    return "cancel"


def ask_unsaved(parent: QWidget, what: str) -> UnsavedAnswer:
    """Save / Discard / Cancel for unsaved changes to ``what`` (an editor's contents)."""
    return ask_save_discard_cancel(
        parent,
        QCoreApplication.translate("unsaved", "{what} has unsaved changes.").format(
            what=what[:1].upper() + what[1:]
        ),
        QCoreApplication.translate("unsaved", "Nothing is stored until you save. Save them now?"),
    )
