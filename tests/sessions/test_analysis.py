"""Suspicious patterns, re-validation against a registry version, and the combined check."""

from __future__ import annotations

import json

from registry_db import load_examples
from studio.contract import Registry
from studio.runtime import SessionContext
from studio.sessions.check import check_session
from studio.sessions.pairing import Position
from studio.sessions.revalidate import (
    FAILS,
    MAPPED,
    PASSES,
    TOOL_GONE,
    recorded_prepared_arguments,
    revalidate,
)
from studio.sessions.suspicious import SuspiciousKind, find_suspicious, is_write_tool
from tests.sessions.helpers import TICKET, assistant, call, results, user


def travel() -> Registry:
    return next(r for r in load_examples() if r.name == "travel-reimbursement")


def test_duplicate_write_with_same_canonical_arguments() -> None:
    reordered = json.dumps(dict(reversed(list(TICKET.items()))))
    history = [
        user("file it"),
        assistant(call("c1", "create_reimbursement_ticket", json.dumps(TICKET))),
        results(("c1", {"ok": True, "ticket": "R-55821"})),
        assistant(call("c2", "create_reimbursement_ticket", reordered)),
        results(("c2", {"ok": True, "ticket": "R-55822"})),
        assistant(call("c3", "query_tickets", "{}"), call("c4", "query_tickets", "{}")),
    ]
    (finding,) = find_suspicious(history)
    assert finding.kind is SuspiciousKind.DUPLICATE_WRITE
    assert finding.position == Position(3, 0) and finding.related == (Position(1, 0),)
    assert find_suspicious(history, travel())[0].tool == "create_reimbursement_ticket"


def test_retry_after_timeout_is_its_own_kind() -> None:
    unknown = {"ok": False, "status": "UNKNOWN", "error_code": "OUTCOME_UNKNOWN"}
    history = [
        user("file it"),
        assistant(call("c1", "create_reimbursement_ticket", TICKET)),
        results(("c1", unknown), error=True),
        assistant(call("c2", "create_reimbursement_ticket", TICKET)),
    ]
    (finding,) = find_suspicious(history)
    assert finding.kind is SuspiciousKind.RETRY_AFTER_TIMEOUT
    assert "idempotency key" in finding.message
    timed_out = [*history[:2], results(("c1", "upstream timed out after 8 s")), history[3]]
    assert find_suspicious(timed_out)[0].kind is SuspiciousKind.RETRY_AFTER_TIMEOUT


def test_write_detection_by_registry_then_verb() -> None:
    assert is_write_tool("createTicket") and is_write_tool("send_mail")
    assert not is_write_tool("query_invoices") and not is_write_tool("get_order")
    assert is_write_tool("create_reimbursement_ticket", travel())
    assert not is_write_tool("search_policy", travel())


def test_revalidation_table_passes_fails_gone_and_mapped() -> None:
    history = [
        user("taxi invoices in November, then file"),
        assistant(
            call("a", "query_invoices", {"start_date": "2026-11-01", "end_date": "2026-11-30"}),
            call(
                "b",
                "query_invoices",
                {"startDate": "2026-11-01", "end_date": "2026-11-30", "category": "出租车"},
            ),
            call("c", "query_invoices", {"start_date": "yesterday"}),
            call("d", "cancel_ticket", {"ticket_id": "R-55821"}),
            call("e", "create_reimbursement_ticket", '{"invoice_ids": ["INV-102"], "amount": '),
        ),
    ]
    report = revalidate(history, travel(), version="3")
    by_id = {r.call_id: r for r in report.rows}
    assert by_id["a"].status == PASSES
    assert any("placeholder" in n for n in by_id["a"].notes)  # employee_id not recorded
    assert any("permission not checked" in n for n in by_id["a"].notes)
    assert by_id["b"].status == MAPPED
    assert "alias" in by_id["b"].reason and by_id["b"].prepared["category"] == "taxi"
    assert by_id["c"].status == FAILS and by_id["c"].error_code == "INVALID_ARGUMENTS"
    assert "end_date" in by_id["c"].reason
    assert by_id["d"].status == TOOL_GONE and by_id["d"].error_code == "UNKNOWN_TOOL"
    assert by_id["e"].status == FAILS and by_id["e"].error_code == "INVALID_ARGUMENTS_JSON"
    assert report.counts == {PASSES: 1, MAPPED: 1, FAILS: 2, TOOL_GONE: 1}
    assert report.summary() == "1 passes, 1 mapped-differently, 2 fails, 1 tool-gone"
    assert json.loads(json.dumps(report.to_dict()))["counts"][FAILS] == 2


def test_revalidation_compares_with_what_the_recording_prepared() -> None:
    args = {"start_date": "2026-11-01", "end_date": "2026-11-30"}
    history = [user("x"), assistant(call("a", "query_invoices", args))]
    ctx = SessionContext("employee", "reimbursement", {"employee_id": "E-1001"})
    same = revalidate(history, travel(), context=ctx,
                      recorded_prepared={"a": {**args, "employee_id": "E-1"}})  # fmt: skip
    assert same.rows[0].status == PASSES and same.rows[0].notes == ()
    other = revalidate(history, travel(), context=ctx,
                       recorded_prepared={"a": {**args, "category": "taxi"}})  # fmt: skip
    assert other.rows[0].status == MAPPED and "category" in other.rows[0].reason
    denied = revalidate(history, travel(), context=SessionContext("guest", "other"))
    assert denied.rows[0].status == FAILS and denied.rows[0].error_code == "PERMISSION_DENIED"


def test_recorded_prepared_from_stored_events() -> None:
    class Event:
        def __init__(self, type_: str, data: dict) -> None:
            self.type, self.data = type_, data

    events = [Event("tool_call.prepared", {"call_id": "a", "ok": True, "arguments": {"x": 1}}),
              Event("tool_call.prepared", {"call_id": "b", "ok": False, "arguments": None}),
              Event("run.started", {})]  # fmt: skip
    assert recorded_prepared_arguments(events) == {"a": {"x": 1}}


def test_check_combines_every_analysis_in_position_order() -> None:
    history = [
        user("file it twice"),
        assistant(call("c1", "create_reimbursement_ticket", TICKET)),
        results(("c1", {"ok": True})),
        assistant(call("c2", "create_reimbursement_ticket", TICKET), call("c3", "gone_tool", {})),
        results(("c2", {"ok": True})),
    ]
    check = check_session(history, travel(), version="draft")
    kinds = [(f.source, f.kind) for f in check.findings]
    assert ("pairing", "call-without-result") in kinds
    assert ("suspicious", "duplicate-write") in kinds
    assert ("revalidation", "tool-gone") in kinds
    positions = [(f.position.message, f.position.part or 0) for f in check.findings]
    assert positions == sorted(positions)
    assert check.problem_count == len(check.findings)
    text = check.format_text()
    assert "openai:" in text and "re-validation against travel-reimbursement draft" in text
    assert json.loads(json.dumps(check.to_dict()))["problems"] == check.problem_count
