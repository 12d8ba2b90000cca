"""The pipeline's fast path decides and words a call exactly as the long way does.

Issue 16: a call whose arguments are a JSON object is read by orjson, its top
level repaired by flat loops (:mod:`studio.runtime.call_plan`), and formats on
root properties checked beside the compiled validator
(:mod:`studio.runtime.format_split`). Each piece is compared here with what it
replaces; tests/runtime/test_pipeline_differential.py compares whole calls.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import jsonschema_rs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from registry_db import load_examples
from studio.contract import Registry, ToolContract
from studio.runtime import ArgumentPipeline, SessionContext
from studio.runtime.call_plan import parse_object
from studio.runtime.format_split import SplitFormats, root_property_formats
from studio.runtime.repair import parse_arguments
from studio.runtime.validators import _FORMATS, SchemaValidator
from studio.sessions.model import ToolCallPart

CONTEXT = SessionContext("employee", "reimbursement", {"employee_id": "E-1001"})


@pytest.fixture(scope="module")
def travel() -> ArgumentPipeline:
    registry = next(r for r in load_examples() if r.name == "travel-reimbursement")
    return ArgumentPipeline(registry, CONTEXT, "s")


def _walking(pipeline: ArgumentPipeline) -> ArgumentPipeline:
    """The same pipeline with every tool's plans removed: the schema walkers do it."""
    slow = ArgumentPipeline(pipeline.registry, pipeline.context, pipeline.session_id)
    for name, tool in slow.tools.items():
        slow.tools[name] = dataclasses.replace(
            tool, names=None, coercions=None, plan=None, fills=None
        )
    return slow


def _outcome(prepared: Any) -> Any:
    error = prepared.error.to_result() if prepared.error is not None else None
    return (
        json.dumps(prepared.arguments, ensure_ascii=False),  # the order of keys too
        [s.to_dict() for s in prepared.steps],
        error,
        prepared.idempotency_key,
    )


# -- parsing --------------------------------------------------------------------------------

TEXTS = [
    '{"a": 1}',
    ' {"a": [1, 2.5, -0.0, 1e-400, "x"]} ',
    '{"a": 1, "b": 2, "a": 3}',
    '{"n": 18446744073709551616}',
    '{"n": -9223372036854775809}',
    '{"n": [18446744073709551615, {"m": 123456789012345678901234567890}]}',
    '{"f": 1e19}',
    '{"x": NaN}',
    '{"x": Infinity}',
    '{"x": 1e400}',
    '{"s": "\\ud800"}',
    '{"s": "a\x01"}',
    "\ufeff{}",
    "{'a': 1}",
    '{"a": 1,}',
    '"{\\"a\\": 1}"',
    "[1]",
    "",
    "   ",
    "{}",
    '{"中文": "打车", "e": "\\u00e9"}',
]


@pytest.mark.parametrize("text", TEXTS)
def test_parse_object_reads_what_json_loads_reads(text: str) -> None:
    fast = parse_object(text)
    if fast is None:
        return  # the long way reads it
    value, repairs = parse_arguments(text)
    assert repairs == []
    assert json.dumps(fast) == json.dumps(value)
    assert [type(v) for v in fast.values()] == [type(v) for v in value.values()]


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=10,
)


@settings(max_examples=40, deadline=None)
@given(value=st.dictionaries(st.text(max_size=4), json_values, max_size=5))
def test_parse_object_on_generated_objects(value: dict[str, Any]) -> None:
    text = json.dumps(value, ensure_ascii=False)
    fast = parse_object(text)
    if fast is not None:
        assert repr(fast) == repr(json.loads(text))  # repr tells 1 from 1.0


# -- formats beside the compiled validator --------------------------------------------------


