"""The questions the release panel asks: canary version and share, and why an action is taken.

Tests replace :class:`ReleasePrompts` with a stub returning canned answers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QMessageBox,
    QSpinBox,
    QWidget,
)

from registry_db import VersionInfo


@dataclass(frozen=True, slots=True)
class CanaryRequest:
    """What the operator asked for in the Set canary dialog."""

    version: int
    share: int
    why: str


def version_label(info: VersionInfo) -> str:
    """``v3 (1.2.0) — notes`` for combo boxes."""
    label = f"v{info.number}" + (f" ({info.semver})" if info.semver else "")
    return f"{label} — {info.notes[:40]}" if info.notes else label


CanaryImpact = Callable[[int, int], str]
"""(version, share) → what setting the canary so does to subjects, in words."""


class CanaryDialog(QDialog):
    """Version combo, share spin box, a required reason, and who would move where."""

    def __init__(
        self, versions: Sequence[VersionInfo], version: int | None, share: int,
        parent: QWidget | None = None, *, impact: CanaryImpact | None = None,
    ) -> None:  # fmt: skip
        super().__init__(parent)
        self.setWindowTitle(self.tr("Set canary"))
        self.impact = impact
        self.impact_label = QLabel()
        self.impact_label.setObjectName("canaryImpact")
        self.impact_label.setWordWrap(True)
        self.version_combo = QComboBox()
        for info in reversed(versions):  # newest first
            self.version_combo.addItem(version_label(info), info.number)
        if version is not None:
            self.version_combo.setCurrentIndex(max(0, self.version_combo.findData(version)))
        self.share_spin = QSpinBox()
        self.share_spin.setRange(0, 100)
        self.share_spin.setSuffix(" %")
        self.share_spin.setValue(share)
        self.why_edit = QLineEdit()
        self.why_edit.setPlaceholderText(self.tr("Why (kept in the channel log)"))
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        form = QFormLayout(self)
        form.addRow(self.tr("Version"), self.version_combo)
        form.addRow(self.tr("Share"), self.share_spin)
        form.addRow(self.tr("Why"), self.why_edit)
        form.addRow(self.impact_label)
        form.addRow(self.buttons)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.why_edit.textChanged.connect(self._update_ok)
        self.version_combo.currentIndexChanged.connect(self._update_impact)
        self.share_spin.valueChanged.connect(self._update_impact)
        self._update_ok()
        self._update_impact()

    def _update_impact(self) -> None:
        data = self.version_combo.currentData()
        if self.impact is None or data is None:
            self.impact_label.hide()
            return
        self.impact_label.setText(self.impact(int(data), self.share_spin.value()))
        self.impact_label.show()

    def _update_ok(self) -> None:
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setEnabled(bool(self.why_edit.text().strip()) and self.version_combo.count() > 0)

    def request(self) -> CanaryRequest:
        return CanaryRequest(
            int(self.version_combo.currentData()),
            self.share_spin.value(),
            self.why_edit.text().strip(),
        )


class ReleasePrompts:
    """Modal questions; each returns plain data (None when cancelled)."""

    def set_canary(
        self, parent: QWidget, versions: Sequence[VersionInfo], version: int | None, share: int
    ) -> CanaryRequest | None:
        """Ask for the canary's version, share and the reason."""
        # The Release view says who would move where as the version and share change.
        impact = getattr(parent, "canary_impact", None)
        dialog = CanaryDialog(versions, version, share, parent, impact=impact)
        return dialog.request() if dialog.exec() == QDialog.DialogCode.Accepted else None

    def why(self, parent: QWidget, title: str, text: str) -> str | None:
        """Ask why an action is taken; None when cancelled or left empty."""
        answer, ok = QInputDialog.getText(parent, title, text)
        return answer.strip() if ok and answer.strip() else None

    def error(self, parent: QWidget, title: str, text: str) -> None:
        QMessageBox.warning(parent, title, text)
