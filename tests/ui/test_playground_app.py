"""run_gui drives the GUI on a qasync loop: asyncio tasks run while the window is open."""

from __future__ import annotations

import asyncio
import sys

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from registry_db import RegistryStore

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")


def test_run_gui_runs_asyncio_tasks_and_ends_when_the_window_closes(qapp, tmp_path, monkeypatch):
    from studio.ui import app as app_module

    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    RegistryStore.open(tmp_path / "studio.sqlite3").close()
    seen: list[str] = []

    async def task() -> None:
        await asyncio.sleep(0.01)
        seen.append("task ran on the GUI loop")
        for widget in QApplication.topLevelWidgets():
            widget.close()

    def schedule() -> None:
        asyncio.get_running_loop().create_task(task())

    QTimer.singleShot(50, schedule)
    assert app_module.run_gui(tmp_path / "studio.sqlite3") == 0
    assert seen == ["task ran on the GUI loop"]
