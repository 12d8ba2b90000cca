"""The report of one stored run: headline A vs B, the table, the heat map, flips, bars, a case.

Everything shown comes from :func:`studio.evals.compare.build_report` — the
same :class:`~studio.evals.compare.Report` the CLI renders — so the GUI and
``studio eval report`` never disagree; exports call :func:`studio.evals.report.render`.
Tabs keep each part readable in a 900×600 window.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QEvent, QModelIndex, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTableView,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from studio.evals.compare import CompareError, Report, build_report, split_variants
from studio.evals.metrics import Metrics
from studio.evals.model import EvalCase
from studio.evals.report import comparison_details, comparison_sentence, headline_rows, pct
from studio.evals.results import ASKED, NO_TOOL, Attempt, AttemptCall
from studio.sessions.model import Message, Part, Role, TextPart, ToolCallPart, ToolResultPart
from studio.ui.evals.bars import BarDelegate, MutedRole, RateRole
from studio.ui.evals.flips_model import CaseRole as FlipsCaseRole
from studio.ui.evals.flips_model import FlipsModel
from studio.ui.evals.heat_map import HeatMapView
from studio.ui.playground.conversation import ConversationView

#: Export formats offered: (format for :func:`studio.evals.report.render`, file suffix).
EXPORTS = (("md", ".md"), ("html", ".html"), ("json", ".json"))
_CaseRole = Qt.ItemDataRole.UserRole + 21
#: The result shown under each call of an eval answer (the eval does not execute tools).
NOT_EXECUTED = "(not executed: the eval scores the call, it does not run the tool)"


def report_of(attempts: Sequence[Attempt], title: str, roles: dict[str, str]) -> Report:
    """A vs B when the run has two variants (A first as configured), else one variant's metrics."""
    a_label, b_label = roles.get("A"), roles.get("B")
    try:
        if a_label and b_label:
            a, b, a_label, b_label = split_variants(attempts, a_label, b_label)
        else:
            a, b, a_label, b_label = split_variants(attempts)
    except CompareError:
        return build_report(list(attempts), title=title)
    return build_report(a, b, title=title, a_label=a_label, b_label=b_label)


def attempt_messages(case: EvalCase | None, attempt: Attempt) -> list[Message]:
    """The request (system, earlier turns, user turn) and the model's answer as session messages."""
    from studio.evals.requests import case_messages

    out: list[Message] = []
    if case is not None:
        if case.system:
            out.append(Message(Role.SYSTEM, (TextPart(case.system),)))
        out.extend(case_messages(case))
    parts: list[Part] = []
    if attempt.text:
        parts.append(TextPart(attempt.text))
    for i, call in enumerate(attempt.raw_calls):
        args = (
            call.arguments
            if isinstance(call.arguments, (dict, str))
            else json.dumps(call.arguments, ensure_ascii=False)
        )
        parts.append(ToolCallPart(call.call_id or f"call_{i}", call.tool, args))
    if parts:
        out.append(Message(Role.ASSISTANT, tuple(parts)))
    # Evals score the calls and do not run them: say so where a result would be,
    # instead of leaving the calls unanswered (which the pairing check flags).
    results: list[Part] = [
        ToolResultPart(call.call_id or f"call_{i}", NOT_EXECUTED, name=call.tool)
        for i, call in enumerate(attempt.raw_calls)
    ]
    if results:
        out.append(Message(Role.TOOL, tuple(results)))
    return out


def _calls_text(calls: Sequence[AttemptCall]) -> str:
    lines = []
    for call in calls:
        flags = [w for w, on in (("repaired", call.repaired), ("invalid", call.invalid)) if on]
        args = json.dumps(call.arguments, ensure_ascii=False)
        lines.append(f"  {call.tool}({args})" + (f"  [{', '.join(flags)}]" if flags else ""))
        lines += [f"    · {note}" for note in call.notes]
    return "\n".join(lines) or "  —"


