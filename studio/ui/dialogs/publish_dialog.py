"""Asks for release notes and an optional semantic version, then publishes."""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from registry_db import StoreError, VersionInfo


@dataclass(frozen=True)
class PublishRequest:
    """What the author entered: release notes and an optional semver."""

    notes: str
    semver: str | None


Publisher = Callable[[PublishRequest], VersionInfo]


class PublishDialog(QDialog):
    """Collects a :class:`PublishRequest` and runs ``publish`` on OK.

    A refused publish (e.g. ``InvalidSemverError``) is shown inside the dialog
    and the dialog stays open with what was typed, so nothing is lost.

    Args:
        registry: Name of the registry being published.
        tool_count: How many tools the version will hold.
        publish: Called with the request; returns the new version or raises
            ``StoreError``.
        parent: The owning window.
    """

    def __init__(
        self,
        registry: str,
        tool_count: int,
        publish: Publisher,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Publish {registry}")
        self._publish = publish
        self.published: VersionInfo | None = None

        intro = QLabel(
            f"Publish the saved draft of <b>{html.escape(registry)}</b> ({tool_count} tools) "
            "as a new immutable version. Agents and reviewers will see exactly this snapshot."
        )
        intro.setWordWrap(True)
        self.notes_edit = QPlainTextEdit()
        self.notes_edit.setPlaceholderText("What changed and why (shown in the version list)")
        self.semver_edit = QLineEdit()
        self.semver_edit.setPlaceholderText("optional, e.g. 1.2.0")
        self.error_label = QLabel()
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet("color: #d64545;")
        self.error_label.hide()

        form = QFormLayout()
        form.addRow("Release notes:", self.notes_edit)
        form.addRow("Semantic version:", self.semver_edit)

        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Publish")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addWidget(self.error_label)
        layout.addWidget(self.buttons)
        self.resize(480, 320)

    def request(self) -> PublishRequest:
        semver = self.semver_edit.text().strip()
        return PublishRequest(self.notes_edit.toPlainText().strip(), semver or None)

    def accept(self) -> None:
        try:
            self.published = self._publish(self.request())
        except StoreError as exc:
            self.error_label.setText(f"Not published: {exc}")
            self.error_label.show()
            return
        super().accept()
