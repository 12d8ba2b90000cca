"""Each step of the argument pipeline on its own."""

from __future__ import annotations

import time

import pytest

from studio.runtime import ArgumentPipeline, SessionContext
from studio.runtime.coerce import coerce
from studio.runtime.pipeline import validator_for
from studio.runtime.repair import ArgumentsParseError, parse_arguments
from tests.runtime.helpers import CONTEXT, call, travel_registry


@pytest.fixture(scope="module")
def pipeline() -> ArgumentPipeline:
    return ArgumentPipeline(travel_registry(), CONTEXT, "s1")


def step(prepared, number):
    return next(s for s in prepared.steps if s.step == number)


@pytest.mark.parametrize(
    ("raw", "repair"),
    [
        ('{"query": "taxi",}', "trailing"),
        ("{'query': 'taxi'}", "single quotes"),
        ('```json\n{"query": "taxi"}\n```', "code fence"),
        ('"{\\"query\\": \\"taxi\\"}"', "double-encoded"),
        ("", "empty"),
    ],
)
def test_parse_repairs_are_recorded(raw, repair):
    value, repairs = parse_arguments(raw)
    assert value in ({"query": "taxi"}, {})
    assert any(repair.split()[0] in r for r in repairs), repairs


def test_parse_keeps_commas_and_quotes_inside_strings():
    value, _ = parse_arguments("{'reason': \"client's dinner, late\",}")
    assert value == {"reason": "client's dinner, late"}


def test_unrepairable_json_reports_the_position(pipeline):
    with pytest.raises(ArgumentsParseError) as info:
        parse_arguments('{"query": "taxi" "top_k": 2}')
    assert info.value.position == 17
    p = pipeline.prepare(call("c1", "search_policy", '{"query": "taxi" "top_k": 2}'))
    assert p.error.code == "INVALID_ARGUMENTS_JSON"
    assert p.error.details["position"] == 17 and p.error.retryable


def test_anthropic_object_arguments_pass_unchanged(pipeline):
    p = pipeline.prepare(call("c1", "search_policy", {"query": "taxi"}))
    assert p.ok and p.arguments == {"query": "taxi", "top_k": 3}
    assert step(p, 1).changes == ()


def test_unknown_tool_lists_close_names(pipeline):
    p = pipeline.prepare(call("c1", "query_invoice", {}))
    assert p.error.code == "UNKNOWN_TOOL"
    assert "query_invoices" in p.error.details["close_names"]
    assert "query_invoices" in p.error.hint


def test_aliases_and_enum_aliases(pipeline):
    p = pipeline.prepare(
        call(
            "c1", "query_invoices", {"startDate": "2024-05-01", "to": "2024-05-10", "类别": "打车"}
        )
    )
    assert p.ok, p.error
    assert p.arguments["start_date"] == "2024-05-01"
    assert p.arguments["end_date"] == "2024-05-10"
    assert p.arguments["category"] == "taxi"
    actions = [c["action"] for c in step(p, 3).changes]
    assert actions.count("renamed") == 3 and "mapped" in actions


def test_enum_matches_ignoring_case(pipeline):
    p = pipeline.prepare(
        call(
            "c1",
            "query_invoices",
            {"start_date": "2024-05-01", "end_date": "2024-05-10", "category": "TAXI"},
        )
    )
    assert p.arguments["category"] == "taxi"


def test_lossless_coercion(pipeline):
    p = pipeline.prepare(call("c1", "search_policy", {"query": ["taxi"], "top_k": "2"}))
    assert p.ok and p.arguments == {"query": "taxi", "top_k": 2}
    assert len(step(p, 4).changes) == 2


def test_lossy_coercion_is_refused(pipeline):
    p = pipeline.prepare(call("c1", "search_policy", {"query": "taxi", "top_k": "3.5"}))
    assert p.error.code == "INVALID_ARGUMENTS"
    assert p.error.details["problems"][0]["path"] == "$.top_k"


@pytest.mark.parametrize(
    ("value", "schema", "expected"),
    [
        ("3.5", {"type": "number"}, 3.5),
        ("true", {"type": "boolean"}, True),
        ("a", {"type": "array", "items": {"type": "string"}}, ["a"]),
        (3.0, {"type": "integer"}, 3),
        ("3.5", {"type": "integer"}, "3.5"),
        ("yes", {"type": "boolean"}, "yes"),
    ],
)
def test_coerce_table(value, schema, expected):
    assert coerce(value, schema, "$", []) == expected


def test_injected_field_set_by_the_model_is_discarded_and_reported(pipeline):
    p = pipeline.prepare(
        call("c1", "query_tickets", {"ticket_id": "R-55821", "employee_id": "E-9999"})
    )
    assert p.arguments["employee_id"] == "E-1001"
    changes = step(p, 5).changes
    assert changes[0]["action"] == "discarded" and changes[0]["from"] == "E-9999"
    assert changes[1]["action"] == "injected"


def test_missing_context_value_is_a_structured_error():
    p = ArgumentPipeline(travel_registry(), SessionContext("employee", "reimbursement"), "s")
    prepared = p.prepare(call("c1", "query_tickets", {}))
    assert prepared.error.code == "MISSING_CONTEXT_VALUE"


def test_validation_failure_names_the_path(pipeline):
    p = pipeline.prepare(
        call("c1", "query_invoices", {"start_date": "May 1", "end_date": "2024-05-10"})
    )
    assert p.error.code == "INVALID_ARGUMENTS"
    assert p.error.to_result()["ok"] is False
    assert "$.start_date" in p.error.message


def test_permission_check_with_wildcards():
    registry = travel_registry()
    denied = ArgumentPipeline(
        registry, SessionContext("guest", "reimbursement", {"employee_id": "E"})
    )
    p = denied.prepare(call("c1", "search_policy", {"query": "taxi"}))
    assert p.error.code == "PERMISSION_DENIED"
    from dataclasses import replace

    from studio.contract import Permission

    tools = tuple(
        replace(t, permissions=(Permission("*", "reimbursement"),)) for t in registry.tools
    )
    opened = ArgumentPipeline(replace(registry, tools=tools), denied.context)
    assert opened.prepare(call("c1", "search_policy", {"query": "taxi"})).ok


def test_idempotency_key_for_writes(pipeline):
    args = {"invoice_ids": ["INV-102"], "amount": 118.5, "reason": "client visit"}
    p = pipeline.prepare(call("c9", "create_reimbursement_ticket", args), message_id="3")
    session, message, tool, digest = p.idempotency_key.split(":")
    assert (session, message, tool) == ("s1", "3", "create_reimbursement_ticket")
    assert len(digest) == 16
    again = pipeline.prepare(call("c10", "create_reimbursement_ticket", dict(args)), message_id="3")
    assert again.idempotency_key == p.idempotency_key
    assert pipeline.prepare(call("c2", "search_policy", {"query": "x"})).idempotency_key == ""


def test_validators_are_cached_by_content_hash():
    schema = {"type": "object", "properties": {"a": {"type": "integer"}}}
    assert validator_for(schema)[1] is validator_for(dict(schema))[1]


def test_typical_call_is_fast(pipeline):
    args = '{"startDate": "2024-05-01", "end_date": "2024-05-10", "category": "出租车"}'
    timings = []
    for _ in range(200):
        t = time.perf_counter()
        pipeline.prepare(call("c1", "query_invoices", args))
        timings.append(time.perf_counter() - t)
    timings.sort()
    assert timings[100] < 0.001
