"""Registry-level commands of the main window: new, import, export, settings, delete.

These mirror ``studio import`` / ``studio export`` (DESIGN §8: everything works
from the GUI too). Every question goes through :class:`RegistryPrompts`, which
the window's ``Prompts`` extends, so tests answer with plain data.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QDialog, QMessageBox, QWidget

from registry_db import (
    ConflictError,
    RegistryHasVersionsError,
    StoreError,
)
from studio.contract import Registry, ToolContract
from studio.formats import FormatError, Note, export_registry, import_path, write_export
from studio.ui.dialogs.export_dialog import ExportContext, ExportDialog, ExportRequest
from studio.ui.dialogs.import_dialog import ImportDialog, ImportRequest
from studio.ui.dialogs.new_registry_dialog import NewRegistryDialog, NewRegistryRequest
from studio.ui.dialogs.notes_dialog import NotesDialog
from studio.ui.dialogs.registry_settings_dialog import (
    RegistrySettingsDialog,
    RegistrySettingsRequest,
)

if TYPE_CHECKING:
    from studio.ui.main_window import MainWindow

# A FormatError may carry thousands of problems; the message lists this many.
MAX_PROBLEMS_SHOWN = 30


class RegistryPrompts:
    """The registry-level questions; each is modal and returns plain data (None = cancelled)."""

    def new_registry(self, parent: QWidget, existing: Sequence[str]) -> NewRegistryRequest | None:
        dialog = NewRegistryDialog(existing, parent)
        return dialog.request() if dialog.exec() == QDialog.DialogCode.Accepted else None

    def choose_import(self, parent: QWidget, existing: Sequence[str]) -> ImportRequest | None:
        dialog = ImportDialog(existing, parent)
        return dialog.request() if dialog.exec() == QDialog.DialogCode.Accepted else None

    def choose_export(self, parent: QWidget, context: ExportContext) -> ExportRequest | None:
        dialog = ExportDialog(context, parent)
        return dialog.request() if dialog.exec() == QDialog.DialogCode.Accepted else None

    def registry_settings(
        self,
        parent: QWidget,
        registry: str,
        current: RegistrySettingsRequest,
        sample: ToolContract | None,
    ) -> RegistrySettingsRequest | None:
        dialog = RegistrySettingsDialog(registry, current, sample, parent)
        return dialog.request() if dialog.exec() == QDialog.DialogCode.Accepted else None

    def confirm_delete_registry(
        self, parent: QWidget, registry: str, tool_count: int, unsaved: bool
    ) -> bool:
        lost = " Its unsaved changes are lost too." if unsaved else ""
        answer = QMessageBox.warning(
            parent,
            "Delete registry",
            f"Delete {registry} and its draft of {tool_count} tools? This cannot be undone.{lost}",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Cancel,
        )
        return answer == QMessageBox.StandardButton.Yes

    def replace_unsaved_draft(self, parent: QWidget, registry: str) -> bool:
        answer = QMessageBox.warning(
            parent,
            "Replace the draft",
            f"{registry} has unsaved changes. The import replaces its draft, and your "
            "unsaved changes are lost. Import anyway?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Cancel,
        )
        return answer == QMessageBox.StandardButton.Yes

    def show_notes(self, parent: QWidget, title: str, summary: str, notes: Sequence[Note]) -> None:
        NotesDialog(title, summary, notes, parent).exec()


def format_error_text(source: str, exc: FormatError) -> str:
    """A FormatError as a message: every located problem on its own line."""
    head = f"{source} was not imported; nothing was changed."
    if not exc.problems:
        return f"{head}\n\n{exc}"
    lines = [f"• {p}" for p in exc.problems[:MAX_PROBLEMS_SHOWN]]
    more = len(exc.problems) - MAX_PROBLEMS_SHOWN
    if more > 0:
        lines.append(f"… and {more} more")
    return f"{head}\n\n" + "\n".join(lines)


class RegistryOperations:
    """Runs the registry-level commands against the window's store and documents.

    Args:
        window: The main window (its store, prompts and open documents).
    """

    def __init__(self, window: MainWindow) -> None:
        self._w = window

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
            w.prompts.error(w, "Registry not created", f"{request.name}: {exc}")
            return None
        w.refresh_registries()
        w.open_registry(request.name)
        w.statusBar().showMessage(f"Created {request.name}", 3000)
        return request.name

    def import_tools(self) -> str | None:
        """Ask for a file or folder and import it; the registry's name, or None."""
        w = self._w
        request = w.prompts.choose_import(w, self._names())
        if request is None:
            return None
        try:
            result = import_path(request.path, request.format, name=request.name)
        except FormatError as exc:
            w.prompts.error(w, "Nothing imported", format_error_text(request.path.name, exc))
            return None
        registry = result.registry
        exists = registry.name in self._names()
        if exists and not request.replace_draft:
            w.prompts.error(
                w,
                "Nothing imported",
                f"A registry named {registry.name!r} already exists. Tick 'Replace its draft' "
                "to replace its draft (published versions are kept), or enter another "
                "registry name.",
            )
            return None
        open_draft = w.draft_document(registry.name)
        unsaved = exists and open_draft is not None and open_draft.is_dirty
        if unsaved and not w.prompts.replace_unsaved_draft(w, registry.name):
            return None
        try:
            w.store.import_registry(registry, replace_draft=exists)
        except StoreError as exc:
            w.prompts.error(w, "Nothing imported", f"{registry.name}: {exc}")
            return None
        w.refresh_registries()
        if open_draft is not None:
            w.reload_document(registry.name)
        else:
            w.open_registry(registry.name)
        verb = "Replaced the draft of" if exists else "Imported"
        count = len(registry.tools)
        summary = (
            f"{verb} {registry.name}: {count} tool{'s' if count != 1 else ''} "
            f"from {request.path.name} ({result.format})."
        )
        w.statusBar().showMessage(summary, 5000)
        w.prompts.show_notes(w, "Import finished", summary, result.notes)
        return registry.name

    def export_registry(self) -> ExportRequest | None:
        """Ask what and where, and write the export; the request, or None."""
        w = self._w
        doc = w.current_document()
        if doc is None:
            return None
        name = doc.name
        draft = w.draft_document(name)
        try:
            versions = [v.number for v in w.store.list_versions(name)]
        except StoreError:
            versions = []
        context = ExportContext(
            name, versions, doc.workspace.read_only_version, draft is not None and draft.is_dirty
        )
        request = w.prompts.choose_export(w, context)
        if request is None:
            return None
        try:
            registry = self._export_source(name, request.source)
            result = export_registry(registry, request.format)
            write_export(result, request.destination)
        except (StoreError, FormatError, OSError) as exc:
            w.prompts.error(w, "Not exported", f"{request.destination}: {exc}")
            return None
        what = "the draft" if request.source is None else f"version {request.source}"
        summary = f"Exported {what} of {name} as {request.format} to {request.destination}."
        w.statusBar().showMessage(summary, 5000)
        w.prompts.show_notes(w, "Export finished", summary, result.notes)
        return request

    def _export_source(self, name: str, source: int | None) -> Registry:
        w = self._w
        if source is None:
            draft = w.draft_document(name)
            # The working copy as shown, unsaved changes included.
            return draft.workspace.registry() if draft else w.store.draft_registry(name)
        shown = w.documents.get(f"{name}@{source}")
        return shown.workspace.registry() if shown else w.store.load_version(name, source).registry

    def registry_settings(self) -> bool:
        """Edit the shown registry's metadata and settings; True when saved."""
        w = self._w
        doc = w.current_document()
        if doc is None or doc.read_only:
            return False
        try:
            info = w.store.get_registry(doc.name)
        except StoreError as exc:
            w.prompts.error(w, "Cannot open settings", f"{doc.name}: {exc}")
            return False
        current = RegistrySettingsRequest(
            info.title,
            info.description,
            info.settings.verbs,
            info.settings.description_template,
        )
        request = w.prompts.registry_settings(w, doc.name, current, w.selected_tool())
        if request is None or request == current:
            return False
        # Only the fields of the dialog change; ``extra`` (lint config…) is kept as stored.
        settings = dataclasses.replace(
            info.settings, verbs=request.verbs, description_template=request.description_template
        )
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
                "Settings not saved",
                f"{doc.name} was changed elsewhere while the dialog was open ({exc}). "
                "Nothing was overwritten; open Registry settings again to see what is stored.",
            )
            return False
        except StoreError as exc:
            w.prompts.error(w, "Settings not saved", f"{doc.name}: {exc}")
            return False
        ws = doc.workspace
        ws.title, ws.description, ws.settings = saved.title, saved.description, saved.settings
        w.preview.set_tool(w.selected_tool(), ws.settings)
        # Verbs and the template feed lint rules: re-check with the new settings.
        w.lint_ops.run_lint()
        w.refresh_registries()
        w.statusBar().showMessage(f"Saved the settings of {doc.name}", 3000)
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
            w.prompts.error(w, "Not deleted", f"{name}: {exc}")
            return False
        if info.version_count:
            w.prompts.error(w, "Not deleted", _has_versions(name, info.version_count))
            return False
        draft = w.draft_document(name)
        unsaved = draft is not None and draft.is_dirty
        if not w.prompts.confirm_delete_registry(w, name, info.tool_count, unsaved):
            return False
        try:
            w.store.delete_registry(name)
        except RegistryHasVersionsError as exc:  # published meanwhile, e.g. from the CLI
            w.prompts.error(w, "Not deleted", _has_versions(name, exc.version_count))
            return False
        except StoreError as exc:
            w.prompts.error(w, "Not deleted", f"{name}: {exc}")
            return False
        w.close_registry(name)
        w.refresh_registries()
        remaining = w.registry_model.registries()
        if remaining:
            w.open_registry(remaining[0].name)
        w.statusBar().showMessage(f"Deleted {name}", 3000)
        return True


def _has_versions(name: str, count: int) -> str:
    return (
        f"{name} has {count} published version{'s' if count != 1 else ''}. Published "
        "versions are immutable, so a registry that has them cannot be deleted."
    )
