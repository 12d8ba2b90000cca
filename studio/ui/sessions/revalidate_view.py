"""Re-validating a stored session against a registry version (draft or N), off the GUI thread.

The registry is read on the GUI thread (one short query); every recorded call
then goes through the runtime's argument pipeline in a pool worker
(:func:`studio.sessions.revalidate.revalidate`), and the table and its counts
appear when it reports. A newer request supersedes an older one's result.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from registry_db import RegistryStore, StoreError
from studio.contract import Registry
from studio.runtime.context import SessionContext
from studio.sessions.model import Message
from studio.sessions.revalidate import (
    FAILS,
    MAPPED,
    PASSES,
    STATUSES,
    TOOL_GONE,
    RevalidationReport,
    RevalidationRow,
    revalidate,
)
from studio.ui.models.table_base import RowTableModel
from studio.ui.sessions.worker import Job, JobRunner
from studio.ui.widgets.json_highlighter import is_dark

COLUMNS = (
    str(QT_TRANSLATE_NOOP("Columns", "Position")),
    str(QT_TRANSLATE_NOOP("Columns", "Call id")),
    str(QT_TRANSLATE_NOOP("Columns", "Tool")),
    str(QT_TRANSLATE_NOOP("Columns", "Status")),
    str(QT_TRANSLATE_NOOP("Columns", "Reason")),
    str(QT_TRANSLATE_NOOP("Columns", "Changes")),
)
STATUS_COLUMN = COLUMNS.index("Status")
ROW_ROLE = RowTableModel.RowRole
STATUS_COLOURS = {  # (light, dark)
    PASSES: ("#1e7a34", "#7fd08f"),
    MAPPED: ("#8a5a00", "#f0c060"),
    FAILS: ("#b3261e", "#ff8a80"),
    TOOL_GONE: ("#6b3fa0", "#c7a6f0"),
}


_STATUS_WORDS = {
    PASSES: QT_TRANSLATE_NOOP("RevalidationStatus", "passes"),
    MAPPED: QT_TRANSLATE_NOOP("RevalidationStatus", "mapped-differently"),
    FAILS: QT_TRANSLATE_NOOP("RevalidationStatus", "fails"),
    TOOL_GONE: QT_TRANSLATE_NOOP("RevalidationStatus", "tool-gone"),
}


def status_word(status: str) -> str:
    """A re-validation status in the UI language (the stored value stays English)."""
    word = _STATUS_WORDS.get(status)
    return QCoreApplication.translate("RevalidationStatus", str(word)) if word else status


def _changes_text(changes: Sequence[Mapping[str, Any]]) -> str:
    parts = []
    for change in changes:
        what = change.get("reason") or change.get("step") or change.get("kind") or ""
        field = change.get("field") or change.get("path") or ""
        parts.append(f"{field}: {what}" if field else str(what or json.dumps(change)))
    return "; ".join(parts)


class RevalidationTableModel(RowTableModel[RevalidationRow]):
    """Every recorded call of the session with its status against the chosen version."""

    columns = tuple(
        zip(
            COLUMNS,
            (
                lambda r: str(r.position),
                lambda r: r.call_id,
                lambda r: r.tool,
                lambda r: status_word(r.status),
                lambda r: r.reason,
                lambda r: _changes_text(r.changes),
            ),
            strict=True,
        )
    )

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.dark = False

    def tooltip(self, row: RevalidationRow, column: int) -> str:
        lines = [
            f"{row.tool} · {status_word(row.status)}"
            + (f" ({row.error_code})" if row.error_code else "")
        ]
        if row.reason:
            lines.append(row.reason)
        lines.append(self.tr("recorded: ") + json.dumps(row.recorded, ensure_ascii=False)[:400])
        if row.prepared:
            lines.append(
                self.tr("prepared now: ") + json.dumps(row.prepared, ensure_ascii=False)[:400]
            )
        lines += [self.tr("note: {note}").format(note=n) for n in row.notes]
        return "\n".join(lines)

    def foreground(self, row: RevalidationRow, column: int) -> QColor | None:
        if column != STATUS_COLUMN:
            return None
        light, dark = STATUS_COLOURS.get(row.status, ("", ""))
        return QColor(dark if self.dark else light) if light else None


def counts_html(report: RevalidationReport, dark: bool) -> str:
    """The counts per status, coloured like the table's status column."""
    counts = report.counts
    parts = []
    for status in STATUSES:
        colour = STATUS_COLOURS[status][1 if dark else 0]
        parts.append(
            f"<span style='color:{colour}'><b>{counts[status]}</b> {status_word(status)}</span>"
        )
    total = len(report.rows)
    calls = (
        QCoreApplication.translate("RevalidateView", "1 recorded call")
        if total == 1
        else QCoreApplication.translate("RevalidateView", "{total} recorded calls").format(
            total=total
        )
    )
    head = QCoreApplication.translate(
        "RevalidateView", "{calls} against {registry} {version}: "
    ).format(calls=calls, registry=report.registry, version=report.version)
    return head + " · ".join(parts)


