"""Issue #16, GUI start: what the main window leaves until after its first paint.

Beside the modes and heavy libraries of ``test_startup_imports``: the lint
engine (scores, similarity, rules), the formats, the token counter, Pygments'
lexers, the diff engine, the import/export dialogs and their worker are not
imported before the window paints, in a fresh interpreter. The Similar tools
and Scores docks (tabbed behind Problems) and the JSON tab's highlighter are
built when first shown, and then show what they would have shown had they
been built at start. A registry's tools are read in one query.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from registry_db import RegistryStore, load_examples
from studio.ui.main_window import MainWindow

ROOT = Path(__file__).resolve().parents[2]
# Shown windows on the offscreen platform print this; it says nothing of the studio.
pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")

AFTER_FIRST_PAINT = (
    "studio.lint.engine",
    "studio.lint.scores",
    "studio.lint.similarity",
    "studio.formats",
    "studio.contract.tokens",
    "studio.diff",
    "pygments.lexers",
    "studio.ui.registry_jobs",
    "studio.ui.dialogs.export_dialog",
    "studio.ui.dialogs.import_dialog",
    "studio.ui.widgets.score_widget",
    "studio.ui.views.similar_tools_view",
)

SCRIPT = r"""
import json, sys
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QApplication
from registry_db import RegistryStore
from studio.ui.main_window import MainWindow

app = QApplication([])
store = RegistryStore.open(sys.argv[1])
names = json.loads(sys.argv[2])
window = MainWindow(store)
painted = []

class Spy(QObject):
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint and not painted:
            painted.append([n for n in names if n in sys.modules])
        return False

spy = Spy()
window.installEventFilter(spy)
window.show()
while not painted:
    app.processEvents()
lint = window.lint_ops
print(json.dumps({"imported": painted[0],
                  "docks_built": [lint._similar_view is not None, lint._score_widget is not None],
                  "highlighter": window.editor.json_tab._highlighter is not None,
                  "tools": window.current_model().rowCount()}))
