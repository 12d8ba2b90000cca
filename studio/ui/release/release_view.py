"""The Release mode: channels of the current registry, their actions and the log.

Channel actions are short synchronous SQLite writes through
:mod:`studio.release` (one transaction each); the guard metrics, which read
every outcome, run in a worker (see :mod:`studio.ui.release.guard_widget`).
"""

from __future__ import annotations

import dataclasses
import getpass
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSplitter,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from registry_db import RegistryStore, StoreError
from studio.release import (
    CANARY,
    STABLE,
    Channel,
    ReleaseState,
    channel_events,
    promote,
    release_state,
    rollback,
    set_canary,
)
from studio.ui.release.guard_widget import GuardWidget
from studio.ui.release.impact import (
    after_promote,
    after_rollback,
    after_set_canary,
    describe_moves,
    previous_stable,
    subject_moves,
)
from studio.ui.release.models import ChannelTableModel, EventLogModel
from studio.ui.release.prompts import ReleasePrompts
from studio.ui.release.simulator_widget import SimulatorWidget

if TYPE_CHECKING:
    from studio.server import ServerThread

_log = logging.getLogger(__name__)


def _who() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no login name in some containers
        return ""


class ReleaseView(QWidget):
    """Gray release of one registry: channels, actions, log, simulator, guard, serving.

    Args:
        store: The open store.
        prompts: The questions asked (injectable for tests).
        who: Who the channel log names (default: the login name).

    Signals:
        changed(ReleaseState): a channel action was written and the view refreshed.
    """

    changed = Signal(object)
    publishRequested = Signal()

    def __init__(
        self, store: RegistryStore, prompts: ReleasePrompts | None = None, *,
        who: str | None = None, parent: QWidget | None = None,
    ) -> None:  # fmt: skip
        super().__init__(parent)
        self.store = store
        self.prompts = prompts or ReleasePrompts()
        self.who = _who() if who is None else who
        self.registry: str | None = None
        self.state: ReleaseState | None = None
        self.server: ServerThread | None = None  # while serving

        self.title = QLabel()
        self.title.setTextFormat(Qt.TextFormat.RichText)
        self.channel_model = ChannelTableModel(self)
        self.channel_table = _table(self.channel_model)
        self.channel_table.setMinimumHeight(90)
        self.channel_table.setMaximumHeight(160)  # a few channels; the tabs get the room
        self.set_canary_button = QPushButton(self.tr("Set canary…"))
        self.promote_button = QPushButton(self.tr("Promote"))
        self.promote_button.setToolTip(
            self.tr("Make the canary's version stable (canary goes to 0 %)")
        )
        self.rollback_canary_button = QPushButton(self.tr("Roll back canary"))
        self.rollback_canary_button.setToolTip(self.tr("Set the canary to 0 %"))
        self.rollback_stable_button = QPushButton(self.tr("Roll back stable"))
        self.rollback_stable_button.setToolTip(self.tr("Return stable to its previous version"))
        self.serve_check = QCheckBox(self.tr("Serve"))
        self.serve_check.setToolTip(self.tr("Serve published versions over HTTP on 127.0.0.1"))
        self.serve_label = QLabel()
        self.serve_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        buttons = QHBoxLayout()
        for button in (self.set_canary_button, self.promote_button,
                       self.rollback_canary_button, self.rollback_stable_button):  # fmt: skip
            buttons.addWidget(button)
        buttons.addStretch(1)
        buttons.addWidget(self.serve_check)
        buttons.addWidget(self.serve_label)

        self.event_model = EventLogModel(self)
        self.event_table = _table(self.event_model)
        self.event_table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents
        )
        self.event_table.horizontalHeader().setStretchLastSection(True)
        # "Why" is free text of any length (its tooltip holds all of it): a fixed share
        # leaves the last column, the change in words, readable in small windows.
        why = self.event_model.columnCount() - 2
        self.event_table.horizontalHeader().setSectionResizeMode(
            why, QHeaderView.ResizeMode.Interactive
        )
        self.event_table.setColumnWidth(why, 180)
        self.simulator = SimulatorWidget()
        self.guard = GuardWidget(store)
        self.tabs = QTabWidget()
        self.tabs.addTab(self.event_table, self.tr("Channel log"))
        self.tabs.addTab(self.simulator, self.tr("Simulator"))
        self.tabs.addTab(self.guard, self.tr("Guard"))

        upper = QWidget()
        upper_layout = QVBoxLayout(upper)
        upper_layout.setContentsMargins(6, 6, 6, 0)
        upper_layout.addWidget(self.title)
        upper_layout.addWidget(self.channel_table, 1)
        upper_layout.addLayout(buttons)
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(upper)
        self.splitter.addWidget(self.tabs)
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 1)
        # Before the first publish there are no channels to move: say so, offer the next step.
        self.empty_state = QWidget()
        self.empty_state.setObjectName("releaseEmpty")
        self.empty_label = QLabel()
        self.empty_label.setWordWrap(True)
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_publish_button = QPushButton(self.tr("Publish the draft…"))
        self.empty_publish_button.clicked.connect(self.publishRequested.emit)
        empty_layout = QVBoxLayout(self.empty_state)
        empty_layout.setContentsMargins(24, 24, 24, 24)
        empty_layout.addStretch(1)
        empty_layout.addWidget(self.empty_label)
        empty_layout.addWidget(self.empty_publish_button, 0, Qt.AlignmentFlag.AlignHCenter)
        empty_layout.addStretch(2)
        self.empty_state.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.empty_state)
        layout.addWidget(self.splitter)

        self.set_canary_button.clicked.connect(self.ask_set_canary)
        self.promote_button.clicked.connect(self.ask_promote)
        self.rollback_canary_button.clicked.connect(lambda: self.ask_rollback(CANARY))
        self.rollback_stable_button.clicked.connect(lambda: self.ask_rollback(STABLE))
        self.serve_check.toggled.connect(self.set_serving)
        self._update_buttons()

    def show_action_rows(self, shown: bool) -> None:
        """Show or hide the channel buttons and Serve, which a toolbar also carries.

        They keep working while hidden: the main window's toolbar goes through them.
        """
        for button in (self.set_canary_button, self.promote_button,
                       self.rollback_canary_button, self.rollback_stable_button,
                       self.serve_check):  # fmt: skip
            button.setVisible(shown)  # the server's URL label stays

    # ------------------------------------------------------------------ state

    def set_registry(self, registry: str | None) -> None:
        """Show the channels of ``registry`` (None: nothing), read afresh."""
        self.registry = registry
        self.refresh()

    def refresh(self) -> None:
        """Re-read channels and the log; recompute the simulator and the guard."""
        self.state = None
        events = []
        semvers: dict[int, str] = {}
        latest = None
        if self.registry is not None:
            try:
                self.state = release_state(self.store, self.registry)
                events = channel_events(self.store, self.registry)
                versions = self.store.list_versions(self.registry)
            except StoreError as exc:
                _log.warning("cannot read the channels of %s: %s", self.registry, exc)
                versions = []
            semvers = {v.number: v.semver for v in versions if v.semver}
            latest = versions[-1].number if versions else None
        channels = self.display_channels()
        self.channel_model.set_channels(channels, semvers)
        self.event_model.set_rows(list(reversed(events)))
        self.simulator.set_channels(channels, latest)
        self.guard.set_registry(self.registry)
        self._update_title()
        self._update_buttons()
        self._update_empty_state(latest)

    def _update_empty_state(self, latest: int | None) -> None:
        empty = self.registry is None or latest is None
        if self.registry is None:
            self.empty_label.setText(
                self.tr("No registry is open. Open or import one in the Editor (Ctrl+1).")
            )
        else:
            self.empty_label.setText(
                self.tr(
                    "{registry} has no published version yet. Channels serve published "
                    "versions: publish the draft, then set a canary here and watch the guard."
                ).format(registry=self.registry)
            )
        self.empty_publish_button.setVisible(self.registry is not None)
        self.empty_state.setVisible(empty)
        self.splitter.setVisible(not empty)

    def display_channels(self) -> list[Channel]:
        """The channels with stable's effective version filled in."""
        if self.state is None:
            return []
        channels = list(self.state.channels)
        if channels and channels[0].version is None and self.state.stable_version is not None:
            channels[0] = dataclasses.replace(channels[0], version=self.state.stable_version)
        return channels

    def _update_title(self) -> None:
        if self.state is None:
            self.title.setText(self.tr("<b>No registry</b> — open one in the Editor."))
            return
        follow = "" if self.state.stable_pinned else self.tr(" (stable follows the newest version)")
        self.title.setText(
            self.tr("<b>{registry}</b> — channels{follow}").format(
                registry=self.state.registry, follow=follow
            )
        )

    def _update_buttons(self) -> None:
        state = self.state
        canary = _find(state, CANARY)
        has_versions = state is not None and state.stable_version is not None
        self.set_canary_button.setEnabled(has_versions)
        self.promote_button.setEnabled(canary is not None and canary.version is not None)
        self.rollback_canary_button.setEnabled(canary is not None and canary.share > 0)
        self.rollback_stable_button.setEnabled(state is not None and state.stable_pinned)

    # ------------------------------------------------------------------ actions

    def canary_impact(self, version: int, share: int) -> str:
        """What setting the canary to ``version`` at ``share`` % does, in words."""
        if self.state is None or self.registry is None:
            return ""
        before = self.display_channels()
        try:
            numbers = [v.number for v in self.store.list_versions(self.registry)]
        except StoreError:
            numbers = []
        after = after_set_canary(before, self.state.stable_pinned, numbers, version, share)
        text = describe_moves(subject_moves(before, after))
        stable_before, stable_after = before[0].version, after[0].version
        if not self.state.stable_pinned and stable_before != stable_after:
            pin = self.tr(
                "Stable follows the newest version (v{old}); setting a canary pins it to v{new}."
            ).format(old=stable_before, new=stable_after)
            text = f"{pin} {text}"
        return text

    def _moves_text(self, after: list[Channel]) -> str:
        return describe_moves(subject_moves(self.display_channels(), after))

    def ask_set_canary(self) -> bool:
        """Ask for version, share and why; write them. True when written."""
        if self.registry is None or self.state is None:
            return False
        canary = _find(self.state, CANARY)
        versions = self.store.list_versions(self.registry)
        request = self.prompts.set_canary(
            self, versions, canary.version if canary else None, canary.share if canary else 0
        )
        if request is None:
            return False
        registry = self.registry
        return self._write(
            "Set canary",
            lambda: set_canary(self.store, registry, version=request.version,
                               share=request.share, who=self.who, why=request.why),
        )  # fmt: skip

    def ask_promote(self) -> bool:
        """Ask why, then make the canary's version stable."""
        canary = _find(self.state, CANARY)
        if self.registry is None or canary is None or canary.version is None:
            return False
        moves = self._moves_text(after_promote(self.display_channels()))
        why = self.prompts.why(
            self,
            self.tr("Promote"),
            self.tr("Why promote v{version} to stable?").format(version=canary.version)
            + f"\n\n{moves}",
        )
        if why is None:
            return False
        registry = self.registry
        return self._write("Promote", lambda: promote(self.store, registry, who=self.who, why=why))

    def ask_rollback(self, channel: str) -> bool:
        """Ask why, then roll ``channel`` back (stable: previous version; canary: 0 %)."""
        if self.registry is None:
            return False
        what = (
            self.tr("stable to its previous version")
            if channel == STABLE
            else self.tr("the canary to 0 %")
        )
        previous = previous_stable(channel_events(self.store, self.registry))
        moves = self._moves_text(after_rollback(self.display_channels(), channel, previous))
        why = self.prompts.why(
            self,
            self.tr("Roll back"),
            self.tr("Why roll back {what}?").format(what=what) + f"\n\n{moves}",
        )
        if why is None:
            return False
        registry = self.registry
        return self._write(
            "Roll back",
            lambda: rollback(self.store, registry, channel, who=self.who, why=why),
        )

    def _write(self, title: str, action: Callable[[], ReleaseState]) -> bool:
        try:
            state = action()
        except StoreError as exc:  # ChannelError and NotFoundError are StoreErrors
            self.prompts.error(self, title, f"Nothing was changed: {exc}")
            return False
        self.refresh()
        self.changed.emit(state)
        return True

    # ------------------------------------------------------------------ serving

    def set_serving(self, on: bool) -> None:
        """Start or stop the HTTP server on a free loopback port (no outcome token)."""
        if on and self.server is None:
            from studio.server import ServerThread  # uvicorn only when asked for

            try:
                self.server = ServerThread(self.store).start()
            except (OSError, RuntimeError) as exc:
                self.prompts.error(self, "Serve", f"The server did not start: {exc}")
                self.serve_check.blockSignals(True)
                self.serve_check.setChecked(False)
                self.serve_check.blockSignals(False)
                return
            self.serve_label.setText(self.server.url)
        elif not on and self.server is not None:
            self.server.stop()
            self.server = None
            self.serve_label.clear()

    def shutdown(self) -> None:
        """Stop serving and drop running guard jobs (window closing)."""
        self.set_serving(False)
        self.guard.shutdown()


def _find(state: ReleaseState | None, name: str) -> Channel | None:
    if state is None:
        return None
    return next((c for c in state.channels if c.name == name), None)


def _table(model: object) -> QTableView:
    table = QTableView()
    table.setModel(model)  # type: ignore[arg-type]
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.verticalHeader().hide()
    table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
    table.setWordWrap(False)
    return table
