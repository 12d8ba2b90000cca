"""Validation of the registry dialogs: new registry, import, export, settings, notes."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.contract import DEFAULT_DESCRIPTION_TEMPLATE, DEFAULT_VERBS, ToolContract
from studio.formats import Note
from studio.ui.dialogs.export_dialog import (
    ExportContext,
    ExportDialog,
    ExportRequest,
    export_problem,
    suggested_file_name,
)
from studio.ui.dialogs.import_dialog import ImportDialog, ImportRequest, import_problem
from studio.ui.dialogs.new_registry_dialog import (
    NewRegistryDialog,
    NewRegistryRequest,
    registry_name_problem,
)
from studio.ui.dialogs.notes_dialog import NotesDialog, notes_heading
from studio.ui.dialogs.registry_settings_dialog import (
    RegistrySettingsDialog,
    RegistrySettingsRequest,
    parse_verbs,
)

# ---------------------------------------------------------------- new registry


@pytest.mark.parametrize("name", ["travel", "a", "order-service.v2", "x_1", "0day", "a" * 64])
def test_registry_name_accepted(name: str) -> None:
    assert registry_name_problem(name) is None


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("", "Enter a name"),
        ("a" * 65, "65 characters; at most 64"),
        ("Travel", "Not allowed in a name: 'T'"),
        ("my tools", "Not allowed in a name: space."),
        ("My Tools", "Not allowed in a name: space, 'M', 'T'."),
        ("-travel", "must start with a lowercase letter or a digit"),
        (".hidden", "must start with a lowercase letter or a digit"),
        ("travel", "'travel' already exists"),
    ],
)
def test_registry_name_refused_with_reason(name: str, reason: str) -> None:
    problem = registry_name_problem(name, existing={"travel"})
    assert problem is not None and reason in problem


def test_new_registry_dialog_shows_reason_inline(qtbot) -> None:
    dlg = NewRegistryDialog(["travel"])
    qtbot.addWidget(dlg)
    assert not dlg.ok_button.isEnabled()
    assert not dlg.name_problem.isVisibleTo(dlg)  # nothing typed yet: no red text
    dlg.name_edit.setText("travel")
    assert not dlg.ok_button.isEnabled()
    assert "already exists" in dlg.name_problem.text()
    assert dlg.name_problem.isVisibleTo(dlg)
    dlg.name_edit.setText("Bad Name")
    assert "Not allowed" in dlg.name_problem.text()
    dlg.name_edit.setText("orders")
    dlg.title_edit.setText(" Orders ")
    dlg.description_edit.setPlainText("Order tools\n")
    assert dlg.ok_button.isEnabled() and not dlg.name_problem.isVisibleTo(dlg)
    assert dlg.request() == NewRegistryRequest("orders", "Orders", "Order tools")


# ---------------------------------------------------------------- import


def test_import_problem_rules(tmp_path: Path) -> None:
    file = tmp_path / "tools.json"
    file.write_text("[]", "utf-8")
    folder = tmp_path / "reg"
    folder.mkdir()
    existing = {"travel"}
    assert "Choose a file" in import_problem("", "auto", "", False, existing)
    assert "no such file" in import_problem(
        str(tmp_path / "nope.json"), "auto", "", False, existing
    )
    assert "only the 'dir' format" in import_problem(str(folder), "openai", "", False, existing)
    assert import_problem(str(folder), "auto", "", False, existing) is None
    assert import_problem(str(folder), "dir", "", False, existing) is None
    assert "reads a registry folder" in import_problem(str(file), "dir", "", False, existing)
    assert "Not allowed" in import_problem(str(file), "auto", "My Tools", False, existing)
    assert "already exists" in import_problem(str(file), "auto", "travel", False, existing)
    assert import_problem(str(file), "auto", "travel", True, existing) is None
    assert import_problem(str(file), "openai", "", False, existing) is None


def test_import_dialog_builds_request(qtbot, tmp_path: Path) -> None:
    file = tmp_path / "weather.json"
    file.write_text("[]", "utf-8")
    dlg = ImportDialog(["travel"])
    qtbot.addWidget(dlg)
    assert not dlg.ok_button.isEnabled()
    assert [dlg.format_combo.itemData(i) for i in range(dlg.format_combo.count())][:2] == [
        "auto",
        "studio",
    ]
    dlg.path_edit.setText(str(file))
    assert dlg.ok_button.isEnabled()
    assert "'weather'" in dlg.name_edit.placeholderText()
    assert dlg.request() == ImportRequest(file, "auto", None, False)
    dlg.name_edit.setText("travel")
    assert not dlg.ok_button.isEnabled()
    assert "Replace its draft" in dlg.problem_label.text()
    dlg.replace_check.setChecked(True)
    dlg.set_format("openai")
    assert dlg.ok_button.isEnabled() and not dlg.problem_label.isVisibleTo(dlg)
    assert dlg.request() == ImportRequest(file, "openai", "travel", True)


# ---------------------------------------------------------------- export


def test_export_problem_rules(tmp_path: Path) -> None:
    file = tmp_path / "x.json"
    file.write_text("{}", "utf-8")
    assert "Choose where" in export_problem(" ", "openai")
    assert "is a folder" in export_problem(str(tmp_path), "openai")
    assert "is a file" in export_problem(str(file), "dir")
    assert export_problem(str(file), "openai") is None
    assert export_problem(str(tmp_path / "new-folder"), "dir") is None
    assert suggested_file_name("travel", "openai") == "travel.openai.json"
    assert suggested_file_name("travel", "studio") == "travel.json"
    assert suggested_file_name("travel", "dir") == "travel"


def test_export_dialog_sources_and_unsaved_note(qtbot, tmp_path: Path) -> None:
    dlg = ExportDialog(ExportContext("travel", [1, 2], None, draft_dirty=True))
    qtbot.addWidget(dlg)
    sources = [dlg.source_combo.itemData(i) for i in range(dlg.source_combo.count())]
    assert sources == [None, 2, 1]
    assert "unsaved changes are included" in dlg.source_note.text()
    assert not dlg.ok_button.isEnabled()
    dlg.destination_edit.setText(str(tmp_path))
    assert not dlg.ok_button.isEnabled() and "is a folder" in dlg.problem_label.text()
    dlg.set_format("dir")
    assert dlg.ok_button.isEnabled()
    dlg.set_source(2)
    assert "version 2" in dlg.source_note.text()
    assert dlg.request() == ExportRequest(2, "dir", tmp_path)


def test_export_dialog_preselects_shown_version_and_warns_on_overwrite(qtbot, tmp_path):
    existing = tmp_path / "out.json"
    existing.write_text("{}", "utf-8")
    dlg = ExportDialog(ExportContext("travel", [1], source=1))
    qtbot.addWidget(dlg)
    assert dlg.source_combo.currentData() == 1
    assert dlg.format_combo.currentData() == "openai"
    dlg.destination_edit.setText(str(existing))
    assert dlg.ok_button.isEnabled()
    assert "will be overwritten" in dlg.problem_label.text()


# ---------------------------------------------------------------- settings


def test_parse_verbs() -> None:
    assert parse_verbs("get, List ,get,,create") == (("get", "list", "create"), [])
    verbs, problems = parse_verbs("get, look up")
    assert verbs == ("get",) and "'look up' is not a verb" in problems[0]
    assert parse_verbs(" , ")[1] == ["Enter at least one verb, e.g. get, list, create."]
    assert "not a verb" in parse_verbs("get_item")[1][0]


def _settings_dialog(qtbot, sample: ToolContract | None) -> RegistrySettingsDialog:
    current = RegistrySettingsRequest("T", "D", DEFAULT_VERBS, DEFAULT_DESCRIPTION_TEMPLATE)
    dlg = RegistrySettingsDialog("travel", current, sample)
    qtbot.addWidget(dlg)
    return dlg


def test_settings_dialog_validation(qtbot) -> None:
    dlg = _settings_dialog(qtbot, ToolContract("get_trip", summary="One trip."))
    assert dlg.save_button.isEnabled() and dlg.problems() == []
    dlg.verbs_edit.setText("get, look up")
    assert not dlg.save_button.isEnabled() and dlg.verbs_problem.isVisibleTo(dlg)
    dlg.verbs_edit.setText("get, fetch")
    dlg.template_edit.setPlainText("{name}\n\n{bogus}")
    assert not dlg.save_button.isEnabled()
    assert "unknown placeholder {bogus}" in dlg.template_problem.text()
    # A broken template previews with the default one, and says so.
    assert dlg.preview_note.isVisibleTo(dlg) and "default template" in dlg.preview_note.text()
    assert dlg.preview_text() == "One trip."
    dlg.reset_button.click()
    assert dlg.template_edit.toPlainText() == DEFAULT_DESCRIPTION_TEMPLATE
    assert dlg.save_button.isEnabled()
    request = dlg.request()
    assert request.verbs == ("get", "fetch") and request.title == "T"


def test_settings_dialog_without_a_selected_tool(qtbot) -> None:
    dlg = _settings_dialog(qtbot, None)
    assert dlg.preview_text() == ""
    assert "Select a tool" in dlg.preview_note.text()


# ---------------------------------------------------------------- notes


def test_notes_dialog_lists_notes(qtbot) -> None:
    notes = [
        Note("tools[0].parameters", "x-aliases dropped", "lost"),
        Note("", "risk guessed from the name", "guessed"),
    ]
    assert notes_heading(notes) == "Check these notes: 1 lost, 1 guessed."
    assert notes_heading([]) == "Nothing was guessed or lost."
    dlg = NotesDialog("Export finished", "Exported.", notes)
    qtbot.addWidget(dlg)
    assert dlg.note_rows() == [
        ("Lost", "tools[0].parameters", "x-aliases dropped"),
        ("Guessed", "—", "risk guessed from the name"),
    ]
