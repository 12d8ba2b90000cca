"""Every schema rule fires on a focused case, and a near miss does not (DESIGN §7)."""

from __future__ import annotations

from typing import Any

import pytest

from studio.diff import ChangeClass, diff_schema

B = ChangeClass.BREAKING
H = ChangeClass.BEHAVIOURAL
C = ChangeClass.COMPATIBLE
M = ChangeClass.METADATA


def obj(props: dict[str, Any], required: list[str] | None = None, **extra: Any) -> dict:
    schema: dict[str, Any] = {"type": "object", "properties": props}
    if required is not None:
        schema["required"] = required
    schema.update(extra)
    return schema


S = {"type": "string"}
I = {"type": "integer"}  # noqa: E741 - reads as the schema of an integer

# (rule id, class, before, after, path of the change)
CASES: list[tuple[str, ChangeClass, dict, dict, str]] = [
    (
        "schema.property-removed",
        B,
        obj({"a": S, "b": S}, additionalProperties=False),
        obj({"a": S}, additionalProperties=False),
        "parameters.properties.b",
    ),
    (
        "schema.property-removed",
        H,
        obj({"a": S, "b": S}),
        obj({"a": S}),
        "parameters.properties.b",
    ),
    (
        "schema.property-renamed",
        B,
        obj({"orderId": S}, additionalProperties=False),
        obj({"order_id": S}, additionalProperties=False),
        "parameters.properties.order_id",
    ),
    (
        "schema.property-renamed",
        H,
        obj({"orderId": S}, additionalProperties=False),
        obj({"order_id": {"type": "string", "x-aliases": ["orderId"]}}, additionalProperties=False),
        "parameters.properties.order_id",
    ),
    (
        "schema.required-added",
        B,
        obj({"a": S}),
        obj({"a": S, "b": S}, ["b"]),
        "parameters.properties.b",
    ),
    ("schema.property-added", C, obj({"a": S}), obj({"a": S, "b": S}), "parameters.properties.b"),
    (
        "schema.optional-to-required",
        B,
        obj({"a": S}),
        obj({"a": S}, ["a"]),
        "parameters.properties.a",
    ),
    ("schema.required-removed", C, obj({"a": S}, ["a"]), obj({"a": S}), "parameters.properties.a"),
    (
        "schema.type-narrowed",
        B,
        obj({"a": {"type": ["string", "integer"]}}),
        obj({"a": S}),
        "parameters.properties.a.type",
    ),
    (
        "schema.type-narrowed",
        B,
        obj({"a": {"type": "number"}}),
        obj({"a": I}),
        "parameters.properties.a.type",
    ),
    (
        "schema.type-widened",
        C,
        obj({"a": I}),
        obj({"a": {"type": "number"}}),
        "parameters.properties.a.type",
    ),
    ("schema.type-changed", B, obj({"a": S}), obj({"a": I}), "parameters.properties.a.type"),
    (
        "schema.nullable-removed",
        B,
        obj({"a": {"type": ["string", "null"]}}),
        obj({"a": S}),
        "parameters.properties.a.type",
    ),
    (
        "schema.nullable-removed",
        B,
        obj({"a": {"type": "string", "nullable": True}}),
        obj({"a": S}),
        "parameters.properties.a.type",
    ),
    (
        "schema.nullable-added",
        C,
        obj({"a": S}),
        obj({"a": {"type": ["string", "null"]}}),
        "parameters.properties.a.type",
    ),
    (
        "schema.enum-value-removed",
        B,
        obj({"a": {"type": "string", "enum": ["x", "y"]}}),
        obj({"a": {"type": "string", "enum": ["x"]}}),
        "parameters.properties.a.enum",
    ),
    (
        "schema.enum-value-added",
        C,
        obj({"a": {"type": "string", "enum": ["x"]}}),
        obj({"a": {"type": "string", "enum": ["x", "y"]}}),
        "parameters.properties.a.enum",
    ),
    (
        "schema.enum-added",
        B,
        obj({"a": S}),
        obj({"a": {"type": "string", "enum": ["x"]}}),
        "parameters.properties.a.enum",
    ),
    (
        "schema.enum-removed",
        C,
        obj({"a": {"type": "string", "enum": ["x"]}}),
        obj({"a": S}),
        "parameters.properties.a.enum",
    ),
    (
        "schema.const-added",
        B,
        obj({"a": S}),
        obj({"a": {"type": "string", "const": "x"}}),
        "parameters.properties.a.const",
    ),
    (
        "schema.pattern-added",
        B,
        obj({"a": S}),
        obj({"a": {"type": "string", "pattern": "^O-"}}),
        "parameters.properties.a.pattern",
    ),
    (
        "schema.pattern-removed",
        C,
        obj({"a": {"type": "string", "pattern": "^O-"}}),
        obj({"a": S}),
        "parameters.properties.a.pattern",
    ),
    (
        "schema.pattern-changed",
        B,
        obj({"a": {"type": "string", "pattern": "^O-"}}),
        obj({"a": {"type": "string", "pattern": "^ORD-"}}),
        "parameters.properties.a.pattern",
    ),
    (
        "schema.format-added",
        B,
        obj({"a": S}),
        obj({"a": {"type": "string", "format": "date"}}),
        "parameters.properties.a.format",
    ),
    (
        "schema.bound-tightened",
        B,
        obj({"a": {"type": "integer", "maximum": 100}}),
        obj({"a": {"type": "integer", "maximum": 50}}),
        "parameters.properties.a.maximum",
    ),
    (
        "schema.bound-tightened",
        B,
        obj({"a": S}),
        obj({"a": {"type": "string", "minLength": 3}}),
        "parameters.properties.a.minLength",
    ),
    (
        "schema.bound-tightened",
        B,
        obj({"a": {"type": "number", "exclusiveMinimum": 0}}),
        obj({"a": {"type": "number", "exclusiveMinimum": 1}}),
        "parameters.properties.a.exclusiveMinimum",
    ),
    (
        "schema.bound-tightened",
        B,
        obj({"a": {"type": "number", "multipleOf": 2}}),
        obj({"a": {"type": "number", "multipleOf": 4}}),
        "parameters.properties.a.multipleOf",
    ),
    (
        "schema.bound-relaxed",
        C,
        obj({"a": {"type": "number", "multipleOf": 4}}),
        obj({"a": {"type": "number", "multipleOf": 2}}),
        "parameters.properties.a.multipleOf",
    ),
    (
        "schema.bound-relaxed",
        C,
        obj({"a": {"type": "array", "maxItems": 5}}),
        obj({"a": {"type": "array", "maxItems": 10}}),
        "parameters.properties.a.maxItems",
    ),
    (
        "schema.bound-relaxed",
        C,
        obj({"a": {"type": "integer", "minimum": 1}}),
        obj({"a": I}),
        "parameters.properties.a.minimum",
    ),
    (
        "schema.additional-properties-restricted",
        B,
        obj({"a": S}),
        obj({"a": S}, additionalProperties=False),
        "parameters.additionalProperties",
    ),
    (
        "schema.additional-properties-relaxed",
        C,
        obj({"a": S}, additionalProperties=False),
        obj({"a": S}),
        "parameters.additionalProperties",
    ),
    (
        "schema.branch-removed",
        B,
        obj({"a": {"anyOf": [S, I]}}),
        obj({"a": {"anyOf": [S]}}),
        "parameters.properties.a.anyOf[1]",
    ),
    (
        "schema.branch-removed",
        B,
        obj({"a": {"oneOf": [S, I]}}),
        obj({"a": {"oneOf": [I]}}),
        "parameters.properties.a.oneOf[0]",
    ),
    (
        "schema.branch-added",
        C,
        obj({"a": {"anyOf": [S]}}),
        obj({"a": {"anyOf": [S, I]}}),
        "parameters.properties.a.anyOf[1]",
    ),
    (
        "schema.description-changed",
        H,
        obj({"a": {"type": "string", "description": "order id"}}),
        obj({"a": {"type": "string", "description": "order number, e.g. O-1"}}),
        "parameters.properties.a.description",
    ),
    (
        "schema.default-changed",
        H,
        obj({"a": {"type": "integer", "default": 10}}),
        obj({"a": {"type": "integer", "default": 20}}),
        "parameters.properties.a.default",
    ),
    (
        "schema.aliases-changed",
        H,
        obj({"a": {"type": "string", "x-aliases": ["b"]}}),
        obj({"a": {"type": "string", "x-aliases": ["b", "c"]}}),
        "parameters.properties.a.x-aliases",
    ),
    (
        "schema.enum-aliases-changed",
        H,
        obj({"a": {"type": "string", "enum": ["taxi"], "x-enum-aliases": {"的士": "taxi"}}}),
        obj({"a": {"type": "string", "enum": ["taxi"], "x-enum-aliases": {"出租车": "taxi"}}}),
        "parameters.properties.a.x-enum-aliases",
    ),
    (
        "schema.title-changed",
        M,
        obj({"a": {"type": "string", "title": "A"}}),
        obj({"a": {"type": "string", "title": "Aa"}}),
        "parameters.properties.a.title",
    ),
    (
        "schema.injected-added",
        B,
        obj({"a": S, "emp": S}, additionalProperties=False),
        obj(
            {"a": S, "emp": {"type": "string", "x-injected": "session.employee_id"}},
            additionalProperties=False,
        ),
        "parameters.properties.emp.x-injected",
    ),
    (
        "schema.injected-added",
        H,
        obj({"a": S, "emp": S}),
        obj({"a": S, "emp": {"type": "string", "x-injected": "session.employee_id"}}),
        "parameters.properties.emp.x-injected",
    ),
    (
        "schema.injected-removed",
        B,
        obj({"emp": {"type": "string", "x-injected": "session.employee_id"}}, ["emp"]),
        obj({"emp": S}, ["emp"]),
        "parameters.properties.emp.x-injected",
    ),
    (
        "schema.injected-removed",
        C,
        obj({"emp": {"type": "string", "x-injected": "session.employee_id"}}),
        obj({"emp": S}),
        "parameters.properties.emp.x-injected",
    ),
    (
        "schema.injected-changed",
        H,
        obj({"emp": {"type": "string", "x-injected": "session.employee_id"}}),
        obj({"emp": {"type": "string", "x-injected": "session.user_id"}}),
        "parameters.properties.emp.x-injected",
    ),
    (
        "schema.injected-property-added",
        C,
        obj({"a": S}),
        obj({"a": S, "emp": {"type": "string", "x-injected": "session.e"}}, ["emp"]),
        "parameters.properties.emp",
    ),
    (
        "schema.constraint-added",
        B,
        obj({"a": S}),
        obj({"a": {"type": "string", "not": {"const": ""}}}),
        "parameters.properties.a.not",
    ),
]


