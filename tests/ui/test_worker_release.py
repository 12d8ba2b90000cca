"""Finished background jobs let go of their data.

PySide keeps a ``QRunnable`` started with auto-deletion off alive for good, so
whatever a job holds when it ends — a registry snapshot of thousands of tools,
a session — would live as long as the program (it did: every full lint, diff
and import kept its data).
"""

from __future__ import annotations

import gc
import weakref

from PySide6.QtCore import QThreadPool

from studio.contract import Registry, ToolContract
from studio.ui.lint_controller import _FullLintJob, _JobSignals
from studio.ui.sessions.worker import Job, JobRunner


class _Payload:
    """Stands for what a job's function captures (weak-referenceable)."""


def test_a_finished_job_lets_go_of_what_its_function_captured(qtbot) -> None:
    payload = _Payload()
    gone = weakref.ref(payload)

    def work(progress, captured=payload):
        return type(captured).__name__

    runner = JobRunner(QThreadPool())
    job = Job(work)
    del work, payload
    with qtbot.waitSignal(job.signals.succeeded, timeout=10_000) as result:
        runner.start(job)
    assert result.args[1] == "_Payload"
    assert runner.wait()
    gc.collect()
    assert gone() is None, "the job still holds its function's data"


def test_a_full_lint_job_lets_go_of_its_registry_snapshot(qapp) -> None:
    registry = Registry("r", tools=(ToolContract("get_item", summary="Get an item by id."),))
    pool = QThreadPool()
    job = _FullLintJob(1, registry, "openai", _JobSignals())
    job.setAutoDelete(False)  # as LintController starts it
    assert _holds(job, registry)
    pool.start(job)
    assert pool.waitForDone(30_000)
    gc.collect()
    assert not _holds(job, registry)


def _holds(job: object, value: object) -> bool:
    """Whether ``job``'s attributes refer to ``value`` (the linter's own bounded memo aside)."""
    attributes = vars(job)
    return any(r is attributes for r in gc.get_referrers(value))
