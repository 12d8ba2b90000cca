"""Lint-as-you-type for one open draft: full lints in a worker, edits re-checked incrementally.

A :class:`LintController` owns the :class:`~studio.lint.Linter` of one
:class:`~studio.ui.document.RegistryDocument`:

- A *full* lint (on open, on a profile or configuration change, on "Run lint")
  runs in a worker thread over an immutable snapshot of the registry (the
  contract objects are frozen dataclasses). Each job carries a stamp; only the
  newest job's result is used, so a slow result never overwrites a newer one.
- Edits (the workspace's ``changed``/``inserted``/``removed`` events) are
  debounced; then the tools that differ from what the linter has seen are
  handed to :meth:`Linter.update_tool` one by one — the edited tool, its
  candidate neighbours and the registry-wide rules, never the whole registry.
- Configuration changes (disable a rule, change a severity, suppress a finding
  with a reason) are written to the registry settings in the store, then the
  registry is linted again.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import (
    QCoreApplication,
    QObject,
    QRunnable,
    QSettings,
    QThreadPool,
    QTimer,
    Signal,
)

from registry_db import ConflictError, StoreError
from studio.contract.model import Registry, ToolContract
from studio.editing import EditTool
from studio.editing.edits import EditError
from studio.lint import PROFILES, Finding, Severity
from studio.lint.config import LintConfig, LintConfigError, Suppression
from studio.ui.document import RegistryDocument

# The engine (scores, similarity, the rules) and the tokenizer are imported by
# the first full lint, in its worker, after the window has painted.
if TYPE_CHECKING:
    from studio.lint import Linter, LintReport

_log = logging.getLogger(__name__)

DEBOUNCE_MS = 300
DEFAULT_PROFILE = "openai"


class LintConfigNotSaved(Exception):
    """A lint configuration change was not written; the message says why."""


def remembered_profile(registry: str) -> str:
    """The lint profile last chosen for ``registry`` (QSettings), else the default."""
    value = QSettings().value(f"lint/profile/{registry}", DEFAULT_PROFILE)
    return value if value in PROFILES else DEFAULT_PROFILE


INITIAL_LINT_DELAY_MS = 300


class _JobSignals(QObject):
    done = Signal(int, object)
    failed = Signal(int, str)


class _FullLintJob(QRunnable):
    """Lints a registry snapshot in a pool thread; never touches widgets."""

    def __init__(self, stamp: int, registry: Registry, profile: str, signals: _JobSignals) -> None:
        super().__init__()
        self.stamp = stamp
        self.registry: Registry | None = registry
        self.name = registry.name
        self.profile = profile
        self.signals = signals

    def run(self) -> None:
        # Started with auto-deletion off, the runnable is kept alive by PySide
        # for good: it lets go of the registry snapshot (and the linter) here.
        registry, self.registry = self.registry, None
        if registry is None:
            return
        try:
            from studio.lint import Linter

            linter = Linter(registry, self.profile)
        except Exception as exc:  # a failed lint must never take the GUI down
            _log.exception("full lint of %s failed", self.name)
            self._deliver(self.signals.failed, f"{type(exc).__name__}: {exc}")
        else:
            self._deliver(self.signals.done, linter)

    def _deliver(self, signal: Signal, value: object) -> None:  # type: ignore[valid-type]
        try:
            signal.emit(self.stamp, value)  # type: ignore[attr-defined]
        except RuntimeError:
            # The window (and the signals object with it) closed while this job
            # ran: nobody is waiting for the result any more.
            _log.debug("full lint of %s finished after its window closed", self.name)


class LintController(QObject):
    """Keeps a lint report of one draft document up to date.

    Args:
        document: The open draft.
        profile: The target profile; default: the one remembered for the registry.
        pool: The thread pool for full lints (default: a private one-thread pool).
        parent: The Qt parent.
        start_gate: Called with the start of a delayed lint when its delay has
            run out; it starts it now or later (the main window holds it until
            its first paint). None: started when the delay runs out.

    Signals:
        reportChanged(LintReport): a new report (full or incremental).
        busyChanged(bool): a full lint started or finished.
        failed(str): a full lint failed (the message says why).
    """

    reportChanged = Signal(object)
    busyChanged = Signal(bool)
    failed = Signal(str)

    def __init__(
        self,
        document: RegistryDocument,
        profile: str | None = None,
        pool: QThreadPool | None = None,
        parent: QObject | None = None,
        start_gate: Callable[[Callable[[], None]], None] | None = None,
    ) -> None:
        super().__init__(parent)
        self._start_gate = start_gate
        self.document = document
        self.workspace = document.workspace
        self.profile = profile if profile in PROFILES else remembered_profile(document.name)
        self.linter: Linter | None = None
        self.report: LintReport | None = None
        if pool is None:
            pool = QThreadPool(self)
            pool.setMaxThreadCount(1)
        self._pool = pool
        self._stamp = 0
        self._running: dict[int, _FullLintJob] = {}
        # What the linter has seen, by workspace key: compared by identity with
        # the workspace's (immutable) tools to find what an edit changed.
        self._known: dict[int, ToolContract] = {}
        self._signals = _JobSignals()
        self._signals.done.connect(self._on_done)
        self._signals.failed.connect(self._on_failed)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._timer.timeout.connect(self.flush)
        events = self.workspace.events
        for event in ("changed", "inserted", "removed"):
            events.connect(event, self._on_edited)
        events.connect("reset", self._on_reset)
        # The first full lint waits until the window has had time to paint:
        # started at once, the worker shares the GIL with the first paint and
        # opening a 1,000-tool registry took twice as long to show.
        self.run_full(delay_ms=INITIAL_LINT_DELAY_MS)

    # ------------------------------------------------------------------ state

    @property
    def busy(self) -> bool:
        """True while the newest full lint has not delivered its result."""
        return self._stamp in self._running

    def set_profile(self, profile: str) -> None:
        """Lint for ``profile`` from now on (remembered for this registry)."""
        if profile not in PROFILES:
            raise ValueError(f"unknown lint profile {profile!r}")
        QSettings().setValue(f"lint/profile/{self.document.name}", profile)
        if profile != self.profile:
            self.profile = profile
            self.run_full()

    def run_full(self, delay_ms: int = 0) -> int:
        """Start a full lint in the worker; return its stamp (older results are dropped).

        Args:
            delay_ms: Wait this long before the worker starts (the lint counts as
                busy from now on, so a newer request still supersedes it).
        """
        self._stamp += 1
        stamp = self._stamp
        snapshot = {e.key: e.tool for e in self.workspace.entries}
        job = _FullLintJob(stamp, self.workspace.registry(), self.profile, self._signals)
        job.setAutoDelete(False)
        job.snapshot = snapshot  # type: ignore[attr-defined]
        self._running[stamp] = job
        self._timer.stop()
        self.busyChanged.emit(True)
        if delay_ms > 0:
            QTimer.singleShot(delay_ms, self, lambda: self._start_later(job))
        else:
            self._pool.start(job)
        return stamp

    def _start_later(self, job: _FullLintJob) -> None:
        """Start a delayed job, through the start gate when there is one."""

        def start() -> None:
            if job.stamp == self._stamp:  # else superseded, or shut down meanwhile
                self._pool.start(job)

        if self._start_gate is None:
            start()
        else:
            self._start_gate(start)

    def wait(self, msecs: int = 30_000) -> bool:
        """Block until queued jobs finished (for shutdown and tests)."""
        return self._pool.waitForDone(msecs)

    def shutdown(self) -> None:
        """Stop listening to the workspace and let running jobs finish unseen."""
        self._timer.stop()
        events = self.workspace.events
        for event in ("changed", "inserted", "removed"):
            events.disconnect(event, self._on_edited)
        events.disconnect("reset", self._on_reset)
        self._stamp += 1  # whatever is still running is now stale
        self._pool.clear()
        self._pool.waitForDone(10_000)

    # ------------------------------------------------------------------ results

    def _on_done(self, stamp: int, linter: Linter) -> None:
        job = self._running.pop(stamp, None)
        if stamp != self._stamp or job is None:
            return  # superseded by a newer request
        self.linter = linter
        self._known = dict(job.snapshot)  # type: ignore[attr-defined]
        self.report = linter.report
        # The full lint read its token counts from the cache; the first edit counts
        # a new text. Loading the tokenizer then, on this thread, froze the first
        # keystroke for 1-2 s: load it in the background now instead.
        from studio.contract.token_count import preload

        preload(self.profile)
        # Edits made while the worker ran are applied incrementally now.
        self.flush(emit=False)
        self.busyChanged.emit(False)
        self.reportChanged.emit(self.report)

    def _on_failed(self, stamp: int, message: str) -> None:
        self._running.pop(stamp, None)
        if stamp == self._stamp:
            self.busyChanged.emit(False)
            self.failed.emit(message)

    # ------------------------------------------------------------------ edits

    def _on_edited(self, *_args: object) -> None:
        self._timer.start()

    def _on_reset(self, *_args: object) -> None:
        self.run_full()

    def flush(self, emit: bool = True) -> bool:
        """Re-check now the tools edited since the last check; True when any was.

        Called by the debounce timer. While a full lint runs nothing happens:
        its result is reconciled with the workspace when it arrives.
        """
        self._timer.stop()
        linter = self.linter
        if linter is None or self.busy:
            return False
        current = {e.key: e.tool for e in self.workspace.entries}
        known = self._known
        changed = False
        for key in [k for k in known if k not in current]:
            changed |= self._update(linter, key, known[key].name, None)
        for key, tool in current.items():
            old = known.get(key)
            if old is not None and old is not tool:
                changed |= self._update(linter, key, old.name, tool)
        for key, tool in current.items():
            if key not in known:
                changed |= self._update(linter, key, None, tool)
        if changed:
            self.report = linter.report
            if emit:
                self.reportChanged.emit(self.report)
        return changed

    def _update(
        self, linter: Linter, key: int, old_name: str | None, tool: ToolContract | None
    ) -> bool:
        try:
            linter.update_tool(old_name, tool)
        except (KeyError, ValueError) as exc:
            # e.g. a name typed that another tool has: retried at the next edit.
            _log.info("lint update of %s skipped: %s", old_name or getattr(tool, "name", ""), exc)
            return False
        if tool is None:
            self._known.pop(key, None)
        else:
            self._known[key] = tool
        return True

    # ------------------------------------------------------------------ quick fixes

    def apply_fix(self, finding: Finding) -> None:
        """Apply a finding's quick fix as one undo step.

        Raises:
            EditError: an edit of the fix does not apply (nothing is changed).
            KeyError: the tool is no longer in the draft.
        """
        fix = finding.fix
        if fix is None or finding.tool is None:
            return
        entry = next((e for e in self.workspace.entries if e.tool.name == finding.tool), None)
        if entry is None:
            raise KeyError(finding.tool)
        tool = entry.tool
        for edit in fix.edits:  # a dry run: a fix that fails must not half-apply
            tool, _ = edit.apply(tool)
        stack = self.document.undo_stack
        stack.beginMacro(fix.label)
        try:
            for edit in fix.edits:
                self.document.push(EditTool(entry.key, edit))
        finally:
            stack.endMacro()

    # ------------------------------------------------------------------ configuration

    def config(self) -> LintConfig:
        """The lint configuration stored with the draft's settings."""
        return LintConfig.from_settings(self.workspace.settings)

    def suppress(self, finding: Finding, reason: str) -> None:
        """Accept ``finding`` for the stated reason (required), stored with the registry."""
        if not reason.strip():
            raise LintConfigNotSaved(
                QCoreApplication.translate(
                    "LintController", "A suppression needs a reason; nothing was changed."
                )
            )
        suppression = Suppression(finding.rule_id, finding.tool or "", reason.strip(), finding.path)
        self.change_config(lambda c: c.with_suppression(suppression))

    def disable_rule(self, rule_id: str) -> None:
        """Turn ``rule_id`` off for this registry."""
        self.change_config(lambda c: c.with_rule(rule_id, enabled=False))

    def set_severity(self, rule_id: str, severity: Severity) -> None:
        """Report ``rule_id`` at ``severity`` in this registry."""
        self.change_config(lambda c: c.with_rule(rule_id, severity=severity))

    def change_config(self, change: Callable[[LintConfig], LintConfig]) -> None:
        """Apply ``change`` to the stored configuration, save it, lint again.

        Raises:
            LintConfigNotSaved: the store refused (changed elsewhere, …);
                nothing was written.
        """
        store, name = self.document.store, self.document.name
        try:
            info = store.get_registry(name)
            config = change(LintConfig.from_settings(info.settings))
            saved = store.update_registry_meta(
                name,
                base_revision=info.draft_revision,
                title=info.title,
                description=info.description,
                settings=config.to_settings(info.settings),
            )
        except ConflictError as exc:
            raise LintConfigNotSaved(
                QCoreApplication.translate(
                    "LintController",
                    "The settings of {name} were changed elsewhere ({error}). Nothing was "
                    "overwritten; reopen the registry to see what is stored, then try again.",
                ).format(name=name, error=exc)
            ) from exc
        except LintConfigError as exc:
            raise LintConfigNotSaved(str(exc)) from exc
        except StoreError as exc:
            raise LintConfigNotSaved(f"{name}: {exc}") from exc
        self.workspace.settings = saved.settings
        self.run_full()


def fix_problem(controller: LintController, finding: Finding) -> str | None:
    """Apply a quick fix; the reason it failed, or None on success."""
    try:
        controller.apply_fix(finding)
    except (EditError, KeyError) as exc:
        return QCoreApplication.translate(
            "LintController", "The quick fix does not apply any more: {error}"
        ).format(error=exc)
    return None
