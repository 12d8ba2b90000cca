"""Issue #16, GUI start: what the main window must not build or import before it paints.

The window is built in a fresh interpreter (this test process has imported
everything already), offscreen, on a real SQLite registry, and sys.modules is
read before the first event-loop turn. Other modes (Playground, Sessions, Diff,
Release, Evals) are built when first shown, and so are their modules.

``studio.lint`` itself is imported (the editor's field markers and the
Problems dock need its types) but its rules are registered on first lint: no
rule module that pulls in ``markdown_it`` or the phrase tables is imported
before the first paint, nor ``jsonschema``, and the rule registry is still
unloaded. (``cost`` is imported: the scores widget reads its per-tool overhead
constant.)
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
    "markdown_it",
    "jsonschema",
    "studio.lint.rules.naming",
    "studio.lint.rules.description",
    "studio.lint.rules.schema",
    "studio.lint.rules.consistency",
    "studio.lint.rules.security",
    "studio.lint.rules.ambiguity",
    "studio.lint.rules.skills",
    "studio.lint.rules.provider",
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
from studio.lint.model import RULES
before["rules_loaded"] = RULES.loaded
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
    assert not before["rules_loaded"], "lint rules registered before the first paint"
    assert before["tools"] > 0  # the registry did open: the start is not empty by accident
    # Shown: built then, and only that one.
    assert after["sessions_built"] and after["sessions_imported"]
    assert after["others_built"] == []


LINT_IMPORT = r"""
import json, sys
import studio.lint
light = sorted(m for m in sys.modules
               if m.startswith(("jsonschema", "markdown_it", "studio.lint.rules.")))
loaded_on_import = studio.lint.RULES.loaded
from studio.lint import Linter, lint_registry, rule_info  # the heavy names still import
from studio.lint.rules import RULE_MODULES
count = len(studio.lint.RULES)
print(json.dumps({"light": light, "loaded_on_import": loaded_on_import, "count": count,
                  "modules": [m for m in RULE_MODULES
                              if f"studio.lint.rules.{m}" not in sys.modules],
                  "rule_info": rule_info("name-unique") is not None}))
"""


def test_importing_the_linter_registers_no_rule_until_the_registry_is_read() -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", LINT_IMPORT], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=120, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["light"] == [], f"imported with studio.lint: {result['light']}"
    assert not result["loaded_on_import"]
    # The first read of the registry imported every rule module.
    assert result["count"] > 50 and result["modules"] == [] and result["rule_info"]
