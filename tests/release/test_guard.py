"""Guard metrics on crafted outcomes: z-test, thresholds, recommendation."""

from __future__ import annotations

import pytest

from registry_db import RegistryStore
from registry_db.sessions import Outcome, SessionStore
from studio.release import (
    GuardThresholds,
    guard_for_registry,
    guard_report,
    metrics_over_time,
    set_canary,
    two_proportion_z,
)
from studio.release.guard import percentile

from .conftest import REGISTRY


def outcomes(version: str, tool: str, ok: int, failed: int, *, code: str = "UPSTREAM_ERROR",
             latency: float = 100.0, status: str = "error", at: str = "2025-05-01T09:00:00.000Z"
             ) -> list[Outcome]:  # fmt: skip
    rows = [Outcome(None, "", REGISTRY, version, tool, "ok", "", latency, at) for _ in range(ok)]
    rows += [
        Outcome(None, "", REGISTRY, version, tool, status, code, latency, at) for _ in range(failed)
    ]
    return rows


def test_z_test_known_value() -> None:
    # 95/100 vs 80/100: pooled 0.875, se = sqrt(.875*.125*.02) = 0.04677, z = -3.207
    z, p = two_proportion_z(95, 100, 80, 100)
    assert z == pytest.approx(-3.207, abs=1e-3)
    assert p == pytest.approx(0.00067, abs=5e-5)
    assert two_proportion_z(0, 0, 5, 10) == (0.0, 1.0)
    assert two_proportion_z(10, 10, 10, 10) == (0.0, 1.0)


def test_percentile() -> None:
    assert percentile([], 95) == 0.0
    assert percentile([5.0], 50) == 5.0
    assert percentile(list(range(1, 101)), 50) == pytest.approx(50.5)
    assert percentile(list(range(1, 101)), 95) == pytest.approx(95.05)


def test_rollback_when_canary_is_significantly_worse() -> None:
    rows = outcomes("1", "query_invoices", 190, 10) + outcomes("2", "query_invoices", 150, 50)
    report = guard_report(rows, "1", "2")
    assert report.recommendation.action == "rollback"
    assert (
        "query_invoices" in report.recommendation.reason
        or "all tools" in report.recommendation.reason
    )
    assert report.overall.p_value < 0.001
    assert report.overall.canary.success_rate == pytest.approx(0.75)


def test_rollback_names_the_tool_that_broke() -> None:
    rows = (
        outcomes("1", "search_policy", 500, 5) + outcomes("2", "search_policy", 500, 5)
        + outcomes("1", "query_tickets", 150, 2)
        + outcomes("2", "query_tickets", 110, 40, status="rejected", code="INVALID_ARGUMENTS")
    )  # fmt: skip
    report = guard_report(rows, "1", "2", GuardThresholds(min_samples=100))
    assert report.recommendation.action == "rollback"
    tickets = next(t for t in report.tools if t.tool == "query_tickets")
    assert tickets.canary.validation_failures == 40
    assert tickets.canary.error_codes == {"INVALID_ARGUMENTS": 40}


def test_hold_when_too_few_samples() -> None:
    rows = outcomes("1", "t", 20, 0) + outcomes("2", "t", 5, 15)
    report = guard_report(rows, "1", "2", GuardThresholds(min_samples=50))
    assert report.recommendation.action == "hold"
    assert "too few samples" in report.recommendation.reason


def test_promote_when_healthy() -> None:
    rows = outcomes("1", "t", 290, 10) + outcomes("2", "t", 295, 5)
    report = guard_report(rows, "1", "2")
    assert report.recommendation.action == "promote"
    assert "healthy" in report.recommendation.reason


def test_small_drop_within_tolerance_promotes() -> None:
    rows = outcomes("1", "t", 9800, 200) + outcomes("2", "t", 9700, 300)
    # one point worse, significant with these counts, but under the 2-point tolerance
    report = guard_report(rows, "1", "2")
    assert report.overall.p_value < 0.05
    assert report.recommendation.action == "promote"
    strict = guard_report(rows, "1", "2", GuardThresholds(max_success_drop=0.005))
    assert strict.recommendation.action == "rollback"


def test_latency_regression_rolls_back() -> None:
    rows = outcomes("1", "t", 200, 0, latency=100) + outcomes("2", "t", 200, 0, latency=450)
    report = guard_report(rows, "1", "2")
    assert report.recommendation.action == "rollback"
    assert "latency" in report.recommendation.reason
    assert report.overall.canary.latency_p95 == 450


def test_skipped_and_denied_calls_do_not_count() -> None:
    rows = outcomes("1", "t", 10, 5, status="skipped", code="")
    rows += outcomes("1", "t", 0, 5, status="denied", code="DENIED_BY_USER")
    report = guard_report(rows, "1", "2")
    assert report.overall.stable.calls == 10
    assert report.overall.stable.success_rate == 1.0


def test_same_version_holds() -> None:
    report = guard_report(outcomes("1", "t", 300, 0), "1", "1")
    assert report.recommendation.action == "hold"


