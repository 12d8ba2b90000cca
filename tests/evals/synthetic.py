"""Synthetic attempts for the metrics, statistics and report tests (no runner needed)."""

from __future__ import annotations

from studio.evals.results import (
    ASKED,
    NO_TOOL,
    STATUS_ERROR,
    STATUS_SCORED,
    Attempt,
    AttemptCall,
    Score,
)


def attempt(
    case_id: str,
    *,
    variant: str = "A",
    expected: str = "query_invoices",
    chosen: str | None = None,
    passed: bool | None = None,
    raw_passed: bool | None = None,
    args_ok: bool = True,
    repetition: int = 0,
    profile: str = "loopback",
    repaired: bool = False,
    invalid: bool = False,
    tokens: tuple[int, int] = (100, 20),
    latency_ms: float = 50.0,
    end_to_end: bool | None = None,
    grounded: bool | None = None,
    run_id: str = "run-1",
    status: str = STATUS_SCORED,
    cached: bool = False,
) -> Attempt:
    """One attempt; by default the model chose the expected tool and everything passed."""
    chosen = expected if chosen is None else chosen
    selected = chosen == expected
    pipe_ok = selected and args_ok if passed is None else passed
    raw_ok = pipe_ok if raw_passed is None else raw_passed
    failures = () if pipe_ok else (f"expected {expected}, called {chosen}",)
    calls: tuple[AttemptCall, ...] = ()
    if chosen not in (NO_TOOL, ASKED):
        calls = (AttemptCall(chosen, {"q": 1}, "c1", repaired=repaired, invalid=invalid),)
    if status != STATUS_SCORED:
        return Attempt(run_id, case_id, variant, profile, repetition, status,
                       expected=expected, error="HTTP 500 from the model")  # fmt: skip
    return Attempt(
        run_id, case_id, variant, profile, repetition, STATUS_SCORED,
        chosen=chosen, expected=expected, raw_calls=calls, pipeline_calls=calls,
        raw=Score(raw_ok, selected, raw_ok or not selected, () if raw_ok else failures),
        pipeline=Score(pipe_ok, selected, pipe_ok or not selected, failures),
        end_to_end=end_to_end, grounded=grounded,
        tokens_in=tokens[0], tokens_out=tokens[1], latency_ms=latency_ms, cached=cached,
    )  # fmt: skip


def paired_run(
    n_cases: int, a_passes: set[int], b_passes: set[int], *, tool: str = "query_invoices"
) -> list[Attempt]:
    """Case i passes on A when i in a_passes, on B when i in b_passes."""
    out = []
    for i in range(n_cases):
        for variant, passes in (("A", a_passes), ("B", b_passes)):
            out.append(attempt(f"c{i:03d}", variant=variant, expected=tool, passed=i in passes))
    return out


__all__ = ["ASKED", "NO_TOOL", "STATUS_ERROR", "attempt", "paired_run"]
