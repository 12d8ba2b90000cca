"""Regular expressions written by users, matched in bounded time.

Mock matchers and JSON Schema ``pattern`` / ``patternProperties`` come from
users and imported contracts, and the text they run on comes from a model.
Python's ``re`` backtracks: ``^(a+)+$`` against ``"a" * 40 + "!"`` runs for
hours, on the event loop, and no ``asyncio`` timeout can interrupt it. So:

* :func:`compile_linear` compiles on RE2 (google-re2), whose matching time is
  linear in the text. RE2 has no backreferences and no lookaround; such a
  pattern is refused with a :class:`PatternError` that says so. Mock matchers
  use it, and refuse those patterns when the mocks are saved or loaded.
* :func:`schema_search` serves JSON Schema patterns, which follow ECMA-262 and
  in imported contracts sometimes use lookaround: RE2 when it can, else the
  fancy-regex engine of jsonschema-rs, whose backtracking is capped (1,000,000
  steps, a few tens of milliseconds), so the match is bounded too.
* :class:`BoundedValidator` is ``Draft202012Validator`` with every keyword that
  matches a pattern (``pattern``, ``patternProperties``, ``additionalProperties``,
  ``unevaluatedProperties``) running on :func:`schema_search`; the runtime's
  argument validation and lint's example checks use it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import Any

import jsonschema_rs
import re2  # type: ignore[import-untyped]
from jsonschema import Draft202012Validator, ValidationError, validators

_OPTIONS = re2.Options()
_OPTIONS.log_errors = False  # RE2 would print every refused pattern on stderr


class PatternError(ValueError):
    """A pattern that cannot run in linear time, or does not compile at all."""


def _reason(message: str) -> str:
    if message.startswith("invalid perl operator: (?=") or message.startswith(
        "invalid perl operator: (?!"
    ):
        return "the regex uses lookahead (?=…)/(?!…), which linear-time matching (RE2) lacks"
    if message.startswith("invalid perl operator: (?<"):
        return "the regex uses lookbehind (?<=…)/(?<!…), which linear-time matching (RE2) lacks"
    if message.startswith("invalid escape sequence: \\") and message[-1:].isdigit():
        return "the regex uses a backreference (\\1), which linear-time matching (RE2) lacks"
    if message == "invalid escape sequence: \\Z":
        return "the regex uses \\Z: write \\z for the end of the text (RE2 has no \\Z)"
    return f"the regex does not compile: {message}"


@lru_cache(maxsize=1024)
def compile_linear(pattern: str) -> Any:
    """``pattern`` compiled on RE2 (cached); :class:`PatternError` when RE2 cannot run it.

    The message names why in one line: backreferences or lookaround (which RE2
    refuses because they need backtracking), or the syntax error.
    """
    try:
        return re2.compile(pattern, _OPTIONS)
    except re2.error as exc:
        raw = exc.args[0] if exc.args else exc
        message = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw)
        raise PatternError(_reason(message)) from None


def check_linear(pattern: str) -> str:
    """ "" when ``pattern`` runs on RE2, else the one-line reason it does not."""
    try:
        compile_linear(pattern)
    except PatternError as exc:
        return str(exc)
    return ""


def search_linear(pattern: str, text: str) -> bool:
    """Whether ``pattern`` (which must pass :func:`check_linear`) occurs in ``text``."""
    return compile_linear(pattern).search(text) is not None


@lru_cache(maxsize=1024)
def _schema_matcher(pattern: str) -> Callable[[str], bool]:
    try:
        compiled = compile_linear(pattern)
    except PatternError:
        pass
    else:
        return lambda text: compiled.search(text) is not None
    try:
        # fancy-regex (jsonschema-rs's default) caps its backtracking.
        fallback = jsonschema_rs.validator_for({"type": "string", "pattern": pattern})
    except (ValueError, jsonschema_rs.ValidationError):
        # No engine compiles it (the metaschema check reports it): it matches nothing.
        return lambda text: False
    is_valid: Callable[[str], bool] = fallback.is_valid
    return is_valid


def schema_search(pattern: str, text: str) -> bool:
    """JSON Schema's ``pattern`` test (an unanchored search), in bounded time."""
    return _schema_matcher(pattern)(text)


# -- Draft 2020-12 with the pattern keywords on schema_search ---------------------------
# The bodies follow jsonschema 4.x's own keyword functions; only the regex engine differs.