@pytest.mark.parametrize(
    ("rule", "klass", "before", "after", "path"),
    CASES,
    ids=[f"{c[0]}-{c[1].value}-{i}" for i, c in enumerate(CASES)],
)
def test_rule_fires(rule: str, klass: ChangeClass, before: dict, after: dict, path: str) -> None:
    changes = diff_schema(before, after, tool="t")
    hits = [c for c in changes if c.rule_id == rule]
    assert hits, [c.rule_id for c in changes]
    assert hits[0].klass is klass
    assert hits[0].path == path
    assert hits[0].tool == "t"
    assert hits[0].message


# Near misses: the schemas differ (or look risky) but the rule must stay quiet.
NEAR_MISSES: list[tuple[str, dict, dict]] = [
    ("schema.required-added", obj({"a": S, "b": S}), obj({"a": S, "b": S}, ["a"])),
    (
        "schema.type-narrowed",
        obj({"a": {"type": ["integer", "number"]}}),
        obj({"a": {"type": "number"}}),
    ),
    (
        "schema.enum-value-removed",
        obj({"a": {"enum": ["x", "y"]}}),
        obj({"a": {"enum": ["y", "x"]}}),
    ),
    (
        "schema.bound-tightened",
        obj({"a": {"type": "integer", "maximum": 50}}),
        obj({"a": {"type": "integer", "maximum": 100}}),
    ),
    (
        "schema.bound-tightened",
        obj({"a": {"type": "integer", "minimum": 5}}),
        obj({"a": {"type": "integer", "minimum": 1}}),
    ),
    (
        "schema.property-removed",
        obj({"a": S, "b": S}),
        obj({"a": S, "b": S}, additionalProperties=False),
    ),
    # Unrelated keys with the same schema are a removal plus an addition, not a rename.
    ("schema.property-renamed", obj({"status": S}), obj({"channel": S})),
    (
        "schema.optional-to-required",
        obj({"emp": {"type": "string", "x-injected": "session.e"}}),
        obj({"emp": {"type": "string", "x-injected": "session.e"}}, ["emp"]),
    ),
    ("schema.branch-removed", obj({"a": {"anyOf": [S, I]}}), obj({"a": {"anyOf": [I, S]}})),
    (
        "schema.additional-properties-restricted",
        obj({"a": S}),
        obj({"a": S}, additionalProperties=True),
    ),
    (
        "schema.description-changed",
        obj({"a": {"type": "string", "description": "x"}}),
        obj({"a": {"description": "x", "type": "string"}}),
    ),
]


