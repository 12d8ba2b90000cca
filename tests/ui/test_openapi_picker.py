"""The OpenAPI operation picker: tree by tag, search, select all/none, contract preview."""

from __future__ import annotations

from pathlib import Path

import pytest

from registry_db import RegistryStore
from registry_db.executors import ExecutorStore
from studio.formats import files
from studio.formats.openapi import ImportOptions, import_openapi, read_document
from studio.ui.dialogs.openapi_picker_dialog import OpenApiPickerDialog
from studio.ui.main_window import MainWindow
from tests.ui.registry_helpers import ScriptedPrompts, problems_shown, run_import

DATA = Path(__file__).parent.parent / "data" / "openapi"


def picker(qtbot, name: str) -> OpenApiPickerDialog:
    document = read_document(files.read_text(DATA / name, name), name)
    dialog = OpenApiPickerDialog(document, name)
    qtbot.addWidget(dialog)
    return dialog


def test_operations_grouped_by_tag_all_selected_at_first(qtbot) -> None:
    dialog = picker(qtbot, "tictactoe-3.1.yaml")
    assert dialog.tree.topLevelItemCount() == 1
    assert dialog.tree.topLevelItem(0).text(0) == "Gameplay"
    assert dialog.selected() == {("GET", "/board"), ("GET", "/board/{row}/{column}"),
                                 ("PUT", "/board/{row}/{column}")}  # fmt: skip
    assert dialog.count_label.text() == "3 of 3 operations selected"


def test_search_then_select_none_only_touches_what_is_shown(qtbot) -> None:
    dialog = picker(qtbot, "petstore-expanded-3.0.json")
    dialog.search_edit.setText("delete")
    dialog.none_button.click()
    assert dialog.selected() == {("GET", "/pets"), ("POST", "/pets"), ("GET", "/pets/{id}")}
    dialog.search_edit.setText("")
    dialog.none_button.click()
    assert dialog.selected() == frozenset()
    ok = dialog.buttons.buttons()[0]
    assert not ok.isEnabled()
    dialog.all_button.click()
    assert len(dialog.selected()) == 4


def test_the_preview_shows_the_contract_and_target_and_the_choice_imports(qtbot) -> None:
    dialog = picker(qtbot, "petstore-3.0.yaml")
    group = dialog.tree.topLevelItem(0)
    dialog.tree.setCurrentItem(group.child(2))
    text = dialog.preview.toPlainText()
    assert '"name": "show_pet_by_id"' in text
    assert '"url": "http://petstore.swagger.io/v1/pets/{petId}"' in text
    dialog.search_edit.setText("listPets")
    dialog.none_button.click()
    imported = import_openapi(dialog._document, "petstore-3.0.yaml", options=dialog.options())
    assert [t.name for t in imported.result.registry.tools] == ["create_pets", "show_pet_by_id"]


# ---------------------------------------------------------------- File → Import…


class PickingPrompts(ScriptedPrompts):
    """Answers the operation picker with a fixed choice (None: cancelled)."""

    def __init__(self, choice: frozenset[tuple[str, str]] | None) -> None:
        super().__init__()
        self.choice = choice

    def choose_openapi_operations(self, parent, document, source):
        self.asked.append(("openapi", source))
        return None if self.choice is None else ImportOptions(operations=self.choice)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    path = tmp_path / "studio.sqlite3"
    RegistryStore.open(path).close()
    return path


@pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
def test_file_import_of_an_openapi_document_picks_operations_and_stores_targets(
    qtbot, store
) -> None:
    prompts = PickingPrompts(frozenset({("GET", "/pets"), ("DELETE", "/pets/{id}")}))
    window = MainWindow(store, prompts)
    qtbot.addWidget(window)
    try:
        dialog = run_import(qtbot, window, DATA / "petstore-expanded-3.0.json", name="pets")
        assert problems_shown(dialog) == "" and prompts.errors == []
        assert prompts.asked == [("openapi", "petstore-expanded-3.0.json")]
        assert [t.tool.name for t in store.draft_tools("pets")] == ["find_pets", "delete_pet"]
        settings = ExecutorStore.for_store(store).settings("pets")
        assert settings.allowed_base_urls == ("https://petstore.swagger.io/v2",)
        assert settings.tools["delete_pet"].http["method"] == "DELETE"
        assert "(openapi)" in prompts.notes[0][0]
    finally:
        window.registry_ops.shutdown()


@pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
def test_cancelling_the_picker_imports_nothing(qtbot, store) -> None:
    prompts = PickingPrompts(None)
    window = MainWindow(store, prompts)
    qtbot.addWidget(window)
    try:
        run_import(qtbot, window, DATA / "petstore-3.0.yaml")
        assert store.list_registries() == []
    finally:
        window.registry_ops.shutdown()
