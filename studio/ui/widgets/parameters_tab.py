"""The Parameters tab: a tree of the tool's parameter schema with add/remove buttons."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from studio.contract.model import ToolContract
from studio.editing.edits import ITEMS, AddProperty, PropertyPath, RemoveProperty
from studio.ui.models.parameter_tree_model import COLUMN, ParameterTreeModel
from studio.ui.widgets.field_markers import (
    Markers,
    group_by,
    marker_tooltip,
    property_path,
    worst,
)
from studio.ui.widgets.form_sync import ToolEditCallback

JSON_SCHEMA_TYPES = ("string", "integer", "number", "boolean", "object", "array", "null")
_EDIT_TRIGGERS = (
    QAbstractItemView.EditTrigger.DoubleClicked
    | QAbstractItemView.EditTrigger.EditKeyPressed
    | QAbstractItemView.EditTrigger.SelectedClicked
)


class TypeComboDelegate(QStyledItemDelegate):
    """Edits the Type column with a combo of the JSON Schema types."""

    def createEditor(
        self, parent: QWidget, option: QStyleOptionViewItem, index: QModelIndex
    ) -> QWidget:
        if index.column() != COLUMN["type"]:
            return super().createEditor(parent, option, index)
        combo = QComboBox(parent)
        combo.addItems(list(JSON_SCHEMA_TYPES))
        return combo

    def setEditorData(self, editor: QWidget, index: QModelIndex) -> None:
        if isinstance(editor, QComboBox):
            current = str(index.data(Qt.ItemDataRole.EditRole) or "string")
            editor.setCurrentIndex(max(0, editor.findText(current)))
        else:
            super().setEditorData(editor, index)

    def setModelData(self, editor: QWidget, model: QAbstractItemModel, index: QModelIndex) -> None:
        if isinstance(editor, QComboBox):
            model.setData(index, editor.currentText(), Qt.ItemDataRole.EditRole)
        else:
            super().setModelData(editor, model, index)


class ParametersTabWidget(QWidget):
    """Shows the parameter tree; buttons add and remove properties.

    Args:
        on_edit: Called with each edit of the shown tool; the editor pushes it.
        parent: The Qt parent.
    """

    def __init__(self, on_edit: ToolEditCallback, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._on_edit = on_edit
        self._tool: ToolContract | None = None
        self._select_after_refresh: PropertyPath | None = None
        self.model = ParameterTreeModel(on_edit, self)
        self.view = QTreeView(self)
        self.view.setModel(self.model)
        self.view.setItemDelegate(TypeComboDelegate(self.view))
        self.view.setAlternatingRowColors(True)
        self.view.setEditTriggers(_EDIT_TRIGGERS)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setUniformRowHeights(True)
        for key, width in (("name", 170), ("type", 80), ("required", 70), ("enum", 170)):
            self.view.setColumnWidth(COLUMN[key], width)
        self.view.setColumnWidth(COLUMN["description"], 260)
        self.view.selectionModel().currentRowChanged.connect(lambda *_: self._update_buttons())
        self.add_button = QPushButton(self.tr("Add parameter"), self)
        self.add_child_button = QPushButton(self.tr("Add child"), self)
        self.add_child_button.setToolTip(
            self.tr("Add a property to the selected object (or array of objects)")
        )
        self.remove_button = QPushButton(self.tr("Remove"), self)
        self.add_button.clicked.connect(self.add_parameter)
        self.add_child_button.clicked.connect(self.add_child)
        self.remove_button.clicked.connect(self.remove_selected)
        hint = QLabel(
            self.tr(
                "Double-click a cell to edit. Lists are comma-separated; "
                "enum aliases as 出租车=taxi, 的士=taxi."
            ),
            self,
        )
        hint.setWordWrap(True)
        hint.setEnabled(False)
        buttons = QHBoxLayout()
        for button in (self.add_button, self.add_child_button, self.remove_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addLayout(buttons)
        layout.addWidget(self.view, 1)
        layout.addWidget(hint)
        self._update_buttons()

    # ------------------------------------------------------------------ model → view

    def show_tool(self, tool: ToolContract, *, new_tool: bool = False) -> None:
        """Show ``tool``'s parameters, keeping the selection where it still exists."""
        self._tool = tool
        keep = self._select_after_refresh or self.selected_path()
        self._select_after_refresh = None
        self.model.set_parameters(tool.parameters, reset=new_tool)
        self.view.expandAll()
        if keep:
            index = self.model.index_of(keep)
            if index.isValid():
                self.view.setCurrentIndex(index)
        self._update_buttons()

    def set_read_only(self, read_only: bool) -> None:
        """Disable editing (a published version)."""
        self.model.read_only = read_only
        self.view.setEditTriggers(
            QAbstractItemView.EditTrigger.NoEditTriggers if read_only else _EDIT_TRIGGERS
        )
        self._update_buttons()

    def selected_path(self) -> PropertyPath | None:
        """The property path of the current row, or None."""
        index = self.view.currentIndex()
        return self.model.path(index) if index.isValid() else None

    # ------------------------------------------------------------------ lint markers

    def set_markers(self, markers: Markers) -> None:
        """Show a severity icon on each parameter row that has findings."""
        rows = {}
        for path, findings in group_by(markers, property_path).items():
            severity = worst(findings)
            if path and severity is not None:
                rows[path] = (severity, marker_tooltip(findings))
        self.model.set_markers(rows)  # type: ignore[arg-type]

    def focus_path(self, path: str) -> bool:
        """Select and focus the row of ``path`` (its closest existing ancestor)."""
        prop = property_path(path)
        if prop is None:
            return False
        while prop:
            index = self.model.index_of(prop)
            if index.isValid():
                self.view.setCurrentIndex(index)
                self.view.scrollTo(index)
                break
            prop = prop[:-1]
        self.view.setFocus()
        return True

    # ------------------------------------------------------------------ actions

    def add_parameter(self) -> None:
        """Add a top-level string parameter with a fresh name."""
        self._add(())

    def add_child(self) -> None:
        """Add a property to the selected object, or to the items of a selected array."""
        target = self._child_container()
        if target is not None:
            self._add(target)

    def remove_selected(self) -> None:
        """Remove the selected property (and everything under it)."""
        path = self.selected_path()
        if path and path[-1] != ITEMS:
            self._select_after_refresh = path[:-1] or None
            self._on_edit(RemoveProperty(path))

    def _add(self, container: PropertyPath) -> None:
        if self._tool is None:
            return
        schema = self._schema_at(container)
        existing = set((schema or {}).get("properties") or {})
        name, n = "param", 1
        while name in existing:
            n += 1
            name = f"param_{n}"
        self._select_after_refresh = (*container, name)
        self._on_edit(AddProperty((*container, name), {"type": "string", "description": ""}))
        index = self.model.index_of((*container, name))
        if index.isValid():
            self.view.setCurrentIndex(index)

    def _child_container(self) -> PropertyPath | None:
        path = self.selected_path()
        if path is None:
            return None
        schema = self._schema_at(path) or {}
        if schema.get("type") == "object" or "properties" in schema:
            return path
        items = schema.get("items")
        is_array = schema.get("type") == "array" and isinstance(items, dict)
        if is_array and (items.get("type") == "object" or "properties" in items):
            return (*path, ITEMS)
        return None

    def _schema_at(self, path: PropertyPath) -> dict[str, Any] | None:
        index = self.model.index_of(path) if path else QPersistentModelIndex()
        if path and not index.isValid():
            return None
        return self.model.schema(index)

    def _update_buttons(self) -> None:
        editable = not self.model.read_only and self._tool is not None
        path = self.selected_path()
        self.add_button.setEnabled(editable)
        self.add_child_button.setEnabled(editable and self._child_container() is not None)
        self.remove_button.setEnabled(editable and bool(path) and path[-1] != ITEMS)
