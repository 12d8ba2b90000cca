"""The problems panel: the lint findings of the shown draft, filterable and sortable.

The panel only shows findings and reports what the user asks for through
signals; the window's lint operations do the work (jump, fix, suppress…).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QModelIndex, QPoint, Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from studio.lint import PROFILES, Finding, Severity
from studio.ui.models.problems_model import COLUMN, ProblemsFilterModel, ProblemsModel
from studio.ui.widgets.field_markers import severity_icon, severity_label
from studio.ui.widgets.read_only_table import read_only_table

if TYPE_CHECKING:  # the engine is imported by the first lint, after the first paint (#16)
    from studio.lint import LintReport


_COUNT_TEXTS = (
    (
        Severity.ERROR,
        QT_TRANSLATE_NOOP("ProblemsPanel", "{n} error"),
        QT_TRANSLATE_NOOP("ProblemsPanel", "{n} errors"),
    ),
    (
        Severity.WARNING,
        QT_TRANSLATE_NOOP("ProblemsPanel", "{n} warning"),
        QT_TRANSLATE_NOOP("ProblemsPanel", "{n} warnings"),
    ),
    (
        Severity.INFO,
        QT_TRANSLATE_NOOP("ProblemsPanel", "{n} info"),
        QT_TRANSLATE_NOOP("ProblemsPanel", "{n} info"),
    ),
)
"""Per severity, in the order shown: the count's text for one and for several."""


def counts_text(report: LintReport | None) -> str:
    """``"2 errors, 5 warnings, 1 info"`` (``"no problems"`` when clean)."""
    if report is None:
        return ""
    parts = []
    for severity, one, several in _COUNT_TEXTS:
        n = report.counts.get(severity, 0)
        if n:
            text = str(one if n == 1 else several)
            parts.append(QCoreApplication.translate("ProblemsPanel", text).format(n=n))
    return ", ".join(parts) if parts else QCoreApplication.translate("ProblemsPanel", "no problems")


