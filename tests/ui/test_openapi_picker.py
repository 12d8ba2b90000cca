"""The OpenAPI operation picker: tree by tag, search, select all/none, contract preview."""

from __future__ import annotations

from pathlib import Path

from studio.formats import files
from studio.formats.openapi import import_openapi, read_document
from studio.ui.dialogs.openapi_picker_dialog import OpenApiPickerDialog

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
