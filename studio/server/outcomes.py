"""Validation of ``POST /v1/outcomes`` bodies into rows of the ``outcomes`` table.

A body is one outcome object or ``{"outcomes": [...]}``. Each outcome::

    {"registry": "travel-reimbursement", "version": 3, "tool": "query_invoices",
     "status": "ok", "error_code": "", "latency_ms": 41.5, "call_id": "call_1"}

Optional ``risk`` (``read``, ``write``, ``destructive``), ``idempotency_key`` and
``duplicate_of`` (the earlier call of the same write intent, on a duplicate write
attempt) feed the guard's duplicate-write metric (``studio.release.guard``).

``registry``, ``version``, ``tool`` and ``status`` are required; unknown keys
are refused so a typo does not silently lose a field. ``error_code`` and
``call_id`` may be null (taken as absent). ``version`` is a positive integer
(``3``, or ``3.0`` which JSON Schema counts as one) or its decimal string.
The OpenAPI document describes exactly this (``studio.server.openapi``, a test
checks the two agree).
"""

from __future__ import annotations

import json
import math
from typing import Any

from registry_db.sessions import Outcome

MAX_BODY_BYTES = 1_048_576
MAX_OUTCOMES = 1000
MAX_VERSION = 2**53 - 1
"""The largest version number accepted (JSON's largest exact integer)."""
MAX_VERSION_DIGITS = 16
STATUSES = ("ok", "error", "unknown", "rejected", "denied", "skipped", "replayed", "refused")
RISKS = ("read", "write", "destructive")
_KEYS = {"registry", "version", "tool", "status", "error_code", "latency_ms", "call_id",
         "risk", "idempotency_key", "duplicate_of"}  # fmt: skip
MAX_TEXT = 200


class OutcomeError(ValueError):
    """A malformed outcome report; the message names the field and the entry."""


def _text(entry: dict[str, Any], key: str, where: str, *, required: bool) -> str:
    value = entry.get(key)
    if value is None:
        if required:
            raise OutcomeError(f"{where}.{key} is required")
        return ""
    if not isinstance(value, str):
        raise OutcomeError(f"{where}.{key} must be a string")
    if required and not value:
        raise OutcomeError(f"{where}.{key} must not be empty")
    if len(value) > MAX_TEXT:
        raise OutcomeError(f"{where}.{key} is longer than {MAX_TEXT} characters")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate ("\ud800"): not storable text
        raise OutcomeError(f"{where}.{key} is not valid Unicode text") from None
    return value


def _version(entry: dict[str, Any], where: str) -> str:
    value = entry.get("version")
    if isinstance(value, bool) or value is None:
        raise OutcomeError(f"{where}.version is required (a version number)")
    if isinstance(value, float) and value.is_integer() and 1 <= value <= MAX_VERSION:
        value = int(value)  # JSON Schema's "integer" includes 3.0
    if isinstance(value, int) and 1 <= value <= MAX_VERSION:
        return str(value)
    if (
        isinstance(value, str)
        and len(value) <= MAX_VERSION_DIGITS
        and value.isascii()
        and value.isdigit()
        and int(value) >= 1
    ):
        return str(int(value))
    raise OutcomeError(f"{where}.version must be a positive integer")


def _latency(entry: dict[str, Any], where: str) -> float:
    value = entry.get("latency_ms", 0)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise OutcomeError(f"{where}.latency_ms must be a number")
    if not math.isfinite(value) or value < 0:
        raise OutcomeError(f"{where}.latency_ms must be a finite number ≥ 0")
    return float(value)


def parse_outcome(entry: Any, where: str) -> Outcome:
    """One validated outcome; raises OutcomeError."""
    if not isinstance(entry, dict):
        raise OutcomeError(f"{where} must be an object")
    extra = sorted(set(entry) - _KEYS)
    if extra:
        raise OutcomeError(f"{where}.{extra[0]} is not a known field")
    status = _text(entry, "status", where, required=True)
    if status not in STATUSES:
        raise OutcomeError(f"{where}.status must be one of {', '.join(STATUSES)}")
    risk = _text(entry, "risk", where, required=False)
    if risk and risk not in RISKS:
        raise OutcomeError(f"{where}.risk must be one of {', '.join(RISKS)}")
    return Outcome(
        session_id=None,
        call_id=_text(entry, "call_id", where, required=False),
        registry=_text(entry, "registry", where, required=True),
        version=_version(entry, where),
        tool=_text(entry, "tool", where, required=True),
        status=status,
        error_code=_text(entry, "error_code", where, required=False),
        latency_ms=_latency(entry, where),
        created_at="",
        risk=risk,
        idempotency_key=_text(entry, "idempotency_key", where, required=False),
        duplicate_of=_text(entry, "duplicate_of", where, required=False),
    )


def parse_outcomes(body: bytes) -> list[Outcome]:
    """The outcomes of a request body.

    Raises:
        OutcomeError: not JSON, wrong shape, or a bad field (first problem only).
    """
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise OutcomeError(f"the body is not valid JSON: {exc}") from None
    if isinstance(data, dict) and "outcomes" in data:
        if set(data) != {"outcomes"}:
            raise OutcomeError("a batch has only the key 'outcomes'")
        entries = data["outcomes"]
        if not isinstance(entries, list):
            raise OutcomeError("outcomes must be an array")
        if not entries:
            raise OutcomeError("outcomes must not be empty")
        if len(entries) > MAX_OUTCOMES:
            raise OutcomeError(f"at most {MAX_OUTCOMES} outcomes per request")
        return [parse_outcome(e, f"outcomes[{i}]") for i, e in enumerate(entries)]
    return [parse_outcome(data, "outcome")]
