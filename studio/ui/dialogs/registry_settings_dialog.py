"""Edits a registry's title, description, verb vocabulary, description template and
the registry-wide provider options (issue #17).

The template is previewed live on the selected tool, so the author sees the
text a model will read while typing it. The provider options are Anthropic's
``cache_control`` placement for the tools block, OpenAI namespaces (name →
description, one per line) and Gemini's function-calling mode; they live in
``settings.extra["provider"]`` (:func:`settings_with_provider`).
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from studio.contract import DEFAULT_DESCRIPTION_TEMPLATE, RegistrySettings, ToolContract
from studio.contract.provider_options import (
    ANTHROPIC_CACHE_PLACEMENTS,
    GEMINI_MODES,
    GeminiSettings,
    ProviderSettings,
)
from studio.contract.render import PLACEHOLDERS, render_description, template_problems
from studio.ui.dialogs.new_registry_dialog import ERROR_STYLE

_VERB = re.compile(r"[a-z][a-z0-9]*")
_NAMESPACE = re.compile(r"[A-Za-z0-9_-]{1,64}")


@dataclass(frozen=True)
class RegistrySettingsRequest:
    """The editable registry metadata (``settings.extra`` is not part of it)."""

    title: str
    description: str
    verbs: tuple[str, ...]
    description_template: str
    provider: ProviderSettings | None = None
    """Registry-wide provider options; None leaves what is stored untouched."""


def settings_with_provider(
    settings: RegistrySettings, provider: ProviderSettings | None
) -> RegistrySettings:
    """``settings`` with ``extra["provider"]`` set to ``provider`` (removed when all default).

    None returns ``settings`` unchanged; the rest of ``extra`` is always kept.
    """
    if provider is None:
        return settings
    extra = dict(settings.extra)
    doc = provider_settings_to_dict(provider)
    if doc:
        extra["provider"] = doc
    else:
        extra.pop("provider", None)
    return dataclasses.replace(settings, extra=extra)


def provider_settings_to_dict(provider: ProviderSettings) -> dict[str, Any]:
    """The ``settings.provider`` document: only what differs from the default."""
    doc: dict[str, Any] = {}
    if provider.anthropic_cache != "none":
        doc["anthropic"] = {"cache_control": provider.anthropic_cache}
    if provider.namespaces:
        doc["openai"] = {"namespaces": dict(provider.namespaces)}
    if provider.gemini.mode:
        doc["gemini"] = {"mode": provider.gemini.mode}
    return doc


def parse_namespaces(text: str) -> tuple[dict[str, str], list[str]]:
    """``name: description`` lines (blank lines skipped) → namespaces, and the problems."""
    namespaces: dict[str, str] = {}
    problems: list[str] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        name, _, description = line.partition(":")
        name = name.strip()
        if not _NAMESPACE.fullmatch(name):
            problems.append(
                QCoreApplication.translate(
                    "RegistrySettingsDialog",
                    "Namespaces, line {line}: {name!r} must be letters, digits, _ and - (≤ 64)",
                ).format(line=number, name=name)
            )
        elif name in namespaces:
            problems.append(
                QCoreApplication.translate(
                    "RegistrySettingsDialog", "Namespaces, line {line}: {name!r} is named twice"
                ).format(line=number, name=name)
            )
        else:
            namespaces[name] = description.strip()
    return namespaces, problems


def parse_verbs(text: str) -> tuple[tuple[str, ...], list[str]]:
    """Split a comma-separated verb list.

    Verbs are lowercased and deduplicated in order; a verb is one word of
    letters and digits (it is the first word of a ``verb_noun`` tool name).

    Return:
        The verbs, and the problems found (empty when the list is usable).
    """
    verbs: list[str] = []
    problems: list[str] = []
    for raw in text.split(","):
        verb = raw.strip().lower()
        if not verb:
            continue
        if not _VERB.fullmatch(verb):
            problems.append(
                QCoreApplication.translate(
                    "RegistrySettingsDialog",
                    "{verb!r} is not a verb: use one word of letters and digits, "
                    "starting with a letter",
                ).format(verb=raw.strip())
            )
        elif verb not in verbs:
            verbs.append(verb)
    if not verbs and not problems:
        problems.append(
            QCoreApplication.translate(
                "RegistrySettingsDialog", "Enter at least one verb, e.g. get, list, create."
            )
        )
    return tuple(verbs), problems


class RegistrySettingsDialog(QDialog):
    """Collects a :class:`RegistrySettingsRequest`; Save stays disabled while a field is invalid.

    Args:
        registry: The registry's name.
        current: The values stored now.
        sample: The tool the template preview renders (the selected one), or None.
        parent: The owning window.
    """

    def __init__(
        self,
        registry: str,
        current: RegistrySettingsRequest,
        sample: ToolContract | None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Registry settings — {registry}").format(registry=registry))
        self._sample = sample
        # Callers that do not pass the stored provider options get None back (unchanged).
        self._shows_provider = current.provider is not None
        mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)

        self.title_edit = QLineEdit(current.title)
        self.description_edit = QPlainTextEdit(current.description)
        self.description_edit.setFixedHeight(self.description_edit.fontMetrics().lineSpacing() * 4)
        self.verbs_edit = QLineEdit(", ".join(current.verbs))
        self.verbs_edit.setToolTip(
            self.tr("Allowed first words of tool names (verb_noun), comma-separated")
        )
        self.verbs_problem = _problem_label()

        form = QFormLayout()
        form.addRow(self.tr("&Title:"), self.title_edit)
        form.addRow(self.tr("&Description:"), self.description_edit)
        form.addRow(self.tr("&Verbs:"), self.verbs_edit)
        form.addRow("", self.verbs_problem)
        provider_box = self._build_provider(current.provider or ProviderSettings())

        self.template_edit = QPlainTextEdit(current.description_template)
        self.template_edit.setFont(mono)
        self.template_edit.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.reset_button = QPushButton(self.tr("Reset to default"))
        placeholders = QLabel(
            self.tr("Placeholders: {names}").format(
                names=" ".join("{" + p + "}" for p in PLACEHOLDERS)
            )
        )
        placeholders.setWordWrap(True)
        placeholders.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.template_problem = _problem_label()
        template_box = QGroupBox(self.tr("Description &template"))
        template_layout = QVBoxLayout(template_box)
        template_layout.addWidget(self.template_edit, 1)
        template_layout.addWidget(placeholders)
        template_layout.addWidget(self.template_problem)
        reset_row = QHBoxLayout()
        reset_row.addStretch(1)
        reset_row.addWidget(self.reset_button)
        template_layout.addLayout(reset_row)
        self.template_edit.setAccessibleName(self.tr("Description template"))

        self.preview_edit = QPlainTextEdit()
        self.preview_edit.setReadOnly(True)
        self.preview_edit.setFont(mono)
        self.preview_note = QLabel()
        self.preview_note.setWordWrap(True)
        title = (
            self.tr("Preview: {name}").format(name=sample.name) if sample else self.tr("Preview")
        )
        preview_box = QGroupBox(title)
        preview_layout = QVBoxLayout(preview_box)
        preview_layout.addWidget(self.preview_edit, 1)
        preview_layout.addWidget(self.preview_note)

        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.setChildrenCollapsible(False)
        splitter.addWidget(template_box)
        splitter.addWidget(preview_box)

        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        self.save_button = self.buttons.button(QDialogButtonBox.StandardButton.Save)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(splitter, 1)
        layout.addWidget(provider_box)
        provider_box.setVisible(self._shows_provider)
        layout.addWidget(self.buttons)

        self.verbs_edit.textChanged.connect(self._validate)
        self.namespaces_edit.textChanged.connect(self._validate)
        self.template_edit.textChanged.connect(self._validate)
        self.reset_button.clicked.connect(
            lambda: self.template_edit.setPlainText(DEFAULT_DESCRIPTION_TEMPLATE)
        )
        self._validate()
        self.resize(900, 700)

    def _build_provider(self, current: ProviderSettings) -> QGroupBox:
        box = QGroupBox(self.tr("Provider options"))
        form = QFormLayout(box)
        self.cache_combo = QComboBox(box)
        labels = {
            "none": self.tr("none"),
            "tools": self.tr("after the tools block (cache the tool list)"),
        }
        for placement in ANTHROPIC_CACHE_PLACEMENTS:
            self.cache_combo.addItem(labels.get(placement, placement), placement)
        self.cache_combo.setCurrentIndex(max(self.cache_combo.findData(current.anthropic_cache), 0))
        self.namespaces_edit = QPlainTextEdit(
            "\n".join(f"{name}: {text}" for name, text in current.namespaces.items())
        )
        self.namespaces_edit.setPlaceholderText(self.tr("one per line, e.g. crm: Customer records"))
        self.namespaces_edit.setFixedHeight(self.namespaces_edit.fontMetrics().lineSpacing() * 4)
        self.namespaces_problem = _problem_label()
        self.gemini_combo = QComboBox(box)
        self.gemini_combo.addItem(self.tr("provider default (AUTO)"), "")
        for mode in GEMINI_MODES:
            self.gemini_combo.addItem(mode, mode)
        self.gemini_combo.setCurrentIndex(max(self.gemini_combo.findData(current.gemini.mode), 0))
        form.addRow(self.tr("Anthropic &cache:"), self.cache_combo)
        form.addRow(self.tr("OpenAI &namespaces:"), self.namespaces_edit)
        form.addRow("", self.namespaces_problem)
        form.addRow(self.tr("&Gemini mode:"), self.gemini_combo)
        return box

    def problems(self) -> list[str]:
        """Everything that stops saving (verbs, the template, then the namespaces)."""
        _, verb_problems = parse_verbs(self.verbs_edit.text())
        _, namespace_problems = parse_namespaces(self.namespaces_edit.toPlainText())
        return (
            verb_problems + template_problems(self.template_edit.toPlainText()) + namespace_problems
        )

    def provider(self) -> ProviderSettings:
        namespaces, _ = parse_namespaces(self.namespaces_edit.toPlainText())
        return ProviderSettings(
            str(self.cache_combo.currentData()),
            namespaces,
            GeminiSettings(str(self.gemini_combo.currentData() or "")),
        )

    def request(self) -> RegistrySettingsRequest:
        verbs, _ = parse_verbs(self.verbs_edit.text())
        return RegistrySettingsRequest(
            self.title_edit.text().strip(),
            self.description_edit.toPlainText().strip(),
            verbs,
            self.template_edit.toPlainText(),
            self.provider() if self._shows_provider else None,
        )

    def preview_text(self) -> str:
        return self.preview_edit.toPlainText()

    def accept(self) -> None:
        if not self.problems():
            super().accept()

    def _validate(self) -> None:
        _, verb_problems = parse_verbs(self.verbs_edit.text())
        _show(self.verbs_problem, verb_problems)
        template = self.template_edit.toPlainText()
        problems = template_problems(template)
        _show(self.template_problem, problems)
        _, namespace_problems = parse_namespaces(self.namespaces_edit.toPlainText())
        _show(self.namespaces_problem, namespace_problems)
        self._render(template, broken=bool(problems))
        self.save_button.setEnabled(not verb_problems and not problems and not namespace_problems)

    def _render(self, template: str, *, broken: bool) -> None:
        if self._sample is None:
            self.preview_edit.setPlainText("")
            self.preview_note.setText(
                self.tr("Select a tool in the main window to preview the template.")
            )
            return
        # render_description falls back to the default template when this one is broken.
        self.preview_edit.setPlainText(render_description(self._sample, template))
        self.preview_note.setText(
            self.tr("Showing the default template until the problem is fixed.") if broken else ""
        )
        self.preview_note.setVisible(broken)


def _problem_label() -> QLabel:
    label = QLabel()
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setStyleSheet(ERROR_STYLE)
    label.hide()
    return label


def _show(label: QLabel, problems: list[str]) -> None:
    label.setText("\n".join(problems))
    label.setVisible(bool(problems))
