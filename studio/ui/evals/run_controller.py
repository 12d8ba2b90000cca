"""An eval run on the GUI's event loop: progress as signals, Cancel, and resume.

The runner (:class:`studio.evals.runner.EvalRunner`) is asynchronous and
stores attempts as they arrive on its own writer thread, so it runs as a task
on the app's qasync loop while the window stays live. Re-opening a run starts
the runner with the same run id: what was stored is skipped and only the rest
is sent.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QObject, Signal

from registry_db import NotFoundError, RegistryStore
from registry_db.eval_runs import EvalRunStore

_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class RunRequest:
    """What the run dialog asked for.

    Attributes:
        set_name: The registry's eval set.
        multi_step: Whole conversations on the stored mocks (scores end-to-end success).
        a / b: Variant specs (``draft``, ``3``, ``1.2.0``, ``#stable``); ``b`` empty for one side.
        profiles: Model profile names.
        run_id: Resume this run; empty starts a new one.
    """

    registry: str
    set_name: str
    a: str
    b: str = ""
    profiles: tuple[str, ...] = ()
    repeat: int = 1
    concurrency: int = 4
    budget_requests: int | None = None
    budget_tokens: int | None = None
    use_cache: bool = True
    multi_step: bool = False
    run_id: str = ""
    client_factory: Any = field(default=None, compare=False)


def request_for_run(store: RegistryStore, run_id: str) -> RunRequest:
    """What a stored run was asked to do, to run it again (resume) with the same id.

    Raises:
        NotFoundError: no run has that id.
        ValueError: the stored run names no variant or no profile.
    """
    run = EvalRunStore.for_store(store).get(run_id)
    config = run.config
    variants = [v for v in config.get("variants") or () if isinstance(v, dict)]
    profiles = tuple(str(p["name"]) for p in config.get("profiles") or () if isinstance(p, dict))
    if not variants or not profiles:
        raise ValueError(f"run {run_id} does not say which variants and profiles it ran")
    return RunRequest(
        registry=run.registry,
        set_name=run.set_name,
        a=str(variants[0].get("spec", "draft")),
        b=str(variants[1].get("spec", "")) if len(variants) > 1 else "",
        profiles=profiles,
        repeat=int(config.get("repeat", 1)),
        budget_requests=config.get("budget_requests"),
        budget_tokens=config.get("budget_tokens"),
        use_cache=bool(config.get("cache", True)),
        multi_step=bool(config.get("multi_step", False)),
        run_id=run_id,
    )


class EvalRunController(QObject):
    """Starts, follows and cancels one eval run at a time.

    Signals:
        started(str): the run id.
        progressed(object): the runner's :class:`~studio.evals.runner.Progress`.
        finished(str, str, str): run id, status (``done``, ``cancelled``,
            ``failed``) and a one-line message.
    """

    started = Signal(str)
    progressed = Signal(object)
    finished = Signal(str, str, str)

    def __init__(self, store: RegistryStore, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.store = store
        self.runner: Any = None
        self.task: asyncio.Task[None] | None = None
        self.summary: Any = None

    @property
    def busy(self) -> bool:
        return self.task is not None and not self.task.done()

    def start(self, request: RunRequest) -> asyncio.Task[None]:
        """Resolve the variants, set and profiles and start the run on the running loop.

        Raises:
            ValueError: a variant, set or profile that does not exist (one line; nothing sent).
            RuntimeError: a run is already going.
        """
        if self.busy:
            raise RuntimeError(self.tr("A run is already going; cancel it first"))
        from registry_db.profiles import ProfileRepository
        from studio.evals import EvalSetError
        from studio.evals.runner import EvalRunner, RunOptions
        from studio.evals.store import EvalStore
        from studio.evals.variants import VariantError, resolve_variant

        try:
            eval_set = EvalStore(self.store).load(request.registry, request.set_name)
            variants = [resolve_variant(self.store, request.registry, request.a, "A")]
            if request.b:
                variants.append(resolve_variant(self.store, request.registry, request.b, "B"))
            repo = ProfileRepository(self.store)
            profiles = [repo.get(name) for name in request.profiles]
        except (NotFoundError, EvalSetError, VariantError) as exc:
            raise ValueError(str(exc)) from None
        if not profiles:
            raise ValueError(self.tr("Choose at least one model profile"))
        options = RunOptions(
            repeat=request.repeat,
            concurrency=request.concurrency,
            budget_requests=request.budget_requests,
            budget_tokens=request.budget_tokens,
            use_cache=request.use_cache,
            multi_step=request.multi_step,
        )
        self.summary = None
        self.runner = EvalRunner(
            self.store, request.registry, eval_set, variants, profiles, options,
            run_id=request.run_id or None, on_progress=self.progressed.emit,
            client_factory=request.client_factory,
        )  # fmt: skip
        self.task = asyncio.get_running_loop().create_task(self._run(self.runner))
        self.started.emit(self.runner.run_id)
        return self.task

    def cancel(self) -> None:
        """Stop sending; what is stored stays, and the run can be resumed."""
        if self.runner is not None and self.busy:
            self.runner.cancel()

    async def _run(self, runner: Any) -> None:
        from studio.evals.runner import EvalRunError

        try:
            self.summary = await runner.run()
        except EvalRunError as exc:
            self.finished.emit(runner.run_id, "failed", str(exc))
            return
        except asyncio.CancelledError:
            self.finished.emit(runner.run_id, "cancelled", self.tr("stopped"))
            return
        except Exception as exc:  # reported, not raised: the buttons must come back
            _log.exception("eval run failed")
            self.finished.emit(runner.run_id, "failed", f"{type(exc).__name__}: {exc}")
            return
        summary = self.summary
        message = summary.budget_stop or ""
        self.finished.emit(runner.run_id, summary.status, message)
