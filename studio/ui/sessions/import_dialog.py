"""Import log…: read a session log in a worker with progress and Cancel, report what was left out.

The file is parsed on a pool thread (:func:`studio.sessions.importers.import_sessions`);
the sessions are stored on the GUI thread when it reports (one batch per
session). Errors (``file:line: path: message``) and repair warnings are listed
in the dialog; the tools that came with the log can become a registry draft.
"""

from __future__ import annotations

import re
import threading
from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from registry_db import RegistryStore, StoreError
from registry_db.sessions import SessionStore
from studio.formats import FormatError
from studio.sessions.importers import ImportOutcome, import_folder, import_sessions
from studio.sessions.importers.detect import FORMATS
from studio.sessions.library import import_tools_as_draft, save_imported
from studio.ui.sessions.prompts import SessionPrompts
from studio.ui.sessions.worker import Job, JobRunner, ProgressCallback


def draft_name_for(path: Path) -> str:
    """A registry name from a file name (``prod-log.jsonl`` → ``prod-log-tools``)."""
    stem = re.sub(r"[^a-z0-9]+", "-", path.stem.lower()).strip("-") or "imported"
    return f"{stem}-tools"


class ImportLogDialog(QDialog):
    """Choose a log and a format, import it with progress; Cancel stops the worker.

    Signals:
        imported: The ids of the stored sessions (after every import that stored some).
    """

    imported = Signal(list)

    def __init__(
        self,
        store: RegistryStore,
        prompts: SessionPrompts,
        runner: JobRunner | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Import session log"))
        self.store = store
        self.sessions = SessionStore.for_store(store)
        self.prompts = prompts
        self.runner = runner or JobRunner(parent=self)
        self.cancel_event: threading.Event | None = None
        self.outcome: ImportOutcome | None = None
        self.session_ids: list[str] = []
        self.draft_registry: str | None = None
        self._path: Path | None = None
        self._generation = 0

        self.path_edit = QLineEdit()
        self.path_edit.setPlaceholderText(
            self.tr("A .json, .jsonl or .traj log, or a folder of them")
        )
        self.browse_button = QPushButton(self.tr("Browse…"))
        self.format_combo = QComboBox()
        self.format_combo.addItem(self.tr("auto"), "auto")
        for name in FORMATS:
            self.format_combo.addItem(name, name)
        self.format_combo.setToolTip(self.tr("auto detects each conversation's format"))
        self.tools_check = QCheckBox(self.tr("Import the tools as a registry draft"))
        self.tools_check.setToolTip(self.tr("The tool definitions that came with the log"))
        self.draft_edit = QLineEdit()
        self.draft_edit.setPlaceholderText(self.tr("registry name"))
        self.draft_edit.setEnabled(False)
        self.progress = QProgressBar()
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self.status = QLabel(self.tr("Choose a file and Import."))
        self.status.setWordWrap(True)
        self.report = QPlainTextEdit()
        self.report.setReadOnly(True)
        self.report.setPlaceholderText(self.tr("Errors and warnings appear here"))
        self.report.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.import_button = QPushButton(self.tr("Import"))
        self.import_button.setDefault(True)
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.cancel_button.setEnabled(False)
        self.close_button = QPushButton(self.tr("Close"))

        file_row = QHBoxLayout()
        file_row.addWidget(self.path_edit, 1)
        file_row.addWidget(self.browse_button)
        draft_row = QHBoxLayout()
        draft_row.addWidget(self.tools_check)
        draft_row.addWidget(self.draft_edit, 1)
        form = QFormLayout()
        form.addRow(self.tr("File"), file_row)
        form.addRow(self.tr("Format"), self.format_combo)
        form.addRow("", draft_row)
        buttons = QHBoxLayout()
        buttons.addWidget(self.progress, 1)
        buttons.addWidget(self.import_button)
        buttons.addWidget(self.cancel_button)
        buttons.addWidget(self.close_button)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addLayout(buttons)
        layout.addWidget(self.status)
        layout.addWidget(self.report, 1)
        self.resize(640, 420)

        self.browse_button.clicked.connect(self.browse)
        self.tools_check.toggled.connect(self.draft_edit.setEnabled)
        self.import_button.clicked.connect(lambda: self.start())
        self.cancel_button.clicked.connect(self.cancel)
        self.close_button.clicked.connect(self.reject)

    # ------------------------------------------------------------------ actions

    def browse(self) -> Path | None:
        path = self.prompts.choose_log_file(self)
        if path is not None:
            self.path_edit.setText(str(path))
            if not self.draft_edit.text():
                self.draft_edit.setText(draft_name_for(path))
        return path

    def start(
        self,
        path: Path | None = None,
        fmt: str | None = None,
        cancel: threading.Event | None = None,
    ) -> Job | None:
        """Import ``path`` (default: the field) in a worker.

        Args:
            cancel: The flag the worker checks (default: a new one that Cancel sets).
        """
        if self.runner.busy:
            return None
        path = path or (Path(self.path_edit.text()) if self.path_edit.text().strip() else None)
        if path is None:
            path = self.browse()
            if path is None:
                return None
        if fmt is not None:
            self.format_combo.setCurrentIndex(max(0, self.format_combo.findData(fmt)))
        self.path_edit.setText(str(path))
        if not self.draft_edit.text():
            self.draft_edit.setText(draft_name_for(path))
        fmt = self.format_combo.currentData()
        self._path = path
        self.cancel_event = cancel or threading.Event()
        event = self.cancel_event

        def work(progress: ProgressCallback) -> ImportOutcome:
            if path.is_dir():  # ~/.claude/projects, ~/.codex/sessions: every log under it
                return import_folder(path, fmt, progress=progress, cancel=event)
            return import_sessions(path, fmt, progress=progress, cancel=event)

        job = Job(work)
        self._generation = job.generation
        job.signals.progress.connect(self._on_progress)
        job.signals.succeeded.connect(self._on_done)
        job.signals.failed.connect(self._on_failed)
        self.outcome = None
        self.session_ids = []
        self.report.clear()
        self.progress.setRange(0, 0)  # busy until the first report
        self.status.setText(self.tr("Reading {name}…").format(name=path.name))
        self._set_running(True)
        return self.runner.start(job)

    def cancel(self) -> None:
        """Ask the worker to stop; what it read so far is kept."""
        if self.cancel_event is not None and self.runner.busy:
            self.cancel_event.set()
            self.status.setText(self.tr("Cancelling…"))

    def _set_running(self, running: bool) -> None:
        self.import_button.setEnabled(not running)
        self.browse_button.setEnabled(not running)
        self.cancel_button.setEnabled(running)
        self.close_button.setEnabled(not running)

    # ------------------------------------------------------------------ results

    def _on_progress(self, done: int, total: int) -> None:
        if total > 0:
            self.progress.setRange(0, total)
            self.progress.setValue(min(done, total))

    def _on_failed(self, generation: int, message: str) -> None:
        if generation != self._generation:
            return
        self._set_running(False)
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self.status.setText(self.tr("Could not read the file: {message}").format(message=message))

    def _on_done(self, generation: int, outcome: ImportOutcome) -> None:
        if generation != self._generation:
            return
        self._set_running(False)
        self.outcome = outcome
        self.progress.setRange(0, 1)
        self.progress.setValue(1)
        name = self._path.name if self._path else ""
        for session in outcome.sessions:
            info = save_imported(self.sessions, session, file=session.file or name)
            self.session_ids.append(info.id)
        lines = [self.tr("error: {message}").format(message=e) for e in outcome.errors]
        lines += [self.tr("warning: {message}").format(message=w) for w in outcome.warnings]
        self.report.setPlainText("\n".join(lines))
        count = len(outcome.sessions)
        if outcome.cancelled:
            head = (
                self.tr("Cancelled; kept 1 session")
                if count == 1
                else self.tr("Cancelled; kept {count} sessions").format(count=count)
            )
        elif count == 1:
            head = self.tr("Imported 1 session")
        else:
            head = self.tr("Imported {count} sessions").format(count=count)
        summary = self.tr("{head} · {errors} error(s) · {warnings} warning(s)").format(
            head=head, errors=len(outcome.errors), warnings=len(outcome.warnings)
        )
        if self.tools_check.isChecked():
            summary += " · " + self._import_tools(outcome)
        self.status.setText(summary)
        if self.session_ids:
            self.imported.emit(list(self.session_ids))

    def _import_tools(self, outcome: ImportOutcome) -> str:
        tools = next((s.tools for s in outcome.sessions if s.tools), None)
        name = self.draft_edit.text().strip()
        if not tools:
            return self.tr("the log came with no tool definitions")
        if not name:
            return self.tr("no registry name for the tools")
        exists = any(r.name == name for r in self.store.list_registries())
        if exists and not self.prompts.confirm_replace_draft(self, name):
            return self.tr("tools not imported")
        try:
            registry, _ = import_tools_as_draft(self.store, tools, name)
        except (FormatError, StoreError, ValueError) as exc:
            return self.tr("tools not imported: {error}").format(error=exc)
        self.draft_registry = registry.name
        return self.tr("{count} tool(s) in the draft of {name}").format(
            count=len(registry.tools), name=registry.name
        )
