"""The first error of a value judged without jsonschema is the validator's own."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from studio.lint.rules import schema as schema_rules
from studio.lint.rules._schema_errors import DRAFT_2020_12_KEYWORDS, UNDECIDED, top_level_error


def _validator_error(schema: dict[str, Any], value: Any) -> str | None:
    """``_first_error`` as it was: always the bounded jsonschema validator."""
    from studio.contract.patterns import BoundedValidator

    try:
        validator = BoundedValidator(schema_rules._strip_extensions(schema))
        error = next(iter(validator.iter_errors(value)), None)
    except Exception:
        return None
    if error is None:
        return None
    where = ".".join(str(p) for p in error.absolute_path)
    message = schema_rules._error_text(error)
    return f"{where}: {message}" if where else message


def test_the_keyword_list_is_the_validators() -> None:
    from jsonschema import Draft202012Validator

    assert set(Draft202012Validator.VALIDATORS) == DRAFT_2020_12_KEYWORDS


SCHEMAS: list[dict[str, Any]] = [
    {"type": "string"},
    {"type": "integer"},
    {"type": "number"},
    {"type": "boolean"},
    {"type": "null"},
    {"type": "object"},
    {"type": "array"},
    {"type": ["string", "null"]},
    {"type": []},
    {"type": "date"},
    {"type": "string", "enum": ["a", "b"]},
    {"enum": ["a", 1, None, True], "type": "integer"},
    {"enum": [1.0, False]},
    {"enum": [[1], {"a": 1}]},
    {"enum": "ab"},
    {"const": 0},
    {"const": False},
    {"const": [1]},
    {"type": "integer", "minimum": 0, "maximum": 10},
    {"exclusiveMinimum": 0, "exclusiveMaximum": 1.5, "type": "number"},
    {"minimum": "0"},
    {"multipleOf": 2},
    {"type": "string", "minLength": 2, "pattern": "^a", "format": "email"},
    {"type": "array", "items": {"type": "string", "enum": ["x"]}},
    {"items": {"type": "array", "items": {"type": "integer"}}},
    {"type": "array", "prefixItems": [{"type": "string"}], "items": {"type": "integer"}},
    {"type": "array", "minItems": 1, "uniqueItems": True},
    {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
    {"anyOf": [{"type": "string"}, {"type": "null"}]},
    {"$ref": "#/$defs/x", "$defs": {"x": {"type": "string"}}},
    {"optional": True, "type": "string", "x-note": 1},
    {"not": {"type": "string"}},
]

VALUES: list[Any] = [
    None, True, False, 0, 1, 1.0, 1.5, -3, 12, "", "a", "x", "ab", "MT10",
    [], [1], ["x"], ["x", "y"], [[1], [2.0]], [[1], ["a"]], {}, {"a": "b"}, {"a": 1},
]  # fmt: skip


@pytest.mark.parametrize("schema", SCHEMAS, ids=[str(i) for i in range(len(SCHEMAS))])
def test_a_decided_error_is_the_validators(schema: dict[str, Any]) -> None:
    for value in VALUES:
        quick = top_level_error(schema, value)
        if quick is not UNDECIDED:
            assert quick == _validator_error(schema, value), (schema, value)


def test_common_wrong_defaults_are_decided() -> None:
    decided = [
        ({"type": "string"}, None),
        ({"type": "string", "enum": ["a"]}, "b"),
        ({"type": "array", "items": {"type": "string"}, "enum": ["a"]}, []),
        ({"type": "integer", "minimum": -12, "maximum": 12}, 0),
        ({"type": "array", "items": {"type": "integer"}}, [1, "2"]),
    ]
    for schema, value in decided:
        assert top_level_error(schema, value) is not UNDECIDED, (schema, value)
    assert top_level_error({"type": "array", "items": {"type": "integer"}}, [1, "2"]) == (
        '1: "2" is not of type "integer"'
    )


def test_first_error_agrees_on_every_pair() -> None:
    for schema, value in itertools.product(SCHEMAS, VALUES):
        assert schema_rules._first_error(schema, value) == _validator_error(schema, value), (
            schema,
            value,
        )
