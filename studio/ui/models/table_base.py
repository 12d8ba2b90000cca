"""One thin read-only table model base shared by the UI's flat tables.

A subclass lists its columns as ``(title, accessor)`` pairs and holds a list of
row objects; the base answers ``rowCount``/``columnCount``/``headerData``/
``flags`` and dispatches :meth:`RowTableModel.data` by role to small hooks
(:meth:`~RowTableModel.display`, :meth:`~RowTableModel.tooltip`, ...) that
subclasses override. Nothing here decides what a cell shows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Generic, TypeVar

from PySide6.QtCore import (
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)

Index = QModelIndex | QPersistentModelIndex
T = TypeVar("T")
Column = tuple[str, Callable[[Any], Any]]
"""A column: its header title and the accessor giving a row's value."""

_NO_PARENT = QModelIndex()


def horizontal_header(
    titles: Sequence[str], section: int, orientation: Qt.Orientation, role: int
) -> str | None:
    """The horizontal header text of ``section`` for the display role (None otherwise).

    Args:
        titles: The column titles, in column order.
        section: The header section asked for.
        orientation: Horizontal or vertical header.
        role: The item data role asked for.

    Returns:
        The title, or None for other roles, vertical headers and unknown sections.
    """
    if (
        role == Qt.ItemDataRole.DisplayRole
        and orientation == Qt.Orientation.Horizontal
        and 0 <= section < len(titles)
    ):
        # Titles are English in the code, marked with QT_TRANSLATE_NOOP("Columns", …).
        return QCoreApplication.translate("Columns", titles[section])
    return None


class RowTableModel(QAbstractTableModel, Generic[T]):
    """A read-only table of ``rows`` with one ``(title, accessor)`` per column.

    :meth:`data` checks the index and dispatches by role: display, tooltip,
    text alignment, decoration and foreground go to the hooks of the same
    name; any other role goes to :meth:`role_data`, which answers
    :attr:`RowRole` (the row object) and :attr:`SortRole` (:meth:`sort_key`).
    Every hook returns None unless overridden, except :meth:`display`, which
    returns the column accessor's value.
    """

    RowRole: ClassVar[int] = Qt.ItemDataRole.UserRole + 1
    """The row object of an index."""
    SortRole: ClassVar[int] = Qt.ItemDataRole.UserRole + 2
    """A sort key (see :meth:`sort_key`)."""

    columns: ClassVar[Sequence[Column]] = ()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[T] = []
        self._given: tuple[T, ...] = ()
        self._shown: list[int] = []
        """For each shown row, its position in ``_given``."""
        self._sort: tuple[int, Qt.SortOrder] | None = None

    # ------------------------------------------------------------------ rows

    def set_rows(self, rows: Sequence[T]) -> None:
        """Replace every row, shown in the current sort order (see :meth:`sort`)."""
        self.beginResetModel()
        self._given = tuple(rows)
        self._show(self._sorted_positions())
        self.endResetModel()

    def given_rows(self) -> tuple[T, ...]:
        """The rows in the order :meth:`set_rows` received them."""
        return self._given

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Order the rows by :meth:`sort_key` of ``column``, stably (ties keep the given order).

        One Python sort: large tables (tens of thousands of lint findings) must
        not be sorted by a proxy that calls back into Python for every
        comparison. Use :class:`SourceSortProxy` to filter such a model. A model
        without sort keys keeps the given order. (Models that change ``_rows``
        themselves instead of calling :meth:`set_rows` are not sortable.)
        """
        self._sort = (column, order)
        if not self._rows:
            return
        self.layoutAboutToBeChanged.emit()
        before = self.persistentIndexList()
        given = [self._shown[i.row()] for i in before]
        self._show(self._sorted_positions())
        shown_at = {position: row for row, position in enumerate(self._shown)}
        after = [self.index(shown_at[g], i.column()) for g, i in zip(given, before, strict=True)]
        self.changePersistentIndexList(before, after)
        self.layoutChanged.emit()

    def _show(self, positions: list[int]) -> None:
        self._shown = positions
        self._rows = [self._given[n] for n in positions]

    def _sorted_positions(self) -> list[int]:
        positions = list(range(len(self._given)))
        if self._sort is None or type(self).sort_key is RowTableModel.sort_key:
            return positions
        column, order = self._sort
        given = self._given
        # Positions, not rows, are sorted: persistent indexes follow their row even
        # when two rows are equal or the same object. (list.sort is stable, reversed too.)
        positions.sort(
            key=lambda n: self.sort_key(given[n], column),
            reverse=order == Qt.SortOrder.DescendingOrder,
        )
        return positions

    def rows(self) -> list[T]:
        """A copy of the rows, in table order."""
        return list(self._rows)

    # ------------------------------------------------------------------ hooks

    def value(self, row: T, column: int) -> Any:
        """The raw value of ``row`` in ``column`` (the column's accessor)."""
        return self.columns[column][1](row)

    def display(self, row: T, column: int) -> Any:
        """What the display role shows (default: :meth:`value`)."""
        return self.value(row, column)

    def tooltip(self, row: T, column: int) -> Any:
        """The tooltip role (default: none)."""
        return None

    def alignment(self, row: T, column: int) -> Any:
        """The text alignment role (default: none, the view's alignment)."""
        return None

    def decoration(self, row: T, column: int) -> Any:
        """The decoration role (default: none)."""
        return None

    def foreground(self, row: T, column: int) -> Any:
        """The foreground role (default: none)."""
        return None

    def sort_key(self, row: T, column: int) -> Any:
        """The value under :attr:`SortRole` (default: none)."""
        return None

    def role_data(self, row: T, column: int, role: int) -> Any:
        """Any role the other hooks do not cover.

        Args:
            row: The row object.
            column: The column of the index.
            role: The item data role asked for.

        Returns:
            The row under :attr:`RowRole`, :meth:`sort_key` under
            :attr:`SortRole`, None otherwise.
        """
        if role == self.RowRole:
            return row
        if role == self.SortRole:
            return self.sort_key(row, column)
        return None

    # ------------------------------------------------------------------ Qt interface

    def rowCount(self, parent: Index = _NO_PARENT) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = _NO_PARENT) -> int:
        return 0 if parent.isValid() else len(self.columns)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        return horizontal_header([title for title, _ in self.columns], section, orientation, role)

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        column = index.column()
        if not 0 <= column < len(self.columns):
            return None
        row = self._rows[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return self.display(row, column)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.tooltip(row, column)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return self.alignment(row, column)
        if role == Qt.ItemDataRole.DecorationRole:
            return self.decoration(row, column)
        if role == Qt.ItemDataRole.ForegroundRole:
            return self.foreground(row, column)
        return self.role_data(row, column, role)


class SourceSortProxy(QSortFilterProxyModel):
    """Filters in the proxy and leaves sorting to a :class:`RowTableModel` source."""

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        model = self.sourceModel()
        if isinstance(model, RowTableModel):
            model.sort(column, order)
        else:
            super().sort(column, order)
