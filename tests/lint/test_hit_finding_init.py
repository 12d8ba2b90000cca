"""Hits and findings, built through their slots' setters, are the dataclasses they declare."""

from __future__ import annotations

import dataclasses
import inspect
import pickle

import pytest

from studio.lint.model import Finding, Hit, QuickFix, Severity

_VALUES = {
    Hit: ("tool", "a.b", "msg", ("other",), QuickFix("x", ()), Severity.ERROR),
    Finding: (
        *("rule", "cat", Severity.ERROR, "tool", "a.b", "msg", ("other",), QuickFix("x", ())),
        "accepted",
    ),
}


@pytest.mark.parametrize("cls", [Hit, Finding])
def test_init_takes_the_declared_fields_with_their_defaults(cls: type) -> None:
    declared = [
        (f.name, inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default)
        for f in dataclasses.fields(cls)
    ]
    taken = [(p.name, p.default) for p in inspect.signature(cls).parameters.values()]
    assert taken == declared


@pytest.mark.parametrize("cls", [Hit, Finding])
def test_every_field_is_set_and_the_object_stays_a_frozen_dataclass(cls: type) -> None:
    values = _VALUES[cls]
    built = cls(*values)
    assert [getattr(built, f.name) for f in dataclasses.fields(cls)] == list(values)
    assert built == cls(*values) and hash(built) == hash(cls(*values))
    assert built != dataclasses.replace(built, path="c")
    assert dataclasses.replace(built, path="c").path == "c"
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.path = "other"
    names = [f.name for f in dataclasses.fields(cls)]
    assert cls(**dict(zip(names, values, strict=True))) == built


@pytest.mark.parametrize("cls", [Hit, Finding])
def test_pickles_as_its_constructor_arguments(cls: type) -> None:
    built = cls(*_VALUES[cls])
    assert pickle.loads(pickle.dumps(built, protocol=pickle.HIGHEST_PROTOCOL)) == built
    assert built.__reduce__() == (cls, _VALUES[cls])