class ProblemsPanel(QWidget):
    """Severity toggles, a text filter, the profile and the findings table.

    Signals:
        findingActivated(Finding): double-click or Enter on a row.
        fixRequested(Finding), suppressRequested(Finding),
        disableRuleRequested(Finding), rationaleRequested(Finding): context menu.
        profileChosen(str): a profile was picked in the combo.
    """

    findingActivated = Signal(object)
    fixRequested = Signal(object)
    suppressRequested = Signal(object)
    disableRuleRequested = Signal(object)
    rationaleRequested = Signal(object)
    profileChosen = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = ProblemsModel(self)
        self.proxy = ProblemsFilterModel(self)
        self.proxy.setSourceModel(self.model)
        self.severity_buttons: dict[Severity, QToolButton] = {}
        bar = QHBoxLayout()
        bar.setContentsMargins(0, 0, 0, 0)
        for sev in Severity:
            button = QToolButton(self)
            button.setCheckable(True)
            button.setChecked(True)
            button.setIcon(severity_icon(sev))
            button.setText(severity_label(sev))
            button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
            button.setToolTip(
                self.tr("Show {severity}").format(severity=severity_label(sev).lower())
            )
            button.toggled.connect(self._severity_toggled)
            self.severity_buttons[sev] = button
            bar.addWidget(button)
        self.filter_edit = QLineEdit(self)
        self.filter_edit.setPlaceholderText(self.tr("Filter problems"))
        self.filter_edit.setClearButtonEnabled(True)
        self.filter_edit.textChanged.connect(self.proxy.set_text)
        bar.addWidget(self.filter_edit, 1)
        self.profile_label = QLabel(self.tr("&Profile"), self)
        self.profile_combo = QComboBox(self)
        self.profile_combo.addItems(list(PROFILES))
        self.profile_combo.setToolTip(self.tr("The provider the tools are linted for"))
        self.profile_label.setBuddy(self.profile_combo)
        self.profile_combo.activated.connect(
            lambda _i: self.profileChosen.emit(self.profile_combo.currentText())
        )
        bar.addWidget(self.profile_label)
        bar.addWidget(self.profile_combo)
        self.state_label = QLabel(self)
        self.state_label.setEnabled(False)
        bar.addWidget(self.state_label)

        # ``activated`` covers double-click and Enter/Return.
        widths = {"severity": 90, "rule": 200, "tool": 140, "path": 200}
        self.view = read_only_table(
            self, self.proxy, COLUMN["severity"], {COLUMN[k]: w for k, w in widths.items()}
        )
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.view.customContextMenuRequested.connect(self._context_menu)
        self.view.activated.connect(self._activated)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(bar)
        layout.addWidget(self.view, 1)

    # ------------------------------------------------------------------ state

    def set_report(self, report: LintReport | None) -> None:
        """Show ``report``'s findings, keeping the selected finding when it remains."""
        selected = self.current_finding()
        self.model.set_report(report)
        for sev, button in self.severity_buttons.items():
            n = report.counts.get(sev, 0) if report else 0
            button.setText(self.tr("{severity} ({n})").format(severity=severity_label(sev), n=n))
        if selected is not None:
            self.select_finding(selected)

    def set_profile(self, profile: str) -> None:
        self.profile_combo.setCurrentText(profile)

    def set_state(self, text: str) -> None:
        """A short note next to the profile (``linting…``)."""
        self.state_label.setText(text)

    def set_severity_filter(self, severities: set[Severity]) -> None:
        for sev, button in self.severity_buttons.items():
            button.setChecked(sev in severities)

    def current_finding(self) -> Finding | None:
        return self.proxy.finding(self.view.currentIndex())

    def select_finding(self, finding: Finding) -> bool:
        for row in range(self.proxy.rowCount()):
            index = self.proxy.index(row, 0)
            if self.proxy.finding(index) == finding:
                self.select_row(row)
                return True
        return False

    def select_row(self, row: int) -> None:
        index = self.proxy.index(row, 0)
        self.view.setCurrentIndex(index)
        self.view.scrollTo(index)

    def step(self, delta: int) -> Finding | None:
        """Select the next (+1) or previous (-1) finding, wrapping; return it."""
        count = self.proxy.rowCount()
        if count == 0:
            return None
        current = self.view.currentIndex()
        if current.isValid():
            row = (current.row() + delta) % count
        else:
            row = 0 if delta > 0 else count - 1
        self.select_row(row)
        return self.current_finding()

    # ------------------------------------------------------------------ internals

    def _severity_toggled(self, _on: bool) -> None:
        self.proxy.set_severities({s for s, b in self.severity_buttons.items() if b.isChecked()})

    def _activated(self, index: QModelIndex) -> None:
        finding = self.proxy.finding(index)
        if finding is not None:
            self.findingActivated.emit(finding)

    def context_menu_for(self, finding: Finding) -> QMenu:
        """The context menu of a row (built for each request; tests trigger its actions)."""
        menu = QMenu(self)
        go = menu.addAction(self.tr("&Go to field"))
        go.triggered.connect(lambda: self.findingActivated.emit(finding))
        fix = menu.addAction(
            self.tr("Apply quick fix: {label}").format(label=finding.fix.label)
            if finding.fix
            else self.tr("No fix")
        )
        fix.setEnabled(finding.fix is not None and finding.tool is not None)
        fix.triggered.connect(lambda: self.fixRequested.emit(finding))
        menu.addSeparator()
        suppress = menu.addAction(self.tr("&Suppress with reason…"))
        suppress.triggered.connect(lambda: self.suppressRequested.emit(finding))
        disable = menu.addAction(
            self.tr("&Disable {rule_id} for this registry").format(rule_id=finding.rule_id)
        )
        disable.triggered.connect(lambda: self.disableRuleRequested.emit(finding))
        menu.addSeparator()
        why = menu.addAction(self.tr("Show &rationale"))
        why.triggered.connect(lambda: self.rationaleRequested.emit(finding))
        return menu

    def _context_menu(self, pos: QPoint) -> None:
        finding = self.proxy.finding(self.view.indexAt(pos))
        if finding is None:
            return
        menu = self.context_menu_for(finding)
        menu.exec(self.view.viewport().mapToGlobal(pos))
        menu.deleteLater()