def test_formats_on_root_properties_are_split_and_others_are_not() -> None:
    date = {"type": "string", "format": "date"}
    assert root_property_formats({"properties": {"a": date, "b": {}}}) == {"a": "date"}
    assert root_property_formats({"type": "object"}) == {}
    assert root_property_formats({"properties": {"a": {"items": date}}}) is None
    assert root_property_formats({"properties": {"format": {"type": "string"}}}) is None
    assert root_property_formats({"anyOf": [date]}) is None
    assert root_property_formats({"format": "date"}) is None
    assert root_property_formats({"properties": {"a": {"format": 3}}}) is None
    assert root_property_formats({"$defs": {"d": date}, "properties": {"a": date}}) is None


SPLIT_SCHEMA = {
    "type": "object",
    "properties": {
        "day": {"type": "string", "format": "date"},
        "mail": {"type": ["string", "integer"], "format": "email"},
        "odd": {"type": ["string", "integer"]},
    },
    "required": ["day"],
}
SAMPLES = [
    "2024-05-01",
    "0000-01-01",
    "2024-02-30",
    "x@example.com",
    "not mail",
    "",
    3,
    None,
]


def test_split_formats_answer_as_the_compiled_validator_with_formats() -> None:
    validator = SchemaValidator(SPLIT_SCHEMA)
    assert isinstance(validator._fast, SplitFormats)
    full = jsonschema_rs.Draft202012Validator(SPLIT_SCHEMA, validate_formats=True, formats=_FORMATS)
    for day in SAMPLES:
        for mail in SAMPLES:
            for odd in ("2024-13-01", 5):
                value = {"day": day, "mail": mail, "odd": odd}
                for _ in range(2):  # the second time from the remembered verdicts
                    assert validator._fast.is_valid(value) == full.is_valid(value), value
    assert validator._fast.is_valid("not an object") == full.is_valid("not an object")
    unknown = {"properties": {"a": {"format": "not-a-format"}}}
    assert not isinstance(SchemaValidator(unknown)._fast, SplitFormats)


def test_the_typical_tool_validates_without_calling_back(travel: ArgumentPipeline) -> None:
    assert isinstance(travel.tools["query_invoices"].validator._fast, SplitFormats)


# -- whole calls ----------------------------------------------------------------------------

CALLS = [
    {"startDate": "2024-05-01", "to": "2024-05-10", "类别": "打车", "employee_id": "E-9"},
    {"start_date": "2024-05-01", "end_date": "2024-05-10", "category": "taxi"},
    {"start_date": "2024-05-01", "startDate": "2024-05-02", "end_date": "2024-05-10"},
    {"START_DATE": "2024-05-01", "end_date": "2024-5-10", "category": "Hotel"},
    {"start_date": 20240501, "end_date": ["2024-05-10"], "category": "boat"},
    {"start_date": "2024-05-01", "end_date": "2024-05-10", "extra": {"a": [1, 2]}},
]


@pytest.mark.parametrize("arguments", CALLS)
def test_planned_calls_match_the_walk(travel: ArgumentPipeline, arguments: dict[str, Any]) -> None:
    call = ToolCallPart("c1", "query_invoices", json.dumps(arguments, ensure_ascii=False))
    fast, slow = travel.prepare(call), _walking(travel).prepare(call)
    assert _outcome(fast) == _outcome(slow)
    assert fast.parsed == arguments  # what the model sent stays as sent


def test_a_valid_call_notes_only_the_injection(travel: ArgumentPipeline) -> None:
    call = ToolCallPart("c1", "query_invoices", json.dumps(CALLS[1]))
    prepared = travel.prepare(call)
    assert prepared.ok
    changed = {s.name: s.changes for s in prepared.steps if s.changes}
    assert list(changed) == ["defaults_and_injected"]
    assert [c["action"] for c in changed["defaults_and_injected"]] == ["injected"]
    assert prepared.arguments == {**CALLS[1], "employee_id": "E-1001"}


NESTED = {
    "type": "object",
    "properties": {
        "claim": {
            "type": "object",
            "properties": {
                "amount": {"type": "number", "x-aliases": ["amt"]},
                "who": {"type": "string", "x-injected": "session.employee_id"},
            },
        },
        "lines": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}},
        "n": {"type": "integer", "default": 2},
    },
}


