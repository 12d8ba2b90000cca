"""Registry import, export and opening off the GUI thread: the work, the worker, the panel.

Reading and checking a file (:func:`read_import`), storing a registry
(:func:`store_import`), rendering and writing an export (:func:`write_export_job`)
and loading a large draft or published version (:func:`load_draft`,
:func:`load_version`) run as the session browser's
:class:`~studio.ui.sessions.worker.Job` s on one serial worker
(:class:`RegistryJobs`; the main window has a second one for opening). A job
never touches widgets; its progress and result arrive on the GUI thread, where
:class:`RegistryJobs` hands them to plain callbacks.

Expected failures come back as :class:`Refused` with the message the user sees
(what and where); a cancelled job comes back as :data:`CANCELLED`. Only a bug
takes the job's ``failed`` path (logged with its traceback, shown as one line).

:class:`JobDialog` is the base of the import and export dialogs: they stay open
while their job runs, and their :class:`JobPanel` shows nothing for the first
:data:`PROGRESS_DELAY_MS` (small files feel instant), then a status line and a
progress bar; a refusal shows its problems there, Cancel stops the job.

The worker uses the window's :class:`~registry_db.RegistryStore` like the diff
and guard workers do: the store serialises its one connection with a lock, so
while a store job holds it the GUI thread must not read the store (the import
dialog is modal meanwhile).
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from PySide6.QtCore import QCoreApplication, QObject, Qt, QThreadPool, QTimer, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLayout,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from registry_db import RegistryInfo, RegistryStore, StoreError
from registry_db.executors import ExecutorStore
from registry_db.versions import verify_version
from studio.contract import Registry
from studio.editing import DraftWorkspace
from studio.formats import (
    ExportResult,
    FormatError,
    ImportResult,
    export_registry,
    import_path,
    write_export,
)
from studio.formats.openapi_detect import is_openapi_import
from studio.ui.sessions.worker import Job, JobRunner, ProgressCallback

if TYPE_CHECKING:
    from studio.formats.openapi import ImportOptions as OpenApiOptions
    from studio.formats.openapi import OpenApiImport

# A FormatError may carry thousands of problems; the message lists this many.
MAX_PROBLEMS_SHOWN = 30

# A job that ends sooner shows no progress at all (QProgressDialog's minimumDuration).
PROGRESS_DELAY_MS = 300

# SQLite calls the progress handler every this many virtual-machine steps: often
# enough that Cancel stops a store within milliseconds, rarely enough to cost nothing.
CANCEL_POLL_STEPS = 200

# The statements that write one draft tool each (registry_db.drafts.replace_tools);
# counting them is the store's progress. Anything else is not counted.
_TOOL_WRITES = ("INSERT INTO draft_tools", "UPDATE draft_tools")

_Loaded = TypeVar("_Loaded")


@dataclass(frozen=True)
class Refused:
    """An expected failure, worded for the user: what and where."""

    message: str
    error: Exception | None = field(default=None, compare=False)
    """The store's error behind ``message``, when one caused it (a caller may word its own)."""


@dataclass(frozen=True)
class Cancelled:
    """The job stopped because Cancel was pressed; it changed nothing."""


CANCELLED = Cancelled()


class _CancelledError(Exception):
    pass


def format_error_text(source: str, exc: FormatError) -> str:
    """A FormatError as a message: every located problem on its own line."""
    head = QCoreApplication.translate(
        "RegistryJobs", "{source} was not imported; nothing was changed."
    ).format(source=source)
    if not exc.problems:
        return f"{head}\n\n{exc}"
    lines = [f"• {p}" for p in exc.problems[:MAX_PROBLEMS_SHOWN]]
    more = len(exc.problems) - MAX_PROBLEMS_SHOWN
    if more > 0:
        lines.append(
            QCoreApplication.translate("RegistryJobs", "… and {more} more").format(more=more)
        )
    return f"{head}\n\n" + "\n".join(lines)


# ---------------------------------------------------------------------- the work


@dataclass(frozen=True)
class OpenApiRead:
    """An OpenAPI document read and checked; its operations are picked next (issue #17)."""

    document: dict[str, Any]
    source: str
    name: str | None


