"""The tool editor: Overview, Contract and JSON tabs push undoable edits and follow the model."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt

from studio.contract.model import Permission, RiskTier, ToolContract
from studio.editing import DraftEntry, DraftWorkspace
from studio.ui.document import RegistryDocument
from studio.ui.views.tool_editor import ToolEditorWidget
from studio.ui.widgets.json_tab import KEPT_NOTE, tool_json

QUERY_INVOICES = ToolContract(
    name="query_invoices",
    title="Query invoices",
    summary="List the employee's invoices in a date range.",
    usage="Use to find invoices before filing a claim; use query_tickets for claim status.",
    returns="Invoices with id, amount and category.",
    parameters={
        "type": "object",
        "properties": {
            "start_date": {"type": "string", "format": "date", "description": "First day"},
            "end_date": {"type": "string", "format": "date", "description": "Last day"},
            "category": {
                "type": "string",
                "enum": ["taxi", "hotel", "train", "flight"],
                "x-enum-aliases": {"出租车": "taxi"},
            },
            "employee_id": {"type": "string", "x-injected": "session.employee_id"},
        },
        "required": ["start_date", "end_date"],
    },
    permissions=(Permission("employee", "*"),),
    tags=("travel", "invoices"),
)


def make_document(tool: ToolContract = QUERY_INVOICES, *, read_only: bool = False):
    """A document over a one-tool travel workspace, and that tool's key."""
    entry = DraftEntry(tool=tool)
    workspace = DraftWorkspace(
        "travel", entries=[entry], read_only_version=3 if read_only else None
    )
    return RegistryDocument(None, workspace), entry.key  # type: ignore[arg-type]


@pytest.fixture
def editor(qtbot):
    widget = ToolEditorWidget()
    qtbot.addWidget(widget)
    document, key = make_document()
    widget.set_tool(document, key)
    return widget, document, key


def current(document: RegistryDocument, key: int) -> ToolContract:
    return document.workspace.entry(key).tool


def test_empty_state_and_tab_switching(qtbot):
    widget = ToolEditorWidget()
    qtbot.addWidget(widget)
    widget.set_tool(None, None)
    assert widget.stack.currentWidget() is widget.empty_label
    assert widget.empty_label.text() == "No tool selected"
    for name in ("parameters", "contract", "json", "overview"):
        widget.show_tab(name)
        assert widget.current_tab() == name


def test_typing_summary_pushes_one_merged_command_and_undoes(editor, qtbot):
    widget, document, key = editor
    summary = widget.overview_tab.summary_edit
    assert summary.text() == QUERY_INVOICES.summary
    summary.clear()  # clear() is not a user edit: nothing is pushed
    assert document.undo_stack.count() == 0
    qtbot.keyClicks(summary, "Lists invoices")
    assert current(document, key).summary == "Lists invoices"
    assert document.undo_stack.count() == 1  # the burst of keystrokes merged
    assert summary.text() == "Lists invoices"
    assert summary.cursorPosition() == len("Lists invoices")
    document.undo_stack.undo()
    assert current(document, key).summary == QUERY_INVOICES.summary
    assert summary.text() == QUERY_INVOICES.summary
    document.undo_stack.redo()
    assert summary.text() == "Lists invoices"


def test_plain_text_block_edit_keeps_cursor(editor, qtbot):
    widget, document, key = editor
    usage = widget.overview_tab.block_edits["usage"]
    usage.moveCursor(usage.textCursor().MoveOperation.End)
    qtbot.keyClicks(usage, " Not for tickets.")
    assert current(document, key).usage.endswith("Not for tickets.")
    assert usage.textCursor().position() == len(current(document, key).usage)


def test_invalid_name_shows_hint_but_is_pushed(editor, qtbot):
    widget, document, key = editor
    name = widget.overview_tab.name_edit
    name.clear()
    qtbot.keyClicks(name, "query invoices")
    assert current(document, key).name == "query invoices"
    assert widget.overview_tab.name_hint.isVisibleTo(widget)
    document.undo_stack.undo()
    assert name.text() == "query_invoices"
    assert not widget.overview_tab.name_hint.isVisibleTo(widget)


def test_errors_table_add_and_edit(editor):
    widget, document, key = editor
    errors = widget.overview_tab.errors_table
    errors.add_button.click()
    errors.table.item(0, 0).setText("INVALID_RANGE")
    errors.table.item(0, 2).setCheckState(Qt.CheckState.Checked)
    (spec,) = current(document, key).errors
    assert (spec.code, spec.retryable) == ("INVALID_RANGE", True)
    errors.table.selectRow(0)
    errors.remove_button.click()
    assert current(document, key).errors == ()


def test_example_with_invalid_json_is_not_pushed(editor):
    widget, document, key = editor
    examples = widget.overview_tab.examples_table
    examples.add_button.click()
    assert len(current(document, key).examples) == 1
    count = document.undo_stack.count()
    examples.table.item(0, 1).setText('{"category": taxi}')
    assert "line 1, column 14" in examples.error_label.text()
    assert document.undo_stack.count() == count
    assert examples.table.item(0, 1).text() == '{"category": taxi}'
    examples.table.item(0, 1).setText('{"category": "taxi"}')
    assert examples.error_label.isHidden()
    assert current(document, key).examples[0].arguments == {"category": "taxi"}


