"""The eval runner: every case × variant × profile × repetition, one model turn each.

For each attempt the runner builds the request the provider would get from
the variant's export (:mod:`studio.evals.requests`), sends it through the
studio's own provider clients (their retries and ``Retry-After`` handling
included), and scores the answer raw and after the runtime's argument
pipeline (:mod:`studio.evals.scoring`). Tools are not executed, except in
multi-step mode (:mod:`studio.evals.multistep`), which plays whole
conversations on the registry's stored mocks.

Attempts are stored as they arrive (every ~0.1 s, one transaction on a writer thread), so a
run that is killed keeps what it had: running the same run id again skips
every attempt already scored (errors and budget skips are tried again). Answers
go to a response cache keyed by the exact request, so re-running an unchanged
variant sends nothing. A budget stops sending after N requests or N tokens;
what was not sent is stored as ``skipped``. :meth:`EvalRunner.cancel` stops
at once; what was in flight is simply not stored and is redone on resume.

Typical use::

    runner = EvalRunner(store, "travel-reimbursement", eval_set, variants, [profile],
                        RunOptions(concurrency=8), on_progress=print)
    summary = await runner.run()
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import copy
import dataclasses
import json
import os
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from registry_db import RegistryStore
from registry_db.connection import connect
from registry_db.eval_runs import RUN_CANCELLED, RUN_DONE, AttemptRow, EvalRunStore
from studio.evals.jsonl import EvalSet
from studio.evals.model import EvalCase
from studio.evals.requests import (
    cache_key,
    case_request,
    decode_answer,
    encode_answer,
    tools_digest,
)
from studio.evals.results import (
    STATUS_ERROR,
    STATUS_SCORED,
    STATUS_SKIPPED,
    Attempt,
)
from studio.evals.runs import attempt_row, load_attempts
from studio.evals.scoring import expected_of, runtime_context, score_answer
from studio.evals.skills import (
    eval_registry,
    loaded_skills,
    score_skills,
    skill_failures,
    split_loads,
    with_catalogue,
)
from studio.evals.variants import Variant
from studio.providers.base import (
    ModelClient,
    ModelRequest,
    ProviderError,
    ToolSpec,
    TurnCompleted,
)
from studio.providers.http import RetryNotice
from studio.providers.profiles import ModelProfile, client_for, find_api_key
from studio.runtime.loop import tool_specs
from studio.runtime.pipeline import ArgumentPipeline

ClientFactory = Callable[[ModelProfile, str | None], ModelClient]
"""Makes the client of a profile given its key (tests may route it elsewhere)."""

_FLUSH_SECONDS = 0.1
_FATAL_STATUSES = frozenset({401, 403, 404})
"""Answers that every other request would get too (bad key, no access, no such model)."""


class EvalRunError(Exception):
    """The run cannot start (a missing key, no cases…); nothing was sent. One line."""


@dataclass(frozen=True, slots=True)
class RunOptions:
    """How a run goes.

    Attributes:
        repeat: Repetitions of every case (pass^k needs k > 1).
        concurrency: Requests in flight at once.
        budget_requests: Stop sending after this many requests (cache hits are free).
        budget_tokens: Stop sending once this many tokens (in + out) were used.
        use_cache: Read and write the response cache.
        multi_step: Play whole conversations on the stored mocks (tools executed as mocks).
        max_retries: Provider retries per request (429, 5xx, transport errors).
    """

    repeat: int = 1
    concurrency: int = 4
    budget_requests: int | None = None
    budget_tokens: int | None = None
    use_cache: bool = True
    multi_step: bool = False
    max_retries: int = 2


@dataclass(slots=True)
class Progress:
    """How far the run is; handed to ``on_progress`` after every attempt.

    ``overhead_ms`` sums the runner's own time (building, hashing, scoring,
    storing) outside the model's answer, for the benchmark.
    """

    total: int
    done: int = 0
    resumed: int = 0
    scored: int = 0
    errors: int = 0
    skipped: int = 0
    cached: int = 0
    requests: int = 0
    retries: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    model_ms: float = 0.0
    overhead_ms: float = 0.0
    last: Attempt | None = None


@dataclass(frozen=True, slots=True)
class RunSummary:
    """What a run ended with: status (``done`` or ``cancelled``), counts, every stored attempt."""

    run_id: str
    status: str
    progress: Progress
    attempts: list[Attempt] = field(default_factory=list)
    budget_stop: str = ""


class BudgetExhausted(Exception):
    """The request or token budget is spent; what is not cached is not sent."""


@dataclass(frozen=True, slots=True)
class Turn:
    """One model turn: the answer, whether it came from the cache, the model's time."""

    completed: TurnCompleted
    cached: bool
    model_ms: float


