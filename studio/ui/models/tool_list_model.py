"""The tools of one open registry, as a list that follows the workspace's events."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QColor, QGuiApplication, QIcon, QPainter, QPixmap

from studio.contract import RiskTier
from studio.editing import DraftWorkspace

_Index = QModelIndex | QPersistentModelIndex

DIRTY_MARKER = "•"

# Mid-saturation colours stay readable on light and dark bases alike.
RISK_COLOURS: dict[RiskTier, str] = {
    RiskTier.READ: "#3a9a5b",
    RiskTier.WRITE: "#d08a1f",
    RiskTier.DESTRUCTIVE: "#d64545",
}

_icons: dict[RiskTier, QIcon] = {}


def risk_icon(risk: RiskTier) -> QIcon:
    """A small filled dot in the colour of ``risk`` (cached).

    Without a QGuiApplication (headless model tests) pixmaps cannot exist, so
    the icon is empty rather than aborting the process.
    """
    if QGuiApplication.instance() is None:
        return QIcon()
    if risk not in _icons:
        pixmap = QPixmap(12, 12)
        pixmap.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pixmap)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(RISK_COLOURS[risk]))
        painter.drawEllipse(1, 1, 10, 10)
        painter.end()
        _icons[risk] = QIcon(pixmap)
    return _icons[risk]


class ToolListModel(QAbstractListModel):
    """Adapts a :class:`DraftWorkspace`'s entries; rows follow its events.

    ``inserting``/``inserted`` and ``removing``/``removed`` become
    ``beginInsertRows``/``endInsertRows`` and friends; ``changed`` and
    ``dirty`` become ``dataChanged``. The model never changes the workspace.

    Roles:
        KeyRole: the entry's workspace key (stable across renames and undo).
        FilterRole: name, title and summary, for the filter proxy.
        DirtyRole: the tool has unsaved changes.
        RiskRole: the tool's :class:`RiskTier` value.
    """

    KeyRole = Qt.ItemDataRole.UserRole + 1
    FilterRole = Qt.ItemDataRole.UserRole + 2
    DirtyRole = Qt.ItemDataRole.UserRole + 3
    RiskRole = Qt.ItemDataRole.UserRole + 4

    def __init__(self, workspace: DraftWorkspace, parent: Any = None) -> None:
        super().__init__(parent)
        self._ws = workspace
        self._handlers = {
            "inserting": self._on_inserting,
            "inserted": self._on_inserted,
            "removing": self._on_removing,
            "removed": self._on_removed,
            "changed": self._on_changed,
            "dirty": self._on_dirty,
            "reset": self._on_reset,
        }
        for event, handler in self._handlers.items():
            workspace.events.connect(event, handler)

    @property
    def workspace(self) -> DraftWorkspace:
        return self._ws

    def detach(self) -> None:
        """Stop following the workspace (before the model is dropped)."""
        for event, handler in self._handlers.items():
            self._ws.events.disconnect(event, handler)

    def row_of_key(self, key: int) -> int:
        """Row of the entry with workspace key ``key``, or -1."""
        return next((i for i, e in enumerate(self._ws.entries) if e.key == key), -1)

    def refresh_markers(self) -> None:
        """Re-read the dirty markers of every row (after a save)."""
        self._on_dirty(self._ws.is_dirty)

    # ------------------------------------------------------------------ Qt API

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 - Qt API signature
        return 0 if parent.isValid() else len(self._ws.entries)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._ws.entries):
            return None
        entry = self._ws.entries[index.row()]
        tool = entry.tool
        if role == Qt.ItemDataRole.DisplayRole:
            marker = f"{DIRTY_MARKER} " if self._is_dirty(entry) else ""
            return f"{marker}{tool.name}"
        if role == Qt.ItemDataRole.DecorationRole:
            return risk_icon(tool.risk)
        if role == Qt.ItemDataRole.ToolTipRole:
            lines = [tool.title or tool.name, f"risk: {tool.risk.value}"]
            if tool.summary:
                lines.append(tool.summary)
            if self._is_dirty(entry):
                lines.append("unsaved changes")
            return "\n".join(lines)
        if role == self.KeyRole:
            return entry.key
        if role == self.FilterRole:
            return f"{tool.name}\n{tool.title}\n{tool.summary}"
        if role == self.DirtyRole:
            return self._is_dirty(entry)
        if role == self.RiskRole:
            return tool.risk.value
        return None

    def _is_dirty(self, entry: Any) -> bool:
        return self._ws.is_entry_dirty(entry)

    # ------------------------------------------------------------------ events

    def _on_inserting(self, index: int) -> None:
        self.beginInsertRows(QModelIndex(), index, index)

    def _on_inserted(self, index: int) -> None:
        self.endInsertRows()

    def _on_removing(self, index: int) -> None:
        self.beginRemoveRows(QModelIndex(), index, index)

    def _on_removed(self, index: int) -> None:
        self.endRemoveRows()

    def _on_changed(self, index: int) -> None:
        row = self.index(index, 0)
        self.dataChanged.emit(row, row)

    def _on_dirty(self, _dirty: bool) -> None:
        # Moves change other rows' positions, so every marker may flip.
        if self._ws.entries:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self._ws.entries) - 1, 0))

    def _on_reset(self, *_args: Any) -> None:
        self.beginResetModel()
        self.endResetModel()


class ToolFilterModel(QSortFilterProxyModel):
    """Filters tools by name, title or summary, case-insensitively, in registry order."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.setFilterRole(ToolListModel.FilterRole)
        self.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.setDynamicSortFilter(True)
