"""The fast constructors of hits and findings build exactly what the dataclass's do."""

from __future__ import annotations

import dataclasses
import inspect
import pickle

import pytest

from studio.lint.model import Finding, Hit, QuickFix, Severity, new_finding


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


def test_hit_init_takes_the_declared_fields_with_their_defaults() -> None:
    declared = [
        (f.name, inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default)
        for f in dataclasses.fields(Hit)
    ]
    taken = [(p.name, p.default) for p in list(inspect.signature(Hit).parameters.values())]
    assert taken == declared


def test_hit_sets_every_field_and_stays_frozen() -> None:
    values = ("tool", "a.b", "msg", ("other",), QuickFix("x", ()), Severity.ERROR)
    hit = Hit(*values)
    assert [getattr(hit, f.name) for f in dataclasses.fields(Hit)] == list(values)
    assert Hit("t", "p", "m") == Hit(tool="t", path="p", message="m", related=())
    assert hash(hit) == hash(Hit(*values))
    assert pickle.loads(pickle.dumps(hit)) == hit
    assert dataclasses.replace(hit, path="c").path == "c"
    with pytest.raises(dataclasses.FrozenInstanceError):
        hit.path = "other"  # type: ignore[misc]
