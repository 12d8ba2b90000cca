"""Screenshots of the skills panel and skill editor: 1280×800 and 900×600, light and dark.

Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python docs/skills/make_screenshots.py``
(the delegation shots start the sample A2A agent on 127.0.0.1).
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from PySide6.QtWidgets import QApplication

OUT = Path(__file__).resolve().parent


def _settle(app: QApplication, seconds: float = 0.4) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.processEvents()
        time.sleep(0.02)


def main() -> int:
    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    from registry_db import RegistryStore, load_examples
    from studio.ui.app import apply_palette
    from studio.ui.skills import SkillsPanel
    from studio.ui.style import StudioStyle

    app.setStyle(StudioStyle())
    with tempfile.TemporaryDirectory() as folder:
        store = RegistryStore.open(Path(folder) / "shots.sqlite3")
        store.seed_registries(load_examples())
        for theme in ("light", "dark"):
            apply_palette(app, theme)
            for width, height in ((1280, 800), (900, 600)):
                panel = SkillsPanel(store, "travel-reimbursement")
                panel.setWindowTitle("Skills — travel-reimbursement")
                panel.resize(width, height)
                panel.show()
                panel.select("skill", "travel-reimbursement")
                _settle(app)
                panel.grab().save(str(OUT / f"skill-editor-{theme}-{width}x{height}.png"))
                panel.select("agent", "expense-audit-agent")
                _settle(app, 0.2)
                if (width, height) == (1280, 800):
                    panel.grab().save(str(OUT / f"agent-card-{theme}.png"))
                panel.close()
        _delegation_shots(app, store)
        store.close()
    return 0


def _delegation_shots(app: QApplication, store: object) -> None:
    """A delegation to the sample agent (a real a2a-sdk server on 127.0.0.1), light and dark."""
    import asyncio
    import dataclasses

    from registry_db.skills import save_draft_skills
    from studio.agents.card import fetch_card
    from studio.agents.expense_audit import serving as running_agent
    from studio.ui.app import apply_palette
    from studio.ui.skills import SkillsPanel

    with running_agent(poison=True) as base:
        agent = asyncio.run(fetch_card(base))
        agent = dataclasses.replace(agent, name="expense-audit-agent")
        save_draft_skills(store, "travel-reimbursement", agents=[agent])  # type: ignore[arg-type]
        for theme in ("light", "dark"):
            apply_palette(app, theme)
            panel = SkillsPanel(store, "travel-reimbursement")
            panel.resize(1280, 800)
            panel.show()
            panel.select("agent", "expense-audit-agent")
            view = panel.delegation
            assert view is not None
            for text in ("请审核报销单 INV-102", "项目编号 PRJ-7"):
                view.input.setText(text)
                view.send()
                view.wait()
                _settle(app, 0.5)
            panel.grab().save(str(OUT / f"delegation-{theme}.png"))
            panel.close()


if __name__ == "__main__":
    raise SystemExit(main())
