"""Opening a large registry: the draft loads on a worker while the window stays responsive.

Real widgets offscreen and a real SQLite file under tmp_path. The threshold is
lowered per test (``MainWindow.large_registry_tools``) so a few tools count as
"large"; a slowed :meth:`DraftWorkspace.load` keeps a load running long enough
to select, close or watch the GUI timer meanwhile.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer

from registry_db import RegistryStore
from studio.contract import Registry, ToolContract
from studio.editing import DraftWorkspace
from studio.ui.main_window import MainWindow
from studio.ui.registry_jobs import CANCELLED, load_draft
from tests.ui.registry_helpers import WAIT_MS, ScriptedPrompts

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")

SLOW_LOAD_S = 1.0
"""How long the worker sleeps in a load: a GUI blocked by the load would miss its
timer for that long, while a loaded machine alone delays a tick by a few hundred ms."""


def _registry(name: str, size: int) -> Registry:
    tools = tuple(
        ToolContract(name=f"get_{name}_{i}", summary=f"Get {name} record {i}.") for i in range(size)
    )
    return Registry(name=name, tools=tools)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    path = tmp_path / "studio.db"
    with RegistryStore.open(path) as store:
        # "alpha" comes first by name: the window opens it at start-up.
        store.import_registry(_registry("alpha", 2))
        store.import_registry(_registry("big_a", 4))
        store.import_registry(_registry("big_b", 5))
        store.import_registry(_registry("small", 1))
    return path


@pytest.fixture
def store(db_path: Path) -> Iterator[RegistryStore]:
    store = RegistryStore.open(db_path)
    yield store
    store.close()


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, threading.Thread]]:
    """Slow every draft load down and record which thread ran it."""
    calls: list[tuple[str, threading.Thread]] = []
    original = DraftWorkspace.load.__func__  # type: ignore[attr-defined]

    def slow_load(cls: type[DraftWorkspace], store: RegistryStore, name: str) -> DraftWorkspace:
        calls.append((name, threading.current_thread()))
        if threading.current_thread() is not threading.main_thread():
            time.sleep(SLOW_LOAD_S)
        return original(cls, store, name)

    monkeypatch.setattr(DraftWorkspace, "load", classmethod(slow_load))
    return calls


@pytest.fixture
def window(qtbot, monkeypatch: pytest.MonkeyPatch, store: RegistryStore) -> Iterator[MainWindow]:
    monkeypatch.setattr(MainWindow, "large_registry_tools", 3)
    w = MainWindow(store, ScriptedPrompts())
    qtbot.addWidget(w)
    w.show()
    yield w
    w.close()  # ends any load; no job may outlive the store
    w.registry_ops.shutdown()


def _pick(window: MainWindow, name: str) -> None:
    window.registry_combo.setCurrentIndex(window.registry_model.row_of(name))


def _shown(window: MainWindow) -> str | None:
    doc = window.current_document()
    return doc.name if doc is not None else None


def test_large_registry_loads_off_the_gui_thread_and_ends_active_and_linted(
    qtbot, window: MainWindow, loads: list[tuple[str, threading.Thread]]
) -> None:
    assert _shown(window) == "alpha"  # 2 tools: opened at once
    ticks: list[float] = []
    timer = QTimer()
    timer.setInterval(5)
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    timer.start()

    _pick(window, "big_a")

    # Loading state: no document, a banner and status naming it, editing off.
    assert window.opening is not None and window.opening.name == "big_a"
    assert window.current_document() is None
    assert window.loading_banner.isVisible()
    assert window.loading_label.text() == "Opening big_a — 4 tools…"
    assert window.status_label.text() == "Opening big_a — 4 tools…"
    assert window.registry_combo.currentText() == window.registry_combo.itemText(
        window.registry_model.row_of("big_a")
    )
    for action in (window.actions.new_tool, window.actions.save, window.actions.publish):
        assert not action.isEnabled()
    window.new_tool()  # ignored: nothing to edit yet
    assert window.current_document() is None

    qtbot.waitUntil(lambda: _shown(window) == "big_a", timeout=WAIT_MS)
    timer.stop()

    (_name, thread), *_ = [c for c in loads if c[0] == "big_a"]
    assert thread is not threading.main_thread()
    # The GUI kept running while the worker slept in the load.
    assert len(ticks) >= 10
    assert max(b - a for a, b in itertools.pairwise(ticks)) < 0.8 * SLOW_LOAD_S

    assert window.opening is None
    assert not window.loading_banner.isVisible()
    assert window.tool_proxy.rowCount() == 4
    assert window.selected_tool() is not None
    assert window.actions.new_tool.isEnabled()
    assert window.status_label.text().startswith("big_a · 4 tools")
    controller = window.lint_ops.current_controller()
    assert controller is not None
    qtbot.waitUntil(lambda: controller.report is not None, timeout=WAIT_MS)


def test_a_second_selection_during_the_load_wins(
    qtbot, window: MainWindow, loads: list[tuple[str, threading.Thread]]
) -> None:
    _pick(window, "big_a")
    _pick(window, "big_b")
    assert window.opening is not None and window.opening.name == "big_b"

    qtbot.waitUntil(lambda: _shown(window) == "big_b", timeout=WAIT_MS)
    assert window.open_jobs.wait()
    qtbot.wait(50)  # any late report of big_a has been delivered (and dropped)
    assert _shown(window) == "big_b"
    assert "big_a" not in window.documents
    assert window.registry_combo.currentIndex() == window.registry_model.row_of("big_b")


def test_a_small_registry_picked_during_the_load_wins(
    qtbot, window: MainWindow, loads: list[tuple[str, threading.Thread]]
) -> None:
    _pick(window, "big_a")
    _pick(window, "small")  # synchronous: shown at once
    assert _shown(window) == "small"
    assert window.opening is None
    assert not window.loading_banner.isVisible()

    assert window.open_jobs.wait()
    qtbot.wait(50)
    assert _shown(window) == "small"
    assert "big_a" not in window.documents


def test_closing_mid_load_leaves_no_running_job(
    qtbot, window: MainWindow, loads: list[tuple[str, threading.Thread]]
) -> None:
    _pick(window, "big_a")
    assert window.open_jobs.busy

    assert window.close()

    assert not window.open_jobs.busy
    assert window.open_jobs.runner.pool.activeThreadCount() == 0
    qtbot.wait(50)
    assert "big_a" not in window.documents
    assert window.current_document() is None


def test_small_registries_still_open_synchronously(
    store: RegistryStore, qtbot, loads: list[tuple[str, threading.Thread]]
) -> None:
    w = MainWindow(store, ScriptedPrompts())  # default threshold: thousands of tools
    qtbot.addWidget(w)
    try:
        doc = w.open_registry("big_b")
        assert doc is not None and _shown(w) == "big_b"
        assert w.opening is None
        assert all(thread is threading.main_thread() for _name, thread in loads)
    finally:
        w.close()


def test_an_unloadable_draft_keeps_the_message(
    qtbot, window: MainWindow, store: RegistryStore
) -> None:
    store.delete_registry("big_a")  # behind the window's back: its list still counts 4 tools
    try:
        DraftWorkspace.load(store, "big_a")
    except Exception as exc:  # what the synchronous open reported
        expected = f"Cannot open registry: big_a: {exc}"
    prompts = window.prompts
    assert isinstance(prompts, ScriptedPrompts)

    assert window.open_registry("big_a") is None
    qtbot.waitUntil(lambda: window.opening is None, timeout=WAIT_MS)

    assert prompts.errors == [expected]
    assert window.current_document() is None
    assert not window.loading_banner.isVisible()
    assert window.status_label.text() == "No registry open"


def test_a_large_first_registry_paints_while_loading(
    qtbot, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, loads
) -> None:
    with RegistryStore.open(tmp_path / "big_first.db") as seed:
        seed.import_registry(_registry("aaa_big", 6))
    monkeypatch.setattr(MainWindow, "large_registry_tools", 3)
    with RegistryStore.open(tmp_path / "big_first.db") as store:
        w = MainWindow(store, ScriptedPrompts())
        qtbot.addWidget(w)
        try:
            w.show()
            assert w.opening is not None and w.opening.name == "aaa_big"
            assert w.loading_banner.isVisible()
            assert w.windowTitle().startswith("aaa_big")
            qtbot.waitUntil(lambda: _shown(w) == "aaa_big", timeout=WAIT_MS)
            assert w.tool_proxy.rowCount() == 6
        finally:
            w.close()


def test_load_draft_honours_cancel(store: RegistryStore) -> None:
    cancel = threading.Event()
    workspace = load_draft(store, "big_b", cancel)
    assert isinstance(workspace, DraftWorkspace) and len(workspace.entries) == 5

    cancel.set()
    assert load_draft(store, "big_b", cancel) is CANCELLED
    assert [r.name for r in store.list_registries()][:2] == ["alpha", "big_a"]  # still usable


def test_load_draft_stops_mid_read_when_cancelled(
    store: RegistryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    from registry_db import drafts

    store.import_registry(_registry("many", 300))
    cancel = threading.Event()
    parsed: list[int] = []
    original = drafts.load_tool

    def load_tool(text: str) -> ToolContract:
        parsed.append(1)
        if len(parsed) == 5:
            cancel.set()  # as if another registry were picked now
        return original(text)

    monkeypatch.setattr(drafts, "load_tool", load_tool)
    assert load_draft(store, "many", cancel) is CANCELLED
    assert len(parsed) < 300
    assert not store.connection.in_transaction
    assert len(store.draft_tools("big_b")) == 5  # the connection is fine afterwards
