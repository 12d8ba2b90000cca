"""The Overview tab: name, title and the description blocks of a tool."""

from __future__ import annotations

import re

from PySide6.QtCore import QCoreApplication, QRect, Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QFormLayout,
    QFrame,
    QGroupBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QScrollArea,
    QSizePolicy,
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
translate = QCoreApplication.translate


def _placeholders() -> dict[str, str]:
    return {
        "usage": translate(
            "OverviewTab", "When to use it, when not, and which sibling tool to use instead"
        ),
        "preconditions": translate("OverviewTab", "State required before calling"),
        "returns": translate("OverviewTab", "What a successful call returns"),
    }


def _block_labels() -> dict[str, str]:
    return {
        "usage": translate("OverviewTab", "Usage"),
        "preconditions": translate("OverviewTab", "Preconditions"),
        "returns": translate("OverviewTab", "Returns"),
    }


class GrowingTextEdit(QPlainTextEdit):
    """A plain-text field as tall as its text (between ``min_lines`` and ``max_lines``).

    Three-line boxes with their own scroll bars inside a scrolling form hid
    most of a usage block; the form scrolls, the field grows.
    """

    def __init__(self, min_lines: int = 2, max_lines: int = 40, parent: QWidget | None = None):
        super().__init__(parent)
        self.min_lines, self.max_lines = min_lines, max_lines
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # The document, not textChanged: the form fills fields with signals blocked.
        self.document().contentsChanged.connect(self._fit)
        self._fit()

    def lines(self) -> int:
        """Lines the text takes at the current width, wrapped lines counted.

        Measured with the font, not the document layout: QPlainTextEdit lays
        out only what is on screen, so a long paragraph counts as one line
        until it has been painted.
        """
        margin = int(self.document().documentMargin() * 2)
        width = max(40, self.viewport().width() - margin)
        flags = int(Qt.TextFlag.TextWordWrap.value | Qt.AlignmentFlag.AlignLeft.value)
        rect = self.fontMetrics().boundingRect(
            QRect(0, 0, width, 1_000_000), flags, self.toPlainText() or " "
        )
        return max(1, -(-rect.height() // max(1, self.fontMetrics().lineSpacing())))

    def _fit(self) -> None:
        lines = self.lines()
        shown = min(self.max_lines, max(self.min_lines, lines))
        margins = self.contentsMargins()
        extra = int(self.document().documentMargin() * 2) + margins.top() + margins.bottom()
        height = self.fontMetrics().lineSpacing() * shown + extra + 2
        if self.height() != height or self.minimumHeight() != height:
            self.setFixedHeight(height)
        policy = (
            Qt.ScrollBarPolicy.ScrollBarAsNeeded
            if lines > self.max_lines
            else Qt.ScrollBarPolicy.ScrollBarAlwaysOff
        )
        if self.verticalScrollBarPolicy() != policy:
            self.setVerticalScrollBarPolicy(policy)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self._fit()  # the text wraps anew


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
        box = QGroupBox(self.tr("Identity"), parent)
        form = QFormLayout(box)
        self.name_edit = QLineEdit(box)
        self.name_edit.setPlaceholderText(self.tr("verb_noun, e.g. query_invoices"))
        self.name_edit.textEdited.connect(self._name_edited)
        self.name_hint = QLabel(box)
        self.name_hint.setStyleSheet(f"color: {ERROR_COLOR.name()};")
        self.name_hint.setWordWrap(True)
        self.name_hint.hide()
        self.title_edit = QLineEdit(box)
        self.title_edit.setPlaceholderText(self.tr("Display title (not shown to the model)"))
        self.title_edit.textEdited.connect(lambda text: self._push("title", text))
        form.addRow(self.tr("&Name"), self.name_edit)
        form.addRow("", self.name_hint)
        form.addRow(self.tr("&Title"), self.title_edit)
        return box

    def _build_blocks(self, parent: QWidget) -> QGroupBox:
        box = QGroupBox(
            self.tr("Description blocks (rendered into the text the model sees)"), parent
        )
        form = QFormLayout(box)
        # A tool whose text is all in the free-text description (an import) has
        # an empty Summary on purpose: say where its text is instead.
        self.free_text_note = QLabel(box)
        self.free_text_note.setObjectName("freeTextNote")
        self.free_text_note.setWordWrap(True)
        self.free_text_note.setText(
            self.tr(
                "This tool's text is in the free-text description below, and the model reads "
                "it as is. Filling in the blocks (Summary first) replaces it with a structured "
                "description."
            )
        )
        self.free_text_note.hide()
        form.addRow(self.free_text_note)
        self.summary_edit = QLineEdit(box)
        self.summary_edit.setPlaceholderText(self.tr("One line: what the tool does"))
        self.summary_edit.textEdited.connect(lambda text: self._push("summary", text))
        form.addRow(self.tr("&Summary"), self.summary_edit)
        self.block_edits: dict[str, QPlainTextEdit] = {}
        placeholders, labels = _placeholders(), _block_labels()
        for field in _TEXT_BLOCKS:
            edit = GrowingTextEdit(parent=box)
            edit.setTabChangesFocus(True)
            edit.setPlaceholderText(placeholders[field])
            edit.textChanged.connect(lambda f=field, e=edit: self._push(f, e.toPlainText()))
            self.block_edits[field] = edit
            form.addRow(labels[field], edit)
        self.errors_table = ErrorsTableWidget(self._on_edit, box)
        form.addRow(self.tr("Errors"), self.errors_table)
        self.examples_table = ExamplesTableWidget(self._on_edit, box)
        form.addRow(self.tr("Examples"), self.examples_table)
        return box

    def _build_description(self, parent: QWidget) -> QGroupBox:
        box = QGroupBox(self.tr("Free-text description"), parent)
        layout = QVBoxLayout(box)
        note = QLabel(
            self.tr(
                "Used only when no description block above is filled in "
                "(typically text kept from an import)."
            ),
            box,
        )
        note.setWordWrap(True)
        self.description_edit = GrowingTextEdit(min_lines=3, parent=box)
        self.description_edit.setTabChangesFocus(True)
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
        lines: tuple[tuple[QLineEdit, str], ...] = (
            (self.name_edit, tool.name),
            (self.title_edit, tool.title),
            (self.summary_edit, tool.summary),
        )
        for edit, text in lines:
            replaced = edit.text() != text
            show_line_text(edit, text)
            # A text wider than its field shows its beginning, not its end.
            too_wide = edit.fontMetrics().horizontalAdvance(text) > max(edit.width(), 240)
            if replaced and too_wide:
                edit.setCursorPosition(0)
        self._show_name_hint(self.name_edit.text())
        self.free_text_note.setVisible(bool(tool.description) and not tool.has_blocks())
        for field, block in self.block_edits.items():
            show_plain_text(block, getattr(tool, field))
        self.errors_table.show_errors(tool.errors)
        self.examples_table.show_examples(tool.examples)
        show_plain_text(self.description_edit, tool.description)
        self.description_edit.setToolTip(
            self.tr("This text is used: no description block is filled in.")
            if not tool.has_blocks()
            else self.tr("This text is not used now: description blocks are filled in.")
        )

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
            else self.tr("A name must be 1–64 letters, digits, '_' or '-' (e.g. query_invoices).")
        )
        self.name_hint.setVisible(not valid)

    def _push(self, field: str, value: str) -> None:
        if self._tool is not None and getattr(self._tool, field) != value:
            self._on_edit(SetField(field, value))
