"""Schema hygiene rules, on valid contracts and on raw imports alike."""

from __future__ import annotations

import pytest

from studio.contract import Example, ToolContract
from studio.lint.model import PROFILES, RULES, Severity
from tests.lint.fixtures_rules import (
    ODD_TOOLS,
    apply_fix,
    context,
    example_context,
    hits,
    module_rules,
    params,
    run_on,
    severity_of,
    tool,
)


def applies(rule_id: str, profile: str) -> bool:
    return RULES[rule_id].applies_to(profile)


def with_props(props: dict, required: list[str] | None = None, **extra: object) -> ToolContract:
    return tool(parameters=params(props, required, **extra))


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("rule_id", module_rules("schema"))
def test_rules_never_raise_on_odd_imports(rule_id: str, profile: str) -> None:
    run_on(rule_id, context(*ODD_TOOLS, profile=profile))


@pytest.mark.parametrize("profile", ["openai", "anthropic", "gemini", "mcp"])
@pytest.mark.parametrize("rule_id", module_rules("schema"))
def test_travel_example_is_clean(rule_id: str, profile: str) -> None:
    if not applies(rule_id, profile):
        return
    assert run_on(rule_id, example_context("travel-reimbursement", profile)) == []


def test_travel_example_under_openai_strict_only_trips_the_keyword_subset() -> None:
    ctx = example_context("travel-reimbursement", "openai-strict")
    for rule_id in module_rules("schema"):
        found = run_on(rule_id, ctx) if applies(rule_id, "openai-strict") else []
        if rule_id != "schema-strict-unsupported":
            assert found == [], rule_id


# --- root, types, required ----------------------------------------------------------------------


@pytest.mark.parametrize("parameters", [{"type": "array"}, {"properties": {}}, []])
def test_root_must_be_an_object(parameters: object) -> None:
    assert len(hits("schema-root-not-object", ToolContract("t_x", parameters=parameters))) == 1


def test_root_object_is_fine() -> None:
    assert hits("schema-root-not-object", tool()) == []


@pytest.mark.parametrize(
    ("bad", "good", "extra"),
    [
        ("dict", "object", {}),
        ("float", "number", {}),
        ("int", "integer", {}),
        ("str", "string", {}),
        ("date", "string", {"format": "date"}),
    ],
)
def test_nonstandard_types_with_fix(bad: str, good: str, extra: dict) -> None:
    t = with_props({"x_value": {"type": bad, "description": "数值"}})
    [hit] = hits("schema-nonstandard-type", t)
    assert hit.path == "parameters.properties.x_value.type"
    fixed = apply_fix(t, hit)
    schema = fixed.parameters["properties"]["x_value"]
    assert schema["type"] == good and all(schema[k] == v for k, v in extra.items())
    assert hits("schema-nonstandard-type", fixed) == []


def test_type_any_fix_removes_the_type_and_lists_are_checked() -> None:
    t = with_props({"v": {"type": "any"}, "w": {"type": ["string", "float"]}})
    found = hits("schema-nonstandard-type", t)
    assert len(found) == 2
    fixed = apply_fix(t, found[0])
    assert "type" not in fixed.parameters["properties"]["v"]
    assert found[1].fix is None


def test_standard_types_do_not_fire() -> None:
    t = with_props({"v": {"type": ["string", "null"]}, "n": {"type": "integer"}})
    assert hits("schema-nonstandard-type", t) == []


def test_required_names_undefined_with_fix() -> None:
    t = with_props({"a_name": {"type": "string"}}, ["a_name", "b_name"])
    [hit] = hits("schema-required-undefined", t)
    assert hit.path == "parameters.required[1]"
    assert hits("schema-required-undefined", apply_fix(t, hit)) == []
    nested = with_props({"o": {"type": "object", "properties": {}, "required": ["zz"]}})
    assert len(hits("schema-required-undefined", nested)) == 1


# --- enums ---------------------------------------------------------------------------------------


