"""One model answer scored twice: as the model sent it, and after the runtime's pipeline.

The raw view decodes the arguments and nothing else. The pipeline view runs
each call through :class:`~studio.runtime.pipeline.ArgumentPipeline` with the
case's session context (aliases, enum aliases, coercion, defaults, injected
values such as ``employee_id``, validation, permission): what the tool would
really have received. A call the pipeline refuses keeps its best-effort
arguments but is marked invalid, and an expected call that is invalid fails
the pipeline view's arguments.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Any

from studio.evals.match import Call, CaseResult, match_case
from studio.evals.model import EvalCase
from studio.evals.results import ASKED, NO_TOOL, AttemptCall, Score
from studio.runtime.context import SessionContext as RuntimeContext
from studio.runtime.pipeline import ArgumentPipeline
from studio.sessions.model import Message, ToolCallPart

#: Pipeline steps whose changes mean the model's arguments were repaired (filling a
#: default or injecting ``employee_id`` is the runtime's normal work, not a repair).
_REPAIR_STEPS = frozenset({"parse", "aliases", "coerce"})


@dataclass(frozen=True, slots=True)
class Scored:
    """Both views of one answer, scored."""

    chosen: str
    raw_calls: tuple[AttemptCall, ...]
    pipeline_calls: tuple[AttemptCall, ...]
    raw: Score
    pipeline: Score
    text: str


def runtime_context(case: EvalCase) -> RuntimeContext:
    """The runtime's session context for a case (role, scenario, injected values)."""
    ctx = case.context
    return RuntimeContext(ctx.role, ctx.scenario, dict(ctx.values))


def expected_of(case: EvalCase) -> str:
    """The case's expected outcome in one word (the confusion matrix's row)."""
    if case.expect.kind == "no_tool":
        return NO_TOOL
    if case.expect.kind == "ask":
        return ASKED
    return case.expect.calls[0].tool


def _decoded(arguments: str | dict[str, Any]) -> Any:
    if isinstance(arguments, dict):
        return arguments
    if not arguments.strip():
        return {}
    try:
        return json.loads(arguments)
    except ValueError:
        return arguments


def _is_question(text: str) -> bool:
    return "?" in text or "？" in text


def _score(result: CaseResult, extra_failures: tuple[str, ...] = ()) -> Score:
    failures = tuple(result.failures()) + extra_failures
    arguments_ok = result.arguments_passed and not extra_failures
    return Score(
        passed=result.passed and not extra_failures,
        selection_passed=result.selection_passed,
        arguments_passed=arguments_ok,
        failures=failures,
    )


def _pipeline_call(pipeline: ArgumentPipeline, call: ToolCallPart) -> AttemptCall:
    prepared = pipeline.prepare(call)
    repaired = any(step.changes for step in prepared.steps if step.name in _REPAIR_STEPS)
    notes = tuple(
        str(change.get("reason") or change.get("action") or change)
        for step in prepared.steps
        for change in step.changes
        if step.name != "idempotency"
    )
    if prepared.ok:
        return AttemptCall(prepared.name, prepared.arguments, call.id, repaired, False, notes)
    error = prepared.error
    message = f"{error.code}: {error.message}" if error is not None else "refused"
    arguments = prepared.parsed if prepared.parsed is not None else _decoded(call.arguments)
    return AttemptCall(prepared.name, arguments, call.id, repaired, True, (*notes, message))


def _injected(tool: str, pipeline: ArgumentPipeline) -> set[str]:
    """Argument paths of ``tool`` the runtime fills from the session (``employee_id``)."""
    compiled = pipeline.tools.get(tool)
    if compiled is None:
        return set()
    return {".".join(f.path) for f in compiled.contract.injected_fields()}


def _without_absent_on_injected(
    case: EvalCase, calls: tuple[ToolCallPart, ...], pipeline: ArgumentPipeline
) -> EvalCase:
    """The case for the pipeline view: ``absent`` on an injected field is the model's test.

    The pipeline always fills an injected field (``employee_id``) from the
    session, whatever the model sent; whether the model left it out is judged
    in the raw view only.
    """
    if not any(m.kind == "absent" for c in case.expect.calls for m in c.args):
        return case
    expected = []
    for call in case.expect.calls:
        injected = _injected(call.tool, pipeline)
        kept = tuple(
            m
            for m in call.args
            if not (m.kind == "absent" and m.path.removeprefix("$.") in injected)
        )
        expected.append(dataclasses.replace(call, args=kept))
    return dataclasses.replace(case, expect=dataclasses.replace(case.expect, calls=tuple(expected)))


def score_answer(case: EvalCase, message: Message, pipeline: ArgumentPipeline) -> Scored:
    """Score ``message`` (the model's one turn) against ``case`` in both views.

    Args:
        case: The case.
        message: The assistant message the provider returned.
        pipeline: The variant's pipeline, built with :func:`runtime_context` of the case.
    """
    text = message.text or ""
    calls = message.tool_calls
    raw_calls = tuple(AttemptCall(c.name, _decoded(c.arguments), c.id) for c in calls)
    piped = tuple(_pipeline_call(pipeline, c) for c in calls)
    raw = _score(match_case(case, [Call(c.tool, c.arguments) for c in raw_calls], text))
    expected = set(case.expect.tools)
    invalid = tuple(
        f"{c.tool}: invalid after the pipeline ({c.notes[-1] if c.notes else 'refused'})"
        for c in piped
        if c.invalid and c.tool in expected
    )
    pipe_case = _without_absent_on_injected(case, calls, pipeline)
    pipe = _score(match_case(pipe_case, [Call(c.tool, c.arguments) for c in piped], text), invalid)
    chosen = calls[0].name if calls else (ASKED if _is_question(text) else NO_TOOL)
    return Scored(chosen, raw_calls, piped, raw, pipe, text)
