"""Replay as model: the recorded assistant turns play the model, the current runtime the rest.

:class:`ReplayModelDialog` asks which registry and version to run against and,
optionally, to fork at the current step with a live model profile (the
browser reaches it through :class:`~studio.ui.sessions.prompts.SessionPrompts`,
so tests answer without a modal dialog). :class:`ReplayModelController` runs
:func:`studio.sessions.replay.replay_session` as an asyncio task on the qasync
loop (the GUI thread's loop: nothing blocks) and reports the new ``replay``
session; :meth:`ReplayModelController.stop` cancels.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from registry_db import RegistryStore
from registry_db.profiles import ProfileRepository
from registry_db.sessions import SessionStore
from studio.contract import Registry
from studio.providers import ModelClient, ModelProfile, client_for
from studio.runtime import MockExecutor, RunConfig, RunResult, SessionContext, parse_mocks
from studio.runtime.mocks import example_mocks
from studio.sessions.model import Message
from studio.sessions.replay import ReplayModel, replay_session

_log = logging.getLogger(__name__)
DRAFT = "draft"
ClientFactory = Callable[[ModelProfile], ModelClient]


@dataclass(frozen=True, slots=True)
class ReplayOptions:
    """What the dialog offers.

    Attributes:
        registries: Registry name → its versions (``draft`` first, then newest first).
        profiles: Model profile names a fork can continue with.
        step: The current replay step (-1: none, so no fork).
        registry, version: The preselected registry and version.
    """

    registries: Mapping[str, Sequence[str]]
    profiles: Sequence[str] = ()
    step: int = -1
    registry: str = ""
    version: str = DRAFT


@dataclass(frozen=True, slots=True)
class ReplayChoice:
    """Run against ``registry`` ``version``; with ``fork_step``, ``profile`` takes over there."""

    registry: str
    version: str = DRAFT
    fork_step: int | None = None
    profile: str | None = None


def replay_options(
    store: RegistryStore, step: int = -1, registry: str = "", version: str = DRAFT
) -> ReplayOptions:
    """The registries, versions and profiles of ``store`` for the dialog."""
    registries = {
        info.name: [DRAFT, *(str(v.number) for v in reversed(store.list_versions(info.name)))]
        for info in store.list_registries()
    }
    profiles = [p.name for p in ProfileRepository(store).list_profiles()]
    return ReplayOptions(registries, profiles, step, registry, version or DRAFT)


class ReplayModelDialog(QDialog):
    """Registry + version, and "fork at step N with profile X"."""

    def __init__(self, options: ReplayOptions, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Replay as model")
        self.options = options
        self.registry_combo = QComboBox()
        self.registry_combo.addItems(list(options.registries))
        self.version_combo = QComboBox()
        self.fork_check = QCheckBox(
            f"Fork at step {options.step + 1} and continue with a live model"
        )
        self.fork_check.setEnabled(options.step >= 0 and bool(options.profiles))
        self.profile_combo = QComboBox()
        self.profile_combo.setAccessibleName("Model profile")
        self.profile_combo.addItems(list(options.profiles))
        self.profile_combo.setEnabled(False)
        note = QLabel(
            "The recorded assistant turns play the model; the current runtime, registry "
            "version and mock executors do the rest. The replay is saved as a new session."
        )
        note.setWordWrap(True)
        form = QFormLayout()
        form.addRow("&Registry", self.registry_combo)
        form.addRow("&Version", self.version_combo)
        form.addRow(self.fork_check)
        form.addRow("&Profile", self.profile_combo)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Replay")
        layout = QVBoxLayout(self)
        layout.addWidget(note)
        layout.addLayout(form)
        layout.addWidget(self.buttons)
        self.registry_combo.currentTextChanged.connect(self._on_registry)
        self.fork_check.toggled.connect(self.profile_combo.setEnabled)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        if options.registry in options.registries:
            self.registry_combo.setCurrentText(options.registry)
        self._on_registry(self.registry_combo.currentText())
        if options.version:
            self.version_combo.setCurrentText(options.version)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(bool(options.registries))

    def _on_registry(self, name: str) -> None:
        self.version_combo.clear()
        self.version_combo.addItems(list(self.options.registries.get(name, ())))

    def choice(self) -> ReplayChoice | None:
        registry = self.registry_combo.currentText()
        if not registry:
            return None
        fork = self.fork_check.isChecked() and bool(self.profile_combo.currentText())
        return ReplayChoice(
            registry,
            self.version_combo.currentText() or DRAFT,
            self.options.step if fork else None,
            self.profile_combo.currentText() if fork else None,
        )


def choose_replay(parent: QWidget, options: ReplayOptions) -> ReplayChoice | None:
    """Ask modally (the default :class:`SessionPrompts` answer)."""
    dialog = ReplayModelDialog(options, parent)
    try:
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        return dialog.choice()
    finally:
        dialog.deleteLater()


@dataclass(slots=True)
class ReplayOutcome:
    """How a replay ended: the new session (if any) and each run's result."""

    session_id: str | None
    results: list[RunResult] = field(default_factory=list)
    status: str = "completed"
    message: str = ""


