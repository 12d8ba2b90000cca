"""Classified changes between two JSON Schemas of a tool's input (DESIGN §7).

The question asked of every difference is the one a caller cares about:
*would arguments that were valid before be rejected now?* If so the change is
**breaking**; if not but it changes how a model chooses or fills arguments
(descriptions, defaults, aliases) it is **behavioural**; relaxing or additive
changes are **compatible**; display-only ones (titles, unknown ``x-`` keys)
are **metadata**.

Decisions worth knowing:

- A removed property is breaking only when B rejects unknown keys
  (``additionalProperties: false``); otherwise an old argument that still
  carries it is accepted (and ignored), which is behavioural.
- A property that becomes injected (``x-injected`` added) disappears from the
  schema the model sees, so it is classed like a removed property. One that
  stops being injected appears in the model's schema: breaking when required,
  compatible otherwise. Injected properties are invisible to the model, so
  their own constraints are summarised as one behavioural change.
- Changes the walker cannot reason about (``not``, ``if``/``then``,
  ``$ref`` …) are classed conservatively: added or changed is breaking,
  removed is compatible.
"""

from __future__ import annotations

import json
import math
from difflib import SequenceMatcher
from typing import Any

from studio.diff.model import Change, ChangeClass
from studio.lint.text import split_identifier

B = ChangeClass.BREAKING
H = ChangeClass.BEHAVIOURAL
C = ChangeClass.COMPATIBLE
M = ChangeClass.METADATA

MIN_KEYS = ("minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains")
MAX_KEYS = ("maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains")
BRANCH_KEYS = ("anyOf", "oneOf", "allOf")
ANNOTATIONS = ("description", "title", "default", "examples", "deprecated", "$comment")

# Keywords the walker handles itself; anything else goes to the generic rule.
_HANDLED = frozenset(
    (
        "type", "nullable", "enum", "const", "pattern", "format", "multipleOf", "uniqueItems",
        "additionalProperties", "properties", "required", "items", "prefixItems", "$defs",
        "definitions", "readOnly", "writeOnly", "x-aliases", "x-enum-aliases", "x-injected",
        *MIN_KEYS, *MAX_KEYS, *BRANCH_KEYS, *ANNOTATIONS,
    )
)  # fmt: skip


def diff_schema(
    before: Any, after: Any, *, tool: str | None, path: str = "parameters"
) -> list[Change]:
    """Every classified change from schema ``before`` to schema ``after``.

    Args:
        before: The schema in A (a dict, a boolean schema, or None for "any").
        after: The schema in B.
        tool: The tool's name, copied into each change.
        path: Dotted path of the schema in the tool document.

    Return:
        Changes in document order (nested objects and array items recursed).
    """
    walker = _Walker(tool)
    walker.walk(before, after, path)
    return walker.out


