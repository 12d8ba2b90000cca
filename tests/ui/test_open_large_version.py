"""Opening a large published version: it loads on the worker like a large draft.

Real widgets offscreen and a real SQLite file under tmp_path. The threshold is
lowered per test (``MainWindow.large_registry_tools``) so a few tools count as
"large"; a slowed :meth:`RegistryStore.read_version` keeps a load running long
enough to open something else or watch the GUI timer meanwhile.
"""

from __future__ import annotations

import dataclasses
import itertools
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer

from registry_db import RegistryStore, StoreError
from registry_db.versions import StoredVersion
from studio.contract import Registry, ToolContract
from studio.editing import DraftWorkspace
from studio.ui import registry_jobs
from studio.ui.main_window import MainWindow
from studio.ui.registry_jobs import CANCELLED, Refused, load_version
from tests.ui.registry_helpers import WAIT_MS, ScriptedPrompts

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")

SLOW_LOAD_S = 1.0
"""How long the worker sleeps in a load: a GUI blocked by the load would miss its
timer for that long, while a loaded machine alone delays a tick by a few hundred ms."""
THRESHOLD = 4  # versions of big (4 tools) are large; alpha (2 tools) and small (1) are not


def _registry(name: str, size: int) -> Registry:
    tools = tuple(
        ToolContract(name=f"get_{name}_{i}", summary=f"Get {name} record {i}.") for i in range(size)
    )
    return Registry(name=name, tools=tools)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[RegistryStore]:
    path = tmp_path / "studio.db"
    with RegistryStore.open(path) as seed:
        # "alpha" comes first by name: the window opens it at start-up.
        seed.import_registry(_registry("alpha", 2))
        seed.publish("alpha")
        seed.import_registry(_registry("big", 3))  # the draft is small...
        seed.publish("big")  # v1: 3 tools, small
        seed.import_registry(_registry("big", 4), replace_draft=True)
        seed.publish("big")  # v2: 4 tools, large
        seed.import_registry(_registry("small", 1))
    store = RegistryStore.open(path)
    yield store
    store.close()


@pytest.fixture
def loads(
    monkeypatch: pytest.MonkeyPatch, store: RegistryStore
) -> list[tuple[int, threading.Thread]]:
    """Slow every version load on the worker down and record which thread ran it."""
    calls: list[tuple[int, threading.Thread]] = []
    original = store.read_version

    def slow_read(name: str, number: int) -> StoredVersion:
        calls.append((number, threading.current_thread()))
        if threading.current_thread() is not threading.main_thread():
            time.sleep(SLOW_LOAD_S)
        return original(name, number)

    monkeypatch.setattr(store, "read_version", slow_read)
    return calls


@pytest.fixture
def window(qtbot, monkeypatch: pytest.MonkeyPatch, store: RegistryStore) -> Iterator[MainWindow]:
    monkeypatch.setattr(MainWindow, "large_registry_tools", THRESHOLD)
    w = MainWindow(store, ScriptedPrompts())
    qtbot.addWidget(w)
    w.show()
    w.open_registry("big")  # 4 tools in the draft: loads on the worker too
    qtbot.waitUntil(lambda: _shown(w) == "big", timeout=WAIT_MS)
    yield w
    w.close()  # ends any load; no job may outlive the store
    w.registry_ops.shutdown()


def _shown(window: MainWindow) -> str | None:
    """The key of the document on screen ("big", "big@2"), or None."""
    doc = window.current_document()
    if doc is None:
        return None
    number = doc.workspace.read_only_version
    return doc.name if number is None else f"{doc.name}@{number}"


def test_large_version_loads_off_the_gui_thread_and_ends_shown_read_only(
    qtbot, window: MainWindow, loads: list[tuple[int, threading.Thread]]
) -> None:
    ticks: list[float] = []
    timer = QTimer()
    timer.setInterval(5)
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    timer.start()

    assert window.open_version(2) is None  # not yet: it loads

    assert window.opening is not None and window.opening.key == "big@2"
    assert window.current_document() is None
    assert window.loading_banner.isVisible()
    assert window.loading_label.text() == "Opening version 2 of big — 4 tools…"
    assert window.status_label.text() == "Opening version 2 of big — 4 tools…"
    for action in (window.actions.new_tool, window.actions.save, window.actions.publish):
        assert not action.isEnabled()

    qtbot.waitUntil(lambda: _shown(window) == "big@2", timeout=WAIT_MS)
    timer.stop()

    assert [(n, t is threading.main_thread()) for n, t in loads] == [(2, False)]
    assert len(ticks) >= 10
    assert max(b - a for a, b in itertools.pairwise(ticks)) < 0.8 * SLOW_LOAD_S
    doc = window.current_document()
    assert doc is not None and doc.read_only
    assert window.opening is None
    assert not window.loading_banner.isVisible()
    assert window.banner.isVisible()
    assert "Version 2 (published, read-only) of big" in window.banner_label.text()
    assert window.tool_proxy.rowCount() == 4
    assert not window.actions.new_tool.isEnabled()
    assert window.versions_panel.selected_version() == 2

    # Opened once, it is shown at once the next time.
    window.open_registry("big")
    assert window.open_version(2) is doc


