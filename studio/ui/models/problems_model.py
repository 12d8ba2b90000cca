"""Table model of a lint report's findings, and the filter/sort proxy of the problems panel."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)

from studio.lint import Finding, LintReport, Severity
from studio.ui.widgets.field_markers import marker_tooltip, severity_icon

Index = QModelIndex | QPersistentModelIndex
_NO_PARENT = QModelIndex()

COLUMNS: tuple[tuple[str, str], ...] = (
    ("severity", "Severity"),
    ("rule", "Rule"),
    ("tool", "Tool"),
    ("path", "Field"),
    ("message", "Message"),
)
COLUMN = {key: i for i, (key, _) in enumerate(COLUMNS)}
REGISTRY_LABEL = "(registry)"

FindingRole = Qt.ItemDataRole.UserRole + 1
"""The :class:`~studio.lint.Finding` of a row."""
SortRole = Qt.ItemDataRole.UserRole + 2
"""A sort key: severity rank for the severity column, the text otherwise."""


class ProblemsModel(QAbstractTableModel):
    """Adapts the active findings of a :class:`LintReport` to a read-only table."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._findings: tuple[Finding, ...] = ()

    def set_report(self, report: LintReport | None) -> None:
        """Show the findings of ``report`` (None: nothing)."""
        findings = report.findings if report is not None else ()
        if findings == self._findings:
            return
        self.beginResetModel()
        self._findings = findings
        self.endResetModel()

    def findings(self) -> tuple[Finding, ...]:
        return self._findings

    def finding(self, row: int) -> Finding:
        return self._findings[row]

    # ------------------------------------------------------------------ Qt interface

    def rowCount(self, parent: Index = _NO_PARENT) -> int:
        return 0 if parent.isValid() else len(self._findings)

    def columnCount(self, parent: Index = _NO_PARENT) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        horizontal = orientation == Qt.Orientation.Horizontal
        if horizontal and role == Qt.ItemDataRole.DisplayRole and 0 <= section < len(COLUMNS):
            return COLUMNS[section][1]
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._findings):
            return None
        f = self._findings[index.row()]
        key = COLUMNS[index.column()][0]
        if role == Qt.ItemDataRole.DisplayRole:
            return _text(f, key)
        if role == FindingRole:
            return f
        if role == SortRole:
            return f.severity.rank if key == "severity" else _text(f, key).casefold()
        if role == Qt.ItemDataRole.DecorationRole and key == "severity":
            return severity_icon(f.severity)
        if role == Qt.ItemDataRole.ToolTipRole:
            return marker_tooltip([f])
        return None


def _text(f: Finding, key: str) -> str:
    if key == "severity":
        return f.severity.value
    if key == "rule":
        return f.rule_id
    if key == "tool":
        return f.tool if f.tool is not None else REGISTRY_LABEL
    if key == "path":
        return f.path
    return f.message


class ProblemsFilterModel(QSortFilterProxyModel):
    """Filters findings by severity and text (any column), sorts by :data:`SortRole`."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._severities: frozenset[Severity] = frozenset(Severity)
        self._text = ""
        self.setSortRole(SortRole)

    def set_severities(self, severities: set[Severity] | frozenset[Severity]) -> None:
        """Show only findings of these severities."""
        self.beginFilterChange()
        self._severities = frozenset(severities)
        self.endFilterChange()

    def severities(self) -> frozenset[Severity]:
        return self._severities

    def set_text(self, text: str) -> None:
        """Show only findings whose rule, tool, field or message contains ``text``."""
        self.beginFilterChange()
        self._text = text.strip().casefold()
        self.endFilterChange()

    def filterAcceptsRow(self, source_row: int, source_parent: Index) -> bool:
        model = self.sourceModel()
        if not isinstance(model, ProblemsModel) or source_row >= model.rowCount():
            return False
        f = model.finding(source_row)
        if f.severity not in self._severities:
            return False
        if not self._text:
            return True
        return any(self._text in _text(f, key).casefold() for key, _ in COLUMNS)

    def finding(self, index: Index) -> Finding | None:
        """The finding at a proxy index."""
        value = index.data(FindingRole) if index.isValid() else None
        return value if isinstance(value, Finding) else None
