"""The Contract tab's Provider group edits the 2026 provider options, with undo (#17)."""

from __future__ import annotations

import pytest

from studio.contract.provider_options import ProviderOptions
from studio.ui.document import RegistryDocument
from studio.ui.views.tool_editor import ToolEditorWidget
from tests.ui.test_tool_editor import QUERY_INVOICES, current, make_document


@pytest.fixture
def editor(qtbot):
    widget = ToolEditorWidget()
    qtbot.addWidget(widget)
    document, key = make_document()
    widget.set_tool(document, key)
    widget.show_tab("contract")
    return widget.contract_tab, document, key


def _choose(combo, data: str) -> None:
    combo.setCurrentIndex(combo.findData(data))
    combo.activated.emit(combo.currentIndex())


def test_each_option_is_one_undoable_edit(editor) -> None:
    tab, document, key = editor
    doc: RegistryDocument = document
    _choose(tab.strict_combo, "on")
    tab.defer_check.setChecked(True)
    tab.input_examples_check.setChecked(True)
    tab.callers_edit.setText("direct, programmatic, somebody")
    tab.callers_edit.editingFinished.emit()
    tab.namespace_edit.textEdited.emit("crm")
    _choose(tab.eager_combo, "off")
    assert current(doc, key).provider == ProviderOptions(
        strict=True,
        defer_loading=True,
        input_examples=True,
        allowed_callers=("direct", "programmatic"),
        namespace="crm",
        eager_input_streaming=False,
    )
    # An unknown caller is dropped from the field too.
    assert tab.callers_edit.text() == "direct, programmatic"
    for _ in range(6):
        doc.undo_stack.undo()
    assert current(doc, key).provider == QUERY_INVOICES.provider
    assert tab.strict_combo.currentData() == "default"
    assert not tab.defer_check.isChecked() and tab.namespace_edit.text() == ""
    doc.undo_stack.redo()
    assert tab.strict_combo.currentData() == "on"
    _choose(tab.strict_combo, "off")
    assert current(doc, key).provider.strict is False


def test_namespace_takes_only_valid_characters(editor) -> None:
    tab, _document, _key = editor
    validator = tab.namespace_edit.validator()
    assert validator.validate("crm_v2", 0)[0].name == "Acceptable"
    assert validator.validate("crm v2", 0)[0].name == "Invalid"


def test_read_only_disables_the_provider_group(qtbot) -> None:
    widget = ToolEditorWidget()
    qtbot.addWidget(widget)
    document, key = make_document(read_only=True)
    widget.set_tool(document, key)
    tab = widget.contract_tab
    assert not tab.strict_combo.isEnabled() and not tab.defer_check.isEnabled()
    assert tab.namespace_edit.isReadOnly()