@dataclass(frozen=True, slots=True)
class Job:
    """One attempt to make: a case, a variant, a profile, a repetition."""

    case: EvalCase
    variant: Variant
    profile: ModelProfile
    repetition: int

    @property
    def key(self) -> tuple[str, str, str, int]:
        return (self.case.id, self.variant.label, self.profile.name, self.repetition)


def new_run_id() -> str:
    """A fresh run id: UTC time to the second plus 6 random hex digits."""
    return time.strftime("%Y%m%d-%H%M%S", time.gmtime()) + "-" + uuid.uuid4().hex[:6]


def check_api_keys(profiles: list[ModelProfile]) -> dict[str, str | None]:
    """Each profile's key; a profile naming an unset variable fails the run before any request.

    Raises:
        EvalRunError: ``OPENAI_API_KEY is not set`` (naming the profile's variable).
    """
    keys: dict[str, str | None] = {}
    for profile in profiles:
        if profile.api_key_env:
            value = os.environ.get(profile.api_key_env)
            if not value:
                raise EvalRunError(
                    f"{profile.api_key_env} is not set (profile {profile.name} reads its API "
                    "key from it); nothing was sent"
                )
            keys[profile.name] = value
        else:  # a local server may need no key; the keyring may hold one
            keys[profile.name] = find_api_key(profile).key
    return keys


def _default_client(
    profile: ModelProfile,
    key: str | None,
    max_retries: int,
    on_retry: Callable[[RetryNotice], None],
) -> ModelClient:
    return client_for(profile, api_key=key, max_retries=max_retries, on_retry=on_retry)


