"""Executor per tool: ``mock`` or ``http`` (with a URL template); destructive defaults to mock."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import QComboBox, QStyledItemDelegate, QStyleOptionViewItem, QWidget

from studio.contract import Registry
from studio.ui.models.table_base import RowTableModel

_Index = QModelIndex | QPersistentModelIndex
COLUMNS = ("Tool", "Risk", "Executor", "HTTP URL")
EXECUTORS = ("mock", "http")


@dataclass
class ExecutorChoice:
    tool: str
    risk: str
    executor: str = "mock"
    url: str = ""


class ExecutorTableModel(RowTableModel[ExecutorChoice]):
    """One row per tool of the chosen registry; Executor and URL are editable."""

    columns = tuple(
        zip(
            COLUMNS,
            (lambda r: r.tool, lambda r: r.risk, lambda r: r.executor, lambda r: r.url),
            strict=True,
        )
    )

    def set_registry(self, registry: Registry | None) -> None:
        """Show ``registry``'s tools, keeping choices for tools still present."""
        old = {r.tool: r for r in self._rows}
        self.beginResetModel()
        self._rows = []
        for tool in registry.tools if registry else ():
            previous = old.get(tool.name)
            row = ExecutorChoice(tool.name, tool.risk.value)
            if previous is not None:
                row.executor, row.url = previous.executor, previous.url
            self._rows.append(row)
        self.endResetModel()

    def choices(self) -> list[ExecutorChoice]:
        return list(self._rows)

    def tooltip(self, row: ExecutorChoice, column: int) -> str | None:
        destructive_mock = row.risk == "destructive" and row.executor == "mock"
        if column == 2 and destructive_mock:
            return "Destructive tools run against mocks unless you pick http"
        return None

    def role_data(self, row: ExecutorChoice, column: int, role: int) -> Any:
        return self.display(row, column) if role == Qt.ItemDataRole.EditRole else None

    def flags(self, index: _Index) -> Qt.ItemFlag:
        flags = super().flags(index)
        if index.isValid() and index.column() in (2, 3):
            flags |= Qt.ItemFlag.ItemIsEditable
        return flags

    def setData(self, index: _Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if not index.isValid() or role != Qt.ItemDataRole.EditRole or index.column() not in (2, 3):
            return False
        row = self._rows[index.row()]
        if index.column() == 2:
            if value not in EXECUTORS:
                return False
            row.executor = str(value)
        else:
            row.url = str(value).strip()
        self.dataChanged.emit(index, index)
        return True


class ExecutorDelegate(QStyledItemDelegate):
    """A combo box for the Executor column."""

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem, index: _Index) -> QWidget:
        if index.column() == 2:
            combo = QComboBox(parent)
            combo.addItems(list(EXECUTORS))
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
