"""Replaying a recorded session: stepping through it, and playing it back as the model.

Stepping (:class:`SessionReplay`): one step per recorded message, each with
the tool calls still pending after it and the problems found there; next,
previous, jump, and jump to the next / previous problem.

Replay as model (:class:`ReplayModel`): a :class:`~studio.providers.base.ModelClient`
that answers each request with the next recorded assistant turn, so the
*current* runtime, registry version and executors do everything else — the
pipeline prepares the recorded calls, executors run them, results are paired.
:meth:`ReplayModel.fork_at` hands the conversation to a live model from a
chosen step on. :func:`replay_session` drives :class:`~studio.runtime.Run`
through every recorded user turn::

    model = ReplayModel(messages)
    model.fork_at(7, live_client)              # optional: a live model from message 7 on
    results = await replay_session(messages, RunConfig(registry, mock=...), model)
"""

from __future__ import annotations

import asyncio
import bisect
import json
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Any

from registry_db.sessions import SessionStore
from studio.providers.base import (
    ModelClient,
    ModelRequest,
    ProviderError,
    StreamEvent,
    TextDelta,
    ToolCallDelta,
    ToolCallStarted,
    TurnCompleted,
)
from studio.runtime.loop import Run, RunConfig, RunResult
from studio.sessions.check import Finding, SessionCheck, check_session
from studio.sessions.model import Message, Role, ToolCallPart, ToolResultPart, message_to_dict
from studio.sessions.pairing import Position

# --------------------------------------------------------------------------- stepping


@dataclass(frozen=True, slots=True)
class PendingCall:
    """A tool call made and not yet answered at some step."""

    call_id: str
    name: str
    position: Position
    arguments: str | dict[str, Any]


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """The session as of one recorded message.

    Attributes:
        index: The message index (the step number).
        message: The message recorded at this step.
        pending: Calls still waiting for a result after this message, oldest first.
        answered: Call ids answered by this message.
        findings: Problems located at this message (pairing, suspicious, re-validation).
    """

    index: int
    message: Message
    pending: tuple[PendingCall, ...]
    answered: tuple[str, ...]
    findings: tuple[Finding, ...]

    @property
    def has_problem(self) -> bool:
        return bool(self.findings)


class SessionReplay:
    """Step-through of a recorded session; ``position`` is -1 before the first step."""

    def __init__(self, messages: Sequence[Message], check: SessionCheck | None = None) -> None:
        self.check = check or check_session(messages)
        by_message: dict[int, list[Finding]] = {}
        for finding in self.check.findings:
            by_message.setdefault(finding.position.message, []).append(finding)
        steps: list[ReplayStep] = []
        pending: dict[str, PendingCall] = {}
        # A step shares the previous step's pending tuple unless its message
        # made or answered a call: building the steps of a 100,000-message log
        # with long-open calls stays linear instead of copying them every step.
        snapshot: tuple[PendingCall, ...] = ()
        for mi, message in enumerate(messages):
            answered = []
            changed = False
            for pi, part in enumerate(message.parts):
                if isinstance(part, ToolCallPart):
                    pending[part.id] = PendingCall(
                        part.id, part.name, Position(mi, pi), part.arguments
                    )
                    changed = True
                elif isinstance(part, ToolResultPart) and part.id in pending:
                    del pending[part.id]
                    answered.append(part.id)
                    changed = True
            if changed:
                snapshot = tuple(pending.values())
            steps.append(ReplayStep(mi, message, snapshot, tuple(answered),
                                    tuple(by_message.get(mi, ()))))  # fmt: skip
        self.steps: tuple[ReplayStep, ...] = tuple(steps)
        self._problem_steps = [s.index for s in steps if s.findings]
        self.position = -1

    def __len__(self) -> int:
        return len(self.steps)

    @property
    def current(self) -> ReplayStep | None:
        return self.steps[self.position] if 0 <= self.position < len(self.steps) else None

    @property
    def problem_steps(self) -> list[int]:
        """Indexes of the steps that have problems."""
        return list(self._problem_steps)

    def jump(self, index: int) -> ReplayStep | None:
        """Go to step ``index`` (clamped to -1 … last)."""
        self.position = max(-1, min(index, len(self.steps) - 1))
        return self.current

    def next(self) -> ReplayStep | None:
        """The next step; stays on the last one at the end (returns None there)."""
        if self.position + 1 >= len(self.steps):
            return None
        return self.jump(self.position + 1)

    def previous(self) -> ReplayStep | None:
        if self.position <= 0:
            self.position = -1
            return None
        return self.jump(self.position - 1)

    def next_problem(self) -> ReplayStep | None:
        """The next step with a problem after the current one (None: no more; position kept)."""
        at = bisect.bisect_right(self._problem_steps, self.position)
        if at < len(self._problem_steps):
            return self.jump(self._problem_steps[at])
        return None

    def previous_problem(self) -> ReplayStep | None:
        at = bisect.bisect_left(self._problem_steps, self.position)
        if at > 0:
            return self.jump(self._problem_steps[at - 1])
        return None


