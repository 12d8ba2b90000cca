"""Tool edits apply, invert, and never mutate their input."""

from __future__ import annotations

import copy

import pytest

from studio.contract import RiskTier, ToolContract
from studio.editing import (
    ITEMS,
    MISSING,
    AddProperty,
    EditError,
    RemoveProperty,
    RenameProperty,
    SetField,
    SetPropertyKey,
    SetRequired,
)


@pytest.fixture
def tool() -> ToolContract:
    return ToolContract(
        "create_reimbursement_ticket",
        parameters={
            "type": "object",
            "properties": {
                "invoice_ids": {"type": "array", "items": {"type": "string"}},
                "amount": {"type": "number"},
                "lines": {
                    "type": "array",
                    "items": {"type": "object", "properties": {"note": {"type": "string"}}},
                },
            },
            "required": ["invoice_ids", "amount"],
        },
    )


EDITS = [
    SetField("summary", "File a claim."),
    SetField("risk", RiskTier.WRITE),
    SetPropertyKey(("amount",), "minimum", 0),
    SetPropertyKey(("amount",), "type", MISSING),
    SetPropertyKey(("lines", ITEMS, "note"), "description", "Free text."),
    SetRequired(("amount",), False),
    SetRequired(("lines",), True),
    AddProperty(("reason",), {"type": "string"}, required=True, index=1),
    AddProperty(("lines", ITEMS, "qty"), {"type": "integer"}),
    RemoveProperty(("invoice_ids",)),
    RenameProperty(("amount",), "total"),
]


@pytest.mark.parametrize("edit", EDITS, ids=lambda e: e.label)
def test_inverse_restores_the_tool_exactly(tool: ToolContract, edit: object) -> None:
    before = copy.deepcopy(tool.parameters)
    edited, inverse = edit.apply(tool)  # type: ignore[attr-defined]
    assert edited != tool
    assert tool.parameters == before, "the input tool must not be mutated"
    restored, _ = inverse.apply(edited)
    assert restored == tool
    assert list(restored.parameters["properties"]) == list(tool.parameters["properties"])


def test_add_property_at_index_and_required(tool: ToolContract) -> None:
    edited, _ = AddProperty(("reason",), {"type": "string"}, required=True, index=1).apply(tool)
    assert list(edited.parameters["properties"]) == ["invoice_ids", "reason", "amount", "lines"]
    assert edited.parameters["required"] == ["invoice_ids", "amount", "reason"]


def test_rename_keeps_position_and_required(tool: ToolContract) -> None:
    edited, _ = RenameProperty(("amount",), "total").apply(tool)
    assert list(edited.parameters["properties"]) == ["invoice_ids", "total", "lines"]
    assert edited.parameters["required"] == ["invoice_ids", "total"]


def test_remove_last_required_drops_the_keyword(tool: ToolContract) -> None:
    edited, _ = SetRequired(("amount",), False).apply(tool)
    edited, _ = SetRequired(("invoice_ids",), False).apply(edited)
    assert "required" not in edited.parameters


@pytest.mark.parametrize(
    "edit",
    [
        RemoveProperty(("nope",)),
        RenameProperty(("amount",), "invoice_ids"),
        AddProperty(("amount",), {}),
        SetPropertyKey(("missing", "x"), "type", "string"),
        SetField("parameters", {}),
        SetField("no_such_field", 1),
    ],
)
def test_edits_that_do_not_fit_raise_edit_error(tool: ToolContract, edit: object) -> None:
    with pytest.raises(EditError):
        edit.apply(tool)  # type: ignore[attr-defined]
