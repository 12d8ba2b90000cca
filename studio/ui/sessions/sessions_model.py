"""The session list: a table model over :class:`SessionRow` and a filter/sort proxy.

The model only adapts rows read by :func:`studio.sessions.library.session_rows`;
filtering (source, registry, text) and sorting live in :class:`SessionsFilterModel`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtGui import QFont, QIcon
from PySide6.QtWidgets import QApplication, QStyle

from studio.sessions.library import SessionRow
from studio.ui.models.table_base import RowTableModel, SourceSortProxy

_Index = QModelIndex | QPersistentModelIndex
COLUMNS = (
    str(QT_TRANSLATE_NOOP("Columns", "Title")),
    str(QT_TRANSLATE_NOOP("Columns", "Source")),
    str(QT_TRANSLATE_NOOP("Columns", "Registry")),
    str(QT_TRANSLATE_NOOP("Columns", "Model")),
    str(QT_TRANSLATE_NOOP("Columns", "Calls")),
    str(QT_TRANSLATE_NOOP("Columns", "Problems")),
    str(QT_TRANSLATE_NOOP("Columns", "Messages")),
    str(QT_TRANSLATE_NOOP("Columns", "File")),
    str(QT_TRANSLATE_NOOP("Columns", "Date")),
)
PROBLEMS_COLUMN = COLUMNS.index("Problems")
_NUMBERS = {COLUMNS.index("Calls"): "calls", PROBLEMS_COLUMN: "problems",
            COLUMNS.index("Messages"): "messages"}  # fmt: skip
ROW_ROLE = RowTableModel.RowRole
SORT_ROLE = RowTableModel.SortRole


_SOURCE_WORDS = {
    "import": QT_TRANSLATE_NOOP("SessionSource", "import"),
    "playground": QT_TRANSLATE_NOOP("SessionSource", "playground"),
    "replay": QT_TRANSLATE_NOOP("SessionSource", "replay"),
    "mcp": QT_TRANSLATE_NOOP("SessionSource", "mcp"),
    "proxy": QT_TRANSLATE_NOOP("SessionSource", "proxy"),
    "repair": QT_TRANSLATE_NOOP("SessionSource", "repair"),
    "convert": QT_TRANSLATE_NOOP("SessionSource", "convert"),
    "trim": QT_TRANSLATE_NOOP("SessionSource", "trim"),
}


def source_label(source: str) -> str:
    """Where a session came from, as shown in the UI language (the stored value is English)."""
    word = _SOURCE_WORDS.get(source)
    return QCoreApplication.translate("SessionSource", str(word)) if word else source


def untitled() -> str:
    """The title shown for a session without one."""
    return QCoreApplication.translate("SessionsTableModel", "(untitled)")


def _registry_label(row: SessionRow) -> str:
    if not row.registry:
        return "—"
    return f"{row.registry} {row.version}" if row.version else row.registry


def _warning_icon() -> QIcon:
    """The problem badge (the style's warning icon, so it follows the theme)."""
    return QApplication.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning)


def _date_label(created_at: str) -> str:
    return created_at.replace("T", " ")[:16]


