"""The compiled validator and the planned pipeline decide and word exactly as before.

Issue 16 moved argument validation onto ``jsonschema-rs`` and the alias/coerce
steps onto per-tool plans. The reference is the previous code path: the Python
validator (``BoundedValidator``) for every value and the schema walkers
(``_map_names``, ``coerce``). A corpus of schemas × generated values must give
the same accept/reject decision, the same messages at the same paths, and the
same prepared calls.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from registry_db import load_examples
from studio.contract import Registry, ToolContract
from studio.contract.patterns import BoundedValidator
from studio.runtime import ArgumentPipeline, SessionContext
from studio.runtime.validators import SchemaValidator, is_plain_json
from studio.sessions.model import ToolCallPart

SCHEMAS: list[dict[str, Any]] = [
    {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "string"}}},
    {
        "type": "object",
        "properties": {
            "start": {"type": "string", "format": "date"},
            "end": {"type": "string", "format": "date"},
            "kind": {"type": "string", "enum": ["taxi", "hotel", "train"]},
            "who": {"type": "string"},
        },
        "required": ["start", "end"],
        "additionalProperties": False,
    },
    {"type": "string", "format": "email"},
    {"type": "string", "format": "ipv4"},
    {"type": "string", "format": "ipv6"},
    {"type": "string", "format": "uuid"},
    {"type": "string", "format": "date-time"},
    {"type": "string", "format": "uri"},
    {"type": "string", "format": "hostname"},
    {"type": "string", "format": "regex"},
    {"type": "string", "minLength": 2, "maxLength": 4},
    {"type": "number", "minimum": 0, "exclusiveMaximum": 100},
    {"type": "integer", "maximum": 2**53, "minimum": -(2**63)},
    {"type": ["integer", "null"], "exclusiveMinimum": 0},
    {"type": "array", "items": {"type": "string"}, "minItems": 1, "uniqueItems": True},
    {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}], "items": False},
    {"type": "array", "contains": {"type": "integer"}, "maxContains": 2},
    {"anyOf": [{"type": "string"}, {"type": "integer", "minimum": 3}]},
    {"oneOf": [{"type": "number"}, {"type": "integer"}]},
    {"allOf": [{"type": "object"}, {"required": ["a"]}], "not": {"required": ["b"]}},
    {
        "type": "object",
        "if": {"properties": {"a": {"const": 1}}},
        "then": {"required": ["b"]},
        "else": {"required": ["c"]},
    },
    {"type": "object", "dependentRequired": {"a": ["b"]}, "propertyNames": {"maxLength": 3}},
    {
        "type": "object",
        "properties": {"a": {"type": "integer"}},
        "unevaluatedProperties": False,
        "minProperties": 1,
    },
    {
        "$defs": {"pos": {"type": "integer", "minimum": 1}},
        "type": "object",
        "properties": {
            "a": {"$ref": "#/$defs/pos"},
            "b": {"type": "array", "items": {"$ref": "#/$defs/pos"}},
        },
        "additionalProperties": {"type": "boolean"},
    },
    {"const": {"a": [1, 2.0, None]}},
    {"enum": [1, "1", True, None, [1], {"a": 1}]},
    {
        "type": "object",
        "properties": {
            "a": {"type": "object", "properties": {"b": {"type": "boolean"}}, "required": ["b"]}
        },
    },
    # Schemas the compiled path stands aside for: the decision is Python's alone.
    {"type": "string", "pattern": "^\\d+$"},
    {"type": "number", "multipleOf": 0.1},
    {
        "type": "object",
        "patternProperties": {"^x": {"type": "integer"}},
        "additionalProperties": False,
    },
]

KEYS = ["a", "b", "c", "start", "end", "kind", "who", "x1", "long_name", "ab"]
STRINGS = [
    "",
    "a",
    "ab",
    "abcde",
    "2024-05-01",
    "0000-01-01",
    "2024-02-30",
    "2024-5-1",
    "２０２４-01-01",
    "x@example.com",
    "not an email",
    "192.168.0.1",
    "256.1.1.1",
    "::1",
    "123e4567-e89b-12d3-a456-426614174000",
    "2024-05-01T10:00:00Z",
    "http://example.com/a",
    "example.com",
    "(unclosed",
    "١٢٣",
    "123",
    "taxi",
    "TAXI",
    "打车",
    "\ud800",
]
NUMBERS = [
    0,
    1,
    -1,
    3,
    2**53,
    2**53 + 1,
    2**63,
    -(2**63) - 1,
    10**30,
    0.1,
    0.3,
    3.0,
    99.99,
    100,
    1e308,
]

scalars = (
    st.none()
    | st.booleans()
    | st.sampled_from(NUMBERS)
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from(STRINGS)
    | st.text(max_size=6)
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=3), inner, max_size=5)
    ),
    max_leaves=12,
)


def _words(errors: Any) -> Any:
    """Sorted (path, message) pairs, or the exception the validation raised."""
    try:
        ordered = sorted(errors(), key=lambda e: list(e.absolute_path))
    except Exception as exc:  # e.g. RE2 cannot encode a lone surrogate (both paths raise)
        return type(exc)
    return [(list(e.absolute_path), e.message) for e in ordered]


def _reference(schema: dict[str, Any], value: Any) -> Any:
    """What validation said before issue 16: the Python validator's sorted errors."""
    validator = BoundedValidator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)
    return _words(lambda: validator.iter_errors(value))


