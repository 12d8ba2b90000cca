"""Multi-step mode: a whole conversation per case, its tools executed on the stored mocks.

The case's user turn goes to the runtime's agent loop (:class:`studio.runtime.Run`)
exactly as the playground runs it: the variant's tools, the case's context,
writes approved (destructive calls are refused, as with ``studio run --approve
write``), every tool answered by the registry's mocks. The conversation is then
scored on every call it made (raw and after the pipeline, like single-turn
mode) and on what only a whole conversation shows:

- ``end_to_end``: the expected calls were made with the right arguments after
  the pipeline, and each of them succeeded (e.g. the reimbursement ticket was
  really filed);
- ``grounded``: every number and id the final answer states (118.5, 80, 38.5,
  R-55821) appears in a tool result of the conversation;
- ``false_success``: a call failed and the final answer does not say so.

Every turn goes through the runner's response cache and budget, so re-running
an unchanged variant replays its conversations without a request (the mocks
answer the same way each time).
"""

from __future__ import annotations

import re
import time
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from registry_db.sessions import SessionStore
from studio.evals.requests import case_messages
from studio.evals.results import STATUS_ERROR, STATUS_SKIPPED, Attempt
from studio.evals.scoring import runtime_context, score_answer
from studio.evals.skills import loaded_skills, score_skills, skill_failures, split_loads
from studio.providers.base import ModelClient, ModelRequest, StreamEvent
from studio.runtime import MockExecutor, Run, RunConfig, auto_approver, example_mocks, parse_mocks
from studio.runtime.capabilities import with_capabilities
from studio.runtime.mocks import MockSet
from studio.runtime.pipeline import ArgumentPipeline
from studio.sessions.model import Message, Role, TextPart, ToolCallPart

if TYPE_CHECKING:
    from studio.evals.runner import EvalRunner, Job

_FACT = re.compile(r"[A-Z]{1,5}-\d+|\d+(?:\.\d+)?")
_FAILURE_WORDS = re.compile(
    r"(?i)fail|error|could not|couldn't|unable|not (?:been )?(?:created|filed|done)|"
    r"失败|错误|无法|未能|没有成功"
)
_MAX_TURNS = 8


def load_mocks(runner: EvalRunner) -> MockSet:
    """The registry's stored mocks (the bundled example's when none are stored), once per run."""
    cached: MockSet | None = getattr(runner, "_mocks", None)
    if cached is not None:
        return cached
    specs = SessionStore.for_store(runner.store).mock_specs(runner.registry)
    if specs:
        document: dict[str, Any] = {"tools": {k: v for k, v in specs.items() if k}}
    else:
        document = {"tools": (example_mocks(runner.registry) or {}).get("tools", {})}
    mocks = parse_mocks(document)
    runner._mocks = mocks  # type: ignore[attr-defined]
    return mocks


def _facts(text: str) -> set[str]:
    return set(_FACT.findall(text))


def _results_text(messages: list[Message]) -> tuple[str, list[tuple[str, bool]]]:
    """All tool results of the conversation as one text, and (call id, failed) per result."""
    texts, outcomes = [], []
    for message in messages:
        for result in message.tool_results:
            texts.append(result.content)
            failed = result.is_error or result.content.startswith("[SYSTEM_FAULT]")
            outcomes.append((result.id, failed))
    return "\n".join(texts), outcomes


class _TurnClient:
    """The run's model client as the agent loop sees it: every turn through the runner.

    Each turn goes through :meth:`EvalRunner.model_turn`, so a conversation's
    turns are cached (a re-run replays the conversation without a request),
    counted and held to the budget like single turns.
    """

    def __init__(self, runner: EvalRunner, job: Job, inner: ModelClient) -> None:
        self.runner, self.job, self.inner = runner, job, inner
        self.turns = self.cached = 0
        self.model_ms = 0.0
        self.budget = ""

    async def stream(self, request: ModelRequest) -> AsyncIterator[StreamEvent]:
        from studio.evals.runner import BudgetExhausted

        try:
            turn = await self.runner.model_turn(self.job, self.inner, request)
        except BudgetExhausted as exc:
            self.budget = str(exc)
            raise
        self.turns += 1
        self.cached += turn.cached
        self.model_ms += turn.model_ms
        yield turn.completed

    async def aclose(self) -> None:
        """The inner client belongs to the runner, which closes it."""


