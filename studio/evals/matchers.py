"""Argument matchers: what a called tool's argument at a JSON path must look like.

In an eval file a matcher is an object with one kind key::

    "args": {
        "category": {"equals": "taxi"},
        "status": {"one_of": ["submitted", "in_review"]},
        "invoice_ids[0]": {"regex": "^INV-\\\\d+$"},
        "amount": {"number": 118.5, "within": 0.01},
        "start_date": {"date": "today-7"},
        "end_date": {"date": {"from": "today-7", "to": "today"}},
        "reason": {"present": true},
        "employee_id": {"absent": true},
        "filters": {"schema": {"type": "object", "required": ["city"]}}
    }

Dates are ``YYYY-MM-DD`` or relative to the case's ``context.values.today``
(``today``, ``today-7``, ``today+1``), so a case written once keeps meaning the
same days. Regexes run on RE2 (linear time; search, not full match: anchor
with ``^…$``).
"""

from __future__ import annotations

import datetime as dt
import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from jsonschema import Draft202012Validator, SchemaError

from studio.contract.patterns import check_linear, search_linear
from studio.evals.paths import PathError, lookup, parse_path

KINDS = ("equals", "one_of", "regex", "number", "date", "schema", "present", "absent")
_RELATIVE = re.compile(r"^today(?:([+-])(\d{1,4}))?$")
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


@dataclass(frozen=True, slots=True)
class Matcher:
    """One expectation on one argument.

    Attributes:
        path: JSON path into the call's arguments (``invoice_ids[0]``).
        kind: One of :data:`KINDS`.
        value: The kind's operand (the expected value, the choices, the regex…).
        within: For ``number``: the allowed absolute difference (None: exact).
    """

    path: str
    kind: str
    value: Any
    within: float | None = None

    def to_json(self) -> dict[str, Any]:
        """The matcher as its file form (the path is the key around it)."""
        out: dict[str, Any] = {self.kind: self.value}
        if self.within is not None:
            out["within"] = self.within
        return out


@dataclass(frozen=True, slots=True)
class MatchResult:
    """One matcher checked against a call: passed or not, and why in words."""

    path: str
    kind: str
    passed: bool
    reason: str


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _json_equal(a: Any, b: Any) -> bool:
    """JSON equality: 1 == 1.0, but true is not 1 and key order does not matter."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if _is_number(a) and _is_number(b):
        return bool(a == b)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_json_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_json_equal(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


def resolve_date(text: str, today: str | None) -> dt.date:
    """A matcher date: ``YYYY-MM-DD`` or ``today±N`` against ``today``; ValueError otherwise."""
    m = _RELATIVE.match(text)
    if m:
        if today is None:
            raise ValueError("a relative date needs context.values.today (YYYY-MM-DD)")
        base = resolve_date(today, None)
        days = int(m.group(2) or 0) * (-1 if m.group(1) == "-" else 1)
        return base + dt.timedelta(days=days)
    if not _ISO_DATE.match(text):
        raise ValueError(f"{text!r} is not YYYY-MM-DD, today, today-N or today+N")
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a calendar date") from None


def _date_bounds(value: Any, today: str | None) -> tuple[dt.date, dt.date]:
    if isinstance(value, str):
        day = resolve_date(value, today)
        return day, day
    start = resolve_date(value["from"], today)
    end = resolve_date(value["to"], today)
    return start, end


def check_matcher(kind: str, body: Mapping[str, Any], today: str | None) -> list[tuple[str, str]]:
    """Problems of one matcher's operand as ``(sub-path, message)``; empty when valid."""
    value = body[kind]
    problems: list[tuple[str, str]] = []
    extra = set(body) - {kind} - ({"within"} if kind == "number" else set())
    for key in sorted(extra):
        problems.append((key, f"unknown key for a {kind} matcher"))
    if kind == "one_of" and (not isinstance(value, list) or not value):
        problems.append((kind, "must be a non-empty array of allowed values"))
    elif kind == "regex":
        if not isinstance(value, str):
            problems.append((kind, "must be a string"))
        elif reason := check_linear(value):
            problems.append((kind, reason))
    elif kind == "number":
        if not _is_number(value) or not math.isfinite(value):
            problems.append((kind, "must be a finite number"))
        within: Any = body.get("within")
        if "within" in body and not (_is_number(within) and 0 <= within < math.inf):
            problems.append(("within", "must be a number ≥ 0"))
    elif kind == "date":
        if isinstance(value, dict):
            if set(value) != {"from", "to"}:
                problems.append((kind, 'a range is {"from": date, "to": date}'))
                return problems
            parts = [("from", value["from"]), ("to", value["to"])]
        else:
            parts = [("", value)]
        for key, part in parts:
            where = f"{kind}.{key}" if key else kind
            if not isinstance(part, str):
                problems.append((where, "must be a date string"))
                continue
            try:
                resolve_date(part, today)
            except ValueError as exc:
                problems.append((where, str(exc)))
        if not problems and isinstance(value, dict):
            start, end = _date_bounds(value, today)
            if start > end:
                problems.append((kind, "from is after to"))
    elif kind == "schema":
        if not isinstance(value, dict | bool):
            problems.append((kind, "must be a JSON Schema (an object)"))
        else:
            try:
                Draft202012Validator.check_schema(value)
            except SchemaError as exc:
                problems.append((kind, f"not a valid JSON Schema: {exc.message}"))
    elif kind in ("present", "absent") and value is not True:
        problems.append((kind, "must be true"))
    return problems


