"""One definition of "injected" shared by the contract, exports, lint and runtime (issue #10, 1)."""

from __future__ import annotations

import pytest

from studio.contract import ContractError, ToolContract, parse_tool
from studio.contract.model import INJECTED_ITEMS, injected_fields
from studio.formats.schema import clean_schema
from studio.lint.rules._common import injected_paths, model_parameters
from studio.lint.rules.cost import model_schema
from tests.lint.fixtures_rules import hits

PARAMS = {
    "type": "object",
    "properties": {
        "employee_id": {"type": "string", "x-injected": "session.employee_id"},
        "claim": {
            "type": "object",
            "properties": {
                "amount": {"type": "number"},
                "employee_id": {"type": "string", "x-injected": "session.employee_id"},
            },
            "required": ["amount", "employee_id"],
        },
        "lines": {
            "type": "array",
            "items": {
                "anyOf": [
                    {
                        "type": "object",
                        "properties": {
                            "by": {"type": "string", "x-injected": "session.employee_id"},
                            "note": {"type": "string"},
                        },
                        "required": ["by"],
                    }
                ]
            },
        },
    },
    "required": ["claim", "employee_id"],
}


def test_walker_yields_injected_paths_at_any_depth():
    fields = injected_fields(PARAMS)
    assert [f.path for f in fields] == [
        ("employee_id",),
        ("claim", "employee_id"),
        ("lines", INJECTED_ITEMS, "by"),
    ]
    assert all(f.fillable for f in fields)
    assert fields[1].json_path == "parameters.properties.claim.properties.employee_id"
    assert fields[2].display() == "$.lines[].by"


def test_injected_properties_keeps_its_top_level_api():
    tool = ToolContract(name="create_claim", parameters=PARAMS)
    assert tool.injected_properties() == {"employee_id": "session.employee_id"}
    assert len(tool.injected_fields()) == 3


def test_exports_and_lint_hide_exactly_what_the_runtime_fills():
    tool = ToolContract(name="create_claim", parameters=PARAMS)
    cleaned, found = clean_schema(PARAMS)
    runtime = {f.json_path for f in tool.injected_fields()}
    assert set(found["x-injected"]) == runtime == set(injected_paths(tool))
    claim = cleaned["properties"]["claim"]
    assert "employee_id" not in claim["properties"]
    assert claim["required"] == ["amount"]  # nested required loses the injected name
    branch = cleaned["properties"]["lines"]["items"]["anyOf"][0]
    assert "by" not in branch["properties"] and "required" not in branch
    lint_view = model_schema(tool)
    assert "employee_id" not in lint_view["properties"]["claim"]["properties"]
    assert lint_view["properties"]["claim"]["required"] == ["amount"]
    kept = model_parameters(tool, keep_injected=True)
    assert "employee_id" in kept["properties"]["claim"]["properties"]
    assert kept["properties"]["claim"]["required"] == ["amount"]


def test_lint_rules_treat_nested_injected_fields_as_hidden():
    tool = parse_tool(
        {
            "name": "create_claim",
            "parameters": PARAMS,
            "examples": [{"description": "file", "arguments": {"claim": {"amount": 3}}}],
        }
    )
    # The example leaves out claim.employee_id, as the model would.
    assert hits("schema-invalid-default", tool) == []
    # Strict mode: a hidden nested property need not be required (the model never sees it).
    strict = hits("schema-strict-unsupported", tool, profile="openai-strict")
    assert not [h for h in strict if "employee_id" in h.message or ".by" in h.path], strict


@pytest.mark.parametrize(
    ("where", "schema"),
    [
        (
            "$defs",
            {
                "type": "object",
                "properties": {},
                "$defs": {
                    "c": {"type": "object", "properties": {"e": {"x-injected": "session.e"}}}
                },
            },
        ),
        (
            "additionalProperties",
            {
                "type": "object",
                "additionalProperties": {
                    "type": "object",
                    "properties": {"e": {"x-injected": "session.e"}},
                },
            },
        ),
    ],
)
def test_contract_refuses_injected_fields_the_runtime_cannot_reach(where, schema):
    with pytest.raises(ContractError) as info:
        parse_tool({"name": "create_claim", "parameters": schema})
    assert any(where in p.path and "x-injected" in p.path for p in info.value.problems)
    # ...and the exports still hide them (fail closed).
    assert "x-injected" in clean_schema(schema)[1]