class ReportView(QWidget):
    """Shows a :class:`Report`; :meth:`show_run` builds one from stored attempts.

    Signals:
        exportRequested(str): ``md``, ``html`` or ``json`` (the page asks where to save).
    """

    exportRequested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.report: Report | None = None
        self.cases: dict[str, EvalCase] = {}
        self.headline = QLabel(self.tr("Choose a run to see its report."))
        self.headline.setWordWrap(True)
        self.headline.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.export_buttons: dict[str, QPushButton] = {}
        top = QHBoxLayout()
        top.addWidget(self.headline, 1)
        for fmt, label in (("md", self.tr("Markdown…")), ("html", self.tr("HTML…")),
                           ("json", self.tr("JSON…"))):  # fmt: skip
            button = QPushButton(label)
            button.setToolTip(self.tr("Export the report"))
            button.setEnabled(False)
            button.clicked.connect(lambda _c=False, f=fmt: self.exportRequested.emit(f))
            self.export_buttons[fmt] = button
            top.addWidget(button, 0, Qt.AlignmentFlag.AlignTop)

        # Summary: the table, the details of the comparison, per-tool bars.
        self.table = _table()
        self.table.setAccessibleName(self.tr("Selection and arguments per variant"))
        self.details = QLabel()
        self.details.setWordWrap(True)
        self.tools = _table()
        self.tools.setAccessibleName(self.tr("Per-tool pass rates"))
        self.tools.setItemDelegate(BarDelegate(self.tools))
        summary = QWidget()
        s = QVBoxLayout(summary)
        s.setContentsMargins(4, 4, 4, 4)
        s.addWidget(self.table)
        s.addWidget(self.details)
        s.addWidget(self.tools, 1)

        # Confusion: group chooser, heat map | the cases behind the clicked cell.
        self.group_combo = QComboBox()
        self.group_combo.setAccessibleName(self.tr("Variant and profile"))
        self.group_combo.currentIndexChanged.connect(self._show_group)
        self.heat_map = HeatMapView()
        self.heat_map.cellChosen.connect(self.show_cell)
        self.cell_label = QLabel(self.tr("Click a cell to list its cases."))
        self.cell_label.setWordWrap(True)
        self.cell_cases = QListWidget()
        self.cell_cases.setAccessibleName(self.tr("Cases of the chosen cell"))
        self.cell_cases.itemActivated.connect(self._open_item)
        self.cell_cases.itemClicked.connect(self._open_item)
        right = QWidget()
        r = QVBoxLayout(right)
        r.setContentsMargins(0, 0, 0, 0)
        r.addWidget(self.cell_label)
        r.addWidget(self.cell_cases, 1)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.setChildrenCollapsible(False)
        split.addWidget(self.heat_map)
        split.addWidget(right)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 1)
        split.setSizes([560, 240])
        confusion = QWidget()
        c = QVBoxLayout(confusion)
        c.setContentsMargins(4, 4, 4, 4)
        c.addWidget(self.group_combo)
        c.addWidget(split, 1)

        # Flips first (fixed / broken), then the unchanged pairs.
        self.flips_model = FlipsModel(self)
        self.flips = QTableView()
        self.flips.setModel(self.flips_model)
        self.flips.setAccessibleName(self.tr("Flips"))
        self.flips.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.flips.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.flips.verticalHeader().hide()
        self.flips.horizontalHeader().setStretchLastSection(True)
        self.flips.setWordWrap(False)
        self.flips.activated.connect(self._open_index)
        self.flips.doubleClicked.connect(self._open_index)

        # One case: the request and the answer in the playground's conversation widget.
        self.case_combo = QComboBox()
        self.case_combo.setAccessibleName(self.tr("Attempt"))
        self.case_combo.currentIndexChanged.connect(self._show_attempt)
        self.conversation = ConversationView()
        self.case_details = QPlainTextEdit()
        self.case_details.setReadOnly(True)
        self.case_details.setAccessibleName(self.tr("Scores and calls"))
        case_split = QSplitter(Qt.Orientation.Horizontal)
        case_split.setChildrenCollapsible(False)
        case_split.addWidget(self.conversation)
        case_split.addWidget(self.case_details)
        case_split.setStretchFactor(0, 3)
        case_split.setStretchFactor(1, 2)
        case_page = QWidget()
        cp = QVBoxLayout(case_page)
        cp.setContentsMargins(4, 4, 4, 4)
        cp.addWidget(self.case_combo)
        cp.addWidget(case_split, 1)

        self.tabs = QTabWidget()
        self.tabs.addTab(summary, self.tr("Summary"))
        self.tabs.addTab(confusion, self.tr("Confusion"))
        self.tabs.addTab(self.flips, self.tr("Flips"))
        self.tabs.addTab(case_page, self.tr("Case"))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.tabs, 1)
        self._attempts_shown: list[Attempt] = []

    # ------------------------------------------------------------------ showing

    def show_report(self, report: Report | None, cases: Sequence[EvalCase] = ()) -> None:
        """Show ``report`` (None clears); ``cases`` lets a case open with its request."""
        self.report = report
        self.cases = {c.id: c for c in cases}
        for button in self.export_buttons.values():
            button.setEnabled(report is not None)
        if report is None:
            self.headline.setText(self.tr("Choose a run to see its report."))
            self.flips_model.set_pairs([])
            for table in (self.table, self.tools):
                table.clear()
                table.setRowCount(0)
                table.setColumnCount(0)
            self.group_combo.clear()
            self.cell_cases.clear()
            self.case_combo.clear()
            self.details.setText("")
            return
        c = report.comparison
        title = report.title
        if c is not None:
            self.headline.setText(f"<b>{_esc(title)}</b><br>{_esc(comparison_sentence(c))}")
            self.details.setText("\n".join(comparison_details(c)))
        else:
            self.headline.setText(
                f"<b>{_esc(title)}</b><br>"
                + _esc(self.tr("One variant: run A vs B to get a verdict."))
            )
            self.details.setText("")
        rows = headline_rows(report)
        header = [self.tr("Variant · profile"), self.tr("Cases"), self.tr("Selection"),
                  self.tr("Arguments raw"), self.tr("Arguments after pipeline"),
                  self.tr("End-to-end")]  # fmt: skip
        _fill(self.table, header, rows[1:])
        _fit_rows(self.table)
        self.table.horizontalHeader().setStretchLastSection(False)
        self.table.resizeColumnToContents(0)
        self._fill_tools(report)
        self._fill_flips(report)
        self.group_combo.blockSignals(True)
        self.group_combo.clear()
        for key in report.groups:
            self.group_combo.addItem(f"{key[0]} · {key[1]}", key)
        self.group_combo.blockSignals(False)
        # The candidate's confusion is the interesting one: B's first group when compared.
        self.group_combo.setCurrentIndex(len(report.groups) - 1 if c is not None else 0)
        self._show_group()
        self.case_combo.clear()

    def _fill_tools(self, report: Report) -> None:
        c = report.comparison
        if c is not None:
            header = [self.tr("Tool"), self.tr("Cases"), "A", "B", self.tr("Δ"),
                      self.tr("Fixed"), self.tr("Broken")]  # fmt: skip
            rows = [[t.tool, str(t.cases), pct(t.a_accuracy), pct(t.b_accuracy),
                     f"{t.delta * 100:+.1f}", str(t.fixed), str(t.broken)]
                    for t in sorted(c.tools, key=lambda t: t.delta)]  # fmt: skip
            rates: list[tuple[float | None, float | None]] = [
                (t.a_accuracy, t.b_accuracy) for t in sorted(c.tools, key=lambda t: t.delta)
            ]
        elif report.groups:
            m: Metrics = next(iter(report.groups.values()))
            header = [self.tr("Tool"), self.tr("Support"), self.tr("Precision"),
                      self.tr("Recall"), self.tr("F1")]  # fmt: skip
            rows = [[t.tool, str(t.support), pct(t.precision), pct(t.recall), pct(t.f1)]
                    for t in m.tools]  # fmt: skip
            rates = [(t.recall, t.f1) for t in m.tools]
        else:  # a run with nothing stored yet
            header, rows, rates = [self.tr("Tool")], [], []
        _fill(self.tools, header, rows)
        self.tools.horizontalHeader().setStretchLastSection(False)
        if c is not None:
            for column, label in ((2, c.a_label), (3, c.b_label)):
                head = self.tools.horizontalHeaderItem(column)
                if head is not None:
                    head.setToolTip(label)
        for row, (first, second) in enumerate(rates):
            for column, rate, muted in ((2, first, True), (3, second, False)):
                if c is None:
                    column = 3 if muted else 4
                item = self.tools.item(row, column)
                if item is not None and rate is not None:
                    item.setData(RateRole, float(rate))
                    item.setData(MutedRole, muted)
        for column in (2, 3) if c is not None else (3, 4):
            self.tools.setColumnWidth(column, 150)

    def _fill_flips(self, report: Report) -> None:
        c = report.comparison
        pairs = list(c.pairs) if c is not None else []
        self.flips_model.set_pairs(pairs)
        # One profile: its column says nothing.
        self.flips.setColumnHidden(2, len({p.profile for p in pairs}) <= 1)
        if self.flips_model.rowCount() <= 500:  # measuring every row of a big run is slow
            self.flips.resizeColumnsToContents()
        for column, cap in ((1, 260), (3, 200), (4, 180), (5, 180)):
            self.flips.setColumnWidth(column, min(max(self.flips.columnWidth(column), 90), cap))

    def _group_attempts(self) -> list[Attempt]:
        if self.report is None:
            return []
        key = self.group_combo.currentData()
        return [a for a in self.report.attempts if (a.variant, a.profile) == key]

    def _show_group(self, *_args: object) -> None:
        if self.report is None:
            return
        key = self.group_combo.currentData()
        metrics = self.report.groups.get(key) if key is not None else None
        if metrics is not None:
            self.heat_map.set_confusion(metrics.confusion)
        self.cell_cases.clear()
        self.cell_label.setText(self.tr("Click a cell to list its cases."))

    def show_cell(self, expected: str, chosen: str) -> list[str]:
        """List the cases of the chosen group where ``expected`` was wanted and ``chosen`` done."""
        matching = [a for a in self._group_attempts()
                    if a.scored and a.expected == expected and a.chosen == chosen]  # fmt: skip
        self.cell_label.setText(
            self.tr("Expected {expected}, chose {chosen}: {count} attempt(s)").format(
                expected=expected, chosen=chosen, count=len(matching)
            )
        )
        self.cell_cases.clear()
        for a in matching:
            case = self.cases.get(a.case_id)
            user = " ".join(case.user.split())[:80] if case is not None else ""
            item = QListWidgetItem(f"{a.case_id}  #{a.repetition + 1}  {user}")
            item.setData(_CaseRole, a.case_id)
            self.cell_cases.addItem(item)
        return [a.case_id for a in matching]

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange and self.report is not None:
            self.flips.viewport().update()  # the fixed/broken colours of the new theme
        super().changeEvent(event)

    # ------------------------------------------------------------------ one case

    def _open_index(self, index: QModelIndex) -> None:
        case_id = index.data(FlipsCaseRole)
        if case_id:
            self.open_case(str(case_id))

    def _open_item(self, item: QListWidgetItem | QTableWidgetItem) -> None:
        case_id = item.data(_CaseRole)
        if case_id:
            self.open_case(str(case_id))

    def open_case(self, case_id: str) -> int:
        """Show every attempt of ``case_id`` (B's first) in the Case tab; returns how many."""
        if self.report is None:
            return 0
        attempts = [a for a in self.report.attempts if a.case_id == case_id]
        attempts.sort(key=lambda a: (a.variant != self._candidate(), a.profile, a.repetition))
        self._attempts_shown = attempts
        self.case_combo.blockSignals(True)
        self.case_combo.clear()
        for a in attempts:
            self.case_combo.addItem(
                f"{a.case_id} · {a.variant} · {a.profile} · #{a.repetition + 1}"
            )
        self.case_combo.blockSignals(False)
        self.case_combo.setCurrentIndex(0)
        self._show_attempt()
        self.tabs.setCurrentIndex(3)
        return len(attempts)

    def _candidate(self) -> str:
        c = self.report.comparison if self.report is not None else None
        return c.b_label if c is not None else ""

    def _show_attempt(self, *_args: object) -> None:
        row = self.case_combo.currentIndex()
        if not 0 <= row < len(self._attempts_shown):
            self.conversation.conversation.set_messages([])
            self.case_details.setPlainText("")
            return
        attempt = self._attempts_shown[row]
        case = self.cases.get(attempt.case_id)
        self.conversation.conversation.set_messages(attempt_messages(case, attempt))
        self.case_details.setPlainText(self.attempt_text(attempt))

    def attempt_text(self, a: Attempt) -> str:
        """Scores, calls raw and after the pipeline, tokens, latency: what the Case tab shows."""

        def verdict(score: object) -> str:
            if score is None:
                return "—"
            failures = "; ".join(score.failures)  # type: ignore[attr-defined]
            word = self.tr("passed") if score.passed else self.tr("failed")  # type: ignore[attr-defined]
            return word + (f" ({failures})" if failures else "")

        lines = [
            self.tr("Status: {status}").format(status=a.status)
            + (f" — {a.error}" if a.error else ""),
            self.tr("Expected: {expected} · chose: {chosen}").format(
                expected=a.expected, chosen=a.chosen
            ),
            self.tr("Raw: {verdict}").format(verdict=verdict(a.raw)),
            self.tr("After the pipeline: {verdict}").format(verdict=verdict(a.pipeline)),
            self.tr("Calls as sent:"),
            _calls_text(a.raw_calls),
            self.tr("Calls after the pipeline:"),
            _calls_text(a.pipeline_calls),
            self.tr("Tokens in {tin} · out {tout} · {ms:.0f} ms{cached}").format(
                tin=a.tokens_in, tout=a.tokens_out, ms=a.latency_ms,
                cached=self.tr(" · cached") if a.cached else "",
            ),
        ]  # fmt: skip
        if a.expected in (NO_TOOL, ASKED) or a.text:
            lines.append(self.tr("Answer text: {text}").format(text=a.text or "—"))
        return "\n".join(lines)

    def export(self, fmt: str, path: Path) -> Path:
        """Write the report as ``fmt`` (md, html, json) to ``path`` (UTF-8)."""
        from studio.evals.report import render

        if self.report is None:
            raise ValueError(self.tr("No report to export"))
        path.write_text(render(self.report, fmt), encoding="utf-8")
        return path


