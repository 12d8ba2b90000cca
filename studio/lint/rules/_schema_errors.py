"""The first validation error of a value at the top of its schema, without jsonschema.

``schema-invalid-default`` reports the first error jsonschema's Draft 2020-12
validator finds in a default or an example. Most wrong defaults are wrong at
the top: ``null`` for a string, a word outside the enum. Importing jsonschema
(with referencing and attrs: ~50 ms, a twentieth of a 2,000-tool lint's own
rules) and building a validator per value only to say that was most of the
rule's cost. :func:`top_level_error` says it the same way for the schemas whose
every keyword it can judge exactly; for anything else it answers
:data:`UNDECIDED` and the caller runs the validator.

The judgement follows jsonschema 4.x: its validator runs the schema's keywords
in the schema's order and yields the errors of each in turn, so the first error
is the first failing keyword's. Keywords it does not know are skipped; so is
``format`` (no format checker is given); a keyword of another instance type
(``properties`` for a string, ``minLength`` for a number) yields nothing. Only
``type``, ``enum`` and ``const`` failures are spelled here (as
:func:`studio.lint.rules.schema._error_text` spells them); every other failure,
and every keyword whose outcome needs more than a look at the value
(``$ref``, ``allOf``, ``pattern``…), is left undecided.
"""

from __future__ import annotations

from typing import Any, Final

from studio.lint.rules._common import json_repr


class _Undecided:
    """The answer "run the validator"."""


UNDECIDED: Final = _Undecided()

DRAFT_2020_12_KEYWORDS: Final = frozenset((
    "$dynamicRef", "$ref", "additionalProperties", "allOf", "anyOf", "const", "contains",
    "dependentRequired", "dependentSchemas", "enum", "exclusiveMaximum", "exclusiveMinimum",
    "format", "if", "items", "maxItems", "maxLength", "maxProperties", "maximum", "minItems",
    "minLength", "minProperties", "minimum", "multipleOf", "not", "oneOf", "pattern",
    "patternProperties", "prefixItems", "properties", "propertyNames", "required", "type",
    "unevaluatedItems", "unevaluatedProperties", "uniqueItems",
))  # fmt: skip
"""The keywords ``Draft202012Validator`` validates (its ``VALIDATORS``; a test keeps
them equal). Any other key of a schema is skipped by the validator."""

_OBJECT_ONLY: Final = frozenset((
    "additionalProperties", "dependentRequired", "dependentSchemas", "maxProperties",
    "minProperties", "patternProperties", "properties", "propertyNames", "required",
    "unevaluatedProperties",
))  # fmt: skip
_ARRAY_ONLY: Final = frozenset((
    "contains", "items", "maxItems", "minItems", "prefixItems", "unevaluatedItems",
    "uniqueItems",
))  # fmt: skip
_STRING_ONLY: Final = frozenset(("maxLength", "minLength", "pattern"))
_NUMBER_ONLY: Final = frozenset(
    ("exclusiveMaximum", "exclusiveMinimum", "maximum", "minimum", "multipleOf")
)
"""Keywords whose jsonschema function returns at once for an instance of another type."""

_SCALARS: Final = (str, bool, int, float, type(None))
_JSON_TYPES: Final = frozenset((*_SCALARS, dict, list))


def _is_type(value: Any, name: str) -> bool | None:
    """jsonschema's Draft 2020-12 type check for a decoded JSON value; None: unknown type."""
    kind = type(value)
    if name == "string":
        return kind is str
    if name == "object":
        return kind is dict
    if name == "array":
        return kind is list
    if name == "boolean":
        return kind is bool
    if name == "null":
        return value is None
    if name == "number":
        return kind is int or kind is float
    if name == "integer":
        return kind is int or (kind is float and value.is_integer())
    return None


