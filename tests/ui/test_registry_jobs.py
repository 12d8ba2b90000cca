"""Registry import and export in the worker: off the GUI thread, progress, Cancel, CLI parity.

Real widgets offscreen, a real SQLite file under tmp_path and real files. To
stop a job at a known point, a test holds the store's lock on the GUI thread:
the lock is re-entrant there (the GUI keeps reading the store) while the
worker's store or load waits for it.
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer

from registry_db import RegistryStore, UpsertTool
from studio.cli import main as cli_main
from studio.contract import ToolContract
from studio.formats import import_path
from studio.ui import registry_jobs
from studio.ui.registry_jobs import CANCELLED, store_import
from tests.ui.registry_helpers import (
    WAIT_MS,
    fill_export,
    fill_import,
    problems_shown,
    run_export,
    run_import,
    write_openai_file,
)

# Offscreen QPA: dialogs are shown and raised, which this platform cannot do.
pytestmark = pytest.mark.qt_log_ignore(
    "This plugin does not support propagateSizeHints", "This plugin does not support raise"
)

LARGE = 2_000
SAVED_TOOLS = ["search_policy", "query_invoices"]


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    path = tmp_path / "studio.sqlite3"
    with RegistryStore.open(path) as store:
        store.create_registry("travel", title="Travel reimbursement")
        store.save_draft(
            "travel", [UpsertTool(ToolContract(name, summary="Saved.")) for name in SAVED_TOOLS]
        )
    return path


@pytest.fixture
def large_file(tmp_path: Path) -> Path:
    return write_openai_file(tmp_path / "invoices.json", LARGE)


def _saved_state(db_path: Path) -> tuple[list[str], list[str], int]:
    """Registries, travel's draft tools and its draft revision, read through another connection."""
    with RegistryStore.open(db_path) as other:
        names = [r.name for r in other.list_registries()]
        tools = [t.tool.name for t in other.draft_tools("travel")]
        return names, tools, other.get_registry("travel").draft_revision


class _Ticker:
    """A GUI-thread timer that records when it fires: it only fires while the GUI is free."""

    def __init__(self, interval_ms: int = 10) -> None:
        self.times: list[float] = []
        self.timer = QTimer()
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(lambda: self.times.append(time.perf_counter()))
        self.timer.start()

    def between(self, start: float, end: float) -> int:
        return sum(1 for t in self.times if start <= t <= end)


# ---------------------------------------------------------------- import


def test_large_import_runs_in_the_worker_with_progress(
    qtbot, window, store, prompts, large_file, tmp_path, monkeypatch
) -> None:
    threads: dict[str, threading.Thread] = {}
    real_import_path, real_store = registry_jobs.import_path, store.import_registry

    def reading(*args, **kwargs):
        threads["read"] = threading.current_thread()
        return real_import_path(*args, **kwargs)

    def storing(*args, **kwargs):
        threads["store"] = threading.current_thread()
        return real_store(*args, **kwargs)

    monkeypatch.setattr(registry_jobs, "import_path", reading)
    monkeypatch.setattr(store, "import_registry", storing)
    dialog = fill_import(window, large_file)
    reports: list[tuple[int, int]] = []
    show_progress = dialog.job_panel.set_progress

    def record_progress(done: int, total: int) -> None:
        reports.append((done, total))
        show_progress(done, total)

    monkeypatch.setattr(dialog.job_panel, "set_progress", record_progress)
    finished: list[float] = []
    close = dialog.succeed
    monkeypatch.setattr(dialog, "succeed", lambda: (finished.append(time.perf_counter()), close()))
    ticker = _Ticker()

    with store.lock:  # the store job waits here: the dialog must show its progress meanwhile
        dialog.ok_button.click()
        assert dialog.running and not dialog.job_panel.isVisible()  # nothing flashes at once
        qtbot.waitUntil(
            lambda: "Storing 2,000 tools" in dialog.job_panel.status.text(), timeout=WAIT_MS
        )
        qtbot.waitUntil(lambda: dialog.job_panel.was_revealed, timeout=WAIT_MS)
        panel = dialog.job_panel
        assert panel.bar.isVisibleTo(dialog) and panel.status.isVisibleTo(dialog)
        assert not dialog.ok_button.isEnabled() and not dialog.path_edit.isEnabled()
        assert dialog.cancel_button.isEnabled()
        # Ctrl+I / Ctrl+E meanwhile raise the running dialog instead of opening another.
        assert window.registry_ops.import_tools() is None
        assert window.registry_ops.export_registry() is None
        assert window.registry_ops.dialog is dialog
        assert dialog.grab().save(str(tmp_path / "progress.png"))
        released = time.perf_counter()
    qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=WAIT_MS)

    main = threading.main_thread()
    assert threads["read"] is not main and threads["store"] is not main
    # The GUI thread kept handling its timer while the worker stored 2,000 tools.
    assert ticker.between(released, finished[0]) >= 5
    assert reports[-1] == (LARGE, LARGE) and len({done for done, _ in reports}) > 5
    assert store.get_registry("invoices").tool_count == LARGE
    # 2,000 tools: the new registry opens in the worker too (test_open_large_registry).
    qtbot.waitUntil(lambda: window.current_document() is not None, timeout=WAIT_MS)
    assert window.current_document().name == "invoices"
    assert "Imported invoices: 2000 tools from invoices.json (openai)" in prompts.notes[0][0]


