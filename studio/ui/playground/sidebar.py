"""The playground's sidebar: profile, registry and version, system prompt, context, executors.

:meth:`PlaygroundSidebar.run_config` turns what is shown into a
:class:`studio.runtime.RunConfig` (mocks from the registry's stored specs, or
the bundled example mocks on first use, as ``studio run`` does; HTTP targets
and the allow-list from the registry's executor settings).

Each tool's executor is stored per registry as soon as it is picked; the HTTP
target editor and the mock editor open from the executor table (double-click a
row, or the buttons under it) and store only when their Save is pressed.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QModelIndex, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from registry_db import RegistryStore, StoreError
from registry_db.executors import ExecutorStore
from registry_db.profiles import ProfileRepository
from registry_db.sessions import SessionStore
from studio.contract import Registry
from studio.contract.audience import Audience, for_audience
from studio.providers import ModelProfile, store_api_key, test_connection
from studio.providers.profiles import find_api_key
from studio.runtime import (
    HttpExecutor,
    HttpTarget,
    MockExecutor,
    RunConfig,
    SessionContext,
    example_mocks,
    parse_mocks,
)
from studio.runtime.http_targets import ConfiguredTargetError, configured_targets
from studio.ui.playground.executor_model import (
    EXECUTOR_COLUMN,
    ExecutorDelegate,
    ExecutorTableModel,
)
from studio.ui.playground.http_target_dialog import HttpTargetDialog
from studio.ui.playground.mock_editor import MockEditorDialog
from studio.ui.playground.profile_dialog import ProfileDialog
from studio.ui.widgets.unsaved import UnsavedPrompt, ask_unsaved

_log = logging.getLogger(__name__)
DRAFT = "draft"


@dataclass(frozen=True)
class WorkingCopy:
    """The editor's draft of a registry as shown, unsaved edits included."""

    registry: Registry
    unsaved: int  # undo steps since the last save (0: as saved)


WorkingCopySource = Callable[[str], WorkingCopy | None]


