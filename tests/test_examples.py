"""The bundled example registries load, are normalised and keep their intended shape."""

from __future__ import annotations

import json
import re
from importlib.resources import files
from typing import Any

import pytest

from studio.contract import Registry, RiskTier, parse_registry, registry_to_dict

TRAVEL = "travel-reimbursement.json"
ORDERS = "order-service.json"
TRAVEL_TOOLS = ["search_policy", "query_invoices", "query_tickets", "create_reimbursement_ticket"]


def _text(name: str) -> str:
    return (files("resources") / "examples" / name).read_text(encoding="utf-8")


def _load(name: str) -> Registry:
    return parse_registry(json.loads(_text(name)))


def _property_schemas(schema: Any) -> list[dict[str, Any]]:
    """Every property schema nested anywhere in ``schema``."""
    out: list[dict[str, Any]] = []
    if isinstance(schema, dict):
        props = schema.get("properties")
        if isinstance(props, dict):
            for prop in props.values():
                if isinstance(prop, dict):
                    out.append(prop)
        for value in schema.values():
            out.extend(_property_schemas(value))
    elif isinstance(schema, list):
        for value in schema:
            out.extend(_property_schemas(value))
    return out


@pytest.mark.parametrize("name", [TRAVEL, ORDERS])
def test_example_parses_and_is_normalised(name: str) -> None:
    text = _text(name)
    registry = parse_registry(json.loads(text))
    again = json.dumps(registry_to_dict(registry), indent=2, ensure_ascii=False) + "\n"
    assert again == text


@pytest.mark.parametrize("name", [TRAVEL, ORDERS])
def test_enum_aliases_target_enum_values(name: str) -> None:
    checked = 0
    for tool in _load(name).tools:
        for prop in _property_schemas(tool.parameters):
            aliases = prop.get("x-enum-aliases")
            if aliases is None:
                continue
            assert set(aliases.values()) <= set(prop["enum"]), tool.name
            checked += 1
    if name == TRAVEL:
        assert checked >= 1


def test_travel_tools_and_metadata() -> None:
    registry = _load(TRAVEL)
    assert registry.title == "Travel reimbursement assistant"
    assert "assistant" in registry.description
    assert [t.name for t in registry.tools] == TRAVEL_TOOLS
    for tool in registry.tools:
        assert tool.domain == "travel"
        assert tool.summary and len(tool.summary.split()) <= 12, tool.name
        assert tool.usage and tool.returns and tool.errors and tool.examples, tool.name
        assert any(p.role == "employee" for p in tool.permissions), tool.name
        for error in tool.errors:
            assert error.code and error.meaning and error.hint, (tool.name, error.code)


def test_travel_employee_id_is_always_injected() -> None:
    with_employee = 0
    for tool in _load(TRAVEL).tools:
        props = tool.parameters.get("properties", {})
        if "employee_id" in props:
            with_employee += 1
            assert props["employee_id"].get("x-injected") == "session.employee_id", tool.name
            assert tool.injected_properties() == {"employee_id": "session.employee_id"}
    assert with_employee == 3


def test_travel_write_tool_requires_idempotency() -> None:
    registry = _load(TRAVEL)
    tool = registry.tool("create_reimbursement_ticket")
    assert tool is not None
    assert tool.risk is RiskTier.WRITE
    ex = tool.execution
    assert ex.idempotency.required
    assert ex.idempotency.key_template == "{session_id}:{message_id}:{tool}:{args_hash}"
    assert ex.retry.max_attempts == 1
    assert ex.timeout_seconds == 8
    codes = {e.code: e for e in tool.errors}
    assert {"DUPLICATE_CLAIM", "OVER_LIMIT_UNEXPLAINED", "TIMEOUT"} <= set(codes)
    assert not codes["TIMEOUT"].retryable
    assert "query_tickets" in codes["TIMEOUT"].hint
    for other in registry.tools:
        if other.risk is RiskTier.READ:
            assert not other.execution.idempotency.required, other.name


def test_travel_running_example_facts() -> None:
    registry = _load(TRAVEL)
    invoices = registry.tool("query_invoices")
    assert invoices is not None
    props = invoices.parameters["properties"]
    assert invoices.parameters["additionalProperties"] is False
    for key in ("start_date", "end_date"):
        assert props[key]["format"] == "date"
        assert "YYYY-MM-DD" in props[key]["description"]
    assert props["category"]["enum"] == ["taxi", "hotel", "train", "flight"]
    assert props["category"]["x-enum-aliases"]["打车"] == "taxi"
    assert "开始日期" in props["start_date"]["x-aliases"]
    assert "RANGE_TOO_LONG" in {e.code for e in invoices.errors}
    assert "query_tickets" in invoices.usage
    assert "INV-102" in invoices.returns
    tickets = registry.tool("query_tickets")
    assert tickets is not None
    pattern = tickets.parameters["properties"]["ticket_id"]["pattern"]
    assert re.fullmatch(pattern, "R-55821")
    assert "query_invoices" in tickets.usage
    assert "create_reimbursement_ticket" in tickets.usage
    create = registry.tool("create_reimbursement_ticket")
    assert create is not None
    assert "38.5" in create.preconditions
    assert "R-55821" in create.returns


def test_order_service_has_realistic_flaws() -> None:
    registry = _load(ORDERS)
    assert registry.title == "Order service (legacy)"
    assert 8 <= len(registry.tools) <= 12
    names = [t.name for t in registry.tools]
    assert any(re.search(r"[a-z][A-Z]", n) for n in names), "a camelCase tool name"

    delete_user = registry.tool("delete_user")
    assert delete_user is not None and delete_user.risk is RiskTier.READ

    user_info = registry.tool("get_user_info")
    assert user_info is not None
    assert "user_id" in user_info.parameters["properties"]
    assert "user_id" not in user_info.injected_properties()

    refund = registry.tool("create_refund")
    assert refund is not None and refund.risk is RiskTier.WRITE
    assert not refund.execution.idempotency.required
    assert not refund.execution.idempotency.key_template

    update = registry.tool("update_order_status")
    assert update is not None
    status = update.parameters["properties"]["status"]
    assert "enum" not in status and "shipped" in status["description"]

    notify = registry.tool("send_notification")
    assert notify is not None
    data = notify.parameters["properties"]["data"]
    assert data["type"] == "object" and "properties" not in data

    assert "search" in names and "getOrderDetail" in names
    without_blocks = [t for t in registry.tools if not t.has_blocks()]
    assert len(without_blocks) >= len(registry.tools) // 2
