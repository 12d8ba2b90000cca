"""The read-only viewer of one stored session: the playground's conversation, inspector and log.

The conversation shows the whole session analysed for pairing (colours, id
chips, problems flagged in place); replay hides the rows after the current
step instead of rebuilding the model, so stepping through a 10,000-message
session only touches the rows that appear or disappear. Nothing here can
change the session.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QAbstractItemModel, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QListView,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from registry_db.sessions import StoredEvent
from studio.runtime.events import event_from_record
from studio.sessions.check import SessionCheck, original_ids
from studio.sessions.model import Message
from studio.sessions.replay import ReplayStep, SessionReplay
from studio.sessions.revalidate import RevalidationReport
from studio.sessions.suspicious import find_suspicious
from studio.ui.playground.conversation import ConversationView
from studio.ui.playground.conversation_model import ConversationItem
from studio.ui.playground.event_log import EventLogModel, EventLogView
from studio.ui.playground.inspector import InspectorWidget
from studio.ui.sessions.proxy_log import ProxyLogView
from studio.ui.sessions.replay_bar import PendingCallsModel, ReplayBar


def _panel(title: str, widget: QWidget, extra: QWidget | None = None) -> QWidget:
    box = QWidget()
    layout = QVBoxLayout(box)
    layout.setContentsMargins(4, 4, 4, 0)
    layout.setSpacing(2)
    label = QLabel(title)
    label.setStyleSheet("font-weight: bold;")
    layout.addWidget(label)
    layout.addWidget(widget, 1)
    if extra is not None:
        layout.addWidget(extra)
    return box


def _findings(replay: SessionReplay) -> set[tuple[int, str, str]]:
    """``(step, kind, message)`` of every finding (what is new after a session grew)."""
    return {(i, f.kind, f.message) for i in replay.problem_steps for f in replay.steps[i].findings}


class SessionViewer(QWidget):
    """Conversation (with the replay bar) and event log | pending calls, findings, inspector."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.messages: list[Message] = []
        self.replay: SessionReplay | None = None
        self._row_start: list[int] = []
        self._row_end: list[int] = []
        self._visible_end = 0

        self.header = QLabel(self.tr("Select a session"))
        self.header.setWordWrap(True)
        self.header.setContentsMargins(4, 4, 4, 0)
        self.replay_bar = ReplayBar()
        self.replay_model_button = QPushButton(self.tr("Replay as model…"))
        self.replay_model_button.setToolTip(
            self.tr(
                "Play the recorded assistant turns as the model against the current runtime, "
                "registry version and executors; optionally fork at the current step with a "
                "live model"
            )
        )
        self.replay_model_button.setEnabled(False)
        self.stop_replay_button = QPushButton(self.tr("Stop"))
        self.stop_replay_button.setToolTip(self.tr("Stop the replay"))
        self.stop_replay_button.setEnabled(False)
        # Repair…, Convert…, Trim…: before | after of studio.sessions.doctor (the browser
        # opens the dialog; the session itself is never changed).
        self.doctor_buttons: dict[str, QPushButton] = {}
        for action, label, tip in (
            (
                "repair",
                self.tr("Repair…"),
                self.tr("The smallest change that makes this history valid for a provider"),
            ),
            (
                "convert",
                self.tr("Convert…"),
                self.tr("This conversation in another provider's wire shape"),
            ),
            (
                "trim",
                self.tr("Trim…"),
                self.tr("Drop the oldest messages to fit a token budget, at safe points only"),
            ),
        ):
            button = QPushButton(label)
            button.setToolTip(tip)
            button.setEnabled(False)
            self.doctor_buttons[action] = button
        self.replay_status = QLabel()
        self.replay_status.setWordWrap(True)
        self.replay_status.setContentsMargins(4, 0, 4, 0)
        self.replay_status.hide()
        self.conversation = ConversationView()
        self.model = self.conversation.conversation
        self.event_log = EventLogView()
        self.inspector = InspectorWidget()
        self.pending_model = PendingCallsModel(self)
        self.pending_view = QListView()
        self.pending_view.setModel(self.pending_model)
        self.pending_view.setAccessibleName(self.tr("Pending tool calls"))
        self.pending_view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.findings_view = QPlainTextEdit()
        self.findings_view.setReadOnly(True)
        self.findings_view.setPlaceholderText(self.tr("No problem at this step"))
        self.findings_view.setAccessibleName(self.tr("Problems at this step"))
        self.findings_view.setMaximumHeight(self.fontMetrics().height() * 6 + 12)

        top = QWidget()
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        top_layout.setSpacing(2)
        # The title on a row of its own, the actions below it and the replay bar below them:
        # side by side at 900 px the title wrapped a word a line and the buttons were cut.
        top_layout.addWidget(self.header)
        self.action_row = QWidget()
        """Doctor, eval case and replay buttons (hidden where a toolbar carries them)."""
        header_row = QHBoxLayout(self.action_row)
        header_row.setContentsMargins(4, 0, 4, 0)
        header_row.setSpacing(4)
        for button in self.doctor_buttons.values():
            header_row.addWidget(button)
        # Add as eval case…: this step's user turn and its calls into an eval set (Evals mode).
        self.add_case_button = QPushButton(self.tr("Eval case…"))
        self.add_case_button.setToolTip(
            self.tr("Add this step's user turn and the calls it led to as an eval case")
        )
        self.add_case_button.setEnabled(False)
        self.add_case_button.clicked.connect(self.add_eval_case)
        header_row.addWidget(self.add_case_button)
        header_row.addStretch(1)
        header_row.addWidget(self.replay_model_button)
        header_row.addWidget(self.stop_replay_button)
        top_layout.addWidget(self.action_row)
        bar_row = QHBoxLayout()
        bar_row.setContentsMargins(0, 0, 4, 0)
        bar_row.setSpacing(4)
        bar_row.addWidget(self.replay_bar, 1)
        top_layout.addLayout(bar_row)
        top_layout.addWidget(self.replay_status)
        top_layout.addWidget(self.conversation, 1)
        self.bottom_tabs = QTabWidget()
        self.bottom_tabs.addTab(self.event_log, self.tr("Event log"))
        self.bottom_tabs.setMinimumHeight(90)
        self.proxy_log = ProxyLogView()
        """A tab only while a proxy session is shown."""
        self.centre = QSplitter(Qt.Orientation.Vertical)
        self.centre.setChildrenCollapsible(False)
        self.centre.addWidget(top)
        self.centre.addWidget(self.bottom_tabs)
        self.centre.setStretchFactor(0, 3)
        self.centre.setStretchFactor(1, 2)
        self.centre.setSizes([600, 260])
        top.setMinimumHeight(200)

        self.side = QSplitter(Qt.Orientation.Vertical)
        self.side.setChildrenCollapsible(False)
        self.side.addWidget(
            _panel(self.tr("Pending tool calls"), self.pending_view, self.findings_view)
        )
        self.side.addWidget(self.inspector)
        self.side.setStretchFactor(0, 1)
        self.side.setStretchFactor(1, 2)
        self.side.setMinimumWidth(200)

        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(self.centre)
        self.splitter.addWidget(self.side)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 1)
        self.centre.setMinimumWidth(300)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.splitter)

        self.replay_bar.stepChanged.connect(self._on_step)
        self.conversation.currentItemChanged.connect(self._on_item)

    # ------------------------------------------------------------------ loading

    def show_session(
        self,
        messages: Sequence[Message],
        events: Sequence[StoredEvent] = (),
        *,
        check: SessionCheck | None = None,
        title: str = "",
        origins: Sequence[str] = (),
    ) -> None:
        """Show ``messages`` (and the run's stored ``events``) read-only, at the first problem.

        Args:
            origins: Per message, where it was in the imported file (findings name it).

        A session without problems opens at its last step.
        """
        self.messages = list(messages)
        self.header.setText(title or self.tr("{count} messages").format(count=len(self.messages)))
        self.model.set_messages(self.messages)
        log = EventLogModel(self.event_log)
        for stored in events:
            try:
                event = event_from_record(stored.seq, stored.type, stored.data, stored.run_id)
            except (KeyError, TypeError):
                continue  # an event type or shape this version does not know
            self.model.apply_event(event)
            log.append(event)
        self._set_log_model(log)
        self._show_proxy_log(events)
        self._index_rows()
        self.inspector.show_item(None, self.model)
        self.inspector.show_usage(self.model)
        if check is None:
            # The conversation model has just analysed the pairing: reuse it, don't redo it.
            check = SessionCheck(self.model.report, tuple(find_suspicious(self.messages)),
                                 None, original_ids(self.messages), tuple(origins))  # fmt: skip
        self.replay = SessionReplay(self.messages, check)
        first = check.first_problem
        self.replay_bar.set_replay(self.replay, first.message if first is not None else None)
        for button in self.doctor_buttons.values():
            button.setEnabled(bool(self.messages))
        self.add_case_button.setEnabled(bool(self.messages))

    def show_live(
        self,
        messages: Sequence[Message],
        events: Sequence[StoredEvent] = (),
        *,
        title: str = "",
        origins: Sequence[str] = (),
    ) -> None:
        """Show the open session again after it grew (a live proxy session).

        Lands on the first problem the new messages brought (the badge's moment);
        else follows the tail when the step shown was the last, or stays put.
        """
        old = self.replay
        if old is None:
            self.show_session(messages, events, title=title, origins=origins)
            return
        known = _findings(old)
        position, at_end = old.position, old.position >= len(old) - 1
        self.show_session(messages, events, title=title, origins=origins)
        replay = self.replay
        if replay is None or not len(replay):
            return
        fresh = sorted(step for step, _kind, _text in _findings(replay) - known)
        if fresh:
            target = fresh[0]
        elif at_end:
            target = len(replay) - 1
        else:
            target = min(position, len(replay) - 1)
        if target != replay.position:
            self.replay_bar.jump(target)

    def _show_proxy_log(self, events: Sequence[StoredEvent]) -> None:
        shown = self.proxy_log.set_events(events)
        at = self.bottom_tabs.indexOf(self.proxy_log)
        if shown and at < 0:
            self.bottom_tabs.insertTab(0, self.proxy_log, self.tr("Proxy exchanges"))
            self.bottom_tabs.setCurrentIndex(0)
        elif not shown and at >= 0:
            self.bottom_tabs.removeTab(at)

    def clear(self) -> None:
        self._show_proxy_log(())
        self.messages = []
        self.header.setText(self.tr("Select a session"))
        self.model.set_messages([])
        self._set_log_model(EventLogModel(self.event_log))
        self._index_rows()
        self.inspector.show_item(None, self.model)
        self.replay = None
        self.replay_bar.set_replay(None)
        for button in self.doctor_buttons.values():
            button.setEnabled(False)
        self.add_case_button.setEnabled(False)

    def set_revalidation(self, report: RevalidationReport | None) -> None:
        """Count re-validation failures as problems of the replay (keeps the position)."""
        if self.replay is None:
            return
        base = self.replay.check
        check = SessionCheck(base.pairing, base.suspicious, report, base.original_ids,
                             base.origins, base.risk_guessed)  # fmt: skip
        position = self.replay.position
        self.replay = SessionReplay(self.messages, check)
        self.replay_bar.set_replay(self.replay, position)

    def _set_log_model(self, log: EventLogModel) -> None:
        # Filled before it is shown: one reset instead of a row insertion per event.
        old: QAbstractItemModel = self.event_log.log_model
        self.event_log.log_model = log
        self.event_log.setModel(log)
        old.deleteLater()

    def _index_rows(self) -> None:
        """First and past-the-end conversation rows of every message."""
        start = [0] * len(self.messages)
        end = [0] * len(self.messages)
        for row, item in enumerate(self.model.items()):
            if item.message is None:
                continue
            if end[item.message] == 0:
                start[item.message] = row
            end[item.message] = row + 1
        self._row_start, self._row_end = start, end
        self._visible_end = self.model.rowCount()

    # ------------------------------------------------------------------ replay

    def visible_rows(self) -> int:
        """How many conversation rows the replay shows (rows up to the current step)."""
        return self._visible_end

    def _show_rows_until(self, end: int) -> None:
        low, high = sorted((self._visible_end, end))
        for row in range(low, high):
            self.conversation.setRowHidden(row, row >= end)
        self._visible_end = end

    def _on_step(self, step: ReplayStep | None) -> None:
        if step is None or not self._row_end:
            self._show_rows_until(0)
            self.pending_model.set_calls([])
            self.findings_view.setPlainText("")
            return
        self._show_rows_until(self._row_end[step.index])
        index = self.model.index(self._row_start[step.index])
        self.conversation.setCurrentIndex(index)
        self.conversation.scrollTo(index, QAbstractItemView.ScrollHint.PositionAtBottom)
        self.pending_model.set_calls(step.pending)
        lines = [f"{f.source} {f.kind}: {f.message}" + (f" [{f.origin}]" if f.origin else "")
                 for f in step.findings]  # fmt: skip
        answered = (
            self.tr("Answered here: {calls}").format(calls=", ".join(step.answered)) + "\n"
            if step.answered
            else ""
        )
        self.findings_view.setPlainText(answered + "\n".join(f"⚠ {line}" for line in lines))

    def add_eval_case(self) -> object:
        """The step's user turn as an eval case (studio.ui.evals.session_case does the work)."""
        from studio.ui.evals.session_case import add_case_from_viewer

        outcome = add_case_from_viewer(self)
        if isinstance(outcome, str):
            self.replay_status.setText(outcome)
        else:
            self.replay_status.setText(
                self.tr("Added {case} to the eval set {name}").format(
                    case=outcome[1].id, name=outcome[0]
                )
            )
        self.replay_status.show()
        return outcome

    def _on_item(self, item: ConversationItem | None) -> None:
        self.inspector.show_item(item, self.model)

    def size_panes(self, width: int) -> None:
        side = max(210, int(width * 0.28))
        self.splitter.setSizes([max(300, width - side), side])