def test_tampered_large_version_shows_the_integrity_message_and_nothing_opens(
    qtbot, window: MainWindow, store: RegistryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = store.read_version

    def tampered(name: str, number: int) -> StoredVersion:
        # The stored document changed after publishing (the table refuses UPDATE).
        stored = original(name, number)
        document = stored.document.replace(b'"big"', b'"bog"', 1)
        assert document != stored.document
        return dataclasses.replace(stored, document=document)

    monkeypatch.setattr(store, "read_version", tampered)
    prompts = window.prompts
    assert isinstance(prompts, ScriptedPrompts)

    assert window.open_version(2) is None
    qtbot.waitUntil(lambda: window.opening is None, timeout=WAIT_MS)

    (error,) = prompts.errors
    assert error.startswith("Version failed its integrity check: Version 2 of big was not opened:")
    assert "hash recorded when it was published" in error
    assert "big@2" not in window.documents
    assert not window.loading_banner.isVisible()
    assert _shown(window) == "big"  # the draft it was opened from, as before


def test_a_missing_large_version_keeps_the_cannot_open_message(
    qtbot, window: MainWindow, store: RegistryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    def missing(name: str, number: int) -> StoredVersion:
        raise StoreError("gone")

    monkeypatch.setattr(store, "read_version", missing)
    prompts = window.prompts
    assert isinstance(prompts, ScriptedPrompts)

    window.open_version(2)
    qtbot.waitUntil(lambda: window.opening is None, timeout=WAIT_MS)

    assert prompts.errors == ["Cannot open version: big v2: gone"]
    assert _shown(window) == "big"


def test_opening_a_draft_while_a_version_loads_wins(
    qtbot, window: MainWindow, loads: list[tuple[int, threading.Thread]]
) -> None:
    window.open_version(2)
    assert window.opening is not None and window.opening.version == 2

    window.registry_combo.setCurrentIndex(window.registry_model.row_of("small"))
    assert _shown(window) == "small"  # synchronous: at once
    assert window.opening is None
    assert not window.loading_banner.isVisible()

    assert window.open_jobs.wait()
    qtbot.wait(50)  # the version's late result has been delivered (and dropped)
    assert _shown(window) == "small"
    assert "big@2" not in window.documents


def test_opening_a_version_while_a_draft_loads_wins(
    qtbot, window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = DraftWorkspace.load.__func__  # type: ignore[attr-defined]

    def slow_draft(cls: type[DraftWorkspace], store: RegistryStore, name: str) -> DraftWorkspace:
        if threading.current_thread() is not threading.main_thread():
            time.sleep(SLOW_LOAD_S)
        return original(cls, store, name)

    monkeypatch.setattr(DraftWorkspace, "load", classmethod(slow_draft))
    window.reload_document("big")  # the draft loads again, on the worker
    assert window.opening is not None and window.opening.key == "big"

    assert window.open_version(2) is None  # the registry being opened: its version 2
    assert window.opening is not None and window.opening.key == "big@2"

    qtbot.waitUntil(lambda: _shown(window) == "big@2", timeout=WAIT_MS)
    assert window.open_jobs.wait()
    qtbot.wait(50)  # the draft's late result, if any, has been dropped
    assert _shown(window) == "big@2"
    assert "big" not in window.documents


def test_a_later_version_supersedes_a_loading_one(
    qtbot, window: MainWindow, loads: list[tuple[int, threading.Thread]]
) -> None:
    window.open_version(2)
    assert window.open_version(1) is not None  # small: at once, the large one dropped
    assert _shown(window) == "big@1"
    assert window.opening is None

    assert window.open_jobs.wait()
    qtbot.wait(50)
    assert _shown(window) == "big@1"
    assert "big@2" not in window.documents


def test_small_versions_still_open_synchronously(
    qtbot, window: MainWindow, loads: list[tuple[int, threading.Thread]]
) -> None:
    doc = window.open_version(1)  # 3 tools, under the threshold
    assert doc is not None and doc.read_only
    assert _shown(window) == "big@1"
    assert window.opening is None
    assert [(n, t is threading.main_thread()) for n, t in loads] == [(1, True)]


def test_load_version_returns_a_read_only_workspace_or_the_error(store: RegistryStore) -> None:
    cancel = threading.Event()
    workspace = load_version(store, "big", 2, cancel)
    assert isinstance(workspace, DraftWorkspace)
    assert workspace.read_only_version == 2 and len(workspace.entries) == 4

    missing = load_version(store, "big", 9, cancel)
    assert isinstance(missing, Refused) and missing.error is not None
    assert missing.message == f"big: {missing.error}"

    cancel.set()
    assert load_version(store, "big", 2, cancel) is CANCELLED
    assert not store.connection.in_transaction


def test_the_store_is_free_while_the_worker_verifies_a_version(
    store: RegistryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Hashing and parsing a large version take most of a second; the GUI thread
    # must be able to read the shared store meanwhile (it used to wait for the lock).
    verifying, release = threading.Event(), threading.Event()
    real_verify = registry_jobs.verify_version

    def blocked_verify(stored: StoredVersion):  # type: ignore[no-untyped-def]
        verifying.set()
        assert release.wait(WAIT_MS / 1000)
        return real_verify(stored)

    monkeypatch.setattr(registry_jobs, "verify_version", blocked_verify)
    results: list[object] = []
    worker = threading.Thread(
        target=lambda: results.append(load_version(store, "big", 2, threading.Event()))
    )
    worker.start()
    try:
        assert verifying.wait(WAIT_MS / 1000)
        acquired = store.lock.acquire(timeout=1.0)  # free while the worker verifies
        assert acquired
        store.lock.release()
        assert "big" in [info.name for info in store.list_registries()]
    finally:
        release.set()
        worker.join(WAIT_MS / 1000)
    (workspace,) = results
    assert isinstance(workspace, DraftWorkspace) and workspace.read_only_version == 2