def canonical(value: Any) -> str:
    """A hashable, key-order-independent form of a JSON value."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _as_schema(value: Any) -> dict[str, Any]:
    if value is None or value is True:
        return {}
    if value is False:
        return {"not": {}}
    return value if isinstance(value, dict) else {}


def _dict(value: Any) -> dict[str, Any]:
    """``value`` when it is a dict, else an empty one."""
    return value if isinstance(value, dict) else {}


def is_injected(schema: Any) -> bool:
    """True for a property whose value the runtime fills from the session context."""
    return isinstance(schema, dict) and isinstance(schema.get("x-injected"), str)


def _types(schema: dict[str, Any]) -> frozenset[str] | None:
    raw = schema.get("type")
    if raw is None:
        return None
    found = {raw} if isinstance(raw, str) else {t for t in raw if isinstance(t, str)}
    if schema.get("nullable") is True:
        found.add("null")
    if "number" in found:
        found.add("integer")
    return frozenset(found)


def _numeric(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _strip_annotations(schema: Any) -> str:
    if not isinstance(schema, dict):
        return canonical(schema)
    kept = {k: v for k, v in schema.items() if k not in ANNOTATIONS and k != "x-aliases"}
    return canonical(kept)


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= 60 else text[:57] + "..."


class _Walker:
    def __init__(self, tool: str | None) -> None:
        self.tool = tool
        self.out: list[Change] = []

    def add(
        self, rule: str, klass: ChangeClass, path: str, before: Any, after: Any, message: str
    ) -> None:
        self.out.append(Change(rule, klass, self.tool, path, before, after, message))

    # ------------------------------------------------------------------ walk

    def walk(self, before: Any, after: Any, path: str) -> None:
        a, b = _as_schema(before), _as_schema(after)
        if a == b:
            return
        self._annotations(a, b, path)
        self._type(a, b, path)
        self._enum(a, b, path)
        self._const(a, b, path)
        for key in ("pattern", "format"):
            self._added_tightens(a, b, path, key)
        self._bounds(a, b, path)
        self._properties(a, b, path)
        self._additional(a, b, path)
        self._items(a, b, path)
        for key in BRANCH_KEYS:
            self._branches(a, b, path, key)
        for key in ("$defs", "definitions"):
            self._defs(a, b, path, key)
        self._generic(a, b, path)

    def _annotations(self, a: dict, b: dict, path: str) -> None:
        rules = {
            "description": ("schema.description-changed", H, "how the model fills it"),
            "default": ("schema.default-changed", H, "what an omitted value means"),
            "examples": ("schema.examples-changed", H, "how the model fills it"),
            "deprecated": ("schema.deprecated-changed", H, "whether the model uses it"),
            "title": ("schema.title-changed", M, "display only"),
            "$comment": ("schema.comment-changed", M, "not seen by the model"),
            "readOnly": ("schema.annotation-changed", M, "an annotation"),
            "writeOnly": ("schema.annotation-changed", M, "an annotation"),
        }
        for key, (rule, klass, why) in rules.items():
            if a.get(key) != b.get(key):
                self.add(
                    rule, klass, f"{path}.{key}", a.get(key), b.get(key),
                    f"{key} {_verb(a.get(key), b.get(key))} ({why})",
                )  # fmt: skip
        if a.get("x-aliases") != b.get("x-aliases"):
            old = set(_str_list(a.get("x-aliases")))
            new = set(_str_list(b.get("x-aliases")))
            parts = []
            if new - old:
                parts.append("added " + ", ".join(sorted(new - old)))
            if old - new:
                parts.append("removed " + ", ".join(sorted(old - new)))
            self.add(
                "schema.aliases-changed", H, f"{path}.x-aliases", a.get("x-aliases"),
                b.get("x-aliases"),
                f"key aliases {'; '.join(parts) or 'reordered'} (which keys the runtime maps)",
            )  # fmt: skip
        if a.get("x-enum-aliases") != b.get("x-enum-aliases"):
            self.add(
                "schema.enum-aliases-changed", H, f"{path}.x-enum-aliases",
                a.get("x-enum-aliases"), b.get("x-enum-aliases"),
                "enum value synonyms changed (what a value the model writes means)",
            )  # fmt: skip

    def _type(self, a: dict, b: dict, path: str) -> None:
        ta, tb = _types(a), _types(b)
        if ta == tb:
            return
        where, old, new = f"{path}.type", a.get("type"), b.get("type")
        if ta is None:
            self.add("schema.type-narrowed", B, where, old, new, f"type {_show(new)} added")
        elif tb is None:
            self.add("schema.type-widened", C, where, old, new, "type constraint removed")
        elif tb < ta:
            if ta - tb == {"null"}:
                self.add("schema.nullable-removed", B, where, old, new, "null no longer accepted")
            else:
                lost = ", ".join(sorted(ta - tb))
                self.add("schema.type-narrowed", B, where, old, new, f"no longer accepts {lost}")
        elif ta < tb:
            if tb - ta == {"null"}:
                self.add("schema.nullable-added", C, where, old, new, "null now accepted")
            else:
                self.add(
                    "schema.type-widened", C, where, old, new,
                    f"now also accepts {', '.join(sorted(tb - ta))}",
                )  # fmt: skip
        else:
            self.add(
                "schema.type-changed", B, where, old, new,
                f"type {_show(old)} → {_show(new)}: old values are rejected",
            )  # fmt: skip

    def _enum(self, a: dict, b: dict, path: str) -> None:
        ea, eb = a.get("enum"), b.get("enum")
        if ea == eb:
            return
        where = f"{path}.enum"
        if not isinstance(ea, list):
            if isinstance(eb, list):
                self.add("schema.enum-added", B, where, None, eb, f"values limited to {_show(eb)}")
            return
        if not isinstance(eb, list):
            self.add("schema.enum-removed", C, where, ea, None, "any value accepted now")
            return
        keys_b = {canonical(v) for v in eb}
        keys_a = {canonical(v) for v in ea}
        for value in ea:
            if canonical(value) not in keys_b:
                self.add(
                    "schema.enum-value-removed", B, where, value, None,
                    f"value {_show(value)} is no longer accepted",
                )  # fmt: skip
        for value in eb:
            if canonical(value) not in keys_a:
                self.add(
                    "schema.enum-value-added", C, where, None, value, f"value {_show(value)} added"
                )

    def _const(self, a: dict, b: dict, path: str) -> None:
        if canonical(a.get("const")) == canonical(b.get("const")) and ("const" in a) == (
            "const" in b
        ):
            return
        where = f"{path}.const"
        if "const" not in a:
            self.add("schema.const-added", B, where, None, b["const"], "value fixed by const")
        elif "const" not in b:
            self.add("schema.const-removed", C, where, a["const"], None, "const removed")
        else:
            self.add(
                "schema.const-changed", B, where, a["const"], b["const"],
                "the only accepted value changed",
            )  # fmt: skip

    def _added_tightens(self, a: dict, b: dict, path: str, key: str) -> None:
        va, vb = a.get(key), b.get(key)
        if va == vb:
            return
        where = f"{path}.{key}"
        if va is None:
            self.add(f"schema.{key}-added", B, where, None, vb, f"{key} {_show(vb)} added")
        elif vb is None:
            self.add(f"schema.{key}-removed", C, where, va, None, f"{key} removed")
        else:
            self.add(
                f"schema.{key}-changed", B, where, va, vb,
                f"{key} {_show(va)} → {_show(vb)}; old values may be rejected",
            )  # fmt: skip

    def _bounds(self, a: dict, b: dict, path: str) -> None:
        for key in (*MIN_KEYS, *MAX_KEYS):
            va, vb = a.get(key), b.get(key)
            if va == vb:
                continue
            if (va is not None and not _numeric(va)) or (vb is not None and not _numeric(vb)):
                continue  # draft-4 boolean exclusive bounds: left to the generic rule
            if va is None:
                tight = True
            elif vb is None:
                tight = False
            else:
                tight = vb > va if key in MIN_KEYS else vb < va
            self._bound(path, key, va, vb, tight)
        ma, mb = a.get("multipleOf"), b.get("multipleOf")
        if ma != mb and (ma is None or _numeric(ma)) and (mb is None or _numeric(mb)):
            # Relaxed only when every multiple of the old step is one of the new.
            tight = ma is None if ma is None or mb is None else not _divides(mb, ma)
            self._bound(path, "multipleOf", ma, mb, tight)
        ua, ub = bool(a.get("uniqueItems")), bool(b.get("uniqueItems"))
        if ua != ub:
            self._bound(path, "uniqueItems", a.get("uniqueItems"), b.get("uniqueItems"), ub)

    def _bound(self, path: str, key: str, va: Any, vb: Any, tight: bool) -> None:
        rule, klass = ("schema.bound-tightened", B) if tight else ("schema.bound-relaxed", C)
        word = "tightened" if tight else "relaxed"
        self.add(rule, klass, f"{path}.{key}", va, vb, f"{key} {_verb(va, vb)} ({word})")

    def _properties(self, a: dict, b: dict, path: str) -> None:
        pa = _dict(a.get("properties"))
        pb = _dict(b.get("properties"))
        ra = {n for n in _str_list(a.get("required")) if not is_injected(pa.get(n))}
        rb = {n for n in _str_list(b.get("required")) if not is_injected(pb.get(n))}
        if pa == pb and ra == rb:
            return
        base = f"{path}.properties"
        rejects = b.get("additionalProperties") is False or b.get("unevaluatedProperties") is False
        # Sorted, so the diff does not depend on the key order of either schema.
        removed = sorted(n for n in pa if n not in pb)
        added = sorted(n for n in pb if n not in pa)
        renames = _pair_renamed(removed, added, pa, pb)
        for old, new in renames.items():
            aliased = old in _str_list(_as_schema(pb[new]).get("x-aliases"))
            if aliased:
                klass, why = H, f"'{old}' is still accepted through x-aliases"
            elif rejects or new in rb:
                klass, why = B, f"arguments using '{old}' are rejected"
            else:
                klass, why = H, f"an old '{old}' argument is accepted but ignored"
            self.add(
                "schema.property-renamed", klass, f"{base}.{new}", old, new,
                f"property '{old}' renamed to '{new}': {why}",
            )  # fmt: skip
            self.walk(pa[old], pb[new], f"{base}.{new}")
        for name in removed:
            if name in renames:
                continue
            where = f"{base}.{name}"
            if is_injected(pa[name]):
                self.add(
                    "schema.injected-property-removed", H, where, pa[name], None,
                    f"injected property '{name}' removed; the runtime no longer supplies it",
                )  # fmt: skip
            elif rejects:
                self.add(
                    "schema.property-removed", B, where, pa[name], None,
                    f"property '{name}' removed and unknown keys are rejected",
                )  # fmt: skip
            else:
                self.add(
                    "schema.property-removed", H, where, pa[name], None,
                    f"property '{name}' removed; unknown keys are still accepted, so an old "
                    "argument passes but is ignored",
                )  # fmt: skip
        renamed_to = set(renames.values())
        for name in added:
            if name in renamed_to:
                continue
            where = f"{base}.{name}"
            if is_injected(pb[name]):
                self.add(
                    "schema.injected-property-added", C, where, None, pb[name],
                    f"property '{name}' added, filled by the runtime from "
                    f"{pb[name]['x-injected']} (the model does not see it)",
                )  # fmt: skip
            elif name in rb:
                self.add(
                    "schema.required-added", B, where, None, pb[name],
                    f"required property '{name}' added; old arguments lack it",
                )  # fmt: skip
            else:
                self.add(
                    "schema.property-added", C, where, None, pb[name],
                    f"optional property '{name}' added",
                )  # fmt: skip
        for name in sorted(pa):
            if name in pb:
                self._common_property(name, pa[name], pb[name], ra, rb, rejects, base)
        # Required names without a property definition on either side.
        for name in sorted(rb - ra):
            if name not in pa and name not in pb:
                self.add(
                    "schema.required-added", B, f"{path}.required", None, name,
                    f"'{name}' is now required",
                )  # fmt: skip

    def _common_property(
        self, name: str, sa: Any, sb: Any, ra: set, rb: set, rejects: bool, base: str
    ) -> None:
        where = f"{base}.{name}"
        inj_a, inj_b = is_injected(sa), is_injected(sb)
        if not inj_a and inj_b:
            klass = B if rejects else H
            tail = (
                "unknown keys are rejected, so old arguments carrying it fail"
                if rejects
                else "an old argument carrying it is ignored"
            )
            self.add(
                "schema.injected-added", klass, f"{where}.x-injected", None, sb["x-injected"],
                f"'{name}' is now injected from {sb['x-injected']} and disappears from the "
                f"model's schema; {tail}",
            )  # fmt: skip
            return
        if inj_a and not inj_b:
            required = name in rb
            self.add(
                "schema.injected-removed", B if required else C, f"{where}.x-injected",
                sa["x-injected"], None,
                f"'{name}' is no longer injected; the model must now fill it"
                + (" (required)" if required else " (optional)"),
            )  # fmt: skip
            return
        if inj_a and inj_b:
            if sa["x-injected"] != sb["x-injected"]:
                self.add(
                    "schema.injected-changed", H, f"{where}.x-injected", sa["x-injected"],
                    sb["x-injected"],
                    f"'{name}' now comes from {sb['x-injected']} instead of {sa['x-injected']}",
                )  # fmt: skip
            if _drop(sa, "x-injected") != _drop(sb, "x-injected"):
                self.add(
                    "schema.injected-schema-changed", H, where, sa, sb,
                    f"schema of injected '{name}' changed (the model does not see it; the "
                    "context value must still satisfy it)",
                )  # fmt: skip
            return
        if name in ra and name not in rb:
            self.add("schema.required-removed", C, where, True, False, f"'{name}' is optional now")
        elif name in rb and name not in ra:
            self.add(
                "schema.optional-to-required", B, where, False, True,
                f"'{name}' is required now; old arguments without it are rejected",
            )  # fmt: skip
        self.walk(sa, sb, where)

    def _additional(self, a: dict, b: dict, path: str) -> None:
        for key in ("additionalProperties", "unevaluatedProperties"):
            va, vb = a.get(key), b.get(key)
            if va == vb:
                continue
            where = f"{path}.{key}"
            open_a = va is None or va is True
            open_b = vb is None or vb is True
            if open_a and open_b:
                continue
            if isinstance(va, dict) and isinstance(vb, dict):
                self.walk(va, vb, where)
            elif open_a or (isinstance(va, dict) and vb is False):
                self.add(
                    "schema.additional-properties-restricted", B, where, va, vb,
                    "unknown keys are now rejected or constrained",
                )  # fmt: skip
            else:
                self.add(
                    "schema.additional-properties-relaxed", C, where, va, vb,
                    "unknown keys are now accepted",
                )  # fmt: skip

    def _items(self, a: dict, b: dict, path: str) -> None:
        ia, ib = a.get("items"), b.get("items")
        if ia != ib:
            if isinstance(ia, list) or isinstance(ib, list):
                la = ia if isinstance(ia, list) else []
                lb = ib if isinstance(ib, list) else []
                for i in range(max(len(la), len(lb))):
                    sa = la[i] if i < len(la) else None
                    sb = lb[i] if i < len(lb) else None
                    self.walk(sa, sb, f"{path}.items[{i}]")
            else:
                self.walk(ia, ib, f"{path}.items")
        pa, pb = a.get("prefixItems"), b.get("prefixItems")
        if pa != pb:
            la = pa if isinstance(pa, list) else []
            lb = pb if isinstance(pb, list) else []
            for i in range(max(len(la), len(lb))):
                sa = la[i] if i < len(la) else None
                sb = lb[i] if i < len(lb) else None
                self.walk(sa, sb, f"{path}.prefixItems[{i}]")

    def _branches(self, a: dict, b: dict, path: str, key: str) -> None:
        la, lb = a.get(key), b.get(key)
        if la == lb:
            return
        where = f"{path}.{key}"
        if not isinstance(la, list):
            self.add("schema.constraint-added", B, where, None, lb, f"{key} added")
            return
        if not isinstance(lb, list):
            self.add("schema.constraint-removed", C, where, la, None, f"{key} removed")
            return
        left = list(range(len(la)))
        right = list(range(len(lb)))
        # Identical branches pair first, then the rest by position and type.
        for j in list(right):
            key_b = canonical(lb[j])
            i = next((i for i in left if canonical(la[i]) == key_b), None)
            if i is not None:
                left.remove(i)
                right.remove(j)
        for j in list(right):
            type_b = _as_schema(lb[j]).get("type")
            i = next((i for i in left if _as_schema(la[i]).get("type") == type_b), None)
            if i is not None:
                left.remove(i)
                right.remove(j)
                self.walk(la[i], lb[j], f"{where}[{j}]")
        narrowing = key == "allOf"
        for i in left:
            self.add(
                "schema.branch-removed", C if narrowing else B, f"{where}[{i}]", la[i], None,
                f"{key} branch {i} removed"
                + (" (one constraint fewer)" if narrowing else "; values it matched are rejected"),
            )  # fmt: skip
        for j in right:
            note = {
                "allOf": " (one more constraint every value must meet)",
                "oneOf": " (compatible unless it overlaps a branch: oneOf needs exactly one match)",
                "anyOf": "",
            }[key]
            self.add(
                "schema.branch-added", B if narrowing else C, f"{where}[{j}]", None, lb[j],
                f"{key} branch {j} added{note}",
            )  # fmt: skip

    def _defs(self, a: dict, b: dict, path: str, key: str) -> None:
        da = _dict(a.get(key))
        db = _dict(b.get(key))
        for name in sorted({*da, *db}):
            if name in da and name in db:
                self.walk(da[name], db[name], f"{path}.{key}.{name}")
            elif name in db:
                self.add(
                    "schema.definition-added", C, f"{path}.{key}.{name}", None, db[name],
                    f"definition '{name}' added",
                )  # fmt: skip
            else:
                self.add(
                    "schema.definition-removed", B, f"{path}.{key}.{name}", da[name], None,
                    f"definition '{name}' removed; references to it fail",
                )  # fmt: skip

    def _generic(self, a: dict, b: dict, path: str) -> None:
        for key in sorted({*a, *b}):
            if key in _HANDLED or a.get(key) == b.get(key):
                continue
            where = f"{path}.{key}"
            if key.startswith("x-"):
                self.add(
                    "schema.extension-changed", M, where, a.get(key), b.get(key),
                    f"{key} {_verb(a.get(key), b.get(key))} (exports strip x- keys)",
                )  # fmt: skip
            elif key not in a:
                self.add(
                    "schema.constraint-added", B, where, None, b[key],
                    f"{key} added; old arguments may be rejected",
                )  # fmt: skip
            elif key not in b:
                self.add("schema.constraint-removed", C, where, a[key], None, f"{key} removed")
            else:
                self.add(
                    "schema.constraint-changed", B, where, a[key], b[key],
                    f"{key} changed; old arguments may be rejected",
                )  # fmt: skip


def _str_list(value: Any) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _drop(schema: dict, key: str) -> dict:
    return {k: v for k, v in schema.items() if k != key}


def _divides(step: float, value: float) -> bool:
    """True when ``value`` is an integer multiple of ``step``."""
    if step == 0:
        return False
    ratio = value / step
    return math.isclose(ratio, round(ratio), rel_tol=1e-9, abs_tol=1e-9)


def _verb(before: Any, after: Any) -> str:
    if before is None:
        return f"added: {_show(after)}"
    if after is None:
        return f"removed (was {_show(before)})"
    return f"{_show(before)} → {_show(after)}"


def similar_names(old: str, new: str) -> bool:
    """True when two keys read as one name (``orderId``/``order_id``, ``date``/``order_date``)."""
    wa, wb = split_identifier(old), split_identifier(new)
    if wa == wb or set(wa) <= set(wb) or set(wb) <= set(wa):
        return True
    return SequenceMatcher(None, "_".join(wa), "_".join(wb)).ratio() >= 0.75


def _pair_renamed(
    removed: list[str], added: list[str], pa: dict[str, Any], pb: dict[str, Any]
) -> dict[str, str]:
    """Removed → added property names that are one property under a new key.

    A pair is a rename when the new property lists the old key in
    ``x-aliases``, or when exactly one added property has the same schema
    (ignoring descriptions, titles, examples and aliases) as the removed one
    and the two keys read as one name (:func:`similar_names`).
    """
    pairs: dict[str, str] = {}
    free = [n for n in added if not is_injected(pb[n])]
    for old in removed:
        if is_injected(pa[old]):
            continue
        new = next((n for n in free if old in _str_list(_as_schema(pb[n]).get("x-aliases"))), None)
        if new is None:
            shape = _strip_annotations(pa[old])
            same = [n for n in free if _strip_annotations(pb[n]) == shape]
            twins = [o for o in removed if o not in pairs and _strip_annotations(pa[o]) == shape]
            if len(same) == 1 and len(twins) == 1 and similar_names(old, same[0]):
                new = same[0]
        if new is not None:
            pairs[old] = new
            free.remove(new)
    return pairs
