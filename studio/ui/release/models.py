"""Thin table models of the release panel: channels, the event log, assignments, comparisons.

Each model holds a list of immutable domain objects (from :mod:`studio.release`)
and maps a column to one formatted field; nothing here decides anything.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt

from studio.release import Assignment, Channel, ChannelEvent, Comparison
from studio.release.guard import ALL_TOOLS

_Index = QModelIndex | QPersistentModelIndex
T = TypeVar("T")
Column = tuple[str, Callable[[Any], Any]]

_RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter


class RowsModel(QAbstractTableModel, Generic[T]):
    """A read-only table of ``rows`` with one ``(header, getter)`` per column.

    Numbers (int/float getter results) are right-aligned; the raw object of a
    row is available under :attr:`RowRole`.
    """

    RowRole = Qt.ItemDataRole.UserRole + 1
    columns: Sequence[Column] = ()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[T] = []

    def set_rows(self, rows: Sequence[T]) -> None:
        """Replace every row (the panel refreshes whole lists, which are short)."""
        self.beginResetModel()
        self._rows = list(rows)
        self.endResetModel()

    def rows(self) -> list[T]:
        return list(self._rows)

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 - Qt signature
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 - Qt signature
        return 0 if parent.isValid() else len(self.columns)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if (
            role == Qt.ItemDataRole.DisplayRole
            and orientation == Qt.Orientation.Horizontal
            and 0 <= section < len(self.columns)
        ):
            return self.columns[section][0]
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        if not 0 <= index.column() < len(self.columns):
            return None
        row = self._rows[index.row()]
        if role == self.RowRole:
            return row
        value = self.columns[index.column()][1](row)
        if role == Qt.ItemDataRole.DisplayRole:
            return _display(value)
        if role == Qt.ItemDataRole.TextAlignmentRole and isinstance(value, int | float):
            return int(_RIGHT.value)
        if role == Qt.ItemDataRole.ToolTipRole and isinstance(value, str) and len(value) > 40:
            return value
        return None

    def flags(self, index: _Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable


def _display(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


def _state(state: dict[str, Any]) -> str:
    version = state.get("version")
    return f"v{version} @ {state.get('share', 0)} %" if version is not None else "unset"


class ChannelTableModel(RowsModel[tuple[Channel, str | None]]):
    """Channels of one registry, each with its version's semver."""

    columns = (
        ("Channel", lambda r: r[0].name),
        ("Version", lambda r: r[0].version),
        ("Semver", lambda r: r[1]),
        ("Share", lambda r: f"{r[0].share} %"),
        ("Salt", lambda r: r[0].salt[:8]),
    )

    def set_channels(self, channels: Sequence[Channel], semvers: dict[int, str]) -> None:
        """Show ``channels``; ``semvers`` labels their versions."""
        self.set_rows([(c, semvers.get(c.version or 0)) for c in channels])

    def channel(self, row: int) -> Channel:
        return self._rows[row][0]


class EventLogModel(RowsModel[ChannelEvent]):
    """The append-only channel log, newest first."""

    columns = (
        ("When", lambda e: e.created_at.replace("T", " ")[:19]),
        ("Who", lambda e: e.who or "—"),
        ("Channel", lambda e: e.channel),
        ("Action", lambda e: e.action),
        ("Before → after", lambda e: f"{_state(e.before)} → {_state(e.after)}"),
        ("Why", lambda e: e.why),
    )


class AssignmentModel(RowsModel[Assignment]):
    """Simulated subjects: bucket and the channel (and version) each lands on."""

    columns = (
        ("Subject", lambda a: a.subject),
        ("Bucket", lambda a: a.bucket),
        ("Channel", lambda a: a.channel),
        ("Version", lambda a: a.version),
    )


def _rate(rate: float) -> str:
    return f"{100 * rate:.1f} %"


def _codes(codes: dict[str, int]) -> str:
    return ", ".join(f"{k} ×{v}" for k, v in sorted(codes.items(), key=lambda kv: -kv[1])) or "—"


class ComparisonModel(RowsModel[Comparison]):
    """Canary against stable per tool; the first row is all tools together."""

    columns = (
        ("Tool", lambda c: "(all tools)" if c.tool == ALL_TOOLS else c.tool),
        ("Calls S/C", lambda c: f"{c.stable.calls} / {c.canary.calls}"),
        ("Success stable", lambda c: _rate(c.stable.success_rate)),
        ("Success canary", lambda c: _rate(c.canary.success_rate)),
        (
            "Validation S/C",
            lambda c: f"{c.stable.validation_failures} / {c.canary.validation_failures}",
        ),
        ("Canary errors", lambda c: _codes(c.canary.error_codes)),
        ("p50 S/C ms", lambda c: f"{c.stable.latency_p50:.0f} / {c.canary.latency_p50:.0f}"),
        ("p95 S/C ms", lambda c: f"{c.stable.latency_p95:.0f} / {c.canary.latency_p95:.0f}"),
        ("z", lambda c: round(c.z, 2)),
        ("p", lambda c: f"{c.p_value:.4f}"),
    )
