"""The Overview tab: name, title and the description blocks of a tool."""

from __future__ import annotations

import re

from PySide6.QtWidgets import (
    QFormLayout,
    QFrame,
    QGroupBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from studio.contract.model import NAME_PATTERN, ToolContract
from studio.editing.edits import SetField
from studio.ui.widgets.field_markers import Markers, field_of, group_by, mark_widget
from studio.ui.widgets.form_sync import (
    ToolEditCallback,
    set_editable,
    show_line_text,
    show_plain_text,
)
from studio.ui.widgets.overview_tables import ERROR_COLOR, ErrorsTableWidget, ExamplesTableWidget

_NAME_RE = re.compile(NAME_PATTERN)
_TEXT_BLOCKS = ("usage", "preconditions", "returns")
_PLACEHOLDERS = {
    "usage": "When to use it, when not, and which sibling tool to use instead",
    "preconditions": "State required before calling",
    "returns": "What a successful call returns",
}


class OverviewTabWidget(QScrollArea):
    """Edits name, title, description blocks, errors and examples.

    Args:
        on_edit: Called with each edit of the shown tool; the editor pushes it.
        parent: The Qt parent.
    """

    def __init__(self, on_edit: ToolEditCallback, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._on_edit = on_edit
        self._tool: ToolContract | None = None
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        body = QWidget(self)
        layout = QVBoxLayout(body)
        layout.addWidget(self._build_identity(body))
        layout.addWidget(self._build_blocks(body))
        layout.addWidget(self._build_description(body))
        layout.addStretch(1)
        self.setWidget(body)

    # ------------------------------------------------------------------ building

    def _build_identity(self, parent: QWidget) -> QGroupBox:
        box = QGroupBox("Identity", parent)
        form = QFormLayout(box)
        self.name_edit = QLineEdit(box)
        self.name_edit.setPlaceholderText("verb_noun, e.g. query_invoices")
        self.name_edit.textEdited.connect(self._name_edited)
        self.name_hint = QLabel(box)
        self.name_hint.setStyleSheet(f"color: {ERROR_COLOR.name()};")
        self.name_hint.setWordWrap(True)
        self.name_hint.hide()
        self.title_edit = QLineEdit(box)
        self.title_edit.setPlaceholderText("Display title (not shown to the model)")
        self.title_edit.textEdited.connect(lambda text: self._push("title", text))
        form.addRow("&Name", self.name_edit)
        form.addRow("", self.name_hint)
        form.addRow("&Title", self.title_edit)
        return box

    def _build_blocks(self, parent: QWidget) -> QGroupBox:
        box = QGroupBox("Description blocks (rendered into the text the model sees)", parent)
        form = QFormLayout(box)
        self.summary_edit = QLineEdit(box)
        self.summary_edit.setPlaceholderText("One line: what the tool does")
        self.summary_edit.textEdited.connect(lambda text: self._push("summary", text))
        form.addRow("&Summary", self.summary_edit)
        self.block_edits: dict[str, QPlainTextEdit] = {}
        for field in _TEXT_BLOCKS:
            edit = QPlainTextEdit(box)
            edit.setTabChangesFocus(True)
            edit.setPlaceholderText(_PLACEHOLDERS[field])
            edit.setFixedHeight(edit.fontMetrics().lineSpacing() * 3 + 14)
            edit.textChanged.connect(lambda f=field, e=edit: self._push(f, e.toPlainText()))
            self.block_edits[field] = edit
            form.addRow(field.capitalize(), edit)
        self.errors_table = ErrorsTableWidget(self._on_edit, box)
        form.addRow("Errors", self.errors_table)
        self.examples_table = ExamplesTableWidget(self._on_edit, box)
        form.addRow("Examples", self.examples_table)
        return box

    def _build_description(self, parent: QWidget) -> QGroupBox:
        box = QGroupBox("Free-text description", parent)
        layout = QVBoxLayout(box)
        note = QLabel(
            "Used only when no description block above is filled in "
            "(typically text kept from an import).",
            box,
        )
        note.setWordWrap(True)
        self.description_edit = QPlainTextEdit(box)
        self.description_edit.setTabChangesFocus(True)
        self.description_edit.setFixedHeight(
            self.description_edit.fontMetrics().lineSpacing() * 4 + 14
        )
        self.description_edit.textChanged.connect(
            lambda: self._push("description", self.description_edit.toPlainText())
        )
        self.description_note = note
        layout.addWidget(note)
        layout.addWidget(self.description_edit)
        return box

    # ------------------------------------------------------------------ model → view

    def show_tool(self, tool: ToolContract) -> None:
        """Show ``tool``, leaving fields that already show its values untouched."""
        self._tool = tool
        show_line_text(self.name_edit, tool.name)
        self._show_name_hint(self.name_edit.text())
        show_line_text(self.title_edit, tool.title)
        show_line_text(self.summary_edit, tool.summary)
        for field, edit in self.block_edits.items():
            show_plain_text(edit, getattr(tool, field))
        self.errors_table.show_errors(tool.errors)
        self.examples_table.show_examples(tool.examples)
        show_plain_text(self.description_edit, tool.description)
        used = "used" if not tool.has_blocks() else "not used now: blocks are filled in"
        self.description_edit.setToolTip(f"This text is {used}.")

    def set_read_only(self, read_only: bool) -> None:
        """Make every control read-only (a published version)."""
        for widget in (self.name_edit, self.title_edit, self.summary_edit, self.description_edit):
            set_editable(widget, not read_only)
        for edit in self.block_edits.values():
            set_editable(edit, not read_only)
        self.errors_table.set_read_only(read_only)
        self.examples_table.set_read_only(read_only)

    # ------------------------------------------------------------------ lint markers

    def field_widgets(self) -> dict[str, QWidget]:
        """The widget showing each top-level field (the keys of lint paths)."""
        return {
            "name": self.name_edit,
            "title": self.title_edit,
            "summary": self.summary_edit,
            **self.block_edits,
            "description": self.description_edit,
            "errors": self.errors_table.table,
            "examples": self.examples_table.table,
        }

    def set_markers(self, markers: Markers) -> None:
        """Mark the fields that have lint findings; clear the others."""
        by_field = group_by(markers, field_of)
        for field, widget in self.field_widgets().items():
            mark_widget(widget, by_field.get(field, []))

    def focus_path(self, path: str) -> bool:
        """Scroll to and focus the field of ``path``; False when it has none here."""
        widget = self.field_widgets().get(field_of(path))
        if widget is None:
            return False
        self.ensureWidgetVisible(widget)
        widget.setFocus()
        return True

    # ------------------------------------------------------------------ view → model

    def _name_edited(self, text: str) -> None:
        # Pushed even when invalid, so nothing typed is lost; saving reports it.
        self._show_name_hint(text)
        self._push("name", text)

    def _show_name_hint(self, text: str) -> None:
        valid = bool(_NAME_RE.fullmatch(text))
        self.name_hint.setText(
            ""
            if valid
            else "A name must be 1–64 letters, digits, '_' or '-' (e.g. query_invoices)."
        )
        self.name_hint.setVisible(not valid)

    def _push(self, field: str, value: str) -> None:
        if self._tool is not None and getattr(self._tool, field) != value:
            self._on_edit(SetField(field, value))
