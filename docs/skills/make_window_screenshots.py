"""Screenshots of skills in the main window and a delegation in the Playground (issue #18).

1280×800 and 900×600, light and dark:

- ``main-window-skills-<theme>-<w>x<h>.png``: the Skills & agents mode of the
  main window (tools, skills and remote agents in one tree, the skill editor);
- ``playground-delegation-<theme>-<w>x<h>.png``: a Playground run that loaded
  the skill and delegated to the sample agent (a real a2a-sdk server on
  127.0.0.1), which asks for a project code (input-required), answered from
  the prompt box, then completes with its artifact. The model is the tests'
  scripted server, so the shot is the same on every run.

Run from the repository root:
``QT_QPA_PLATFORM=offscreen PYTHONPATH=. .venv/bin/python docs/skills/make_window_screenshots.py``
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from PySide6.QtWidgets import QApplication

OUT = Path(__file__).resolve().parent
SIZES = ((1280, 800), (900, 600))
SKILL = Path(__file__).resolve().parents[2] / "resources/examples/skills/travel-reimbursement"


def _settle(app: QApplication, seconds: float = 0.4) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.processEvents()
        time.sleep(0.02)


def main_window_shots(app: QApplication, folder: Path) -> None:
    from registry_db import open_default_store
    from studio.ui.app import apply_palette
    from studio.ui.main_window import MainWindow

    store = open_default_store(folder / "window.sqlite3", seed=True)
    for theme in ("light", "dark"):
        apply_palette(app, theme)
        for width, height in SIZES:
            window = MainWindow(store)
            window.resize(width, height)
            window.show()
            _settle(app, 0.6)
            window.show_mode("skills")
            panel = window.skills_panel
            assert panel is not None
            panel.select("skill", "travel-reimbursement")
            _settle(app, 0.6)
            window.grab().save(str(OUT / f"main-window-skills-{theme}-{width}x{height}.png"))
            window.registry_ops.shutdown()
            window.lint_ops.shutdown()
            window.close()
            window.deleteLater()
            _settle(app, 0.1)
    store.close()


def playground_shots(app: QApplication, folder: Path) -> None:
    from registry_db.skills import save_draft_skills
    from studio.agents.card import fetch_card
    from studio.agents.expense_audit import serving as running_agent
    from studio.runtime.capabilities import delegate_tool_name
    from studio.skills.package import read_skill_folder
    from studio.ui.app import apply_palette
    from studio.ui.async_loop import StudioEventLoop
    from studio.ui.playground.view import PlaygroundView
    from tests.providers.scripted_server import ScriptedServer, ToolCall, Turn
    from tests.ui.playground_helpers import KEY_ENV, add_profile, make_store, until

    os.environ[KEY_ENV] = "sk-screenshot"
    loop = StudioEventLoop(app)
    asyncio.set_event_loop(loop)
    with running_agent(poison=True) as base:
        agent = asyncio.run(fetch_card(base))
        delegate = delegate_tool_name(agent)
        for theme in ("light", "dark"):
            apply_palette(app, theme)
            for width, height in SIZES:
                store = make_store(folder / f"pg-{theme}-{width}.sqlite3")
                save_draft_skills(
                    store, "travel-reimbursement", skills=[read_skill_folder(SKILL)],
                    agents=[agent],
                )  # fmt: skip
                turns = [
                    Turn(tool_calls=[ToolCall("load_skill", '{"name": "travel-reimbursement"}')]),
                    Turn(tool_calls=[ToolCall(delegate, json.dumps({"message": "审核 INV-102"}))]),
                    Turn(text="审核需要项目编号，请提供项目编号。"),
                    Turn(tool_calls=[ToolCall(delegate, json.dumps({"message": "INV-102 PRJ-7"}))]),
                    Turn(text="审核完成：INV-102 超标 38.5 元，需补充超标说明。"),
                ]
                with ScriptedServer(turns) as server:
                    add_profile(store, server.base_url)
                    view = PlaygroundView(store)
                    view.resize(width, height)
                    view.show()
                    view.sidebar.refresh()
                    view.sidebar.profile_combo.setCurrentText("scripted")
                    for prompt in ("我打车超标了，帮我报销 INV-102", "项目编号是 PRJ-7"):
                        loop.run_until_complete(_run(view, prompt, until))
                        if prompt.startswith("我"):  # the input-required turn, as the user sees it
                            _settle(app, 0.5)
                            name = f"playground-input-required-{theme}-{width}x{height}.png"
                            view.grab().save(str(OUT / name))
                    _settle(app, 0.5)
                    view.conversation.scrollToBottom()
                    _settle(app, 0.3)
                    name = f"playground-delegation-{theme}-{width}x{height}.png"
                    view.grab().save(str(OUT / name))
                    view.close()
                store.close()
    loop.close_cleanly()
    asyncio.set_event_loop(None)


async def _run(view: object, prompt: str, until: object) -> None:
    """Type ``prompt``, press Run, wait for the run to end (inside the qasync loop)."""
    view.controller.result = None  # type: ignore[attr-defined]
    view.prompt_edit.setPlainText(prompt)  # type: ignore[attr-defined]
    assert view.run_prompt() is not None, view.status_label.text()  # type: ignore[attr-defined]
    c = view.controller  # type: ignore[attr-defined]
    await until(lambda: c.result is not None and not c.busy)  # type: ignore[operator]


def main() -> int:
    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    from studio.ui.style import StudioStyle

    app.setStyle(StudioStyle())
    with tempfile.TemporaryDirectory() as folder:
        main_window_shots(app, Path(folder))
        playground_shots(app, Path(folder))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
