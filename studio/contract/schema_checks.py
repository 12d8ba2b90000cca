"""Checks of a tool's ``parameters`` schema: 2020-12 metaschema plus our extensions."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from typing import Any

from studio.contract.model import injected_fields
from studio.contract.problems import Problem, join_path, json_kind

JSON_SCHEMA_TYPES = ("array", "boolean", "integer", "null", "number", "object", "string")
INJECTED_PATTERN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+$")


@cache
def _fast_validator() -> Any:
    """The metaschema validator that answers "valid?" (Rust), built on first use.

    The pure-Python metaschema check costs ~1.5 ms per tool (mostly $dynamicRef
    resolution), which makes importing 10,000 tools take 20 s. The Rust validator
    answers in microseconds; only an invalid schema pays for the Python validator
    (:func:`_python_validator`), whose errors carry the paths and wording we
    report. The metaschema is jsonschema-rs's built-in copy, by ``$ref``: taking
    it from jsonschema would import that (~0.1 s, a fifth of a small ``studio
    lint``) for tools that are all valid.
    """
    import jsonschema_rs

    return jsonschema_rs.Draft202012Validator({"$ref": _METASCHEMA_2020_12})


@cache
def _python_validator() -> Any:
    """The metaschema validator whose errors we word (jsonschema, imported on first use)."""
    from jsonschema import Draft202012Validator

    return Draft202012Validator(Draft202012Validator.META_SCHEMA)


_METASCHEMA_2020_12 = "https://json-schema.org/draft/2020-12/schema"


def check_parameters(schema: Any, path: str) -> list[Problem]:
    """All problems of a tool's parameter schema.

    Args:
        schema: The ``parameters`` value as found in the document.
        path: JSON path of ``schema`` in the document, e.g. ``tools[2].parameters``.

    Return:
        Problems in document order; empty when the schema is usable.
    """
    if not isinstance(schema, dict):
        return [Problem(path, f"must be a JSON Schema object, not {json_kind(schema)}")]
    look = _plain_look(schema)
    problems = [] if look != _NOT_PLAIN else list(_metaschema_problems(schema, path))
    if schema.get("type") != "object":
        problems.append(Problem(join_path(path, "type"), "the root of parameters must be 'object'"))
    problems.extend(_walk_objects(schema, path))
    # Most schemas inject nothing: no second walk with paths. The plain look
    # saw every subschema that walk could reach.
    injecting = look == _INJECTING if look != _NOT_PLAIN else _has_key(schema, "x-injected")
    if injecting:
        problems.extend(
            Problem(
                join_path(f.json_path, "x-injected"),
                "an injected property must be reached through properties, items, anyOf, oneOf "
                "or allOf (not $defs, patternProperties, additionalProperties …): the runtime "
                "could not fill it",
            )
            for f in injected_fields(schema, path)
            if not f.reachable
        )
    return problems


def _has_key(schema: dict[str, Any], key: str) -> bool:
    """Whether any object in ``schema`` (through objects and arrays of objects) has ``key``.

    It reaches every node :func:`~studio.contract.model.injected_fields` walks
    (and more), with no JSON paths to build: a cheap "nothing to find" before it.
    """
    stack = [schema]
    while stack:
        node = stack.pop()
        if key in node:
            return True
        for value in node.values():
            if isinstance(value, dict):
                stack.append(value)
            elif isinstance(value, list):
                stack.extend([x for x in value if isinstance(x, dict)])
    return False


def check_output_schema(schema: Any, path: str) -> list[Problem]:
    """All problems of a tool's ``output_schema`` (MCP ``outputSchema``).

    The 2020-12 metaschema, and an ``object`` root: MCP's structured content is
    always a JSON object. The ``x-`` extensions of parameters mean nothing here.

    Args:
        schema: The ``output_schema`` value as found in the document.
        path: JSON path of ``schema`` in the document, e.g. ``tools[2].output_schema``.
    """
    if not isinstance(schema, dict):
        return [Problem(path, f"must be a JSON Schema object, not {json_kind(schema)}")]
    plain = _plain_look(schema) != _NOT_PLAIN
    problems = [] if plain else list(_metaschema_problems(schema, path))
    if schema.get("type") != "object":
        problems.append(
            Problem(join_path(path, "type"), "the root of an output schema must be 'object'")
        )
    return problems


def _metaschema_problems(schema: dict[str, Any], path: str) -> Iterator[Problem]:
    try:
        if _fast_validator().is_valid(schema):
            return
    except (ValueError, OverflowError, TypeError):
        pass  # e.g. integers beyond 64 bits: let the Python validator judge
    python = _python_validator()
    for error in sorted(python.iter_errors(schema), key=lambda e: list(map(str, e.path))):
        where = join_path(path, *error.absolute_path)
        yield Problem(where, _explain(error))


_SIMPLE_TYPES = frozenset(JSON_SCHEMA_TYPES)

# The keywords of the 2020-12 metaschema (all its vocabularies, and the
# draft 2019-09 keywords it still describes). A schema's other keys are not
# constrained by it: their values are never looked at.
_METASCHEMA_KEYWORDS = frozenset(
    """$id $schema $ref $anchor $dynamicRef $dynamicAnchor $vocabulary $comment $defs
    prefixItems items contains additionalProperties properties patternProperties
    dependentSchemas propertyNames if then else allOf anyOf oneOf not unevaluatedItems
    unevaluatedProperties type const enum multipleOf maximum exclusiveMaximum minimum
    exclusiveMinimum maxLength minLength pattern maxItems minItems uniqueItems maxContains
    minContains maxProperties minProperties required dependentRequired title description
    default deprecated readOnly writeOnly examples format contentEncoding contentMediaType
    contentSchema definitions dependencies $recursiveAnchor $recursiveRef""".split()  # noqa: SIM905 - a word list reads better as prose
)

# How :func:`_plain_look` checks the value of each keyword it knows; a
# schema with any other metaschema keyword is left to the validator.
_ANY, _TEXT, _TYPE, _NAMES, _NUMBER, _COUNT, _FLAG, _LIST, _SCHEMA, _SCHEMA_MAP, _SCHEMA_LIST = (
    range(11)
)
_PLAIN_KEYWORDS: dict[str, int] = {
    "type": _TYPE,
    "required": _NAMES,
    **dict.fromkeys(("const", "default"), _ANY),
    # Formats are annotations in 2020-12 (a "pattern" of "(" is valid), "$ref" and
    # "$schema" only strings.
    **dict.fromkeys(("title", "description", "$comment", "format", "pattern", "$ref"), _TEXT),
    **dict.fromkeys(("$schema", "contentEncoding", "contentMediaType"), _TEXT),
    **dict.fromkeys(("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"), _NUMBER),
    **dict.fromkeys(
        ("minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties"),
        _COUNT,
    ),
    **dict.fromkeys(("uniqueItems", "deprecated", "readOnly", "writeOnly"), _FLAG),
    **dict.fromkeys(("enum", "examples"), _LIST),
    **dict.fromkeys(("items", "additionalProperties", "not", "propertyNames"), _SCHEMA),
    **dict.fromkeys(("properties", "patternProperties", "$defs", "definitions"), _SCHEMA_MAP),
    **dict.fromkeys(("anyOf", "oneOf", "allOf", "prefixItems"), _SCHEMA_LIST),
}


# What :func:`_plain_look` saw.
_NOT_PLAIN, _PLAIN, _INJECTING = "not plain", "plain", "plain, injecting"


def _plain_look(schema: dict[str, Any]) -> str:
    """Whether ``schema`` is valid against the 2020-12 metaschema by a plain look.

    Every subschema must use only the keywords of :data:`_PLAIN_KEYWORDS` that
    the metaschema constrains, each with a value of the kind it demands (a
    type name, a list of distinct strings, a non-negative integer…); keys the
    metaschema does not define are free. :data:`_NOT_PLAIN` means "not
    shown", not "invalid": the validator then decides. Tool schemas are nearly
    all this plain (2,000 public tools: every one), so a lint of a file need
    not import jsonschema-rs (~12 ms CPU, more than it then spends validating).

    A plain schema is :data:`_INJECTING` when a subschema has an ``x-injected``
    key: having seen every subschema, the look spares check_parameters its own
    walk for one (~4.5 ms on 2,000 public tools).
    """
    injecting = False
    stack: list[Any] = [schema]
    while stack:
        node = stack.pop()
        if type(node) is not dict:
            if type(node) is bool:
                continue  # true and false are schemas
            return _NOT_PLAIN
        for key, value in node.items():
            kind = _PLAIN_KEYWORDS.get(key)
            if kind is None:
                if type(key) is not str or key in _METASCHEMA_KEYWORDS:
                    return _NOT_PLAIN
                if key == "x-injected":
                    injecting = True
                continue
            if kind is _TEXT:
                if type(value) is not str:
                    return _NOT_PLAIN
            elif kind is _TYPE:
                if not _plain_type(value):
                    return _NOT_PLAIN
            elif kind is _SCHEMA_MAP:
                if type(value) is not dict:
                    return _NOT_PLAIN
                stack.extend(value.values())
            elif kind is _NAMES:
                if not _distinct_strings(value):
                    return _NOT_PLAIN
            elif kind is _ANY:
                continue
            elif kind is _SCHEMA:
                stack.append(value)
            elif kind is _LIST:
                if type(value) is not list:
                    return _NOT_PLAIN
            elif kind is _SCHEMA_LIST:
                if type(value) is not list or not value:
                    return _NOT_PLAIN
                stack.extend(value)
            elif kind is _NUMBER:
                if type(value) is not int and type(value) is not float:
                    return _NOT_PLAIN
            elif kind is _COUNT:
                if type(value) is not int or value < 0:
                    return _NOT_PLAIN
            elif type(value) is not bool:  # _FLAG
                return _NOT_PLAIN
    return _INJECTING if injecting else _PLAIN


def _plain_type(value: Any) -> bool:
    """A valid ``type``: a JSON Schema type name, or a non-empty list of distinct ones."""
    if type(value) is str:
        return value in _SIMPLE_TYPES
    return (
        type(value) is list
        and bool(value)
        and _distinct_strings(value)
        and all(name in _SIMPLE_TYPES for name in value)
    )


def _distinct_strings(value: Any) -> bool:
    return (
        type(value) is list
        and all(type(item) is str for item in value)
        and len(set(value)) == len(value)
    )


def _explain(error: Any) -> str:
    """Turn a metaschema error into a sentence a schema author understands."""
    last = error.absolute_path[-1] if error.absolute_path else None
    if last == "type" or (len(error.absolute_path) >= 2 and error.absolute_path[-2] == "type"):
        bad = error.instance
        if isinstance(bad, list):
            wrong = [t for t in bad if t not in JSON_SCHEMA_TYPES]
            if wrong:
                return f"{wrong[0]!r} is not a JSON Schema type"
            return "type must be a JSON Schema type or a list of distinct types"
        hint = _type_hint(bad)
        return f"{bad!r} is not a JSON Schema type" + (f" ({hint})" if hint else "")
    return error.message


def _type_hint(bad: Any) -> str:
    hints = {
        "date": "use type 'string' with format 'date'",
        "datetime": "use type 'string' with format 'date-time'",
        "float": "use 'number'",
        "double": "use 'number'",
        "int": "use 'integer'",
        "dict": "use 'object'",
        "list": "use 'array'",
        "bool": "use 'boolean'",
        "str": "use 'string'",
    }
    return hints.get(str(bad).lower(), "") if isinstance(bad, str) else ""


_BRANCHES = ("anyOf", "oneOf", "allOf")
_NESTING = frozenset(("properties", "items", *_BRANCHES))
"""The keys :func:`_walk_object` looks under: a schema with none of them has nothing to check."""


def _walk_objects(schema: dict[str, Any], path: str) -> list[Problem]:
    """Check ``required`` and the ``x-`` extensions on every nested object schema."""
    problems: list[Problem] = []
    _walk_object(schema, path, (), problems)
    return problems


def _walk_object(
    schema: dict[str, Any], path: str, segments: tuple[str | int, ...], out: list[Problem]
) -> None:
    """:func:`_walk_objects` below ``path`` + ``segments``, in document order.

    The JSON path of a node is joined only when a problem is found there: most
    schemas have none, and joining (a regex per key) was most of the walk.
    """
    props = schema.get("properties")
    if isinstance(props, dict):
        required = schema.get("required")
        if isinstance(required, list):
            for i, name in enumerate(required):
                if isinstance(name, str) and name not in props:
                    out.append(
                        Problem(
                            join_path(path, *segments, "required", i),
                            f"'{name}' is required but not defined in properties",
                        )
                    )
        seen_aliases: dict[str, str] = {}
        for name, prop in props.items():
            if not isinstance(prop, dict):
                continue
            prop_segments = (*segments, "properties", name)
            if "x-aliases" in prop or "x-enum-aliases" in prop or "x-injected" in prop:
                out.extend(
                    _check_extensions(
                        name, prop, join_path(path, *prop_segments), props, seen_aliases
                    )
                )
            if not _NESTING.isdisjoint(prop):  # most properties are leaves: no call for them
                _walk_object(prop, path, prop_segments, out)
    items = schema.get("items")
    if isinstance(items, dict):
        _walk_object(items, path, (*segments, "items"), out)
    for key in _BRANCHES:
        branches = schema.get(key)
        if isinstance(branches, list):
            for i, branch in enumerate(branches):
                if isinstance(branch, dict):
                    _walk_object(branch, path, (*segments, key, i), out)


def _check_extensions(
    name: str,
    prop: dict[str, Any],
    path: str,
    siblings: dict[str, Any],
    seen_aliases: dict[str, str],
) -> Iterator[Problem]:
    aliases = prop.get("x-aliases")
    if aliases is not None:
        if not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
            yield Problem(join_path(path, "x-aliases"), "must be a list of strings")
        else:
            for i, alias in enumerate(aliases):
                where = join_path(path, "x-aliases", i)
                if alias in siblings and alias != name:
                    yield Problem(where, f"alias '{alias}' is also a property name")
                elif alias in seen_aliases and seen_aliases[alias] != name:
                    yield Problem(
                        where, f"alias '{alias}' is also an alias of '{seen_aliases[alias]}'"
                    )
                seen_aliases.setdefault(alias, name)
    enum_aliases = prop.get("x-enum-aliases")
    if enum_aliases is not None:
        where = join_path(path, "x-enum-aliases")
        enum = prop.get("enum")
        if not isinstance(enum_aliases, dict):
            yield Problem(where, "must map synonyms to enum values")
        elif not isinstance(enum, list):
            yield Problem(where, "needs an 'enum' on the same property")
        else:
            for synonym, target in enum_aliases.items():
                if target not in enum:
                    yield Problem(
                        join_path(where, synonym),
                        f"maps to {target!r}, which is not one of the enum values",
                    )
    injected = prop.get("x-injected")
    if injected is not None and (
        not isinstance(injected, str) or not INJECTED_PATTERN.fullmatch(injected)
    ):
        yield Problem(
            join_path(path, "x-injected"),
            "must be a context path such as 'session.employee_id'",
        )
