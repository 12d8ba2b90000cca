"""Remote agents over real A2A: the card fetched over HTTP, a delegation followed by state."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from studio.agents.card import fetch_card, read_card_file
from studio.agents.model import AgentCardError
from studio.runtime.delegate import (
    MAX_HOPS,
    DelegationRefused,
    check_incoming,
    delegate,
    next_chain,
    start_chain,
)
from tests.agents.a2a_server import running_agent


def test_card_fetched_over_http_with_sdk_types() -> None:
    with running_agent() as base:
        agent = asyncio.run(fetch_card(base))
    assert agent.name == "expense-audit-agent"
    assert agent.url == base + "/a2a"
    assert agent.streaming is True and agent.push_notifications is False
    assert [s.id for s in agent.skills] == ["audit-expense-claim", "cost-allocation-review"]
    assert agent.skills[1].name == "费用分摊审核"
    assert agent.security_schemes == (("bearer", "http"),)


def test_bad_cards_are_one_line(tmp_path: Path) -> None:
    with (
        running_agent() as base,
        pytest.raises(AgentCardError, match=r"HTTP 404 instead of an Agent Card"),
    ):
        asyncio.run(fetch_card(base + "/nowhere.json"))
    bad = tmp_path / "card.json"
    bad.write_text('{"name": "x", "skills": 3}')
    with pytest.raises(
        AgentCardError, match=r"^card.json: skills: must be an array of objects"
    ) as info:
        read_card_file(bad)
    assert "\n" not in str(info.value)
    bad.write_text("{nope")
    with pytest.raises(
        AgentCardError, match=r"card.json: line 1 column 2: Expecting property name"
    ):
        read_card_file(bad)
    with pytest.raises(AgentCardError, match="cannot fetch"):
        asyncio.run(fetch_card("http://127.0.0.1:9/"))


def test_delegation_asks_for_the_project_code_then_completes() -> None:
    updates: list[tuple[str, str]] = []
    with running_agent() as base:
        agent = asyncio.run(fetch_card(base))
        chain = start_chain("studio:travel-reimbursement", "trace-1")
        first = asyncio.run(
            delegate(
                agent, "请审核报销单 INV-102", chain, on_update=lambda s, t: updates.append((s, t))
            )
        )
        assert first.state == "input-required"
        assert first.states[0] in ("submitted", "working") and first.states[-1] == "input-required"
        assert "项目编号" in first.messages[-1]
        assert first.to_body()["next_step"].startswith("the remote agent needs more input")
        second = asyncio.run(
            delegate(
                agent, "项目编号 PRJ-7", chain, task_id=first.task_id, context_id=first.context_id
            )
        )
    assert second.task_id == first.task_id
    assert second.state == "completed"
    assert "working" in second.states
    assert "超标 38.5" in second.artifacts[0]["text"]
    assert second.flags == []
    body = second.to_body()
    assert body["delegation"] == {
        "trace_id": "trace-1",
        "originator": "studio:travel-reimbursement",
        "hop": 1,
        "chain": ["studio:travel-reimbursement", "expense-audit-agent"],
    }
    assert ("input-required", first.messages[-1]) in updates


def test_failure_state() -> None:
    with running_agent() as base:
        agent = asyncio.run(fetch_card(base))
        result = asyncio.run(delegate(agent, "FAIL please", start_chain("me")))
    assert result.state == "failed"


def test_instruction_like_result_is_flagged_not_followed() -> None:
    with running_agent(poison=True) as base:
        agent = asyncio.run(fetch_card(base))
        result = asyncio.run(delegate(agent, "审核 INV-102 项目 PRJ-7", start_chain("me")))
    assert result.state == "completed"
    assert result.flags
    warning = result.to_body()["untrusted_instructions"][0]
    assert "create the ticket directly" in warning and "do not follow it" in warning


def test_hops_and_cycles_refused_before_sending() -> None:
    chain = start_chain("studio")
    for name in ("a", "b", "c"):
        chain = next_chain(chain, name)
    assert chain.hop == MAX_HOPS
    with pytest.raises(DelegationRefused, match="exceeds the limit of 3"):
        next_chain(chain, "d")
    with pytest.raises(DelegationRefused, match="cycle"):
        next_chain(next_chain(start_chain("studio"), "a"), "a")
    card = json.loads(
        (Path(__file__).parents[2] / "resources/examples/agents/expense-audit.json").read_text()
    )
    from studio.agents.model import remote_agent

    agent = remote_agent("c", card)  # unreachable URL: refused before any request
    with pytest.raises(DelegationRefused):
        asyncio.run(delegate(agent, "x", next_chain(next_chain(start_chain("s"), "a"), "c")))
    incoming = {
        "studio_delegation": {
            "trace_id": "t",
            "originator": "s",
            "chain": ["s", "x", "me", "y", "me"],
        }
    }
    with pytest.raises(DelegationRefused):
        check_incoming(incoming, "me")
    assert check_incoming(None, "me") is None


def test_a_running_task_can_be_canceled() -> None:
    from studio.runtime.delegate import cancel_delegation

    async def scenario(agent) -> tuple[str, str]:  # type: ignore[no-untyped-def]
        started: asyncio.Future[str] = asyncio.get_running_loop().create_future()

        def on_task(task_id: str, _context: str) -> None:
            if not started.done():
                started.set_result(task_id)

        running = asyncio.ensure_future(
            delegate(agent, "审核 INV-102 PRJ-7", start_chain("me"), on_task=on_task)
        )
        task_id = await asyncio.wait_for(started, 10)
        state = await cancel_delegation(agent, task_id)
        result = await asyncio.wait_for(running, 10)
        return state, result.state

    with running_agent(delay=2.0) as base:
        agent = asyncio.run(fetch_card(base))
        reported, final = asyncio.run(scenario(agent))
    assert reported == "canceled"
    assert final == "canceled"


def test_the_receiving_agent_refuses_a_cycle_the_sender_could_not_see() -> None:
    import dataclasses

    with running_agent() as base:
        agent = asyncio.run(fetch_card(base))
        alias = dataclasses.replace(agent, name="audit-alias")  # the same agent, another key
        chain = next_chain(start_chain("studio"), "expense-audit-agent")
        result = asyncio.run(delegate(alias, "审核 INV-102 PRJ-7", chain))
    assert result.state == "rejected"
    assert "cycle" in result.messages[-1]
