"""Fixtures: a small travel-reimbursement registry built in code (DESIGN §1)."""

from __future__ import annotations

import pytest

from studio.contract import (
    ErrorSpec,
    Example,
    Execution,
    Permission,
    Registry,
    RiskTier,
    TimeoutTier,
    ToolContract,
)

EMPLOYEE_ID = {
    "type": "string",
    "description": "Employee id of the logged-in user.",
    "x-injected": "session.employee_id",
}


def _search_policy() -> ToolContract:
    return ToolContract(
        name="search_policy",
        title="Search reimbursement policy",
        summary="Search the travel reimbursement policy clauses and their limits.",
        usage="the user asks what the policy allows. Not for invoices (use query_invoices).",
        returns="Matching clauses, best first.",
        parameters={
            "type": "object",
            "properties": {
                "query": {"type": "string", "minLength": 1, "x-aliases": ["q", "keyword"]},
                "top_k": {"type": "integer", "minimum": 1, "maximum": 10, "default": 3},
            },
            "required": ["query"],
            "additionalProperties": False,
        },
        tags=("policy",),
    )


def _query_invoices() -> ToolContract:
    date = {"type": "string", "format": "date", "pattern": r"^\d{4}-\d{2}-\d{2}$"}
    return ToolContract(
        name="query_invoices",
        summary="List the employee's invoices in a date range (YYYY-MM-DD, span ≤ 31 days).",
        usage="the user asks about their own invoices, e.g. INV-102.",
        errors=(ErrorSpec("RANGE_TOO_LONG", "span over 31 days", False, "split the range"),),
        examples=(
            Example("taxi in March", {"start_date": "2025-03-01", "end_date": "2025-03-31"}),
        ),
        parameters={
            "type": "object",
            "properties": {
                "employee_id": dict(EMPLOYEE_ID),
                "start_date": {**date, "x-aliases": ["from", "startDate"]},
                "end_date": {**date, "x-aliases": ["to", "endDate"]},
                "category": {
                    "type": "string",
                    "enum": ["taxi", "hotel", "train", "flight"],
                    "x-enum-aliases": {"出租车": "taxi", "的士": "taxi"},
                },
            },
            "required": ["employee_id", "start_date", "end_date"],
            "additionalProperties": False,
        },
    )


def _query_tickets() -> ToolContract:
    return ToolContract(
        name="query_tickets",
        summary="Find the employee's reimbursement tickets and their status.",
        usage="'has my claim been filed / where is it'.",
        parameters={
            "type": "object",
            "properties": {
                "employee_id": dict(EMPLOYEE_ID),
                "ticket_id": {"type": "string", "pattern": "^R-[0-9]+$"},
            },
            "required": ["employee_id"],
        },
    )


def _create_ticket() -> ToolContract:
    return ToolContract(
        name="create_reimbursement_ticket",
        title="File a reimbursement claim",
        summary="File a reimbursement claim for invoices; returns the ticket id (e.g. R-55821).",
        preconditions="The invoices were found with query_invoices.",
        parameters={
            "type": "object",
            "properties": {
                "employee_id": dict(EMPLOYEE_ID),
                "invoice_ids": {
                    "type": "array",
                    "items": {"type": "string"},
                    "minItems": 1,
                    "x-aliases": ["invoices"],
                },
                "amount": {"type": "number", "exclusiveMinimum": 0},
                "over_limit_explanation": {"type": ["string", "null"]},
            },
            "required": ["employee_id", "invoice_ids", "amount"],
            "additionalProperties": False,
        },
        risk=RiskTier.WRITE,
        execution=Execution.for_tier(TimeoutTier.WRITE),
        permissions=(Permission("employee", "reimbursement"),),
    )


@pytest.fixture
def travel() -> Registry:
    """The travel-reimbursement registry: three reads and one idempotent write."""
    return Registry(
        name="travel-reimbursement",
        title="Travel reimbursement assistant",
        description="差旅报销助手",
        tools=(_search_policy(), _query_invoices(), _query_tickets(), _create_ticket()),
    )


@pytest.fixture
def cjk_registry() -> Registry:
    """Chinese titles, descriptions and property names (only tool names stay ASCII)."""
    tool = ToolContract(
        name="query_customer",
        title="查询客户",
        description="按客户编号查询客户信息。不要用于查询发票。",
        parameters={
            "type": "object",
            "properties": {
                "客户编号": {
                    "type": "string",
                    "description": "客户的唯一编号",
                    "x-aliases": ["customerId", "cust_id"],
                },
                "城市": {
                    "type": "string",
                    "enum": ["杭州", "上海"],
                    "x-enum-aliases": {"沪": "上海"},
                },
            },
            "required": ["客户编号"],
        },
        tags=("客户",),
        domain="客户服务",
    )
    return Registry(name="客户服务", title="客户服务工具", description="中文注册表", tools=(tool,))