def test_guard_for_registry_reads_the_outcomes_table(store: RegistryStore) -> None:
    assert guard_for_registry(store, REGISTRY) is None
    set_canary(store, REGISTRY, version=3, share=10)
    sessions = SessionStore.for_store(store)
    sessions.append_batch(
        "",
        outcomes=outcomes("2", "search_policy", 180, 20) + outcomes("3", "search_policy", 120, 80)
        + outcomes("1", "search_policy", 0, 500),
    )  # fmt: skip
    report = guard_for_registry(store, REGISTRY)
    assert report is not None
    assert (report.stable_version, report.canary_version) == ("2", "3")
    assert report.overall.stable.calls == 200
    assert report.recommendation.action == "rollback"


def test_metrics_over_time() -> None:
    rows = outcomes("1", "t", 9, 1, at="2025-05-01T09:10:00.000Z")
    rows += outcomes("1", "t", 5, 5, at="2025-05-01T10:10:00.000Z")
    rows += outcomes("2", "t", 10, 0, latency=50, at="2025-05-01T10:20:00.000Z")
    points = metrics_over_time(rows)
    assert [(p.period, p.version, p.success_rate) for p in points] == [
        ("2025-05-01T09", "1", 0.9),
        ("2025-05-01T10", "1", 0.5),
        ("2025-05-01T10", "2", 1.0),
    ]


def writes(version: str, count: int, *, duplicates: int = 0, replayed: int = 0,
           refused: int = 0, tool: str = "create_reimbursement_ticket",
           ) -> list[Outcome]:  # fmt: skip
    """``count`` write attempts; the first ``duplicates`` re-issue an intent that already ran.

    Of the duplicates, ``replayed`` were answered from the stored result and
    ``refused`` held back (unknown outcome); the rest reached the tool again.
    """
    at = "2025-05-01T09:00:00.000Z"
    rows = []
    for i in range(count):
        status, dup = "ok", ""
        if i < duplicates:
            dup = f"first-{i}"
            if i < replayed:
                status = "replayed"
            elif i < replayed + refused:
                status = "refused"
        rows.append(Outcome(None, f"c{i}", REGISTRY, version, tool, status, "", 40.0, at,
                            risk="write", idempotency_key=f"k{i}", duplicate_of=dup))  # fmt: skip
    return rows


def test_duplicate_writes_per_1000_per_version() -> None:
    # Stable without replay: 170 of 1,000 writes were duplicates and all reached the
    # backend; canary with it: as many re-issues, 8 reach the backend (after a failure
    # or a looked-up unknown), the rest are replayed or refused.
    rows = writes("1", 1000, duplicates=170)
    rows += writes("2", 1000, duplicates=170, replayed=150, refused=12)
    rows += outcomes("1", "search_policy", 50, 0) + outcomes("2", "search_policy", 50, 0)
    rows.append(Outcome(None, "d", REGISTRY, "2", "create_reimbursement_ticket", "denied",
                        "DENIED_BY_USER", 0.0, "", risk="write", duplicate_of="c1"))  # fmt: skip
    report = guard_report(rows, "1", "2")
    stable, canary = report.overall.stable, report.overall.canary
    assert (stable.writes, stable.duplicate_writes, stable.duplicates_sent) == (1000, 170, 170)
    assert (canary.writes, canary.duplicate_writes, canary.duplicates_sent) == (1000, 170, 8)
    assert stable.duplicates_per_1000 == pytest.approx(170.0)
    assert stable.duplicates_sent_per_1000 == pytest.approx(170.0)
    assert canary.duplicates_sent_per_1000 == pytest.approx(8.0)  # under 1 %
    # Reads are not writes; replayed and refused calls never reached the tool.
    assert canary.calls == 1000 - 162 + 50 and stable.calls == 1050
    (tool,) = [c for c in report.tools if c.tool == "create_reimbursement_ticket"]
    assert tool.canary.duplicate_writes == 170 and tool.canary.writes == 1000
    (reads,) = [c for c in report.tools if c.tool == "search_policy"]
    assert reads.canary.writes == 0 and reads.canary.duplicates_per_1000 == 0.0


def test_duplicate_write_columns_round_trip_through_the_outcomes_table(
    store: RegistryStore,
) -> None:
    set_canary(store, REGISTRY, version=3, share=10)
    sessions = SessionStore.for_store(store)
    sessions.append_batch("", outcomes=writes("2", 10, duplicates=3)
                          + writes("3", 10, duplicates=3, replayed=3))  # fmt: skip
    sessions.record_outcome(
        Outcome(None, "x", REGISTRY, "3", "create_reimbursement_ticket", "refused",
                "WRITE_OUTCOME_UNKNOWN", 0.0, "", "write", "k-x", "c-0")
    )  # fmt: skip
    stored = sessions.outcomes(REGISTRY, "3")
    assert stored[0].risk == "write" and stored[0].duplicate_of == "first-0"
    assert stored[-1].idempotency_key == "k-x" and stored[-1].status == "refused"
    report = guard_for_registry(store, REGISTRY)
    assert report is not None
    assert report.overall.stable.duplicates_sent == 3
    assert (report.overall.canary.duplicate_writes, report.overall.canary.duplicates_sent) == (4, 0)
    assert report.overall.canary.duplicates_per_1000 == pytest.approx(1000 * 4 / 11)
