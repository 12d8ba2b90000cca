"""POST /v1/outcomes carries write intents (risk, idempotency key, duplicate_of) for the
guard's duplicate-write metric (issue #10, item 11)."""

from __future__ import annotations

import json

import pytest

from studio.release import guard_report
from studio.server.outcomes import OutcomeError, parse_outcomes


def body(*entries: dict) -> bytes:
    return json.dumps({"outcomes": list(entries)}).encode()


def test_reported_write_intents_reach_the_guard_metrics() -> None:
    base = {"registry": "travel-reimbursement", "tool": "create_reimbursement_ticket",
            "risk": "write"}  # fmt: skip
    rows = parse_outcomes(body(
        {**base, "version": 2, "status": "ok", "idempotency_key": "s:0:c:h", "call_id": "a"},
        {**base, "version": 2, "status": "replayed", "idempotency_key": "s:0:c:h",
         "call_id": "b", "duplicate_of": "a"},
        {**base, "version": 2, "status": "ok", "idempotency_key": "s:4:c:h", "call_id": "c"},
        {**base, "version": 2, "status": "refused", "duplicate_of": "c", "risk": "write"},
        {"registry": "travel-reimbursement", "tool": "query_tickets", "version": 2,
         "status": "ok", "risk": "read"},
    ))  # fmt: skip
    assert rows[1].duplicate_of == "a" and rows[1].idempotency_key == "s:0:c:h"
    assert rows[4].risk == "read" and rows[4].duplicate_of == ""
    canary = guard_report(rows, "1", "2").overall.canary
    assert (canary.writes, canary.duplicate_writes, canary.duplicates_sent) == (4, 2, 0)
    assert canary.duplicates_per_1000 == pytest.approx(500.0)


def test_an_unknown_risk_is_refused_by_name() -> None:
    bad = {"registry": "r", "version": 1, "tool": "t", "status": "ok", "risk": "writes"}
    with pytest.raises(OutcomeError, match=r"outcome\.risk must be one of read, write"):
        parse_outcomes(json.dumps(bad).encode())