def test_enum_type_mismatch() -> None:
    t = with_props(
        {"n": {"type": "integer", "enum": [1, "2"]}, "s": {"type": "string", "enum": []}}
    )
    assert [h.path for h in hits("schema-enum-type-mismatch", t)] == [
        "parameters.properties.n.enum",
        "parameters.properties.s.enum",
    ]
    ok = with_props(
        {"n": {"type": ["integer", "null"], "enum": [1, None]}, "z": {"enum": ["出租车", 1]}}
    )
    assert hits("schema-enum-type-mismatch", ok) == []


def test_enum_duplicates_with_fix_and_case_variants() -> None:
    t = with_props({"s": {"type": "string", "enum": ["taxi", "hotel", "taxi"]}})
    [hit] = hits("schema-enum-duplicate", t)
    fixed = apply_fix(t, hit)
    assert fixed.parameters["properties"]["s"]["enum"] == ["taxi", "hotel"]
    assert hits("schema-enum-duplicate", fixed) == []
    case = with_props({"s": {"type": "string", "enum": ["Paid", "paid"]}})
    assert hits("schema-enum-duplicate", case)[0].fix is None
    assert hits("schema-enum-duplicate", with_props({"s": {"enum": [1, True, "1"]}})) == []


# --- arrays and additionalProperties ---------------------------------------------------------


def test_array_without_items_by_profile() -> None:
    t = with_props({"tags": {"type": "array", "description": "标签"}})
    [hit] = hits("schema-array-without-items", t)
    assert (
        hit.path == "parameters.properties.tags"
        and severity_of("schema-array-without-items", hit) is Severity.WARNING
    )
    [strict] = hits("schema-array-without-items", t, profile="gemini")
    assert strict.severity is Severity.ERROR
    ok = with_props({"tags": {"type": "array", "items": {"type": "string"}}})
    assert hits("schema-array-without-items", ok) == []


def test_additional_properties_missing_at_root_and_nested_with_fix() -> None:
    t = ToolContract(
        "create_order",
        parameters={
            "type": "object",
            "properties": {
                "address": {"type": "object", "properties": {"city": {"type": "string"}}},
                "extra": {"type": "object", "description": "free-form metadata"},
            },
        },
    )
    found = hits("schema-additional-properties", t)
    assert [h.path for h in found] == ["parameters", "parameters.properties.address"]
    for hit in found:
        t = apply_fix(t, hit)
    assert hits("schema-additional-properties", t) == []
    assert "additionalProperties" not in t.parameters["properties"]["extra"]


def test_additional_properties_is_an_error_in_strict_mode() -> None:
    t = ToolContract(
        "get_x", parameters={"type": "object", "properties": {"a": {"type": "string"}}}
    )
    [hit] = hits("schema-additional-properties", t, profile="openai-strict")
    assert hit.severity is Severity.ERROR


# --- defaults and examples ---------------------------------------------------------------------


def test_default_that_fails_its_schema() -> None:
    t = with_props({"top_k": {"type": "integer", "minimum": 1, "maximum": 10, "default": 20}})
    [hit] = hits("schema-invalid-default", t)
    assert hit.path == "parameters.properties.top_k.default"
    ok = with_props({"top_k": {"type": "integer", "maximum": 10, "default": 3, "x-aliases": ["k"]}})
    assert hits("schema-invalid-default", ok) == []


def test_schema_examples_and_tool_examples_are_validated() -> None:
    props = {
        "city": {"type": "string", "enum": ["杭州", "上海"], "examples": ["北京"]},
        "employee_id": {"type": "string", "x-injected": "session.employee_id"},
    }
    t = tool(
        parameters=params(props, ["city", "employee_id"]),
        examples=(Example("ok", {"city": "杭州"}), Example("bad", {"city": "杭州", "x": 1})),
    )
    paths = [h.path for h in hits("schema-invalid-default", t)]
    assert paths == ["parameters.properties.city.examples[0]", "examples[1].arguments"]


