"""The GUI started on a file that is not a usable database shows one dialog and exits."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.registry_db.test_open_errors import CASES


@pytest.mark.parametrize("case", sorted(CASES))
def test_run_gui_shows_a_dialog_for_a_bad_database(qapp, tmp_path: Path, monkeypatch, case):
    from studio.ui import app as app_module

    make, reason = CASES[case]
    path = make(tmp_path)
    shown: list[tuple[str, str]] = []
    monkeypatch.setattr(
        app_module.QMessageBox, "critical", lambda _p, title, text: shown.append((title, text))
    )
    monkeypatch.setattr(app_module, "install_excepthook", lambda *_a: None)
    monkeypatch.setattr(app_module, "_configure_logging", lambda: None)
    assert app_module.run_gui(path) == 1
    ((title, text),) = shown
    assert title == "Cannot open the database"
    assert str(path) in text and reason in text
    assert "Traceback" not in text and "cannot open the database" not in text, "said once"
