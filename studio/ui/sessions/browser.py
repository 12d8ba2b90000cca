"""The Sessions mode: the list of stored sessions | the read-only viewer with replay.

Sessions come from the playground, from imported logs and from replays; the
list filters them by source, registry and text. Selecting one shows it in the
:class:`SessionViewer` (conversation, inspector, event log, step-through) and
hands it to the :class:`RevalidateView`. "Replay as model…" plays the
recorded assistant turns against the current runtime (optionally forking to
a live model at the current step) as a task on the qasync loop and selects the
new ``replay`` session. Repair…, Convert… and Trim… open a
:class:`DoctorDialog` (before | after) whose result is saved as a new session
linked to the selected one. Import log…, Export session… and the replay
choice go through :class:`SessionPrompts`, so tests never open a modal dialog.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QItemSelection, QItemSelectionModel, Qt
from PySide6.QtGui import QHideEvent, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QSplitter,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from registry_db import RegistryStore
from registry_db.errors import NotFoundError
from registry_db.sessions import SessionInfo, SessionStore
from studio.runtime.context import SessionContext
from studio.sessions.exporters import EXPORT_FORMATS, export_text
from studio.sessions.library import (
    SOURCE_IMPORT,
    SOURCE_MCP,
    SOURCE_PLAYGROUND,
    SOURCE_PROXY,
    SOURCE_REPLAY,
    load_messages,
    stored_origins,
)
from studio.sessions.model import Message
from studio.sessions.revalidate import recorded_prepared_arguments
from studio.ui.sessions.doctor_dialog import DoctorDialog
from studio.ui.sessions.import_dialog import ImportLogDialog
from studio.ui.sessions.live import LiveWatch, ProxyRecording
from studio.ui.sessions.prompts import SessionPrompts, export_title
from studio.ui.sessions.replay_model import (
    ClientFactory,
    ReplayChoice,
    ReplayModelController,
    ReplayOutcome,
    replay_options,
)
from studio.ui.sessions.revalidate_view import RevalidateView
from studio.ui.sessions.session_list import Counts, SessionList, count_sessions, list_rows
from studio.ui.sessions.sessions_model import (
    COLUMNS,
    SessionsFilterModel,
    SessionsTableModel,
    source_label,
    untitled,
)
from studio.ui.sessions.viewer import SessionViewer
from studio.ui.sessions.worker import Job, JobRunner

ALL = ""
FIXED_WIDTHS = ((0, 170), (COLUMNS.index("Registry"), 120))
"""Columns with a fixed starting width (long texts, elided); the others fit their contents."""
RESIZE_ROWS = 300
"""Rows measured when fitting a column to its contents (a long list is not measured whole)."""
DOCTOR_SOURCES = ("repair", "convert", "trim")


class SessionsView(QWidget):
    """The session browser.

    Args:
        store: The open store (sessions and registries share it).
        prompts: File choosers and questions (tests pass a stub).
        client_factory: Makes the live model client of a profile (replay forks).
    """

    def __init__(
        self,
        store: RegistryStore,
        prompts: SessionPrompts | None = None,
        parent: QWidget | None = None,
        *,
        client_factory: ClientFactory | None = None,
    ) -> None:
        super().__init__(parent)
        self.store = store
        self.sessions = SessionStore.for_store(store)
        self.prompts = prompts or SessionPrompts()
        self.runner = JobRunner(parent=self)
        replay_kwargs = {"client_factory": client_factory} if client_factory else {}
        self.replayer = ReplayModelController(store, self.sessions, parent=self, **replay_kwargs)
        self.info: SessionInfo | None = None
        self.messages: list[Message] = []
        self.import_dialog: ImportLogDialog | None = None
        self.doctor_dialog: DoctorDialog | None = None
        self._sized = False
        self._counts: dict[str, int] | None = None
        self._count_job = 0
        self.live = LiveWatch(self.sessions, self)
        self.recording = ProxyRecording(store, self.live, self)

        self.text_filter = QLineEdit()
        self.text_filter.setPlaceholderText(self.tr("Filter by title, id, model"))
        self.text_filter.setClearButtonEnabled(True)
        self.source_filter = QComboBox()
        self.source_filter.addItem(self.tr("All sources"), ALL)
        for source in (SOURCE_PLAYGROUND, SOURCE_IMPORT, SOURCE_REPLAY, SOURCE_MCP, SOURCE_PROXY,
                       *DOCTOR_SOURCES):  # fmt: skip
            self.source_filter.addItem(source_label(source), source)
        self.registry_filter = QComboBox()
        self.registry_filter.addItem(self.tr("All registries"), ALL)
        self.registry_filter.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.registry_filter.setMinimumContentsLength(10)

        self.table_model = SessionsTableModel(self)
        self.proxy = SessionsFilterModel(self)
        self.proxy.setSourceModel(self.table_model)
        self.table = QTableView()
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(COLUMNS.index("Date"), Qt.SortOrder.DescendingOrder)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setWordWrap(False)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        self.table.setAccessibleName(self.tr("Sessions"))
        header = self.table.horizontalHeader()
        # Sized to contents once per refresh, not on every change: ResizeToContents
        # measured every row on each live row update (0.8 s at 300 sessions).
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setResizeContentsPrecision(RESIZE_ROWS)
        # Title and registry can be long: fixed starting widths (elided, full text in the
        # tooltip) so the short columns stay readable; the table scrolls sideways.
        for column, width in FIXED_WIDTHS:
            header.resizeSection(column, width)
        header.setMinimumSectionSize(40)

        self.import_button = QPushButton(self.tr("Import log…"))
        self.import_button.setToolTip(
            self.tr(
                "Import sessions from an OpenAI, Anthropic or Gemini log, a SWE-agent trajectory, "
                "a Claude Code session file or a Codex rollout"
            )
        )
        self.export_button = QToolButton()
        self.export_button.setText(self.tr("Export"))
        self.export_button.setToolTip(
            self.tr("Export session… (OpenAI, Anthropic or JSONL; secrets redacted)")
        )
        self.export_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(self.export_button)
        for fmt in EXPORT_FORMATS:
            menu.addAction(
                self.tr("{format}…").format(format=export_title(fmt)),
                partial(self.export_session, fmt),
            )
        self.export_button.setMenu(menu)
        self.refresh_button = QPushButton(self.tr("Refresh"))
        self.count_label = QLabel()
        self.proxy_button = QPushButton(self.tr("Record proxy…"))
        self.proxy_button.setToolTip(
            self.tr(
                "Start the recording proxy: point an agent at it instead of its provider and "
                "watch its sessions arrive here, with a problem badge on broken histories"
            )
        )
        self.proxy_status = QLabel()
        self.proxy_status.setWordWrap(True)
        self.proxy_status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.proxy_status.hide()

        filters = QHBoxLayout()
        filters.setSpacing(4)
        filters.addWidget(self.source_filter)
        filters.addWidget(self.registry_filter, 1)
        self.list_actions = QWidget()
        """Import, Export, Record proxy, Refresh: hidden where a toolbar carries them."""
        buttons = QHBoxLayout(self.list_actions)
        buttons.setContentsMargins(0, 0, 0, 0)
        buttons.setSpacing(4)
        buttons.addWidget(self.import_button)
        buttons.addWidget(self.export_button)
        buttons.addWidget(self.proxy_button)
        buttons.addStretch(1)
        buttons.addWidget(self.refresh_button)
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(4, 4, 4, 4)
        left_layout.setSpacing(4)
        left_layout.addWidget(self.list_actions)
        left_layout.addWidget(self.text_filter)
        left_layout.addLayout(filters)
        left_layout.addWidget(self.table, 1)
        left_layout.addWidget(self.count_label)
        left_layout.addWidget(self.proxy_status)
        left.setMinimumWidth(220)

        self.viewer = SessionViewer()
        self.revalidate_view = RevalidateView(store, self.runner)
        self.viewer.bottom_tabs.addTab(self.revalidate_view, self.tr("Re-validation"))

        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(left)
        self.splitter.addWidget(self.viewer)
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setStretchFactor(1, 3)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.splitter)

        self.text_filter.textChanged.connect(self._on_filter)
        self.source_filter.currentIndexChanged.connect(self._on_filter)
        self.registry_filter.currentIndexChanged.connect(self._on_filter)
        self.table.selectionModel().selectionChanged.connect(self._on_selection)
        self.import_button.clicked.connect(self.import_log)
        self.refresh_button.clicked.connect(lambda: self.refresh())
        self.proxy_button.clicked.connect(self.toggle_proxy)
        self.live.changed.connect(self._on_live_change)
        self.revalidate_view.reportReady.connect(self.viewer.set_revalidation)
        self.viewer.replay_model_button.clicked.connect(lambda: self.replay_as_model())
        self.viewer.stop_replay_button.clicked.connect(self.replayer.stop)
        for action, button in self.viewer.doctor_buttons.items():
            button.clicked.connect(lambda _=False, a=action: self.open_doctor(a))
        self.replayer.busyChanged.connect(self._on_replay_busy)
        self.replayer.finished.connect(self._on_replayed)
        self.refresh()

    def show_action_rows(self, shown: bool) -> None:
        """Show or hide the rows of buttons a toolbar also carries (the main window's does).

        The buttons keep working (and keep their enabled state) while hidden: the
        toolbar's actions go through them. At 900 px the rows were cut off.
        """
        self.list_actions.setVisible(shown)
        self.viewer.action_row.setVisible(shown)

    # ------------------------------------------------------------------ list

    def size_panes(self, width: int) -> None:
        """Split ``width`` between the list and the viewer (and inside the viewer)."""
        left = 250 if width < 1100 else 380
        self.splitter.setSizes([left, max(500, width - left)])
        self.viewer.size_panes(max(500, width - left))

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.live.start()
        if not self._sized:
            # Split by the height actually shown: short windows still show a few
            # re-validation rows under the conversation.
            self._sized = True
            height = self.viewer.centre.height()
            top = max(220, min(int(height * 0.62), height - 170))
            self.viewer.centre.setSizes([top, max(90, height - top)])

    def hideEvent(self, event: QHideEvent) -> None:
        super().hideEvent(event)
        self.live.stop()

    def refresh(self, select: str | None = None) -> None:
        """Re-read the sessions (keeping the selection, or selecting ``select``).

        One query, no message read (:func:`list_rows`); sessions whose counts are
        older than their messages are counted again in the background.
        """
        keep = select or (self.info.id if self.info else None)
        self.live.reset()  # before the read: a change during it is news for the next poll
        listed = list_rows(self.sessions)
        rows = listed.rows
        grown = set(self.table_model.live)
        if self._counts is not None:
            grown |= {sid for sid, count in listed.message_counts.items()
                      if count > self._counts.get(sid, 0)}  # fmt: skip
        self._counts = listed.message_counts
        self.table_model.live = grown & set(listed.message_counts)
        self.table_model.counting = set(listed.stale)
        self.table_model.set_rows(rows)
        fixed = {column for column, _width in FIXED_WIDTHS}
        for column in range(len(COLUMNS)):
            if column not in fixed:
                self.table.resizeColumnToContents(column)
        self._count_stale(listed.stale)
        registries = sorted({r.registry for r in rows if r.registry})
        current = self.registry_filter.currentData()
        self.registry_filter.blockSignals(True)
        self.registry_filter.clear()
        self.registry_filter.addItem(self.tr("All registries"), ALL)
        for name in registries:
            self.registry_filter.addItem(name, name)
        self.registry_filter.setCurrentIndex(max(0, self.registry_filter.findData(current)))
        self.registry_filter.blockSignals(False)
        self._update_count()
        if keep is None or not self.select_session(keep):
            self._show(None)

    def _on_filter(self, *_args: object) -> None:
        self.proxy.set_text_filter(self.text_filter.text())
        self.proxy.set_source_filter(self.source_filter.currentData() or ALL)
        self.proxy.set_registry_filter(self.registry_filter.currentData() or ALL)
        self._update_count()

    def _update_count(self) -> None:
        shown, total = self.proxy.rowCount(), self.table_model.rowCount()
        if shown == total:
            text = self.tr("1 session") if total == 1 else self.tr("{total} sessions")
        else:
            text = (
                self.tr("{shown} of 1 session shown")
                if total == 1
                else self.tr("{shown} of {total} sessions shown")
            )
        self.count_label.setText(text.format(shown=shown, total=total))

    def visible_ids(self) -> list[str]:
        return [row.id for i in range(self.proxy.rowCount()) if (row := self.proxy.row_at(i))]

    def select_session(self, session_id: str) -> bool:
        """Select (and show) ``session_id`` if the filters let it through."""
        source_row = self.table_model.row_of(session_id)
        if source_row < 0:
            return False
        index = self.proxy.mapFromSource(self.table_model.index(source_row, 0))
        if not index.isValid():
            return False
        self.table.selectionModel().select(
            index,
            QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows,
        )
        self.table.setCurrentIndex(index)
        self.table.scrollTo(index)
        if self.info is None or self.info.id != session_id:
            self._show(session_id)
        return True

    def _on_selection(self, selected: QItemSelection, _deselected: QItemSelection) -> None:
        rows = self.table.selectionModel().selectedRows()
        row = self.proxy.row_at(rows[0].row()) if rows else None
        if row is None:
            return
        if self.info is None or self.info.id != row.id:
            self._show(row.id)

    # ------------------------------------------------------------------ the session

    def _show(self, session_id: str | None, *, live: bool = False) -> None:
        if session_id is None:
            self.info, self.messages = None, []
            self.viewer.clear()
            self.revalidate_view.set_session([])
            self.export_button.setEnabled(False)
            self._on_replay_busy(self.replayer.busy)
            return
        try:
            info = self.sessions.get_session(session_id)
        except NotFoundError:
            self.refresh()
            return
        self.info = info
        self.messages = load_messages(self.sessions, info.id)
        events = self.sessions.events(info.id)
        show = self.viewer.show_live if live else self.viewer.show_session
        show(self.messages, events, title=_title(info, len(self.messages)),
             origins=stored_origins(info))  # fmt: skip
        self.revalidate_view.set_session(
            self.messages,
            context=SessionContext.from_dict(info.context) if info.context else None,
            recorded_prepared=recorded_prepared_arguments(events),
        )
        if info.registry:
            self.revalidate_view.choose(info.registry, info.version or "draft")
        self.export_button.setEnabled(True)
        self._on_replay_busy(self.replayer.busy)

    # ------------------------------------------------------------------ replay as model

    def replay_as_model(self, choice: ReplayChoice | None = None) -> bool:
        """Replay the selected session as the model (asks through the prompts without ``choice``).

        Runs as a task on the running loop; the new session is selected when it ends.
        Return:
            True when a replay was started.
        """
        if self.info is None or self.replayer.busy:
            return False
        if choice is None:
            replay = self.viewer.replay
            step = replay.position if replay is not None else -1
            options = replay_options(self.store, step, self.info.registry, self.info.version)
            if not options.registries:
                self.prompts.error(
                    self, self.tr("Nothing to replay against"), self.tr("Create a registry first.")
                )
                return False
            choice = self.prompts.choose_replay(self, options)
            if choice is None:
                return False
        info = self.info
        title = self.tr("Replay of {title}").format(title=info.title or info.id[:8])
        try:
            self.replayer.start(self.messages, choice, context=info.context or None,
                                system=info.system, title=title)  # fmt: skip
        except (ValueError, RuntimeError, NotFoundError) as exc:
            self.prompts.error(self, self.tr("Replay not started"), str(exc))
            return False
        fork = self.tr(", live {profile} from step {step}").format(
            profile=choice.profile, step=choice.fork_step + 1
        ) if choice.fork_step is not None else ""  # fmt: skip
        self._set_replay_status(
            self.tr("Replaying against {registry} {version}{fork}…").format(
                registry=choice.registry, version=choice.version, fork=fork
            )
        )
        return True

    def _on_replay_busy(self, busy: bool) -> None:
        self.viewer.replay_model_button.setEnabled(not busy and self.info is not None)
        self.viewer.stop_replay_button.setEnabled(busy)

    def _on_replayed(self, outcome: ReplayOutcome) -> None:
        text = self.tr("Replay {status}").format(status=outcome.status)
        if outcome.message and outcome.status != "completed":
            text += f": {outcome.message}"
        self._set_replay_status(text)
        if outcome.session_id is not None:
            self.refresh(select=outcome.session_id)
            if self.info is None or self.info.id != outcome.session_id:
                # A filter hides the new session: clear the filters to show it.
                self.text_filter.clear()
                self.source_filter.setCurrentIndex(0)
                self.registry_filter.setCurrentIndex(0)
                self.select_session(outcome.session_id)
        self._set_replay_status(text)

    def _set_replay_status(self, text: str) -> None:
        self.viewer.replay_status.setText(text)
        self.viewer.replay_status.setVisible(bool(text))

    # ------------------------------------------------------------------ repair / convert / trim

    def open_doctor(self, action: str) -> DoctorDialog | None:
        """Open Repair…, Convert… or Trim… on the selected session (non-blocking)."""
        if self.info is None:
            return None
        dialog = DoctorDialog(action, self.messages, self.info, self.sessions, self.prompts, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.saved.connect(self._on_derived)
        self.doctor_dialog = dialog
        dialog.show()
        return dialog

    def _on_derived(self, session_id: str) -> None:
        self.refresh()

    # ------------------------------------------------------------------ import / export

    def import_log(self) -> ImportLogDialog:
        """Open the Import log… dialog (non-blocking); imported sessions join the list."""
        if self.import_dialog is None:
            self.import_dialog = ImportLogDialog(self.store, self.prompts, self.runner, self)
            self.import_dialog.imported.connect(self._on_imported)
        self.import_dialog.show()
        return self.import_dialog

    def _on_imported(self, ids: list[str]) -> None:
        self.refresh(select=ids[0] if ids else None)
        self.revalidate_view.refresh_registries()

    def export_session(self, fmt: str) -> Path | None:
        """Write the selected session as ``fmt`` (openai, anthropic, jsonl), secrets redacted."""
        if self.info is None:
            return None
        suffix = "jsonl" if fmt == "jsonl" else "json"
        path = self.prompts.export_path(self, fmt, f"session-{self.info.id[:8]}-{fmt}.{suffix}")
        if path is None:
            return None
        text = export_text(self.messages, fmt, tools=self.info.tools, title=self.info.title,
                           meta={"model": self.info.meta.get("model") or self.info.profile},
                           redact=True)  # fmt: skip
        try:
            path.write_text(text, encoding="utf-8")
        except OSError as exc:
            self.prompts.error(
                self,
                self.tr("Not exported"),
                self.tr("Could not write {path}: {error}").format(path=path, error=exc),
            )
            return None
        return path

    def shutdown(self) -> None:
        """Wait for background jobs (closing the window); a running replay or proxy is stopped."""
        self.live.stop()
        self.recording.stop()
        self.replayer.stop()
        self.runner.wait(3000)

    # ------------------------------------------------------------------ live

    def _count_stale(self, stale: list[str]) -> None:
        """Count the problems and calls of sessions that grew, off the GUI thread."""
        if not stale:
            self._count_job = 0
            return
        ids, sessions = tuple(stale), self.sessions

        def count(_progress: object) -> dict[str, Counts]:
            return count_sessions(sessions, ids)

        job = Job(count)
        self._count_job = job.generation
        job.signals.succeeded.connect(self._on_counted)
        self.runner.start(job)

    def _on_counted(self, generation: int, counted: dict[str, Counts]) -> None:
        if generation != self._count_job:
            return  # a newer refresh asked again
        self._count_job = 0
        self.live.poll()  # the counts went into meta: re-read those rows (in place)

    def _on_live_change(self) -> None:
        """Something was stored: re-read what changed; re-show the open session if it grew.

        Only the sessions changed since the last look are read and put in place
        (the selection and scroll position stay); a new session re-reads the list.
        """
        shown = self.info.id if self.info else None
        before = (self._counts or {}).get(shown or "", 0)
        since, marker = self.live.since, self.live.marker
        changed = None
        same_sessions = since is not None and marker is not None and since[1] == marker[1]
        if since is not None and same_sessions and self._counts is not None:
            changed = list_rows(self.sessions, changed_since=(since[0], since[2]))
        if changed is None or not self._put_in_place(changed):
            self.refresh()
        grew = (self._counts or {}).get(shown or "", 0) != before
        if shown is not None and self.info is not None and self.info.id == shown and grew:
            self._show(shown, live=True)

    def _put_in_place(self, changed: SessionList) -> bool:
        """Update the rows of ``changed`` in place; False when one is new (or gone)."""
        counts = dict(self._counts or {})
        if len(changed.rows) and not self.table_model.replace_rows(changed.rows):
            return False
        grown = {sid for sid, n in changed.message_counts.items() if n > counts.get(sid, 0)}
        counts.update(changed.message_counts)
        self._counts = counts
        ids = {row.id for row in changed.rows}
        stale = set(changed.stale)
        self.table_model.mark(
            live=self.table_model.live | grown,
            counting=(self.table_model.counting - ids) | stale,
        )
        self._count_stale(sorted(self.table_model.counting))
        return True

    def toggle_proxy(self) -> str | None:
        """Record proxy… (asks for the settings) or Stop proxy; returns the URL when started."""
        if self.recording.running:
            self.recording.stop()
            self._on_proxy_state(False)
            return None
        settings = self.prompts.proxy_settings(self)
        if settings is None:
            return None
        try:
            url = self.recording.start(settings)
        except ValueError:
            text = self.tr("The upstream must be an http(s) URL, not '{url}'").format(
                url=settings.upstream
            )
            self.prompts.error(self, self.tr("Proxy not started"), text)
            return None
        except (OSError, RuntimeError) as exc:
            text = self.tr("Could not listen on 127.0.0.1:{port}: {error}").format(
                port=settings.port or self.tr("any port"), error=exc
            )
            self.prompts.error(self, self.tr("Proxy not started"), text)
            return None
        self._on_proxy_state(True)
        self.source_filter.setCurrentIndex(max(0, self.source_filter.findData(SOURCE_PROXY)))
        return url

    def _on_proxy_state(self, running: bool) -> None:
        settings = self.recording.settings
        self.proxy_button.setText(self.tr("Stop proxy") if running else self.tr("Record proxy…"))
        if running and settings is not None:
            self.proxy_status.setText(
                self.tr("Recording proxy on {url} → {upstream} ({kind})").format(
                    url=self.recording.url, upstream=settings.upstream, kind=settings.kind
                )
            )
        self.proxy_status.setVisible(running)


def _title(info: SessionInfo, count: int) -> str:
    where = f"{info.registry} {info.version}".strip() or QCoreApplication.translate(
        "SessionsView", "no registry"
    )
    model = (
        info.meta.get("model")
        or info.profile
        or QCoreApplication.translate("SessionsView", "unknown model")
    )
    title = info.title or untitled()
    messages = QCoreApplication.translate("SessionsView", "{count} messages").format(count=count)
    details = " · ".join((source_label(info.source), _escape(where), _escape(str(model)), messages))
    return f"<b>{_escape(title)}</b> · {details}"


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