def _same(one: Any, two: Any) -> bool | None:
    """jsonschema's ``equal`` where a scalar is involved (True is not 1); None: two containers.

    A scalar never equals an array or an object: ``equal`` compares a string
    with ``==`` and anything else unbooled with ``==``, false for a container.
    """
    one_scalar = type(one) in _SCALARS
    two_scalar = type(two) in _SCALARS
    if not (one_scalar and two_scalar):
        if one_scalar or two_scalar:
            return False if type(one) in _JSON_TYPES and type(two) in _JSON_TYPES else None
        return None
    if one is two:
        return True
    if type(one) is bool or type(two) is bool:
        return False  # both bools would be the same object
    return bool(one == two)


def top_level_error(schema: dict[str, Any], value: Any) -> str | _Undecided | None:
    """The first error the validator would report for ``value``, when judged here.

    Args:
        schema: The schema (``x-`` keys are skipped, as the caller strips them).
        value: A decoded JSON value.

    Return:
        None when the value is valid, the error text (as the caller words a
        validator's error: ``where: message``, the bare message at the top)
        when it is not, or :data:`UNDECIDED` when the validator must decide.
    """
    found = _first(schema, value)
    if found is None or isinstance(found, _Undecided):
        return found
    path, message = found
    return f"{'.'.join(path)}: {message}" if path else message


_Found = tuple[tuple[str, ...], str] | _Undecided | None


def _first(schema: dict[str, Any], value: Any) -> _Found:
    kind = type(value)
    if kind not in _JSON_TYPES:
        return UNDECIDED
    for key, sub in schema.items():
        if type(key) is not str or key.startswith("x-") or key not in DRAFT_2020_12_KEYWORDS:
            continue
        if key == "format":
            continue  # validated only with a format checker, and none is given
        if key == "type":
            names = sub if type(sub) is list else [sub]
            known = [_is_type(value, n) if type(n) is str else None for n in names]
            if None in known:
                return UNDECIDED  # an unknown type makes the validator raise
            if not any(known):
                return (), f"{json_repr(value)} is not of type {json_repr(sub)}"
        elif key == "enum":
            if type(sub) is not list:
                return UNDECIDED
            matches = [_same(each, value) for each in sub]
            if None in matches:
                return UNDECIDED
            if not any(matches):
                return (), f"{json_repr(value)} is not one of {json_repr(sub)}"
        elif key == "const":
            same = _same(value, sub)
            if same is None:
                return UNDECIDED
            if not same:
                return (), f"{json_repr(value)} is not {json_repr(sub)}"
        elif key == "items" and kind is list:
            if type(sub) is not dict or "prefixItems" in schema:
                return UNDECIDED
            for index, item in enumerate(value):
                inner = _first(sub, item)
                if inner is not None:
                    if isinstance(inner, _Undecided):
                        return inner
                    return (str(index), *inner[0]), inner[1]
        elif key in _BOUNDS and (kind is int or kind is float):
            if not _within(key, sub, value):
                return UNDECIDED  # the validator words this one
        elif key in _OBJECT_ONLY:
            if kind is dict:
                return UNDECIDED
        elif key in _ARRAY_ONLY:
            if kind is list:
                return UNDECIDED
        elif key in _STRING_ONLY:
            if kind is str:
                return UNDECIDED
        elif key in _NUMBER_ONLY:
            if kind is int or kind is float:
                return UNDECIDED
        else:  # $ref, allOf, anyOf, oneOf, not, if…: other schemas decide
            return UNDECIDED
    return None


_BOUNDS: Final = frozenset(("exclusiveMaximum", "exclusiveMinimum", "maximum", "minimum"))


def _within(key: str, bound: Any, value: int | float) -> bool:
    """Whether a number passes a bound keyword (False also when the bound is no number)."""
    if type(bound) is not int and type(bound) is not float:
        return False
    if key == "minimum":
        return bool(value >= bound)
    if key == "maximum":
        return bool(value <= bound)
    if key == "exclusiveMinimum":
        return bool(value > bound)
    return bool(value < bound)