def test_small_import_feels_instant(qtbot, window, store, tmp_path) -> None:
    small = write_openai_file(tmp_path / "few.json", 3)
    revealed: list[bool] = []
    dialog = fill_import(window, small)
    dialog.job_panel.revealed.connect(lambda: revealed.append(True))
    dialog.ok_button.click()
    qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=WAIT_MS)
    qtbot.wait(registry_jobs.PROGRESS_DELAY_MS + 50)
    assert revealed == [] and not dialog.job_panel.was_revealed
    assert store.get_registry("few").tool_count == 3


def test_cancel_while_storing_rolls_back(qtbot, window, store, db_path, large_file) -> None:
    before = _saved_state(db_path)
    dialog = fill_import(window, large_file)
    seen: list[tuple[int, int]] = []
    show_progress = dialog.job_panel.set_progress

    def cancel_at_first_report(done: int, total: int) -> None:
        show_progress(done, total)
        if done > 0:
            seen.append((done, total))
            if len(seen) == 1:
                dialog.cancel_button.click()  # rows are being written: the transaction is open

    dialog.job_panel.set_progress = cancel_at_first_report
    dialog.ok_button.click()
    qtbot.waitUntil(lambda: not dialog.running, timeout=WAIT_MS)

    assert seen and 0 < seen[0][0] < LARGE
    assert dialog.isVisible() and dialog.job_panel.status.text() == (
        "Import cancelled; nothing was changed."
    )
    assert dialog.ok_button.isEnabled() and dialog.path_edit.isEnabled()
    assert not store.connection.in_transaction
    assert _saved_state(db_path) == before
    assert window.current_document().name == "travel"
    # Nothing is left half-done: the same import runs to the end afterwards.
    dialog.ok_button.click()
    qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=WAIT_MS)
    assert store.get_registry("invoices").tool_count == LARGE


def test_cancel_replacing_a_draft_keeps_the_saved_draft(
    qtbot, window, store, db_path, large_file
) -> None:
    before = _saved_state(db_path)
    dialog = fill_import(window, large_file, name="travel", replace=True)
    with store.lock:
        dialog.ok_button.click()
        qtbot.waitUntil(lambda: "Storing" in dialog.job_panel.status.text(), timeout=WAIT_MS)
        dialog.cancel_button.click()
        assert dialog.running and dialog.job_panel.status.text() == "Cancelling…"
        assert not dialog.cancel_button.isEnabled()
        dialog.reject()  # Esc while cancelling does not close the dialog either
        assert dialog.isVisible()
    qtbot.waitUntil(lambda: not dialog.running, timeout=WAIT_MS)
    assert "nothing was changed" in dialog.job_panel.status.text()
    assert _saved_state(db_path) == before
    assert [e.tool.name for e in window.current_document().workspace.entries] == SAVED_TOOLS