_COMPILED = [SchemaValidator(schema) for schema in SCHEMAS]


def test_most_of_the_corpus_runs_compiled() -> None:
    compiled = [v.compiled for v in _COMPILED]
    assert compiled[-3:] == [False, False, False]
    assert all(compiled[:-3])


@pytest.mark.parametrize("index", range(len(SCHEMAS)))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=values)
def test_same_decision_and_messages_as_the_python_validator(index: int, value: Any) -> None:
    schema, validator = SCHEMAS[index], _COMPILED[index]
    expected = _reference(schema, value)
    assert _words(lambda: validator.iter_errors(value)) == expected
    if is_plain_json(value):
        assert _words(lambda: validator.errors_of_plain(value)) == expected


EDGE_VALUES = [*STRINGS, *NUMBERS, None, True, [], {}, (1, 2), [1, 1.0], {"a": 1, "b": "x"}]


@pytest.mark.parametrize("index", range(len(SCHEMAS)))
def test_edge_values(index: int) -> None:
    for value in EDGE_VALUES:
        got = _words(lambda: _COMPILED[index].iter_errors(value))  # noqa: B023
        assert got == _reference(SCHEMAS[index], value), value


# -- the whole pipeline: plans and compiled validation against the schema walkers ----------

CONTEXT = SessionContext("employee", "reimbursement", {"employee_id": "E-1001"})


def _big_tool() -> ToolContract:
    props: dict[str, Any] = {
        f"field_{i}": {"type": "string", "x-aliases": [f"f{i}", f"Field{i}"]} for i in range(6)
    }
    props |= {f"count_{i}": {"type": "integer", "minimum": 0, "default": i} for i in range(4)}
    props["nested"] = {
        "type": "object",
        "properties": {
            f"k{i}": {
                "type": "array",
                "items": {"type": "string", "enum": ["a", "b", "c"], "x-enum-aliases": {"A": "a"}},
            }
            for i in range(3)
        },
    }
    props["flag"] = {"type": "boolean"}
    props["ratio"] = {"type": ["number", "null"]}
    props["tags"] = {"type": "array", "items": {"type": "string"}}
    props["who"] = {"type": "string", "x-injected": "session.employee_id"}
    parameters = {"type": "object", "properties": props, "required": ["field_0"]}
    return ToolContract("create_big_thing", parameters=parameters)


def _registries() -> list[Registry]:
    return [*load_examples(), Registry("big", tools=(_big_tool(),))]


def _reference_pipeline(registry: Registry) -> ArgumentPipeline:
    """The pipeline as it ran before: schema walkers and the Python validator only."""
    pipeline = ArgumentPipeline(registry, CONTEXT, "s")
    for name, tool in pipeline.tools.items():
        python_only = SchemaValidator(tool.schema)
        python_only._fast = None
        pipeline.tools[name] = dataclasses.replace(
            tool, names=None, coercions=None, validator=python_only
        )
    return pipeline


_PIPELINES = [(ArgumentPipeline(r, CONTEXT, "s"), _reference_pipeline(r)) for r in _registries()]
_CALLS = [
    (i, name, json.dumps(tool.contract.examples[0].arguments) if tool.contract.examples else "{}")
    for i, (pipeline, _) in enumerate(_PIPELINES)
    for name, tool in pipeline.tools.items()
]

argument_keys = st.sampled_from(
    ["startDate", "start_date", "to", "End_Date", "类别", "category", "employee_id", "f1",
     "Field2", "field_0", "count_1", "COUNT_2", "nested", "flag", "ratio", "tags", "who",
     "invoice_ids", "reason", "amount", "order_id", "query"]
)  # fmt: skip
argument_values = st.recursive(
    scalars | st.sampled_from(["3", " 7 ", "true", "False", "1.5", "[1]", '["a"]', "{}", "A"]),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(["k0", "k1", "a"]) | argument_keys, inner, max_size=3)
    ),
    max_leaves=8,
)


def _outcome(prepared: Any) -> Any:
    error = prepared.error.to_result() if prepared.error is not None else None
    return (
        prepared.arguments,
        [s.to_dict() for s in prepared.steps],
        error,
        prepared.idempotency_key,
    )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    which=st.integers(min_value=0, max_value=len(_CALLS) - 1),
    arguments=st.dictionaries(argument_keys, argument_values, max_size=6),
    keep_example=st.booleans(),
)
def test_the_pipeline_prepares_calls_as_before(
    which: int, arguments: dict[str, Any], keep_example: bool
) -> None:
    index, name, example = _CALLS[which]
    new, old = _PIPELINES[index]
    if keep_example:
        arguments = {**json.loads(example), **arguments}
    try:
        raw = json.dumps(arguments, ensure_ascii=False)
    except (ValueError, UnicodeEncodeError):
        raw = arguments  # type: ignore[assignment]
    call = ToolCallPart("c1", name, raw)
    assert _prepare(new, call) == _prepare(old, call)


def _prepare(pipeline: ArgumentPipeline, call: ToolCallPart) -> Any:
    try:
        return _outcome(pipeline.prepare(call, message_id="3"))
    except Exception as exc:  # the same failure on both paths is no difference
        return type(exc)
