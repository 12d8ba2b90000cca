"""The registries of a store, as a flat list for the registry picker."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt

from registry_db import RegistryInfo

_Index = QModelIndex | QPersistentModelIndex


class RegistryListModel(QAbstractListModel):
    """Adapts a list of :class:`RegistryInfo` (``store.list_registries()``).

    The display text is the registry's title (or its name when untitled);
    :attr:`NameRole` gives the name that identifies it in the store.
    """

    NameRole = Qt.ItemDataRole.UserRole + 1
    InfoRole = Qt.ItemDataRole.UserRole + 2

    def __init__(self, infos: Sequence[RegistryInfo] = (), parent: Any = None) -> None:
        super().__init__(parent)
        self._infos: list[RegistryInfo] = list(infos)

    def set_registries(self, infos: Sequence[RegistryInfo]) -> None:
        """Replace the whole list (after a refresh from the store)."""
        self.beginResetModel()
        self._infos = list(infos)
        self.endResetModel()

    def registries(self) -> list[RegistryInfo]:
        return list(self._infos)

    def row_of(self, name: str) -> int:
        """Row of the registry called ``name``, or -1."""
        return next((i for i, info in enumerate(self._infos) if info.name == name), -1)

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 - Qt API signature
        return 0 if parent.isValid() else len(self._infos)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._infos):
            return None
        info = self._infos[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return info.title or info.name
        if role == Qt.ItemDataRole.ToolTipRole:
            latest = (
                f"v{info.latest_version}" if info.latest_version else self.tr("never published")
            )
            return self.tr("{name}\n{count} tools in the draft · {latest}").format(
                name=info.name, count=info.tool_count, latest=latest
            )
        if role == self.NameRole:
            return info.name
        if role == self.InfoRole:
            return info
        return None
