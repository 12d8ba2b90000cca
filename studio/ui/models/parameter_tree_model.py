"""A tree model over a tool's parameter schema (a JSON Schema object).

Rows are properties; nested objects' properties and an array's ``items`` (a
child row named ``[]``) are children. The model only reads the schema dict and
turns cell edits into :mod:`studio.editing` edits handed to a callback; the
document applies them and the editor calls :meth:`set_parameters` back.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QAbstractItemModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
)

from studio.editing.edits import (
    ITEMS,
    MISSING,
    PropertyPath,
    RenameProperty,
    SetPropertyKey,
    SetRequired,
    ToolEdit,
)
from studio.lint import Severity
from studio.ui.models.table_base import horizontal_header
from studio.ui.widgets.field_markers import severity_icon
from studio.ui.widgets.form_sync import ToolEditCallback

Index = QModelIndex | QPersistentModelIndex
_NO_PARENT = QModelIndex()

# (column key, header); the key is the schema keyword edited by the column.
COLUMNS: tuple[tuple[str, str], ...] = (
    ("name", str(QT_TRANSLATE_NOOP("Columns", "Name"))),
    ("type", str(QT_TRANSLATE_NOOP("Columns", "Type"))),
    ("required", str(QT_TRANSLATE_NOOP("Columns", "Required"))),
    ("enum", str(QT_TRANSLATE_NOOP("Columns", "Enum values"))),
    ("default", str(QT_TRANSLATE_NOOP("Columns", "Default"))),
    ("format", str(QT_TRANSLATE_NOOP("Columns", "Format"))),
    ("description", str(QT_TRANSLATE_NOOP("Columns", "Description"))),
    ("x-aliases", str(QT_TRANSLATE_NOOP("Columns", "Aliases"))),
    ("x-enum-aliases", str(QT_TRANSLATE_NOOP("Columns", "Enum aliases"))),
    ("x-injected", str(QT_TRANSLATE_NOOP("Columns", "Injected from"))),
)
COLUMN = {key: i for i, (key, _) in enumerate(COLUMNS)}
_TITLES = tuple(title for _, title in COLUMNS)


@dataclass(eq=False)
class _Node:
    name: str
    path: PropertyPath
    schema: dict[str, Any]
    required: bool = False
    parent: _Node | None = None
    row: int = 0
    children: list[_Node] = field(default_factory=list)

    @property
    def is_items(self) -> bool:
        return self.name == ITEMS

    def shape(self) -> tuple[Any, ...]:
        return tuple(c.shape() for c in self.children)


def _build(schema: dict[str, Any], path: PropertyPath = (), name: str = "") -> _Node:
    node = _Node(name, path, schema)
    props = schema.get("properties")
    required = schema.get("required") if isinstance(schema.get("required"), list) else []
    if isinstance(props, dict):
        for key, sub in props.items():
            if isinstance(sub, dict):
                child = _build(sub, (*path, key), key)
                child.required = key in required
                node.children.append(child)
    items = schema.get("items")
    if isinstance(items, dict):
        node.children.append(_build(items, (*path, ITEMS), ITEMS))
    for row, child in enumerate(node.children):
        child.parent, child.row = node, row
    return node


def value_text(value: Any) -> str:
    """A schema value as cell text: strings as they are, anything else as JSON."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def text_value(text: str, schema_type: Any) -> Any:
    """Cell text back to a value: JSON for non-string types when it parses."""
    if schema_type != "string":
        try:
            return json.loads(text)
        except json.JSONDecodeError:
            pass
    return text


def cell_text(schema: dict[str, Any], key: str) -> str:
    """How column ``key`` shows ``schema``."""
    value = schema.get(key)
    if value is None:
        return ""
    if key == "type":
        return ", ".join(value) if isinstance(value, list) else str(value)
    if key in ("enum", "x-aliases") and isinstance(value, list):
        return ", ".join(value_text(v) for v in value)
    if key == "x-enum-aliases" and isinstance(value, dict):
        return ", ".join(f"{k}={value_text(v)}" for k, v in value.items())
    return value_text(value)


def cell_value(schema: dict[str, Any], key: str, text: str) -> Any:
    """The schema value for ``text`` typed into column ``key`` (``MISSING`` when empty)."""
    text = text.strip()
    if not text:
        return MISSING
    parts = [p.strip() for p in text.split(",") if p.strip()]
    kind = schema.get("type")
    if key == "enum":
        return [text_value(p, kind) for p in parts]
    if key == "x-aliases":
        return parts
    if key == "x-enum-aliases":
        pairs = (p.partition("=") for p in parts)
        return {k.strip(): text_value(v.strip(), kind) for k, _, v in pairs if k.strip()}
    if key == "default":
        return text_value(text, kind)
    return text


