"""The skill editor and the skills panel, real widgets offscreen."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from registry_db import RegistryStore, load_examples
from studio.skills.package import read_skill_folder
from studio.ui.skills import SkillEditorWidget, SkillsPanel

SKILL = Path(__file__).parents[2] / "resources" / "examples" / "skills" / "travel-reimbursement"


def test_editor_edits_and_undoes_across_fields(qtbot) -> None:
    editor = SkillEditorWidget()
    qtbot.addWidget(editor)
    original = read_skill_folder(SKILL)
    editor.set_skill(original, "travel-reimbursement")
    assert editor.name_edit.text() == "travel-reimbursement"
    assert editor.description_edit.toPlainText() == original.description
    qtbot.waitUntil(lambda: "差旅报销" in editor.preview.toPlainText())
    with qtbot.waitSignal(editor.skill_changed):
        editor.description_edit.setPlainText("查询报销进度。")
    editor.body_edit.setPlainText(original.body + "\n# 新的一节\n")
    qtbot.waitUntil(lambda: "新的一节" in editor.preview.toPlainText())
    editor.add_file("references/policy.md", "条款 4.2".encode())
    assert editor.skill is not None and editor.skill.file("references/policy.md") is not None
    assert editor.files.count() == 4
    editor.undo_stack.undo()  # the file
    editor.undo_stack.undo()  # the body
    editor.undo_stack.undo()  # the description
    assert editor.skill is not None and editor.skill.text == original.text
    assert editor.description_edit.toPlainText() == original.description
    editor.undo_stack.redo()
    assert editor.skill.description == "查询报销进度。"


def test_editor_shows_spec_problems(qtbot) -> None:
    editor = SkillEditorWidget()
    qtbot.addWidget(editor)
    editor.set_skill(read_skill_folder(SKILL), "travel-reimbursement")
    editor.name_edit.setText("Travel--Reimbursement")
    editor.name_edit.textEdited.emit("Travel--Reimbursement")
    text = editor.problems.text()
    assert "SKILL.md:2: name may hold only lowercase" in text
    assert "consecutive hyphens" in text


def test_panel_lists_tools_skills_agents_and_saves(qtbot, tmp_path: Path) -> None:
    store = RegistryStore.open(tmp_path / "db.sqlite3")
    store.seed_registries(load_examples())
    try:
        panel = SkillsPanel(store, "travel-reimbursement")
        qtbot.addWidget(panel)
        groups = [panel.tree.topLevelItem(i).text(0) for i in range(3)]
        assert groups == ["Tools (4)", "Skills (1)", "Remote agents (1)"]
        assert "tokens resident" in panel.catalogue.text()
        assert panel.select("agent", "expense-audit-agent")
        assert "费用分摊审核" in panel.card_view.toPlainText()
        assert panel.select("skill", "travel-reimbursement")
        assert panel.stack.currentWidget() is panel.editor
        revision = store.get_registry("travel-reimbursement").draft_revision
        panel.editor.description_edit.setPlainText("处理差旅费用报销。")
        assert panel.save_button.isEnabled()
        panel.save()
        draft = store.draft_registry("travel-reimbursement")
        assert draft.skills[0].description == "处理差旅费用报销。"
        assert store.get_registry("travel-reimbursement").draft_revision == revision + 1
    finally:
        store.close()


def test_delegation_view_follows_the_task_and_flags_instructions(qtbot) -> None:
    import asyncio

    from studio.agents.card import fetch_card
    from studio.ui.skills.delegation import DelegationView
    from tests.agents.a2a_server import running_agent

    with running_agent(poison=True) as base:
        agent = asyncio.run(fetch_card(base))
        view = DelegationView(agent)
        qtbot.addWidget(view)
        with qtbot.waitSignal(view.finished, timeout=20_000):
            view.send("请审核报销单 INV-102")
        assert view.result is not None and view.result.state == "input-required"
        lines = [view.timeline.item(i).text() for i in range(view.timeline.count())]
        assert any("input-required — 请提供这笔报销的项目编号" in line for line in lines)
        assert "answer above to continue" in view.status.text()
        with qtbot.waitSignal(view.finished, timeout=20_000):
            view.send("PRJ-7")
    assert view.result.state == "completed"
    assert "超标 38.5" in view.artifact.toPlainText()
    assert view.warning.isVisibleTo(view) and "not followed" in view.warning.text()


def test_a_reply_sent_as_soon_as_the_answer_shows_is_sent(qtbot, monkeypatch) -> None:
    """The worker thread outlives its answer (its event loop shuts down): a reply sent
    in that moment was dropped without a word."""
    import threading
    import types

    from studio.agents.model import RemoteAgent
    from studio.ui.skills import delegation
    from studio.ui.skills.delegation import DelegationView

    release = threading.Event()
    sent: list[str] = []

    async def answer(agent, message, chain, **_):
        sent.append(message)
        return types.SimpleNamespace(state="input-required", task_id="t", context_id="c",
                                     artifacts=[], chain=None, flags=[])  # fmt: skip

    def lingering(fn):  # the thread keeps running after the answer is emitted
        def run(*args, **kwargs):
            result = fn(*args, **kwargs)
            release.wait(10)
            return result

        return run

    monkeypatch.setattr(delegation, "delegate", answer)
    real_thread = threading.Thread
    monkeypatch.setattr(
        delegation.threading, "Thread",
        lambda target, **kw: real_thread(target=lingering(target), **kw),
    )  # fmt: skip
    view = DelegationView(RemoteAgent("a", url="http://127.0.0.1:9", description="d"))
    qtbot.addWidget(view)
    try:
        with qtbot.waitSignal(view.finished, timeout=10_000):
            view.send("first")
        with qtbot.waitSignal(view.finished, timeout=10_000):
            view.send("second")  # the first thread is still alive here
        assert sent == ["first", "second"]
    finally:
        release.set()
