"""Registry-level commands of the main window: new, import, export, settings, delete.

These mirror ``studio import`` / ``studio export`` (DESIGN §8: everything works
from the GUI too). Modal questions go through :class:`RegistryPrompts`, which
the window's ``Prompts`` extends, so tests answer with plain data. Import and
export open their dialog without blocking and run their work from it in the
worker (:mod:`studio.ui.registry_jobs`), with progress and Cancel; tests drive
those dialogs directly.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication
from PySide6.QtWidgets import QDialog, QMessageBox, QWidget

from registry_db import (
    ConflictError,
    RegistryHasVersionsError,
    RegistryInfo,
    StoreError,
)
from studio.contract import Registry, ToolContract

# Dialogs, the worker and the formats are imported when a command first uses
# them: the window paints before anything it does not show is built (the MCP
# SDK, behind the MCP dialogs, is never loaded at start-up).
if TYPE_CHECKING:
    from studio.formats import ExportResult, ImportResult, Note
    from studio.formats.openapi import ImportOptions as OpenApiOptions
    from studio.formats.openapi import OpenApiImport
    from studio.ui.dialogs.export_dialog import ExportDialog, ExportRequest
    from studio.ui.dialogs.import_dialog import ImportDialog, ImportRequest
    from studio.ui.dialogs.mcp_import_dialog import (
        McpCheckDialog,
        McpCheckRequest,
        McpImportDialog,
        McpImportRequest,
    )
    from studio.ui.dialogs.new_registry_dialog import NewRegistryRequest
    from studio.ui.dialogs.registry_settings_dialog import RegistrySettingsRequest
    from studio.ui.main_window import MainWindow
    from studio.ui.registry_jobs import Cancelled, JobDialog, OpenApiRead, Refused, RegistryJobs
    from studio.ui.sessions.worker import ProgressCallback

IMPORT_CANCELLED = QT_TRANSLATE_NOOP("RegistryOperations", "Import cancelled; nothing was changed.")


def _tr(text: str) -> str:
    """``text`` in the UI language (context RegistryOperations)."""
    return QCoreApplication.translate("RegistryOperations", text)


class RegistryPrompts:
    """The registry-level questions; each is modal and returns plain data (None = cancelled)."""

    def new_registry(self, parent: QWidget, existing: Sequence[str]) -> NewRegistryRequest | None:
        from studio.ui.dialogs.new_registry_dialog import NewRegistryDialog

        dialog = NewRegistryDialog(existing, parent)
        return dialog.request() if dialog.exec() == QDialog.DialogCode.Accepted else None

    def registry_settings(
        self,
        parent: QWidget,
        registry: str,
        current: RegistrySettingsRequest,
        sample: ToolContract | None,
    ) -> RegistrySettingsRequest | None:
        from studio.ui.dialogs.registry_settings_dialog import RegistrySettingsDialog

        dialog = RegistrySettingsDialog(registry, current, sample, parent)
        return dialog.request() if dialog.exec() == QDialog.DialogCode.Accepted else None

    def confirm_delete_registry(
        self, parent: QWidget, registry: str, tool_count: int, unsaved: bool
    ) -> bool:
        lost = (
            QCoreApplication.translate("RegistryPrompts", " Its unsaved changes are lost too.")
            if unsaved
            else ""
        )
        answer = QMessageBox.warning(
            parent,
            QCoreApplication.translate("RegistryPrompts", "Delete registry"),
            QCoreApplication.translate(
                "RegistryPrompts",
                "Delete {registry} and its draft of {tool_count} tools? This cannot be "
                "undone.{lost}",
            ).format(registry=registry, tool_count=tool_count, lost=lost),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Cancel,
        )
        return answer == QMessageBox.StandardButton.Yes

    def replace_unsaved_draft(self, parent: QWidget, registry: str) -> bool:
        answer = QMessageBox.warning(
            parent,
            QCoreApplication.translate("RegistryPrompts", "Replace the draft"),
            QCoreApplication.translate(
                "RegistryPrompts",
                "{registry} has unsaved changes. The import replaces its draft, and your "
                "unsaved changes are lost. Import anyway?",
            ).format(registry=registry),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Cancel,
        )
        return answer == QMessageBox.StandardButton.Yes

    def show_notes(self, parent: QWidget, title: str, summary: str, notes: Sequence[Note]) -> None:
        from studio.ui.dialogs.notes_dialog import NotesDialog

        NotesDialog(title, summary, notes, parent).exec()

    def choose_openapi_operations(
        self, parent: QWidget, document: dict[str, Any], source: str
    ) -> OpenApiOptions | None:
        """The operation picker of an OpenAPI import; None when cancelled."""
        from studio.ui.dialogs.openapi_picker_dialog import OpenApiPickerDialog

        dialog = OpenApiPickerDialog(document, source, parent)
        return dialog.options() if dialog.exec() == QDialog.DialogCode.Accepted else None


class RegistryOperations:
    """Runs the registry-level commands against the window's store and documents.

    Args:
        window: The main window (its store, prompts and open documents).
    """

    def __init__(self, window: MainWindow) -> None:
        self._w = window
        self._jobs: RegistryJobs | None = None
        self.dialog: JobDialog | None = None  # the open import or export dialog
        self.last_summary = ""  # of the last import or export that finished
        self._cancel_event: threading.Event | None = None
        self._cancel_waits = False  # Cancel waits for the worker to confirm
        self._openapi: OpenApiImport | None = None  # the OpenAPI import being stored

    @property
    def jobs(self) -> RegistryJobs:
        """The serial worker of imports and exports, made on first use.

        The worker's module (readers, writers, executors) is not imported at start-up:
        the window paints before anything it does not show is built.
        """
        if self._jobs is None:
            from studio.ui.registry_jobs import RegistryJobs

            self._jobs = RegistryJobs(self._w)
        return self._jobs

    def _names(self) -> list[str]:
        return [r.name for r in self._w.store.list_registries()]

    def new_registry(self) -> str | None:
        """Ask for a name, create the registry and open it; its name, or None."""
        w = self._w
        request = w.prompts.new_registry(w, self._names())
        if request is None:
            return None
        try:
            w.store.create_registry(
                request.name, title=request.title, description=request.description
            )
        except StoreError as exc:
            w.prompts.error(
                w,
                QCoreApplication.translate("RegistryOperations", "Registry not created"),
                f"{request.name}: {exc}",
            )
            return None
        w.refresh_registries()
        w.open_registry(request.name)
        w.statusBar().showMessage(
            QCoreApplication.translate("RegistryOperations", "Created {name}").format(
                name=request.name
            ),
            3000,
        )
        return request.name

    # ------------------------------------------------------------------ import

    def import_tools(self) -> ImportDialog | None:
        """Open the import dialog (window-modal, not blocking); the import runs from it.

        Reading and checking the file, then storing the registry, run in the
        worker with progress and Cancel; refusals show in the dialog. Between
        the two, on the GUI thread: is the name taken, and may an open draft's
        unsaved changes be replaced?
        """
        w = self._w
        if self._still_running():  # (a running job may hold the store)
            return None
        from studio.ui.dialogs.import_dialog import ImportDialog

        dialog = ImportDialog(self._names(), w)
        dialog.submitted.connect(self._start_import)
        dialog.cancelRequested.connect(self._cancel)
        self.dialog = dialog
        dialog.open()
        return dialog

    def _start_import(self, request: ImportRequest) -> None:
        from studio.ui.registry_jobs import read_import

        dialog = self._dialog()
        cancel = self._cancel_event = threading.Event()
        self._cancel_waits = False  # reading changes nothing: no need to wait for it
        dialog.begin(
            QCoreApplication.translate("RegistryOperations", "Reading and checking {name}…").format(
                name=request.path.name
            )
        )
        self.jobs.start(
            lambda _progress: read_import(request.path, request.format, request.name),
            lambda outcome: self._on_import_read(request, cancel, outcome),
            self._on_job_failed,
        )

    def import_from_mcp(self) -> McpImportDialog | None:
        """Open File → Import from MCP server… (window-modal, not blocking).

        The pull (start or reach the server, list its tools page by page, map them)
        runs in the worker with a line per phase and Cancel; then the registry is
        stored as a file import is.
        """
        from studio.ui.dialogs.mcp_import_dialog import McpImportDialog

        w = self._w
        if self._still_running():
            return None
        dialog = McpImportDialog(self._names(), w)
        dialog.submitted.connect(self._start_mcp_pull)
        dialog.cancelRequested.connect(self._cancel)
        self.dialog = dialog
        dialog.open()
        return dialog

    def _start_mcp_pull(self, request: McpImportRequest) -> None:
        from studio.ui.mcp_import import StepRelay, pull_job

        dialog = self._dialog()
        cancel = self._cancel_event = threading.Event()
        self._cancel_waits = False  # pulling changes nothing: no need to wait for it
        relay = StepRelay(dialog)
        relay.step.connect(dialog.set_step)
        dialog.begin(
            QCoreApplication.translate(
                "RegistryOperations", "Starting the pull from {source}…"
            ).format(source=request.source_label)
        )
        self.jobs.start(
            lambda _progress: pull_job(request, cancel, relay.step.emit),
            lambda outcome: self._on_mcp_pulled(request, cancel, outcome),
            self._on_job_failed,
        )

    def _on_mcp_pulled(
        self,
        request: McpImportRequest,
        cancel: threading.Event,
        outcome: ImportResult | Refused | Cancelled,
    ) -> None:
        from studio.ui.registry_jobs import Cancelled

        if isinstance(outcome, Cancelled):
            self._dialog().cancelled(_tr(str(IMPORT_CANCELLED)))
            return
        self._on_import_read(request, cancel, outcome)

    def check_against_mcp(self) -> McpCheckDialog | None:
        """Check the shown registry's live MCP server against a pinned version (Diff mode).

        The dialog starts from where the registry was pulled from (its ``mcp_source``);
        listing the server and comparing run in the worker with Cancel; the result
        opens in the Diff mode, pinned (A) against live (B).
        """
        from studio.mcp.mapping import SOURCE_KEY, target_from_source
        from studio.ui.dialogs.mcp_import_dialog import McpCheckDialog
        from studio.ui.diff.sides import available_sides

        w = self._w
        doc = w.current_document()
        if doc is None or self._still_running():
            return None
        registry = doc.name
        try:
            sides = [side for side in available_sides(w.store, registry) if side.kind != "draft"]
            settings = w.store.draft_registry(registry).settings
        except StoreError as exc:
            w.prompts.error(
                w,
                QCoreApplication.translate("RegistryOperations", "Cannot check"),
                f"{registry}: {exc}",
            )
            return None
        dialog = McpCheckDialog(registry, [side.label for side in sides], w)
        target = target_from_source(settings.extra.get(SOURCE_KEY))
        if target is not None:
            dialog.set_target(target)
        dialog.submitted.connect(lambda request: self._start_mcp_check(registry, sides, request))
        dialog.cancelRequested.connect(self._cancel)
        self.dialog = dialog
        dialog.open()
        return dialog

    def _start_mcp_check(self, registry: str, sides: list, request: McpCheckRequest) -> None:
        from studio.ui.mcp_import import StepRelay, check_job

        dialog = self._dialog()
        cancel = self._cancel_event = threading.Event()
        self._cancel_waits = False  # checking changes nothing
        relay = StepRelay(dialog)
        relay.step.connect(dialog.set_step)
        side = sides[request.pinned]
        store = self._w.store
        dialog.begin(
            QCoreApplication.translate(
                "RegistryOperations", "Checking {registry} against {target}…"
            ).format(registry=registry, target=request.target.label())
        )
        self.jobs.start(
            lambda _progress: check_job(store, registry, side, request, cancel, relay.step.emit),
            self._on_mcp_checked,
            self._on_job_failed,
        )

    def _on_mcp_checked(self, outcome: object) -> None:
        from studio.ui.mcp_import import DriftOutcome
        from studio.ui.registry_jobs import Cancelled, Refused

        w, dialog = self._w, self._dialog()
        if isinstance(outcome, Cancelled):
            dialog.cancelled(QCoreApplication.translate("RegistryOperations", "Check cancelled."))
            return
        if isinstance(outcome, Refused):
            dialog.fail(outcome.message)
            return
        assert isinstance(outcome, DriftOutcome)
        dialog.succeed()
        report = outcome.report
        if report.drifted:
            verdict = QCoreApplication.translate(
                "RegistryOperations", "DRIFT: {count} tool(s) differ from {pinned}: {tools}"
            ).format(
                count=len(report.changed_tools()),
                pinned=report.pinned_label,
                tools=", ".join(report.changed_tools()),
            )
        else:
            verdict = QCoreApplication.translate(
                "RegistryOperations", "No drift: the live server lists what {pinned} pinned"
            ).format(pinned=report.pinned_label)
        if report.security:
            verdict += QCoreApplication.translate(
                "RegistryOperations", " · {count} security finding(s) on the live descriptions"
            ).format(count=len(report.security))
        self.last_summary = verdict
        w.show_diff().show_drift(outcome.result, verdict)
        w.statusBar().showMessage(verdict, 8000)

    def _on_import_read(
        self,
        request: ImportRequest | McpImportRequest,
        cancel: threading.Event,
        outcome: ImportResult | Refused,
    ) -> None:
        from studio.ui.registry_jobs import OpenApiRead, Refused, store_import

        w, dialog = self._w, self._dialog()
        if isinstance(outcome, Refused):
            dialog.fail(outcome.message)
            return
        if isinstance(outcome, OpenApiRead):
            self._pick_openapi_operations(request, cancel, outcome)
            return
        registry = outcome.registry
        exists = registry.name in self._names()
        if exists and not request.replace_draft:
            dialog.fail(
                QCoreApplication.translate(
                    "RegistryOperations",
                    "A registry named {name!r} already exists. Tick 'Replace its draft' "
                    "to replace its draft (published versions are kept), or enter another "
                    "registry name.",
                ).format(name=registry.name)
            )
            return
        open_draft = w.draft_document(registry.name)
        unsaved = exists and open_draft is not None and open_draft.is_dirty
        if unsaved and not w.prompts.replace_unsaved_draft(dialog, registry.name):
            dialog.cancelled(
                QCoreApplication.translate(
                    "RegistryOperations",
                    "Nothing imported: the unsaved changes of {name} are kept. Save "
                    "them first, or import under another registry name.",
                ).format(name=registry.name)
            )
            return
        if cancel.is_set():
            dialog.cancelled(_tr(str(IMPORT_CANCELLED)))
            return
        count = len(registry.tools)
        storing = (
            _tr("Storing 1 tool in {name}…")
            if count == 1
            else _tr("Storing {count} tools in {name}…")
        )
        dialog.set_step(storing.format(count=f"{count:,}", name=registry.name))
        self._cancel_waits = True  # the transaction rolls back in the worker
        store = w.store
        # The HTTP targets of an OpenAPI import are stored in the same transaction.
        openapi = self._openapi if self._openapi and self._openapi.result is outcome else None

        def store_job(progress: ProgressCallback) -> RegistryInfo | Refused | Cancelled:
            return store_import(store, registry, replace_draft=exists, cancel=cancel,
                                progress=progress, openapi=openapi)  # fmt: skip

        self.jobs.start(
            store_job,
            lambda stored: self._on_import_stored(request, outcome, exists, stored),
            self._on_job_failed,
            dialog.set_progress,
        )

    def _pick_openapi_operations(
        self,
        request: ImportRequest | McpImportRequest,
        cancel: threading.Event,
        read: OpenApiRead,
    ) -> None:
        """Ask which operations to import, then build their contracts and targets (worker)."""
        from studio.ui.registry_jobs import Refused, import_openapi_job

        w, dialog = self._w, self._dialog()
        options = w.prompts.choose_openapi_operations(dialog, read.document, read.source)
        if options is None or cancel.is_set():
            dialog.cancelled(_tr("Nothing imported: no operations were chosen."))
            return
        count = len(options.operations or ())
        dialog.set_step(
            (
                _tr("Building 1 contract…") if count == 1 else _tr("Building {count} contracts…")
            ).format(count=f"{count:,}")
        )

        def built(outcome: OpenApiImport | Refused) -> None:
            if isinstance(outcome, Refused):
                self._on_import_read(request, cancel, outcome)
                return
            self._openapi = outcome
            self._on_import_read(request, cancel, outcome.result)

        self.jobs.start(
            lambda _progress: import_openapi_job(read, options), built, self._on_job_failed
        )

    def _on_import_stored(
        self,
        request: ImportRequest | McpImportRequest,
        result: ImportResult,
        replaced: bool,
        stored: RegistryInfo | Refused | Cancelled,
    ) -> None:
        from studio.ui.registry_jobs import Cancelled, Refused

        w, dialog = self._w, self._dialog()
        self._cancel_waits = False
        if isinstance(stored, Cancelled):
            dialog.cancelled(_tr(str(IMPORT_CANCELLED)))
            return
        if isinstance(stored, Refused):
            dialog.fail(_tr("Nothing imported: {message}").format(message=stored.message))
            return
        dialog.succeed()
        registry = result.registry
        w.refresh_registries()
        if w.draft_document(registry.name) is not None:
            w.reload_document(registry.name)
        else:
            w.open_registry(registry.name)
        count = len(registry.tools)
        if replaced:
            template = (
                _tr("Replaced the draft of {name}: 1 tool from {source} ({format}).")
                if count == 1
                else _tr("Replaced the draft of {name}: {count} tools from {source} ({format}).")
            )
        else:
            template = (
                _tr("Imported {name}: 1 tool from {source} ({format}).")
                if count == 1
                else _tr("Imported {name}: {count} tools from {source} ({format}).")
            )
        summary = template.format(
            name=registry.name, count=count, source=_source(request), format=result.format
        )
        w.statusBar().showMessage(summary, 5000)
        self.last_summary = summary
        w.prompts.show_notes(w, _tr("Import finished"), summary, result.notes)

    # ------------------------------------------------------------------ export

    def export_registry(self) -> ExportDialog | None:
        """Open the export dialog for the shown registry (window-modal, not blocking).

        Loading a stored source, rendering and writing run in the worker with
        progress and Cancel; refusals show in the dialog.
        """
        w = self._w
        doc = w.current_document()
        if doc is None or self._still_running():  # (a running job may hold the store)
            return None
        name = doc.name
        draft = w.draft_document(name)
        try:
            versions = [v.number for v in w.store.list_versions(name)]
        except StoreError:
            versions = []
        from studio.ui.dialogs.export_dialog import ExportContext, ExportDialog

        context = ExportContext(
            name, versions, doc.workspace.read_only_version, draft is not None and draft.is_dirty
        )
        dialog = ExportDialog(context, w)
        dialog.submitted.connect(lambda request: self._start_export(name, request))
        dialog.cancelRequested.connect(self._cancel)
        self.dialog = dialog
        dialog.open()
        return dialog

    def _start_export(self, name: str, request: ExportRequest) -> None:
        from studio.ui.registry_jobs import write_export_job

        dialog = self._dialog()
        cancel = self._cancel_event = threading.Event()
        self._cancel_waits = True  # the worker may be writing: Cancel waits for its word
        load = self._export_source(name, request.source)
        what = _export_what(request.source)
        dialog.begin(
            _tr("Exporting {what} of {name} as {format}…").format(
                what=what, name=name, format=request.format
            )
        )
        self.jobs.start(
            lambda _progress: write_export_job(load, request.format, request.destination, cancel),
            lambda outcome: self._on_exported(name, request, outcome),
            self._on_job_failed,
        )

    def _on_exported(
        self, name: str, request: ExportRequest, outcome: ExportResult | Refused | Cancelled
    ) -> None:
        from studio.ui.registry_jobs import Cancelled, Refused

        w, dialog = self._w, self._dialog()
        self._cancel_waits = False
        if isinstance(outcome, Cancelled):
            dialog.cancelled(_tr("Export cancelled; nothing was written."))
            return
        if isinstance(outcome, Refused):
            dialog.fail(_tr("Not exported: {message}").format(message=outcome.message))
            return
        dialog.succeed()
        summary = _tr("Exported {what} of {name} as {format} to {destination}.").format(
            what=_export_what(request.source),
            name=name,
            format=request.format,
            destination=request.destination,
        )
        w.statusBar().showMessage(summary, 5000)
        self.last_summary = summary
        w.prompts.show_notes(w, _tr("Export finished"), summary, outcome.notes)

    def _export_source(self, name: str, source: int | None) -> Callable[[], Registry]:
        """What to export: a snapshot of what is shown, else a read of the store (in the worker)."""
        w, store = self._w, self._w.store
        if source is None:
            draft = w.draft_document(name)
            if draft is not None:
                # The working copy as shown, unsaved changes included.
                shown = draft.workspace.registry()
                return lambda: shown
            return lambda: store.draft_registry(name)
        doc = w.documents.get(f"{name}@{source}")
        if doc is not None:
            version = doc.workspace.registry()
            return lambda: version
        return lambda: store.load_version(name, source).registry

    # ------------------------------------------------------------------ the job

    def _dialog(self) -> JobDialog:
        assert self.dialog is not None
        return self.dialog

    def _still_running(self) -> bool:
        """True (and its dialog raised) while an import or export runs; else forget the last."""
        dialog = self.dialog
        if dialog is not None and dialog.running:
            dialog.raise_()
            dialog.activateWindow()
            return True
        if dialog is not None:
            dialog.deleteLater()
        self.dialog = None
        return False

    def _cancel(self) -> None:
        """Cancel pressed while a job runs: stop it, and say so once nothing was changed."""
        dialog = self._dialog()
        if self._cancel_event is None or not dialog.running:
            return
        self._cancel_event.set()
        if not self.jobs.busy:
            return  # between two jobs: the next one sees the flag and changes nothing
        if self._cancel_waits:
            # Storing rolls back (or writing stops) in the worker: wait for its word.
            dialog.cancelling()
        else:
            # Reading changes nothing: leave it to finish unheard.
            self.jobs.drop()
            dialog.cancelled(_tr(str(IMPORT_CANCELLED)))

    def _on_job_failed(self, message: str) -> None:
        # A bug, not bad input: the job logged the traceback; the dialog gets one line.
        self._cancel_waits = False
        self._dialog().fail(
            _tr("Stopped by an unexpected error: {message}\n\nThe log has details.").format(
                message=message
            )
        )

    def shutdown(self) -> None:
        """Stop a running import or export and wait for the worker (closing the window)."""
        if self._cancel_event is not None:
            self._cancel_event.set()
        if self._jobs is not None:  # never started: nothing to stop
            self._jobs.drop()
            self._jobs.wait()

    def registry_settings(self) -> bool:
        """Edit the shown registry's metadata and settings; True when saved."""
        from studio.contract.document import provider_settings
        from studio.ui.dialogs.registry_settings_dialog import (
            RegistrySettingsRequest,
            settings_with_provider,
        )

        w = self._w
        doc = w.current_document()
        if doc is None or doc.read_only:
            return False
        try:
            info = w.store.get_registry(doc.name)
        except StoreError as exc:
            w.prompts.error(w, _tr("Cannot open settings"), f"{doc.name}: {exc}")
            return False
        current = RegistrySettingsRequest(
            info.title,
            info.description,
            info.settings.verbs,
            info.settings.description_template,
            provider_settings(info.settings),
        )
        request = w.prompts.registry_settings(w, doc.name, current, w.selected_tool())
        if request is None or request == current:
            return False
        # Only the fields of the dialog change; ``extra`` (lint config…) is kept as stored.
        settings = dataclasses.replace(
            info.settings, verbs=request.verbs, description_template=request.description_template
        )
        settings = settings_with_provider(settings, request.provider)
        try:
            saved = w.store.update_registry_meta(
                doc.name,
                base_revision=info.draft_revision,
                title=request.title,
                description=request.description,
                settings=settings,
            )
        except ConflictError as exc:
            w.prompts.error(
                w,
                _tr("Settings not saved"),
                _tr(
                    "{name} was changed elsewhere while the dialog was open ({error}). "
                    "Nothing was overwritten; open Registry settings again to see what is stored."
                ).format(name=doc.name, error=exc),
            )
            return False
        except StoreError as exc:
            w.prompts.error(w, _tr("Settings not saved"), f"{doc.name}: {exc}")
            return False
        ws = doc.workspace
        ws.title, ws.description, ws.settings = saved.title, saved.description, saved.settings
        w.preview.set_tool(w.selected_tool(), ws.settings)
        # Verbs and the template feed lint rules: re-check with the new settings.
        w.lint_ops.run_lint()
        w.refresh_registries()
        w.statusBar().showMessage(
            QCoreApplication.translate("RegistryOperations", "Saved the settings of {name}").format(
                name=doc.name
            ),
            3000,
        )
        return True

    def delete_registry(self) -> bool:
        """Delete the shown registry after confirmation; refused once it has versions."""
        w = self._w
        doc = w.current_document()
        if doc is None:
            return False
        name = doc.name
        try:
            info = w.store.get_registry(name)
        except StoreError as exc:
            w.prompts.error(w, _tr("Not deleted"), f"{name}: {exc}")
            return False
        if info.version_count:
            w.prompts.error(w, _tr("Not deleted"), _has_versions(name, info.version_count))
            return False
        draft = w.draft_document(name)
        unsaved = draft is not None and draft.is_dirty
        if not w.prompts.confirm_delete_registry(w, name, info.tool_count, unsaved):
            return False
        try:
            w.store.delete_registry(name)
        except RegistryHasVersionsError as exc:  # published meanwhile, e.g. from the CLI
            w.prompts.error(w, _tr("Not deleted"), _has_versions(name, exc.version_count))
            return False
        except StoreError as exc:
            w.prompts.error(w, _tr("Not deleted"), f"{name}: {exc}")
            return False
        w.close_registry(name)
        w.refresh_registries()
        remaining = w.registry_model.registries()
        if remaining:
            w.open_registry(remaining[0].name)
        w.statusBar().showMessage(
            QCoreApplication.translate("RegistryOperations", "Deleted {name}").format(name=name),
            3000,
        )
        return True


def _has_versions(name: str, count: int) -> str:
    head = (
        _tr("{name} has 1 published version.")
        if count == 1
        else _tr("{name} has {count} published versions.")
    )
    return (
        head.format(name=name, count=count)
        + " "
        + _tr("Published versions are immutable, so a registry that has them cannot be deleted.")
    )


def _export_what(source: int | None) -> str:
    """``the draft`` or ``version 3``: what an export writes, for its messages."""
    if source is None:
        return _tr("the draft")
    return _tr("version {number}").format(number=source)


def _source(request: ImportRequest | McpImportRequest) -> str:
    """How an import's summary names where the tools came from."""
    from studio.ui.dialogs.import_dialog import ImportRequest

    if isinstance(request, ImportRequest):
        return request.path.name
    return request.source_label
