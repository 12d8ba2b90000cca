"""Screenshots of the skills panel and skill editor: 1280×800 and 900×600, light and dark.

Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python docs/skills/make_screenshots.py``.
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
        store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
