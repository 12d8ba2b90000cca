"""Asks what to export (the draft or a version), in which format, and where to write it.

The dialog stays open while the export is rendered and written in the worker
(see :class:`~studio.ui.registry_jobs.JobDialog`): Export emits ``submitted``,
progress and any refusal show in the dialog, and Cancel stops the export
before anything is written.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QWidget,
)

from studio.formats import FORMAT_NAMES
from studio.ui.dialogs.new_registry_dialog import ERROR_STYLE
from studio.ui.registry_jobs import JobDialog

FOLDER_FORMAT = "dir"


@dataclass(frozen=True)
class ExportContext:
    """What the dialog offers.

    Attributes:
        registry: The registry's name.
        versions: Published version numbers, oldest first.
        source: The preselected source: a version number, or None for the draft.
        draft_dirty: Whether the open draft has unsaved changes (they are exported).
    """

    registry: str
    versions: Sequence[int] = field(default_factory=tuple)
    source: int | None = None
    draft_dirty: bool = False


@dataclass(frozen=True)
class ExportRequest:
    """What to export and where; mirrors ``studio export``.

    Attributes:
        source: A version number, or None for the draft (the working copy as shown).
        format: One of :data:`studio.formats.FORMAT_NAMES`.
        destination: The file to write, or the folder for ``dir``.
    """

    source: int | None
    format: str
    destination: Path


def export_problem(destination: str, fmt: str) -> str | None:
    """Why the export cannot be written to ``destination``, or None."""
    if not destination.strip():
        return QCoreApplication.translate("ExportDialog", "Choose where to write the export.")
    path = Path(destination.strip()).expanduser()
    if fmt == FOLDER_FORMAT and path.exists() and not path.is_dir():
        return QCoreApplication.translate(
            "ExportDialog", "{name} is a file; the 'dir' format writes a folder."
        ).format(name=path.name)
    if fmt != FOLDER_FORMAT and path.is_dir():
        return QCoreApplication.translate(
            "ExportDialog", "{name} is a folder; the {format!r} format writes one file."
        ).format(name=path.name, format=fmt)
    return None


def suggested_file_name(registry: str, fmt: str) -> str:
    """A default file (or folder) name for exporting ``registry`` as ``fmt``."""
    if fmt == FOLDER_FORMAT:
        return registry
    if fmt == "studio":
        return f"{registry}.json"
    return f"{registry}.{fmt}.json"


class ExportDialog(JobDialog):
    """Collects an :class:`ExportRequest` and shows the export running.

    Args:
        context: The registry, its versions and the preselected source.
        parent: The owning window.

    Signals:
        submitted(ExportRequest): Export was pressed with a valid request.
        cancelRequested: Cancel (or Esc) was pressed while the export runs.
    """

    def __init__(self, context: ExportContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Export {registry}").format(registry=context.registry))
        self._context = context

        self.source_combo = QComboBox()
        draft = self.tr("Draft (the working copy as shown)")
        self.source_combo.addItem(draft, None)
        for number in reversed(list(context.versions)):
            self.source_combo.addItem(
                self.tr("Version {number} (published)").format(number=number), number
            )
        self.source_combo.setCurrentIndex(max(0, self.source_combo.findData(context.source)))
        self.source_note = QLabel()
        self.source_note.setWordWrap(True)

        self.format_combo = QComboBox()
        for fmt in FORMAT_NAMES:
            label = self.tr("dir (registry-as-code folder)") if fmt == FOLDER_FORMAT else fmt
            self.format_combo.addItem(label, fmt)
        self.format_combo.setCurrentIndex(max(0, self.format_combo.findData("openai")))

        self.destination_edit = QLineEdit()
        self.browse_button = QPushButton(self.tr("Browse…"))
        dest_row = QHBoxLayout()
        dest_row.addWidget(self.destination_edit, 1)
        dest_row.addWidget(self.browse_button)
        form = QFormLayout()
        form.addRow(self.tr("&Export:"), self.source_combo)
        form.addRow("", self.source_note)
        form.addRow(self.tr("&Format:"), self.format_combo)
        dest_label = QLabel(self.tr("&Destination:"))
        dest_label.setBuddy(self.destination_edit)  # a layout cannot be a buddy by itself
        form.addRow(dest_label, dest_row)

        self._lay_out(self.tr("Export"), form)

        self.source_combo.currentIndexChanged.connect(self._update_source_note)
        self.format_combo.currentIndexChanged.connect(self._on_format_changed)
        self.destination_edit.textChanged.connect(self._on_edited)
        self.browse_button.clicked.connect(self._browse)
        self._on_format_changed()
        self._update_source_note()
        self.resize(560, 260)

    def set_format(self, fmt: str) -> None:
        self.format_combo.setCurrentIndex(max(0, self.format_combo.findData(fmt)))

    def set_source(self, source: int | None) -> None:
        self.source_combo.setCurrentIndex(max(0, self.source_combo.findData(source)))

    def problem(self) -> str | None:
        return export_problem(self.destination_edit.text(), self.format_combo.currentData())

    def request(self) -> ExportRequest:
        return ExportRequest(
            self.source_combo.currentData(),
            self.format_combo.currentData(),
            Path(self.destination_edit.text().strip()).expanduser(),
        )

    def inputs(self) -> list[QWidget]:
        return [self.source_combo, self.format_combo, self.destination_edit, self.browse_button]

    def _update_source_note(self) -> None:
        self.job_panel.clear()
        source = self.source_combo.currentData()
        if source is not None:
            text = self.tr("Exactly the published snapshot of version {source}.").format(
                source=source
            )
        elif self._context.draft_dirty:
            text = self.tr(
                "Your unsaved changes are included: the working copy is exported as shown."
            )
        else:
            text = self.tr("The saved draft (there are no unsaved changes).")
        self.source_note.setText(text)

    def _on_format_changed(self) -> None:
        folder = self.format_combo.currentData() == FOLDER_FORMAT
        self.destination_edit.setPlaceholderText(
            self.tr("an empty folder, or an earlier export of this registry")
            if folder
            else self.tr("a .json file")
        )
        self._on_edited()

    def _validate(self) -> None:
        if self.running:
            return
        problem = self.problem()
        typed = self.destination_edit.text().strip()
        if problem and typed:
            self.problem_label.setStyleSheet(ERROR_STYLE)
            self.problem_label.setText(problem)
        elif typed and self.format_combo.currentData() != FOLDER_FORMAT:
            exists = Path(typed).expanduser().exists()
            self.problem_label.setStyleSheet("")
            self.problem_label.setText(
                self.tr("The file exists and will be overwritten.") if exists else ""
            )
        else:
            self.problem_label.setText("")
        self.problem_label.setVisible(bool(self.problem_label.text()))
        self.ok_button.setEnabled(problem is None)

    def _browse(self) -> None:
        fmt = self.format_combo.currentData()
        current = self.destination_edit.text().strip()
        start = current or str(Path.home() / suggested_file_name(self._context.registry, fmt))
        if fmt == FOLDER_FORMAT:
            path = QFileDialog.getExistingDirectory(self, self.tr("Export into a folder"), start)
        else:
            path, _ = QFileDialog.getSaveFileName(
                self, self.tr("Export to a file"), start, self.tr("JSON (*.json);;All files (*)")
            )
        if path:
            self.destination_edit.setText(path)
