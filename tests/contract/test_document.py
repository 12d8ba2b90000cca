"""Tool and registry documents: parsing, located problems, normal form."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from studio.contract import (
    ContractError,
    ErrorSpec,
    Example,
    Execution,
    Permission,
    Registry,
    RiskTier,
    TimeoutTier,
    ToolContract,
    parse_registry,
    parse_tool,
    registry_hash,
    registry_to_dict,
    tool_hash,
    tool_to_dict,
)


def query_invoices() -> ToolContract:
    return parse_tool(
        {
            "name": "query_invoices",
            "summary": "List the employee's invoices in a date range.",
            "usage": "Use to find invoices. Not for claim status: use query_tickets.",
            "parameters": {
                "type": "object",
                "properties": {
                    "start_date": {"type": "string", "format": "date", "x-aliases": ["startDate"]},
                    "category": {
                        "type": "string",
                        "enum": ["taxi", "hotel", "train", "flight"],
                        "x-enum-aliases": {"出租车": "taxi"},
                    },
                    "employee_id": {"type": "string", "x-injected": "session.employee_id"},
                },
                "required": ["start_date"],
                "additionalProperties": False,
            },
            "errors": [{"code": "RANGE_TOO_LONG", "meaning": "span over 31 days"}],
        }
    )


def problems_of(data: object, *, registry: bool = False) -> list[str]:
    with pytest.raises(ContractError) as info:
        (parse_registry if registry else parse_tool)(data)
    return [str(p) for p in info.value.problems]


def test_invalid_type_is_reported_with_its_json_path() -> None:
    doc = {
        "name": "travel",
        "tools": [
            {"name": "a"},
            {"name": "b"},
            {
                "name": "c",
                "parameters": {
                    "type": "object",
                    "properties": {"start_date": {"type": "date"}},
                },
            },
        ],
    }
    found = problems_of(doc, registry=True)
    assert found[0].startswith(
        "tools[2].parameters.properties.start_date.type: 'date' is not a JSON Schema type"
    )


def test_required_names_must_exist() -> None:
    found = problems_of(
        {"name": "t", "parameters": {"type": "object", "properties": {}, "required": ["x"]}}
    )
    assert found == ["parameters.required[0]: 'x' is required but not defined in properties"]


def test_every_problem_is_collected_without_a_traceback() -> None:
    found = problems_of(
        {
            "name": "bad name!",
            "risk": "dangerous",
            "errors": [{"meaning": "no code"}],
            "tags": "not-a-list",
            "execution": {"timeout_seconds": -1},
            "parameters": [],
            "surprise": 1,
        }
    )
    joined = "\n".join(found)
    for fragment in (
        "name: 'bad name!' must match",
        "risk: 'dangerous' is not one of 'read', 'write', 'destructive'",
        "errors[0].code: an error needs a code",
        "tags: must be an array of strings",
        "execution.timeout_seconds: must be at least 0",
        "parameters: must be a JSON Schema object, not an array",
        "surprise: is not a known field",
    ):
        assert fragment in joined


@pytest.mark.parametrize("hostile", [None, 3, "x", [], {"tools": "nope"}, {"tools": [None]}])
def test_hostile_registry_documents_raise_contract_error(hostile: object) -> None:
    with pytest.raises(ContractError):
        parse_registry(hostile)


def test_extension_checks() -> None:
    found = problems_of(
        {
            "name": "t",
            "parameters": {
                "type": "object",
                "properties": {
                    "a": {"type": "string", "x-aliases": ["b"]},
                    "b": {"type": "string", "x-injected": "employee id"},
                    "c": {"type": "string", "enum": ["x"], "x-enum-aliases": {"y": "z"}},
                },
            },
        }
    )
    assert "parameters.properties.a.x-aliases[0]: alias 'b' is also a property name" in found
    assert any(
        p.startswith("parameters.properties.b.x-injected: must be a context path") for p in found
    )
    assert any("maps to 'z', which is not one of the enum values" in p for p in found)


def test_cjk_property_names_are_quoted_in_paths() -> None:
    found = problems_of(
        {"name": "t", "parameters": {"type": "object", "properties": {"客户编号": {"type": "int"}}}}
    )
    assert found[0].startswith(
        "parameters.properties[\"客户编号\"].type: 'int' is not a JSON Schema type"
    )


def test_root_must_be_an_object() -> None:
    assert problems_of({"name": "t", "parameters": {"type": "array"}}) == [
        "parameters.type: the root of parameters must be 'object'"
    ]


def test_round_trip_through_normal_form_keeps_the_hash() -> None:
    tool = query_invoices()
    again = parse_tool(json.loads(json.dumps(tool_to_dict(tool))))
    assert again == tool
    assert tool_hash(again) == tool_hash(tool)


def test_hash_ignores_key_order_and_whitespace() -> None:
    doc = tool_to_dict(query_invoices())
    shuffled = dict(reversed(list(doc.items())))
    assert tool_hash(parse_tool(json.loads(json.dumps(shuffled, indent=4)))) == tool_hash(
        query_invoices()
    )


def test_hash_changes_with_content() -> None:
    import dataclasses

    tool = query_invoices()
    assert tool_hash(dataclasses.replace(tool, summary="Other.")) != tool_hash(tool)


def test_write_risk_defaults_to_write_execution_with_idempotency() -> None:
    tool = parse_tool({"name": "create_ticket", "risk": "write"})
    assert tool.execution.timeout_tier is TimeoutTier.WRITE
    assert tool.execution.timeout_seconds == 8.0
    assert tool.execution.retry.max_attempts == 1
    assert tool.execution.idempotency.required


def test_duplicate_tool_names_in_a_registry() -> None:
    found = problems_of({"name": "r", "tools": [{"name": "a"}, {"name": "a"}]}, registry=True)
    assert found == ["tools[1].name: 'a' is already the name of tools[0]"]


def test_numbers_that_cannot_be_canonicalised_are_problems() -> None:
    found = problems_of(
        {
            "name": "t",
            "examples": [{"arguments": {"n": 2**60}}],
            "parameters": {"type": "object", "maximum": float("nan")},
        }
    )
    assert (
        "examples[0].arguments.n: 1152921504606846976 is outside ±(2^53-1), the portable JSON range"
        in found
    )
    assert "parameters.maximum: nan is not a JSON number" in found


def test_unknown_template_placeholder_is_reported() -> None:
    found = problems_of(
        {"name": "r", "settings": {"description_template": "{summary} {nope}"}}, registry=True
    )
    assert found[0].startswith("settings.description_template: unknown placeholder {nope}")


_text = st.text(max_size=30)
_tools = st.builds(
    ToolContract,
    name=st.from_regex(r"[a-z][a-z0-9_]{0,20}", fullmatch=True),
    title=_text,
    summary=_text,
    usage=_text,
    errors=st.lists(
        st.builds(ErrorSpec, code=st.from_regex(r"[A-Z_]{1,10}", fullmatch=True), meaning=_text),
        max_size=2,
    ).map(tuple),
    examples=st.lists(
        st.builds(
            Example,
            description=_text,
            arguments=st.dictionaries(_text, st.integers(-(2**53) + 1, 2**53 - 1)),
        ),
        max_size=2,
    ).map(tuple),
    risk=st.sampled_from(list(RiskTier)),
    execution=st.sampled_from(list(TimeoutTier)).map(Execution.for_tier),
    permissions=st.lists(
        st.builds(Permission, role=st.from_regex(r"[a-z]{1,8}", fullmatch=True))
    ).map(tuple),
    tags=st.lists(_text, max_size=3).map(tuple),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(_tools, max_size=4, unique_by=lambda t: t.name))
def test_registry_document_round_trip_is_stable(tools: list[ToolContract]) -> None:
    registry = Registry("r", "Title", "About", tools=tuple(tools))
    text = json.dumps(registry_to_dict(registry), ensure_ascii=False)
    again = parse_registry(json.loads(text))
    assert again == registry
    assert registry_hash(again) == registry_hash(registry)