def parse_matcher(
    path: str, body: Any, today: str | None
) -> tuple[Matcher | None, list[tuple[str, str]]]:
    """A matcher from its file form, or None and its problems ``(sub-path, message)``."""
    try:
        parse_path(path)
    except PathError as exc:
        return None, [("", f"bad argument path: {exc}")]
    if not isinstance(body, dict):
        return None, [("", 'a matcher is an object such as {"equals": "taxi"}')]
    kinds = [k for k in body if k in KINDS]
    if len(kinds) != 1:
        named = ", ".join(kinds) if kinds else "none"
        return None, [("", f"needs exactly one of {', '.join(KINDS)} (has {named})")]
    kind = kinds[0]
    problems = check_matcher(kind, body, today)
    if problems:
        return None, problems
    within = body.get("within")
    return Matcher(path, kind, body[kind], None if within is None else within), []


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "…"


def _check_value(matcher: Matcher, value: Any, today: str | None) -> tuple[bool, str]:
    kind, want = matcher.kind, matcher.value
    if kind == "equals":
        return _json_equal(value, want), f"{_show(value)}, expected {_show(want)}"
    if kind == "one_of":
        ok = any(_json_equal(value, w) for w in want)
        return ok, f"{_show(value)}, expected one of {_show(want)}"
    if kind == "regex":
        if not isinstance(value, str):
            return False, f"{_show(value)} is not a string"
        return search_linear(want, value), f"{_show(value)} against /{want}/"
    if kind == "number":
        if not _is_number(value):
            return False, f"{_show(value)} is not a number"
        tolerance = matcher.within or 0.0
        ok = abs(value - want) <= tolerance + 1e-9 * max(1.0, abs(want))
        within = f" ± {tolerance:g}" if tolerance else ""
        return ok, f"{value!r}, expected {want!r}{within}"
    if kind == "date":
        start, end = _date_bounds(want, today)
        shown = start.isoformat() if start == end else f"{start} … {end}"
        if not isinstance(value, str) or not _ISO_DATE.match(value):
            return False, f"{_show(value)} is not YYYY-MM-DD, expected {shown}"
        try:
            day = dt.date.fromisoformat(value)
        except ValueError:
            return False, f"{_show(value)} is not a calendar date"
        return start <= day <= end, f"{value}, expected {shown}"
    if kind == "schema":
        errors = sorted(Draft202012Validator(want).iter_errors(value), key=lambda e: e.path)
        if errors:
            return False, f"{_show(value)}: {errors[0].message}"
        return True, f"{_show(value)} fits the schema"
    raise AssertionError(kind)  # present/absent are decided before


def evaluate(matcher: Matcher, arguments: Any, today: str | None = None) -> MatchResult:
    """Check ``matcher`` against a call's ``arguments``.

    Args:
        matcher: A matcher from :func:`parse_matcher`.
        arguments: The call's arguments (normally an object).
        today: The case's ``context.values.today`` for relative dates.

    Return:
        Pass or fail with the reason (what was found, what was expected).
    """
    found, value = lookup(arguments, parse_path(matcher.path))

    def result(passed: bool, reason: str) -> MatchResult:
        return MatchResult(matcher.path, matcher.kind, passed, reason)

    if matcher.kind == "present":
        return result(found, "present" if found else "missing")
    if matcher.kind == "absent":
        return result(not found, f"present: {_show(value)}" if found else "absent")
    if not found:
        return result(False, "missing")
    passed, reason = _check_value(matcher, value, today)
    return result(passed, reason)
