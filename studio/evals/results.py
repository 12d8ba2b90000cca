"""What one eval run produced: an attempt per case × variant × profile × repetition.

The runner (:mod:`studio.evals.runner`) writes attempts as they arrive; the
metrics, the A vs B comparison and the reports read them. This module is the
contract between the two sides and imports nothing heavy.

An attempt keeps both views of the model's answer: ``raw_calls`` as the model
sent them, and ``pipeline_calls`` after the runtime's argument pipeline
(aliases, enum aliases, coercion, defaults, injection, validation). The case
is scored on both (``raw`` and ``pipeline`` results); selection is the same in
both views unless the pipeline resolved a tool alias.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: The attempt reached the model and was scored.
STATUS_SCORED = "scored"
#: The provider failed (after retries) or the request could not be built; not scored.
STATUS_ERROR = "error"
#: Not sent: the budget ran out or the run was cancelled before it.
STATUS_SKIPPED = "skipped"
STATUSES = (STATUS_SCORED, STATUS_ERROR, STATUS_SKIPPED)

#: What the model did, for the confusion matrix: a tool name, or one of these.
NO_TOOL = "(no tool)"
ASKED = "(asked)"


@dataclass(frozen=True, slots=True)
class AttemptCall:
    """One tool call of an answer.

    Attributes:
        tool: The tool name as called (after alias resolution in the pipeline view).
        arguments: Decoded arguments; the raw string when they were not valid JSON.
        call_id: The provider's ``tool_call_id`` / ``tool_use`` id.
        repaired: Pipeline view only: the pipeline changed the arguments
            (alias, coercion, default, injection).
        invalid: Pipeline view only: the arguments still failed the schema after repair.
        notes: What the pipeline did or why it refused, in words.
    """

    tool: str
    arguments: Any = field(default_factory=dict)
    call_id: str = ""
    repaired: bool = False
    invalid: bool = False
    notes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Score:
    """A case scored against one view of the answer."""

    passed: bool
    selection_passed: bool
    arguments_passed: bool
    failures: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Attempt:
    """One case sent once to one model for one variant.

    Attributes:
        run_id: The run it belongs to.
        case_id: The case's id in its set.
        variant: The label of the registry variant (``"A"``/``"B"`` or
            ``travel-reimbursement@1.2.0``, ``…@draft``, ``…#stable``).
        profile: The model profile's name.
        repetition: 0-based repetition index.
        status: One of :data:`STATUSES`.
        chosen: What the model did in one word for the confusion matrix:
            the first tool called, :data:`NO_TOOL` or :data:`ASKED`.
        expected: The expected tool (first one) or :data:`NO_TOOL` / :data:`ASKED`.
        raw_calls / pipeline_calls: The answer's calls in both views.
        text: The assistant's text, if any.
        raw / pipeline: The case's score on each view (None unless scored).
        end_to_end: Multi-step mode only: the expected write was reached with
            the right arguments (None in single-turn mode).
        grounded: Multi-step mode only: the final answer's numbers, ids and
            names all appear in a tool result (None when not measured).
        tokens_in / tokens_out: As the provider reported them (0 when it did not).
        latency_ms: Wall time of the model request(s).
        cached: The answer came from the response cache.
        error: For ``error``/``skipped``: what happened, in words.
        tags: The case's tags, copied for filtering.
        false_success: Multi-step mode only: a tool call failed and the final
            answer does not say so (None when no call failed or not measured).
    """

    run_id: str
    case_id: str
    variant: str
    profile: str
    repetition: int
    status: str
    chosen: str = NO_TOOL
    expected: str = NO_TOOL
    raw_calls: tuple[AttemptCall, ...] = ()
    pipeline_calls: tuple[AttemptCall, ...] = ()
    text: str = ""
    raw: Score | None = None
    pipeline: Score | None = None
    end_to_end: bool | None = None
    grounded: bool | None = None
    tokens_in: int = 0
    tokens_out: int = 0
    latency_ms: float = 0.0
    cached: bool = False
    error: str = ""
    tags: tuple[str, ...] = ()
    false_success: bool | None = None

    @property
    def scored(self) -> bool:
        return self.status == STATUS_SCORED

    @property
    def key(self) -> tuple[str, str, str, int]:
        """What identifies an attempt within a run (resume skips keys already stored)."""
        return (self.case_id, self.variant, self.profile, self.repetition)
