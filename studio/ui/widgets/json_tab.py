"""The JSON tab: the tool's whole document as editable, highlighted JSON text."""

from __future__ import annotations

import json

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QEvent, QObject, QTimer
from PySide6.QtGui import QFontDatabase, QShowEvent
from PySide6.QtWidgets import QLabel, QPlainTextEdit, QVBoxLayout, QWidget

from studio.contract import ContractError, parse_tool, tool_to_dict
from studio.contract.model import ToolContract
from studio.editing.edits import ReplaceTool
from studio.ui.widgets.form_sync import ToolEditCallback
from studio.ui.widgets.json_highlighter import JsonHighlighter, is_dark
from studio.ui.widgets.overview_tables import ERROR_COLOR

APPLY_DELAY_MS = 400
KEPT_NOTE = QT_TRANSLATE_NOOP(
    "JsonTab", "The form changed; your JSON text has errors and was kept."
)


def tool_json(tool: ToolContract) -> str:
    """The text the JSON tab shows for ``tool``."""
    return json.dumps(tool_to_dict(tool), indent=2, ensure_ascii=False)


class JsonTabWidget(QWidget):
    """Edits the tool as JSON; valid text replaces the tool as one undoable edit.

    Text is applied 400 ms after the last keystroke and when the editor loses
    focus. Text that does not parse, or does not make a valid contract, is kept
    exactly as typed and the problems are listed under the editor.

    Args:
        on_edit: Called with each edit of the shown tool; the editor pushes it.
        parent: The Qt parent.
    """

    def __init__(self, on_edit: ToolEditCallback, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._on_edit = on_edit
        self._tool: ToolContract | None = None
        self.editor = QPlainTextEdit(self)
        self.editor.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.editor.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.editor.setTabChangesFocus(False)
        # Attached when the tab is first shown: a hidden tab's text is not lexed,
        # and Pygments is not imported before the window's first paint (#16).
        self._highlighter: JsonHighlighter | None = None
        self.error_label = QLabel(self)
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet(f"color: {ERROR_COLOR.name()};")
        self.error_label.hide()
        self.note_label = QLabel(QCoreApplication.translate("JsonTab", str(KEPT_NOTE)), self)
        self.note_label.setWordWrap(True)
        self.note_label.hide()
        layout = QVBoxLayout(self)
        layout.addWidget(self.editor, 1)
        layout.addWidget(self.error_label)
        layout.addWidget(self.note_label)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(APPLY_DELAY_MS)
        self._timer.timeout.connect(self.apply_text)
        self.editor.textChanged.connect(self._timer.start)
        self.editor.installEventFilter(self)

    @property
    def highlighter(self) -> JsonHighlighter:
        """The text's highlighter, attached on first show (or on this first read)."""
        if self._highlighter is None:
            self._highlighter = JsonHighlighter(
                self.editor.document(), is_dark(self.editor.palette())
            )
        return self._highlighter

    def showEvent(self, event: QShowEvent) -> None:
        self._highlighter = self.highlighter
        super().showEvent(event)

    # ------------------------------------------------------------------ model → view

    def show_tool(self, tool: ToolContract, *, new_tool: bool = False) -> None:
        """Show ``tool``; keep text the user is editing unless it is a different tool.

        Args:
            tool: The current contract.
            new_tool: True when switching to another tool: the text is always replaced.
        """
        self._tool = tool
        if not new_tool:
            parsed, problems = self._parse()
            if parsed == tool:
                return
            if problems:
                self.note_label.show()
                return
        self._timer.stop()
        blocked = self.editor.blockSignals(True)
        self.editor.setPlainText(tool_json(tool))
        self.editor.blockSignals(blocked)
        self._show_problems([])

    def set_read_only(self, read_only: bool) -> None:
        """Make the text read-only (a published version)."""
        self.editor.setReadOnly(read_only)

    def has_errors(self) -> bool:
        """True while the text holds unapplied problems."""
        return bool(self.error_label.text())

    # ------------------------------------------------------------------ view → model

    def apply_text(self) -> None:
        """Parse the text now; push it as the new tool when valid and different."""
        self._timer.stop()
        if self._tool is None or self.editor.isReadOnly():
            return
        parsed, problems = self._parse()
        self._show_problems(problems)
        if parsed is not None and parsed != self._tool:
            self._on_edit(ReplaceTool(parsed))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            watched is self.editor
            and event.type() == QEvent.Type.FocusOut
            and self._timer.isActive()
        ):
            self.apply_text()
        return super().eventFilter(watched, event)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange and self._highlighter is not None:
            self._highlighter.set_dark(is_dark(self.editor.palette()))
        super().changeEvent(event)

    def _parse(self) -> tuple[ToolContract | None, list[str]]:
        text = self.editor.toPlainText()
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            return None, [
                self.tr("line {line}, column {column}: {message}").format(
                    line=exc.lineno, column=exc.colno, message=exc.msg
                )
            ]
        try:
            return parse_tool(data), []
        except ContractError as exc:
            return None, [str(p) for p in exc.problems] or [str(exc)]

    def _show_problems(self, problems: list[str]) -> None:
        self.error_label.setText("\n".join(problems))
        self.error_label.setVisible(bool(problems))
        if not problems:
            self.note_label.hide()
