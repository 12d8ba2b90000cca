"""Asks what to import (a file or a registry folder), in which format and under which name.

The dialog stays open while the import runs in the worker (see
:class:`~studio.ui.registry_jobs.JobDialog`): Import emits ``submitted``, progress
and any refusal (what and where) show in the dialog, and Cancel stops the import.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QWidget,
)

from studio.formats import FORMAT_NAMES, IMPORT_ONLY_FORMATS
from studio.ui.dialogs.new_registry_dialog import ERROR_STYLE, registry_name_problem
from studio.ui.registry_jobs import JobDialog

AUTO = "auto"
IMPORT_FORMATS: tuple[str, ...] = (AUTO, *FORMAT_NAMES, *IMPORT_ONLY_FORMATS)


@dataclass(frozen=True)
class ImportRequest:
    """What to import and how; mirrors ``studio import``.

    Attributes:
        path: The file, or the registry folder (format ``dir``).
        format: ``auto`` or one of :data:`studio.formats.FORMAT_NAMES`.
        name: Registry name; None takes the name from the file.
        replace_draft: Replace the draft when the registry exists (``--replace-draft``).
    """

    path: Path
    format: str = AUTO
    name: str | None = None
    replace_draft: bool = False


def import_problem(
    path_text: str, fmt: str, name: str, replace_draft: bool, existing: Collection[str]
) -> str | None:
    """Why the entered import cannot start, or None.

    Args:
        path_text: The path as typed.
        fmt: The chosen format.
        name: The typed registry name ("" for the name in the file).
        replace_draft: Whether the draft of an existing registry may be replaced.
        existing: Names of the registries that exist.
    """
    if not path_text.strip():
        return QCoreApplication.translate("ImportDialog", "Choose a file or a folder to import.")
    path = Path(path_text.strip()).expanduser()
    if not path.exists():
        return QCoreApplication.translate("ImportDialog", "{path}: no such file or folder.").format(
            path=path
        )
    if path.is_dir() and fmt not in (AUTO, "dir"):
        return QCoreApplication.translate(
            "ImportDialog", "{name} is a folder; only the 'dir' format (or auto) reads folders."
        ).format(name=path.name)
    if not path.is_dir() and fmt == "dir":
        return QCoreApplication.translate(
            "ImportDialog", "The 'dir' format reads a registry folder, not a file."
        )
    if name:
        problem = registry_name_problem(name)
        if problem:
            return problem
        if name in existing and not replace_draft:
            return QCoreApplication.translate(
                "ImportDialog",
                "A registry named {name!r} already exists: tick 'Replace its draft' "
                "or enter another name.",
            ).format(name=name)
    return None


class ImportDialog(JobDialog):
    """Collects an :class:`ImportRequest` and shows the import running; Import stays
    disabled while it would be refused.

    Args:
        existing: Names of the registries that exist.
        parent: The owning window.

    Signals:
        submitted(ImportRequest): Import was pressed with a valid request.
        cancelRequested: Cancel (or Esc) was pressed while the import runs.
    """

    def __init__(self, existing: Collection[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Import tools"))
        self._existing = frozenset(existing)

        intro = QLabel(
            self.tr(
                "Import tool definitions from a provider file (OpenAI, Anthropic, Gemini, MCP…), "
                "an OpenAPI document (you pick its operations next), a studio document, or a "
                "registry folder (registry-as-code)."
            )
        )
        intro.setWordWrap(True)
        self.path_edit = QLineEdit()
        self.path_edit.setPlaceholderText(self.tr("a .json file or a registry folder"))
        self.file_button = QPushButton(self.tr("File…"))
        self.folder_button = QPushButton(self.tr("Folder…"))
        path_row = QHBoxLayout()
        path_row.addWidget(self.path_edit, 1)
        path_row.addWidget(self.file_button)
        path_row.addWidget(self.folder_button)

        self.format_combo = QComboBox()
        for fmt in IMPORT_FORMATS:
            self.format_combo.addItem(
                self.tr("auto (detect from the content)") if fmt == AUTO else fmt, fmt
            )
        self.name_edit = QLineEdit()
        self.name_edit.setPlaceholderText(self.tr("from the file"))
        self.replace_check = QCheckBox(self.tr("Replace its draft if the registry exists"))
        self.replace_check.setToolTip(
            self.tr(
                "Like --replace-draft: the imported tools become the draft; published versions "
                "are kept"
            )
        )
        self.problem_label.setStyleSheet(ERROR_STYLE)

        form = QFormLayout()
        source_label = QLabel(self.tr("&Source:"))
        source_label.setBuddy(self.path_edit)  # a layout cannot be a buddy by itself
        form.addRow(source_label, path_row)
        form.addRow(self.tr("&Format:"), self.format_combo)
        form.addRow(self.tr("&Registry name:"), self.name_edit)
        form.addRow("", self.replace_check)

        self._lay_out(self.tr("Import"), intro, form)

        self.file_button.clicked.connect(self._browse_file)
        self.folder_button.clicked.connect(self._browse_folder)
        self.path_edit.textChanged.connect(self._on_path_changed)
        self.name_edit.textChanged.connect(self._on_edited)
        self.format_combo.currentIndexChanged.connect(self._on_edited)
        self.replace_check.toggled.connect(self._on_edited)
        self._validate()
        self.resize(560, 280)

    def set_format(self, fmt: str) -> None:
        self.format_combo.setCurrentIndex(max(0, self.format_combo.findData(fmt)))

    def problem(self) -> str | None:
        """Why the import cannot start, or None."""
        return import_problem(
            self.path_edit.text(),
            self.format_combo.currentData(),
            self.name_edit.text().strip(),
            self.replace_check.isChecked(),
            self._existing,
        )

    def request(self) -> ImportRequest:
        return ImportRequest(
            Path(self.path_edit.text().strip()).expanduser(),
            self.format_combo.currentData(),
            self.name_edit.text().strip() or None,
            self.replace_check.isChecked(),
        )

    def inputs(self) -> list[QWidget]:
        return [
            self.path_edit,
            self.file_button,
            self.folder_button,
            self.format_combo,
            self.name_edit,
            self.replace_check,
        ]

    def _on_path_changed(self, text: str) -> None:
        path = Path(text.strip()).expanduser() if text.strip() else None
        # The CLI's default: the name inside the document, else the file's stem.
        hint = (
            self.tr("from the file (else {stem!r})").format(stem=path.stem)
            if path and path.stem
            else self.tr("from the file")
        )
        self.name_edit.setPlaceholderText(hint)
        self._on_edited()

    def _entered(self) -> str:
        return self.path_edit.text()

    def _browse_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self,
            self.tr("Import tools from a file"),
            self.path_edit.text(),
            self.tr("JSON or YAML (*.json *.yaml *.yml);;All files (*)"),
        )
        if path:
            self.path_edit.setText(path)

    def _browse_folder(self) -> None:
        path = QFileDialog.getExistingDirectory(
            self, self.tr("Import a registry folder"), self.path_edit.text()
        )
        if path:
            self.path_edit.setText(path)
            self.set_format("dir")