def read_import(path: Path, fmt: str, name: str | None) -> ImportResult | OpenApiRead | Refused:
    """Read and check ``path`` as ``studio import`` does (on the worker).

    Return:
        The import result; for an OpenAPI document, the document (its operations
        are picked before anything is built); or :class:`Refused` naming the file
        and each problem's place.
    """
    try:
        # The whole document decides, as for ``studio import``: a key-sorted
        # document names "openapi" after its components, past any head.
        if path.is_file() and is_openapi_import(path, fmt):
            from studio.formats import files
            from studio.formats.openapi import read_document

            text = files.read_text(path, path.name)
            try:
                return OpenApiRead(read_document(text, path.name), path.name, name)
            except FormatError:
                if fmt == "openapi":
                    raise
        return import_path(path, fmt, name=name)
    except FormatError as exc:
        return Refused(format_error_text(path.name, exc))


def import_openapi_job(read: OpenApiRead, options: OpenApiOptions) -> OpenApiImport | Refused:
    """Build the contracts and HTTP targets of the picked operations (on the worker)."""
    from studio.formats.openapi import import_openapi

    try:
        return import_openapi(read.document, read.source, name=read.name, options=options)
    except FormatError as exc:
        return Refused(format_error_text(read.source, exc))


def store_import(
    store: RegistryStore,
    registry: Registry,
    *,
    replace_draft: bool,
    cancel: threading.Event,
    progress: ProgressCallback | None = None,
    openapi: OpenApiImport | None = None,
) -> RegistryInfo | Refused | Cancelled:
    """Store ``registry`` in one transaction that Cancel rolls back (on the worker).

    ``RegistryStore.import_registry`` writes everything in one transaction. While
    it runs, SQLite's progress handler polls ``cancel`` and aborts the statement
    in flight once it is set; the transaction is then rolled back, so a
    cancelled import leaves the database exactly as it was. Cancel pressed after
    the commit is too late: the registry is stored and returned.

    Args:
        store: The window's store (shared; its lock is held throughout).
        registry: The registry to create, or whose draft to replace.
        replace_draft: Replace the draft of an existing registry of that name.
        cancel: Set by the GUI thread to stop.
        progress: Called with (tools written, tools) as rows are written.
        openapi: An OpenAPI import whose HTTP targets are stored in the same
            transaction (:meth:`registry_db.executors.ExecutorStore.import_with_targets`).
    """
    conn = store.connection
    total = len(registry.tools)
    written = 0

    def on_statement(sql: str) -> None:
        nonlocal written
        if progress is not None and sql.startswith(_TOOL_WRITES):
            written += 1
            progress(min(written, total), total)

    # Holding the store's lock keeps every other thread off the connection while
    # the hooks are installed: they see this import's statements only.
    with store.lock:
        if cancel.is_set():
            return CANCELLED
        conn.set_progress_handler(lambda: 1 if cancel.is_set() else 0, CANCEL_POLL_STEPS)
        conn.set_trace_callback(on_statement)
        try:
            if openapi is None:
                info = store.import_registry(registry, replace_draft=replace_draft)
            else:
                ExecutorStore.for_store(store).import_with_targets(
                    store, registry, openapi.targets,
                    allowed_base_urls=openapi.allowed_base_urls, replace_draft=replace_draft,
                )  # fmt: skip
                info = store.get_registry(registry.name)
        except sqlite3.OperationalError as exc:
            if cancel.is_set():  # "interrupted": the handler stopped it
                return CANCELLED
            return Refused(f"{registry.name}: {exc}")
        except StoreError as exc:
            return Refused(f"{registry.name}: {exc}")
        finally:
            conn.set_trace_callback(None)
            conn.set_progress_handler(None, 0)
            # An interrupted COMMIT can leave the transaction open: end it here,
            # before anyone else gets the connection.
            if conn.in_transaction:
                conn.execute("ROLLBACK")
    if progress is not None:
        progress(total, total)
    return info


def write_export_job(
    load: Callable[[], Registry], fmt: str, destination: Path, cancel: threading.Event
) -> ExportResult | Refused | Cancelled:
    """Load the source, render it as ``fmt`` and write it like ``studio export`` (on the worker).

    Cancel is honoured until the writing starts; nothing is written after it.

    Args:
        load: Returns the registry to export (may read the store).
        fmt: One of :data:`studio.formats.FORMAT_NAMES`.
        destination: The file, or the folder for ``dir``.
        cancel: Set by the GUI thread to stop.
    """
    try:
        registry = load()
        if cancel.is_set():
            return CANCELLED
        result = export_registry(registry, fmt)
        if cancel.is_set():
            return CANCELLED
        write_export(result, destination)
    except (StoreError, FormatError, OSError) as exc:
        return Refused(f"{destination}: {exc}")
    return result


