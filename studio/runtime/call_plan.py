"""The common call in few steps: a JSON object whose top level the plans repair in one pass.

Nearly every tool call is a JSON object of a tool whose parameters are an
object; most of its repairs (aliases, enum synonyms, coercions) are on its
top-level properties. :class:`CallPlan` keeps, per tool, what steps 3 and 4
read there, so a call does those steps as flat loops and hands only nested
values to the recursive planned walkers (:func:`~studio.runtime.aliases.map_planned`,
:func:`~studio.runtime.coerce.coerce_planned`) — the same changes, in the same
order, as those walkers make on the whole object. :func:`parse_object` reads
the object with orjson where it reads exactly what ``json.loads`` reads.
"""

from __future__ import annotations

import copy
from typing import Any

import orjson

from studio.runtime.aliases import (
    NamePlan,
    alias_renames,
    map_names,
    map_planned,
    rename_aliases,
)
from studio.runtime.coerce import CoercePlan, Note, coerce_planned
from studio.runtime.validators import is_plain_json

__all__ = ["CallPlan", "copy_arguments", "is_plain_object", "parse_object"]

_INT_AS_FLOAT = 9.2e18
"""orjson reads an integer past 64 bits as a float; every such float is at least this big."""


def parse_object(raw: str) -> dict[str, Any] | None:
    """The JSON object ``raw`` holds, read as ``json.loads`` reads it; None when unsure.

    orjson is ~4× faster and reads what it reads as ``json.loads`` does; it
    refuses lone surrogates, NaN, overflowing floats and control characters, and
    turns integers past 64 bits into floats (so a call holding a float that big
    is left to ``json.loads``). None also for anything but an object: the caller
    parses those the long way, with its repairs and their words.
    """
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return None
    if type(value) is not dict or not _no_big_float(value):
        return None
    return value


def _no_big_float(value: Any) -> bool:
    for item in value.values() if type(value) is dict else value:
        kind = type(item)
        if kind is float:
            if not -_INT_AS_FLOAT < item < _INT_AS_FLOAT:
                return False
        elif (kind is dict or kind is list) and not _no_big_float(item):
            return False
    return True


def copy_arguments(value: Any) -> Any:
    """A deep copy of parsed arguments (JSON values copy without ``copy.deepcopy``'s memo)."""
    kind = type(value)
    if kind is dict:
        return {k: copy_arguments(v) for k, v in value.items()}
    if kind is list:
        return [copy_arguments(v) for v in value]
    if kind is str or kind is int or kind is float or kind is bool or value is None:
        return value
    return copy.deepcopy(value)


def is_plain_object(args: dict[str, Any]) -> bool:
    """:func:`~studio.runtime.validators.is_plain_json` of a dict, strings and flags at a glance."""
    for key, value in args.items():
        if type(key) is not str:
            return False
        kind = type(value)
        if kind is str or kind is bool or value is None:
            continue
        if not is_plain_json(value, 1):
            return False
    return True


_Layout = tuple[tuple[tuple[str, str], ...], tuple[dict[str, Any], ...]]
"""(argument key, the key whose value it gets) in order, and the words of the renames."""


