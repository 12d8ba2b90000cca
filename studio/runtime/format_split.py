"""Formats checked beside the compiled validator, not from inside it.

``jsonschema-rs`` checks a ``format`` by calling back into Python (the studio
gives it the Python checkers' verdicts, see :mod:`studio.runtime.validators`),
and each call back costs ~0.5 µs: two ``date`` properties made a 0.2 µs
validation cost 1.3 µs. When every ``format`` of a schema sits on a property
of the root object, the same verdict is reached by a validator compiled
without formats plus the Python checkers called here on those properties,
with each verdict remembered (the checkers are pure functions of the text).

That is exact: a ``format`` under ``properties.NAME`` of the root applies to
the value of ``NAME`` whenever the value is an object holding ``NAME``, and to
nothing else; both checkers pass what is not a string.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["SplitFormats", "root_property_formats"]

_CACHE_SIZE = 4096
_CACHED_LENGTH = 256


def root_property_formats(schema: Any) -> dict[str, str] | None:
    """``{property: format}`` when every ``format`` key is on a root property; else None.

    Conservative: a ``format`` key anywhere else (a nested schema, a property
    *named* ``format``, an ``enum`` value) or a format that is not a string
    means the schema is not split.
    """
    if not isinstance(schema, dict):
        return None
    props = schema.get("properties")
    found: dict[str, str] = {}
    if isinstance(props, dict):
        for name, sub in props.items():
            if not isinstance(sub, dict):
                continue
            fmt = sub.get("format")
            if "format" in sub:
                if not isinstance(fmt, str):
                    return None
                found[name] = fmt
            if any(_has_format_key(v) for k, v in sub.items() if k != "format"):
                return None
        if "format" in props:
            return None
    rest = (v for k, v in schema.items() if k != "properties")
    if "format" in schema or any(_has_format_key(v) for v in rest):
        return None
    return found


def _has_format_key(value: Any, depth: int = 0) -> bool:
    if depth > 200:
        return True
    if isinstance(value, dict):
        return "format" in value or any(_has_format_key(v, depth + 1) for v in value.values())
    if isinstance(value, list):
        return any(_has_format_key(v, depth + 1) for v in value)
    return False


def _judge(verdicts: dict[str, bool], check: Callable[[str], bool], text: str) -> bool:
    """``check(text)``, remembered in ``verdicts`` for a short text (at most ``_CACHE_SIZE``)."""
    verdict = bool(check(text))
    if len(text) <= _CACHED_LENGTH:
        if len(verdicts) >= _CACHE_SIZE:
            verdicts.clear()
        verdicts[text] = verdict
    return verdict


class SplitFormats:
    """A validator compiled without formats, and the root properties' formats checked here.

    Stands in for the compiled validator with formats: ``is_valid`` answers the same.
    """

    __slots__ = ("_bare", "_checks")

    def __init__(
        self,
        bare: Any,
        formats: dict[str, str],
        checkers: dict[str, Callable[[str], bool]],
    ) -> None:
        """Keep the bare validator and each format's checker with a memory of its verdicts.

        Args:
            bare: The schema's ``jsonschema-rs`` validator compiled without formats.
            formats: :func:`root_property_formats` of the schema; each format is a
                key of ``checkers`` (the caller does not split a schema otherwise).
            checkers: The Python verdict of each format, by name.
        """
        self._bare = bare
        self._checks: tuple[tuple[str, dict[str, bool], Callable[[str], bool]], ...] = tuple(
            (name, {}, checkers[fmt]) for name, fmt in formats.items()
        )

    def is_valid(self, instance: Any) -> bool:
        if not self._bare.is_valid(instance):
            return False
        if isinstance(instance, dict):
            for name, verdicts, check in self._checks:
                value = instance.get(name)
                if isinstance(value, str):
                    verdict = verdicts.get(value)
                    if verdict is None:
                        verdict = _judge(verdicts, check, value)
                    if not verdict:
                        return False
        return True
