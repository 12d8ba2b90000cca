"""Fixtures shared by the GUI tests.

``loop`` is the qasync event loop the app runs (playground and replay tests).
``store``, ``prompts`` and ``window`` serve the registry command tests
(test_registry_actions, test_registry_jobs): ``store`` opens the module's
``db_path`` (each of those modules defines its own content); ``window`` is a
main window with scripted prompts. Modules that define fixtures of the same
names use their own.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from registry_db import RegistryStore
from studio.ui.async_loop import StudioEventLoop
from studio.ui.main_window import MainWindow
from tests.ui.registry_helpers import ScriptedPrompts


@pytest.fixture
def loop(qapp) -> Iterator[StudioEventLoop]:
    loop = StudioEventLoop(qapp)
    asyncio.set_event_loop(loop)
    yield loop
    loop.close_cleanly()
    asyncio.set_event_loop(None)


@pytest.fixture
def store(db_path: Path) -> Iterator[RegistryStore]:
    store = RegistryStore.open(db_path)
    yield store
    store.close()


@pytest.fixture
def prompts() -> ScriptedPrompts:
    return ScriptedPrompts()


@pytest.fixture
def window(qtbot, store: RegistryStore, prompts: ScriptedPrompts) -> Iterator[MainWindow]:
    w = MainWindow(store, prompts)
    qtbot.addWidget(w)
    yield w
    w.registry_ops.shutdown()  # no job may outlive the store
