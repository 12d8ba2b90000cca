"""Step 3 of the argument pipeline: alias keys and enum synonyms, by walk or by plan.

A model often writes ``startDate`` for ``start_date`` or ``打车`` for the enum
value ``taxi``; a contract lists such spellings as ``x-aliases`` and
``x-enum-aliases``. :func:`map_names` walks the schema itself;
:class:`NamePlan` reads what the walk needs from a schema once per tool, and
:func:`map_planned` then makes the same changes in the same order without
re-reading the schema on every call.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "NamePlan",
    "Rename",
    "alias_renames",
    "alias_words",
    "map_names",
    "map_planned",
    "rename_aliases",
]


def alias_words(key: str, target: str, path: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The change noted when ``key`` (at ``path``) becomes ``target``, and when it is dropped."""
    return (
        {
            "path": f"{path}.{key}",
            "action": "renamed",
            "to": target,
            "reason": f"{key!r} is an alias of {target!r}",
        },
        {
            "path": f"{path}.{key}",
            "action": "dropped",
            "reason": f"alias of {target!r}, which is also present",
        },
    )


Rename = tuple[str, str, tuple[dict[str, Any], dict[str, Any]]]
"""An alias key, its property and :func:`alias_words` of the two."""


def rename_aliases(
    value: dict[str, Any], renames: list[Rename | None], changes: list[dict[str, Any]]
) -> None:
    """Move each alias key's value to its property, in order; None entries are skipped.

    The model's own spelling of a property wins over an alias of it: two values
    for one property leave the property's value and say the alias was dropped.
    The words of each change are copied (a plan keeps them for the next call).
    """
    for rename in renames:
        if rename is None:
            continue
        key, target, words = rename
        item = value.pop(key)
        if target in value:
            changes.append(words[1].copy())
        else:
            value[target] = item
            changes.append(words[0].copy())


def alias_renames(
    value: dict[str, Any], props: Any, lookup: dict[str, str], path: str
) -> list[Rename | None]:
    """The alias keys of ``value`` (those not in ``props`` that ``lookup`` knows), in order."""
    renames: list[Rename | None] = []
    for key in [k for k in value if k not in props]:
        target = lookup.get(key) or lookup.get(key.lower())
        if target is not None:
            renames.append((key, target, alias_words(key, target, path)))
    return renames


def map_names(value: Any, schema: Any, path: str, changes: list[dict[str, Any]]) -> Any:
    """Step 3, recursively: alias keys → property names; enum synonyms → enum values."""
    if not isinstance(schema, dict):
        return value
    props = schema.get("properties")
    if isinstance(value, dict) and isinstance(props, dict):
        lookup: dict[str, str] = {}
        for name, sub in props.items():
            lookup.setdefault(name.lower(), name)
            if isinstance(sub, dict):
                for alias in sub.get("x-aliases") or ():
                    lookup[alias] = name
                    lookup.setdefault(alias.lower(), name)
        rename_aliases(value, alias_renames(value, props, lookup, path), changes)
        for key, sub in props.items():
            if key in value:
                value[key] = map_names(value[key], sub, f"{path}.{key}", changes)
        return value
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        return [map_names(v, schema["items"], f"{path}[{i}]", changes) for i, v in enumerate(value)]
    enum = schema.get("enum")
    if isinstance(value, str) and isinstance(enum, list) and value not in enum:
        synonyms = schema.get("x-enum-aliases") or {}
        target = synonyms.get(value)
        if target is None:
            lowered = {k.lower(): v for k, v in synonyms.items()}
            target = lowered.get(value.lower())
        reason = f"{value!r} is an enum alias of {target!r}"
        if target is None:
            target = next(
                (e for e in enum if isinstance(e, str) and e.lower() == value.strip().lower()),
                None,
            )
            reason = f"{value!r} matches enum value {target!r} ignoring case"
        if target is not None:
            changes.append(
                {"path": path, "action": "mapped", "from": value, "to": target, "reason": reason}
            )
            return target
    return value


class NamePlan:
    """What :func:`map_names` reads from one schema node, read once per tool.

    ``lookup`` maps a lower-cased name or an alias to its property; enum nodes
    keep their schema, read only when a value is not one of the enum's values.
    """

    __slots__ = ("enum_schema", "items", "lookup", "props")

    def __init__(self, schema: dict[str, Any], depth: int = 0) -> None:
        if depth > 200:
            raise RecursionError("schema too deep to plan")
        props = schema.get("properties")
        self.props: dict[str, NamePlan | None] | None = None
        self.lookup: dict[str, str] = {}
        if isinstance(props, dict):
            self.props = {}
            for name, sub in props.items():
                self.lookup.setdefault(name.lower(), name)
                if isinstance(sub, dict):
                    for alias in sub.get("x-aliases") or ():
                        self.lookup[alias] = name
                        self.lookup.setdefault(alias.lower(), name)
                    self.props[name] = NamePlan(sub, depth + 1).useful()
                else:
                    self.props[name] = None
        items = schema.get("items")
        self.items = NamePlan(items, depth + 1).useful() if isinstance(items, dict) else None
        self.enum_schema = schema if isinstance(schema.get("enum"), list) else None

    def useful(self) -> NamePlan | None:
        """This plan, or None when it can change nothing (a plain leaf: no need to visit)."""
        if self.lookup or self.items is not None or self.enum_schema is not None:
            return self
        if self.props and any(sub is not None for sub in self.props.values()):
            return self
        return None

    @property
    def enum_only(self) -> bool:
        """Whether this node can only map an enum synonym (no properties or items to visit)."""
        return self.props is None and self.items is None and self.enum_schema is not None

    @classmethod
    def of(cls, schema: Any) -> NamePlan | None:
        """The plan of ``schema``; None when it cannot be planned (then the walk does it)."""
        if not isinstance(schema, dict):
            return None
        try:
            return cls(schema)
        except (RecursionError, AttributeError, TypeError):
            return None


def map_planned(value: Any, plan: NamePlan, path: str, changes: list[dict[str, Any]]) -> Any:
    """:func:`map_names` on a planned schema: the same changes in the same order."""
    props = plan.props
    if props is not None and isinstance(value, dict):
        rename_aliases(value, alias_renames(value, props, plan.lookup, path), changes)
        for key, sub in props.items():
            if sub is not None and key in value:
                value[key] = map_planned(value[key], sub, f"{path}.{key}", changes)
        return value
    if plan.items is not None and isinstance(value, list):
        items = plan.items
        return [map_planned(v, items, f"{path}[{i}]", changes) for i, v in enumerate(value)]
    if plan.enum_schema is not None and isinstance(value, str):
        return map_names(value, plan.enum_schema, path, changes)
    return value
