"""Shared setup of the registry command tests: scripted prompts and the import/export dialogs.

Import and export open their real dialogs (window-modal, not blocking); these
helpers fill them in, press the button and wait for the worker.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator, Sequence
from pathlib import Path

from PySide6.QtWidgets import QWidget

from registry_db import RegistryStore
from studio.formats import Note
from studio.ui.dialogs.export_dialog import ExportDialog
from studio.ui.dialogs.import_dialog import ImportDialog
from studio.ui.dialogs.new_registry_dialog import NewRegistryRequest
from studio.ui.main_window import MainWindow, Prompts

WAIT_MS = 20_000


class ScriptedPrompts(Prompts):
    """Answers set by the test; records what was asked."""

    def __init__(self) -> None:
        self.new_request: NewRegistryRequest | None = None
        self.settings_answer: object = None  # callable(current, sample) -> request | None
        self.confirm_delete = True
        self.replace_unsaved = True
        self.asked: list[tuple[str, object]] = []
        self.errors: list[str] = []
        self.notes: list[tuple[str, list[Note]]] = []

    def unsaved_changes(self, parent: QWidget, names: Sequence[str]) -> str:
        return "discard"

    def new_registry(self, parent: QWidget, existing: Sequence[str]) -> NewRegistryRequest | None:
        self.asked.append(("new_registry", list(existing)))
        return self.new_request

    def registry_settings(self, parent, registry, current, sample):
        self.asked.append(("settings", (current, sample)))
        return self.settings_answer(current, sample) if self.settings_answer else None

    def confirm_delete_registry(self, parent, registry, tool_count, unsaved) -> bool:
        self.asked.append(("delete", (registry, tool_count, unsaved)))
        return self.confirm_delete

    def replace_unsaved_draft(self, parent: QWidget, registry: str) -> bool:
        self.asked.append(("replace_unsaved", registry))
        return self.replace_unsaved

    def show_notes(self, parent: QWidget, title: str, summary: str, notes: Sequence[Note]) -> None:
        self.notes.append((summary, list(notes)))

    def error(self, parent: QWidget, title: str, text: str) -> None:
        self.errors.append(f"{title}: {text}")


def fill_import(
    window: MainWindow, path: Path, fmt: str = "auto", name: str = "", replace: bool = False
) -> ImportDialog:
    """Open the import dialog and fill it in (Import not pressed yet)."""
    dialog = window.registry_ops.import_tools()
    assert dialog.isVisible() and dialog.isModal()
    dialog.path_edit.setText(str(path))
    dialog.set_format(fmt)
    dialog.name_edit.setText(name)
    dialog.replace_check.setChecked(replace)
    assert dialog.ok_button.isEnabled(), dialog.problem_label.text()
    return dialog


def run_import(
    qtbot,
    window: MainWindow,
    path: Path,
    fmt: str = "auto",
    name: str = "",
    replace: bool = False,
) -> ImportDialog:
    """Fill the import dialog, press Import and wait until the import ended."""
    dialog = fill_import(window, path, fmt, name, replace)
    dialog.ok_button.click()
    qtbot.waitUntil(lambda: not dialog.running, timeout=WAIT_MS)
    return dialog


def fill_export(window: MainWindow, source: int | None, fmt: str, out: Path) -> ExportDialog:
    """Open the export dialog for the shown registry and fill it in."""
    dialog = window.registry_ops.export_registry()
    assert dialog is not None and dialog.isVisible()
    dialog.set_source(source)
    dialog.set_format(fmt)
    dialog.destination_edit.setText(str(out))
    return dialog


def run_export(qtbot, window: MainWindow, source: int | None, fmt: str, out: Path) -> ExportDialog:
    """Fill the export dialog, press Export (when enabled) and wait until it ended."""
    dialog = fill_export(window, source, fmt, out)
    if dialog.ok_button.isEnabled():
        dialog.ok_button.click()
        qtbot.waitUntil(lambda: not dialog.running, timeout=WAIT_MS)
    return dialog


def problems_shown(dialog: ImportDialog | ExportDialog) -> str:
    """The refusal the dialog shows ("" when none)."""
    report = dialog.job_panel.report
    return report.toPlainText() if report.isVisibleTo(dialog) else ""


def openai_tools(count: int) -> list[dict]:
    """``count`` OpenAI function tools with descriptions and a few typed parameters."""
    categories = ["taxi", "hotel", "train", "flight"]
    return [
        {
            "type": "function",
            "function": {
                "name": f"query_invoices_{i}",
                "description": f"Find invoices of batch {i} by date range and category. "
                "Dates are YYYY-MM-DD; the span is at most 31 days.",
                "parameters": {
                    "type": "object",
                    "properties": {
                        "start_date": {"type": "string", "description": "First day, YYYY-MM-DD"},
                        "end_date": {"type": "string", "description": "Last day, YYYY-MM-DD"},
                        "category": {"type": "string", "enum": categories},
                        "limit": {"type": "integer", "minimum": 1, "maximum": 100},
                    },
                    "required": ["start_date", "end_date"],
                },
            },
        }
        for i in range(count)
    ]


def write_openai_file(path: Path, count: int) -> Path:
    path.write_text(json.dumps(openai_tools(count)), "utf-8")
    return path


@contextlib.contextmanager
def shown_window(
    qtbot, store: RegistryStore, size: tuple[int, int] | None = (1280, 800)
) -> Iterator[MainWindow]:
    """A main window on ``store`` with scripted prompts, shown at ``size``; jobs stopped after."""
    window = MainWindow(store, ScriptedPrompts())
    qtbot.addWidget(window)
    if size is not None:
        window.resize(*size)
    window.show()
    try:
        yield window
    finally:
        window.registry_ops.shutdown()
