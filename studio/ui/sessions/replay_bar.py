"""Step-through replay controls and the pending tool calls at the current step.

:class:`ReplayBar` drives a :class:`~studio.sessions.replay.SessionReplay`
(next, previous, jump to the next/previous problem, a slider) and announces
every move with ``stepChanged``; :class:`PendingCallsModel` lists the calls
still waiting for a result after the current step.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSlider, QToolButton, QVBoxLayout, QWidget

from studio.sessions.replay import PendingCall, ReplayStep, SessionReplay

_Index = QModelIndex | QPersistentModelIndex


def _arguments(value: str | dict[str, Any]) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


class PendingCallsModel(QAbstractListModel):
    """The calls made and not yet answered at the current step, oldest first."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._calls: list[PendingCall] = []

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 - Qt signature
        return 0 if parent.isValid() else len(self._calls)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._calls):
            return None
        call = self._calls[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            call_id = call.call_id or QCoreApplication.translate("PendingCalls", "(no id)")
            where = QCoreApplication.translate("PendingCalls", "message {number}").format(
                number=call.position.message
            )
            return f"{call_id} · {call.name} · {where}"
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{call.name}({_arguments(call.arguments)[:400]})\nmade at {call.position}"
        if role == Qt.ItemDataRole.UserRole:
            return call
        return None

    def set_calls(self, calls: Sequence[PendingCall]) -> None:
        self.beginResetModel()
        self._calls = list(calls)
        self.endResetModel()

    def calls(self) -> list[PendingCall]:
        return list(self._calls)


def step_label(replay: SessionReplay | None) -> str:
    """``Step 4 / 12 · assistant · 2 pending · 1 problem`` for the replay's position."""
    translate = QCoreApplication.translate  # literal calls: lupdate reads the context from them
    if replay is None or not len(replay):
        return translate("ReplayBar", "No session")
    step = replay.current
    if step is None:
        return translate("ReplayBar", "Before step 1 / {count}").format(count=len(replay))
    parts = [
        translate("ReplayBar", "Step {number} / {count}").format(
            number=step.index + 1, count=len(replay)
        ),
        step.message.role.value,
        translate("ReplayBar", "{count} pending").format(count=len(step.pending)),
    ]
    if step.findings:
        found = len(step.findings)
        text = (
            translate("ReplayBar", "{count} problem")
            if found == 1
            else translate("ReplayBar", "{count} problems")
        )
        parts.append(text.format(count=found))
    return " · ".join(parts)


class ReplayBar(QWidget):
    """First / Previous / Next / previous and next problem, a slider and the position.

    Signals:
        stepChanged: The new :class:`ReplayStep` (None before the first step).
    """

    stepChanged = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.replay: SessionReplay | None = None
        self.first_button = self._button(self.tr("First"), self.tr("Back to the first step"))
        self.previous_button = self._button(
            self.tr("◀ Previous"), self.tr("The previous message (Alt+Left)")
        )
        self.next_button = self._button(self.tr("Next ▶"), self.tr("The next message (Alt+Right)"))
        self.previous_problem_button = self._button(
            "◀ ⚠", self.tr("The previous step with a problem")
        )
        self.next_problem_button = self._button(
            self.tr("Next problem ⚠"), self.tr("The next step with a problem")
        )
        self.previous_button.setShortcut("Alt+Left")
        self.next_button.setShortcut("Alt+Right")
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setMinimum(0)
        self.slider.setAccessibleName("Replay position")
        self.slider.setMinimumWidth(60)
        self.position_label = QLabel(self.tr("No session"))
        self.position_label.setMinimumWidth(
            self.fontMetrics().horizontalAdvance("Step 00000 / 00000 · assistant")
        )
        # Two rows: the buttons, then the slider and where we are (fits narrow windows).
        buttons = QHBoxLayout()
        buttons.setSpacing(4)
        for button in (self.first_button, self.previous_button, self.next_button):
            buttons.addWidget(button)
        buttons.addSpacing(8)
        buttons.addWidget(self.previous_problem_button)
        buttons.addWidget(self.next_problem_button)
        buttons.addStretch(1)
        track = QHBoxLayout()
        track.setSpacing(8)
        track.addWidget(self.slider, 1)
        track.addWidget(self.position_label)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 2)
        layout.setSpacing(2)
        layout.addLayout(buttons)
        layout.addLayout(track)
        self.first_button.clicked.connect(lambda: self.jump(0))
        self.previous_button.clicked.connect(self.previous)
        self.next_button.clicked.connect(self.next)
        self.previous_problem_button.clicked.connect(self.previous_problem)
        self.next_problem_button.clicked.connect(self.next_problem)
        self.slider.valueChanged.connect(self._on_slider)
        self._update()

    @staticmethod
    def _button(text: str, tip: str) -> QToolButton:
        button = QToolButton()
        button.setText(text)
        button.setToolTip(tip)
        button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        # Never narrower than its text: squeezed, "◀ Previous" became "◀…s".
        button.setMinimumWidth(button.sizeHint().width())
        return button

    # ------------------------------------------------------------------ driving

    def set_replay(self, replay: SessionReplay | None, position: int | None = None) -> None:
        """Step through ``replay``, starting at ``position`` (default: the last step)."""
        self.replay = replay
        self.slider.blockSignals(True)
        self.slider.setMaximum(max(0, len(replay) - 1) if replay else 0)
        self.slider.blockSignals(False)
        if replay is None:
            self._update()
            self.stepChanged.emit(None)
            return
        self.jump(len(replay) - 1 if position is None else position)

    def jump(self, index: int) -> ReplayStep | None:
        if self.replay is None:
            return None
        self.replay.jump(index)
        return self._moved()

    def next(self) -> ReplayStep | None:
        if self.replay is None or self.replay.next() is None:
            return None
        return self._moved()

    def previous(self) -> ReplayStep | None:
        if self.replay is None or self.replay.position < 0:
            return None
        self.replay.previous()
        return self._moved()

    def next_problem(self) -> ReplayStep | None:
        if self.replay is None or self.replay.next_problem() is None:
            return None
        return self._moved()

    def previous_problem(self) -> ReplayStep | None:
        if self.replay is None or self.replay.previous_problem() is None:
            return None
        return self._moved()

    def _on_slider(self, value: int) -> None:
        if self.replay is not None and value != self.replay.position:
            self.jump(value)

    def _moved(self) -> ReplayStep | None:
        assert self.replay is not None
        self.slider.blockSignals(True)
        self.slider.setValue(max(0, self.replay.position))
        self.slider.blockSignals(False)
        self._update()
        step = self.replay.current
        self.stepChanged.emit(step)
        return step

    def _update(self) -> None:
        replay = self.replay
        self.position_label.setText(step_label(replay))
        has = replay is not None and len(replay) > 0
        position = replay.position if replay is not None else -1
        problems = replay.problem_steps if replay is not None else []
        self.first_button.setEnabled(has and position > 0)
        self.previous_button.setEnabled(has and position >= 0)
        self.next_button.setEnabled(has and replay is not None and position < len(replay) - 1)
        self.slider.setEnabled(has)
        self.next_problem_button.setEnabled(any(i > position for i in problems))
        self.previous_problem_button.setEnabled(any(i < position for i in problems))
        count = len(problems)
        self.next_problem_button.setToolTip(
            self.tr("The next step with a problem ({count} step{value} with problems)").format(
                count=count, value="s" if count != 1 else ""
            )
        )
