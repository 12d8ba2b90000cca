"""Hits, findings and schema walk nodes, built through their slots' setters, are the
dataclasses they declare."""

from __future__ import annotations

import dataclasses
import inspect
import pickle

import pytest

from studio.lint.model import Finding, Hit, QuickFix, Severity
from studio.lint.rules._common import PropertyRef, SchemaNode

_VALUES = {
    Hit: ("tool", "a.b", "msg", ("other",), QuickFix("x", ()), Severity.ERROR),
    Finding: (
        *("rule", "cat", Severity.ERROR, "tool", "a.b", "msg", ("other",), QuickFix("x", ())),
        "accepted",
    ),
    PropertyRef: ("id", {"type": "string"}, ("a", "id"), "parameters.properties.a", {}, False),
    SchemaNode: ({"type": "object"}, "parameters", (), 1),
}
_CLASSES = list(_VALUES)


@pytest.mark.parametrize("cls", _CLASSES)
def test_init_takes_the_declared_fields_with_their_defaults(cls: type) -> None:
    declared = [
        (f.name, inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default)
        for f in dataclasses.fields(cls)
    ]
    taken = [(p.name, p.default) for p in inspect.signature(cls).parameters.values()]
    assert taken == declared


@pytest.mark.parametrize("cls", _CLASSES)
def test_every_field_is_set_and_the_object_stays_a_frozen_dataclass(cls: type) -> None:
    values = _VALUES[cls]
    names = [f.name for f in dataclasses.fields(cls)]
    built = cls(*values)
    assert [getattr(built, name) for name in names] == list(values)
    assert built == cls(*values) == cls(**dict(zip(names, values, strict=True)))
    for name in names:
        changed = dataclasses.replace(built, **{name: "other"})
        assert getattr(changed, name) == "other" and changed != built
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(built, name, "other")


@pytest.mark.parametrize("cls", [Hit, Finding])
def test_hashes_as_its_fields(cls: type) -> None:
    assert hash(cls(*_VALUES[cls])) == hash(cls(*_VALUES[cls]))


@pytest.mark.parametrize("cls", [Hit, Finding])
def test_pickles_as_its_constructor_arguments(cls: type) -> None:
    built = cls(*_VALUES[cls])
    assert pickle.loads(pickle.dumps(built, protocol=pickle.HIGHEST_PROTOCOL)) == built
    assert built.__reduce__() == (cls, _VALUES[cls])
