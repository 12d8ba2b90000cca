"""Stored eval runs as :class:`~studio.evals.results.Attempt` records.

The runner writes attempts through :func:`attempt_json`; metrics, comparisons
and reports read a run back with :func:`load_attempts` and find runs with
:func:`list_runs`. Only the standard library and the store are imported, so
reports can load runs without pulling in the providers.
"""

from __future__ import annotations

import json
from typing import Any

from registry_db.eval_runs import AttemptRow, EvalRunStore, StoredRun
from registry_db.store import RegistryStore
from studio.evals.results import Attempt, AttemptCall, Score

__all__ = [
    "RunSummary",
    "attempt_from_dict",
    "attempt_json",
    "attempt_row",
    "attempt_to_dict",
    "list_runs",
    "load_attempts",
]

#: A run as listed: the stored row (config holds variants, profiles, repeat, options).
RunSummary = StoredRun


def _call_to_dict(call: AttemptCall) -> dict[str, Any]:
    out: dict[str, Any] = {"tool": call.tool, "arguments": call.arguments}
    if call.call_id:
        out["call_id"] = call.call_id
    if call.repaired:
        out["repaired"] = True
    if call.invalid:
        out["invalid"] = True
    if call.notes:
        out["notes"] = list(call.notes)
    return out


def _call_from_dict(data: dict[str, Any]) -> AttemptCall:
    return AttemptCall(
        tool=data["tool"],
        arguments=data.get("arguments", {}),
        call_id=data.get("call_id", ""),
        repaired=bool(data.get("repaired", False)),
        invalid=bool(data.get("invalid", False)),
        notes=tuple(data.get("notes", ())),
    )


def _score_to_dict(score: Score | None) -> dict[str, Any] | None:
    if score is None:
        return None
    return {
        "passed": score.passed,
        "selection_passed": score.selection_passed,
        "arguments_passed": score.arguments_passed,
        "failures": list(score.failures),
    }


def _score_from_dict(data: dict[str, Any] | None) -> Score | None:
    if data is None:
        return None
    return Score(
        passed=bool(data["passed"]),
        selection_passed=bool(data["selection_passed"]),
        arguments_passed=bool(data["arguments_passed"]),
        failures=tuple(data.get("failures", ())),
    )


def attempt_to_dict(attempt: Attempt) -> dict[str, Any]:
    """The attempt as plain JSON data (every field, calls and scores nested)."""
    return {
        "run_id": attempt.run_id,
        "case_id": attempt.case_id,
        "variant": attempt.variant,
        "profile": attempt.profile,
        "repetition": attempt.repetition,
        "status": attempt.status,
        "chosen": attempt.chosen,
        "expected": attempt.expected,
        "raw_calls": [_call_to_dict(c) for c in attempt.raw_calls],
        "pipeline_calls": [_call_to_dict(c) for c in attempt.pipeline_calls],
        "text": attempt.text,
        "raw": _score_to_dict(attempt.raw),
        "pipeline": _score_to_dict(attempt.pipeline),
        "end_to_end": attempt.end_to_end,
        "grounded": attempt.grounded,
        "tokens_in": attempt.tokens_in,
        "tokens_out": attempt.tokens_out,
        "latency_ms": attempt.latency_ms,
        "cached": attempt.cached,
        "error": attempt.error,
        "tags": list(attempt.tags),
        "false_success": attempt.false_success,
    }


def attempt_from_dict(data: dict[str, Any]) -> Attempt:
    """Inverse of :func:`attempt_to_dict` (missing optional fields take their defaults)."""
    return Attempt(
        run_id=data["run_id"],
        case_id=data["case_id"],
        variant=data["variant"],
        profile=data["profile"],
        repetition=int(data["repetition"]),
        status=data["status"],
        chosen=data.get("chosen", Attempt.__dataclass_fields__["chosen"].default),
        expected=data.get("expected", Attempt.__dataclass_fields__["expected"].default),
        raw_calls=tuple(_call_from_dict(c) for c in data.get("raw_calls", ())),
        pipeline_calls=tuple(_call_from_dict(c) for c in data.get("pipeline_calls", ())),
        text=data.get("text", ""),
        raw=_score_from_dict(data.get("raw")),
        pipeline=_score_from_dict(data.get("pipeline")),
        end_to_end=data.get("end_to_end"),
        grounded=data.get("grounded"),
        tokens_in=int(data.get("tokens_in", 0)),
        tokens_out=int(data.get("tokens_out", 0)),
        latency_ms=float(data.get("latency_ms", 0.0)),
        cached=bool(data.get("cached", False)),
        error=data.get("error", ""),
        tags=tuple(data.get("tags", ())),
        false_success=data.get("false_success"),
    )


def attempt_json(attempt: Attempt) -> str:
    """The attempt as compact JSON text (non-ASCII kept as is)."""
    return json.dumps(attempt_to_dict(attempt), ensure_ascii=False, separators=(",", ":"))


def attempt_row(attempt: Attempt) -> AttemptRow:
    """The attempt as the row :meth:`EvalRunStore.put_attempts` stores."""
    case_id, variant, profile, repetition = attempt.key
    return AttemptRow(case_id, variant, profile, repetition, attempt.status, attempt_json(attempt))


def load_attempts(store: RegistryStore, run_id: str) -> list[Attempt]:
    """Every stored attempt of a run, in the order they arrived.

    Raises:
        registry_db.NotFoundError: no run has that id.
    """
    rows = EvalRunStore.for_store(store).attempt_rows(run_id)
    return [attempt_from_dict(json.loads(r.attempt_json)) for r in rows]


def list_runs(store: RegistryStore, registry: str) -> list[RunSummary]:
    """The registry's runs, newest first (``config`` says variants, profiles, repeat).

    Raises:
        registry_db.NotFoundError: the registry does not exist.
    """
    return EvalRunStore.for_store(store).runs(registry)
