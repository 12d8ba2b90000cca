"""The plain look at a parameter schema never calls an invalid schema valid.

``_plain_look`` lets most schemas skip the metaschema validator (and its
import); where it says valid, jsonschema-rs must agree, on public tools'
schemas and on generated ones mixing every keyword with values of every kind.
It also tells whether a subschema has ``x-injected``, for the check of where
injected properties may be: that check must find them wherever they hide.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from studio.contract.schema_checks import (
    _NOT_PLAIN,
    _PLAIN_KEYWORDS,
    _fast_validator,
    _plain_look,
    check_parameters,
)


def _plainly_valid(schema: dict[str, Any]) -> bool:
    return _plain_look(schema) != _NOT_PLAIN


# Keywords the plain look leaves to the validator, and keys the metaschema ignores.
_OTHER_KEYS = ["$id", "$anchor", "dependentRequired", "if", "contains", "x-aliases", "optional"]


def _value(rng: random.Random, depth: int) -> Any:
    pick = rng.randrange(12)
    if pick == 0:
        return rng.choice(["string", "object", "integer", "zzz", "", "#a"])
    if pick == 1:
        return rng.choice([0, 1, -1, 2**70])
    if pick == 2:
        return rng.choice([0.0, 1.5, -2.5])
    if pick == 3:
        return rng.choice([True, False, None])
    if pick == 4:
        return [rng.choice(["a", "b", "null", "string"]) for _ in range(rng.randrange(4))]
    if pick == 5:
        return [_value(rng, depth + 1) for _ in range(rng.randrange(3))] if depth < 3 else []
    if pick == 6:
        return (
            {rng.choice("abc"): _schema(rng, depth + 1) for _ in range(rng.randrange(3))}
            if depth < 3
            else {}
        )
    if pick == 7:
        return [_schema(rng, depth + 1) for _ in range(rng.randrange(3))] if depth < 3 else [{}]
    return _schema(rng, depth + 1) if depth < 3 else True


def _schema(rng: random.Random, depth: int = 0) -> Any:
    if depth and rng.random() < 0.1:
        return rng.choice([True, False])
    keys = [*_PLAIN_KEYWORDS, *_OTHER_KEYS]
    return {rng.choice(keys): _value(rng, depth) for _ in range(rng.randrange(5))}


def test_generated_schemas_called_valid_are_valid() -> None:
    rng = random.Random(11)
    validator = _fast_validator()
    shown = 0
    for _ in range(4000):
        schema = _schema(rng)
        if _plainly_valid(schema):
            shown += 1
            assert validator.is_valid(schema), schema
    assert shown > 500  # the generator reaches the plain case often enough to mean something


@pytest.mark.parametrize(
    "schema",
    [
        {"type": ["string", "string"]},
        {"type": []},
        {"type": "date"},
        {"required": ["a", "a"]},
        {"required": "a"},
        {"maxLength": -1},
        {"maxLength": True},
        {"minimum": True},
        {"anyOf": []},
        {"items": [{}]},
        {"properties": {"a": 1}},
        {"description": 1},
        {"enum": "a"},
        {"uniqueItems": 1},
        {"$id": "#frag"},
        {"definitions": {"a": {"type": "zzz"}}},
    ],
)
def test_invalid_schemas_still_reach_the_validator(schema: dict[str, Any]) -> None:
    assert not _plainly_valid({"type": "object", "properties": {"p": schema}})
    problems = check_parameters({"type": "object", "properties": {"p": schema}}, "parameters")
    assert problems


def test_unknown_keys_are_free_and_booleans_are_schemas() -> None:
    schema = {
        "type": "object",
        "properties": {"a": True, "b": {"x-foo": {"type": "zzz"}, "optional": 3}},
        "additionalProperties": False,
        "required": ["a"],
    }
    assert _plainly_valid(schema)
    assert check_parameters(schema, "parameters") == []


@pytest.mark.parametrize(
    "where",
    ["$defs", "definitions", "patternProperties", "additionalProperties", "not", "items"],
)
def test_unreachable_injections_are_found_in_plain_and_other_schemas(where: str) -> None:
    injected = {"type": "object", "properties": {"who": {"x-injected": "session.user_id"}}}
    inner = {"k": injected} if where in ("$defs", "definitions", "patternProperties") else injected
    plain = {"type": "object", "properties": {}, where: inner}
    other = {**plain, "if": {"type": "object"}}  # "if" is left to the validator
    assert _plainly_valid(plain)
    assert not _plainly_valid(other)
    for schema in (plain, other):
        found = [p.path for p in check_parameters(schema, "parameters") if "injected" in p.message]
        assert (found != []) == (where != "items"), (where, found)
