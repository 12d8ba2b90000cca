"""Canonical JSON (RFC 8785) and content hashes."""

from __future__ import annotations

import hashlib
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
