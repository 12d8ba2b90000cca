"""The engine's fast finding constructor builds exactly what the dataclass's does."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from studio.lint.model import Finding, QuickFix, Severity, new_finding


def test_new_finding_equals_the_constructor_field_by_field() -> None:
    values = ("rule", "cat", Severity.ERROR, "tool", "a.b", "msg", ("other",), QuickFix("x", ()))
    built = new_finding(*values)
    assert built == Finding(*values)
    # Every field is set (a field added to Finding but not here would be missing).
    assert [getattr(built, f.name) for f in dataclasses.fields(Finding)] == [*values, None]
    assert hash(built) == hash(Finding(*values))
    assert pickle.loads(pickle.dumps(built)) == built


def test_new_finding_is_frozen_and_replaceable() -> None:
    built = new_finding("rule", "cat", Severity.INFO, None, "", "msg", (), None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.message = "other"  # type: ignore[misc]
    moved = dataclasses.replace(built, suppressed_reason="accepted")
    assert moved.suppressed_reason == "accepted" and moved.rule_id == "rule"
