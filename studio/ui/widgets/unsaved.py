"""The question asked when an editor with unsaved changes is closed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from PySide6.QtWidgets import QMessageBox, QWidget

UnsavedAnswer = Literal["save", "discard", "cancel"]
UnsavedPrompt = Callable[[QWidget, str], UnsavedAnswer]
"""Asks about unsaved changes to ``what``; tests inject a scripted answer."""


def ask_unsaved(parent: QWidget, what: str) -> UnsavedAnswer:
    """Save / Discard / Cancel for unsaved changes to ``what`` (modal)."""
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle("Unsaved changes")
    box.setText(f"{what[:1].upper()}{what[1:]} has unsaved changes.")
    box.setInformativeText("Nothing is stored until you save. Save them now?")
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
