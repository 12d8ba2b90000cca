"""Table model of a lint report's findings, and the filter/sort proxy of the problems panel."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QCoreApplication,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
)

from studio.lint import Finding, Severity
from studio.ui.i18n import lint_message
from studio.ui.models.table_base import RowTableModel, SourceSortProxy
from studio.ui.widgets.field_markers import marker_tooltip, severity_icon, severity_word

if TYPE_CHECKING:  # the engine is imported by the first lint, after the first paint (#16)
    from studio.lint import LintReport

Index = QModelIndex | QPersistentModelIndex

COLUMNS: tuple[tuple[str, str], ...] = (
    ("severity", str(QT_TRANSLATE_NOOP("Columns", "Severity"))),
    ("rule", str(QT_TRANSLATE_NOOP("Columns", "Rule"))),
    ("tool", str(QT_TRANSLATE_NOOP("Columns", "Tool"))),
    ("path", str(QT_TRANSLATE_NOOP("Columns", "Field"))),
    ("message", str(QT_TRANSLATE_NOOP("Columns", "Message"))),
)
COLUMN = {key: i for i, (key, _) in enumerate(COLUMNS)}
REGISTRY_LABEL = str(QT_TRANSLATE_NOOP("Columns", "(registry)"))

FindingRole = RowTableModel.RowRole
"""The :class:`~studio.lint.Finding` of a row."""
SortRole = RowTableModel.SortRole
"""A sort key: severity rank for the severity column, the text otherwise."""


def _text(f: Finding, key: str) -> str:
    if key == "severity":
        return severity_word(f.severity)
    if key == "rule":
        return f.rule_id
    if key == "tool":
        return (
            f.tool if f.tool is not None else QCoreApplication.translate("Columns", REGISTRY_LABEL)
        )
    if key == "path":
        return f.path
    return lint_message(f.message, f.rule_id)


class ProblemsModel(RowTableModel[Finding]):
    """Adapts the active findings of a :class:`LintReport` to a read-only table.

    Sorted by the model itself (:meth:`RowTableModel.sort`): a 10,000-tool
    registry has ~66,000 findings.
    """

    columns = tuple((title, partial(_text, key=key)) for key, title in COLUMNS)

    def set_report(self, report: LintReport | None) -> None:
        """Show the findings of ``report`` (None: nothing), in the current sort order."""
        findings = report.findings if report is not None else ()
        if findings == self.given_rows():
            return
        self.set_rows(findings)

    def findings(self) -> tuple[Finding, ...]:
        return tuple(self._rows)

    def finding(self, row: int) -> Finding:
        return self._rows[row]

    # ------------------------------------------------------------------ hooks

    def sort_key(self, row: Finding, column: int) -> Any:
        key = COLUMNS[column][0]
        return row.severity.rank if key == "severity" else _text(row, key).casefold()

    def decoration(self, row: Finding, column: int) -> Any:
        return severity_icon(row.severity) if COLUMNS[column][0] == "severity" else None

    def tooltip(self, row: Finding, column: int) -> str:
        return marker_tooltip([row])


class ProblemsFilterModel(SourceSortProxy):
    """Filters findings by severity and text (any column); sorting is the source's."""

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
        if any(self._text in _text(f, key).casefold() for key, _ in COLUMNS):
            return True
        # A pair finding (two confusable tools) is one row shown for either tool.
        from studio.lint.engine import finding_tools  # loaded by the lint that made ``f``

        return any(self._text in tool.casefold() for tool in finding_tools(f)[1:])

    def finding(self, index: Index) -> Finding | None:
        """The finding at a proxy index."""
        value = index.data(FindingRole) if index.isValid() else None
        return value if isinstance(value, Finding) else None
