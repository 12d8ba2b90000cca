"""The playground's sidebar: profile, registry and version, system prompt, context, executors.

:meth:`PlaygroundSidebar.run_config` turns what is shown into a
:class:`studio.runtime.RunConfig` (mocks from the registry's stored specs, or
the bundled example mocks on first use, as ``studio run`` does).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
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
from registry_db.profiles import ProfileRepository
from registry_db.sessions import SessionStore
from studio.contract import Registry
from studio.providers import ModelProfile, store_api_key, test_connection
from studio.runtime import (
    HttpExecutor,
    HttpTarget,
    MockExecutor,
    RunConfig,
    SessionContext,
    example_mocks,
    parse_mocks,
)
from studio.ui.playground.executor_model import ExecutorDelegate, ExecutorTableModel
from studio.ui.playground.profile_dialog import ProfileDialog

_log = logging.getLogger(__name__)
DRAFT = "draft"


class PlaygroundSidebar(QScrollArea):
    """Everything a run is configured with; scrolls when the window is small."""

    def __init__(
        self, store: RegistryStore, sessions: SessionStore, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.store = store
        self.sessions = sessions
        self.profiles = ProfileRepository(store)
        self.profile_dialog: ProfileDialog | None = None
        self._test_task: asyncio.Task[None] | None = None
        self._registry: Registry | None = None
        self._mock_specs: dict[str, Any] = {}
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setMinimumWidth(250)

        self.profile_combo = QComboBox()
        self.profile_combo.setAccessibleName("Model profile")
        self.add_profile_button = QPushButton("Add…")
        self.edit_profile_button = QPushButton("Edit…")
        self.test_button = QPushButton("Test")
        self.test_button.setToolTip("Test connection: list the server's models with this profile")
        self.connection_label = QLabel()
        self.connection_label.setWordWrap(True)
        buttons = QHBoxLayout()
        buttons.setContentsMargins(0, 0, 0, 0)
        for b in (self.add_profile_button, self.edit_profile_button, self.test_button):
            buttons.addWidget(b)
        profile_box = QGroupBox("Model")
        pl = QVBoxLayout(profile_box)
        pl.addWidget(self.profile_combo)
        pl.addLayout(buttons)
        pl.addWidget(self.connection_label)

        self.registry_combo = QComboBox()
        self.version_combo = QComboBox()
        self.version_combo.setToolTip("Run against the draft or a published version")
        registry_box = QGroupBox("Registry")
        rl = QFormLayout(registry_box)
        rl.addRow("&Registry", self.registry_combo)
        rl.addRow("&Version", self.version_combo)

        self.system_edit = QPlainTextEdit()
        self.system_edit.setPlaceholderText("System prompt (optional)")
        self.system_edit.setFixedHeight(70)
        self.role_edit = QLineEdit()
        self.scenario_edit = QLineEdit()
        self.values_edit = QPlainTextEdit()
        self.values_edit.setPlaceholderText("employee_id=E-1001")
        self.values_edit.setFixedHeight(60)
        self.values_edit.setToolTip("KEY=VALUE per line: the values behind injected fields")
        context_box = QGroupBox("System prompt and session context")
        cl = QFormLayout(context_box)
        cl.addRow(self.system_edit)
        cl.addRow("R&ole", self.role_edit)
        cl.addRow("&Scenario", self.scenario_edit)
        cl.addRow("Va&lues", self.values_edit)

        self.executor_model = ExecutorTableModel(self)
        self.executor_view = QTableView()
        self.executor_view.setModel(self.executor_model)
        self.executor_view.setItemDelegate(ExecutorDelegate(self.executor_view))
        self.executor_view.verticalHeader().hide()
        self.executor_view.setEditTriggers(QAbstractItemView.EditTrigger.AllEditTriggers)
        self.executor_view.horizontalHeader().setSectionResizeMode(
            0, QHeaderView.ResizeMode.ResizeToContents
        )
        self.executor_view.horizontalHeader().setStretchLastSection(True)
        self.executor_view.setMinimumHeight(120)
        # The table scrolls on its own; it must not widen the sidebar.
        self.executor_view.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.allowed_edit = QLineEdit()
        self.allowed_edit.setPlaceholderText("Allowed base URLs for http, comma separated")
        executor_box = QGroupBox("Executors")
        el = QVBoxLayout(executor_box)
        el.addWidget(self.executor_view)
        el.addWidget(self.allowed_edit)

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
        self.version_combo.currentTextChanged.connect(self._on_version)
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
            self.connection_label.setText(f"Not saved: {exc}")
            return
        if dialog.api_key():
            try:
                store_api_key(profile.name, dialog.api_key())
            except Exception as exc:  # no keyring backend: say so, keep the profile
                self.connection_label.setText(f"Saved, but the keyring refused the key: {exc}")
        self.refresh()
        self.profile_combo.setCurrentText(profile.name)

    def start_test_connection(self) -> None:
        """Check the profile's server in the background; the result lands in the label."""
        profile = self.current_profile()
        if profile is None:
            self.connection_label.setText("Add a model profile first")
            return
        self.connection_label.setText(f"Testing {profile.base_url}…")
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
            self.version_combo.addItem(DRAFT)
            for info in reversed(self.store.list_versions(name)):
                self.version_combo.addItem(str(info.number))
        self.version_combo.blockSignals(False)
        self._load_mocks(name)
        self._on_version(self.version_combo.currentText())

    def _on_version(self, version: str) -> None:
        self._registry = self.load_registry(self.registry_combo.currentText(), version)
        self.executor_model.set_registry(self._registry)

    def load_registry(self, name: str, version: str) -> Registry | None:
        if not name or not version:
            return None
        if version == DRAFT:
            return self.store.draft_registry(name)
        return self.store.load_version(name, int(version)).registry

    def _load_mocks(self, name: str) -> None:
        specs: dict[str, Any] = {}
        if name:
            specs = self.sessions.mock_specs(name)
            if not specs:
                document = example_mocks(name)
                if document is not None:
                    specs = {"": document.get("context", {}), **document.get("tools", {})}
                    self.sessions.set_mock_specs(name, specs)
        self._mock_specs = specs
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
            raise ValueError("Add a model profile first (Model → Add…)")
        if self._registry is None:
            raise ValueError("Pick a registry")
        mocks = parse_mocks({"tools": {k: v for k, v in self._mock_specs.items() if k}})
        executors: dict[str, Any] = {}
        targets = {
            c.tool: HttpTarget(c.url) for c in self.executor_model.choices() if c.executor == "http"
        }
        if targets:
            missing = [t for t, target in targets.items() if not target.url]
            if missing:
                raise ValueError(f"Give an HTTP URL for {', '.join(missing)}")
            allowed = [u.strip() for u in self.allowed_edit.text().split(",") if u.strip()]
            http = HttpExecutor(targets, allowed)
            executors = dict.fromkeys(targets, http)
        config = RunConfig(
            self._registry,
            version=self.version_combo.currentText(),
            profile=profile.name,
            system=self.system_edit.toPlainText().strip(),
            params=profile.params,
            context=self.context(),
            mock=MockExecutor(mocks.tools),
            executors=executors,
            max_tool_calls=20,
        )
        return config, profile
