"""The Preview shows the set a (role, scenario) is sent, and the 2026 provider fields (#17)."""

from __future__ import annotations

import dataclasses
import json

import pytest

from studio.contract import Permission, Registry, ToolContract
from studio.contract.audience import Audience
from studio.contract.provider_options import ProviderOptions
from studio.ui.widgets.preview import PreviewWidget


def _tool(name: str, *perms: tuple[str, str], **provider: object) -> ToolContract:
    tool = ToolContract(
        name=name,
        summary=f"Does {name.replace('_', ' ')} for the expense desk.",
        parameters={"type": "object", "properties": {"id": {"type": "string"}}},
        permissions=tuple(Permission(r, s) for r, s in perms),
    )
    return dataclasses.replace(tool, provider=ProviderOptions(**provider))  # type: ignore[arg-type]


REGISTRY = Registry(
    "expenses",
    tools=(
        _tool("submit_claim", ("employee", "reimbursement"), defer_loading=True, strict=True),
        _tool("approve_claim", ("manager", "reimbursement")),
        _tool("list_policies"),
        _tool("audit_claims", ("审计员", "报销")),
    ),
)


@pytest.fixture
def preview(qtbot) -> PreviewWidget:
    widget = PreviewWidget()
    qtbot.addWidget(widget)
    widget.set_registry_source(lambda: REGISTRY)
    widget.set_tool(REGISTRY.tools[0], REGISTRY.settings)
    widget.flush()
    return widget


def test_audiences_are_offered_and_the_set_is_shown(preview: PreviewWidget) -> None:
    combo = preview.audience_combo
    assert combo.count() == 4  # the selected tool + three audiences
    assert [combo.itemData(i) for i in range(1, 4)] == [
        ["employee", "reimbursement"], ["manager", "reimbursement"], ["审计员", "报销"],
    ]  # fmt: skip
    single_tokens = preview.tokens_label.text()
    preview.set_format("anthropic")
    preview.set_audience(Audience("employee", "reimbursement"))
    shown = json.loads(preview.json_view.toPlainText())
    assert [t["name"] for t in shown] == ["submit_claim", "list_policies"]
    # The provider fields of 2026 appear in what is sent.
    assert shown[0]["defer_loading"] is True and shown[0]["strict"] is True
    assert "2 of 4 tools" in preview.audience_label.text()
    assert preview.audience_label.isVisibleTo(preview)
    assert preview.tokens_label.text() != single_tokens
    preview.set_audience(Audience("审计员", "报销"))
    shown = json.loads(preview.json_view.toPlainText())
    assert [t["name"] for t in shown] == ["list_policies", "audit_claims"]
    preview.set_audience(None)
    assert json.loads(preview.json_view.toPlainText())["name"] == "submit_claim"
    assert not preview.audience_label.isVisibleTo(preview)


def test_a_chosen_audience_survives_edits(preview: PreviewWidget) -> None:
    preview.set_audience(Audience("manager", "reimbursement"))
    preview.set_tool(REGISTRY.tools[1], REGISTRY.settings)
    preview.flush()
    assert preview.current_audience() == Audience("manager", "reimbursement")
    names = [t["function"]["name"] for t in json.loads(preview.json_view.toPlainText())]
    assert names == ["approve_claim", "list_policies"]


def test_without_a_registry_only_the_tool_is_offered(qtbot) -> None:
    widget = PreviewWidget()
    qtbot.addWidget(widget)
    widget.set_tool(REGISTRY.tools[0])
    widget.flush()
    assert widget.audience_combo.count() == 1 and widget.current_audience() is None
