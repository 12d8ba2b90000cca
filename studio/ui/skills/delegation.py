"""Try a remote agent from the GUI: send a message, watch the task's states, see the artifact.

The delegation runs on a worker thread with its own asyncio loop (the GUI
thread never waits on the network); each streamed update comes back as a
queued signal. An ``input-required`` answer keeps the task: the next message
continues it. Instruction-like text in what the agent returned is shown as a
warning banner, never acted on (see :mod:`studio.runtime.delegate`).
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from studio.agents.model import RemoteAgent
from studio.runtime.delegate import (
    INTERRUPTED,
    TERMINAL,
    DelegationChain,
    DelegationRefused,
    DelegationResult,
    delegate,
    start_chain,
)
from studio.ui.style import banner_style

STATE_MARKS = {
    "submitted": "○",
    "working": "◔",
    "input-required": "?",
    "auth-required": "🔒",
    "completed": "●",
    "failed": "✕",
    "canceled": "⊘",
    "rejected": "✕",
    "artifact": "▤",
}


class DelegationView(QWidget):
    """Sends messages to one remote agent and shows the task as it goes."""

    update_received = Signal(str, str)
    finished = Signal(object)
    failed = Signal(str)

    def __init__(
        self,
        agent: RemoteAgent,
        chain: DelegationChain | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.agent = agent
        self.chain = chain or start_chain("studio:gui")
        self.result: DelegationResult | None = None
        self._thread: threading.Thread | None = None
        self._sending = False
        self._build()
        self.update_received.connect(self._on_update)
        self.finished.connect(self._on_finished)
        self.failed.connect(self._on_failed)

    def _build(self) -> None:
        self.heading = QLabel(
            self.tr("Delegate to %1").replace("%1", self.agent.title or self.agent.name), self
        )
        self.input = QLineEdit(self)
        self.input.setPlaceholderText(self.tr("A task for the remote agent"))
        self.input.returnPressed.connect(self.send)
        self.send_button = QPushButton(self.tr("Send"), self)
        self.send_button.clicked.connect(self.send)
        row = QHBoxLayout()
        row.addWidget(self.input, 1)
        row.addWidget(self.send_button)
        self.status = QLabel(self)
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        self.timeline = QListWidget(self)
        self.timeline.setObjectName("delegationTimeline")
        self.timeline.setWordWrap(True)
        self.warning = QLabel(self)
        self.warning.setObjectName("delegationWarning")
        self.warning.setWordWrap(True)
        self.warning.setTextFormat(Qt.TextFormat.PlainText)
        self.warning.setStyleSheet(banner_style("delegationWarning", "hold", self))
        self.warning.hide()
        self.artifact = QTextBrowser(self)
        self.artifact.setObjectName("delegationArtifact")
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addLayout(row)
        layout.addWidget(self.status)
        layout.addWidget(self.timeline, 2)
        layout.addWidget(self.warning)
        layout.addWidget(QLabel(self.tr("Artifact (untrusted data)"), self))
        layout.addWidget(self.artifact, 1)

    # ------------------------------------------------------------------ sending

    @property
    def busy(self) -> bool:
        # Until the answer (or the failure) is shown, not while the thread lives:
        # it outlives its answer by the event loop's shutdown, and a reply sent in
        # that moment (the Send button enabled again) was dropped without a word.
        return self._sending

    def send(self, text: str | None = None) -> None:
        """Send ``text`` (default: the input's); continues the task when it asked for input."""
        message = (text if isinstance(text, str) else self.input.text()).strip()
        if not message or self.busy:
            return
        previous = self.result
        task_id = context_id = ""
        if previous is not None and previous.state in INTERRUPTED:
            task_id, context_id = previous.task_id, previous.context_id
        else:
            self.timeline.clear()
            self.artifact.clear()
            self.warning.hide()
        self._add("→", message)
        self.input.clear()
        self._sending = True
        self.send_button.setEnabled(False)
        self.status.setText(self.tr("Sending to %1…").replace("%1", self.agent.url))

        def work() -> None:
            try:
                result = asyncio.run(
                    delegate(
                        self.agent,
                        message,
                        self.chain,
                        task_id=task_id,
                        context_id=context_id,
                        on_update=self.update_received.emit,
                    )
                )
            except DelegationRefused as exc:
                self.failed.emit(str(exc))
            except Exception as exc:  # unreachable agent, protocol error: one line
                self.failed.emit(f"{self.agent.url}: {type(exc).__name__}: {exc}"[:300])
            else:
                self.finished.emit(result)

        self._thread = threading.Thread(target=work, name="delegation", daemon=True)
        self._thread.start()

    def wait(self, timeout: float = 30.0) -> None:
        """Block until the worker ends (tests and screenshot scripts only)."""
        if self._thread is not None:
            self._thread.join(timeout)

    # ------------------------------------------------------------------ display

    def _add(self, mark: str, text: str) -> None:
        item = QListWidgetItem(f"{mark}  {text}", self.timeline)
        item.setToolTip(text)
        self.timeline.scrollToBottom()

    def _on_update(self, state: str, text: str) -> None:
        label = " ".join(text.split())
        self._add(STATE_MARKS.get(state, "·"), f"{state}{' — ' + label if label else ''}")

    def _on_finished(self, result: Any) -> None:
        self.result = result
        self._sending = False
        self.send_button.setEnabled(True)
        self.artifact.setPlainText("\n\n".join(a["text"] for a in result.artifacts))
        hint = ""
        if result.state in INTERRUPTED:
            hint = self.tr("The agent needs more input: answer above to continue the same task.")
        elif result.state in TERMINAL:
            hint = (
                self.tr("Task %1 ended: %2")
                .replace("%1", result.task_id[:8])
                .replace("%2", result.state)
            )
        trace = self.tr("hop %1 · trace %2").replace(
            "%1", str(result.chain.hop if result.chain else 0)
        )
        trace = trace.replace("%2", self.chain.trace_id[:12])
        self.status.setText(f"{hint}  ({trace})".strip())
        if result.flags:
            texts = "; ".join(repr(f["text"]) for f in result.flags)
            self.warning.setText(
                self.tr(
                    "Instruction-like text from the remote agent, shown as data, not followed: %1"
                ).replace("%1", texts)
            )
            self.warning.show()

    def _on_failed(self, message: str) -> None:
        self._sending = False
        self.send_button.setEnabled(True)
        self._add("✕", message)
        self.status.setText(message)
