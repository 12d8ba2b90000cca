"""Background jobs of the session browser: a function on the thread pool, results on the GUI thread.

A job never touches widgets: it reports progress through a signal and its
result (or error) through another. The signals object lives on the GUI thread
and every connection is queued, so the receivers run there. Each job carries
a generation number; a view ignores results older than its latest request.
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

_log = logging.getLogger(__name__)
_generations = itertools.count(1)
ProgressCallback = Callable[[int, int], None]


class JobSignals(QObject):
    """``progress(done, total)``, ``succeeded(generation, result)``, ``failed(generation, text)``.

    Receivers should be bound methods of objects on the GUI thread: the
    connection is then queued and they run there.
    """

    progress = Signal(int, int)
    succeeded = Signal(int, object)
    failed = Signal(int, str)


class Job(QRunnable):
    """Runs ``fn(progress)`` on a pool thread.

    Args:
        fn: The work; it may call ``progress(done, total)`` as often as it likes —
            the job forwards at most about one report per percent.
    """

    def __init__(self, fn: Callable[[ProgressCallback], Any]) -> None:
        super().__init__()
        self.fn: Callable[[ProgressCallback], Any] | None = fn
        self.generation = next(_generations)
        self.signals = JobSignals()
        self.done = False
        self._last = -1
        self.setAutoDelete(False)  # Python keeps the job (and its signals) alive

    def _progress(self, done: int, total: int) -> None:
        step = max(1, total // 100)
        if done >= total or done // step != self._last:
            self._last = done // step
            self.signals.progress.emit(done, total)

    def run(self) -> None:
        # A runnable the pool does not delete is kept alive by PySide for good
        # once started: the job lets go of its function here, or whatever that
        # captured (a registry of thousands of tools, a session) would live as
        # long as the program.
        fn, self.fn = self.fn, None
        if fn is None:
            return
        try:
            result = fn(self._progress)
        except Exception as exc:  # reported to the GUI, never lost
            _log.exception("background job failed")
            self.done = True
            self.signals.failed.emit(self.generation, f"{type(exc).__name__}: {exc}")
            return
        self.done = True
        self.signals.succeeded.emit(self.generation, result)


class JobRunner(QObject):
    """Starts jobs on a pool and keeps them alive until they report."""

    def __init__(self, pool: QThreadPool | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.pool = pool or QThreadPool.globalInstance()
        self._jobs: dict[int, Job] = {}

    def start(self, job: Job) -> Job:
        self._jobs[job.generation] = job
        job.signals.succeeded.connect(self._forget)
        job.signals.failed.connect(self._forget)
        self.pool.start(job)
        return job

    def _forget(self, generation: int, _value: object) -> None:
        self._jobs.pop(generation, None)

    @property
    def busy(self) -> bool:
        return any(not j.done for j in self._jobs.values())

    def wait(self, msecs: int = 5000) -> bool:
        """Block until every job has finished (closing, tests)."""
        return self.pool.waitForDone(msecs)
