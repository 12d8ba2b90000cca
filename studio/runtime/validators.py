"""Argument validation at compiled speed, with the Python validator's words.

The runtime validates every tool call. The Python ``jsonschema`` validator
(:class:`~studio.contract.patterns.BoundedValidator`) costs ~90 µs for a typical
schema; the compiled ``jsonschema-rs`` validator ~1 µs. So a call is first
checked by ``jsonschema-rs``: when it passes, that is the answer. When it fails
(or cannot run), the Python validator decides and words the errors, so what a
model reads is what it read before, and a call is accepted or rejected exactly
as before, provided ``jsonschema-rs`` never accepts what the Python validator
rejects. Where it might, it is not used:

* schemas with ``pattern``/``patternProperties`` (the studio matches them on RE2
  with a capped fallback, see :mod:`studio.contract.patterns`), ``multipleOf``
  (``jsonschema-rs`` accepts ``0.3`` as a multiple of ``0.1``; Python does not),
  ``$schema`` (``jsonschema-rs`` would switch drafts) and dynamic references;
* schemas ``jsonschema-rs`` refuses to compile (it checks the metaschema and
  never fetches remote ``$ref`` here);
* values that are not plain JSON (tuples, ``Decimal``, big integers, NaN), which
  the two libraries type differently.

Formats are checked by the Python checkers themselves (``formats=`` callbacks,
or beside a format-free compiled validator when every format is on a root
property, see :mod:`studio.runtime.format_split`), and formats the Python
checker does not know are not checked by either.
tests/runtime/test_pipeline_differential.py compares both on a corpus.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import jsonschema_rs
from jsonschema import Draft202012Validator, ValidationError

from studio.contract.canonical import content_hash
from studio.contract.patterns import BoundedValidator
from studio.runtime.format_split import SplitFormats, root_property_formats

_UNSAFE_KEYWORDS = frozenset(
    ("pattern", "patternProperties", "multipleOf", "$schema", "$dynamicRef", "$recursiveRef")
)
"""Keywords on which ``jsonschema-rs`` may accept what the Python validator rejects."""

_RS_FORMATS = (
    "date",
    "date-time",
    "time",
    "duration",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "regex",
    "uuid",
)
"""The formats ``jsonschema-rs`` checks on its own (each is given a Python verdict)."""

_MAX_PLAIN_INT = 2**63 - 1

_FORMAT_CHECKER = Draft202012Validator.FORMAT_CHECKER


def _python_format(name: str) -> Callable[[str], bool]:
    """The Python checker's verdict on format ``name`` (what ``FormatChecker.conforms`` says).

    ``jsonschema-rs``'s own checks differ at the edges (it takes ``0000-01-01`` for a
    date), so it asks the Python checker, calling the check itself to skip two layers.
    """
    if name not in _FORMAT_CHECKER.checkers:
        return lambda text: True  # the Python checker does not check it either
    check, raises = _FORMAT_CHECKER.checkers[name]

    def conforms(text: str) -> bool:
        try:
            return bool(check(text))
        except raises:
            return False

    return conforms


_FORMATS = {name: _python_format(name) for name in (*_RS_FORMATS, *_FORMAT_CHECKER.checkers)}


def _no_retrieval(uri: str) -> Any:
    raise ValueError(f"{uri} is not fetched while validating arguments")


def _uses_unsafe_keywords(schema: Any, depth: int = 0) -> bool:
    # Conservative: a property *named* "pattern" counts too (it only costs speed).
    if depth > 200:
        return True
    if isinstance(schema, dict):
        if not _UNSAFE_KEYWORDS.isdisjoint(schema):
            return True
        return any(_uses_unsafe_keywords(v, depth + 1) for v in schema.values())
    if isinstance(schema, list):
        return any(_uses_unsafe_keywords(v, depth + 1) for v in schema)
    return False


def _compile_fast(schema: Any) -> Any:
    """The ``jsonschema-rs`` validator of ``schema``, or None where it cannot stand in."""
    if not isinstance(schema, dict | bool) or _uses_unsafe_keywords(schema):
        return None
    try:
        fast = jsonschema_rs.Draft202012Validator(
            schema,
            validate_formats=True,
            formats=_FORMATS,
            retriever=_no_retrieval,
        )
        # Formats only on root properties: checked beside it, not called back (~1 µs less).
        formats = root_property_formats(schema)
        if formats and all(f in _FORMATS for f in formats.values()):
            bare = jsonschema_rs.Draft202012Validator(
                schema, validate_formats=False, retriever=_no_retrieval
            )
            return SplitFormats(bare, formats, _FORMATS)
        return fast
    except Exception:  # any refusal means: Python alone, as before
        return None


def is_plain_json(value: Any, depth: int = 0) -> bool:
    """Whether ``value`` holds only JSON types both validators type alike."""
    kind = type(value)
    if kind is str or kind is bool or value is None:
        return True
    if kind is int:
        return -_MAX_PLAIN_INT <= value <= _MAX_PLAIN_INT
    if kind is float:
        return value - value == 0.0  # finite
    if depth > 500:
        return False
    if kind is dict:
        return all(type(k) is str and is_plain_json(v, depth + 1) for k, v in value.items())
    if kind is list:
        return all(is_plain_json(v, depth + 1) for v in value)
    return False


class SchemaValidator:
    """A Draft 2020-12 validator: compiled when it can be, Python when it must be.

    ``iter_errors`` yields the Python validator's errors, so callers and their
    messages are unchanged; valid values usually never reach Python.
    """

    __slots__ = ("_fast", "exact", "schema")

    def __init__(self, schema: Any) -> None:
        self.schema = schema
        # pattern keywords run on RE2 / capped backtracking: a hostile schema cannot hang a call.
        self.exact = BoundedValidator(schema, format_checker=_FORMAT_CHECKER)
        self._fast = _compile_fast(schema)

    @property
    def compiled(self) -> bool:
        """Whether valid values are decided by ``jsonschema-rs``."""
        return self._fast is not None

    def passes_fast(self, instance: Any) -> bool:
        """True when ``jsonschema-rs`` accepts ``instance`` (plain JSON, already checked)."""
        if self._fast is None:
            return False
        try:
            return bool(self._fast.is_valid(instance))
        except Exception:  # e.g. a lone surrogate: Python decides
            return False

    def iter_errors(self, instance: Any) -> Iterator[ValidationError]:
        """The Python validator's errors for ``instance`` (none when it is valid)."""
        if self._fast is not None and is_plain_json(instance) and self.passes_fast(instance):
            return iter(())
        return self.exact.iter_errors(instance)

    def errors_of_plain(self, instance: Any) -> list[ValidationError]:
        """:meth:`iter_errors` for a value the caller knows is plain JSON, sorted by path."""
        if self.passes_fast(instance):
            return []
        return sorted(self.exact.iter_errors(instance), key=lambda e: list(e.absolute_path))


_VALIDATORS: dict[str, SchemaValidator] = {}


def validator_for(schema: dict[str, Any]) -> tuple[str, SchemaValidator]:
    """The validator of an (``x-``-free) schema, cached by its content hash."""
    digest = content_hash(schema)
    validator = _VALIDATORS.get(digest)
    if validator is None:
        validator = SchemaValidator(schema)
        _VALIDATORS[digest] = validator
    return digest, validator
