"""Eval runs in the database: attempts round-trip, resume keys, the response cache."""

from __future__ import annotations

from pathlib import Path

import pytest

from registry_db import NotFoundError, RegistryStore, seed_examples
from registry_db.eval_runs import EvalRunStore, RunMismatchError
from studio.evals.results import STATUS_SCORED, STATUS_SKIPPED, Attempt, AttemptCall, Score
from studio.evals.runs import attempt_row, list_runs, load_attempts


@pytest.fixture
def store(tmp_path: Path) -> RegistryStore:
    s = RegistryStore.open(tmp_path / "studio.sqlite3")
    seed_examples(s)
    yield s
    s.close()


def _attempt(case: str, status: str = STATUS_SCORED, rep: int = 0) -> Attempt:
    call = AttemptCall("query_invoices", {"月份": "2024-05"}, "c1", repaired=True, notes=("别名",))
    score = Score(True, True, False, ("$.month: missing",))
    return Attempt(
        "r1", case, "A", "gpt", rep, status, chosen="query_invoices", expected="query_invoices",
        raw_calls=(call,), pipeline_calls=(call,), text="好", raw=score, pipeline=score,
        tokens_in=10, tokens_out=3, latency_ms=1.5, tags=("zh",),
    )  # fmt: skip


def test_attempts_round_trip_in_arrival_order(store: RegistryStore) -> None:
    runs = EvalRunStore.for_store(store)
    run, created = runs.open_run("r1", "travel-reimbursement", "core", {"repeat": 1})
    assert created and run.status == "running"
    attempts = [_attempt("b"), _attempt("a"), _attempt("c", STATUS_SKIPPED)]
    runs.put_attempts("r1", [attempt_row(a) for a in attempts])
    assert load_attempts(store, "r1") == attempts
    assert runs.stored_keys("r1", [STATUS_SCORED]) == {("a", "A", "gpt", 0), ("b", "A", "gpt", 0)}
    # A retried skip replaces the stored one instead of adding a second row.
    runs.put_attempts("r1", [attempt_row(_attempt("c"))])
    assert [a.status for a in load_attempts(store, "r1")] == ["scored"] * 3
    [listed] = list_runs(store, "travel-reimbursement")
    assert listed.run_id == "r1" and listed.attempt_count == 3 and listed.config == {"repeat": 1}


def test_reopening_resumes_and_other_sets_conflict(store: RegistryStore) -> None:
    runs = EvalRunStore.for_store(store)
    runs.open_run("r1", "travel-reimbursement", "core", {})
    _, created = runs.open_run("r1", "travel-reimbursement", "core", {})
    assert not created
    with pytest.raises(RunMismatchError, match="another registry"):
        runs.open_run("r1", "travel-reimbursement", "other", {})
    with pytest.raises(NotFoundError, match="eval run 'nope'"):
        load_attempts(store, "nope")


def test_the_response_cache(store: RegistryStore) -> None:
    runs = EvalRunStore.for_store(store)
    assert runs.cached_response("k") is None
    runs.cache_response("k", "openai_chat", "m", '{"text":"你好"}')
    assert runs.cached_response("k") == '{"text":"你好"}'
