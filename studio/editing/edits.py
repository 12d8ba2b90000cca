"""Edits of one tool contract as plain data (Orange3 style).

Each edit's :meth:`apply` returns the edited tool and the inverse edit, so an
undo stack only has to keep edits. Edits never mutate their input: schemas are
copied before they change.

Property paths address nested parameter schemas by property name, descending
through ``properties``; the segment ``"[]"`` steps into an array's ``items``.
``("invoice", "[]", "id")`` is ``parameters.properties.invoice.items.properties.id``.
"""

from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass
from typing import Any, Protocol

from studio.contract.model import JSONDict, ToolContract

PropertyPath = tuple[str, ...]
ITEMS = "[]"


class _Missing:
    """Marks a schema keyword that is absent (distinct from JSON null)."""

    _instance: _Missing | None = None

    def __new__(cls) -> _Missing:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "MISSING"

    def __deepcopy__(self, memo: dict[int, Any]) -> _Missing:
        return self


MISSING: Any = _Missing()

_FIELDS = {f.name for f in dataclasses.fields(ToolContract)}


class ToolEdit(Protocol):
    """An edit of one tool."""

    @property
    def label(self) -> str:
        """Text for the Undo/Redo menu entries."""
        ...

    def apply(self, tool: ToolContract) -> tuple[ToolContract, ToolEdit]:
        """Return the edited tool and the edit that undoes this one."""
        ...


class EditError(ValueError):
    """An edit does not fit the tool it is applied to (e.g. a missing property)."""


@dataclass(frozen=True, slots=True)
class SetField:
    """Set one top-level field of the contract (``summary``, ``risk``, ``execution``…)."""

    field: str
    value: Any

    @property
    def label(self) -> str:
        return f"Edit {self.field.replace('_', ' ')}"

    def apply(self, tool: ToolContract) -> tuple[ToolContract, SetField]:
        if self.field not in _FIELDS or self.field == "parameters":
            raise EditError(f"{self.field!r} is not a settable field")
        old = getattr(tool, self.field)
        return dataclasses.replace(tool, **{self.field: self.value}), SetField(self.field, old)


@dataclass(frozen=True, slots=True)
class ReplaceTool:
    """Replace the whole contract (the JSON tab's edit)."""

    tool: ToolContract
    text: str = "Edit JSON"

    @property
    def label(self) -> str:
        return self.text

    def apply(self, tool: ToolContract) -> tuple[ToolContract, ReplaceTool]:
        return self.tool, ReplaceTool(tool, self.text)


@dataclass(frozen=True, slots=True)
class SetPropertyKey:
    """Set (or with ``MISSING`` remove) one keyword of a property's schema."""

    path: PropertyPath
    key: str
    value: Any

    @property
    def label(self) -> str:
        return f"Edit {self.key} of {'.'.join(self.path)}"

    def apply(self, tool: ToolContract) -> tuple[ToolContract, SetPropertyKey]:
        params = copy.deepcopy(tool.parameters)
        schema = property_schema(params, self.path)
        old = schema.get(self.key, MISSING)
        if self.value is MISSING:
            schema.pop(self.key, None)
        else:
            schema[self.key] = copy.deepcopy(self.value)
        return _with_params(tool, params), SetPropertyKey(self.path, self.key, old)


@dataclass(frozen=True, slots=True)
class SetRequired:
    """Make a property required or optional in its parent object."""

    path: PropertyPath
    required: bool

    @property
    def label(self) -> str:
        return f"Make {'.'.join(self.path)} {'required' if self.required else 'optional'}"

    def apply(self, tool: ToolContract) -> tuple[ToolContract, SetRequired]:
        params = copy.deepcopy(tool.parameters)
        parent = parent_schema(params, self.path)
        name = self.path[-1]
        req = list(parent.get("required", []))
        was = name in req
        if self.required and not was:
            req.append(name)
        elif not self.required and was:
            req.remove(name)
        if req:
            parent["required"] = req
        else:
            parent.pop("required", None)
        return _with_params(tool, params), SetRequired(self.path, was)


