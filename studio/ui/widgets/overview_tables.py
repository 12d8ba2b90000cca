"""Tables of immutable specs: the errors and examples of the Overview tab.

Both tables show a tuple of immutable specs and push the whole new tuple as one
``SetField`` edit when a cell changes. A refresh leaves the table alone when it
already shows the model's value, so the cell being edited keeps its state.
"""

from __future__ import annotations

import json

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.contract.model import ErrorSpec, Example
from studio.editing.edits import SetField
from studio.ui.widgets.form_sync import ToolEditCallback

ERROR_COLOR = QColor("#d93025")


# Headers are translated in the "Columns" context and nouns in "SpecTableWidget";
# these are the words of the permissions table (widgets/contract_tab.py).
_CONTRACT_TABLE_WORDS = (
    QT_TRANSLATE_NOOP("Columns", "Role"),
    QT_TRANSLATE_NOOP("Columns", "Scenario"),
    QT_TRANSLATE_NOOP("SpecTableWidget", "permission"),
)


class SpecTableWidget(QWidget):
    """A table with Add/Remove buttons; subclasses map rows to specs.

    ``headers`` and ``noun`` are English; they are shown translated.
    """

    headers: tuple[str, ...] = ()
    noun = "row"

    def __init__(self, on_edit: ToolEditCallback, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._on_edit = on_edit
        self.table = QTableWidget(0, len(self.headers), self)
        self.table.setHorizontalHeaderLabels(
            [QCoreApplication.translate("Columns", h) for h in self.headers]
        )
        self.table.verticalHeader().setVisible(False)
        self.table.setWordWrap(False)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.itemChanged.connect(lambda _item: self._commit())
        noun = QCoreApplication.translate("SpecTableWidget", self.noun)
        self.add_button = QPushButton(self.tr("Add {noun}").format(noun=noun), self)
        self.remove_button = QPushButton(self.tr("Remove {noun}").format(noun=noun), self)
        self.add_button.clicked.connect(self._add)
        self.remove_button.clicked.connect(self._remove)
        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.table)
        layout.addLayout(buttons)
        self._fit_height()

    def set_read_only(self, read_only: bool) -> None:
        """Disable editing, adding and removing rows."""
        triggers = (
            QAbstractItemView.EditTrigger.NoEditTriggers
            if read_only
            else QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
            | QAbstractItemView.EditTrigger.AnyKeyPressed
        )
        self.table.setEditTriggers(triggers)
        self.add_button.setEnabled(not read_only)
        self.remove_button.setEnabled(not read_only)
        self._read_only = read_only
        self._rebuild_flags()

    def _rebuild_flags(self) -> None:
        read_only = getattr(self, "_read_only", False)
        blocked = self.table.blockSignals(True)
        for row in range(self.table.rowCount()):
            for col in range(self.table.columnCount()):
                item = self.table.item(row, col)
                if item is None:
                    continue
                flags = item.flags()
                editable = Qt.ItemFlag.ItemIsEditable | Qt.ItemFlag.ItemIsUserCheckable
                item.setFlags(flags & ~editable if read_only else flags | self._flags_for(col))
        self.table.blockSignals(blocked)

    def _flags_for(self, column: int) -> Qt.ItemFlag:
        return Qt.ItemFlag.ItemIsEditable

    def _set_rows(self, rows: list[list[QTableWidgetItem]]) -> None:
        blocked = self.table.blockSignals(True)
        self.table.setRowCount(len(rows))
        for r, items in enumerate(rows):
            for c, item in enumerate(items):
                self.table.setItem(r, c, item)
        self.table.blockSignals(blocked)
        self._rebuild_flags()
        self._fit_height()

    def _fit_height(self) -> None:
        # Tall enough for the rows (2 to 6 of them, then it scrolls), so forms
        # stay compact instead of every table claiming the free space.
        rows = min(max(self.table.rowCount(), 2), 6)
        header = self.table.horizontalHeader().sizeHint().height()
        row_height = self.table.verticalHeader().defaultSectionSize()
        self.table.setFixedHeight(header + rows * row_height + 2 * self.table.frameWidth() + 2)

    def _text(self, row: int, column: int) -> str:
        item = self.table.item(row, column)
        return item.text() if item is not None else ""

    def _selected_rows(self) -> list[int]:
        return sorted({index.row() for index in self.table.selectedIndexes()}, reverse=True)

    def _commit(self) -> None:
        raise NotImplementedError

    def _add(self) -> None:
        raise NotImplementedError

    def _remove(self) -> None:
        rows = self._selected_rows() or ([self.table.currentRow()] if self.table.rowCount() else [])
        blocked = self.table.blockSignals(True)
        for row in rows:
            if row >= 0:
                self.table.removeRow(row)
        self.table.blockSignals(blocked)
        self._fit_height()
        self._commit()

    def _edit_last_row(self) -> None:
        row = self.table.rowCount() - 1
        if row >= 0:
            self.table.setCurrentCell(row, 0)
            self.table.editItem(self.table.item(row, 0))