def load_draft(
    store: RegistryStore, name: str, cancel: threading.Event
) -> DraftWorkspace | Refused | Cancelled:
    """Load the draft of ``name`` as :meth:`DraftWorkspace.load` does (on the worker).

    Decoding and checking every tool of a 10,000-tool draft takes about a
    second, all of it inside the store's read of the rows. As in
    :func:`store_import`, SQLite's progress handler polls ``cancel`` between
    rows, so a superseded open gives the connection back within milliseconds.

    Args:
        store: The window's store (shared; its lock is held throughout).
        name: The registry whose draft to load.
        cancel: Set by the GUI thread when another open supersedes this one.

    Return:
        The workspace, :class:`Refused` with the message the synchronous open
        shows (``"<name>: <error>"``), or :data:`CANCELLED`.
    """
    return _load_cancellable(store, name, cancel, lambda: DraftWorkspace.load(store, name))


def load_version(
    store: RegistryStore, name: str, number: int, cancel: threading.Event
) -> DraftWorkspace | Refused | Cancelled:
    """Load version ``number`` of ``name`` read-only, its hash verified (on the worker).

    The version is one stored document: its row is read under the store's
    lock; hashing and parsing it (most of a second for 10,000 tools) happen
    after the lock is released, so a superseding open on the GUI thread never
    waits for them. ``cancel`` is honoured before the read, before the check
    and before the workspace is built.

    Args:
        store: The window's store (shared; its lock is held for the read only).
        name: The registry.
        number: The published version.
        cancel: Set by the GUI thread when another open supersedes this one.

    Return:
        A read-only workspace, :class:`Refused` carrying the store's error
        (:class:`~registry_db.TamperedVersionError` for a changed document), or
        :data:`CANCELLED`.
    """
    stored = _load_cancellable(store, name, cancel, lambda: store.read_version(name, number))
    if isinstance(stored, Refused | Cancelled):
        return stored
    if cancel.is_set():
        return CANCELLED
    try:  # without the store's lock: the GUI thread may read meanwhile
        version = verify_version(stored)
    except StoreError as exc:
        return Refused(f"{name}: {exc}", error=exc)
    if cancel.is_set():
        return CANCELLED
    return DraftWorkspace.from_registry(version.registry, read_only_version=number)


def _load_cancellable(
    store: RegistryStore, name: str, cancel: threading.Event, load: Callable[[], _Loaded]
) -> _Loaded | Refused | Cancelled:
    """Run ``load`` under the store's lock with SQLite's progress handler polling ``cancel``."""
    conn = store.connection
    with store.lock:
        if cancel.is_set():
            return CANCELLED
        conn.set_progress_handler(lambda: 1 if cancel.is_set() else 0, CANCEL_POLL_STEPS)
        try:
            return load()
        except sqlite3.OperationalError as exc:
            if cancel.is_set():  # "interrupted": the handler stopped it
                return CANCELLED
            return Refused(f"{name}: {exc}", error=exc)
        except StoreError as exc:
            return Refused(f"{name}: {exc}", error=exc)
        finally:
            conn.set_progress_handler(None, 0)
            if conn.in_transaction:  # an interrupted read leaves its BEGIN open
                conn.execute("ROLLBACK")


# ---------------------------------------------------------------------- the worker