def _esc(text: str) -> str:
    import html

    return html.escape(text)


def _table() -> QTableWidget:
    table = QTableWidget()
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.verticalHeader().hide()
    table.horizontalHeader().setStretchLastSection(True)
    table.setWordWrap(False)
    return table


def _fit_rows(table: QTableWidget) -> None:
    """As tall as its rows (no empty band under a two-row table)."""
    height = table.horizontalHeader().height() + 2 * table.frameWidth() + 2
    height += sum(table.rowHeight(r) for r in range(table.rowCount()))
    scroll = table.horizontalScrollBar().sizeHint().height()
    table.setFixedHeight(min(height + scroll, 220))


def _fill(table: QTableWidget, header: list[str], rows: Sequence[Sequence[str]]) -> None:
    table.clear()
    table.setColumnCount(len(header))
    table.setHorizontalHeaderLabels(header)
    table.setRowCount(len(rows))
    for r, row in enumerate(rows):
        for column, text in enumerate(row):
            item = QTableWidgetItem(text)
            if len(text) > 20:  # the long ones may be cut
                item.setToolTip(text)
            table.setItem(r, column, item)
    table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    table.resizeColumnsToContents()
    for column in range(table.columnCount()):
        table.setColumnWidth(column, min(table.columnWidth(column), 260))
