"""The Playground screen: sidebar | conversation, prompt and event log | inspector.

Runs go through :class:`RunController` on the qasync loop; this widget only
reacts to its signals, so the GUI keeps painting while a model streams.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from registry_db import RegistryStore
from registry_db.sessions import SessionStore
from studio.runtime import ApprovalDecision, ApprovalRequest, Run, RunEvent, RunResult
from studio.sessions.export import ExportFormat
from studio.ui.empty_state import empty_note
from studio.ui.playground.approval_dialog import ask_approval
from studio.ui.playground.conversation import ConversationView
from studio.ui.playground.conversation_model import ConversationItem
from studio.ui.playground.event_log import EventLogView
from studio.ui.playground.inspector import InspectorWidget
from studio.ui.playground.run_controller import ClientFactory, RunController
from studio.ui.playground.sidebar import PlaygroundSidebar

ApprovalPrompt = Callable[[QWidget, ApprovalRequest], Awaitable[ApprovalDecision]]
ExportPath = Callable[[QWidget, ExportFormat], Path | None]


def _ask_export_path(parent: QWidget, fmt: ExportFormat) -> Path | None:
    path, _ = QFileDialog.getSaveFileName(
        parent, f"Export session as {fmt} messages", f"session-{fmt}.json", "JSON (*.json)"
    )
    return Path(path) if path else None


class PlaygroundView(QWidget):
    """The whole playground.

    Args:
        store: The open store (profiles, registries, sessions).
        approval_prompt: Asks about write/destructive calls (tests answer it).
        client_factory: Makes model clients (tests may wrap :func:`client_for`).
        export_path: Asks where to write an export (tests give a path).
    """

    def __init__(
        self,
        store: RegistryStore,
        *,
        approval_prompt: ApprovalPrompt = ask_approval,
        client_factory: ClientFactory | None = None,
        export_path: ExportPath = _ask_export_path,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.store = store
        self.sessions = SessionStore.for_store(store)
        self.approval_prompt = approval_prompt
        self.export_path = export_path
        kwargs = {"client_factory": client_factory} if client_factory else {}
        self.controller = RunController(
            self.sessions, approver=self._approve, parent=self, **kwargs
        )

        self.sidebar = PlaygroundSidebar(store, self.sessions)
        self.conversation = ConversationView()
        self.model = self.conversation.conversation
        self.event_log = EventLogView()
        self.event_log.set_placeholder(
            self.tr("Run events appear here as the model answers and the tools run.")
        )
        self.inspector = InspectorWidget()

        # What a run would run, always in view: the registry, its version or
        # draft state (unsaved edits counted), the profile and the executors.
        self.header_label = QLabel()
        self.header_label.setObjectName("playgroundHeader")
        self.header_label.setWordWrap(True)
        self.header_label.setTextFormat(Qt.TextFormat.PlainText)
        self.header_label.setContentsMargins(6, 4, 6, 4)
        self.empty_label = empty_note(
            self.tr(
                "Nothing has run yet. Type a prompt below and press Run (Ctrl+Return): the "
                "model's answer, every tool call it makes and each result appear here. "
                "The header above says what runs."
            ),
            "playgroundEmpty",
        )
        self.empty_label.setContentsMargins(24, 24, 24, 24)
        self.session_label = QLabel(self.tr("No session yet"))
        self.status_label = QLabel(self.tr("Idle"))
        self.status_label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        self.again_button = QPushButton(self.tr("Run again from here"))
        self.again_button.setMinimumWidth(self.again_button.sizeHint().width())
        self.again_button.setToolTip(
            self.tr("Start a new session with the messages up to the selected one")
        )
        self.export_button = QToolButton()
        self.export_button.setText(self.tr("Export"))
        self.export_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(self.export_button)
        menu.addAction(self.tr("OpenAI messages JSON…"), lambda: self.export_to_file("openai"))
        menu.addAction(
            self.tr("Anthropic messages JSON…"), lambda: self.export_to_file("anthropic")
        )
        self.export_button.setMenu(menu)
        # Where the session stands, then its buttons: on one row in a 900 px window
        # the buttons covered each other.
        status_row = QHBoxLayout()
        status_row.setSpacing(8)
        status_row.addWidget(self.session_label)
        status_row.addWidget(self.status_label, 1)
        self.status_label.setMinimumWidth(60)
        self.status_label.setWordWrap(True)
        button_row = QHBoxLayout()
        button_row.setSpacing(8)
        button_row.addStretch(1)
        button_row.addWidget(self.again_button)
        button_row.addWidget(self.export_button)
        bar = QVBoxLayout()
        bar.setContentsMargins(4, 2, 4, 2)
        bar.setSpacing(2)
        bar.addLayout(status_row)
        bar.addLayout(button_row)

        self.prompt_edit = QPlainTextEdit()
        self.prompt_edit.setPlaceholderText(self.tr("Ask the model… (Ctrl+Return runs, Esc stops)"))
        self.prompt_edit.setFixedHeight(64)
        self.run_button = QPushButton(self.tr("Run"))
        self.stop_button = QPushButton(self.tr("Stop"))
        self.stop_button.setEnabled(False)
        run_col = QVBoxLayout()
        run_col.addWidget(self.run_button)
        run_col.addWidget(self.stop_button)
        prompt_row = QHBoxLayout()
        prompt_row.setContentsMargins(4, 2, 4, 4)
        prompt_row.addWidget(self.prompt_edit, 1)
        prompt_row.addLayout(run_col)

        centre_top = QWidget()
        ct = QVBoxLayout(centre_top)
        ct.setContentsMargins(0, 0, 0, 0)
        ct.setSpacing(0)
        ct.addLayout(bar)
        ct.addWidget(self.empty_label, 1)
        ct.addWidget(self.conversation, 1)
        self.conversation.hide()
        ct.addLayout(prompt_row)
        self.centre = QSplitter(Qt.Orientation.Vertical)
        self.centre.setChildrenCollapsible(False)
        self.centre.addWidget(centre_top)
        self.centre.addWidget(self.event_log)
        self.centre.setStretchFactor(0, 4)
        self.centre.setStretchFactor(1, 1)
        self.event_log.setMinimumHeight(70)

        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(self.sidebar)
        self.splitter.addWidget(self.centre)
        self.splitter.addWidget(self.inspector)
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 3)
        self.splitter.setStretchFactor(2, 1)
        self.inspector.setMinimumWidth(200)
        self.centre.setMinimumWidth(320)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.header_label)
        layout.addWidget(self.splitter, 1)
        self.sidebar.configChanged.connect(self.update_header)
        self.update_header()

        self.run_button.clicked.connect(self.run_prompt)
        self.stop_button.clicked.connect(self.stop)
        self.again_button.clicked.connect(self.run_again_from_selected)
        self.conversation.currentItemChanged.connect(self._on_item)
        self.controller.runStarted.connect(self._on_started)
        self.controller.eventReceived.connect(self._on_event)
        self.controller.runFinished.connect(self._on_finished)
        self.controller.busyChanged.connect(self._on_busy)
        self.controller.agentUpdate.connect(self._on_agent_update)  # delegations (issue #18)
        self._answer_from: int | None = None
        """Set while a delegated task waits for the user: the next Run continues there."""
        self._update_buttons()

    # ------------------------------------------------------------------ sizing

    def size_panes(self, width: int) -> None:
        """Split ``width`` between sidebar, conversation and inspector."""
        side = 280 if width < 1100 else 300
        inspector = max(200, int(width * 0.24))
        self.splitter.setSizes([side, max(320, width - side - inspector), inspector])

    # ------------------------------------------------------------------ actions

    def run_prompt(self) -> Run | None:
        """Start a run with the prompt box's text (Ctrl+Return)."""
        prompt = self.prompt_edit.toPlainText().strip()
        if not prompt:
            self.status_label.setText(self.tr("Type a prompt first"))
            return None
        return self._start(prompt, self._answer_from)

    def run_again_from_selected(self) -> Run | None:
        """A new session with the messages up to the selected one, run from there."""
        item = self.conversation.current_item()
        if item is None or item.message is None:
            self.status_label.setText(self.tr("Select a message to run again from"))
            return None
        return self._start(self.prompt_edit.toPlainText().strip() or None, item.message)

    def _start(self, prompt: str | None, from_message: int | None) -> Run | None:
        if self.controller.busy:
            self.status_label.setText(self.tr("A run is in progress; Stop it first"))
            return None
        try:
            config, profile = self.sidebar.run_config()
            run = self.controller.start(config, profile, prompt, from_message=from_message)
        except (ValueError, RuntimeError) as exc:
            self.status_label.setText(str(exc))
            return None
        self.prompt_edit.clear()
        self._answer_from = None
        return run

    def stop(self) -> None:
        """Cancel the run in progress (Esc)."""
        self.controller.stop()

    def export_to_file(self, fmt: ExportFormat) -> Path | None:
        if self.controller.session_id is None:
            self.status_label.setText(self.tr("Run something first: there is no session to export"))
            return None
        path = self.export_path(self, fmt)
        if path is None:
            return None
        document = self.controller.export(fmt)
        path.write_text(json.dumps(document, ensure_ascii=False, indent=2), encoding="utf-8")
        self.status_label.setText(self.tr("Exported to {name}").format(name=path.name))
        return path

    async def _approve(self, request: ApprovalRequest) -> ApprovalDecision:
        self.status_label.setText(
            self.tr("Waiting for approval of {tool}").format(tool=request.tool)
        )
        return await self.approval_prompt(self, request)

    # ------------------------------------------------------------------ run signals

    def update_header(self) -> None:
        """Say what a run would run now (see :meth:`PlaygroundSidebar.describe`)."""
        self.header_label.setText(self.sidebar.describe())

    def _on_started(self, run: Run) -> None:
        self.empty_label.hide()
        self.conversation.show()
        self.model.set_messages(run.messages)
        self.event_log.log_model.clear()
        self.inspector.show_item(None, self.model)
        self.inspector.show_usage(self.model)
        origin = f" (from message {run.from_message})" if run.from_message is not None else ""
        self.session_label.setText(
            self.tr("Session {value}{origin}").format(value=run.session_id[:8], origin=origin)
        )
        self.session_label.setToolTip(run.session_id)
        self.status_label.setText(self.tr("Running…"))

    def _on_event(self, event: RunEvent) -> None:
        run = self.controller.run
        if run is not None:
            self.model.sync_messages(run.messages)
        self.model.apply_event(event)
        self.event_log.log_model.append(event)
        if event.type == "message.delta":
            self.status_label.setText(self.tr("Streaming…"))
        elif event.type == "model.response":
            self.inspector.show_usage(self.model)
        elif event.type == "approval.required":
            self.status_label.setText(self.tr("Waiting for approval"))
        elif event.type.startswith("tool_call."):
            self.status_label.setText(self.tr("Running tools…"))
        current = self.conversation.current_item()
        if (
            current is not None
            and current.call_id
            and current.call_id == event.data().get("call_id")
        ):
            self.inspector.show_item(current, self.model)

    def _on_finished(self, result: RunResult) -> None:
        self.model.sync_messages(list(result.messages))
        self.inspector.show_usage(self.model)
        reason = f": {result.reason}" if result.reason else ""
        status = self.tr("Run {status}").format(status=result.status)
        self.status_label.setText(f"{status}{reason}"[:160])
        from studio.ui.playground.capability_cards import pending_question

        waiting = pending_question(self.model.items())
        self._answer_from = len(result.messages) - 1 if waiting else None
        if waiting:  # answer the remote agent from the prompt box: the run continues there
            text = self.tr("{agent} asks: {question} — type your answer and Run")
            self.status_label.setText(text.format(agent=waiting[0], question=waiting[1])[:200])

    def _on_agent_update(self, agent: str, state: str, text: str) -> None:
        from studio.ui.playground.capability_cards import apply_agent_update

        if apply_agent_update(self.model, agent, state, text):
            self.status_label.setText(
                self.tr("{agent}: {state}").format(agent=agent, state=state)[:160]
            )

    def _on_busy(self, _busy: bool) -> None:
        self._update_buttons()

    def _update_buttons(self) -> None:
        busy = self.controller.busy
        self.run_button.setEnabled(not busy)
        self.stop_button.setEnabled(busy)
        self.again_button.setEnabled(not busy)

    def _on_item(self, item: ConversationItem | None) -> None:
        self.inspector.show_item(item, self.model)