class EvalRunner:
    """Runs one eval set against variants and profiles; see the module docstring.

    Args:
        store: The open database (attempts, the cache and the run are stored there).
        registry: The registry's name.
        eval_set: The cases.
        variants: One or two resolved variants (``A``, ``B``).
        profiles: The model profiles to ask.
        options: Repetitions, concurrency, budget, cache, mode.
        run_id: Resume this run (or create it with this id); None makes a new id.
        on_progress: Called on the event loop after every attempt.
        client_factory: ``(profile, key) -> client``; default: the studio's provider clients.
    """

    def __init__(
        self,
        store: RegistryStore,
        registry: str,
        eval_set: EvalSet,
        variants: list[Variant],
        profiles: list[ModelProfile],
        options: RunOptions | None = None,
        *,
        run_id: str | None = None,
        on_progress: Callable[[Progress], None] | None = None,
        client_factory: ClientFactory | None = None,
    ) -> None:
        self.store = store
        self.registry = registry
        self.eval_set = eval_set
        self.variants = variants
        self.profiles = profiles
        self.options = options or RunOptions()
        self.run_id = run_id or new_run_id()
        self.on_progress = on_progress
        self._client_factory = client_factory
        self._runs = EvalRunStore.for_store(store)
        self._cancelled = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._fatal = ""
        self._hold_until = 0.0
        self._tasks: list[asyncio.Task[None]] = []
        self._pending: list[AttemptRow] = []
        self._pending_cache: list[tuple[str, str, str, str]] = []
        self._budget_stop = ""
        self._specs: dict[str, tuple[ToolSpec, ...]] = {}
        self._tools_sha: dict[tuple[str, str], str] = {}
        self._pipelines: dict[tuple[str, str], ArgumentPipeline] = {}
        self._base_pipelines: dict[str, ArgumentPipeline] = {}
        self.progress = Progress(0)
        # Writes go through one thread with its own connection (see _flush).
        self._writer = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="eval-writer")
        self._writer_runs: EvalRunStore | None = None

    # ------------------------------------------------------------------ public API

    def config(self) -> dict[str, Any]:
        """What the run was asked to do (stored with it, read by reports)."""
        o = self.options
        return {
            "set": self.eval_set.name,
            "variants": [{"name": v.name, "spec": v.spec, "label": v.label} for v in self.variants],
            "profiles": [
                {"name": p.name, "kind": p.kind.value, "model": p.model} for p in self.profiles
            ],
            "repeat": o.repeat,
            "multi_step": o.multi_step,
            "cache": o.use_cache,
            "budget_requests": o.budget_requests,
            "budget_tokens": o.budget_tokens,
        }

    def cancel(self) -> None:
        """Stop now: nothing more is sent; what is in flight is dropped (redone on resume).

        Safe to call from any thread (a GUI's Cancel button while the run's
        event loop works on another thread).
        """
        self._cancelled = True
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            self._cancel_tasks()
        else:
            loop.call_soon_threadsafe(self._cancel_tasks)

    def _cancel_tasks(self) -> None:
        for task in self._tasks:
            task.cancel()

    async def run(self) -> RunSummary:
        """Run (or resume) every attempt; returns when all are stored or the run is cancelled.

        Raises:
            EvalRunError: before any request: no cases, no variants, a profile's key missing.
        """
        if not self.eval_set.cases:
            raise EvalRunError(f"eval set {self.eval_set.name} has no cases")
        if not self.variants or not self.profiles:
            raise EvalRunError("a run needs at least one variant and one profile")
        if self.options.repeat < 1 or self.options.concurrency < 1:
            raise EvalRunError("--repeat and --concurrency must be at least 1")
        self._loop = asyncio.get_running_loop()
        keys = check_api_keys(self.profiles)
        self._runs.open_run(self.run_id, self.registry, self.eval_set.name, self.config())
        jobs = list(self._jobs())
        done = self._runs.stored_keys(self.run_id, [STATUS_SCORED])
        todo = [j for j in jobs if j.key not in done]
        self.progress = Progress(
            len(jobs), done=len(jobs) - len(todo), resumed=len(jobs) - len(todo)
        )
        for variant in self.variants:
            seen = eval_registry(variant.registry)  # load_skill beside the tools (issue #18)
            self._specs[variant.label] = tool_specs(seen)
            self._base_pipelines[variant.label] = ArgumentPipeline(
                seen, runtime_context(self.eval_set.cases[0])
            )
        clients = {p.name: self._make_client(p, keys[p.name]) for p in self.profiles}
        queue = iter(todo)
        flusher = asyncio.create_task(self._flush_periodically())
        try:
            workers = min(self.options.concurrency, max(1, len(todo)))
            self._tasks = [
                asyncio.create_task(self._worker(queue, clients)) for _ in range(workers)
            ]
            results = await asyncio.gather(*self._tasks, return_exceptions=True)
            for result in results:
                if isinstance(result, BaseException) and not isinstance(
                    result, asyncio.CancelledError
                ):
                    raise result
        finally:
            flusher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await flusher
            await self._flush()
            await asyncio.get_running_loop().run_in_executor(self._writer, self._close_writer)
            self._writer.shutdown(wait=True)
            for client in clients.values():
                with contextlib.suppress(Exception):
                    await client.aclose()
        status = RUN_CANCELLED if self._cancelled else RUN_DONE
        self._runs.set_status(self.run_id, status)
        if self._fatal:
            raise EvalRunError(
                f"{self._fatal}; the run stopped (run id {self.run_id}: fix it and run the "
                "same id again to resume)"
            )
        attempts = load_attempts(self.store, self.run_id)
        return RunSummary(self.run_id, status, self.progress, attempts, self._budget_stop)

    # ------------------------------------------------------------------ internals

    def _make_client(self, profile: ModelProfile, key: str | None) -> ModelClient:
        if self._client_factory is not None:
            return self._client_factory(profile, key)
        return _default_client(profile, key, self.options.max_retries, self._on_retry)

    def _on_retry(self, notice: RetryNotice) -> None:
        """Count the provider's retries; a rate limit holds back every worker, not only its own.

        The retrying request waits inside the client as the provider asked
        (``Retry-After`` or backoff); the other workers wait as long before
        sending anything new, instead of hitting the limit again meanwhile.
        """
        self.progress.retries += 1
        if notice.error.status in (429, 529):
            self._hold_until = max(self._hold_until, time.monotonic() + notice.delay)

    async def _respect_rate_limit(self) -> None:
        wait = self._hold_until - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)

    def _jobs(self) -> Iterator[Job]:
        # Variants side by side: a run stopped early still holds paired attempts.
        for repetition in range(self.options.repeat):
            for case in self.eval_set.cases:
                for profile in self.profiles:
                    for variant in self.variants:
                        yield Job(case, variant, profile, repetition)

    def _pipeline(self, variant: Variant, case: EvalCase) -> ArgumentPipeline:
        ctx = case.context
        key = (variant.label, json.dumps([ctx.role, ctx.scenario, dict(ctx.values)],
                                         sort_keys=True, default=str))  # fmt: skip
        pipeline = self._pipelines.get(key)
        if pipeline is None:
            # The compiled tools are shared; only the session context differs per case.
            pipeline = copy.copy(self._base_pipelines[variant.label])
            pipeline.context = runtime_context(case)
            self._pipelines[key] = pipeline
        return pipeline

    def _budget_left(self) -> bool:
        o, p = self.options, self.progress
        if o.budget_requests is not None and p.requests >= o.budget_requests:
            self._budget_stop = f"budget of {o.budget_requests} requests reached"
            return False
        if o.budget_tokens is not None and p.tokens_in + p.tokens_out >= o.budget_tokens:
            self._budget_stop = f"budget of {o.budget_tokens} tokens reached"
            return False
        return True

    async def _worker(self, queue: Iterator[Job], clients: dict[str, ModelClient]) -> None:
        for job in queue:
            if self._cancelled:
                return
            attempt = await self._attempt(job, clients[job.profile.name])
            started = time.perf_counter()
            self._record(attempt)
            self.progress.overhead_ms += (time.perf_counter() - started) * 1000

    def _record(self, attempt: Attempt) -> None:
        p = self.progress
        p.done += 1
        p.last = attempt
        if attempt.status == STATUS_SCORED:
            p.scored += 1
        elif attempt.status == STATUS_ERROR:
            p.errors += 1
        else:
            p.skipped += 1
        if attempt.cached:
            p.cached += 1
        self._pending.append(attempt_row(attempt))
        if self.on_progress is not None:
            self.on_progress(p)

    def _base(self, job: Job, status: str, **fields: Any) -> Attempt:
        return Attempt(
            self.run_id, job.case.id, job.variant.label, job.profile.name, job.repetition,
            status, expected=expected_of(job.case), tags=job.case.tags, **fields,
        )  # fmt: skip

    async def model_turn(self, job: Job, client: ModelClient, request: ModelRequest) -> Turn:
        """One model turn of ``job``: from the cache, else sent (budget and rate limits kept).

        Multi-step mode sends every turn of a conversation through here too, so
        its turns are cached, counted and budgeted like single turns.

        Raises:
            BudgetExhausted: the answer is not cached and the budget is spent.
            ProviderError: the provider failed after its retries (a refused key
                or model also stops the run: see :data:`_FATAL_STATUSES`).
        """
        build = getattr(client, "build_body", None)
        body = build(request) if callable(build) else {"request": repr(request)}
        url = str(getattr(client, "url", job.profile.base_url))
        tools_key = (job.variant.label, job.profile.name)
        tools_sha = self._tools_sha.get(tools_key)
        if tools_sha is None:
            tools_sha = self._tools_sha[tools_key] = tools_digest(body.get("tools"))
        key = cache_key(job.profile.kind.value, url, body, job.repetition, tools_sha)
        cached_text = self._runs.cached_response(key) if self.options.use_cache else None
        if cached_text is not None:
            return Turn(decode_answer(cached_text), True, 0.0)
        if not self._budget_left():
            raise BudgetExhausted(self._budget_stop)
        self.progress.requests += 1
        await self._respect_rate_limit()
        sent = time.perf_counter()
        try:
            completed = await _one_turn(client, request)
        except ProviderError as exc:
            if exc.status in _FATAL_STATUSES and not self._fatal:
                # A wrong key or model fails every request alike: stop at the first.
                self._fatal = f"{job.profile.name}: the provider refused the request: {exc}"
                self.cancel()
            raise
        model_ms = (time.perf_counter() - sent) * 1000
        self.progress.model_ms += model_ms
        self.progress.tokens_in += completed.usage.input_tokens or 0
        self.progress.tokens_out += completed.usage.output_tokens or 0
        if self.options.use_cache:
            self._pending_cache.append(
                (key, job.profile.kind.value, job.profile.model, encode_answer(completed))
            )
        return Turn(completed, False, model_ms)

    async def _attempt(self, job: Job, client: ModelClient) -> Attempt:
        if self.options.multi_step:
            from studio.evals.multistep import play_case

            return await play_case(self, job, client, self._base(job, STATUS_SCORED))
        started = time.perf_counter()
        request = case_request(job.case, self._specs[job.variant.label], job.profile.params)
        if job.variant.registry.skills:  # the catalogue in the system prompt, as hosts do
            system = with_catalogue(request.system, job.variant.registry)
            request = dataclasses.replace(request, system=system)
        try:
            turn = await self.model_turn(job, client, request)
        except BudgetExhausted as exc:
            return self._base(job, STATUS_SKIPPED, error=str(exc))
        except ProviderError as exc:
            return self._base(job, STATUS_ERROR, error=str(exc))
        completed = turn.completed
        message, loads = split_loads(completed.message)  # loading a skill is not a tool choice
        scored = score_answer(job.case, message, self._pipeline(job.variant, job.case))
        failures = skill_failures(job.case, loaded_skills(loads))
        usage = completed.usage
        attempt = self._base(
            job, STATUS_SCORED, chosen=scored.chosen, raw_calls=(*loads, *scored.raw_calls),
            pipeline_calls=scored.pipeline_calls, text=scored.text,
            raw=score_skills(scored.raw, failures),
            pipeline=score_skills(scored.pipeline, failures), tokens_in=usage.input_tokens or 0,
            tokens_out=usage.output_tokens or 0, latency_ms=round(turn.model_ms, 3),
            cached=turn.cached,
        )  # fmt: skip
        self.progress.overhead_ms += (time.perf_counter() - started) * 1000 - turn.model_ms
        return attempt

    async def _flush_periodically(self) -> None:
        while True:
            await asyncio.sleep(_FLUSH_SECONDS)
            await self._flush()

    async def _flush(self) -> None:
        """Store what arrived since the last flush: answers and attempts in one transaction.

        The commit (and its fsync) runs on the writer thread with its own
        connection, so the event loop keeps sending meanwhile; WAL lets the
        loop's cache reads go on during the write.
        """
        cache, self._pending_cache = self._pending_cache, []
        rows, self._pending = self._pending, []
        if not cache and not rows:
            return
        loop = asyncio.get_running_loop()
        # Shielded: the periodic flusher is cancelled at the end of a run, and cancelling a
        # write still queued behind another on the writer thread would drop its rows.
        await asyncio.shield(loop.run_in_executor(self._writer, self._write, rows, cache))

    def _write(self, rows: list[AttemptRow], cache: list[tuple[str, str, str, str]]) -> None:
        if self._writer_runs is None:
            self._writer_runs = EvalRunStore(connect(self.store.path))
        self._writer_runs.put_attempts(self.run_id, rows, cache)

    def _close_writer(self) -> None:
        runs, self._writer_runs = self._writer_runs, None
        if runs is not None:
            runs.close()