class SessionsTableModel(RowTableModel[SessionRow]):
    """One row per stored session (newest first, as given).

    A session with problems carries a warning badge in its Problems cell; one
    that grew while the list was shown (a live proxy session) has its title in
    bold; one whose counts are being taken again shows "…" beside the last count.
    """

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.live: set[str] = set()
        """Sessions that received messages since the list was first read."""
        self.counting: set[str] = set()
        """Sessions whose counts are older than their messages (recounted in the background)."""

    def mark(self, *, live: set[str] | None = None, counting: set[str] | None = None) -> None:
        """Set the live and counting sessions; repaint the rows whose marks changed."""
        changed: set[str] = set()
        if live is not None:
            changed |= live ^ self.live
            self.live = live
        if counting is not None:
            changed |= counting ^ self.counting
            self.counting = counting
        if not changed:
            return
        for at, row in enumerate(self._rows):
            if row.id in changed:
                self.dataChanged.emit(self.index(at, 0), self.index(at, self.columnCount() - 1))

    columns = tuple(
        zip(
            COLUMNS,
            (
                lambda r: r.title or untitled(),
                lambda r: source_label(r.source),
                _registry_label,
                lambda r: r.model or "—",
                lambda r: str(r.calls),
                lambda r: str(r.problems),  # "…" added by display() while recounting
                lambda r: str(r.messages),
                lambda r: r.file or "—",
                lambda r: _date_label(r.created_at),
            ),
            strict=True,
        )
    )

    def sort_key(self, row: SessionRow, column: int) -> Any:
        if column in _NUMBERS:
            return getattr(row, _NUMBERS[column])
        if column == COLUMNS.index("Date"):
            return row.created_at
        return (self.display(row, column) or "").casefold()

    def display(self, row: SessionRow, column: int) -> Any:
        text = super().display(row, column)
        if column == PROBLEMS_COLUMN and row.id in self.counting:
            return f"{text} …"
        return text

    def tooltip(self, row: SessionRow, column: int) -> Any:
        if column == 0:
            text = f"{row.title or untitled()}\n{row.id} · {row.status}"
            if row.problems:
                text += "\n" + self.tr(
                    "{count} pairing problem(s) and suspicious pattern(s)"
                ).format(count=row.problems)
            if row.id in self.live:
                text += "\n" + self.tr("New messages arrived while the list was open")
            return text
        if column == PROBLEMS_COLUMN:
            text = self.tr("{count} pairing problem(s) and suspicious pattern(s)").format(
                count=row.problems
            )
            if row.id in self.counting:
                text += "\n" + self.tr("Counting again: the session has grown since")
            return text
        return self.display(row, column)

    def decoration(self, row: SessionRow, column: int) -> Any:
        # On the title too: the Problems column is often scrolled out of a narrow list.
        if column in (0, PROBLEMS_COLUMN) and row.problems:
            return _warning_icon()
        return None

    def role_data(self, row: SessionRow, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.FontRole and column == 0 and row.id in self.live:
            font = QFont()
            font.setBold(True)
            return font
        return super().role_data(row, column, role)

    def alignment(self, row: SessionRow, column: int) -> Any:
        if column in _NUMBERS:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    # ------------------------------------------------------------------ rows

    def replace_rows(self, rows: Sequence[SessionRow]) -> bool:
        """Put ``rows`` in place of the rows with their ids (no reset: selection and scroll stay).

        Return:
            False when a row is not in the table (a new session: use :meth:`set_rows`).
        """
        given = {row.id: n for n, row in enumerate(self.given_rows())}
        if any(row.id not in given for row in rows):
            return False
        updated = list(self.given_rows())
        for row in rows:
            updated[given[row.id]] = row
        self._given = tuple(updated)
        shown_at = {n: i for i, n in enumerate(self._shown)}
        for row in rows:
            at = shown_at[given[row.id]]
            self._rows[at] = row
            self.dataChanged.emit(self.index(at, 0), self.index(at, self.columnCount() - 1))
        return True

    def row_of(self, session_id: str) -> int:
        return next((i for i, r in enumerate(self._rows) if r.id == session_id), -1)


class SessionsFilterModel(SourceSortProxy):
    """Sessions filtered by source, registry and a text (title, id, model, registry).

    Sorting is the table model's (one Python sort): a proxy sorting ten thousand
    sessions called back into Python for every comparison (~3 s per refresh).
    """

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._source = ""
        self._registry = ""
        self._text = ""
        self.setSortRole(SORT_ROLE)
        self.setDynamicSortFilter(True)

    def set_source_filter(self, source: str) -> None:
        """Only sessions of ``source`` (``playground``, ``import``, ``replay``; empty: all)."""
        self.beginFilterChange()
        self._source = source
        self.endFilterChange()

    def set_registry_filter(self, registry: str) -> None:
        self.beginFilterChange()
        self._registry = registry
        self.endFilterChange()

    def set_text_filter(self, text: str) -> None:
        self.beginFilterChange()
        self._text = text.strip().casefold()
        self.endFilterChange()

    def filterAcceptsRow(self, source_row: int, source_parent: _Index) -> bool:
        model = self.sourceModel()
        if not isinstance(model, SessionsTableModel):
            return True
        row = model.data(model.index(source_row, 0, source_parent), ROW_ROLE)
        if row is None:
            return False
        if self._source and row.source != self._source:
            return False
        if self._registry and row.registry != self._registry:
            return False
        if self._text:
            haystack = " ".join((row.title, row.id, row.model, row.registry, row.file)).casefold()
            return self._text in haystack
        return True

    def row_at(self, proxy_row: int) -> SessionRow | None:
        return self.index(proxy_row, 0).data(ROW_ROLE) if 0 <= proxy_row < self.rowCount() else None
