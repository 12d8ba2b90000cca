"""A JSON text field for the playground editors: highlighted, and invalid text is kept.

The same highlighter as the tool editor's JSON tab; text that does not parse
stays exactly as typed and the label under it names the line and column.
"""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import QEvent, QTimer, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QLabel, QPlainTextEdit, QVBoxLayout, QWidget

from studio.ui.widgets.json_highlighter import JsonHighlighter, is_dark

PARSE_DELAY_MS = 250
_EMPTY = object()


def problem_colour(widget: QWidget, severity: str = "error") -> str:
    """A readable red (or amber for warnings) on the widget's palette."""
    dark = is_dark(widget.palette())
    if severity == "warning":
        return "#e3b341" if dark else "#9a6700"
    return "#ff7b72" if dark else "#d93025"


def json_error(text: str) -> str:
    """ "" when ``text`` parses; otherwise ``line L, column C: message``."""
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        return f"line {exc.lineno}, column {exc.colno}: {exc.msg}"
    return ""


def dump(value: Any) -> str:
    """How a value is shown for editing (two-space indent, non-ASCII kept)."""
    return json.dumps(value, indent=2, ensure_ascii=False)


class JsonTextWidget(QWidget):
    """Highlighted JSON text with its parse error under it.

    Args:
        allow_empty: Empty text is valid and means "no value" (:meth:`value` → None).
        parent: The Qt parent.

    Signals:
        edited(): The user changed the text (after a short pause, or on focus out).
    """

    edited = Signal()

    def __init__(self, *, allow_empty: bool = False, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.allow_empty = allow_empty
        self.editor = QPlainTextEdit(self)
        self.editor.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.editor.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.editor.setTabChangesFocus(True)
        self.highlighter = JsonHighlighter(self.editor.document(), is_dark(self.editor.palette()))
        self.error_label = QLabel(self)
        self.error_label.setWordWrap(True)
        self.error_label.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.editor, 1)
        layout.addWidget(self.error_label)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(PARSE_DELAY_MS)
        self._timer.timeout.connect(self.commit)
        self.editor.textChanged.connect(self._timer.start)
        self.editor.installEventFilter(self)

    # ------------------------------------------------------------------ value

    def set_value(self, value: Any = _EMPTY) -> None:
        """Show ``value`` as JSON (no argument: empty text); no ``edited`` signal."""
        self.set_text("" if value is _EMPTY else dump(value))

    def set_text(self, text: str) -> None:
        """Show ``text`` as it is (no ``edited`` signal)."""
        self._timer.stop()
        blocked = self.editor.blockSignals(True)
        self.editor.setPlainText(text)
        self.editor.blockSignals(blocked)
        self._show_error(self.error())

    def text(self) -> str:
        return self.editor.toPlainText()

    def is_empty(self) -> bool:
        return not self.text().strip()

    def error(self) -> str:
        """The parse error of the text ("" when it is valid)."""
        if self.is_empty():
            return "" if self.allow_empty else "line 1, column 1: give a JSON value"
        return json_error(self.text())

    def value(self) -> Any:
        """The parsed value (None when empty); raises ValueError with :meth:`error`."""
        problem = self.error()
        if problem:
            raise ValueError(problem)
        return None if self.is_empty() else json.loads(self.text())

    # ------------------------------------------------------------------ edits

    def commit(self) -> None:
        """Check the text now and tell listeners it changed."""
        self._timer.stop()
        self._show_error(self.error())
        self.edited.emit()

    def pending(self) -> bool:
        """True while an edit waits for the pause before it is committed."""
        return self._timer.isActive()

    def eventFilter(self, watched: Any, event: QEvent) -> bool:
        if watched is self.editor and event.type() == QEvent.Type.FocusOut and self.pending():
            self.commit()
        return super().eventFilter(watched, event)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange:
            # Our palette, not the editor's: Qt updates children after this event.
            self.highlighter.set_dark(is_dark(self.palette()))
            self._show_error(self.error_label.text() if self.error_label.isVisible() else "")
        super().changeEvent(event)

    def _show_error(self, problem: str) -> None:
        self.error_label.setText(problem)
        self.error_label.setStyleSheet(f"color: {problem_colour(self)};")
        self.error_label.setVisible(bool(problem))
