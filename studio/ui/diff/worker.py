"""Computing a diff off the GUI thread; only the newest request's result is delivered."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from registry_db import RegistryStore
from studio.contract import Registry
from studio.diff import RegistryDiff, diff_registries
from studio.ui.diff.sides import DiffSide, load_side

_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class DiffRequest:
    """Everything a diff computation needs, as plain data."""

    registry: str
    a: DiffSide
    b: DiffSide
    confirmed: Mapping[str, str] = field(default_factory=dict)
    rejected: frozenset[tuple[str, str]] = frozenset()
    lint_profile: str | None = "openai"


@dataclass(frozen=True)
class DiffResult:
    """A finished diff with both registries (the schema pane needs the tools)."""

    request: DiffRequest
    diff: RegistryDiff
    a: Registry
    b: Registry


class _Signals(QObject):
    done = Signal(int, object)
    failed = Signal(int, str)


class _DiffJob(QRunnable):
    def __init__(self, store: RegistryStore, seq: int, request: DiffRequest) -> None:
        super().__init__()
        self.signals = _Signals()
        self._store: RegistryStore | None = store
        self._seq = seq
        self._request: DiffRequest | None = request

    def run(self) -> None:
        # Started with auto-deletion off, the runnable is kept alive by PySide
        # for good: it lets go of the store, the request and both sides here.
        r, store = self._request, self._store
        self._request = self._store = None
        if r is None or store is None:
            return
        try:
            a = load_side(store, r.registry, r.a)
            b = load_side(store, r.registry, r.b)
            diff = diff_registries(
                a,
                b,
                confirmed_renames=dict(r.confirmed),
                rejected_renames=set(r.rejected),
                lint_profile=r.lint_profile,
                a_label=r.a.label,
                b_label=r.b.label,
            )
        except (
            Exception
        ) as exc:  # any failure is reported to the view, never raised in a pool thread
            _log.info("diff of %s failed: %s", r.registry, exc)
            self.signals.failed.emit(self._seq, str(exc))
            return
        self.signals.done.emit(self._seq, DiffResult(r, diff, a, b))


class DiffRunner(QObject):
    """Runs :class:`DiffRequest` s in a thread pool; the newest request wins.

    Signals:
        finished(DiffResult): the newest request's diff (on the GUI thread).
        failed(str): the newest request failed, with the reason.
    """

    finished = Signal(object)
    failed = Signal(str)
    busyChanged = Signal(bool)

    def __init__(
        self, store: RegistryStore, pool: QThreadPool | None = None, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._store = store
        self._pool = pool or QThreadPool.globalInstance()
        self._seq = 0
        self._jobs: dict[int, _DiffJob] = {}

    @property
    def busy(self) -> bool:
        return self._seq in self._jobs

    def submit(self, request: DiffRequest) -> int:
        """Start computing ``request``; earlier requests' results will be dropped."""
        self._seq += 1
        job = _DiffJob(self._store, self._seq, request)
        job.setAutoDelete(False)  # kept in _jobs until its signal arrives
        job.signals.done.connect(self._on_done)
        job.signals.failed.connect(self._on_failed)
        self._jobs[self._seq] = job
        self.busyChanged.emit(True)
        self._pool.start(job)
        return self._seq

    def drop_pending(self) -> None:
        """Forget the requests in flight: their results will not be delivered."""
        if self.busy:
            self.busyChanged.emit(False)
        self._seq += 1

    def wait(self, msecs: int = 30000) -> bool:
        """Block until the pool is idle (closing, tests)."""
        return self._pool.waitForDone(msecs)

    def _on_done(self, seq: int, result: DiffResult) -> None:
        self._jobs.pop(seq, None)
        if seq == self._seq:
            self.busyChanged.emit(False)
            self.finished.emit(result)

    def _on_failed(self, seq: int, message: str) -> None:
        self._jobs.pop(seq, None)
        if seq == self._seq:
            self.busyChanged.emit(False)
            self.failed.emit(message)
