"""Nested ``x-injected`` properties are filled by the runtime at any depth (issue #10, item 1)."""

from __future__ import annotations

import pytest

from studio.contract import Registry, RiskTier, ToolContract
from studio.runtime import ArgumentPipeline, SessionContext
from tests.runtime.helpers import call

CONTEXT = SessionContext("employee", "reimbursement", {"employee_id": "E-1001", "org": {"id": 7}})

CLAIM_TOOL = ToolContract(
    name="create_claim",
    summary="File a claim.",
    risk=RiskTier.WRITE,
    parameters={
        "type": "object",
        "properties": {
            "claim": {
                "type": "object",
                "properties": {
                    "amount": {"type": "number"},
                    "employee_id": {"type": "string", "x-injected": "session.employee_id"},
                    "org": {
                        "type": "object",
                        "properties": {
                            "org_id": {"type": "integer", "x-injected": "session.org.id"}
                        },
                        "required": ["org_id"],
                    },
                },
                "required": ["amount", "employee_id"],
                "additionalProperties": False,
            },
            "lines": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "invoice": {"type": "string"},
                        "submitted_by": {"type": "string", "x-injected": "session.employee_id"},
                    },
                    "required": ["invoice", "submitted_by"],
                },
            },
        },
        "required": ["claim"],
    },
)


def _pipeline(tool: ToolContract = CLAIM_TOOL, context: SessionContext = CONTEXT):
    return ArgumentPipeline(Registry("r", tools=(tool,)), context, "s1")


def _fill_changes(prepared):
    return next(s for s in prepared.steps if s.step == 5).changes


def test_model_value_of_a_nested_injected_field_is_dropped_and_replaced():
    p = _pipeline().prepare(
        call("c1", "create_claim", {"claim": {"amount": 3, "employee_id": "E999"}})
    )
    assert p.ok, p.error
    assert p.arguments["claim"]["employee_id"] == "E-1001"
    changes = _fill_changes(p)
    assert {
        "path": "$.claim.employee_id",
        "action": "discarded",
        "from": "E999",
        "reason": "injected from session.employee_id; the model may not set it",
    } in changes
    assert {c["path"] for c in changes if c["action"] == "injected"} >= {"$.claim.employee_id"}


def test_injection_reaches_arrays_of_objects_and_deeper_objects():
    args = {
        "claim": {"amount": 3, "org": {"org_id": 99}},
        "lines": [{"invoice": "INV-102", "submitted_by": "E999"}, {"invoice": "INV-103"}],
    }
    p = _pipeline().prepare(call("c1", "create_claim", args))
    assert p.ok, p.error
    assert p.arguments["claim"]["org"] == {"org_id": 7}
    assert [line["submitted_by"] for line in p.arguments["lines"]] == ["E-1001", "E-1001"]
    discarded = {c["path"]: c["from"] for c in _fill_changes(p) if c["action"] == "discarded"}
    assert discarded == {"$.claim.org.org_id": 99, "$.lines[0].submitted_by": "E999"}


def test_an_absent_parent_object_is_not_created():
    tool = ToolContract(
        name="search_claims",
        parameters={
            "type": "object",
            "properties": {
                "filter": {
                    "type": "object",
                    "properties": {
                        "owner": {"type": "string", "x-injected": "session.employee_id"}
                    },
                }
            },
        },
    )
    p = _pipeline(tool).prepare(call("c1", "search_claims", {}))
    assert p.ok and p.arguments == {}


def test_missing_context_value_for_a_nested_field_names_its_path():
    p = _pipeline(context=SessionContext("employee", "x", {"org": {"id": 7}})).prepare(
        call("c1", "create_claim", {"claim": {"amount": 3}})
    )
    assert p.error is not None and p.error.code == "MISSING_CONTEXT_VALUE"
    assert p.error.details == {"field": "claim.employee_id", "context_path": "session.employee_id"}


@pytest.mark.parametrize(
    "parameters",
    [
        {  # a property schema under $defs: where it lands in the arguments is unknown
            "type": "object",
            "properties": {"claim": {"$ref": "#/$defs/claim"}},
            "$defs": {
                "claim": {
                    "type": "object",
                    "properties": {"employee_id": {"x-injected": "session.employee_id"}},
                }
            },
        },
        {  # x-injected that is not a context path
            "type": "object",
            "properties": {"employee_id": {"type": "string", "x-injected": True}},
        },
    ],
)
def test_an_injected_field_the_runtime_cannot_fill_refuses_the_call(parameters):
    tool = ToolContract(name="create_claim", parameters=parameters)
    p = _pipeline(tool).prepare(
        call("c1", "create_claim", {"claim": {"employee_id": "E999"}, "employee_id": "E999"})
    )
    assert p.error is not None and p.error.code == "INVALID_CONTRACT"
    assert not p.error.retryable