class RegistryJobs(QObject):
    """One serial worker for imports and exports; callbacks run on the GUI thread.

    At most one job is current. Its progress, result or failure is handed to
    the callbacks given to :meth:`start`; a job that was :meth:`drop` ped still
    runs to its end (reading a file cannot be interrupted) but nobody hears
    from it, and the next job waits for it (one worker thread).
    """

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        pool = QThreadPool(self)
        pool.setMaxThreadCount(1)
        self.runner = JobRunner(pool, self)
        # Every job, until a later one has reported: the worker runs one job at
        # a time, so by then the earlier one's run() has returned and the last
        # reference to it (and its signals QObject) is dropped here, on the GUI
        # thread, never by the worker thread.
        self._kept: dict[int, Job] = {}
        self._job: Job | None = None
        self._active = 0
        self._done: Callable[[Any], None] = _ignore
        self._failed: Callable[[str], None] = _ignore
        self._progress: Callable[[int, int], None] | None = None

    @property
    def busy(self) -> bool:
        """True while the current job has not reported."""
        return self._active != 0

    def start(
        self,
        work: Callable[[ProgressCallback], Any],
        done: Callable[[Any], None],
        failed: Callable[[str], None],
        progress: Callable[[int, int], None] | None = None,
    ) -> Job:
        """Run ``work(progress)`` on the worker; the callbacks run on the GUI thread.

        Args:
            work: The job; it returns its result (exceptions are bugs).
            done: Receives the result.
            failed: Receives ``"ExceptionType: message"`` when ``work`` raised.
            progress: Receives (done, total), about once per percent.
        """
        job = Job(work)
        job.signals.progress.connect(self._on_progress)
        job.signals.succeeded.connect(self._on_succeeded)
        job.signals.failed.connect(self._on_failed)
        self._kept[job.generation] = job
        self._job, self._active = job, job.generation
        self._done, self._failed, self._progress = done, failed, progress
        return self.runner.start(job)

    def drop(self) -> None:
        """Forget the current job: whatever it reports is ignored."""
        self._active = 0

    def wait(self, msecs: int = 30_000) -> bool:
        """Block until the worker is idle (closing the window, tests)."""
        return self.runner.wait(msecs)

    def _on_progress(self, done: int, total: int) -> None:
        job = self._job
        if job is None or job.generation != self._active or self._progress is None:
            return
        if self.sender() is job.signals:  # not a dropped job's late report
            self._progress(done, total)

    def _on_succeeded(self, generation: int, result: object) -> None:
        self._release_before(generation)
        if generation == self._active:
            self._active = 0
            self._done(result)

    def _on_failed(self, generation: int, message: str) -> None:
        self._release_before(generation)
        if generation == self._active:
            self._active = 0
            self._failed(message)

    def _release_before(self, generation: int) -> None:
        for older in [g for g in self._kept if g < generation]:
            del self._kept[older]


def _ignore(*_args: object) -> None:
    pass


# ---------------------------------------------------------------------- the panel


class JobPanel(QWidget):
    """Status line, progress bar and problem report of a dialog that runs a job.

    Signals:
        revealed: The running job has lasted :attr:`delay_ms`; the panel now shows
            (the dialog disables its inputs then, not before, so nothing flashes).
    """

    revealed = Signal()

    def __init__(self, parent: QWidget | None = None, delay_ms: int = PROGRESS_DELAY_MS) -> None:
        super().__init__(parent)
        self.delay_ms = delay_ms
        self.running = False
        self.was_revealed = False  # during the current (or last) run
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        self.bar = QProgressBar()
        self.bar.setAccessibleName(self.tr("Progress"))
        self.report = QPlainTextEdit()
        self.report.setReadOnly(True)
        self.report.setAccessibleName(self.tr("Problems"))
        self.report.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        lines = self.fontMetrics().lineSpacing()
        self.report.setMinimumHeight(lines * 5 + 12)  # the dialog grows to show a refusal
        self.report.setMaximumHeight(lines * 12 + 12)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.status)
        layout.addWidget(self.bar)
        layout.addWidget(self.report)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._reveal)
        self._hide_all()

    def start(self, text: str) -> None:
        """A job started; show ``text`` and a busy bar once it has run :attr:`delay_ms`."""
        self.running = True
        self.was_revealed = False
        self._hide_all()
        self.status.setText(text)
        self.bar.setRange(0, 0)  # busy until a measured report
        self._timer.start(self.delay_ms)

    def set_text(self, text: str) -> None:
        self.status.setText(text)

    def set_progress(self, done: int, total: int) -> None:
        """Show ``done`` of ``total`` (``total`` 0: busy, no measure)."""
        if total <= 0:
            self.bar.setRange(0, 0)
            return
        if self.bar.maximum() != total:
            self.bar.setRange(0, total)
        self.bar.setValue(min(done, total))

    def stop(self, message: str = "", *, problem: bool = False) -> None:
        """The job ended: show ``message`` (in the problem report when ``problem``)."""
        self.running = False
        self._timer.stop()
        self._hide_all()
        if problem:
            self.report.setPlainText(message)
            self.report.setVisible(bool(message))
        else:
            self.status.setText(message)
            self.status.setVisible(bool(message))
        self.setVisible(bool(message))

    def clear(self) -> None:
        """Hide whatever the last run left (the user changed the input)."""
        if not self.running:
            self._hide_all()

    def _hide_all(self) -> None:
        self.status.hide()
        self.bar.hide()
        self.report.hide()
        self.report.clear()
        self.hide()

    def _reveal(self) -> None:
        if not self.running:
            return
        self.was_revealed = True
        self.status.show()
        self.bar.show()
        self.show()
        self.revealed.emit()