@pytest.fixture(scope="module")
def claims() -> ArgumentPipeline:
    tool = ToolContract("file_claim", parameters=NESTED)
    return ArgumentPipeline(Registry("r", tools=(tool,)), CONTEXT, "s")


@pytest.mark.parametrize(
    "arguments",
    [
        {"claim": {"amt": "3.5", "who": "x"}, "lines": ["A", "b"]},
        {"Claim": {"amount": 1}, "N": "4"},
        {"lines": "a"},
        {"claim": {"amount": 1}, "lines": ["c"], "n": 2.0},
    ],
)
def test_nested_schemas_match_the_walk(claims: ArgumentPipeline, arguments: dict[str, Any]) -> None:
    call = ToolCallPart("c1", "file_claim", json.dumps(arguments))
    assert _outcome(claims.prepare(call)) == _outcome(_walking(claims).prepare(call))


def test_nested_values_are_copied_not_shared(claims: ArgumentPipeline) -> None:
    call = ToolCallPart("c1", "file_claim", json.dumps({"claim": {"amount": 1}, "lines": ["a"]}))
    prepared = claims.prepare(call)
    assert prepared.ok, prepared.error
    assert prepared.parsed == {"claim": {"amount": 1}, "lines": ["a"]}  # as the model sent it
    assert prepared.arguments["claim"] == {"amount": 1, "who": "E-1001"}
    assert prepared.arguments["lines"] is not prepared.parsed["lines"]


# -- plans compiled once per parameters ------------------------------------------------------


def test_pipelines_share_the_plans_of_equal_parameters(travel: ArgumentPipeline) -> None:
    again = ArgumentPipeline(travel.registry, CONTEXT, "other")
    first, second = travel.tools["query_invoices"], again.tools["query_invoices"]
    assert first is not second  # each pipeline has its own tools (and permission memo)
    assert first.plan is second.plan and first.validator is second.validator


def test_parameters_writing_the_same_json_but_unequal_are_not_shared() -> None:
    listed = {
        "type": "object",
        "properties": {"k": {"enum": ["a", "b"], "x-enum-aliases": {"A": "a"}}},
    }
    tupled = {
        "type": "object",
        "properties": {"k": {"enum": ("a", "b"), "x-enum-aliases": {"A": "a"}}},
    }
    registry = Registry("r", tools=(ToolContract("t", parameters=listed),))
    other = Registry("r", tools=(ToolContract("t", parameters=tupled),))
    first = ArgumentPipeline(registry, CONTEXT, "s").tools["t"]
    second = ArgumentPipeline(other, CONTEXT, "s").tools["t"]
    assert first.names is not second.names
    call = ToolCallPart("c1", "t", '{"k": "A"}')
    assert ArgumentPipeline(registry, CONTEXT, "s").prepare(call).arguments == {"k": "a"}


def test_remembered_words_are_copied_into_each_result(travel: ArgumentPipeline) -> None:
    call = ToolCallPart("c1", "query_invoices", json.dumps(CALLS[0], ensure_ascii=False))
    first = travel.prepare(call)
    first.steps[2].changes[0]["reason"] = "changed by a reader"
    second = travel.prepare(call)
    assert second.steps[2].changes[0]["reason"] == "'startDate' is an alias of 'start_date'"
    assert _outcome(second) == _outcome(_walking(travel).prepare(call))


def test_an_enum_synonym_found_ignoring_case_names_its_value() -> None:
    parameters = {
        "type": "object",
        "properties": {"k": {"enum": ["taxi", "bus"], "x-enum-aliases": {"taxi_x": "taxi"}}},
    }
    registry = Registry("r", tools=(ToolContract("t", parameters=parameters),))
    prepared = ArgumentPipeline(registry, CONTEXT, "s").prepare(
        ToolCallPart("c1", "t", '{"k": "Taxi_X"}')
    )
    assert prepared.arguments == {"k": "taxi"}
    [change] = [c for step in prepared.steps for c in step.changes if c.get("action") == "mapped"]
    assert change["reason"] == "'Taxi_X' is an enum alias of 'taxi'"
