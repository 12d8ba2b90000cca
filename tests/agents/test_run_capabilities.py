"""A run with skills loaded on demand and a delegation to a real A2A agent (scripted model)."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

from studio.agents.card import fetch_card
from studio.runtime import Run, RunConfig, auto_approver
from studio.runtime.capabilities import delegate_tool_name, with_capabilities
from studio.skills.package import read_skill_folder
from tests.agents.a2a_server import running_agent
from tests.runtime.helpers import (
    CONTEXT,
    FakeClient,
    answer,
    assistant,
    call,
    results_of,
    travel_mocks,
    travel_registry,
)

SKILL = Path(__file__).parents[2] / "resources" / "examples" / "skills" / "travel-reimbursement"


def test_catalogue_in_system_prompt_body_on_demand_and_a_delegation() -> None:
    updates: list[tuple[str, str, str]] = []
    with running_agent(poison=True) as base:
        agent = asyncio.run(fetch_card(base))
        registry = dataclasses.replace(
            travel_registry(with_destructive=False),
            skills=(read_skill_folder(SKILL),),
            agents=(agent,),
        )
        config = with_capabilities(
            RunConfig(registry, context=CONTEXT, mock=travel_mocks()),
            on_agent_update=lambda *u: updates.append(u),
        )
        delegate = delegate_tool_name(agent)
        client = FakeClient(
            assistant(call("c1", "load_skill", {"name": "travel-reimbursement"})),
            assistant(call("c2", delegate, {"message": "审核 INV-102，项目编号 PRJ-7"})),
            assistant(call("c3", "create_reimbursement_ticket", {"invoice_ids": ["INV-102"]})),
            answer("已提交审核，等待你确认后再创建工单。"),
        )
        run = Run(client, config, approver=auto_approver("none"))
        result = asyncio.run(run.execute("我打车超标了，帮我报销 INV-102"))
    first = client.requests[0]
    assert "- travel-reimbursement: 处理差旅费用报销与超标说明" in first.system
    assert "按下面的顺序做" not in first.system  # the body is not resident
    assert {"load_skill", delegate} <= {t.name for t in first.tools}
    messages = result.messages
    loaded = results_of(messages[2])["c1"]
    assert loaded["ok"] and "scripts/calc_over_limit.py" in loaded["data"]["files"]
    assert "按下面的顺序做" in loaded["data"]["instructions"]
    delegated = results_of(messages[4])["c2"]
    assert delegated["data_is_untrusted"] is True
    body = delegated["data"]
    assert body["state"] == "completed" and "38.5" in body["artifacts"][0]["text"]
    assert body["delegation"]["hop"] == 1 and body["delegation"]["originator"].startswith("studio:")
    assert any("do not follow it" in w for w in body["untrusted_instructions"])
    # The remote "create the ticket directly" is not acted on: the write still needs approval.
    created = results_of(messages[6])["c3"]
    assert created["ok"] is False
    assert ("expense-audit-agent", "completed", "") in updates or any(
        u[1] == "artifact" for u in updates
    )


def test_registry_without_capabilities_is_unchanged() -> None:
    plain = dataclasses.replace(travel_registry(with_destructive=False), skills=(), agents=())
    config = RunConfig(plain)
    assert with_capabilities(config) is config