class ReplayModelController(QObject):
    """Runs one replay at a time as a task on the running (qasync) loop.

    Signals:
        busyChanged(bool): A replay started or ended.
        finished(ReplayOutcome): The replay ended (completed, partial, failed, cancelled).
    """

    busyChanged = Signal(bool)
    finished = Signal(object)

    def __init__(
        self,
        store: RegistryStore,
        sessions: SessionStore,
        *,
        client_factory: ClientFactory = client_for,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.store = store
        self.sessions = sessions
        self.client_factory = client_factory
        self.task: asyncio.Task[None] | None = None
        self.model: ReplayModel | None = None
        self.outcome: ReplayOutcome | None = None
        self._before: set[str] = set()
        self._busy = False

    @property
    def busy(self) -> bool:
        """True from :meth:`start` until the replay has ended and its clients are closed."""
        return self._busy

    def load_registry(self, name: str, version: str) -> Registry:
        if version == DRAFT:
            return self.store.draft_registry(name)
        return self.store.load_version(name, int(version)).registry

    def run_config(
        self,
        choice: ReplayChoice,
        *,
        context: Mapping[str, Any] | None = None,
        system: str = "",
        profile: ModelProfile | None = None,
    ) -> RunConfig:
        """The registry version's config with its mock executors and the session's context."""
        registry = self.load_registry(choice.registry, choice.version)
        specs = self.sessions.mock_specs(choice.registry)
        if not specs:
            document = example_mocks(choice.registry)
            if document is not None:
                specs = {"": document.get("context", {}), **document.get("tools", {})}
        mocks = parse_mocks({"tools": {k: v for k, v in specs.items() if k}})
        ctx = SessionContext.from_dict(context or specs.get("", {}) or {})
        kwargs: dict[str, Any] = {}
        if profile is not None:
            kwargs["params"] = profile.params
        return RunConfig(
            registry,
            version=choice.version,
            profile=profile.name if profile else "replay",
            system=system,
            context=ctx,
            mock=MockExecutor(mocks.tools),
            max_tool_calls=20,
            **kwargs,
        )

    def start(
        self,
        messages: Sequence[Message],
        choice: ReplayChoice,
        *,
        context: Mapping[str, Any] | None = None,
        system: str = "",
        title: str = "",
    ) -> asyncio.Task[None]:
        """Schedule the replay; raises RuntimeError when one runs, ValueError on a bad choice."""
        if self.busy:
            raise RuntimeError("a replay is in progress; stop it first")
        profile: ModelProfile | None = None
        live: ModelClient | None = None
        if choice.fork_step is not None:
            profile = ProfileRepository(self.store).get(choice.profile or "")
            if profile is None:
                raise ValueError(f"No model profile {choice.profile!r}")
        config = self.run_config(choice, context=context, system=system, profile=profile)
        model = ReplayModel(messages)
        if profile is not None and choice.fork_step is not None:
            live = self.client_factory(profile)
            model.fork_at(choice.fork_step, live)
        self.model = model
        self.outcome = None
        self._before = self._replay_ids()
        self._busy = True
        self.task = asyncio.get_running_loop().create_task(
            self._run(messages, config, model, title)
        )
        self.busyChanged.emit(True)
        return self.task

    def stop(self) -> None:
        """Cancel the replay (the run in flight ends as cancelled)."""
        if self.task is not None and not self.task.done():
            self.task.cancel()

    async def _run(
        self, messages: Sequence[Message], config: RunConfig, model: ReplayModel, title: str
    ) -> None:
        outcome = ReplayOutcome(None)
        try:
            results = await replay_session(
                messages, config, model, sessions=self.sessions, title=title
            )
            outcome.results = results
            if results:
                last = results[-1]
                outcome.session_id = last.session_id
                outcome.status, outcome.message = last.status, last.reason
            else:
                outcome.status, outcome.message = "failed", "the session has no user prompt"
        except asyncio.CancelledError:
            outcome.status, outcome.message = "cancelled", "stopped by the user"
        except Exception as exc:  # reported, not raised: the buttons must come back
            _log.exception("replay failed")
            outcome.status, outcome.message = "failed", f"{type(exc).__name__}: {exc}"
        finally:
            try:
                await model.aclose()
            except Exception:
                _log.exception("closing the live model client failed")
        if outcome.session_id is None:
            outcome.session_id = self._latest_replay_session()
        self.outcome = outcome
        self._busy = False
        self.busyChanged.emit(False)
        self.finished.emit(outcome)

    def _replay_ids(self) -> set[str]:
        return {s.id for s in self.sessions.list_sessions(source="replay")}

    def _latest_replay_session(self) -> str | None:
        """A stopped replay may still have stored a session: the replay session it added."""
        new = [s for s in self.sessions.list_sessions(source="replay") if s.id not in self._before]
        return new[0].id if new else None