class ErrorsTableWidget(SpecTableWidget):
    """Edits ``errors``: code, meaning, retryable, hint."""

    headers = (
        str(QT_TRANSLATE_NOOP("Columns", "Code")),
        str(QT_TRANSLATE_NOOP("Columns", "Meaning")),
        str(QT_TRANSLATE_NOOP("Columns", "Retryable")),
        str(QT_TRANSLATE_NOOP("Columns", "Hint")),
    )
    noun = str(QT_TRANSLATE_NOOP("SpecTableWidget", "error"))
    _RETRYABLE = 2

    def __init__(self, on_edit: ToolEditCallback, parent: QWidget | None = None) -> None:
        super().__init__(on_edit, parent)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(self._RETRYABLE, QHeaderView.ResizeMode.ResizeToContents)
        self.table.setColumnWidth(0, 160)
        self._shown: tuple[ErrorSpec, ...] = ()

    def show_errors(self, errors: tuple[ErrorSpec, ...]) -> None:
        """Show ``errors`` unless the table already shows them."""
        self._shown = errors
        if self.errors() == errors:
            return
        rows = []
        for spec in errors:
            check = QTableWidgetItem()
            check.setCheckState(
                Qt.CheckState.Checked if spec.retryable else Qt.CheckState.Unchecked
            )
            cells = [spec.code, spec.meaning, None, spec.hint]
            rows.append([check if c is None else QTableWidgetItem(c) for c in cells])
        self._set_rows(rows)

    def errors(self) -> tuple[ErrorSpec, ...]:
        """The errors as the table shows them."""
        out = []
        for row in range(self.table.rowCount()):
            check = self.table.item(row, self._RETRYABLE)
            retryable = check is not None and check.checkState() == Qt.CheckState.Checked
            out.append(
                ErrorSpec(self._text(row, 0), self._text(row, 1), retryable, self._text(row, 3))
            )
        return tuple(out)

    def _flags_for(self, column: int) -> Qt.ItemFlag:
        if column == self._RETRYABLE:
            return Qt.ItemFlag.ItemIsUserCheckable
        return Qt.ItemFlag.ItemIsEditable

    def _commit(self) -> None:
        errors = self.errors()
        if errors != self._shown:
            self._shown = errors
            self._on_edit(SetField("errors", errors))

    def _add(self) -> None:
        self._on_edit(SetField("errors", (*self._shown, ErrorSpec(""))))
        self._edit_last_row()


class ExamplesTableWidget(SpecTableWidget):
    """Edits ``examples``; arguments are JSON objects, pushed only once valid."""

    headers = (
        str(QT_TRANSLATE_NOOP("Columns", "Description")),
        str(QT_TRANSLATE_NOOP("Columns", "Arguments (JSON object)")),
    )
    noun = str(QT_TRANSLATE_NOOP("SpecTableWidget", "example"))

    def __init__(self, on_edit: ToolEditCallback, parent: QWidget | None = None) -> None:
        super().__init__(on_edit, parent)
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.error_label = QLabel(self)
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet(f"color: {ERROR_COLOR.name()};")
        self.error_label.hide()
        self.layout().insertWidget(1, self.error_label)
        self._shown: tuple[Example, ...] = ()

    def show_examples(self, examples: tuple[Example, ...]) -> None:
        """Show ``examples`` unless the table shows them (or still holds unapplied text)."""
        current, problems = self._read()
        if current == examples or (problems and examples == self._shown):
            self._shown = examples
            return
        self._shown = examples
        rows = [
            [
                QTableWidgetItem(ex.description),
                QTableWidgetItem(json.dumps(ex.arguments, ensure_ascii=False)),
            ]
            for ex in examples
        ]
        self._set_rows(rows)
        self._show_problems([])

    def _read(self) -> tuple[tuple[Example, ...] | None, list[str]]:
        examples, problems = [], []
        for row in range(self.table.rowCount()):
            text = self._text(row, 1).strip() or "{}"
            try:
                args = json.loads(text)
            except json.JSONDecodeError as exc:
                problems.append(
                    self.tr("example {row}: line {line}, column {column}: {message}").format(
                        row=row + 1, line=exc.lineno, column=exc.colno, message=exc.msg
                    )
                )
                continue
            if not isinstance(args, dict):
                problems.append(
                    self.tr("example {row}: arguments must be a JSON object").format(row=row + 1)
                )
                continue
            examples.append(Example(self._text(row, 0), args))
        return (None if problems else tuple(examples)), problems

    def _show_problems(self, problems: list[str]) -> None:
        self.error_label.setText("\n".join(problems))
        self.error_label.setVisible(bool(problems))
        blocked = self.table.blockSignals(True)
        for row in range(self.table.rowCount()):
            item = self.table.item(row, 1)
            if item is not None:
                prefix = self.tr("example {row}:").format(row=row + 1)
                bad = any(p.startswith(prefix) for p in problems)
                item.setForeground(QBrush(ERROR_COLOR) if bad else QBrush())
        self.table.blockSignals(blocked)

    def _commit(self) -> None:
        examples, problems = self._read()
        self._show_problems(problems)
        if examples is not None and examples != self._shown:
            self._shown = examples
            self._on_edit(SetField("examples", examples))

    def _add(self) -> None:
        self._on_edit(SetField("examples", (*self._shown, Example())))
        self._edit_last_row()
