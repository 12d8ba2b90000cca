"""Issue #16, GUI start: what the main window must not build or import before it paints.

The window is built in a fresh interpreter (this test process has imported
everything already), offscreen, on a real SQLite registry, and sys.modules is
read before the first event-loop turn. Other modes (Playground, Sessions, Diff,
Release, Evals) are built when first shown, and so are their modules.

Not in the list yet: ``studio.lint`` (and ``jsonschema`` through its rules).
Importing the package registers every rule, and the editor's field markers and
the Problems dock import it; it needs the rules registered on first lint instead.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from registry_db import RegistryStore, load_examples

ROOT = Path(__file__).resolve().parents[2]

# Heavy or not visible at start: imported when a mode, a run or a request needs them.
NOT_BEFORE_FIRST_PAINT = (
    "httpx",
    "numpy",
    "mcp",
    "tiktoken",
    "tokenizers",
    "psutil",
    "studio.runtime",
    "studio.evals.runner",
    "studio.ui.playground.view",
    "studio.ui.sessions.browser",
    "studio.ui.diff.diff_view",
    "studio.ui.release",
    "studio.ui.evals.evals_view",
    "studio.ui.dialogs.publish_dialog",
)
MODES = ("playground", "sessions_view", "diff_view", "release_view", "evals_view")

SCRIPT = r"""
import json, sys
from PySide6.QtWidgets import QApplication
from registry_db import RegistryStore
from studio.ui.main_window import MainWindow

app = QApplication([])
store = RegistryStore.open(sys.argv[1])
window = MainWindow(store)
window.show()
names, modes = json.loads(sys.argv[2]), json.loads(sys.argv[3])
before = {"imported": [n for n in names if n in sys.modules],
          "built": [m for m in modes if getattr(window, m) is not None],
          "tools": window.current_model().rowCount() if window.current_model() else 0}
app.processEvents()
window.show_mode("sessions")
app.processEvents()
after = {"sessions_built": window.sessions_view is not None,
         "others_built": [m for m in modes if m != "sessions_view" and getattr(window, m)],
         "sessions_imported": "studio.ui.sessions.browser" in sys.modules}
print(json.dumps({"before": before, "after": after}))
store.close()
"""


def _start(db: Path) -> dict:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(db), json.dumps(NOT_BEFORE_FIRST_PAINT),
         json.dumps(MODES)],
        capture_output=True, text=True, env=env, cwd=ROOT, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_window_paints_before_other_modes_and_heavy_modules(tmp_path: Path) -> None:
    db = tmp_path / "studio.sqlite3"
    with RegistryStore.open(db) as store:
        for registry in load_examples():
            store.import_registry(registry)
    result = _start(db)
    before, after = result["before"], result["after"]
    assert before["imported"] == [], f"imported before the first paint: {before['imported']}"
    assert before["built"] == [], f"modes built before they were shown: {before['built']}"
    assert before["tools"] > 0  # the registry did open: the start is not empty by accident
    # Shown: built then, and only that one.
    assert after["sessions_built"] and after["sessions_imported"]
    assert after["others_built"] == []