async def play_case(runner: EvalRunner, job: Job, client: ModelClient, base: Attempt) -> Attempt:
    """Play ``job``'s case as a whole conversation on the mocks and score it."""
    import dataclasses

    case, variant, profile = job.case, job.variant, job.profile
    mocks = load_mocks(runner)
    config = RunConfig(
        variant.registry, version=variant.label, profile=profile.name, system=case.system,
        params=profile.params, context=runtime_context(case), mock=MockExecutor(mocks.tools),
        max_tool_calls=12, max_turns=_MAX_TURNS,
    )  # fmt: skip
    if variant.registry.skills:  # catalogue + load_skill, as studio run (studio.evals.skills)
        config = with_capabilities(config, skills_only=True)
    turns = _TurnClient(runner, job, client)
    run = Run(turns, config, approver=auto_approver("write"))
    history = case_messages(case)[:-1]
    run.messages = list(history)  # the run appends to its own list
    started = time.perf_counter()
    result = await run.execute(case.user)
    latency = turns.model_ms or (time.perf_counter() - started) * 1000
    tokens_in = int(result.usage.get("input_tokens", 0))
    tokens_out = int(result.usage.get("output_tokens", 0))
    cached = turns.turns > 0 and turns.cached == turns.turns
    if turns.budget:
        return dataclasses.replace(base, status=STATUS_SKIPPED, error=turns.budget)
    if result.status == "failed":
        return dataclasses.replace(base, status=STATUS_ERROR, error=result.reason,
                                   latency_ms=latency, tokens_in=tokens_in,
                                   tokens_out=tokens_out)  # fmt: skip
    conversation = list(result.messages[len(history) :])
    calls: list[ToolCallPart] = [c for m in conversation for c in m.tool_calls]
    final = next((m.text for m in reversed(conversation)
                  if m.role is Role.ASSISTANT and m.text and not m.tool_calls), "")  # fmt: skip
    answer = Message(Role.ASSISTANT, (*((TextPart(final),) if final else ()), *calls))
    answer, loads = split_loads(answer)
    pipeline = ArgumentPipeline(variant.registry, runtime_context(case))
    scored = score_answer(case, answer, pipeline)
    skill_misses = skill_failures(case, loaded_skills(loads))
    results_text, outcomes = _results_text(conversation)
    failed_ids = {call_id for call_id, failed in outcomes if failed}
    expected = set(case.expect.tools)
    succeeded = all(c.id not in failed_ids for c in calls if c.name in expected)
    end_to_end = scored.pipeline.passed and succeeded and result.status == "completed"
    grounded: bool | None = None
    false_success: bool | None = None
    if outcomes:
        grounded = all(fact in results_text for fact in _facts(final))
        if failed_ids:
            false_success = bool(final) and not _FAILURE_WORDS.search(final)
    return dataclasses.replace(
        base, chosen=scored.chosen, raw_calls=(*loads, *scored.raw_calls),
        pipeline_calls=scored.pipeline_calls, text=final,
        raw=score_skills(scored.raw, skill_misses),
        pipeline=score_skills(scored.pipeline, skill_misses), end_to_end=end_to_end,
        grounded=grounded,
        false_success=false_success, latency_ms=round(latency, 3), tokens_in=tokens_in,
        tokens_out=tokens_out, cached=cached,
        error="" if result.status == "completed" else f"{result.status}: {result.reason}",
    )  # fmt: skip