async def _one_turn(client: ModelClient, request: ModelRequest) -> TurnCompleted:
    """Send one request and return its completed turn (the deltas are not needed here)."""
    completed: TurnCompleted | None = None
    async with contextlib.aclosing(client.stream(request)) as stream:  # type: ignore[type-var]
        async for item in stream:
            if isinstance(item, TurnCompleted):
                completed = item
    if completed is None:
        raise ProviderError("the stream ended without a completed turn", type="incomplete")
    return completed


def selection_accuracy(attempts: list[Attempt]) -> dict[str, dict[str, float | int]]:
    """Per variant (and per profile when there are several): scored attempts and the share
    passing selection, raw and after the pipeline (and end-to-end in multi-step mode).

    The CLI's end-of-run summary; the full metrics are the reports' job. Keys are the
    variant labels, ``label · profile`` when the run asked more than one profile.
    """
    several = len({a.profile for a in attempts}) > 1
    groups: dict[str, list[Attempt]] = {}
    for a in attempts:
        groups.setdefault(f"{a.variant} · {a.profile}" if several else a.variant, []).append(a)
    out: dict[str, dict[str, float | int]] = {}
    for label, group in groups.items():
        mine = [a for a in group if a.scored]

        def share(pred: Callable[[Attempt], bool], items: list[Attempt] = mine) -> float:
            return sum(1 for a in items if pred(a)) / len(items) if items else 0.0

        row: dict[str, float | int] = {
            "scored": len(mine),
            "selection": share(lambda a: bool(a.raw and a.raw.selection_passed)),
            "raw": share(lambda a: bool(a.raw and a.raw.passed)),
            "pipeline": share(lambda a: bool(a.pipeline and a.pipeline.passed)),
            "skipped": sum(1 for a in group if a.status == STATUS_SKIPPED),
            "errors": sum(1 for a in group if a.status == STATUS_ERROR),
        }
        if any(a.end_to_end is not None for a in mine):
            row["end_to_end"] = share(lambda a: bool(a.end_to_end))
        out[label] = row
    return out
