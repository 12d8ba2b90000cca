"""Rollout simulator: who lands where for pasted or generated subjects, at a previewed share."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from studio.release import CANARY, Channel, Simulation, generate_subjects, parse_subjects, simulate
from studio.ui.release.models import AssignmentModel

DEBOUNCE_MS = 150
MAX_GENERATED = 100_000


class SimulatorWidget(QWidget):
    """Paste subject ids (or generate N) and preview the canary at any share.

    The preview never writes: it simulates a copy of the channels with the
    canary's share replaced by the spin box's value. A canary without a version
    is previewed with ``preview_version`` (the newest published one).

    Signals:
        simulated(Simulation): a recomputation finished.
    """

    simulated = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._channels: list[Channel] = []
        self._preview_version: int | None = None
        self.simulation: Simulation | None = None

        self.subjects_edit = QPlainTextEdit()
        self.subjects_edit.setPlaceholderText(
            self.tr("Subject ids, one per line or separated by commas")
        )
        self.count_spin = QSpinBox()
        self.count_spin.setRange(1, MAX_GENERATED)
        self.count_spin.setValue(1000)
        self.count_spin.setGroupSeparatorShown(True)
        self.generate_button = QPushButton(self.tr("Generate"))
        self.generate_button.setToolTip(self.tr("Replace the subjects with N random ids"))
        self.share_spin = QSpinBox()
        self.share_spin.setRange(0, 100)
        self.share_spin.setSuffix(" %")
        self.share_spin.setToolTip(self.tr("Canary share to preview (nothing is saved)"))
        self.split_label = QLabel()
        self.split_label.setWordWrap(True)
        self.model = AssignmentModel(self)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().hide()
        self.table.setWordWrap(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)

        controls = QHBoxLayout()
        controls.addWidget(QLabel(self.tr("Generate")))
        controls.addWidget(self.count_spin)
        controls.addWidget(self.generate_button)
        controls.addSpacing(12)
        controls.addWidget(QLabel(self.tr("Preview canary share")))
        controls.addWidget(self.share_spin)
        controls.addStretch(1)
        left = QVBoxLayout()
        left.addLayout(controls)
        left.addWidget(self.subjects_edit, 1)
        right = QVBoxLayout()
        right.addWidget(self.split_label)
        right.addWidget(self.table, 1)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(left, 1)
        layout.addLayout(right, 1)

        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._timer.timeout.connect(self.recompute)
        self.subjects_edit.textChanged.connect(self._timer.start)
        self.share_spin.valueChanged.connect(self._timer.start)
        self.generate_button.clicked.connect(self.generate)
        self._show_split()

    def set_channels(self, channels: Sequence[Channel], preview_version: int | None) -> None:
        """Simulate against ``channels`` (stable first, with its effective version)."""
        self._channels = list(channels)
        self._preview_version = preview_version
        canary = next((c for c in channels if c.name == CANARY), None)
        self.share_spin.blockSignals(True)
        self.share_spin.setValue(canary.share if canary else 0)
        self.share_spin.blockSignals(False)
        self.recompute()

    def set_subjects(self, text: str) -> None:
        """Replace the pasted subjects (recomputed after the debounce)."""
        self.subjects_edit.setPlainText(text)

    def generate(self) -> None:
        """Fill in ``count_spin`` random subject ids."""
        self.set_subjects("\n".join(generate_subjects(self.count_spin.value())))

    def preview_channels(self) -> list[Channel]:
        """The channels with the canary at the previewed share."""
        share = self.share_spin.value()
        result = []
        for channel in self._channels:
            if channel.name == CANARY:
                version = channel.version if channel.version is not None else self._preview_version
                channel = dataclasses.replace(channel, share=share, version=version)
            result.append(channel)
        return result

    def recompute(self) -> Simulation | None:
        """Simulate now (the debounce timer calls this after typing stops)."""
        self._timer.stop()
        if not self._channels:
            self.simulation = None
            self.model.set_rows([])
            self._show_split()
            return None
        subjects = parse_subjects(self.subjects_edit.toPlainText())
        self.simulation = simulate(self.preview_channels(), subjects)
        self.model.set_rows(self.simulation.assignments)
        self._show_split()
        self.simulated.emit(self.simulation)
        return self.simulation

    def _show_split(self) -> None:
        sim = self.simulation
        if sim is None or not sim.total:
            self.split_label.setText(
                self.tr("Paste subject ids or generate some to see the split.")
            )
            return
        parts = [
            f"<b>{name}</b> {count:,} ({sim.percent(name):.1f} %)"
            for name, count in sim.split.items()
        ]
        self.split_label.setText(
            self.tr("{total} subjects: ").format(total=f"{sim.total:,}") + " · ".join(parts)
        )
