"""Executor per tool: ``mock`` or ``http``; destructive tools default to mock.

The table shows what each tool runs on and a one-line summary of its target
(the HTTP method and URL template, or how many canned responses it has). The
sidebar persists a change of executor and opens the editors for the Target
column; this model only holds the rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QComboBox, QStyledItemDelegate, QStyleOptionViewItem, QWidget

from studio.contract import Registry
from studio.ui.models.table_base import RowTableModel

_Index = QModelIndex | QPersistentModelIndex
# Translated where shown (table_base.horizontal_header, context "Columns").
COLUMNS = (
    str(QT_TRANSLATE_NOOP("Columns", "Tool")),
    str(QT_TRANSLATE_NOOP("Columns", "Risk")),
    str(QT_TRANSLATE_NOOP("Columns", "Executor")),
    str(QT_TRANSLATE_NOOP("Columns", "Target")),
)
EXECUTOR_COLUMN, TARGET_COLUMN = 2, 3
EXECUTORS = ("mock", "http")


@dataclass
class ExecutorChoice:
    """One tool's row.

    Attributes:
        http: The tool's HTTP target (JSON form), kept while it runs on mock.
        mocks: How many canned responses it has (``-1``: none configured),
            and whether it has a default.
    """

    tool: str
    risk: str
    executor: str = "mock"
    http: dict[str, Any] | None = None
    mocks: int = -1
    mock_default: bool = False

    @property
    def url(self) -> str:
        return str((self.http or {}).get("url", ""))

    def target_summary(self, *, short: bool = False) -> str:
        """What the tool runs against; ``short`` fits the sidebar (the host is left out)."""
        if self.executor == "http":
            if not self.url:
                return "no URL yet" if short else "no URL yet: double-click to set"
            method = str((self.http or {}).get("method", "POST")).upper()
            where = self.url
            if short and "://" in where:
                where = "/" + where.split("://", 1)[1].partition("/")[2]
            return f"{method} {where}"
        if self.mocks < 0:
            return "no mocks" if short else "no mocks: double-click to add"
        if short:
            parts = [str(self.mocks)] if self.mocks else []
        else:
            parts = [f"{self.mocks} response{'s' if self.mocks != 1 else ''}"] if self.mocks else []
        if self.mock_default:
            parts.append("default")
        return " + ".join(parts) or "empty"


class ExecutorTableModel(RowTableModel[ExecutorChoice]):
    """One row per tool of the chosen registry; the Executor column is editable.

    Signals:
        executorChanged(str, str): The user picked another executor for a tool.
    """

    executorChanged = Signal(str, str)

    columns = tuple(
        zip(
            COLUMNS,
            (
                lambda r: r.tool,
                lambda r: r.risk,
                lambda r: r.executor,
                lambda r: r.target_summary(short=True),
            ),
            strict=True,
        )
    )

    def set_registry(
        self,
        registry: Registry | None,
        executors: dict[str, tuple[str, dict[str, Any] | None]] | None = None,
        mocks: dict[str, Any] | None = None,
    ) -> None:
        """Show ``registry``'s tools with their stored executors and mock counts.

        Args:
            registry: The registry (draft or version) shown.
            executors: Tool → (executor, HTTP target) as stored; tools absent use mock.
            mocks: Tool → mock spec (JSON), for the Target summary of mock rows.
        """
        executors = executors or {}
        mocks = mocks or {}
        self.beginResetModel()
        self._rows = []
        for tool in registry.tools if registry else ():
            executor, http = executors.get(tool.name, ("mock", None))
            row = ExecutorChoice(tool.name, tool.risk.value, executor, http)
            spec = mocks.get(tool.name)
            if isinstance(spec, dict):
                responses = spec.get("responses")
                row.mocks = len(responses) if isinstance(responses, list) else 0
                row.mock_default = "default" in spec
            self._rows.append(row)
        self.endResetModel()

    def choices(self) -> list[ExecutorChoice]:
        return list(self._rows)

    def choice(self, tool: str) -> ExecutorChoice | None:
        return next((r for r in self._rows if r.tool == tool), None)

    def update_choice(self, tool: str, **fields: Any) -> None:
        """Change fields of ``tool``'s row (after a save) and repaint it."""
        for i, row in enumerate(self._rows):
            if row.tool == tool:
                for name, value in fields.items():
                    setattr(row, name, value)
                self.dataChanged.emit(self.index(i, 0), self.index(i, len(COLUMNS) - 1))
                return

    def tooltip(self, row: ExecutorChoice, column: int) -> str | None:
        if column == 0:
            return f"{row.tool} ({row.risk})"
        if column == EXECUTOR_COLUMN and row.risk == "destructive" and row.executor == "mock":
            return "Destructive tools run against mocks unless you pick http"
        if column == TARGET_COLUMN:
            what = "HTTP target" if row.executor == "http" else "mock responses"
            return f"{row.target_summary()}\nDouble-click to edit the {what} of {row.tool}"
        return None

    def foreground(self, row: ExecutorChoice, column: int) -> Any:
        if column == TARGET_COLUMN and row.executor == "http" and not row.url:
            return QColor("#e0524a")  # readable on light and dark bases
        return None

    def role_data(self, row: ExecutorChoice, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.EditRole:
            return self.display(row, column)
        return super().role_data(row, column, role)

    def flags(self, index: _Index) -> Qt.ItemFlag:
        flags = super().flags(index)
        if index.isValid() and index.column() == EXECUTOR_COLUMN:
            flags |= Qt.ItemFlag.ItemIsEditable
        return flags

    def setData(self, index: _Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if (
            not index.isValid()
            or role != Qt.ItemDataRole.EditRole
            or index.column() != EXECUTOR_COLUMN
            or value not in EXECUTORS
        ):
            return False
        row = self._rows[index.row()]
        if row.executor == value:
            return True
        row.executor = str(value)
        self.dataChanged.emit(index, self.index(index.row(), TARGET_COLUMN))
        self.executorChanged.emit(row.tool, row.executor)
        return True


class ExecutorDelegate(QStyledItemDelegate):
    """A combo box for the Executor column."""

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem, index: _Index) -> QWidget:
        if index.column() == EXECUTOR_COLUMN:
            combo = QComboBox(parent)
            combo.addItems(list(EXECUTORS))
            # Commit on pick: the choice is saved at once, not when focus leaves.
            combo.activated.connect(lambda _i: self.commitData.emit(combo))
            return combo
        return super().createEditor(parent, option, index)

    def setEditorData(self, editor: QWidget, index: _Index) -> None:
        if isinstance(editor, QComboBox):
            editor.setCurrentText(str(index.data(Qt.ItemDataRole.EditRole)))
        else:
            super().setEditorData(editor, index)

    def setModelData(self, editor: QWidget, model: Any, index: _Index) -> None:
        if isinstance(editor, QComboBox):
            model.setData(index, editor.currentText())
        else:
            super().setModelData(editor, model, index)