def test_contract_tab_changes_risk_and_idempotency(editor):
    widget, document, key = editor
    contract = widget.contract_tab
    widget.show_tab("contract")
    contract.risk_combo.setCurrentIndex(contract.risk_combo.findData(RiskTier.WRITE))
    contract.risk_combo.activated.emit(contract.risk_combo.currentIndex())
    assert current(document, key).risk is RiskTier.WRITE
    contract.idempotency_check.setChecked(True)
    assert current(document, key).execution.idempotency.required is True
    contract.attempts_spin.setValue(1)
    assert current(document, key).execution.retry.max_attempts == 1
    document.undo_stack.undo()
    document.undo_stack.undo()
    assert not contract.idempotency_check.isChecked()
    assert current(document, key).execution == QUERY_INVOICES.execution
    document.undo_stack.undo()
    assert contract.risk_combo.currentData() == RiskTier.READ


def test_contract_tags_keep_trailing_comma_while_typing(editor, qtbot):
    widget, document, key = editor
    tags = widget.contract_tab.tags_edit
    tags.end(False)
    qtbot.keyClicks(tags, ", finance,")
    assert current(document, key).tags == ("travel", "invoices", "finance")
    assert tags.text() == "travel, invoices, finance,"


def test_json_invalid_text_is_kept_and_located(editor):
    widget, document, key = editor
    json_tab = widget.json_tab
    bad = tool_json(QUERY_INVOICES).replace('"title": "Query invoices",', '"title": ,', 1)
    json_tab.editor.setPlainText(bad)
    json_tab.apply_text()
    assert "line 3, column" in json_tab.error_label.text()
    assert json_tab.editor.toPlainText() == bad
    assert current(document, key) == QUERY_INVOICES
    assert document.undo_stack.count() == 0
    # Another tab changes the tool: the invalid text stays, with a note.
    widget.overview_tab.summary_edit.setText("x")
    widget.overview_tab.summary_edit.textEdited.emit("x")
    assert json_tab.editor.toPlainText() == bad
    assert json_tab.note_label.text() == KEPT_NOTE
    assert not json_tab.note_label.isHidden()


def test_json_valid_edit_updates_overview_and_undoes(editor, qtbot):
    widget, document, key = editor
    data = json.loads(widget.json_tab.editor.toPlainText())
    data["summary"] = "Invoices between two dates."
    widget.json_tab.editor.setPlainText(json.dumps(data, indent=2, ensure_ascii=False))
    qtbot.waitUntil(lambda: current(document, key).summary == "Invoices between two dates.")
    assert widget.overview_tab.summary_edit.text() == "Invoices between two dates."
    assert widget.json_tab.error_label.isHidden()
    document.undo_stack.undo()
    assert widget.overview_tab.summary_edit.text() == QUERY_INVOICES.summary
    assert json.loads(widget.json_tab.editor.toPlainText())["summary"] == QUERY_INVOICES.summary


def test_json_invalid_schema_names_the_path(editor):
    widget, document, key = editor
    data = json.loads(widget.json_tab.editor.toPlainText())
    data["parameters"]["properties"]["start_date"]["type"] = "date"
    widget.json_tab.editor.setPlainText(json.dumps(data, indent=2))
    widget.json_tab.apply_text()
    text = widget.json_tab.error_label.text()
    assert "parameters.properties.start_date.type" in text
    assert current(document, key) == QUERY_INVOICES


def test_form_edit_refreshes_valid_json(editor, qtbot):
    widget, _document, _key = editor
    qtbot.keyClicks(widget.overview_tab.title_edit, "!")
    assert json.loads(widget.json_tab.editor.toPlainText())["title"] == "Query invoices!"


def test_read_only_document_disables_editing(qtbot):
    widget = ToolEditorWidget()
    qtbot.addWidget(widget)
    document, key = make_document(read_only=True)
    widget.set_tool(document, key)
    assert widget.overview_tab.summary_edit.isReadOnly()
    assert widget.overview_tab.block_edits["usage"].isReadOnly()
    assert not widget.overview_tab.errors_table.add_button.isEnabled()
    assert not widget.parameters_tab.add_button.isEnabled()
    assert widget.parameters_tab.model.read_only
    assert not widget.contract_tab.risk_combo.isEnabled()
    assert not widget.contract_tab.idempotency_check.isEnabled()
    assert widget.json_tab.editor.isReadOnly()
    qtbot.keyClicks(widget.overview_tab.summary_edit, "x")
    assert current(document, key) == QUERY_INVOICES


def test_removed_tool_clears_and_switching_disconnects(editor, qtbot):
    from studio.editing import RemoveTool

    widget, document, key = editor
    other, other_key = make_document()
    widget.set_tool(other, other_key)
    document.push(RemoveTool(key))
    assert widget.stack.currentIndex() == 1  # the old document no longer drives us
    other.push(RemoveTool(other_key))
    assert widget.stack.currentWidget() is widget.empty_label
    other.undo_stack.undo()
    widget.set_tool(other, other_key)
    assert widget.overview_tab.name_edit.text() == "query_invoices"


def test_a_name_with_a_trailing_newline_shows_the_hint(editor):
    widget, _document, _key = editor
    widget.overview_tab._show_name_hint("query_invoices\n")
    assert widget.overview_tab.name_hint.isVisibleTo(widget)
    widget.overview_tab._show_name_hint("query_invoices")
    assert not widget.overview_tab.name_hint.isVisibleTo(widget)
