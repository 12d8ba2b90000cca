"""OpenAPI schemas as self-contained JSON Schema 2020-12 (what a tool contract holds).

``$ref`` is resolved with :mod:`referencing` against the document itself:
only local references (``#/components/schemas/Pet``) are followed; a remote
one (``other.yaml#/Pet``, ``https://…``) is refused with a :class:`FormatError`
naming where it sits, since an import never reaches the network.

Every reference is inlined, so a contract needs nothing outside itself. A
schema that refers back to itself (a tree of comments) is cut where it
repeats: that place becomes ``{}`` with a description, and a note gives the
chain (``Comment → replies → Comment``). A reference that only leads to
references in a loop is an error with that chain.

OpenAPI 3.0 is turned into 2020-12: ``nullable`` adds ``null`` to the type,
``example`` becomes ``examples``, boolean ``exclusiveMinimum``/``Maximum``
become numbers; ``discriminator``, ``xml``, ``externalDocs`` and ``x-``
extensions are dropped (an ``x-`` key means something else in the studio).
For inputs, ``readOnly`` properties are left out; for outputs, ``writeOnly``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import jsonschema_rs
from referencing import Registry, Resource
from referencing.exceptions import Unresolvable
from referencing.jsonschema import DRAFT202012

from studio.contract.tree_size import grows_past
from studio.formats.base import FormatError, Note
from studio.formats.schema import SCHEMA_LISTS, SCHEMA_MAPS, SCHEMA_SINGLES

_DOC_URI = "urn:studio:openapi-document"
_DROPPED = frozenset({"discriminator", "xml", "externalDocs", "nullable", "example"})
_SCHEMA_MAPS = SCHEMA_MAPS
_SCHEMA_LISTS = SCHEMA_LISTS
_SCHEMA_ONE = (*SCHEMA_SINGLES, "additionalItems")  # OpenAPI 3.0 documents still use it
# How many references deep one schema is inlined; past it the schema is cut
# like a cycle. Real documents stay far below; it bounds the size of a contract.
MAX_REF_DEPTH = 12


MAX_SCHEMA_VALUES = 200_000
"""How many values (objects, arrays, scalars) one inlined schema may hold as a tree."""


@dataclass
class Refs:
    """Local ``$ref`` resolution over one OpenAPI document.

    Attributes:
        version: ``3.0`` or ``3.1`` (how schemas are converted).
        notes: Cycles and cuts found, one note per place.
    """

    document: dict[str, Any]
    source: str
    version: str = "3.0"
    notes: list[Note] = field(default_factory=list)
    _cache: dict[tuple[str, str], Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        resource: Resource[Any] = Resource.from_contents(
            self.document, default_specification=DRAFT202012
        )
        self._resolver = Registry().with_resource(_DOC_URI, resource).resolver(_DOC_URI)

    def lookup(self, ref: str, where: str) -> Any:
        """The value ``ref`` points at (one step; the target may be a ``$ref`` again).

        Raises:
            FormatError: for a remote reference or one that points nowhere.
        """
        if not isinstance(ref, str) or not ref.startswith("#"):
            raise FormatError(
                f"{self.source}: {where}: $ref {ref!r} points outside the document; only local "
                "references (#/components/…) are followed: an import never reaches the network "
                "or other files — bundle the document first (e.g. redocly bundle)"
            )
        try:
            return self._resolver.lookup(ref).contents
        except Unresolvable:
            raise FormatError(f"{self.source}: {where}: $ref {ref!r} points nowhere") from None

    def deref(self, value: Any, where: str) -> Any:
        """``value`` with ``$ref`` chains followed (for parameters, bodies, responses)."""
        seen: list[str] = []
        while isinstance(value, dict) and "$ref" in value:
            ref = value["$ref"]
            if ref in seen:
                chain = " → ".join([*seen, ref])
                raise FormatError(f"{self.source}: {where}: $ref cycle: {chain}")
            seen.append(ref)
            value = self.lookup(ref, where)
        return value

    def schema(self, schema: Any, where: str, mode: str) -> dict[str, Any]:
        """``schema`` self-contained and in 2020-12; ``mode`` is ``input`` or ``output``.

        Inlined references share their converted value, so the result is small in
        memory; but everything after the import walks it as a tree. One past
        :data:`MAX_SCHEMA_VALUES` values as a tree (ten properties each referring
        to the next schema, nine deep: 10^9) is cut to ``{}`` with a note.
        """
        converted = self._convert(schema, where, mode, ())
        if grows_past(converted, MAX_SCHEMA_VALUES):
            message = (
                f"the schema expands past {MAX_SCHEMA_VALUES:,} values through its $refs; "
                "cut to {}"
            )
            self.notes.append(Note(where, message, "lost"))
            return {"description": "not expanded: too large once its $refs are inlined"}
        return converted if isinstance(converted, dict) else {}

    def _convert(self, schema: Any, where: str, mode: str, stack: tuple[str, ...]) -> Any:
        if isinstance(schema, bool):
            return schema
        if not isinstance(schema, dict):
            return {}
        ref = schema.get("$ref")
        if isinstance(ref, str):
            return self._convert_ref(schema, ref, where, mode, stack)
        out: dict[str, Any] = {}
        for key, value in schema.items():
            if key in _DROPPED or key.startswith("x-"):
                continue
            if key in _SCHEMA_MAPS and isinstance(value, dict):
                out[key] = self._convert_properties(key, value, where, mode, stack)
            elif key in _SCHEMA_LISTS and isinstance(value, list):
                out[key] = [self._convert(v, where, mode, stack) for v in value]
            elif key in _SCHEMA_ONE and isinstance(value, dict | bool):
                out[key] = self._convert(value, where, mode, stack)
            else:
                out[key] = value
        if self.version == "3.0":
            _from_30(schema, out)
        if isinstance(out.get("allOf"), list):
            _merge_all_of(out)
        if "examples" in out or "default" in out:
            self._check_examples(out, where)
        if "required" in out and isinstance(out.get("properties"), dict):
            kept = [r for r in out["required"] if r in out["properties"]]
            if kept != out["required"] and schema.get("properties") is not None:
                out["required"] = kept
            if not out["required"]:
                del out["required"]
        return out

    def _check_examples(self, out: dict[str, Any], where: str) -> None:
        """Drop the examples and default that fail their own schema (the document's mistake)."""
        examples = out.get("examples", [])
        if not isinstance(examples, list):
            del out["examples"]
            examples = []
        rest = {k: v for k, v in out.items() if k not in ("examples", "default")}
        try:
            validator = jsonschema_rs.validator_for(rest)
            kept = [e for e in examples if validator.is_valid(e)]
            if "default" in out and not validator.is_valid(out["default"]):
                del out["default"]
                self.notes.append(
                    Note(where, "a default that fails its own schema was dropped", "lost")
                )
        except (ValueError, TypeError, OverflowError):  # a schema the fast validator refuses
            return
        if "examples" not in out:
            return
        if len(kept) != len(examples):
            self.notes.append(
                Note(where, "schema examples that fail their own schema were dropped", "lost")
            )
            if kept:
                out["examples"] = kept
            else:
                del out["examples"]

    def _convert_properties(
        self, key: str, value: dict[str, Any], where: str, mode: str, stack: tuple[str, ...]
    ) -> dict[str, Any]:
        out = {}
        hidden = "readOnly" if mode == "input" else "writeOnly"
        for name, sub in value.items():
            if key == "properties":
                target = self.deref(sub, where) if isinstance(sub, dict) else sub
                if isinstance(target, dict) and target.get(hidden) is True:
                    continue
            out[name] = self._convert(sub, where, mode, stack)
        return out

    def _convert_ref(
        self, schema: dict[str, Any], ref: str, where: str, mode: str, stack: tuple[str, ...]
    ) -> Any:
        short = ref.rsplit("/", 1)[-1]
        if ref in stack or len(stack) >= MAX_REF_DEPTH:
            why = "refers back to itself" if ref in stack else f"nests over {MAX_REF_DEPTH} $refs"
            chain = " → ".join(r.rsplit("/", 1)[-1] for r in (*stack, ref))
            self.notes.append(
                Note(where, f"schema {short} {why} ({chain}); cut there to {{}}", "lost")
            )
            return {"description": f"{short} (recursive; not expanded)"}
        key = (ref, mode)
        cached = self._cache.get(key)
        if cached is None:
            target = self.deref(schema, where)
            notes_before = len(self.notes)
            cached = self._convert(target, where, mode, (*stack, ref))
            if len(self.notes) == notes_before:
                self._cache[key] = cached  # a cut depends on the stack: never cached
        siblings = {k: v for k, v in schema.items() if k != "$ref"}
        if siblings and isinstance(cached, dict):
            extra = self._convert(siblings, where, mode, stack)
            merged = {**cached, **extra}
            if "default" in extra or "examples" in extra:
                self._check_examples(merged, where)  # a sibling default meets the real schema
            return merged
        return cached


_MERGEABLE = frozenset({"type", "properties", "required", "description", "title"})


def _merge_all_of(out: dict[str, Any]) -> None:
    """Fold ``allOf`` branches that only add properties into ``out`` (in place).

    ``allOf: [Base, {required: [id]}]`` is how OpenAPI documents extend a
    schema; one plain object is what a model (and the lint) reads best.
    Anything else (a branch with ``oneOf``, a non-object type) stays as it is.
    """
    branches = out["allOf"]
    if not all(isinstance(b, dict) and set(b) <= _MERGEABLE for b in branches):
        return
    if any(b.get("type", "object") != "object" for b in branches):
        return
    if out.get("type", "object") != "object":
        return
    properties: dict[str, Any] = dict(out.get("properties") or {})
    required: list[str] = list(out.get("required") or [])
    for branch in branches:
        properties.update(branch.get("properties") or {})
        required.extend(branch.get("required") or [])
        for key in ("description", "title"):
            if key in branch:
                out.setdefault(key, branch[key])
    del out["allOf"]
    out["type"] = "object"
    out["properties"] = properties
    if required:
        out["required"] = [r for r in dict.fromkeys(required) if r in properties]


def _from_30(schema: dict[str, Any], out: dict[str, Any]) -> None:
    """The 3.0 keywords 2020-12 spells differently, in place on ``out``."""
    if "example" in schema:
        out.setdefault("examples", [schema["example"]])
    if schema.get("nullable") is True:
        kind = out.get("type")
        if isinstance(kind, str):
            out["type"] = [kind, "null"]
        elif isinstance(kind, list) and "null" not in kind:
            out["type"] = [*kind, "null"]
        if isinstance(out.get("enum"), list) and None not in out["enum"]:
            out["enum"] = [*out["enum"], None]
    for bound, limit in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
        if isinstance(schema.get(bound), bool):
            if schema[bound] and limit in out:
                out[bound] = out.pop(limit)
            else:
                out.pop(bound, None)
