"""One tool call at a time through the runtime, with no model in the loop.

The MCP server (and anything else that receives calls already made by an
agent elsewhere) runs each call through the same floor as the agent loop
(:mod:`studio.runtime.loop`): the argument pipeline (steps 1–7 and 9), the
risk gate (8) with an :data:`~studio.runtime.policy.Approver`, the write
ledger of :mod:`studio.runtime.idempotency`, the executor with the tier's
timeout and retry policy (10) and result shaping (11). Nothing here
re-implements a step; this module only sequences them for a lone call.

A :class:`CallSession` is one recorded session: every call becomes an
assistant message holding the call, a tool message holding its paired
result, the call's events and one outcome row, all written in ONE
transaction when the call ends (also when it is cancelled mid-call: the
result then says so), so a stored session never holds half a call.
"""

from __future__ import annotations

import asyncio
import atexit
import collections
import copy
import dataclasses
import json
import logging
import threading
import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from registry_db.sessions import Outcome, SessionStore
from studio.contract import RiskTier
from studio.runtime import events as ev
from studio.runtime import idempotency as idem
from studio.runtime.executors import ExecutionRequest, execute_with_policy
from studio.runtime.loop import RunConfig, redact
from studio.runtime.pipeline import ArgumentPipeline, Prepared, StepRecord
from studio.runtime.policy import (
    ApprovalDecision,
    ApprovalRequest,
    Approver,
    confirmation_phrase,
    judge,
    needs_approval,
)
from studio.runtime.results import ToolError, result_content, shape_success, summarize
from studio.sessions.model import Message, Role, ToolCallPart, ToolResultPart, message_to_dict

CONFIRM_REQUIRED = "CONFIRM_REQUIRED"
_STATES = {"ok": idem.SUCCEEDED, "unknown": idem.UNKNOWN, "error": idem.FAILED}
"""What an executed write's status says about its intent (as the loop's ledger reads it)."""
"""Error code of a write or destructive call that nobody could confirm."""


@dataclass(frozen=True, slots=True)
class CallResult:
    """What one call returned.

    Attributes:
        result: The structured result (``ok`` true, or the error fields).
        content: The result as the model reads it (JSON; failures after the
            ``[SYSTEM_FAULT]`` marker).
        body: The executor's raw response body when the call succeeded, else None.
        status: ``ok``, ``error``, ``unknown``, ``rejected``, ``denied``,
            ``replayed``, ``refused`` or ``cancelled``.
    """

    call_id: str
    tool: str
    status: str
    result: dict[str, Any]
    content: str
    body: Any = None
    known_tool: bool = True
    latency_ms: float = 0.0
    """The executor's time, retries included (0 when the call did not execute)."""

    @property
    def ok(self) -> bool:
        return self.result.get("ok") is True


def no_confirmation(reason: str) -> Approver:
    """An approver for a caller that cannot be asked: every risky call is refused with
    :data:`CONFIRM_REQUIRED` (the reason says why nobody could confirm)."""

    async def refuse(request: ApprovalRequest) -> ApprovalDecision:
        return ApprovalDecision(False, reason=f"{CONFIRM_REQUIRED}: {reason}")

    return refuse


class BackgroundWriter:
    """Runs recording writes on one thread, in order, so a request never waits on a commit.

    Each submitted write is still one transaction (a call's events, messages
    and outcome together); only *when* it lands moves off the caller's path.
    The thread wakes once per burst and then every ``delay`` seconds while
    writes keep coming, so a busy server does not hand the GIL to it per call.
    :meth:`flush` waits until everything submitted is written.
    """

    def __init__(self, delay: float = 0.01) -> None:
        self.delay = delay
        self._items: collections.deque[tuple[Callable[..., Any], tuple[Any, ...]]] = (
            collections.deque()
        )
        self._thread: threading.Thread | None = None
        self._pending = 0
        self._idle = threading.Condition()
        self._wake = threading.Event()

    def submit(self, fn: Callable[..., Any], *args: Any) -> None:
        with self._idle:
            self._pending += 1
            self._items.append((fn, args))
            if self._thread is None:
                self._thread = threading.Thread(target=self._loop, name="studio-recording",
                                                daemon=True)  # fmt: skip
                self._thread.start()
        if not self._wake.is_set():
            self._wake.set()

    def flush(self, timeout: float = 30.0) -> bool:
        """Wait until every submitted write is done; False on timeout."""
        with self._idle:
            return self._idle.wait_for(lambda: self._pending == 0, timeout)

    def _loop(self) -> None:
        while True:
            self._wake.wait()
            time.sleep(self.delay)  # let the burst gather (the GIL stays with the server)
            with self._idle:
                batch = list(self._items)
                self._items.clear()
                if not batch:
                    self._wake.clear()
                    continue
            for fn, args in batch:
                try:
                    fn(*args)
                except Exception:  # a failed write must not stop the ones behind it
                    logging.getLogger(__name__).exception("recording a call failed")
            with self._idle:
                self._pending -= len(batch)
                if not self._pending:
                    self._idle.notify_all()