def test_cancel_between_reading_and_storing_stores_nothing(
    qtbot, window, store, db_path, large_file, monkeypatch
) -> None:
    before = _saved_state(db_path)
    dialog = fill_import(window, large_file)
    announce_store = dialog.set_step

    def cancel_as_storing_starts(text: str) -> None:
        announce_store(text)
        dialog.cancel_button.click()  # no job runs at this moment

    monkeypatch.setattr(dialog, "set_step", cancel_as_storing_starts)
    dialog.ok_button.click()
    qtbot.waitUntil(lambda: not dialog.running, timeout=WAIT_MS)
    assert dialog.job_panel.status.text() == "Import cancelled; nothing was changed."
    assert _saved_state(db_path) == before


def test_cancel_while_reading_returns_at_once(qtbot, window, store, db_path, large_file) -> None:
    before = _saved_state(db_path)
    dialog = fill_import(window, large_file)
    dialog.ok_button.click()
    dialog.cancel_button.click()
    assert not dialog.running and dialog.isVisible()
    assert dialog.job_panel.status.text() == "Import cancelled; nothing was changed."
    window.registry_ops.jobs.wait()  # the dropped read ends unheard
    qtbot.wait(50)
    assert _saved_state(db_path) == before
    assert window.current_document().name == "travel"
    dialog.reject()
    assert not dialog.isVisible()


def test_closing_the_window_mid_import_leaves_the_database_unchanged(
    qtbot, window, store, db_path, large_file
) -> None:
    before = _saved_state(db_path)
    dialog = fill_import(window, large_file)
    dialog.ok_button.click()
    qtbot.waitUntil(lambda: dialog.job_panel.bar.value() > 0, timeout=WAIT_MS)
    window.registry_ops.shutdown()  # what closeEvent does
    assert not window.registry_ops.jobs.runner.busy
    assert _saved_state(db_path) == before


def test_store_import_cancelled_midway_rolls_back(store, db_path, large_file) -> None:
    registry = import_path(large_file).registry
    before = _saved_state(db_path)
    cancel = threading.Event()
    written: list[int] = []

    def cancel_after_500(done: int, total: int) -> None:
        written.append(done)
        if done == 500:
            cancel.set()

    result = store_import(
        store, registry, replace_draft=False, cancel=cancel, progress=cancel_after_500
    )
    assert result is CANCELLED and 500 <= max(written) < LARGE  # stopped within a few rows
    assert not store.connection.in_transaction
    assert _saved_state(db_path) == before
    assert store_import(store, registry, replace_draft=False, cancel=cancel) is CANCELLED

    written.clear()
    info = store_import(
        store, registry, replace_draft=False, cancel=threading.Event(), progress=cancel_after_500
    )
    assert info.tool_count == LARGE and written[-1] == LARGE


# ---------------------------------------------------------------- export


def _cli_export(db_path: Path, registry: str, fmt: str, out: Path, version: str = "draft") -> None:
    argv = ["--db", str(db_path), "export", registry, "--format", fmt, "--out", str(out)]
    assert cli_main([*argv, "--version", version]) == 0


def _tree(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }


def test_large_export_runs_in_the_worker_and_writes_the_cli_bytes(
    qtbot, window, store, prompts, db_path, large_file, tmp_path, monkeypatch
) -> None:
    store.import_registry(import_path(large_file).registry)
    window.refresh_registries()
    window.open_registry("invoices")  # 2,000 tools: loads in the worker
    qtbot.waitUntil(lambda: window.current_document() is not None, timeout=WAIT_MS)
    threads: list[threading.Thread] = []
    real_export = registry_jobs.export_registry

    def exporting(*args, **kwargs):
        threads.append(threading.current_thread())
        return real_export(*args, **kwargs)

    monkeypatch.setattr(registry_jobs, "export_registry", exporting)
    out = tmp_path / "gui" / "invoices.openai.json"
    dialog = run_export(qtbot, window, None, "openai", out)
    assert not dialog.isVisible() and problems_shown(dialog) == ""
    assert threads and threads[0] is not threading.main_thread()
    cli_out = tmp_path / "cli" / "invoices.openai.json"
    _cli_export(db_path, "invoices", "openai", cli_out)
    assert out.read_bytes() == cli_out.read_bytes()
    assert "Exported the draft of invoices as openai" in prompts.notes[0][0]