def _pattern(validator: Any, pattern: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if validator.is_type(instance, "string") and not schema_search(pattern, instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _pattern_properties(
    validator: Any, pattern_properties: Any, instance: Any, schema: Any
) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in pattern_properties.items():
        for key, value in instance.items():
            if schema_search(pattern, key):
                yield from validator.descend(value, subschema, path=key, schema_path=pattern)


def _additional(instance: Any, schema: Any) -> Iterator[str]:
    properties = schema.get("properties", {})
    patterns = list(schema.get("patternProperties", {}))
    for key in instance:
        if key in properties or any(schema_search(p, key) for p in patterns):
            continue
        yield key


def _additional_properties(
    validator: Any, additional: Any, instance: Any, schema: Any
) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "object"):
        return
    extras = set(_additional(instance, schema))
    if validator.is_type(additional, "object"):
        for extra in extras:
            yield from validator.descend(instance[extra], additional, path=extra)
    elif not additional and extras:
        ordered = sorted(extras, key=str)
        if "patternProperties" in schema:
            verb = "does" if len(extras) == 1 else "do"
            joined = ", ".join(repr(each) for each in ordered)
            patterns = ", ".join(repr(each) for each in sorted(schema["patternProperties"]))
            yield ValidationError(f"{joined} {verb} not match any of the regexes: {patterns}")
        else:
            verb = "was" if len(extras) == 1 else "were"
            joined = ", ".join(repr(each) for each in ordered)
            yield ValidationError(
                f"Additional properties are not allowed ({joined} {verb} unexpected)"
            )


def _valid(errors: Iterator[ValidationError]) -> bool:
    return next(errors, None) is None


def _evaluated_keys(validator: Any, instance: Any, schema: Any) -> list[str]:
    """jsonschema's ``find_evaluated_property_keys_by_schema`` with bounded patterns."""
    if validator.is_type(schema, "boolean"):
        return []
    keys: list[str] = []
    for keyword in ("$ref", "$dynamicRef"):
        ref = schema.get(keyword)
        if ref is not None:
            resolved = validator._resolver.lookup(ref)
            keys += _evaluated_keys(
                validator.evolve(schema=resolved.contents, _resolver=resolved.resolver),
                instance,
                resolved.contents,
            )
    properties = schema.get("properties")
    if validator.is_type(properties, "object"):
        keys += properties.keys() & instance.keys()
    for keyword in ("additionalProperties", "unevaluatedProperties"):
        subschema = schema.get(keyword)
        if subschema is not None:
            keys += (k for k, v in instance.items() if _valid(validator.descend(v, subschema)))
    for pattern in schema.get("patternProperties", {}):
        keys += (k for k in instance if schema_search(pattern, k))
    for key, subschema in schema.get("dependentSchemas", {}).items():
        if key in instance:
            keys += _evaluated_keys(validator, instance, subschema)
    for keyword in ("allOf", "oneOf", "anyOf"):
        for subschema in schema.get(keyword, []):
            if _valid(validator.descend(instance, subschema)):
                keys += _evaluated_keys(validator, instance, subschema)
    if "if" in schema:
        if validator.evolve(schema=schema["if"]).is_valid(instance):
            keys += _evaluated_keys(validator, instance, schema["if"])
            if "then" in schema:
                keys += _evaluated_keys(validator, instance, schema["then"])
        elif "else" in schema:
            keys += _evaluated_keys(validator, instance, schema["else"])
    return keys


def _unevaluated_properties(
    validator: Any, unevaluated: Any, instance: Any, schema: Any
) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "object"):
        return
    evaluated = _evaluated_keys(validator, instance, schema)
    bad = [
        key
        for key in instance
        if key not in evaluated
        and not _valid(validator.descend(instance[key], unevaluated, path=key, schema_path=key))
    ]
    if not bad:
        return
    verb = "was" if len(bad) == 1 else "were"
    if unevaluated is False:
        joined = ", ".join(repr(each) for each in sorted(bad, key=str))
        yield ValidationError(
            f"Unevaluated properties are not allowed ({joined} {verb} unexpected)"
        )
    else:
        joined = ", ".join(repr(each) for each in bad)
        yield ValidationError(
            "Unevaluated properties are not valid under the given schema "
            f"({joined} {verb} unevaluated and invalid)"
        )


BoundedValidator: Any = validators.extend(
    Draft202012Validator,
    {
        "pattern": _pattern,
        "patternProperties": _pattern_properties,
        "additionalProperties": _additional_properties,
        "unevaluatedProperties": _unevaluated_properties,
    },
)
"""Draft 2020-12 validation whose pattern matching cannot hang (see the module's doc)."""