class PlaygroundSidebar(QScrollArea):
    """Everything a run is configured with; scrolls when the window is small.

    The registry follows the editor's (:meth:`follow`) unless the user pins
    another one; "draft" runs the editor's working copy as shown, unsaved
    edits included, and says how many (``draft · 2 unsaved edits``).

    Signals:
        configChanged(): what a run would run changed (registry, version,
            profile or an executor); the header re-reads :meth:`describe`.
    """

    configChanged = Signal()

    def __init__(
        self, store: RegistryStore, sessions: SessionStore, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.store = store
        self.sessions = sessions
        self.profiles = ProfileRepository(store)
        self.executor_store = ExecutorStore.for_store(store)
        self.ask_unsaved: UnsavedPrompt = ask_unsaved
        """Asked when an editor with unsaved changes closes (tests script it)."""
        self.profile_dialog: ProfileDialog | None = None
        self.http_dialog: HttpTargetDialog | None = None
        self.mock_dialog: MockEditorDialog | None = None
        self._allowed: tuple[str, ...] = ()
        self._test_task: asyncio.Task[None] | None = None
        self._registry: Registry | None = None
        self._mock_specs: dict[str, Any] = {}
        self.working_copy: WorkingCopySource = lambda _name: None
        """The editor's unsaved draft of a registry (the window sets it)."""
        self._unsaved = 0
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setMinimumWidth(250)

        self.profile_combo = QComboBox()
        self.profile_combo.setAccessibleName("Model profile")
        self.add_profile_button = QPushButton(self.tr("Add…"))
        self.edit_profile_button = QPushButton(self.tr("Edit…"))
        self.test_button = QPushButton(self.tr("Test"))
        self.test_button.setToolTip(
            self.tr("Test connection: list the server's models with this profile")
        )
        self.connection_label = QLabel()
        self.connection_label.setWordWrap(True)
        buttons = QHBoxLayout()
        buttons.setContentsMargins(0, 0, 0, 0)
        for b in (self.add_profile_button, self.edit_profile_button, self.test_button):
            # Below the style's 80 px minimum, so the row fits the 280 px sidebar of a
            # small window (with its scroll bar) instead of being cut off.
            b.setMinimumWidth(56)
            buttons.addWidget(b)
        profile_box = QGroupBox(self.tr("Model"))
        pl = QVBoxLayout(profile_box)
        pl.addWidget(self.profile_combo)
        pl.addLayout(buttons)
        pl.addWidget(self.connection_label)

        self.registry_combo = QComboBox()
        self.version_combo = QComboBox()
        self.version_combo.setToolTip(
            self.tr("Run the draft as the editor shows it (unsaved edits included) or a version")
        )
        self.pin_check = QCheckBox(self.tr("&Pin"))
        self.pin_check.setToolTip(
            self.tr("Keep this registry; unpinned, the Playground follows the editor's registry")
        )
        registry_row = QHBoxLayout()
        registry_row.setContentsMargins(0, 0, 0, 0)
        registry_row.addWidget(self.registry_combo, 1)
        registry_row.addWidget(self.pin_check)
        registry_box = QGroupBox(self.tr("Registry"))
        rl = QFormLayout(registry_box)
        registry_label = QLabel(self.tr("&Registry"))
        registry_label.setBuddy(self.registry_combo)
        rl.addRow(registry_label, registry_row)
        rl.addRow(self.tr("&Version"), self.version_combo)

        self.system_edit = QPlainTextEdit()
        self.system_edit.setPlaceholderText(self.tr("System prompt (optional)"))
        self.system_edit.setFixedHeight(70)
        self.role_edit = QLineEdit()
        self.scenario_edit = QLineEdit()
        self.values_edit = QPlainTextEdit()
        self.values_edit.setPlaceholderText(self.tr("employee_id=E-1001"))
        self.values_edit.setFixedHeight(60)
        self.values_edit.setToolTip(
            self.tr("KEY=VALUE per line: the values behind injected fields")
        )
        context_box = QGroupBox(self.tr("System prompt and session context"))
        cl = QFormLayout(context_box)
        cl.addRow(self.system_edit)
        cl.addRow(self.tr("R&ole"), self.role_edit)
        cl.addRow(self.tr("&Scenario"), self.scenario_edit)
        cl.addRow(self.tr("Va&lues"), self.values_edit)

        self.executor_model = ExecutorTableModel(self)
        self.executor_view = QTableView()
        self.executor_view.setModel(self.executor_model)
        self.executor_view.setItemDelegate(ExecutorDelegate(self.executor_view))
        self.executor_view.verticalHeader().hide()
        self.executor_view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.executor_view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.executor_view.setEditTriggers(
            QAbstractItemView.EditTrigger.CurrentChanged
            | QAbstractItemView.EditTrigger.SelectedClicked
        )
        # Risk is in the Tool tooltip: the narrow sidebar keeps Executor and Target in view.
        self.executor_view.setColumnHidden(1, True)
        header = self.executor_view.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(EXECUTOR_COLUMN, QHeaderView.ResizeMode.ResizeToContents)
        # The column holds "mock" or "http": sized from the rows in view, not from up
        # to 1,000 rows (each a call into the model) on the first show (#16).
        header.setResizeContentsPrecision(0)
        header.setDefaultSectionSize(60)  # before stretching: the Target column may shrink to it
        header.setStretchLastSection(True)
        self.executor_view.setColumnWidth(0, 120)
        self.executor_view.setWordWrap(False)
        self.executor_view.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.executor_view.setMinimumHeight(120)
        # The table scrolls on its own; it must not widen the sidebar.
        self.executor_view.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.executor_view.setToolTip(
            self.tr(
                "Pick mock or http per tool; double-click a row to edit its HTTP target or mocks"
            )
        )
        self.http_button = QPushButton(self.tr("HTTP target…"))
        self.http_button.setToolTip(
            self.tr(
                "URL, method, header and body templates of the selected tool, and the "
                "registry's allowed base URLs"
            )
        )
        self.mocks_button = QPushButton(self.tr("Mock responses…"))
        self.mocks_button.setToolTip(
            self.tr("Canned responses per tool: matchers, failures, latency")
        )
        executor_buttons = QHBoxLayout()
        executor_buttons.setContentsMargins(0, 0, 0, 0)
        executor_buttons.addWidget(self.http_button)
        executor_buttons.addWidget(self.mocks_button)
        self.allowed_label = QLabel()
        self.allowed_label.setWordWrap(True)
        self.allowed_label.setToolTip(self.tr("HTTP calls may go only under these; edit them in "
                                      "HTTP target…"))  # fmt: skip
        executor_box = QGroupBox(self.tr("Executors"))
        el = QVBoxLayout(executor_box)
        el.addWidget(self.executor_view)
        el.addLayout(executor_buttons)
        el.addWidget(self.allowed_label)

        content = QWidget()
        layout = QVBoxLayout(content)
        layout.setContentsMargins(4, 4, 4, 4)
        for box in (profile_box, registry_box, context_box, executor_box):
            layout.addWidget(box)
        layout.addStretch(1)
        self.setWidget(content)

        self.add_profile_button.clicked.connect(lambda: self.open_profile_dialog(None))
        self.edit_profile_button.clicked.connect(self._edit_current)
        self.test_button.clicked.connect(self.start_test_connection)
        self.registry_combo.currentTextChanged.connect(self._on_registry)
        # Picked by hand: the user wants this one, whatever the editor shows.
        self.registry_combo.activated.connect(lambda _row: self.pin_check.setChecked(True))
        self.version_combo.currentIndexChanged.connect(
            lambda _row: self._on_version(self.current_version())
        )
        self.profile_combo.currentTextChanged.connect(lambda _t: self.configChanged.emit())
        self.executor_model.executorChanged.connect(self._on_executor_changed)
        self.executor_view.doubleClicked.connect(self._on_row_activated)
        self.http_button.clicked.connect(lambda: self.open_http_editor())
        self.mocks_button.clicked.connect(lambda: self.open_mock_editor())
        self.refresh()

    # ------------------------------------------------------------------ profiles

    def refresh(self) -> None:
        """Reload profiles and registries from the store."""
        current = self.profile_combo.currentText()
        self.profile_combo.clear()
        self.profile_combo.addItems([p.name for p in self.profiles.list_profiles()])
        if current:
            self.profile_combo.setCurrentText(current)
        registry = self.registry_combo.currentText()
        self.registry_combo.blockSignals(True)
        self.registry_combo.clear()
        self.registry_combo.addItems([r.name for r in self.store.list_registries()])
        self.registry_combo.blockSignals(False)
        if registry:
            self.registry_combo.setCurrentText(registry)
        self._on_registry(self.registry_combo.currentText())

    def follow(self, registry: str | None) -> None:
        """Show the editor's ``registry`` unless pinned; re-read its working copy."""
        following = not self.pin_check.isChecked()
        if registry and following and self.registry_combo.currentText() != registry:
            if self.registry_combo.findText(registry) < 0:
                self.refresh()
            self.registry_combo.setCurrentText(registry)
            return  # _on_registry re-read everything
        if self.current_version() == DRAFT:
            self._on_version(DRAFT)

    def current_version(self) -> str:
        """``draft`` or a version number, as text."""
        data = self.version_combo.currentData()
        return str(data) if data is not None else self.version_combo.currentText()

    def describe(self) -> str:
        """One line saying exactly what a run would run: registry, version, profile, executors."""
        name = self.registry_combo.currentText()
        if not name or self._registry is None:
            return self.tr("Nothing to run yet: pick a registry")
        version = self.current_version()
        if version == DRAFT:
            what = self._draft_label()
        else:
            what = self.tr("version {number}").format(number=version)
        profile = self.profile_combo.currentText()
        who = (
            self.tr("profile {name}").format(name=profile)
            if profile
            else self.tr("no model profile yet")
        )
        counts: dict[str, int] = {}
        for choice in self.executor_model.choices():
            counts[choice.executor] = counts.get(choice.executor, 0) + 1
        kinds = {"mock": self.tr("mock"), "http": self.tr("HTTP")}
        executors = ", ".join(f"{n} {kinds.get(kind, kind)}" for kind, n in sorted(counts.items()))
        parts = [name, what, who]
        if executors:
            parts.append(self.tr("executors: {counts}").format(counts=executors))
        pinned = self.tr(" (pinned)") if self.pin_check.isChecked() else ""
        return self.tr("Runs {what}").format(what=" · ".join(parts)) + pinned

    def _draft_label(self) -> str:
        if self._unsaved <= 0:
            return self.tr("draft")
        if self._unsaved == 1:
            return self.tr("draft · 1 unsaved edit")
        return self.tr("draft · {count} unsaved edits").format(count=self._unsaved)

    def current_profile(self) -> ModelProfile | None:
        name = self.profile_combo.currentText()
        return self.profiles.get(name) if name else None

    def _edit_current(self) -> None:
        profile = self.current_profile()
        if profile is not None:
            self.open_profile_dialog(profile)

    def open_profile_dialog(self, profile: ModelProfile | None) -> ProfileDialog:
        """Open the profile dialog (non-blocking); saving stores the profile."""
        dialog = ProfileDialog(profile, self)
        old_name = profile.name if profile else None
        dialog.accepted.connect(lambda: self._save_profile(dialog, old_name))
        self.profile_dialog = dialog
        dialog.open()
        return dialog

    def _save_profile(self, dialog: ProfileDialog, old_name: str | None) -> None:
        profile = dialog.result_profile
        if profile is None:
            return
        try:
            if old_name is None:
                self.profiles.add(profile)
            else:
                self.profiles.update(profile, old_name=old_name)
        except StoreError as exc:
            self.connection_label.setText(self.tr("Not saved: {exc}").format(exc=exc))
            return
        if dialog.api_key():
            try:
                store_api_key(profile.name, dialog.api_key())
            except Exception as exc:  # no keyring backend: say so, keep the profile
                self.connection_label.setText(
                    self.tr("Saved, but the keyring refused the key: {exc}").format(exc=exc)
                )
        self.refresh()
        self.profile_combo.setCurrentText(profile.name)

    def start_test_connection(self) -> None:
        """Check the profile's server in the background; the result lands in the label."""
        profile = self.current_profile()
        if profile is None:
            self.connection_label.setText(self.tr("Add a model profile first"))
            return
        self.connection_label.setText(
            self.tr("Testing {base_url}…").format(base_url=profile.base_url)
        )
        self.test_button.setEnabled(False)
        self._test_task = asyncio.get_running_loop().create_task(self._test(profile))

    async def _test(self, profile: ModelProfile) -> None:
        try:
            result = await test_connection(profile)
            mark = "✓" if result.ok else "✗"
            self.connection_label.setText(f"{mark} {result.message}")
            self.connection_label.setProperty("ok", result.ok)
        except Exception as exc:  # shown, not raised: the button must come back
            self.connection_label.setText(f"✗ {type(exc).__name__}: {exc}")
        finally:
            self.test_button.setEnabled(True)

    # ------------------------------------------------------------------ registry

    def _on_registry(self, name: str) -> None:
        self.version_combo.blockSignals(True)
        self.version_combo.clear()
        if name:
            self.version_combo.addItem(DRAFT, DRAFT)
            try:
                versions = self.store.list_versions(name)
            except StoreError as exc:  # deleted elsewhere meanwhile
                self.connection_label.setText(
                    self.tr("Versions not loaded: {error}").format(error=exc)
                )
                versions = []
            for info in reversed(versions):
                self.version_combo.addItem(str(info.number), str(info.number))
        self.version_combo.blockSignals(False)
        self._load_mocks(name)
        self._on_version(self.current_version())

    def _on_version(self, version: str) -> None:
        self._unsaved = 0
        self._registry = self.load_registry(self.registry_combo.currentText(), version)
        if version == DRAFT and self.version_combo.count():
            self.version_combo.setItemText(0, self._draft_label())
        self.reload_executors()

    def reload_executors(self) -> None:
        """Show the registry's stored executors, HTTP targets, allow-list and mock counts."""
        name = self.registry_combo.currentText()
        executors: dict[str, tuple[str, dict[str, Any] | None]] = {}
        self._allowed = ()
        if name and self._registry is not None:
            try:
                settings = self.executor_store.settings(name)
            except StoreError as exc:  # deleted or renamed elsewhere meanwhile
                self.connection_label.setText(
                    self.tr("Executors not loaded: {exc}").format(exc=exc)
                )
            else:
                executors = {t: (s.executor, s.http) for t, s in settings.tools.items()}
                self._allowed = settings.allowed_base_urls
        selected = self.selected_tool()
        self.executor_model.set_registry(self._registry, executors, self._mock_specs)
        if selected:
            self.select_tool(selected)
        shown = (
            ", ".join(self._allowed) if self._allowed else self.tr("none yet (set in HTTP target…)")
        )
        self.allowed_label.setText(self.tr("HTTP allowed: {shown}").format(shown=shown))
        self.configChanged.emit()

    def load_registry(self, name: str, version: str) -> Registry | None:
        """The registry a run uses; the draft is the editor's working copy when it has one."""
        if not name or not version:
            return None
        try:
            if version == DRAFT:
                copy = self.working_copy(name)
                if copy is not None:
                    self._unsaved = copy.unsaved
                    from studio.ui.playground.capability_cards import with_draft_capabilities

                    return with_draft_capabilities(self.store, copy.registry)  # skills, agents
                return self.store.draft_registry(name)
            return self.store.load_version(name, int(version)).registry
        except StoreError as exc:  # deleted or renamed elsewhere meanwhile
            self.connection_label.setText(self.tr("Registry not loaded: {error}").format(error=exc))
            return None

    def _load_mocks(self, name: str, *, reset_context: bool = True) -> None:
        specs: dict[str, Any] = {}
        if name:
            specs = self.sessions.mock_specs(name)
            if not specs:
                document = example_mocks(name)
                if document is not None:
                    specs = {"": document.get("context", {}), **document.get("tools", {})}
                    self.sessions.set_mock_specs(name, specs)
        self._mock_specs = specs
        if not reset_context:
            return
        context = SessionContext.from_dict(specs.get("", {}))
        self.role_edit.setText(context.role)
        self.scenario_edit.setText(context.scenario)
        self.values_edit.setPlainText("\n".join(f"{k}={v}" for k, v in context.values.items()))

    # ------------------------------------------------------------------ the run

    def context(self) -> SessionContext:
        """The session context shown; raises ValueError on a line that is not KEY=VALUE."""
        lines = [ln for ln in self.values_edit.toPlainText().splitlines() if ln.strip()]
        base = SessionContext(self.role_edit.text().strip(), self.scenario_edit.text().strip())
        return base.with_pairs(lines)

    def run_config(self) -> tuple[RunConfig, ModelProfile]:
        """The run's configuration; raises ValueError saying what is missing or wrong."""
        profile = self.current_profile()
        if profile is None:
            raise ValueError(self.tr("Add a model profile first (Model → Add…)"))
        if profile.api_key_env:
            # Said before any request: the provider's "401" named no cause.
            lookup = find_api_key(profile)
            if lookup.key is None:
                raise ValueError(
                    self.tr(
                        "{variable} is not set: export it before starting the studio, "
                        "or store a key with Edit… (profile {profile})"
                    ).format(variable=profile.api_key_env, profile=profile.name)
                )
        if self._registry is None:
            raise ValueError(self.tr("Pick a registry"))
        try:
            mocks = parse_mocks({"tools": {k: v for k, v in self._mock_specs.items() if k}})
        except ValueError as exc:  # MockSpecError included: edited outside the studio
            raise ValueError(
                self.tr("The stored mocks do not load: {error} (Mock responses…)").format(error=exc)
            ) from exc
        context = self.context()
        executors: dict[str, Any] = {}
        targets = self.http_targets()
        if targets:  # last: nothing below may fail and leave its client open
            http = HttpExecutor(targets, list(self._allowed))
            executors = dict.fromkeys(targets, http)
        config = RunConfig(
            _exported(self._registry, context),
            version=self.current_version(),
            profile=profile.name,
            system=self.system_edit.toPlainText().strip(),
            params=profile.params,
            context=context,
            mock=MockExecutor(mocks.tools),
            executors=executors,
            max_tool_calls=20,
        )
        return config, profile

    def http_targets(self) -> dict[str, HttpTarget]:
        """The HTTP targets of tools set to http; raises ValueError naming the first problem."""
        registry = self._registry
        tools = {t.name: t for t in registry.tools} if registry is not None else {}
        choices = ((c.tool, c.executor, c.http) for c in self.executor_model.choices())
        try:
            return configured_targets(choices, tools, self._allowed)
        except ConfiguredTargetError as exc:
            hint = {
                "missing": self.tr("double-click its executor row"),
                "invalid": self.tr("HTTP target…"),
            }
            where = hint.get(exc.kind)
            raise ValueError(f"{exc} ({where})" if where else str(exc)) from exc

    # ------------------------------------------------------------------ executors and editors

    def selected_tool(self) -> str:
        """The tool of the executor table's current row ("" when none)."""
        index = self.executor_view.currentIndex()
        rows = self.executor_model.choices()
        return rows[index.row()].tool if index.isValid() and index.row() < len(rows) else ""

    def select_tool(self, tool: str) -> None:
        for row, choice in enumerate(self.executor_model.choices()):
            if choice.tool == tool:
                self.executor_view.setCurrentIndex(self.executor_model.index(row, 0))
                return

    def _editor_size(self, dialog: QWidget, width: int, height: int) -> None:
        window = self.window().size()
        dialog.resize(min(width, max(640, window.width() - 40)),
                      min(height, max(480, window.height() - 40)))  # fmt: skip

    def _context_values(self) -> dict[str, Any]:
        try:
            return dict(self.context().values)
        except ValueError:  # a half-typed line: samples go without it
            return {}

    def _on_row_activated(self, index: QModelIndex) -> None:
        if not index.isValid() or index.column() == EXECUTOR_COLUMN:
            return
        choice = self.executor_model.choices()[index.row()]
        if choice.executor == "http":
            self.open_http_editor(choice.tool)
        else:
            self.open_mock_editor(choice.tool)

    def _on_executor_changed(self, tool: str, executor: str) -> None:
        registry = self.registry_combo.currentText()
        choice = self.executor_model.choice(tool)
        if executor == "http" and choice is not None and not choice.url:
            # Nothing to call yet: ask for the target; cancelling goes back to mock.
            dialog = self.open_http_editor(tool, use_http=True)
            if dialog is not None:
                dialog.finished.connect(lambda _result: self._http_editor_closed(dialog, tool))
            return
        try:
            self.executor_store.set_executor(registry, tool, executor)
        except StoreError as exc:
            self.connection_label.setText(self.tr("Executor not saved: {exc}").format(exc=exc))
        self.configChanged.emit()

    def _http_editor_closed(self, dialog: HttpTargetDialog, tool: str) -> None:
        if not dialog.saved:
            self.executor_model.update_choice(tool, executor="mock")
            # Leave the Executor cell, so its open combo box does not still say http.
            self.select_tool(tool)

    def open_http_editor(
        self, tool: str | None = None, *, use_http: bool | None = None
    ) -> HttpTargetDialog | None:
        """Open the HTTP target editor of ``tool`` (default: the selected row), window-modal."""
        name = tool or self.selected_tool()
        registry = self.registry_combo.currentText()
        contract = self._registry.tool(name) if self._registry is not None and name else None
        if contract is None:
            self.connection_label.setText(self.tr("Select a tool in the executor table first"))
            return None
        choice = self.executor_model.choice(name)
        if use_http is None:
            use_http = True

        def save(target: dict[str, Any], allowed: list[str], use: bool) -> None:
            executor = "http" if use else "mock"
            self.executor_store.save_http_target(
                registry, name, target, allowed_base_urls=allowed, executor=executor
            )

        dialog = HttpTargetDialog(
            contract,
            choice.http if choice else None,
            self._allowed,
            save=save,
            context=self._context_values(),
            use_http=use_http,
            ask=self.ask_unsaved,
            parent=self,
        )
        dialog.accepted.connect(self.reload_executors)
        self._editor_size(dialog, 1080, 700)
        self.http_dialog = dialog
        dialog.open()
        return dialog

    def open_mock_editor(self, tool: str | None = None) -> MockEditorDialog | None:
        """Open the mock editor of the registry, at ``tool`` (default: the selected row)."""
        registry = self.registry_combo.currentText()
        if not registry or self._registry is None:
            self.connection_label.setText(self.tr("Pick a registry first"))
            return None
        dialog = MockEditorDialog(
            registry,
            self._registry.tools,
            self.sessions,
            context=self._context_values(),
            tool=tool or self.selected_tool() or None,
            ask=self.ask_unsaved,
            parent=self,
        )
        dialog.saved.connect(self._mocks_saved)
        self._editor_size(dialog, 1080, 760)
        self.mock_dialog = dialog
        dialog.open()
        return dialog

    def _mocks_saved(self) -> None:
        # The context the user typed stays; only the specs are reloaded.
        self._load_mocks(self.registry_combo.currentText(), reset_context=False)
        self.reload_executors()


def _exported(registry: Registry, context: SessionContext) -> Registry:
    """The tools a run sends the model: with a role or scenario set, only those it may call.

    The same permission-scoped set ``studio resolve --role --scenario`` serves
    (issue #17): fewer tokens, and no tool offered that the runtime would then
    refuse. Without either, every tool is sent (the runtime still checks each call).
    """
    if not context.role and not context.scenario:
        return registry
    return for_audience(registry, Audience(context.role, context.scenario))