class RevalidateView(QWidget):
    """Pick a registry and a version, re-validate, read the table.

    Signals:
        reportReady: The :class:`RevalidationReport` of the latest request.
    """

    reportReady = Signal(object)

    def __init__(
        self, store: RegistryStore, runner: JobRunner | None = None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.store = store
        self.runner = runner or JobRunner(parent=self)
        self.messages: list[Message] = []
        self.context: SessionContext | None = None
        self.recorded_prepared: dict[str, Any] = {}
        self.report: RevalidationReport | None = None
        self._generation = 0

        self.registry_combo = QComboBox()
        self.registry_combo.setToolTip(self.tr("The registry to re-validate against"))
        self.registry_combo.setMinimumContentsLength(12)
        self.registry_combo.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.version_combo = QComboBox()
        self.version_combo.setToolTip(self.tr("The draft or a published version"))
        self.version_combo.setMinimumContentsLength(8)
        self.run_button = QPushButton(self.tr("Re-validate"))
        self.summary = QLabel(self.tr("Pick a registry and a version, then Re-validate."))
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        self.table_model = RevalidationTableModel(self)
        self.table = QTableView()
        self.table.setModel(self.table_model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setWordWrap(False)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        self.table.setAccessibleName(self.tr("Re-validation"))
        header = self.table.horizontalHeader()
        for column in range(STATUS_COLUMN + 1):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(COLUMNS.index("Reason"), QHeaderView.ResizeMode.Interactive)
        header.resizeSection(COLUMNS.index("Reason"), 260)
        header.setStretchLastSection(True)

        row = QHBoxLayout()
        row.setSpacing(6)
        row.addWidget(QLabel(self.tr("Against")))
        row.addWidget(self.registry_combo, 1)
        row.addWidget(self.version_combo)
        row.addWidget(self.run_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(4)
        layout.addLayout(row)
        layout.addWidget(self.summary)
        layout.addWidget(self.table, 1)

        self.registry_combo.currentTextChanged.connect(self._fill_versions)
        self.run_button.clicked.connect(self.run)
        self.refresh_registries()

    # ------------------------------------------------------------------ choices

    def refresh_registries(self, prefer: str = "") -> None:
        current = prefer or self.registry_combo.currentText()
        names = [r.name for r in self.store.list_registries()]
        self.registry_combo.blockSignals(True)
        self.registry_combo.clear()
        self.registry_combo.addItems(names)
        if current in names:
            self.registry_combo.setCurrentText(current)
        self.registry_combo.blockSignals(False)
        self._fill_versions(self.registry_combo.currentText())

    def _fill_versions(self, name: str, prefer: str = "") -> None:
        current = prefer or self.version_combo.currentData() or "draft"
        self.version_combo.clear()
        self.version_combo.addItem(self.tr("draft"), "draft")
        if name:
            try:
                versions = self.store.list_versions(name)
            except StoreError:
                versions = []
            for info in reversed(versions):
                label = f"v{info.number}" + (f" ({info.semver})" if info.semver else "")
                self.version_combo.addItem(label, str(info.number))
        at = self.version_combo.findData(current)
        self.version_combo.setCurrentIndex(max(0, at))

    def choose(self, registry: str, version: str = "draft") -> None:
        """Select ``registry`` and ``version`` (``draft`` or a number as text)."""
        self.refresh_registries(prefer=registry)
        self._fill_versions(self.registry_combo.currentText(), prefer=version)

    def set_session(
        self,
        messages: Sequence[Message],
        *,
        context: SessionContext | None = None,
        recorded_prepared: Mapping[str, Any] | None = None,
    ) -> None:
        """The session to re-validate; clears the previous table."""
        self.messages = list(messages)
        self.context = context
        self.recorded_prepared = dict(recorded_prepared or {})
        self._generation = -1  # results for the previous session are stale now
        self.run_button.setEnabled(True)
        self.report = None
        self.table_model.set_rows([])
        self.summary.setText(self.tr("Pick a registry and a version, then Re-validate."))

    # ------------------------------------------------------------------ running

    def _registry(self) -> tuple[Registry, str]:
        name = self.registry_combo.currentText()
        version = self.version_combo.currentData() or "draft"
        if version == "draft":
            return self.store.draft_registry(name), "draft"
        return self.store.load_version(name, int(version)).registry, str(version)

    def run(self) -> Job | None:
        """Re-validate in a worker; the table fills when it reports."""
        if not self.registry_combo.currentText():
            self.summary.setText(self.tr("There is no registry to re-validate against."))
            return None
        try:
            registry, version = self._registry()
        except StoreError as exc:
            self.summary.setText(self.tr("Cannot read that version: {exc}").format(exc=exc))
            return None
        messages, context, prepared = self.messages, self.context, self.recorded_prepared

        def work(_progress: object) -> RevalidationReport:
            return revalidate(messages, registry, version=version, context=context,
                              recorded_prepared=prepared)  # fmt: skip

        job = Job(work)
        self._generation = job.generation
        job.signals.succeeded.connect(self._on_report)
        job.signals.failed.connect(self._on_failed)
        self.summary.setText(
            self.tr("Re-validating against {name} {version}…").format(
                name=registry.name, version=version
            )
        )
        self.run_button.setEnabled(False)
        return self.runner.start(job)

    def _on_report(self, generation: int, report: RevalidationReport) -> None:
        if generation != self._generation:
            return  # superseded by a newer request or another session
        self.run_button.setEnabled(True)
        self.report = report
        self.table_model.dark = is_dark(self.palette())
        self.table_model.set_rows(report.rows)
        self.summary.setText(counts_html(report, self.table_model.dark))
        self.reportReady.emit(report)

    def _on_failed(self, generation: int, message: str) -> None:
        if generation != self._generation:
            return
        self.run_button.setEnabled(True)
        self.summary.setText(self.tr("Re-validation failed: {message}").format(message=message))