class JobDialog(QDialog):
    """A dialog whose job runs while it stays open; the caller runs the job.

    OK emits :attr:`submitted` with :meth:`request` when :meth:`problem` is None.
    The caller reports back through :meth:`begin`, :meth:`set_step`,
    :meth:`set_progress` and one of :meth:`succeed` (closes the dialog),
    :meth:`fail` or :meth:`cancelled`. While the job runs, Cancel, Esc and the
    close button emit :attr:`cancelRequested` instead of closing.

    Subclasses build their inputs, call :meth:`_lay_out` (problem line, job
    panel, OK and Cancel under them) and implement :meth:`problem`,
    :meth:`request`, :meth:`inputs` and ``_entered`` (the main input; or override
    ``_validate``, which enables OK).

    Signals:
        submitted(object): OK was pressed with a valid request.
        cancelRequested: Cancel was pressed while the job runs.
    """

    submitted = Signal(object)
    cancelRequested = Signal()
    ok_button: QPushButton
    cancel_button: QPushButton

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.job_panel = JobPanel(self)
        self.job_panel.revealed.connect(self._on_revealed)
        self.problem_label = QLabel()
        self.problem_label.setWordWrap(True)
        self.problem_label.setTextFormat(Qt.TextFormat.PlainText)

    def _lay_out(self, action: str, *top: QWidget | QLayout) -> None:
        """Stack ``top`` (widgets or layouts), the problem line, the job panel, OK and Cancel."""
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.ok_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok_button.setText(action)
        self.cancel_button = self.buttons.button(QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        for item in top:
            if isinstance(item, QLayout):
                layout.addLayout(item)
            else:
                layout.addWidget(item)
        layout.addWidget(self.problem_label)
        layout.addWidget(self.job_panel)
        layout.addStretch(1)
        layout.addWidget(self.buttons)

    def problem(self) -> str | None:
        raise NotImplementedError

    def request(self) -> object:
        raise NotImplementedError

    def inputs(self) -> list[QWidget]:
        """The widgets disabled while the job runs."""
        raise NotImplementedError

    def _entered(self) -> str:
        """The main input as typed; its problem is shown only once something is typed."""
        raise NotImplementedError

    def _on_edited(self, *_args: object) -> None:
        self.job_panel.clear()  # the last run's message was about the old input
        self._validate()

    def _validate(self) -> None:
        """Enable OK when :meth:`problem` is None; show the problem once input is typed."""
        if self.running:
            return
        problem = self.problem()
        # Before anything is entered the disabled button says enough.
        shown = problem if problem and self._entered().strip() else ""
        self.problem_label.setText(shown)
        self.problem_label.setVisible(bool(shown))
        self.ok_button.setEnabled(problem is None)

    @property
    def running(self) -> bool:
        """True from :meth:`begin` until the job succeeded, failed or was cancelled."""
        return self.job_panel.running

    def accept(self) -> None:
        """OK pressed: ask for the job (the dialog closes when it succeeded)."""
        if not self.running and self.problem() is None:
            self.submitted.emit(self.request())

    def reject(self) -> None:
        """Cancel pressed: stop the running job, else close."""
        if self.running:
            self.cancelRequested.emit()
        else:
            super().reject()

    def begin(self, text: str) -> None:
        """The job started; ``text`` says what happens first."""
        self.job_panel.start(text)

    def set_step(self, text: str) -> None:
        """What the running job does now; the bar is busy until a measured report."""
        self.job_panel.set_text(text)
        self.job_panel.set_progress(0, 0)

    def set_progress(self, done: int, total: int) -> None:
        self.job_panel.set_progress(done, total)

    def cancelling(self) -> None:
        """Cancel was asked for and the worker is stopping."""
        self.job_panel.set_text(self.tr("Cancelling…"))
        self.cancel_button.setEnabled(False)

    def succeed(self) -> None:
        """The job is done: close the dialog."""
        self.job_panel.stop()
        self._set_inputs_enabled(True)
        super().accept()

    def fail(self, message: str) -> None:
        """The job was refused: show ``message`` (what and where); the input stays."""
        self.job_panel.stop(message, problem=True)
        self._set_inputs_enabled(True)

    def cancelled(self, message: str) -> None:
        """The job stopped without changing anything; ``message`` says so."""
        self.job_panel.stop(message)
        self._set_inputs_enabled(True)

    def _on_revealed(self) -> None:
        self._set_inputs_enabled(False)

    def _set_inputs_enabled(self, enabled: bool) -> None:
        for widget in self.inputs():
            widget.setEnabled(enabled)
        self.cancel_button.setEnabled(True)
        if enabled:
            self._validate()
        else:
            self.ok_button.setEnabled(False)
