"""Canonical JSON (RFC 8785) and content hashes."""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

import rfc8785

HASH_PREFIX = "sha256:"


def canonical_json(value: Any) -> bytes:
    """Serialise ``value`` with the JSON Canonicalization Scheme (RFC 8785).

    Args:
        value: Any JSON-compatible value (dicts, lists, str, int, float, bool, None).

    Return:
        The canonical UTF-8 bytes: sorted keys, no whitespace, ES6 number form.
    """
    return rfc8785.dumps(value)


def content_hash(value: Any) -> str:
    """``sha256:<hex>`` of the canonical JSON of ``value``."""
    return HASH_PREFIX + hashlib.sha256(canonical_json(value)).hexdigest()


def hash_bytes(canonical: bytes) -> str:
    """``sha256:<hex>`` of bytes that are already canonical JSON."""
    return HASH_PREFIX + hashlib.sha256(canonical).hexdigest()


# Where Python's own serialiser differs from RFC 8785: integral floats (``8.0`` vs
# ``8``), floats outside 1e-4 ≤ |x| < 1e16 (``1e-05`` vs ``0.00001``), integers beyond
# ±(2**53 − 1) and NaN/Infinity (refused by RFC 8785), and the order of keys holding
# characters beyond the BMP (RFC 8785 sorts UTF-16 code units, Python code points).
# Inside 1e-4 ≤ |x| < 1e16 both write a float's shortest round-trip digits in plain
# notation, and string escapes are the same in both.
_ASTRAL = re.compile(r"[\U00010000-\U0010ffff]|\\u[dD][89abAB]")
_SAFE_INT = 2**53


class _Unsafe(Exception):
    """A number the fast path cannot write as RFC 8785 does."""


def _es6_float(literal: str) -> float | int:
    number = float(literal)
    if number.is_integer():
        if -_SAFE_INT < number < _SAFE_INT:
            return int(number)  # RFC 8785 writes 8.0 as 8
        raise _Unsafe(literal)
    if 1e-4 <= abs(number) < 1e16:
        return number
    raise _Unsafe(literal)


def _safe_int(literal: str) -> int:
    number = int(literal)
    if not -_SAFE_INT < number < _SAFE_INT:
        raise _Unsafe(literal)
    return number


def _refuse(literal: str) -> float:
    raise _Unsafe(literal)


def parse_canonical(text: str) -> tuple[Any, bytes]:
    """``json.loads(text)`` and its RFC 8785 form, computed by the C serialiser when safe.

    Loading a published version checks its hash: for a 10,000-tool registry the
    pure-Python canonicaliser takes ~0.9 s, a second ``json.loads`` (numbers
    made RFC 8785-ready) and ``json.dumps`` a fraction of it. The bytes are
    identical to ``canonical_json(json.loads(text))`` (a property test compares
    them); anything the fast path cannot vouch for goes through
    :func:`canonical_json`.

    Raises:
        ValueError: ``text`` is not JSON, or not canonicalisable (as
            :func:`canonical_json` raises).
    """
    value = json.loads(text)
    if _ASTRAL.search(text) is None:
        try:
            ready = json.loads(
                text, parse_float=_es6_float, parse_int=_safe_int, parse_constant=_refuse
            )
            dumped = json.dumps(ready, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
            return value, dumped.encode("utf-8")
        except (_Unsafe, UnicodeEncodeError):
            pass  # an unusual number or a lone surrogate: the reference decides
    return value, canonical_json(value)
