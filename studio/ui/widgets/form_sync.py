"""Helpers that show model values in form controls without echoing edits back.

Every tab of the tool editor refreshes its controls whenever the tool changes,
including right after the user's own keystroke was applied. These helpers only
touch a control when what it shows differs from the model, and block its
signals while they do, so a refresh never becomes a new undo command and never
moves the cursor of the field being typed in.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeAlias

from PySide6.QtWidgets import (
    QAbstractButton,
    QComboBox,
    QDoubleSpinBox,
    QLineEdit,
    QPlainTextEdit,
    QSpinBox,
    QWidget,
)

from studio.editing.edits import ToolEdit

ToolEditCallback: TypeAlias = Callable[[ToolEdit], None]
"""Receives an edit of the shown tool; the editor pushes it as an undoable command."""


def show_line_text(edit: QLineEdit, text: str) -> None:
    """Show ``text`` in a line edit unless it already shows it."""
    if edit.text() != text:
        blocked = edit.blockSignals(True)
        edit.setText(text)
        edit.blockSignals(blocked)


def show_plain_text(edit: QPlainTextEdit, text: str) -> None:
    """Show ``text`` in a plain-text edit unless it already shows it."""
    if edit.toPlainText() != text:
        blocked = edit.blockSignals(True)
        edit.setPlainText(text)
        edit.blockSignals(blocked)


def show_combo_data(combo: QComboBox, value: object) -> None:
    """Select the combo entry whose item data equals ``value``."""
    index = combo.findData(value)
    if index >= 0 and combo.currentIndex() != index:
        blocked = combo.blockSignals(True)
        combo.setCurrentIndex(index)
        combo.blockSignals(blocked)


def show_checked(button: QAbstractButton, checked: bool) -> None:
    """Check or uncheck ``button`` without emitting ``toggled``."""
    if button.isChecked() != checked:
        blocked = button.blockSignals(True)
        button.setChecked(checked)
        button.blockSignals(blocked)


def show_number(spin: QSpinBox | QDoubleSpinBox, value: float) -> None:
    """Show ``value`` in a spin box unless it already shows it."""
    if spin.value() != value:
        blocked = spin.blockSignals(True)
        spin.setValue(value)  # type: ignore[arg-type]
        spin.blockSignals(blocked)


def set_editable(widget: QWidget, editable: bool) -> None:
    """Make a control read-only (text fields stay selectable) or editable again."""
    if isinstance(widget, QLineEdit | QPlainTextEdit):
        widget.setReadOnly(not editable)
    else:
        widget.setEnabled(editable)


def split_list(text: str) -> tuple[str, ...]:
    """``"a, b,, c"`` → ``("a", "b", "c")``."""
    return tuple(part.strip() for part in text.split(",") if part.strip())