@dataclass(frozen=True, slots=True)
class AddProperty:
    """Insert a property into an object schema (at ``index``, or last)."""

    path: PropertyPath
    schema: JSONDict
    required: bool = False
    index: int | None = None
    required_index: int | None = None

    @property
    def label(self) -> str:
        return f"Add parameter {'.'.join(self.path)}"

    def apply(self, tool: ToolContract) -> tuple[ToolContract, RemoveProperty]:
        params = copy.deepcopy(tool.parameters)
        parent = parent_schema(params, self.path)
        name = self.path[-1]
        props = parent.setdefault("properties", {})
        if name in props:
            raise EditError(f"a parameter named {name!r} already exists")
        items = list(props.items())
        at = len(items) if self.index is None else max(0, min(self.index, len(items)))
        items.insert(at, (name, copy.deepcopy(self.schema)))
        parent["properties"] = dict(items)
        if self.required:
            req = list(parent.get("required", []))
            req.insert(len(req) if self.required_index is None else self.required_index, name)
            parent["required"] = req
        return _with_params(tool, params), RemoveProperty(self.path)


@dataclass(frozen=True, slots=True)
class RemoveProperty:
    """Remove a property (and its ``required`` entry) from its object schema."""

    path: PropertyPath

    @property
    def label(self) -> str:
        return f"Remove parameter {'.'.join(self.path)}"

    def apply(self, tool: ToolContract) -> tuple[ToolContract, AddProperty]:
        params = copy.deepcopy(tool.parameters)
        parent = parent_schema(params, self.path)
        name = self.path[-1]
        props = parent.get("properties", {})
        if name not in props:
            raise EditError(f"no parameter named {name!r}")
        index = list(props).index(name)
        schema = props.pop(name)
        req = list(parent.get("required", []))
        was_required = name in req
        required_index = req.index(name) if was_required else None
        if was_required:
            req.remove(name)
            if req:
                parent["required"] = req
            else:
                parent.pop("required", None)
        inverse = AddProperty(self.path, schema, was_required, index, required_index)
        return _with_params(tool, params), inverse


@dataclass(frozen=True, slots=True)
class RenameProperty:
    """Rename a property in place, keeping its position and ``required`` entry."""

    path: PropertyPath
    new_name: str

    @property
    def label(self) -> str:
        return f"Rename parameter {self.path[-1]} to {self.new_name}"

    def apply(self, tool: ToolContract) -> tuple[ToolContract, RenameProperty]:
        params = copy.deepcopy(tool.parameters)
        parent = parent_schema(params, self.path)
        old = self.path[-1]
        props = parent.get("properties", {})
        if old not in props:
            raise EditError(f"no parameter named {old!r}")
        if self.new_name in props and self.new_name != old:
            raise EditError(f"a parameter named {self.new_name!r} already exists")
        parent["properties"] = {(self.new_name if k == old else k): v for k, v in props.items()}
        if "required" in parent:
            parent["required"] = [self.new_name if r == old else r for r in parent["required"]]
        inverse = RenameProperty((*self.path[:-1], self.new_name), old)
        return _with_params(tool, params), inverse


def property_schema(params: JSONDict, path: PropertyPath) -> JSONDict:
    """The schema dict at ``path`` inside ``params`` (the same object, not a copy)."""
    node = params
    for i, segment in enumerate(path):
        nxt = node.get("items") if segment == ITEMS else (node.get("properties") or {}).get(segment)
        if not isinstance(nxt, dict):
            raise EditError(f"no parameter at {'.'.join(path[: i + 1])}")
        node = nxt
    return node


def parent_schema(params: JSONDict, path: PropertyPath) -> JSONDict:
    """The object schema that holds the property at ``path``."""
    if not path or path[-1] == ITEMS:
        raise EditError("a property path must end in a property name")
    return property_schema(params, path[:-1])


def _with_params(tool: ToolContract, params: JSONDict) -> ToolContract:
    return dataclasses.replace(tool, parameters=params)