WRITER = BackgroundWriter()
"""The process's recording writer (flushed at exit)."""
atexit.register(WRITER.flush)


@dataclass
class _Pending:
    """The events, messages and outcome of the call in flight (written together)."""

    events: list[ev.RunEvent] = field(default_factory=list)
    executing: bool = False


class CallSession:
    """A recorded session of lone tool calls against one registry version.

    Args:
        config: Registry, version, context, executors and limits (as for a run).
        sessions: Where the session is recorded; None keeps nothing.
        source: The session's source (``mcp`` for the MCP server).
        title: The session's title in the Sessions list.
        meta: List metadata (client name, transport, channel …).
        deferred: Write on :data:`WRITER`'s thread instead of before returning (a
            server answering many callers); each call is still one transaction.
        compiled: A pipeline already compiled for ``config.registry`` (any context):
            its compiled tools are shared instead of compiling the registry again.
    """

    def __init__(
        self,
        config: RunConfig,
        *,
        sessions: SessionStore | None = None,
        source: str = "mcp",
        title: str = "",
        meta: Mapping[str, Any] | None = None,
        deferred: bool = False,
        compiled: ArgumentPipeline | None = None,
    ) -> None:
        self.config = config
        self.deferred = deferred
        self.sessions = sessions
        self.run_id = uuid.uuid4().hex[:12]
        self.status = "running"
        self.calls = 0
        self.in_flight = 0
        self.interrupted = False
        self._seq = 1
        self._messages = 0
        self.ledger = idem.WriteLedger()
        if sessions is not None:
            info = sessions.create_session(
                registry=config.registry.name, version=config.version, profile="",
                title=title, context=config.context.to_dict(), source=source,
                meta=dict(meta or {}), status="running",
            )  # fmt: skip
            self.session_id = info.id
        else:
            self.session_id = uuid.uuid4().hex
        if compiled is not None and compiled.registry is config.registry:
            self.pipeline = copy.copy(compiled)
            self.pipeline.context = config.context
            self.pipeline.session_id = self.session_id
        else:
            self.pipeline = ArgumentPipeline(config.registry, config.context, self.session_id)
        self._write([ev.RunStarted(session_id=self.session_id, registry=config.registry.name,
                                   version=config.version, context=config.context.to_dict())],
                    [], None)  # fmt: skip

    # ------------------------------------------------------------------ public API

    async def call(
        self,
        name: str,
        arguments: Any,
        *,
        call_id: str = "",
        approver: Approver | None = None,
        turn: str = "",
    ) -> CallResult:
        """Run one call through the pipeline, the risk gate, the ledger and the executor.

        Args:
            name: The tool name as the caller sent it.
            arguments: The arguments as received (object or JSON string).
            call_id: The call's id in the session (generated when empty).
            approver: Decides write and destructive calls; None refuses them
                with :data:`CONFIRM_REQUIRED`.
            turn: The request this call serves (the key's ``{message_id}``);
                identical writes of one turn are one intent.

        Cancelling the task mid-call records the call as cancelled (a write
        that was executing as ``unknown``) and re-raises.
        """
        call = ToolCallPart(call_id or f"call_{uuid.uuid4().hex[:16]}", name, arguments)
        pending = _Pending()
        self.calls += 1
        self.in_flight += 1
        started = time.perf_counter()
        p: Prepared | None = None
        try:
            pending.events.append(ev.ToolCallProposed(call_id=call.id, name=name,
                                                      arguments=arguments, turn=0))  # fmt: skip
            p = self.pipeline.prepare(call, message_id=turn)
            plan, intent = self._plan(p)
            pending.events.append(ev.ToolCallPrepared(
                call_id=call.id, tool=p.name, ok=p.ok, arguments=p.arguments if p.ok else p.parsed,
                steps=tuple(s.to_dict() for s in p.steps),
                error=p.error.to_result() if p.error else None,
                risk=p.risk.value if p.tool else "", idempotency_key=p.idempotency_key,
            ))  # fmt: skip
            if p.error is not None:
                return self._finish(p, pending, "rejected", p.error.to_result())
            if plan == "replay" and intent is not None:
                return self._finish(p, pending, idem.REPLAYED_STATUS, idem.replay_result(intent),
                                    replay_of=intent.first_call_id,
                                    duplicate_of=intent.first_call_id)  # fmt: skip
            if plan == "refuse" and intent is not None:
                refused = idem.refusal(intent, ())
                return self._finish(p, pending, idem.REFUSED_STATUS, refused.to_result(),
                                    duplicate_of=intent.first_call_id)  # fmt: skip
            assert p.tool is not None
            if needs_approval(p.tool.contract):
                denial = await self._approve(p, pending, approver)
                if denial is not None:
                    return self._finish(p, pending, "denied", denial.to_result())
            duplicate_of = intent.first_call_id if intent is not None else ""
            return await self._execute(p, pending, duplicate_of)
        except asyncio.CancelledError:
            self._cancelled(call, p, pending, started)
            raise
        finally:
            self.in_flight -= 1

    def close(self, status: str = "", reason: str = "") -> None:
        """End the session: ``completed``, or ``interrupted`` (the caller went away mid-call;
        the default when a call was cancelled)."""
        if self.status != "running":
            return
        status = status or ("interrupted" if self.interrupted or self.in_flight else "completed")
        self.status = status
        if status == "completed":
            event: ev.RunEvent = ev.RunCompleted(status="completed", reason=reason,
                                                 tool_calls=self.calls)  # fmt: skip
        else:
            event = ev.RunCancelled(reason=reason or status)
        self._write([event], [], None)
        if self.sessions is not None:
            if self.deferred:
                WRITER.submit(self.sessions.set_status, self.session_id, status)
            else:
                self.sessions.set_status(self.session_id, status)

    # ------------------------------------------------------------------ steps

    def _plan(self, p: Prepared) -> tuple[str, idem.Intent | None]:
        """``execute``, ``replay`` or ``refuse`` for a write; reads always execute."""
        if not p.ok or not p.idempotency_key or p.risk is RiskTier.READ:
            return "execute", None
        kind, intent = self.ledger.decide(p.idempotency_key)
        if intent is not None:
            action = {"replay": "replay", "refuse": "refused"}.get(kind, "reissued")
            change = {"action": action, "of_call_id": intent.first_call_id,
                      "reason": f"same intent as call {intent.first_call_id} "
                                f"({intent.state})"}  # fmt: skip
            for i, step in enumerate(p.steps):
                if step.step == 9:
                    p.steps[i] = StepRecord(step.step, step.name, step.ok,
                                            (*step.changes, change))  # fmt: skip
        return kind, intent

    async def _approve(
        self, p: Prepared, pending: _Pending, approver: Approver | None
    ) -> ToolError | None:
        assert p.tool is not None
        contract = p.tool.contract
        request = ApprovalRequest(
            p.call.id, contract.name, contract.risk, p.arguments,
            confirmation_phrase(contract, self.config.confirmation_phrases),
        )  # fmt: skip
        pending.events.append(ev.ApprovalRequired(call_id=p.call.id, tool=contract.name,
                                                  risk=contract.risk.value, arguments=p.arguments,
                                                  phrase=request.phrase))  # fmt: skip
        decider = approver or no_confirmation("nobody can confirm calls on this server")
        decision = await decider(request)
        denial = judge(request, decision)
        if denial is not None and decision.reason.startswith(CONFIRM_REQUIRED):
            why = decision.reason.partition(": ")[2]
            what = "type the phrase " + repr(request.phrase) if request.phrase else "confirm it"
            denial = ToolError(
                CONFIRM_REQUIRED,
                f"{contract.name} is a {contract.risk.value} tool: the user must {what} before "
                f"it runs, and {why}",
                retryable=False,
                hint="Tell the user what the call would do and that it needs their confirmation, "
                "which this connection cannot collect; do not call it again unchanged.",
                details={"risk": contract.risk.value, "phrase": request.phrase},
            )
        pending.events.append(ev.ApprovalDecided(
            call_id=p.call.id, approved=denial is None,
            reason=decision.reason or (denial.message if denial else ""),
        ))  # fmt: skip
        return denial

    async def _execute(self, p: Prepared, pending: _Pending, duplicate_of: str) -> CallResult:
        assert p.tool is not None
        contract = p.tool.contract
        executor = self.config.executor_for(contract)
        request = ExecutionRequest(contract, p.arguments, p.call.id, self.session_id,
                                   p.idempotency_key)  # fmt: skip
        snapshot = redact(executor.snapshot(request))
        executing = ev.ToolCallExecuting(
            call_id=p.call.id, tool=contract.name, executor=executor.name, request=snapshot
        )
        pending.events.append(executing)
        pending.executing = True
        outcome = await execute_with_policy(executor, request, rng=self.config.rng,
                                            sleep=self.config.sleep)  # fmt: skip
        pending.executing = False
        cache, cap = self.config.fallback_cache, self.config.max_result_chars
        body = None
        if outcome.error is not None:
            stale = cache.recall(contract, p.arguments, outcome.error, max_chars=cap)
            result = stale if stale is not None else outcome.error.to_result()
        else:
            result = shape_success(outcome.body, max_chars=cap).result
            body = outcome.body
            cache.remember(contract, p.arguments, outcome.body)
        if p.idempotency_key and contract.risk is not RiskTier.READ:
            state = _STATES.get(outcome.status, idem.FAILED)
            self.ledger.record(p.idempotency_key, contract.name, p.call.id, state,
                               json.dumps(result, ensure_ascii=False))  # fmt: skip
        elif outcome.error is None:
            self.ledger.observe_read(p.arguments)
        done = self._finish(p, pending, outcome.status, result, latency_ms=outcome.latency_ms,
                            attempts=outcome.attempts, duplicate_of=duplicate_of)  # fmt: skip
        return dataclasses.replace(done, body=body)

    # ------------------------------------------------------------------ recording

    def _finish(
        self,
        p: Prepared,
        pending: _Pending,
        status: str,
        result: dict[str, Any],
        *,
        latency_ms: float = 0.0,
        attempts: int = 0,
        replay_of: str = "",
        duplicate_of: str = "",
    ) -> CallResult:
        code = "" if result.get("ok") else str(result.get("error_code", ""))
        pending.events.append(ev.ToolCallCompleted(
            call_id=p.call.id, tool=p.name, status=status, latency_ms=round(latency_ms, 3),
            summary=summarize(result), error_code=code, attempts=attempts, result=result,
            idempotency_key=p.idempotency_key, replay_of=replay_of, duplicate_of=duplicate_of,
        ))  # fmt: skip
        content = result_content(result)
        outcome = Outcome(
            self.session_id, p.call.id, self.config.registry.name, self.config.version, p.name,
            status, code, latency_ms, "", risk=p.risk.value if p.tool else "",
            idempotency_key=p.idempotency_key, duplicate_of=duplicate_of,
        )  # fmt: skip
        self._write(pending.events, self._pair(p.call, content, not result.get("ok")), outcome)
        pending.events = []
        return CallResult(p.call.id, p.name, status, result, content,
                          known_tool=p.tool is not None, latency_ms=latency_ms)  # fmt: skip

    def _cancelled(
        self, call: ToolCallPart, p: Prepared | None, pending: _Pending, started: float
    ) -> None:
        """Record a call cut off mid-way: a write that was executing has an unknown outcome."""
        self.interrupted = True
        if p is None:
            p = Prepared(call)
        unknown = pending.executing and p.risk is not RiskTier.READ
        error = ToolError(
            "CANCELLED", "the caller went away before this call finished",
            retryable=False, hint="Ask the user how to continue.",
            details={"idempotency_key": p.idempotency_key} if unknown else {},
            status="UNKNOWN" if unknown else "",
        )  # fmt: skip
        if unknown:
            self.ledger.record(p.idempotency_key, p.name, call.id, idem.UNKNOWN)
        latency = (time.perf_counter() - started) * 1000
        self._finish(p, pending, "unknown" if unknown else "cancelled", error.to_result(),
                     latency_ms=latency)  # fmt: skip

    def _pair(self, call: ToolCallPart, content: str, is_error: bool) -> list[Message]:
        return [
            Message(Role.ASSISTANT, (call,)),
            Message(Role.TOOL, (ToolResultPart(call.id, content, is_error, call.name),)),
        ]

    def _write(
        self, events: list[ev.RunEvent], messages: list[Message], outcome: Outcome | None
    ) -> None:
        """Events, messages and the outcome in one transaction."""
        rows = []
        for event in events:
            rows.append((self._seq, self.run_id, event.type, event.data()))
            self._seq += 1
        stored = []
        for message in messages:
            stored.append((self._messages, self.run_id, message_to_dict(message)))
            self._messages += 1
        if self.sessions is None:
            return
        outcomes = [outcome] if outcome is not None else []
        if self.deferred:
            WRITER.submit(self.sessions.append_batch, self.session_id, rows, stored, outcomes)
        else:
            self.sessions.append_batch(self.session_id, rows, stored, outcomes)