class CallPlan:
    """What steps 3 and 4 read at the top level of one tool's arguments.

    Attributes:
        props: The root's property names (from the name plan).
        lookup: Lower-cased names and aliases → property.
        visits: ``(name, plan, enum values)`` in property order, for the
            properties step 3 may change: ``enum values`` (a set where it can
            be one) when the property can only map an enum synonym, else None
            (its value goes to :func:`map_planned`).
        coercions: Property → its coercion plan; ``settled`` property → the
            Python types a leaf's value may already have (no coercion to try);
            ``strings`` the leaves a string settles.
    """

    __slots__ = (
        "_enum_words",
        "_layouts",
        "coercions",
        "lookup",
        "props",
        "settled",
        "strings",
        "visits",
    )

    def __init__(self, names: NamePlan, coercions: CoercePlan) -> None:
        assert names.props is not None and coercions.props is not None
        self.props = names.props
        self.lookup = names.lookup
        self.visits = tuple(
            (
                name,
                sub,
                _members(sub.enum_schema["enum"]) if sub.enum_schema and sub.enum_only else None,
            )
            for name, sub in names.props.items()
            if sub is not None
        )
        self.coercions = coercions.props
        self.settled = {
            name: sub.exact for name, sub in coercions.props.items() if sub.leaf and sub.types
        }
        self.strings = frozenset(name for name, exact in self.settled.items() if str in exact)
        # What the same keys or the same synonym led to last time: the layout or the
        # target, and the words of the changes (a change costs ~1 µs to word).
        self._layouts: dict[tuple[str, ...], _Layout] = {}
        self._enum_words: dict[tuple[str, str], tuple[Any, dict[str, Any] | None]] = {}

    @classmethod
    def of(cls, names: NamePlan | None, coercions: CoercePlan | None) -> CallPlan | None:
        """The plan, when the root is an object of properties; None otherwise."""
        if names is None or coercions is None or names.props is None or coercions.props is None:
            return None
        if coercions.types and dict not in coercions.exact:
            return None  # a root that may be coerced away from an object: the walkers do it
        return cls(names, coercions)

    def arrange(
        self, parsed: dict[str, Any]
    ) -> tuple[dict[str, Any], list[dict[str, Any]], list[Note]]:
        """Steps 3 and 4 on a copy of ``parsed``: the copy, step 3's changes, step 4's notes."""
        props = self.props
        if props.keys() >= parsed.keys():
            args = parsed.copy()
            changes: list[dict[str, Any]] = []
        else:  # aliases: laid out once per sequence of keys (models repeat themselves)
            keys = tuple(parsed)
            layout = self._layouts.get(keys) or self._layout(keys)
            args = {key: parsed[source] for key, source in layout[0]}
            changes = [words.copy() for words in layout[1]]
        for key, value in args.items():  # values replaced, none added: iterating is safe
            if type(value) not in _SCALARS:
                args[key] = copy_arguments(value)
        for name, sub, members in self.visits:
            if name not in args:
                continue
            value = args[name]
            if members is None:
                args[name] = map_planned(value, sub, f"$.{name}", changes)
            elif isinstance(value, str) and value not in members:
                mapped, change = self._enum_words.get((name, value)) or self._map(name, sub, value)
                args[name] = mapped
                if change is not None:
                    changes.append(change.copy())
        notes: list[Note] = []
        if args.keys() <= self.strings and _all_strings(args):
            return args, changes, notes  # strings where strings are wanted: nothing to coerce
        coercions, settled = self.coercions, self.settled
        for key, item in args.items():  # values are replaced, never added: iterating is safe
            exact = settled.get(key)
            if exact is not None and type(item) in exact:
                continue
            plan = coercions.get(key)
            if plan is None or (plan.leaf and not plan.types):
                continue
            args[key] = coerce_planned(item, plan, f"$.{key}", notes)
        return args, changes, notes

    def _layout(self, keys: tuple[str, ...]) -> _Layout:
        """Where the value of each key goes once aliases are renamed, and the words of it.

        The renames are made on a dict of the keys themselves, so the layout is
        what :func:`rename_aliases` makes of arguments with these keys.
        """
        sources = {key: key for key in keys}
        said: list[dict[str, Any]] = []
        rename_aliases(sources, alias_renames(sources, self.props, self.lookup, "$"), said)
        layout = (tuple(sources.items()), tuple(said))
        _remember(self._layouts, keys, layout)
        return layout

    def _map(self, name: str, plan: NamePlan, value: str) -> tuple[Any, dict[str, Any] | None]:
        """The enum value ``value`` maps to and the words of the change; remembered."""
        said: list[dict[str, Any]] = []
        mapped = map_names(value, plan.enum_schema or {}, f"$.{name}", said)
        words = (mapped, said[0] if said else None)
        _remember(self._enum_words, (name, value), words)
        return words


_SCALARS = frozenset((str, int, float, bool, type(None)))

_REMEMBERED = 1024
"""Misspellings and synonyms remembered per tool (forgotten all at once past it)."""


def _remember(memory: dict[Any, Any], key: Any, value: Any) -> None:
    if len(memory) >= _REMEMBERED:
        memory.clear()
    memory[key] = value


def _all_strings(args: dict[str, Any]) -> bool:
    # A loop, not all(generator): twice as fast for the few values of a call.
    for value in args.values():  # noqa: SIM110
        if type(value) is not str:
            return False
    return True


def _members(enum: list[Any]) -> frozenset[Any] | list[Any]:
    """The enum's values as a set when they hash (a string is in it exactly when in the list)."""
    try:
        return frozenset(enum)
    except TypeError:
        return enum
