"""Registry-level commands of the main window on a real SQLite file.

New registry, registry settings and delete, with the questions answered by
scripted prompts (no real modal dialogs); import and export through their real
dialogs, which run the work in the worker (more in test_registry_jobs.py).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from registry_db import RegistryStore, UpsertTool
from studio.contract import RegistrySettings, ToolContract, render_description
from studio.editing import EditTool, SetField
from studio.formats import export_registry
from studio.ui.dialogs.export_dialog import ExportContext, ExportDialog
from studio.ui.dialogs.import_dialog import ImportDialog
from studio.ui.dialogs.new_registry_dialog import NewRegistryRequest
from studio.ui.dialogs.registry_settings_dialog import (
    RegistrySettingsDialog,
    RegistrySettingsRequest,
)
from studio.ui.main_window import MainWindow
from tests.ui.registry_helpers import problems_shown, run_export, run_import

# Import and export open real dialogs; the offscreen platform warns about their size hints.
pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")

LINT_EXTRA = {"lint": {"profile": "anthropic", "disabled": ["naming.verb"]}}

OPENAI_TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Current weather for a city.",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string"}},
                "required": ["city"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "list_cities",
            "description": "Cities with a forecast.",
            "parameters": {"type": "object", "properties": {}},
        },
    },
]


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    path = tmp_path / "studio.sqlite3"
    with RegistryStore.open(path) as store:
        store.create_registry(
            "travel",
            title="Travel reimbursement",
            settings=RegistrySettings(extra=LINT_EXTRA),
        )
        store.save_draft(
            "travel",
            [
                UpsertTool(
                    ToolContract(
                        "search_policy", summary="Search the policy.", usage="Before a claim."
                    )
                ),
                UpsertTool(ToolContract("query_invoices", summary="Find invoices.")),
            ],
        )
    return path


@pytest.fixture
def openai_file(tmp_path: Path) -> Path:
    path = tmp_path / "weather.json"
    path.write_text(json.dumps(OPENAI_TOOLS), "utf-8")
    return path


def _tool_names(w: MainWindow) -> list[str]:
    doc = w.current_document()
    assert doc is not None
    return [e.tool.name for e in doc.workspace.entries]


# ---------------------------------------------------------------- new registry


def test_new_registry_appears_and_opens(window: MainWindow, prompts, store) -> None:
    prompts.new_request = NewRegistryRequest("orders", "Orders", "Order tools")
    window.actions.new_registry.trigger()
    assert prompts.asked[0] == ("new_registry", ["travel"])
    assert window.current_document().name == "orders"
    assert [r.name for r in window.registry_model.registries()] == ["orders", "travel"]
    info = store.get_registry("orders")
    assert (info.title, info.description, info.tool_count) == ("Orders", "Order tools", 0)
    assert window.registry_combo.currentIndex() == 0


def test_new_registry_cancelled_creates_nothing(window: MainWindow, prompts, store) -> None:
    window.actions.new_registry.trigger()
    assert [r.name for r in store.list_registries()] == ["travel"]


# ---------------------------------------------------------------- import


def test_import_action_opens_the_dialog_without_blocking(window, store) -> None:
    window.actions.import_tools.trigger()
    dialog = window.registry_ops.dialog
    assert isinstance(dialog, ImportDialog) and dialog.isVisible()
    assert dialog._existing == {"travel"}
    dialog.reject()
    assert not dialog.isVisible()


def test_import_openai_file_creates_registry(qtbot, window, prompts, store, openai_file) -> None:
    dialog = run_import(qtbot, window, openai_file)
    assert not dialog.isVisible() and problems_shown(dialog) == ""
    assert prompts.errors == []
    assert window.current_document().name == "weather"
    assert _tool_names(window) == ["get_weather", "list_cities"]
    assert [t.tool.name for t in store.draft_tools("weather")] == ["get_weather", "list_cities"]
    summary, _notes = prompts.notes[0]
    assert "Imported weather: 2 tools from weather.json (openai)" in summary
    assert window.statusBar().currentMessage() == summary


def test_import_under_a_chosen_name_with_explicit_format(qtbot, window, store, openai_file):
    run_import(qtbot, window, openai_file, "openai", "forecast")
    assert window.current_document().name == "forecast"
    assert store.get_registry("forecast").tool_count == 2


def test_import_into_existing_registry_without_replace_is_refused(
    qtbot, window, prompts, store, tmp_path
) -> None:
    # The name comes from the file ("travel.json"), so only the worker's result tells.
    named_travel = tmp_path / "travel.json"
    named_travel.write_text(json.dumps(OPENAI_TOOLS), "utf-8")
    dialog = run_import(qtbot, window, named_travel)
    assert dialog.isVisible()
    message = problems_shown(dialog)
    assert "'travel' already exists" in message and "Replace its draft" in message
    assert [t.tool.name for t in store.draft_tools("travel")] == ["search_policy", "query_invoices"]
    assert prompts.notes == [] and prompts.errors == []
    # The input is kept: tick the box and import again.
    dialog.replace_check.setChecked(True)
    assert problems_shown(dialog) == ""
    dialog.ok_button.click()
    qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=10_000)
    assert [t.tool.name for t in store.draft_tools("travel")] == ["get_weather", "list_cities"]


def test_import_with_replace_replaces_draft_and_reloads_open_document(
    qtbot, window, prompts, store, openai_file
) -> None:
    doc = window.current_document()
    key = window.selected_key()
    doc.push(EditTool(key, SetField("summary", "unsaved edit")))
    assert doc.is_dirty
    run_import(qtbot, window, openai_file, name="travel", replace=True)
    assert ("replace_unsaved", "travel") in prompts.asked
    assert prompts.errors == []
    assert [t.tool.name for t in store.draft_tools("travel")] == ["get_weather", "list_cities"]
    reloaded = window.current_document()
    assert reloaded is not doc and reloaded.name == "travel" and not reloaded.is_dirty
    assert _tool_names(window) == ["get_weather", "list_cities"]
    assert "Replaced the draft of travel" in prompts.notes[0][0]


def test_import_replace_declined_keeps_unsaved_changes(qtbot, window, prompts, store, openai_file):
    doc = window.current_document()
    doc.push(EditTool(window.selected_key(), SetField("summary", "unsaved edit")))
    prompts.replace_unsaved = False
    dialog = run_import(qtbot, window, openai_file, name="travel", replace=True)
    assert window.current_document() is doc and doc.is_dirty
    assert [t.tool.name for t in store.draft_tools("travel")] == ["search_policy", "query_invoices"]
    assert dialog.isVisible()
    assert "unsaved changes of travel are kept" in dialog.job_panel.status.text()


def test_malformed_file_shows_line_and_column_and_imports_nothing(
    qtbot, window, prompts, store, tmp_path
) -> None:
    bad = tmp_path / "broken.json"
    bad.write_text('[\n  {"type": "function",\n   "function": {"name": "x"}\n  ,,]\n', "utf-8")
    dialog = run_import(qtbot, window, bad)
    assert dialog.isVisible() and prompts.errors == []
    message = problems_shown(dialog)
    assert "broken.json was not imported; nothing was changed" in message
    assert "line 4 column" in message
    assert "Traceback" not in message
    assert [r.name for r in store.list_registries()] == ["travel"]
    # Fixing the input hides the old message.
    dialog.set_format("openai")
    assert problems_shown(dialog) == ""


def test_invalid_tools_list_every_problem_with_its_path(qtbot, window, prompts, store, tmp_path):
    bad = tmp_path / "bad_tools.json"
    bad.write_text(
        json.dumps([{"type": "function", "function": {"name": "ok_tool", "parameters": 5}}]),
        "utf-8",
    )
    dialog = run_import(qtbot, window, bad, "openai")
    message = problems_shown(dialog)
    assert "bad_tools.json was not imported" in message
    assert "parameters" in message
    assert prompts.errors == []
    assert [r.name for r in store.list_registries()] == ["travel"]


def test_undetectable_format_names_the_file(qtbot, window, prompts, store, tmp_path):
    odd = tmp_path / "odd.json"
    odd.write_text(json.dumps({"hello": "world"}), "utf-8")
    message = problems_shown(run_import(qtbot, window, odd))
    assert "odd.json" in message and "nothing was changed" in message
    assert [r.name for r in store.list_registries()] == ["travel"]


# ---------------------------------------------------------------- export


def test_export_action_offers_the_shown_source(window, store) -> None:
    store.publish("travel", notes="v1")
    window.open_version(1)
    window.actions.export_registry.trigger()
    dialog = window.registry_ops.dialog
    assert isinstance(dialog, ExportDialog) and dialog.isVisible()
    assert dialog._context == ExportContext("travel", [1], 1, False)
    assert dialog.source_combo.currentData() == 1


def test_export_draft_to_openai_writes_what_the_cli_writes(qtbot, window, prompts, store, tmp_path):
    out = tmp_path / "out" / "travel.openai.json"
    dialog = run_export(qtbot, window, None, "openai", out)
    assert not dialog.isVisible() and prompts.errors == []
    expected = export_registry(store.draft_registry("travel"), "openai")
    assert out.read_text("utf-8") == expected.text
    assert "Exported the draft of travel as openai" in prompts.notes[0][0]


def test_export_draft_to_dir_writes_what_the_cli_writes(qtbot, window, prompts, store, tmp_path):
    out = tmp_path / "travel-dir"
    run_export(qtbot, window, None, "dir", out)
    assert prompts.errors == []
    expected = export_registry(store.draft_registry("travel"), "dir")
    assert expected.files
    written = {
        p.relative_to(out).as_posix(): p.read_text("utf-8") for p in out.rglob("*") if p.is_file()
    }
    assert written == expected.files


def test_export_includes_unsaved_changes(qtbot, window, prompts, store, tmp_path):
    doc = window.current_document()
    doc.push(EditTool(window.selected_key(), SetField("summary", "Edited, not saved.")))
    out = tmp_path / "travel.json"
    window.actions.export_registry.trigger()
    assert window.registry_ops.dialog._context.draft_dirty is True
    window.registry_ops.dialog.reject()
    run_export(qtbot, window, None, "openai", out)
    assert out.read_text("utf-8") == export_registry(doc.workspace.registry(), "openai").text
    assert "Edited, not saved." in out.read_text("utf-8")


def test_export_of_a_shown_version_exports_that_version(qtbot, window, prompts, store, tmp_path):
    store.publish("travel", notes="v1")
    store.save_draft("travel", [UpsertTool(ToolContract("list_trips", summary="Trips."))])
    window.open_version(1)
    out = tmp_path / "v1.json"
    run_export(qtbot, window, 1, "anthropic", out)
    expected = export_registry(store.load_version("travel", 1).registry, "anthropic")
    assert out.read_text("utf-8") == expected.text
    assert "list_trips" not in out.read_text("utf-8")


def test_export_of_a_version_not_shown_reads_it_from_the_store(qtbot, window, store, tmp_path):
    store.publish("travel", notes="v1")
    window.refresh_registries()
    out = tmp_path / "v1.json"
    run_export(qtbot, window, 1, "openai", out)
    expected = export_registry(store.load_version("travel", 1).registry, "openai")
    assert out.read_text("utf-8") == expected.text


def test_export_to_a_folder_with_a_file_format_is_refused(qtbot, window, prompts, tmp_path):
    dialog = run_export(qtbot, window, None, "openai", tmp_path)
    assert not dialog.ok_button.isEnabled()
    assert "is a folder" in dialog.problem_label.text()


def test_export_refused_by_the_writer_is_shown_in_the_dialog(qtbot, window, prompts, tmp_path):
    foreign = tmp_path / "not-a-registry"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("mine", "utf-8")
    dialog = run_export(qtbot, window, None, "dir", foreign)
    assert dialog.isVisible() and prompts.errors == [] and prompts.notes == []
    message = problems_shown(dialog)
    assert message.startswith("Not exported: ") and "not a registry folder" in message
    assert str(foreign) in message
    assert (foreign / "notes.txt").read_text("utf-8") == "mine"


# ---------------------------------------------------------------- settings


def _new_template(current: RegistrySettingsRequest, sample) -> RegistrySettingsRequest:
    return RegistrySettingsRequest(
        "Travel (edited)", "Claims and policy", ("search", "query", "file"), "{name} :: {summary}"
    )


def test_settings_dialog_live_preview_follows_template(qtbot, window) -> None:
    sample = window.selected_tool()
    doc = window.current_document()
    current = RegistrySettingsRequest(
        "Travel", "", doc.workspace.settings.verbs, doc.workspace.settings.description_template
    )
    dlg = RegistrySettingsDialog("travel", current, sample, window)
    qtbot.addWidget(dlg)
    assert dlg.preview_text() == render_description(sample, current.description_template)
    dlg.template_edit.setPlainText("TOOL {name}: {summary}")
    assert dlg.preview_text() == "TOOL search_policy: Search the policy."
    dlg.template_edit.setPlainText("{nope}")
    assert dlg.template_problem.isVisibleTo(dlg)
    assert "unknown placeholder {nope}" in dlg.template_problem.text()
    assert not dlg.save_button.isEnabled()
    dlg.template_edit.setPlainText("{summary")
    assert "malformed" in dlg.template_problem.text()


def test_settings_save_updates_store_workspace_and_preview(
    qtbot, window, prompts, store, db_path
) -> None:
    prompts.settings_answer = _new_template
    window.actions.registry_settings.trigger()
    assert prompts.errors == []
    current, sample = prompts.asked[0][1]
    assert current.title == "Travel reimbursement" and sample.name == "search_policy"
    info = store.get_registry("travel")
    assert info.settings.description_template == "{name} :: {summary}"
    assert info.settings.verbs == ("search", "query", "file")
    assert info.settings.extra == LINT_EXTRA
    assert (info.title, info.description) == ("Travel (edited)", "Claims and policy")
    ws = window.current_document().workspace
    assert ws.settings == info.settings and ws.title == "Travel (edited)"
    assert window.preview._settings.description_template == "{name} :: {summary}"
    # The draft still saves after the registry revision moved.
    window.current_document().push(EditTool(window.selected_key(), SetField("summary", "New.")))
    assert window.save_current()
    with RegistryStore.open(db_path) as again:
        stored = again.get_registry("travel")
        assert stored.settings.description_template == "{name} :: {summary}"
        assert stored.settings.extra == LINT_EXTRA
        assert stored.title == "Travel (edited)"


def test_settings_conflict_is_explained_and_overwrites_nothing(window, prompts, store, db_path):
    def edited_elsewhere(current, sample):
        with RegistryStore.open(db_path) as other:
            info = other.get_registry("travel")
            other.update_registry_meta(
                "travel",
                base_revision=info.draft_revision,
                title="Other",
                description="",
                settings=info.settings,
            )
        return _new_template(current, sample)

    prompts.settings_answer = edited_elsewhere
    window.actions.registry_settings.trigger()
    assert len(prompts.errors) == 1 and "changed elsewhere" in prompts.errors[0]
    assert store.get_registry("travel").title == "Other"
    assert window.current_document().workspace.title == "Travel reimbursement"


def test_settings_disabled_for_read_only_version(window, store) -> None:
    store.publish("travel")
    window.open_version(1)
    assert not window.actions.registry_settings.isEnabled()
    assert window.actions.export_registry.isEnabled()


# ---------------------------------------------------------------- delete


def test_delete_registry_refused_with_versions(window, prompts, store) -> None:
    store.publish("travel", notes="v1")
    window.actions.delete_registry.trigger()
    assert len(prompts.errors) == 1
    assert "travel has 1 published version" in prompts.errors[0]
    assert "cannot be deleted" in prompts.errors[0]
    assert not any(kind == "delete" for kind, _ in prompts.asked)
    assert [r.name for r in store.list_registries()] == ["travel"]


def test_delete_registry_after_confirmation_opens_the_next(window, prompts, store) -> None:
    store.create_registry("orders")
    window.refresh_registries()
    window.actions.delete_registry.trigger()
    assert ("delete", ("travel", 2, False)) in prompts.asked
    assert [r.name for r in store.list_registries()] == ["orders"]
    assert window.current_document().name == "orders"
    assert "travel" not in window.documents


def test_delete_last_registry_leaves_an_empty_window(window, prompts, store) -> None:
    window.actions.delete_registry.trigger()
    assert store.list_registries() == []
    assert window.current_document() is None
    assert window.status_label.text() == "No registry open"
    assert not window.actions.export_registry.isEnabled()


def test_delete_declined_keeps_registry(window, prompts, store) -> None:
    prompts.confirm_delete = False
    window.actions.delete_registry.trigger()
    assert [r.name for r in store.list_registries()] == ["travel"]
    assert window.current_document().name == "travel"
