"""Small windows: no mode raises the window's minimum size; 900×600, 1366×768 and 200 % scale.

Opening Release once raised the minimum height to 733 px for good; the
replay buttons collapsed to "◀…s", the Preview hid its token count and the
profile dialog clipped its URL.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from registry_db import RegistryStore, open_default_store
from studio.release import set_canary
from studio.ui.main_window import MainWindow
from studio.ui.playground.profile_dialog import ProfileDialog
from studio.ui.sessions.replay_bar import ReplayBar
from tests.ui.registry_helpers import ScriptedPrompts

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
ROOT = Path(__file__).resolve().parents[2]
MODES = ("editor", "playground", "sessions", "diff", "release")


def prepare(path: Path) -> RegistryStore:
    """The seeded examples, travel-reimbursement published twice with a canary."""
    store = open_default_store(path, seed=True)
    while len(store.list_versions("travel-reimbursement")) < 2:  # the seed may publish v1
        store.publish("travel-reimbursement", notes="another")
    latest = store.list_versions("travel-reimbursement")[-1].number
    set_canary(store, "travel-reimbursement", version=latest, share=10, who="t", why="try")
    return store


@pytest.fixture
def store(tmp_path: Path) -> Iterator[RegistryStore]:
    opened = prepare(tmp_path / "studio.sqlite3")
    yield opened
    opened.close()


def _close(window: MainWindow) -> None:
    window.registry_ops.shutdown()
    window.lint_ops.shutdown()
    for view in (window.release_view, window.sessions_view):
        if view is not None:
            view.shutdown()
    if window.diff_view is not None:
        window.diff_view.runner.wait()


@pytest.mark.parametrize("size", [(900, 600), (1366, 768)])
def test_no_mode_raises_the_minimum_size(qtbot, store, size) -> None:
    window = MainWindow(store, ScriptedPrompts())
    qtbot.addWidget(window)
    window.resize(*size)
    window.show()
    qtbot.wait(100)
    # Every mode the mode bar offers (later modes included), then back and forth.
    modes = [a.objectName().removeprefix("show_") for a in window.mode_bar.mode_actions]
    assert set(MODES) <= set(modes)
    for mode in (*modes, "editor", "release"):
        window.show_mode(mode)
        qtbot.wait(50)
        hint = window.minimumSizeHint()
        assert hint.width() <= 900 and hint.height() <= 600, (mode, hint)
        assert window.minimumWidth() <= 900 and window.minimumHeight() <= 600, mode
        assert window.size().toTuple() == size, mode
    _close(window)


def test_at_900_by_600_the_preview_shows_its_token_count(qtbot, store) -> None:
    window = MainWindow(store, ScriptedPrompts())
    qtbot.addWidget(window)
    window.resize(900, 600)
    window.show()
    qtbot.waitUntil(lambda: "tokens" in window.preview.tokens_label.text())
    label = window.preview.tokens_label
    assert label.isVisible()
    assert label.width() >= label.fontMetrics().horizontalAdvance(label.text())
    _close(window)


def test_replay_buttons_never_squeeze_their_text(qtbot) -> None:
    bar = ReplayBar()
    qtbot.addWidget(bar)
    bar.resize(bar.minimumSizeHint().width(), bar.minimumSizeHint().height())
    bar.show()
    for button in (bar.first_button, bar.previous_button, bar.next_button,
                   bar.previous_problem_button, bar.next_problem_button):  # fmt: skip
        assert button.width() >= button.sizeHint().width(), button.text()
    assert bar.minimumSizeHint().width() <= 600


def test_the_profile_dialog_shows_the_whole_url(qtbot) -> None:
    dialog = ProfileDialog()
    qtbot.addWidget(dialog)
    dialog.base_url_edit.setText("https://api.openai.com/v1")
    dialog.show()
    edit = dialog.base_url_edit
    assert edit.width() >= edit.fontMetrics().horizontalAdvance(edit.text()) + 8


_SCALED = """
import json, os, sys
from pathlib import Path
sys.path.insert(0, {root!r})
from PySide6.QtWidgets import QApplication
app = QApplication([])
from tests.ui.test_shell_sizes import prepare
from studio.ui.main_window import MainWindow
store = prepare(Path({db!r}))
window = MainWindow(store)
window.resize(900, 600)
window.show()
hints = {{}}
for mode in [a.objectName().removeprefix("show_") for a in window.mode_bar.mode_actions]:
    window.show_mode(mode)
    for _ in range(5):
        app.processEvents()
    hints[mode] = window.minimumSizeHint().toTuple()
window.close()  # its closeEvent stops every mode's workers
print(json.dumps(hints))
"""


def test_at_200_percent_scale_every_mode_fits_900_by_600(tmp_path) -> None:
    env = {**os.environ, "QT_SCALE_FACTOR": "2", "QT_QPA_PLATFORM": "offscreen"}
    script = _SCALED.format(root=str(ROOT), db=str(tmp_path / "scaled.sqlite3"))
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=90
    )
    assert done.returncode == 0, done.stderr[-2000:]
    hints = json.loads(done.stdout.strip().splitlines()[-1])
    for mode, (width, height) in hints.items():
        assert width <= 900 and height <= 600, (mode, width, height)