store.close()
"""


@pytest.fixture(scope="module")
def db_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("lazy") / "studio.sqlite3"
    with RegistryStore.open(db) as store:
        for registry in load_examples():
            store.import_registry(registry)
    return db


@pytest.fixture
def lazy_window(qtbot, db_path: Path) -> Iterator[MainWindow]:
    store = RegistryStore.open(db_path)
    window = MainWindow(store)
    qtbot.addWidget(window)
    yield window
    window.close()
    store.close()


def test_the_first_paint_comes_before_the_engine_formats_and_hidden_views(db_path: Path) -> None:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(db_path), json.dumps(AFTER_FIRST_PAINT)],
        capture_output=True, text=True, env=env, cwd=ROOT, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["imported"] == [], f"imported before the first paint: {result['imported']}"
    assert result["docks_built"] == [False, False]
    assert not result["highlighter"]  # the JSON tab is not the one shown
    assert result["tools"] > 0  # a registry did open


def test_hidden_lint_docks_are_built_on_first_show_with_the_current_report(
    qtbot, lazy_window: MainWindow
) -> None:
    lint = lazy_window.lint_ops
    lazy_window.show()
    controller = lint.current_controller()
    assert controller is not None
    qtbot.waitUntil(lambda: controller.report is not None, timeout=20_000)
    assert lint._score_widget is None and lint._similar_view is None
    lint.scores_dock.raise_()  # the user picks the Scores tab
    qtbot.waitUntil(lambda: lint._score_widget is not None)
    assert lint.score_widget._report is controller.report
    selected = lazy_window.selected_tool()
    assert selected is not None and lint.score_widget._tool == selected.name
    # Read before ever shown (as tests and the language switch do): built on demand.
    assert lint.similar_view.model.pairs() == tuple(controller.report.similar)


def test_the_json_tab_is_highlighted_once_shown(qtbot, lazy_window: MainWindow) -> None:
    editor = lazy_window.editor
    lazy_window.show()
    assert editor.json_tab._highlighter is None
    text = editor.json_tab.editor.toPlainText()
    assert text.startswith("{")  # the text is there; only the colours wait
    editor.show_tab("json")
    qtbot.waitUntil(lambda: editor.json_tab._highlighter is not None)
    block = editor.json_tab.editor.document().firstBlock().next()  # a key line
    assert block.layout().formats(), "the shown JSON is not highlighted"


def test_a_registry_s_tools_load_in_one_query(lazy_window: MainWindow) -> None:
    other = next(
        r.name
        for r in lazy_window.registry_model.registries()
        if r.name not in lazy_window.documents
    )
    statements: list[str] = []
    lazy_window.store.connection.set_trace_callback(statements.append)
    try:
        lazy_window.open_registry(other)
    finally:
        lazy_window.store.connection.set_trace_callback(None)
    tool_reads = [s for s in statements if "document_json" in s and "FROM draft_tools" in s]
    assert len(tool_reads) == 1, tool_reads
    assert lazy_window.current_model().rowCount() > 0


def test_pyside_s_check_of_each_import_gives_its_own_answer_from_the_file() -> None:
    import inspect
    import json as json_module

    from PySide6.support import feature

    import studio.contract.model
    import studio.ui.app
    import studio.ui.main_window

    check = feature._mod_uses_pyside
    assert check.__module__ == studio.ui.app.__name__  # the quick check is installed
    for module in (studio.ui.main_window, studio.contract.model, json_module):
        assert check(module) is ("PySide6" in inspect.getsource(module)), module.__name__
    assert check(studio.ui.main_window) and not check(studio.contract.model)
    assert check(sys) is False  # built in: no source, as inspect fails for it


def test_the_studio_style_draws_only_on_a_dark_palette(qapp) -> None:
    from studio.ui.app import apply_palette
    from studio.ui.style import StudioStyle

    try:
        assert apply_palette(qapp, "dark") == "dark"
        assert isinstance(qapp.style(), StudioStyle)  # the check outlines need it
        assert apply_palette(qapp, "light") == "light"
        # Fusion draws alone: no Python call per primitive (StudioStyle changes nothing here).
        assert not isinstance(qapp.style(), StudioStyle)
        assert qapp.style().name().lower() == "fusion"
    finally:
        apply_palette(qapp, "light")


def test_the_preview_and_the_first_lint_wait_for_the_first_paint(
    qtbot, lazy_window: MainWindow
) -> None:
    ran: list[str] = []
    lazy_window.after_first_paint(lambda: ran.append("not shown: at once"))
    assert ran == ["not shown: at once"]
    preview = lazy_window.preview
    preview.schedule()  # as a selection during the window's construction does
    lazy_window.show()  # its showEvent runs now; the paint comes with the event loop
    lazy_window.after_first_paint(lambda: ran.append("after the paint"))
    assert ran == ["not shown: at once"]
    assert not preview._timer.isActive() and preview.json_view.toPlainText() == ""
    qtbot.waitUntil(lambda: "after the paint" in ran)
    qtbot.waitUntil(lambda: '"name"' in preview.json_view.toPlainText())
    lazy_window.after_first_paint(lambda: ran.append("painted: at once"))
    assert ran[-1] == "painted: at once"
    # The first lint started through the same gate and reports as before.
    controller = lazy_window.lint_ops.current_controller()
    assert controller is not None
    qtbot.waitUntil(lambda: controller.report is not None, timeout=20_000)


def test_a_gui_start_leaves_automatic_collection_as_it_found_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import gc

    from studio.ui import app as app_module

    assert not gc.isenabled()  # the test session collects on the main thread only
    broken = tmp_path / "not-a-database.sqlite3"
    broken.write_bytes(b"this is not SQLite" * 100)
    shown: list[str] = []
    monkeypatch.setattr(app_module.QMessageBox, "critical", lambda *_a: shown.append("error"))
    monkeypatch.setattr(app_module, "install_excepthook", lambda *_a: None)
    monkeypatch.setattr(app_module, "_configure_logging", lambda: None)
    assert app_module.run_gui(broken) == 1
    assert shown and not gc.isenabled()
