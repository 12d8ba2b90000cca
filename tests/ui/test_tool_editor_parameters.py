"""The Parameters tab and its ParameterTreeModel: cell edits become property edits."""

from __future__ import annotations

import dataclasses

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemDelegate

from studio.contract.model import ToolContract
from studio.editing import ITEMS, SetPropertyKey
from studio.ui.models.parameter_tree_model import COLUMN, ParameterTreeModel
from studio.ui.views.tool_editor import ToolEditorWidget
from tests.ui.test_tool_editor import QUERY_INVOICES, current, make_document

NESTED = dataclasses.replace(
    QUERY_INVOICES,
    parameters={
        **QUERY_INVOICES.parameters,
        "properties": {
            **QUERY_INVOICES.parameters["properties"],
            "lines": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"amount": {"type": "number"}, "note": {"type": "string"}},
                    "required": ["amount"],
                },
            },
        },
    },
)


@pytest.fixture
def editor(qtbot):
    widget = ToolEditorWidget()
    qtbot.addWidget(widget)
    document, key = make_document(NESTED)
    widget.set_tool(document, key)
    widget.show_tab("parameters")
    return widget, document, key


def cell(model: ParameterTreeModel, path: tuple[str, ...], column: str):
    return model.index_of(path).siblingAtColumn(COLUMN[column])


def props(tool: ToolContract) -> dict:
    return tool.parameters["properties"]


def test_model_passes_modeltester(qtmodeltester):
    edits = []
    model = ParameterTreeModel(edits.append)
    model.set_parameters(NESTED.parameters)
    qtmodeltester.check(model)
    model.set_parameters(QUERY_INVOICES.parameters)
    qtmodeltester.check(model)
    model.set_parameters({"type": "object", "properties": {}}, reset=True)
    qtmodeltester.check(model)


def test_model_shows_schema_columns():
    model = ParameterTreeModel(lambda edit: None)
    model.set_parameters(NESTED.parameters)
    assert model.rowCount() == 5
    assert cell(model, ("category",), "enum").data() == "taxi, hotel, train, flight"
    assert cell(model, ("category",), "x-enum-aliases").data() == "出租车=taxi"
    assert cell(model, ("employee_id",), "x-injected").data() == "session.employee_id"
    assert cell(model, ("start_date",), "format").data() == "date"
    required = cell(model, ("start_date",), "required").data(Qt.ItemDataRole.CheckStateRole)
    assert required == Qt.CheckState.Checked
    items = model.index_of(("lines", ITEMS))
    assert items.data() == ITEMS
    assert model.rowCount(items) == 2
    assert model.path(model.index(0, 0, items)) == ("lines", ITEMS, "amount")


def test_model_turns_cell_edits_into_commands():
    edits = []
    model = ParameterTreeModel(edits.append)
    model.set_parameters(NESTED.parameters)
    assert model.setData(cell(model, ("lines", ITEMS, "note"), "description"), "Free text")
    assert edits[-1] == SetPropertyKey(("lines", ITEMS, "note"), "description", "Free text")
    model.read_only = True
    assert not model.setData(cell(model, ("category",), "description"), "x")
    assert len(edits) == 1


def test_edit_cells_change_schema_and_undo(editor):
    widget, document, key = editor
    model = widget.parameters_tab.model
    model.setData(cell(model, ("category",), "description"), "Invoice category")
    assert props(current(document, key))["category"]["description"] == "Invoice category"
    model.setData(cell(model, ("category",), "x-enum-aliases"), "出租车=taxi, 的士=taxi")
    assert props(current(document, key))["category"]["x-enum-aliases"] == {
        "出租车": "taxi",
        "的士": "taxi",
    }
    model.setData(cell(model, ("category",), "enum"), "taxi, hotel, train, flight, bus")
    assert props(current(document, key))["category"]["enum"][-1] == "bus"
    model.setData(cell(model, ("end_date",), "x-aliases"), "endDate, 结束日期")
    assert props(current(document, key))["end_date"]["x-aliases"] == ["endDate", "结束日期"]
    model.setData(cell(model, ("lines", ITEMS, "amount"), "type"), "integer")
    lines = props(current(document, key))["lines"]
    assert lines["items"]["properties"]["amount"]["type"] == "integer"
    assert cell(model, ("lines", ITEMS, "amount"), "type").data() == "integer"
    model.setData(
        cell(model, ("end_date",), "required"),
        Qt.CheckState.Unchecked.value,
        Qt.ItemDataRole.CheckStateRole,
    )
    assert current(document, key).parameters["required"] == ["start_date"]
    for _ in range(6):
        document.undo_stack.undo()
    assert current(document, key) == NESTED
    assert cell(model, ("category",), "description").data() == ""


def test_rename_cell_and_duplicate_name_is_refused(editor):
    widget, document, key = editor
    model = widget.parameters_tab.model
    model.setData(cell(model, ("end_date",), "name"), "until")
    assert list(props(current(document, key)))[1] == "until"
    assert current(document, key).parameters["required"] == ["start_date", "until"]
    count = document.undo_stack.count()
    model.setData(cell(model, ("until",), "name"), "start_date")
    assert document.undo_stack.count() == count  # refused before reaching the stack
    assert "already exists" in widget.message_label.text()
    document.undo_stack.undo()
    assert cell(model, ("end_date",), "name").data() == "end_date"


def test_add_child_and_remove_parameters(editor):
    widget, document, key = editor
    tab = widget.parameters_tab
    tab.add_button.click()
    assert "param" in props(current(document, key))
    assert tab.selected_path() == ("param",)
    assert not tab.add_child_button.isEnabled()
    tab.view.setCurrentIndex(tab.model.index_of(("lines",)))
    assert tab.add_child_button.isEnabled()
    tab.add_child_button.click()
    items = props(current(document, key))["lines"]["items"]["properties"]
    assert list(items) == ["amount", "note", "param"]
    assert tab.selected_path() == ("lines", ITEMS, "param")
    tab.remove_button.click()
    assert "param" not in props(current(document, key))["lines"]["items"]["properties"]
    tab.view.setCurrentIndex(tab.model.index_of(("category",)))
    tab.remove_button.click()
    assert "category" not in props(current(document, key))
    document.undo_stack.undo()
    assert list(props(current(document, key)))[2] == "category"
    assert tab.model.index_of(("category",)).isValid()


def test_type_column_uses_a_combo(editor, qtbot):
    widget, document, key = editor
    view = widget.parameters_tab.view
    index = cell(widget.parameters_tab.model, ("start_date",), "type")
    view.setCurrentIndex(index)
    view.edit(index)
    combo = view.indexWidget(index)
    assert combo is not None and combo.currentText() == "string"
    combo.setCurrentText("integer")
    view.commitData(combo)
    view.closeEditor(combo, QAbstractItemDelegate.EndEditHint.NoHint)
    assert props(current(document, key))["start_date"]["type"] == "integer"