@pytest.mark.parametrize("fmt", ["studio", "openai-responses", "anthropic", "gemini", "mcp"])
def test_export_writes_the_cli_bytes_in_every_file_format(
    qtbot, window, db_path, tmp_path, fmt
) -> None:
    out = tmp_path / "gui.json"
    run_export(qtbot, window, None, fmt, out)
    cli_out = tmp_path / "cli.json"
    _cli_export(db_path, "travel", fmt, cli_out)
    assert out.read_bytes() == cli_out.read_bytes()


def test_export_of_a_stored_version_as_a_folder_matches_the_cli(
    qtbot, window, store, db_path, tmp_path
) -> None:
    store.publish("travel", notes="v1")
    store.save_draft("travel", [UpsertTool(ToolContract("list_trips", summary="Trips."))])
    window.refresh_registries()
    out = tmp_path / "gui-dir"
    run_export(qtbot, window, 1, "dir", out)
    cli_out = tmp_path / "cli-dir"
    _cli_export(db_path, "travel", "dir", cli_out, version="1")
    assert _tree(out) == _tree(cli_out) and _tree(out)
    assert not any("list_trips" in name for name in _tree(out))


def test_cancel_export_writes_nothing(qtbot, window, store, tmp_path) -> None:
    store.publish("travel", notes="v1")
    window.refresh_registries()
    out = tmp_path / "v1.json"
    dialog = fill_export(window, 1, "openai", out)
    with store.lock:  # version 1 is not shown: the worker reads it from the store
        dialog.ok_button.click()
        qtbot.waitUntil(lambda: dialog.job_panel.was_revealed, timeout=WAIT_MS)
        assert "Exporting version 1 of travel as openai" in dialog.job_panel.status.text()
        dialog.cancel_button.click()
        assert dialog.job_panel.status.text() == "Cancelling…"
    qtbot.waitUntil(lambda: not dialog.running, timeout=WAIT_MS)
    assert dialog.job_panel.status.text() == "Export cancelled; nothing was written."
    assert not out.exists()


def test_import_error_is_shown_in_the_dialog_with_its_place(qtbot, window, prompts, tmp_path):
    bad = tmp_path / "broken.json"
    bad.write_text('[{"type": "function", "function": {"name": "a"}}\n  {"x": 1}]\n', "utf-8")
    dialog = run_import(qtbot, window, bad)
    message = problems_shown(dialog)
    assert message.startswith("broken.json was not imported; nothing was changed.")
    assert "broken.json: line 2 column 3" in message
    assert prompts.errors == [] and dialog.isVisible()
    assert not dialog.job_panel.bar.isVisibleTo(dialog)
    dialog.grab().save(str(tmp_path / "error.png"))


def test_a_key_sorted_openapi_document_is_read_as_openapi_like_the_cli(tmp_path: Path) -> None:
    # "components" sorts before "openapi": 100 KiB of schemas push the key past any head.
    schemas = {f"Model{i}": {"type": "object", "description": "x" * 1000} for i in range(100)}
    document = {
        "components": {"schemas": schemas},
        "info": {"title": "Sorted", "version": "1"},
        "openapi": "3.0.3",
        "paths": {"/a": {"get": {"operationId": "getA", "responses": {"200": {}}}}},
    }
    path = tmp_path / "sorted.json"
    path.write_text(json.dumps(document, sort_keys=True), encoding="utf-8")
    assert path.read_text(encoding="utf-8").index('"openapi"') > 65536
    read = registry_jobs.read_import(path, "auto", None)
    assert isinstance(read, registry_jobs.OpenApiRead), read
    assert cli_main(["--db", str(tmp_path / "s.db"), "import", str(path)]) == 0
