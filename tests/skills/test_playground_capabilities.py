"""The GUI Playground with skills and a delegation: real providers, a real A2A agent on 127.0.0.1.

The scripted model loads the skill, delegates without a project code (the
agent answers input-required), and asks the user; the user's answer typed in
the prompt box continues that conversation, and the second delegation
completes with an artifact. The cards say what the skill told the model and
which states the task went through.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from registry_db.skills import save_draft_skills
from studio.agents.card import fetch_card
from studio.runtime.capabilities import delegate_tool_name
from studio.skills.package import read_skill_folder
from studio.ui.playground.capability_cards import pending_question
from studio.ui.playground.card_html import card_html, status_text
from tests.agents.a2a_server import running_agent
from tests.providers.scripted_server import ScriptedServer, ToolCall, Turn
from tests.ui.playground_helpers import KEY_ENV, add_profile, make_store, make_view, until

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
SKILL = Path(__file__).parents[2] / "resources" / "examples" / "skills" / "travel-reimbursement"
REGISTRY = "travel-reimbursement"


@pytest.fixture
def loop(qapp):
    from studio.ui.async_loop import StudioEventLoop

    loop = StudioEventLoop(qapp)
    asyncio.set_event_loop(loop)
    yield loop
    loop.close_cleanly()
    asyncio.set_event_loop(None)


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.setenv(KEY_ENV, "sk-test")
    store = make_store(tmp_path / "studio.sqlite3")
    yield store
    store.close()


def _run(loop, view, prompt: str) -> None:
    async def go() -> None:
        view.prompt_edit.setPlainText(prompt)
        assert view.run_prompt() is not None
        await until(lambda: view.controller.result is not None and not view.controller.busy)

    view.controller.result = None
    loop.run_until_complete(go())


def test_skill_load_and_delegation_in_the_playground(loop, qtbot, store) -> None:
    with running_agent() as base:
        agent = asyncio.run(fetch_card(base))
        save_draft_skills(store, REGISTRY, skills=[read_skill_folder(SKILL)], agents=[agent])
        delegate = delegate_tool_name(agent)
        turns = [
            Turn(tool_calls=[ToolCall("load_skill", '{"name": "travel-reimbursement"}')]),
            Turn(tool_calls=[ToolCall(delegate, json.dumps({"message": "审核 INV-102 的报销"}))]),
            Turn(text="审核需要项目编号，请提供项目编号。"),
            Turn(tool_calls=[ToolCall(delegate, json.dumps({"message": "审核 INV-102，PRJ-7"}))]),
            Turn(text="审核完成：超标 38.5 元。"),
        ]
        with ScriptedServer(turns) as server:
            view = make_view(qtbot, store)
            add_profile(store, server.base_url)
            view.sidebar.refresh()
            view.sidebar.profile_combo.setCurrentText("scripted")
            updates: list[tuple[str, str, str]] = []
            view.controller.agentUpdate.connect(lambda *u: updates.append(u))
            _run(loop, view, "我打车超标了，帮我报销 INV-102")

            first = server.requests[0].body
            system = next(m["content"] for m in first["messages"] if m["role"] == "system")
            assert "- travel-reimbursement: 处理差旅费用报销与超标说明" in system
            names = [t["function"]["name"] for t in first["tools"]]
            assert "load_skill" in names and delegate in names

            items = view.model.items()
            loaded = next(i for i in items if i.kind == "result" and i.name == "load_skill")
            html = card_html(loaded, view.model.audit_of(loaded.call_id), False)
            assert "Skill loaded: travel-reimbursement" in html and "按下面的顺序做" in html
            asked = next(i for i in items if i.kind == "result" and i.name == delegate)
            html = card_html(asked, view.model.audit_of(asked.call_id), True)
            assert "input-required" in html and "type it and press Run" in html
            call = next(i for i in items if i.kind == "call" and i.name == delegate)
            audit = view.model.audit_of(call.call_id)
            assert [s for s, _ in audit.updates][:1] == ["submitted"]
            assert "input-required" in [s for s, _ in audit.updates]
            assert status_text(call, audit).startswith("ok")  # the call itself ended
            assert pending_question(items) is not None
            assert "asks:" in view.status_label.text()

            # The answer, typed in the prompt box, continues this conversation.
            _run(loop, view, "项目编号是 PRJ-7")
            again = server.requests[3].body["messages"]
            assert any(m.get("role") == "tool" and "input-required" in str(m.get("content"))
                       for m in again)  # fmt: skip
            assert again[-1]["content"] == "项目编号是 PRJ-7"
            done = [i for i in view.model.items() if i.kind == "result" and i.name == delegate]
            html = card_html(done[-1], view.model.audit_of(done[-1].call_id), False)
            assert "completed" in html and "38.5" in html
            assert pending_question(view.model.items()) is None
            assert "completed" in [u[1] for u in updates]
