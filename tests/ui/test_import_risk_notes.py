"""The import dialog's report lists each risk tier the import guessed (issue #11.4)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.contract import RiskTier
from studio.contract.risk import UNKNOWN_NOTE
from tests.ui.registry_helpers import WAIT_MS, run_import

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "studio.sqlite3"


def test_the_import_report_notes_every_risk_guess(qtbot, window, store, prompts, tmp_path) -> None:
    tools = [
        {"name": name, "description": "", "input_schema": {"type": "object", "properties": {}}}
        for name in ("create_ticket", "query_tickets", "frobnicate")
    ]
    src = tmp_path / "tickets.json"
    src.write_text(json.dumps(tools), encoding="utf-8")
    dialog = run_import(qtbot, window, src, fmt="anthropic")
    qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: bool(prompts.notes), timeout=WAIT_MS)
    _summary, notes = prompts.notes[0]
    risk = {n.path: n.message for n in notes if "risk tier" in n.message}
    assert risk == {
        "tools[0]": "risk tier 'write' guessed from the verb 'create' of the name",
        "tools[1]": "risk tier 'read' guessed from the verb 'query' of the name",
        "tools[2]": UNKNOWN_NOTE,
    }
    registry = store.draft_registry("tickets")
    assert [t.risk for t in registry.tools] == [RiskTier.WRITE, RiskTier.READ, RiskTier.WRITE]