@pytest.mark.parametrize(("rule", "before", "after"), NEAR_MISSES)
def test_near_miss_does_not_fire(rule: str, before: dict, after: dict) -> None:
    assert rule not in [c.rule_id for c in diff_schema(before, after, tool="t")]


def test_nested_objects_and_array_items_have_paths() -> None:
    line = obj({"sku": S, "qty": {"type": "integer", "minimum": 1}})
    before = obj({"order": obj({"lines": {"type": "array", "items": line}})})
    tighter = obj({"sku": S, "qty": {"type": "integer", "minimum": 2}}, ["sku"])
    after = obj({"order": obj({"lines": {"type": "array", "items": tighter}})})
    changes = {c.rule_id: c for c in diff_schema(before, after, tool="t")}
    base = "parameters.properties.order.properties.lines.items.properties"
    assert changes["schema.bound-tightened"].path == f"{base}.qty.minimum"
    assert changes["schema.bound-tightened"].before == 1
    assert changes["schema.bound-tightened"].after == 2
    assert changes["schema.optional-to-required"].path == f"{base}.sku"


def test_items_type_narrowed_in_array() -> None:
    before = obj({"ids": {"type": "array", "items": {"type": ["string", "integer"]}}})
    after = obj({"ids": {"type": "array", "items": S}})
    [change] = diff_schema(before, after, tool="t")
    assert change.rule_id == "schema.type-narrowed"
    assert change.path == "parameters.properties.ids.items.type"


def test_one_change_per_removed_enum_value() -> None:
    before = obj({"s": {"enum": ["a", "b", "c"]}})
    after = obj({"s": {"enum": ["a"]}})
    removed = [c.before for c in diff_schema(before, after, tool="t")]
    assert removed == ["b", "c"]


def test_identical_schemas_have_no_changes() -> None:
    schema = obj({"a": {"type": "array", "items": obj({"b": S}, ["b"])}}, ["a"])
    assert diff_schema(schema, {**schema}, tool="t") == []