# --------------------------------------------------------------------------- replay as model


class ReplayModel:
    """Plays the recorded assistant turns in order, then (optionally) a live model.

    Args:
        messages: The recorded session.
        live: The live client to hand over to after :meth:`fork_at`.
    """

    def __init__(self, messages: Sequence[Message], live: ModelClient | None = None) -> None:
        self.messages = list(messages)
        self.turns: list[tuple[int, Message]] = [
            (i, m) for i, m in enumerate(self.messages) if m.role is Role.ASSISTANT
        ]
        self.played = 0
        self.live = live
        self.fork_turn: int | None = None
        self.requests: list[ModelRequest] = []
        self.live_turns = 0

    def turn_at(self, step: int) -> int:
        """The number of recorded assistant turns before message ``step``."""
        return sum(1 for index, _ in self.turns if index < step)

    def fork_at(self, step: int, live: ModelClient | None = None) -> None:
        """From message ``step`` on, a live model answers instead of the recording.

        Args:
            step: A message index (a replay step); the first recorded assistant
                turn at or after it is the first one the live model plays.
            live: The live client (default: the one given to the constructor).
        """
        if live is not None:
            self.live = live
        if self.live is None:
            raise ValueError("fork_at needs a live model client")
        self.fork_turn = self.turn_at(step)

    @property
    def forked(self) -> bool:
        return self.fork_turn is not None and self.played >= self.fork_turn

    @property
    def exhausted(self) -> bool:
        return not self.forked and self.played >= len(self.turns)

    async def stream(self, request: ModelRequest) -> AsyncIterator[StreamEvent]:
        self.requests.append(request)
        if self.forked:
            assert self.live is not None
            self.live_turns += 1
            async for event in self.live.stream(request):
                yield event
            return
        if self.played >= len(self.turns):
            raise ProviderError(
                "the recording has no more assistant turns", type="replay_exhausted"
            )
        index, message = self.turns[self.played]
        self.played += 1
        if message.text:
            yield TextDelta(message.text)
        for n, call in enumerate(message.tool_calls):
            yield ToolCallStarted(n, call.id, call.name)
            args = call.arguments if isinstance(call.arguments, str) else json.dumps(call.arguments)
            yield ToolCallDelta(n, args)
        yield TurnCompleted(
            message,
            "tool_use" if message.tool_calls else "end_turn",
            raw_request={"replay": {"message_index": index, "turn": self.played}},
            notes=(f"replayed assistant turn {self.played} (message {index})",),
        )

    async def aclose(self) -> None:
        if self.live is not None:
            await self.live.aclose()


def user_turns(messages: Sequence[Message]) -> list[tuple[int, str]]:
    """``(index, text)`` of every recorded user prompt (messages with text, not only results)."""
    return [(i, m.text) for i, m in enumerate(messages) if m.role is Role.USER and m.text]


async def replay_session(
    messages: Sequence[Message],
    config: RunConfig,
    model: ReplayModel | None = None,
    *,
    sessions: SessionStore | None = None,
    title: str = "",
    **run_kwargs: Any,
) -> list[RunResult]:
    """Replay ``messages`` through the current runtime, one :class:`Run` per recorded user turn.

    System messages before the first prompt are kept; each recorded user
    prompt starts a run, the model's part is played by ``model``. After a
    fork the live model's run is the last one. With ``sessions``, everything
    is stored as one new session (``source = "replay"``). Cancelling the
    replay cancels the run in flight (it ends as ``run.cancelled``) and re-raises.

    Return:
        The result of each run, in order.
    """
    model = model or ReplayModel(messages)
    prefix = [m for m in messages if m.role is Role.SYSTEM]
    session_id = None
    if sessions is not None:
        info = sessions.create_session(
            registry=config.registry.name, version=config.version, profile=config.profile,
            title=title, system=config.system, context=config.context.to_dict(), source="replay",
        )  # fmt: skip
        session_id = info.id
        for message in prefix:
            sessions.append_message(session_id, message_to_dict(message))
    history: list[Message] = list(prefix)
    results: list[RunResult] = []
    for _, prompt in user_turns(messages):
        run = Run(
            model, config, sessions=sessions, session_id=session_id, title=title, **run_kwargs
        )
        if sessions is None:
            run.messages = list(history)
        try:
            result = await run.execute(prompt)
        except asyncio.CancelledError:
            # execute() waits on a shielded task: stopping the replay stops the run too.
            run.cancel()
            await run.wait()
            raise
        results.append(result)
        history = list(result.messages)
        session_id = result.session_id if sessions is not None else None
        if result.status != "completed" or model.live_turns or model.exhausted:
            break
    return results