# --- prose enums --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("desc", "values"),
    [
        (
            "new status, one of pending, paid, shipped, cancelled",
            ["pending", "paid", "shipped", "cancelled"],
        ),
        ("order/user/product", ["order", "user", "product"]),
        ("sms or email or push", ["sms", "email", "push"]),
        ("Expense category: one of taxi, hotel or train.", ["taxi", "hotel", "train"]),
        ("费用类别，可选值：出租车、酒店、火车", ["出租车", "酒店", "火车"]),
        ("Sort by either `date` or `amount`", ["date", "amount"]),
    ],
)
def test_prose_lists_become_enums(desc: str, values: list[str]) -> None:
    t = with_props({"kind": {"type": "string", "description": desc}})
    [hit] = hits("schema-enum-in-prose", t)
    assert hit.path == "parameters.properties.kind.description"
    fixed = apply_fix(t, hit)
    assert fixed.parameters["properties"]["kind"]["enum"] == values
    assert hits("schema-enum-in-prose", fixed) == []


@pytest.mark.parametrize(
    "desc",
    [
        "What to look for, in the user's words (English or Chinese).",
        "Date in YYYY-MM-DD, e.g. 2024-05-01",
        "Read and/or write access",
        "客户的收货地址",
        "Only invoices of this category; omit for all categories.",
    ],
)
def test_prose_without_a_value_list(desc: str) -> None:
    assert (
        hits("schema-enum-in-prose", with_props({"kind": {"type": "string", "description": desc}}))
        == []
    )


def test_prose_list_ignored_when_an_enum_exists() -> None:
    t = with_props({"k": {"type": "string", "enum": ["a", "b"], "description": "one of a, b"}})
    assert hits("schema-enum-in-prose", t) == []


# --- required, depth, strict subset --------------------------------------------------------------


def test_everything_required() -> None:
    props = {n: {"type": "string"} for n in ("a_1", "b_2", "c_3")}
    [hit] = hits("schema-all-required", with_props(props, list(props)))
    assert hit.path == "parameters.required"
    assert hits("schema-all-required", with_props(props, ["a_1", "b_2"])) == []
    two = {n: {"type": "string"} for n in ("a_1", "b_2")}
    injected = {**two, "user_id": {"type": "string", "x-injected": "session.user_id"}}
    assert hits("schema-all-required", with_props(injected, list(injected))) == []


def _nested(levels: int) -> dict:
    schema: dict = {"type": "string"}
    for i in range(levels):
        schema = {"type": "object", "properties": {f"l{i}": schema}, "additionalProperties": False}
    return schema


def test_nesting_depth_per_profile_and_option() -> None:
    t = ToolContract("get_deep", parameters=_nested(5))
    assert hits("schema-too-deep", t) == []
    [hit] = hits("schema-too-deep", t, profile="gemini")
    assert "5 levels" in hit.message
    deeper = ToolContract("get_deep", parameters=_nested(6))
    [strict] = hits("schema-too-deep", deeper, profile="openai-strict")
    assert strict.severity is Severity.ERROR
    assert hits("schema-too-deep", t, options={"schema.max_depth": 3})


def test_strict_unsupported_keywords_and_optional_properties() -> None:
    t = with_props(
        {"q": {"type": "string", "minLength": 1}, "n": {"type": "integer"}},
        ["q"],
    )
    found = hits("schema-strict-unsupported", t, profile="openai-strict")
    assert sorted(h.path for h in found) == [
        "parameters.properties.n",
        "parameters.properties.q.minLength",
    ]
    [optional] = [h for h in found if h.path == "parameters.properties.n"]
    fixed = apply_fix(t, optional)
    assert fixed.parameters["properties"]["n"]["type"] == ["integer", "null"]
    assert "n" in fixed.parameters["required"]
    remaining = hits("schema-strict-unsupported", fixed, profile="openai-strict")
    assert [h.path for h in remaining] == ["parameters.properties.q.minLength"]


def test_strict_rule_applies_only_to_openai_strict() -> None:
    assert RULES["schema-strict-unsupported"].profiles == frozenset({"openai-strict"})
    assert not RULES["schema-all-required"].applies_to("openai-strict")
