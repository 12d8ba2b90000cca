"""The agent loop: request → stream → tool calls → pipeline → executors → results → repeat.

Typical use (the GUI does the same through qasync)::

    run = Run(client, RunConfig(registry, context=ctx, mock=MockExecutor(specs)),
              sessions=SessionStore.for_store(store), on_event=print)
    run.start("Can I claim my taxi invoice INV-102?")
    async for event in run.events():          # every event, replayed from the start
        if isinstance(event, ApprovalRequired):
            run.approve(event.call_id, phrase=event.phrase)   # or run.deny(...)
    result = await run.wait()

``run.cancel()`` stops the in-flight model request and pending tool calls;
:meth:`Run.from_session` starts a new run from a prefix of a stored session.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import random
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from registry_db.sessions import Outcome, SessionStore
from studio.contract import Registry, RiskTier, ToolContract
from studio.formats import export_tool
from studio.providers.base import (
    ModelClient,
    ModelParams,
    ModelRequest,
    ProviderError,
    TextDelta,
    ToolCallDelta,
    ToolCallStarted,
    ToolSpec,
    TurnCompleted,
)
from studio.runtime import events as ev
from studio.runtime import idempotency as idem
from studio.runtime.context import SessionContext
from studio.runtime.executors import (
    ExecutionRequest,
    Executor,
    MockExecutor,
    execute_with_policy,
)
from studio.runtime.fallback import FallbackCache
from studio.runtime.loop_guard import DEFAULT_MAX_TOOL_CALLS, LoopGuard, Verdict
from studio.runtime.pipeline import ArgumentPipeline, Prepared, StepRecord
from studio.runtime.policy import (
    ApprovalDecision,
    ApprovalRequest,
    Approver,
    confirmation_phrase,
    judge,
    needs_approval,
)
from studio.runtime.results import (
    DEFAULT_MAX_RESULT_CHARS,
    ToolError,
    error_content,
    result_content,
    shape_success,
    summarize,
)
from studio.sessions.model import (
    Message,
    Role,
    TextPart,
    ToolCallPart,
    ToolResultPart,
    message_from_dict,
    message_to_dict,
)

FLUSH_SECONDS = 0.05
"""The longest an event waits in memory before its batch is written."""
_DURABLE_TYPES = frozenset({
    ev.ToolCallExecuting.TYPE, ev.ApprovalRequired.TYPE, ev.ApprovalDecided.TYPE,
    *ev.TERMINAL_TYPES,
})  # fmt: skip
"""Written at once, with everything queued before them: what a crash must not lose
(a call that may have reached the tool, a run waiting for a person, the end)."""
_DURABLE_RISKS = frozenset({RiskTier.WRITE.value, RiskTier.DESTRUCTIVE.value})
_SECRET_KEYS = frozenset({"authorization", "x-api-key", "api-key", "api_key", "cookie"})


def redact(value: Any) -> Any:
    """``value`` with every secret-looking field replaced by ``***``."""
    if isinstance(value, dict):
        return {
            k: ("***" if str(k).lower() in _SECRET_KEYS and v else redact(v))
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [redact(v) for v in value]
    return value


def tool_specs(registry: Registry) -> tuple[ToolSpec, ...]:
    """The tools as the model sees them (exported: no ``x-`` keys, no injected fields)."""
    specs = []
    for tool in registry.tools:
        exported, _ = export_tool(tool, "openai", registry.settings)
        fn = exported["function"]
        specs.append(ToolSpec(fn["name"], fn.get("description", ""), fn.get("parameters", {})))
    return tuple(specs)


@dataclass
class RunConfig:
    """What a run needs besides the model client.

    Attributes:
        executors: Per-tool executors; tools not named use ``default_executor``,
            except destructive tools, which use ``mock`` unless named here.
        confirmation_phrases: Tool name → phrase to type for destructive calls
            (default: the tool name).
    """

    registry: Registry
    version: str = "draft"
    profile: str = ""
    system: str = ""
    params: ModelParams = field(default_factory=ModelParams)
    context: SessionContext = field(default_factory=SessionContext)
    mock: Executor = field(default_factory=lambda: MockExecutor({}))
    default_executor: Executor | None = None
    executors: Mapping[str, Executor] = field(default_factory=dict)
    max_tool_calls: int = DEFAULT_MAX_TOOL_CALLS
    max_turns: int = 16
    confirmation_phrases: Mapping[str, str] = field(default_factory=dict)
    max_result_chars: int = DEFAULT_MAX_RESULT_CHARS
    rng: random.Random | None = None
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
    fallback_cache: FallbackCache = field(default_factory=FallbackCache)
    """Last successful results of read tools with a soft fallback (see runtime.fallback)."""

    def executor_for(self, tool: ToolContract) -> Executor:
        if tool.name in self.executors:
            return self.executors[tool.name]
        if tool.risk.value == "destructive" or self.default_executor is None:
            return self.mock
        return self.default_executor


@dataclass(frozen=True, slots=True)
class RunResult:
    """How a run ended: ``status`` is completed, partial, failed or cancelled."""

    status: str
    reason: str
    session_id: str
    run_id: str
    messages: tuple[Message, ...]
    turns: int
    tool_calls: int
    usage: dict[str, int]


class _Cancelled(Exception):
    pass


class Run:
    """One run of the agent loop over a session; see the module docstring.

    Args:
        client: The model client (a provider or a test double).
        config: Registry, context, executors, limits.
        sessions: Where the session, messages, events and outcomes are stored
            (None: kept in memory only).
        session_id: Continue this existing session instead of creating one.
        approver: Decides write/destructive calls; without one the run waits
            for :meth:`approve` / :meth:`deny`.
        on_event: Called with every event right after it is persisted.
    """

    def __init__(
        self,
        client: ModelClient,
        config: RunConfig,
        *,
        sessions: SessionStore | None = None,
        session_id: str | None = None,
        approver: Approver | None = None,
        on_event: Callable[[ev.RunEvent], None] | None = None,
        title: str = "",
    ) -> None:
        self.client = client
        self.config = config
        self.sessions = sessions
        self.approver = approver
        self.on_event = on_event
        self.run_id = uuid.uuid4().hex[:12]
        self.status = "created"
        self.messages: list[Message] = []
        self.log: list[ev.RunEvent] = []
        self.pending_approvals: dict[str, ApprovalRequest] = {}
        self.usage = {"input_tokens": 0, "output_tokens": 0}
        self.turns = 0
        self.from_message: int | None = None
        self._futures: dict[str, asyncio.Future[ApprovalDecision]] = {}
        self._waiter = asyncio.Event()
        self._event_buffer: list[ev.RunEvent] = []
        self._flush_timer: asyncio.TimerHandle | None = None
        self._risks: dict[str, str] = {}
        self._message_buffer: list[tuple[int, str, dict[str, Any]]] = []
        self._outcome_buffer: list[Outcome] = []
        self._task: asyncio.Task[RunResult] | None = None
        self._cancel_reason = ""
        self._results: dict[str, ToolResultPart] = {}
        self.guard = LoopGuard(config.max_tool_calls)
        self._stop: Verdict | None = None
        if sessions is not None and session_id is None:
            info = sessions.create_session(
                registry=config.registry.name, version=config.version, profile=config.profile,
                title=title, system=config.system, context=config.context.to_dict(),
            )  # fmt: skip
            session_id = info.id
        self.session_id = session_id or uuid.uuid4().hex
        if sessions is not None:
            self.messages = [message_from_dict(m) for m in sessions.messages(self.session_id)]
            self._seq = sessions.next_seq(self.session_id)
        else:
            self._seq = 1
        self.pipeline = ArgumentPipeline(config.registry, config.context, self.session_id)
        self.tools = tool_specs(config.registry)
        # Idempotency (see studio.runtime.idempotency): what recorded events say
        # about calls (call id → tool_call.completed status; calls that started
        # executing), and the sessions this one branched from.
        self._call_status: dict[str, str] = {}
        self._executing: set[str] = set()
        self._lineage: list[tuple[str, int]] = []
        self._history_loaded = False
        self._keys: dict[tuple[str, int], tuple[str, str] | None] = {}
        self.lookup_tools = _lookup_tools(config.registry)

    # ------------------------------------------------------------------ public API

    @classmethod
    def from_session(
        cls,
        client: ModelClient,
        config: RunConfig,
        sessions: SessionStore,
        session_id: str,
        upto: int,
        **kwargs: Any,
    ) -> Run:
        """A run on a NEW session holding messages ``0..upto`` of ``session_id``.

        The new session records its parent and the message it branched from;
        the original session is left untouched. Start it with :meth:`start`
        (a prompt is optional when the prefix ends in a user message, tool
        results, or unanswered tool calls, which the run then executes).
        """
        source = sessions.get_session(session_id)
        prefix = sessions.messages(session_id)[: upto + 1]
        info = sessions.create_session(
            registry=config.registry.name, version=config.version, profile=config.profile,
            title=source.title, system=config.system, context=config.context.to_dict(),
            parent_session_id=session_id, parent_message_index=upto,
        )  # fmt: skip
        for message in prefix:
            sessions.append_message(info.id, message, run_id="")
        run = cls(client, config, sessions=sessions, session_id=info.id, **kwargs)
        run.from_message = upto
        return run

    def start(self, prompt: str | None = None) -> Run:
        """Schedule the run on the running event loop; returns ``self``."""
        if self._task is not None:
            raise RuntimeError("a run starts once")
        self._task = asyncio.get_running_loop().create_task(self._main(prompt))
        return self

    async def wait(self) -> RunResult:
        if self._task is None:
            raise RuntimeError("the run was not started")
        return await asyncio.shield(self._task)

    async def execute(self, prompt: str | None = None) -> RunResult:
        """``start(prompt)`` and wait for the result."""
        return await self.start(prompt).wait()

    def cancel(self, reason: str = "stopped by the user") -> None:
        """Cancel the in-flight model request and pending tool calls (emits run.cancelled)."""
        if self._task is not None and not self._task.done():
            self._cancel_reason = reason
            self._task.cancel()

    def approve(self, call_id: str, phrase: str = "") -> None:
        """Approve a waiting call; destructive calls need the typed ``phrase``."""
        self._decide(call_id, ApprovalDecision(True, phrase))

    def deny(self, call_id: str, reason: str = "") -> None:
        self._decide(call_id, ApprovalDecision(False, reason=reason))

    def _decide(self, call_id: str, decision: ApprovalDecision) -> None:
        future = self._futures.get(call_id)
        if future is None or future.done():
            raise KeyError(f"no call {call_id!r} is waiting for approval")
        future.set_result(decision)

    async def events(self) -> AsyncIterator[ev.RunEvent]:
        """Every event of this run from the start, then live ones until the run ends."""
        index = 0
        while True:
            while index < len(self.log):
                event = self.log[index]
                index += 1
                yield event
                if event.type in ev.TERMINAL_TYPES:
                    return
            await self._waiter.wait()

    # ------------------------------------------------------------------ events

    def _emit(self, event: ev.RunEvent) -> ev.RunEvent:
        event = dataclasses.replace(event, seq=self._seq, run_id=self.run_id)
        if isinstance(event, ev.ToolCallExecuting):
            self._executing.add(event.call_id)
        elif isinstance(event, ev.ToolCallCompleted):
            self._call_status[event.call_id] = event.status
        self._seq += 1
        if self.sessions is not None:
            self._persist(event)
        self.log.append(event)
        if self.on_event is not None:
            self.on_event(event)
        waiter, self._waiter = self._waiter, asyncio.Event()
        waiter.set()
        return event

    def _persist(self, event: ev.RunEvent) -> None:
        """Queue ``event`` for the store: one transaction per batch, not per event.

        A batch (events, messages and outcomes queued since the last write) is
        written at most :data:`FLUSH_SECONDS` after its first entry, and at
        once when an event records what a crash must not lose: a call about
        to execute, an approval asked or decided, a write's completion, the
        end of the run. A model turn and a read call therefore cost one
        commit (with the ``tool_call.executing`` that follows) instead of one
        per await, which on a synced SQLite file was most of the runtime's
        overhead per round trip.
        """
        self._event_buffer.append(event)
        if isinstance(event, ev.ToolCallPrepared):
            self._risks[event.call_id] = event.risk
        if event.type in _DURABLE_TYPES or (
            isinstance(event, ev.ToolCallCompleted)
            and self._risks.get(event.call_id) in _DURABLE_RISKS
        ):
            self._flush()
        else:
            self._schedule_flush()

    def _schedule_flush(self) -> None:
        if self._flush_timer is None:
            loop = asyncio.get_running_loop()
            self._flush_timer = loop.call_later(FLUSH_SECONDS, self._flush)

    def _flush(self) -> None:
        if self._flush_timer is not None:
            self._flush_timer.cancel()
            self._flush_timer = None
        batch, self._event_buffer = self._event_buffer, []
        messages, self._message_buffer = self._message_buffer, []
        outcomes, self._outcome_buffer = self._outcome_buffer, []
        if self.sessions is None or not (batch or messages or outcomes):
            return
        # Every batch survives the process being killed; only one holding a write
        # about to reach its tool also waits for the disk (a power cut must not
        # leave a sent write unrecorded).
        synced = any(
            isinstance(e, ev.ToolCallExecuting) and self._risks.get(e.call_id) in _DURABLE_RISKS
            for e in batch
        )
        self.sessions.append_batch(
            self.session_id, [(e.seq, e.run_id, e.type, e.data()) for e in batch],
            messages, outcomes, synced=synced,
        )  # fmt: skip

    def _append(self, message: Message) -> None:
        self.messages.append(message)
        if self.sessions is not None:
            # Written with the events of the same batch (see _persist).
            entry = (len(self.messages) - 1, self.run_id, message_to_dict(message))
            self._message_buffer.append(entry)
            self._schedule_flush()

    def _set_status(self, status: str) -> None:
        self.status = status
        if self.sessions is not None and status not in ("waiting_approval",):
            self.sessions.set_status(self.session_id, status)

    # ------------------------------------------------------------------ the loop

    async def _main(self, prompt: str | None) -> RunResult:
        self._set_status("running")
        self._emit(ev.RunStarted(
            session_id=self.session_id, registry=self.config.registry.name,
            version=self.config.version, profile=self.config.profile,
            context=self.config.context.to_dict(), from_message=self.from_message,
        ))  # fmt: skip
        status, reason = "completed", ""
        try:
            if prompt:
                self._append(Message(Role.USER, (TextPart(prompt),)))
            if not self.messages:
                raise ValueError("nothing to run: no prompt and no messages")
            last = self.messages[-1]
            if last.role is Role.ASSISTANT:
                if not last.tool_calls:
                    raise ValueError("the last message is an answer; give a prompt to continue")
                await self._handle_calls(last, len(self.messages) - 1)
            while self._stop is None:
                if self.turns >= self.config.max_turns:
                    status, reason = "partial", f"max_turns: {self.config.max_turns} model turns"
                    break
                self.turns += 1
                message = await self._model_turn()
                self._append(message)
                if not message.tool_calls:
                    break
                await self._handle_calls(message, len(self.messages) - 1)
            if self._stop is not None:
                status, reason = "partial", f"{self._stop.reason}: {self._stop.detail}"
        except asyncio.CancelledError:
            return self._finish_cancelled()
        except ProviderError as exc:
            return self._finish_failed(str(exc), exc.status, exc.type, exc.body)
        except Exception as exc:  # the run reports every failure as run.failed
            return self._finish_failed(f"{type(exc).__name__}: {exc}")
        self._emit(ev.RunCompleted(
            status=status, reason=reason, turns=self.turns,
            tool_calls=self.guard.executions, usage=dict(self.usage),
        ))  # fmt: skip
        self._set_status(status)
        return self._result(status, reason)

    def _result(self, status: str, reason: str) -> RunResult:
        return RunResult(status, reason, self.session_id, self.run_id, tuple(self.messages),
                         self.turns, self.guard.executions, dict(self.usage))  # fmt: skip

    def _finish_failed(
        self, error: str, status: int | None = None, type_: str = "", body: str = ""
    ) -> RunResult:
        self._close_open_calls("RUN_FAILED", "the run failed before this call finished")
        self._emit(ev.RunFailed(error=error, status=status, error_type=type_, body=body[:4000]))
        self._set_status("failed")
        return self._result("failed", error)

    def _finish_cancelled(self) -> RunResult:
        for future in self._futures.values():
            if not future.done():
                future.cancel()
        pending = self._close_open_calls("CANCELLED", "the user stopped the run")
        reason = self._cancel_reason or "cancelled"
        self._emit(ev.RunCancelled(reason=reason, pending_calls=tuple(pending)))
        self._set_status("cancelled")
        return self._result("cancelled", reason)

    def _close_open_calls(self, code: str, message: str) -> list[str]:
        """Answer unanswered tool calls of the last assistant message, keeping pairing valid."""
        if not self.messages or self.messages[-1].role is not Role.ASSISTANT:
            return []
        calls = self.messages[-1].tool_calls
        if not calls:
            return []
        parts, pending = [], []
        for call in calls:
            part = self._results.get(call.id)
            if part is None:
                pending.append(call.id)
                error = ToolError(code, message, retryable=False,
                                  hint="Ask the user how to continue.")  # fmt: skip
                part = ToolResultPart(call.id, error_content(error), True, call.name)
            parts.append(part)
        self._append(Message(Role.TOOL, tuple(parts)))
        return pending

    async def _model_turn(self) -> Message:
        request = ModelRequest(
            tuple(self.messages), self.tools, self.config.system, self.config.params
        )
        snapshot_fn = getattr(self.client, "snapshot", None)
        if callable(snapshot_fn):
            snapshot = snapshot_fn(request)
        else:
            snapshot = {"system": request.system,
                        "messages": [message_to_dict(m) for m in request.messages],
                        "tools": [t.name for t in request.tools],
                        "params": dataclasses.asdict(request.params)}  # fmt: skip
        self._emit(ev.ModelRequested(turn=self.turns, request=redact(snapshot)))
        completed: TurnCompleted | None = None
        turn = self.turns
        async with contextlib.aclosing(self.client.stream(request)) as stream:  # type: ignore[type-var]
            async for item in stream:
                if isinstance(item, TextDelta):
                    self._emit(ev.MessageDelta(turn=turn, kind="text", text=item.text))
                elif isinstance(item, ToolCallStarted):
                    self._emit(ev.MessageDelta(turn=turn, kind="tool_call_start",
                                               index=item.index, call_id=item.id,
                                               name=item.name))  # fmt: skip
                elif isinstance(item, ToolCallDelta):
                    self._emit(ev.MessageDelta(turn=turn, kind="tool_call_arguments",
                                               index=item.index, text=item.fragment))  # fmt: skip
                elif isinstance(item, TurnCompleted):
                    completed = item
        if completed is None:
            raise ProviderError("the stream ended without a completed turn", type="incomplete")
        usage = completed.usage
        self.usage["input_tokens"] += usage.input_tokens or 0
        self.usage["output_tokens"] += usage.output_tokens or 0
        self._emit(ev.ModelResponded(
            turn=turn, stop_reason=completed.stop_reason,
            usage={"input_tokens": usage.input_tokens, "output_tokens": usage.output_tokens},
            tool_calls=len(completed.message.tool_calls),
            raw_request=redact(completed.raw_request),
        ))  # fmt: skip
        return completed.message

    # ------------------------------------------------------------------ tool calls

    async def _handle_calls(self, message: Message, message_index: int) -> None:
        self._results = {}
        prepared: list[Prepared] = []
        for call in message.tool_calls:
            self._emit(ev.ToolCallProposed(call_id=call.id, name=call.name,
                                           arguments=call.arguments, turn=self.turns))  # fmt: skip
        ledger = self._ledger()
        plans: dict[str, _Plan] = {}
        first_in_batch: dict[str, str] = {}
        for call in message.tool_calls:
            p = self._prepare(call, message_index)
            if p.ok and p.idempotency_key and p.risk is not RiskTier.READ:
                plan = self._plan(p, ledger, first_in_batch)
                plans[call.id] = plan
                if plan.kind == "execute":
                    first_in_batch.setdefault(p.idempotency_key, call.id)
            prepared.append(p)
            self._emit(ev.ToolCallPrepared(
                call_id=call.id, tool=p.name, ok=p.ok, arguments=p.arguments if p.ok else p.parsed,
                steps=tuple(s.to_dict() for s in p.steps),
                error=p.error.to_result() if p.error else None,
                risk=p.risk.value if p.tool else "", idempotency_key=p.idempotency_key,
            ))  # fmt: skip
        results: dict[str, dict[str, Any]] = {}
        notes: dict[str, str] = {}
        to_run: list[Prepared] = []
        same_as: list[Prepared] = []
        for p in prepared:
            call_id = p.call.id
            if self._stop is not None:
                results[call_id] = ToolError(
                    "LOOP_STOPPED", "the runtime ended the run before this call ran",
                    hint="The run is over.",
                ).to_result()  # fmt: skip
                self._complete(p, "skipped", results[call_id], 0.0, 0)
                continue
            verdict = self.guard.before_call(p.signature(), executes=p.ok)
            if verdict is not None and self._on_verdict(verdict, call_id, notes):
                results[call_id] = ToolError(
                    "LOOP_DETECTED", f"not executed: {verdict.detail}", hint=verdict.note
                ).to_result()  # fmt: skip
                self._complete(p, "skipped", results[call_id], 0.0, 0)
                continue
            if p.error is not None:
                results[call_id] = p.error.to_result()
                self._complete(p, "rejected", results[call_id], 0.0, 0)
                self._after(p.error.code, call_id, notes)
                continue
            assert p.tool is not None
            planned = plans.get(call_id)
            if planned is not None and planned.kind == "replay":
                assert planned.intent is not None
                results[call_id] = idem.replay_result(planned.intent)
                self._complete(p, idem.REPLAYED_STATUS, results[call_id], 0.0, 0,
                               replay_of=planned.intent.first_call_id,
                               duplicate_of=planned.duplicate_of)  # fmt: skip
                self._after("", call_id, notes)
                continue
            if planned is not None and planned.kind == "refuse":
                assert planned.intent is not None
                refused = idem.refusal(planned.intent, self.lookup_tools)
                results[call_id] = refused.to_result()
                self._complete(p, idem.REFUSED_STATUS, results[call_id], 0.0, 0,
                               duplicate_of=planned.duplicate_of)  # fmt: skip
                self._after(refused.code, call_id, notes)
                continue
            if planned is not None and planned.kind == "same":
                same_as.append(p)  # answered with the first call's result below
                continue
            if needs_approval(p.tool.contract):
                denial = await self._approve(p)
                if denial is not None:
                    results[call_id] = denial.to_result()
                    self._complete(p, "denied", results[call_id], 0.0, 0)
                    self._after(denial.code, call_id, notes)
                    continue
            to_run.append(p)
        outcomes = await asyncio.gather(
            *(self._execute(p, plans[p.call.id].duplicate_of if p.call.id in plans else "")
              for p in to_run)
        )  # fmt: skip
        for p, (result, code) in zip(to_run, outcomes, strict=True):
            results[p.call.id] = result
            self._after(code, p.call.id, notes)
        for p in same_as:
            first = plans[p.call.id].first_call_id
            ran = self._call_status.get(first) in ("ok", "error", "unknown")
            intent = idem.Intent(p.idempotency_key, p.name, first, "",
                                 content=_dumps(results[first]))  # fmt: skip
            results[p.call.id] = idem.replay_result(intent)
            self._complete(p, idem.REPLAYED_STATUS, results[p.call.id], 0.0, 0,
                           replay_of=first, duplicate_of=first if ran else "")  # fmt: skip
            self._after(str(results[first].get("error_code", "")), p.call.id, notes)
        parts = []
        for p in prepared:
            result = results[p.call.id]
            if p.call.id in notes:
                result["runtime_note"] = notes[p.call.id]
            part = ToolResultPart(
                p.call.id, result_content(result), not result.get("ok"), p.call.name
            )
            self._results[p.call.id] = part
            parts.append(part)
        self._append(Message(Role.TOOL, tuple(parts)))
        self._results = {}

    # ------------------------------------------------------------------ idempotency

    def _prepare(self, call: ToolCallPart, message_index: int) -> Prepared:
        """The pipeline on ``call``; the key names the user turn the message serves."""
        turn = idem.user_turn_index(self.messages, message_index)
        return self.pipeline.prepare(
            call, message_id="" if turn is None else str(turn), session_id=self._key_session(turn)
        )

    def _key_session(self, user_index: int | None) -> str:
        """The session a user turn belongs to: a branch keeps the keys of the turns it copied."""
        self._load_history()
        session_id = self.session_id
        if user_index is None:
            return session_id
        for parent, upto in self._lineage:
            if user_index > upto:
                break
            session_id = parent
        return session_id

    def _load_history(self) -> None:
        """Read what the stored events say about earlier calls (this session and its parents)."""
        if self._history_loaded:
            return
        self._history_loaded = True
        if self.sessions is None:
            return
        sessions = self.sessions
        try:
            info = sessions.get_session(self.session_id)
        except LookupError:
            return
        chain = [self.session_id]
        seen = {self.session_id}
        while info.parent_session_id and info.parent_message_index is not None:
            parent = info.parent_session_id
            if parent in seen:
                break
            seen.add(parent)
            self._lineage.append((parent, info.parent_message_index))
            chain.append(parent)
            try:
                info = sessions.get_session(parent)
            except LookupError:
                break
        for session_id in reversed(chain):
            for stored in sessions.events(session_id):
                call_id = stored.data.get("call_id")
                if not isinstance(call_id, str):
                    continue
                if stored.type == ev.ToolCallExecuting.TYPE:
                    self._executing.add(call_id)
                elif stored.type == ev.ToolCallCompleted.TYPE:
                    self._call_status.setdefault(call_id, str(stored.data.get("status", "")))

    def _ledger(self) -> idem.WriteLedger:
        """The intents of this session so far, rebuilt from its messages and events."""
        self._load_history()

        def key_of(call: ToolCallPart, index: int) -> tuple[str, str] | None:
            # A recorded call's key does not change: prepare it once per run.
            if (call.id, index) not in self._keys:
                p = self._prepare(call, index)
                ok = p.ok and p.idempotency_key and p.risk is not RiskTier.READ
                self._keys[(call.id, index)] = (p.idempotency_key, p.name) if ok else None
            return self._keys[(call.id, index)]

        def is_read(name: str) -> bool:
            tool = self.pipeline.tools.get(name)
            return tool is not None and tool.contract.risk is RiskTier.READ

        return idem.ledger_from_history(
            self.messages, key_of, is_read,
            event_status=self._call_status, executing=self._executing,
        )  # fmt: skip

    def _plan(
        self, p: Prepared, ledger: idem.WriteLedger, first_in_batch: Mapping[str, str]
    ) -> _Plan:
        """Execute, replay, refuse, or answer like an identical call of this message."""
        key = p.idempotency_key
        if key in first_in_batch:
            first = first_in_batch[key]
            plan = _Plan("same", first_call_id=first)
            action = "replay"
            reason = f"same intent as call {first} of this message: it gets that call's result"
        else:
            kind, intent = ledger.decide(key)
            if intent is None:
                return _Plan(kind)
            first = intent.first_call_id
            plan = _Plan(kind, intent, duplicate_of=first)
            if kind == "replay":
                action = "replay"
                reason = f"already succeeded for this request (call {first}): its stored result"
            elif kind == "refuse":
                action = "refused"
                reason = f"call {first} has an unknown outcome that was not looked up"
            else:
                action = "reissued"
                before = "failed" if intent.state == idem.FAILED else "was looked up"
                reason = f"call {first} {before}; sent again with the same key"
        change = {"action": action, "of_call_id": first, "reason": reason}
        for i, step in enumerate(p.steps):
            if step.step == 9:
                p.steps[i] = StepRecord(step.step, step.name, step.ok, (*step.changes, change))
        return plan

    def _on_verdict(self, verdict: Verdict, call_id: str, notes: dict[str, str]) -> bool:
        """Emit loop.detected; True when the run must stop (the call is not executed)."""
        self._emit(ev.LoopDetected(reason=verdict.reason, detail=verdict.detail,
                                   action=verdict.action))  # fmt: skip
        if verdict.action == "stop":
            self._stop = verdict
            return True
        notes[call_id] = verdict.note
        return False

    def _after(self, code: str, call_id: str, notes: dict[str, str]) -> None:
        verdict = self.guard.after_call(code)
        if verdict is not None and self._stop is None:
            self._on_verdict(verdict, call_id, notes)

    async def _approve(self, p: Prepared) -> ToolError | None:
        assert p.tool is not None
        contract = p.tool.contract
        request = ApprovalRequest(
            p.call.id, contract.name, contract.risk, p.arguments,
            confirmation_phrase(contract, self.config.confirmation_phrases),
        )  # fmt: skip
        self.pending_approvals[p.call.id] = request
        self._emit(ev.ApprovalRequired(call_id=p.call.id, tool=contract.name,
                                       risk=contract.risk.value, arguments=p.arguments,
                                       phrase=request.phrase))  # fmt: skip
        self._set_status("waiting_approval")
        try:
            if self.approver is not None:
                decision = await self.approver(request)
            else:
                future: asyncio.Future[ApprovalDecision] = (
                    asyncio.get_running_loop().create_future()
                )
                self._futures[p.call.id] = future
                decision = await future
        finally:
            self.pending_approvals.pop(p.call.id, None)
            self._futures.pop(p.call.id, None)
        self.status = "running"
        denial = judge(request, decision)
        self._emit(ev.ApprovalDecided(
            call_id=p.call.id, approved=denial is None,
            reason=decision.reason or (denial.message if denial else ""),
        ))  # fmt: skip
        return denial

    async def _execute(self, p: Prepared, duplicate_of: str = "") -> tuple[dict[str, Any], str]:
        assert p.tool is not None
        contract = p.tool.contract
        executor = self.config.executor_for(contract)
        request = ExecutionRequest(contract, p.arguments, p.call.id, self.session_id,
                                   p.idempotency_key)  # fmt: skip
        self._emit(ev.ToolCallExecuting(call_id=p.call.id, tool=contract.name,
                                        executor=executor.name,
                                        request=redact(executor.snapshot(request))))  # fmt: skip
        outcome = await execute_with_policy(
            executor, request, rng=self.config.rng, sleep=self.config.sleep,
            secrets=getattr(self.client, "secrets", None),  # the model API key
        )  # fmt: skip
        cache, cap = self.config.fallback_cache, self.config.max_result_chars
        if outcome.error is not None:
            stale = cache.recall(contract, p.arguments, outcome.error, max_chars=cap)
            result = stale if stale is not None else outcome.error.to_result()
            code = outcome.error.code
        else:
            shaped = shape_success(outcome.body, max_chars=cap)
            result, code = shaped.result, ""
            cache.remember(contract, p.arguments, outcome.body)
        self._complete(p, outcome.status, result, outcome.latency_ms, outcome.attempts,
                       duplicate_of=duplicate_of)  # fmt: skip
        return result, code

    def _complete(
        self,
        p: Prepared,
        status: str,
        result: dict[str, Any],
        latency_ms: float,
        attempts: int,
        *,
        replay_of: str = "",
        duplicate_of: str = "",
    ) -> None:
        """Emit tool_call.completed and queue the outcome.

        ``replay_of`` names the call whose stored result this one returned;
        ``duplicate_of`` the earlier call of the same write intent that reached
        the tool (this call is a duplicate write attempt).
        """
        code = "" if result.get("ok") else str(result.get("error_code", ""))
        if self.sessions is not None:
            # Queued first: a write's completion is flushed at once, with its outcome.
            self._outcome_buffer.append(Outcome(
                self.session_id, p.call.id, self.config.registry.name, self.config.version,
                p.name, status, code, latency_ms, "",
                risk=p.risk.value if p.tool else "", idempotency_key=p.idempotency_key,
                duplicate_of=duplicate_of,
            ))  # fmt: skip
        self._emit(ev.ToolCallCompleted(
            call_id=p.call.id, tool=p.name, status=status, latency_ms=round(latency_ms, 3),
            summary=summarize(result), error_code=code, attempts=attempts, result=result,
            idempotency_key=p.idempotency_key, replay_of=replay_of, duplicate_of=duplicate_of,
        ))  # fmt: skip


@dataclass(frozen=True, slots=True)
class _Plan:
    """What the runtime does with a write call (see Run._plan)."""

    kind: str
    """``execute``, ``replay``, ``refuse`` or ``same`` (as an identical call of the message)."""
    intent: idem.Intent | None = None
    first_call_id: str = ""
    duplicate_of: str = ""


def _lookup_tools(registry: Registry) -> tuple[str, ...]:
    """Read tools that take an idempotency key (to look up a write with an unknown outcome)."""
    names = []
    for tool in registry.tools:
        if tool.risk is not RiskTier.READ:
            continue
        props = tool.parameters.get("properties") or {}
        for name, sub in props.items():
            aliases = (sub.get("x-aliases") or []) if isinstance(sub, dict) else []
            spelled = [name, *(a for a in aliases if isinstance(a, str))]
            if any("idempotency" in n.lower().replace("_", "") for n in spelled):
                names.append(tool.name)
                break
    return tuple(names)


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)