class ParameterTreeModel(QAbstractItemModel):
    """Adapts a ``parameters`` schema dict to a tree of editable properties.

    Args:
        on_edit: Receives the edit for each changed cell.
        parent: The Qt parent.
    """

    def __init__(self, on_edit: ToolEditCallback, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._on_edit = on_edit
        self._root = _Node("", (), {})
        self.read_only = False
        self._markers: dict[PropertyPath, tuple[Severity, str]] = {}

    def set_markers(self, markers: dict[PropertyPath, tuple[Severity, str]]) -> None:
        """Lint markers by row: the worst severity and the tooltip (name column)."""
        if markers == self._markers:
            return
        self._markers = dict(markers)
        self._emit_column_changed(self._root, COLUMN["name"])

    def marker(self, path: PropertyPath) -> tuple[Severity, str] | None:
        """The lint marker of the row for ``path``, if any."""
        return self._markers.get(path)

    def _emit_column_changed(self, node: _Node, column: int) -> None:
        if node.children:
            first = self.createIndex(0, column, node.children[0])
            last = self.createIndex(len(node.children) - 1, column, node.children[-1])
            self.dataChanged.emit(first, last)
            for child in node.children:
                self._emit_column_changed(child, column)

    def set_parameters(self, parameters: dict[str, Any], *, reset: bool = False) -> None:
        """Show ``parameters``; rows are updated in place when the tree keeps its shape.

        Args:
            parameters: The tool's parameter schema (not modified).
            reset: Rebuild the model even if the shape is unchanged (another tool).
        """
        root = _build(parameters)
        if reset or root.shape() != self._root.shape():
            self.beginResetModel()
            self._root = root
            self.endResetModel()
            return
        self._update(self._root, root)

    def _update(self, old: _Node, new: _Node) -> None:
        old.name, old.path, old.schema, old.required = new.name, new.path, new.schema, new.required
        if old.children:
            first = self.createIndex(0, 0, old.children[0])
            last = self.createIndex(len(old.children) - 1, len(COLUMNS) - 1, old.children[-1])
            for a, b in zip(old.children, new.children, strict=True):
                self._update(a, b)
            self.dataChanged.emit(first, last)

    # ------------------------------------------------------------------ paths

    def path(self, index: Index) -> PropertyPath:
        """The property path of the row at ``index`` (``()`` for the root)."""
        return self._node(index).path

    def schema(self, index: Index) -> dict[str, Any]:
        """The schema dict shown at ``index`` (do not modify it)."""
        return self._node(index).schema

    def index_of(self, path: PropertyPath) -> QModelIndex:
        """The index of the row for ``path`` (invalid when there is none)."""
        node, index = self._root, QModelIndex()
        for segment in path:
            node = next((c for c in node.children if c.name == segment), None)  # type: ignore[assignment]
            if node is None:
                return QModelIndex()
            index = self.createIndex(node.row, 0, node)
        return index

    def _node(self, index: Index) -> _Node:
        return index.internalPointer() if index.isValid() else self._root

    # ------------------------------------------------------------------ structure

    def index(self, row: int, column: int, parent: Index = _NO_PARENT) -> QModelIndex:
        if not self.hasIndex(row, column, parent):
            return QModelIndex()
        return self.createIndex(row, column, self._node(parent).children[row])

    def parent(self, index: Index | None = None) -> QModelIndex:  # type: ignore[override]
        if index is None:
            return QObject.parent(self)  # type: ignore[return-value]
        if not index.isValid():
            return QModelIndex()
        up = self._node(index).parent
        if up is None or up is self._root:
            return QModelIndex()
        return self.createIndex(up.row, 0, up)

    def rowCount(self, parent: Index = _NO_PARENT) -> int:
        if parent.isValid() and parent.column() != 0:
            return 0
        return len(self._node(parent).children)

    def columnCount(self, parent: Index = _NO_PARENT) -> int:
        return len(COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        return horizontal_header(_TITLES, section, orientation, role)

    # ------------------------------------------------------------------ data

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        node, key = self._node(index), COLUMNS[index.column()][0]
        if self.read_only or (node.is_items and key in ("name", "required")):
            return flags
        if key == "required":
            return flags | Qt.ItemFlag.ItemIsUserCheckable
        return flags | Qt.ItemFlag.ItemIsEditable

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        node, key = self._node(index), COLUMNS[index.column()][0]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            if key == "name":
                return node.name
            return "" if key == "required" else cell_text(node.schema, key)
        if role == Qt.ItemDataRole.CheckStateRole and key == "required" and not node.is_items:
            return Qt.CheckState.Checked if node.required else Qt.CheckState.Unchecked
        if (
            key == "name"
            and self._markers
            and role
            in (
                Qt.ItemDataRole.DecorationRole,
                Qt.ItemDataRole.ToolTipRole,
            )
        ):
            marker = self._markers.get(node.path)
            if marker is not None:
                if role == Qt.ItemDataRole.DecorationRole:
                    return severity_icon(marker[0])
                return marker[1]
        if role == Qt.ItemDataRole.ToolTipRole:
            if node.is_items:
                return self.tr("The schema of each item of the array")
            if key in ("description", "x-enum-aliases", "enum", "x-aliases"):
                return cell_text(node.schema, key) or None
        return None

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if not index.isValid() or not (self.flags(index) & ~_READ_FLAGS):
            return False
        edit = self._edit_for(self._node(index), COLUMNS[index.column()][0], value, role)
        if edit is None:
            return False
        self._on_edit(edit)
        return True

    def _edit_for(self, node: _Node, key: str, value: Any, role: int) -> ToolEdit | None:
        if key == "required":
            if role != Qt.ItemDataRole.CheckStateRole:
                return None
            checked = Qt.CheckState(value) == Qt.CheckState.Checked
            return SetRequired(node.path, checked) if checked != node.required else None
        if role != Qt.ItemDataRole.EditRole:
            return None
        text = str(value)
        if key == "name":
            name = text.strip()
            return RenameProperty(node.path, name) if name and name != node.name else None
        new = cell_value(node.schema, key, text)
        if new == node.schema.get(key, MISSING):
            return None
        return SetPropertyKey(node.path, key, new)


_READ_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
