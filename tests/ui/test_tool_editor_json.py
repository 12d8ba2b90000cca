"""The JSON tab's highlighter and its apply-on-focus-out behaviour."""

from __future__ import annotations

from PySide6.QtCore import QEvent
from PySide6.QtGui import QColor, QFocusEvent, QPalette, QTextDocument
from PySide6.QtWidgets import QApplication

from studio.ui.views.tool_editor import ToolEditorWidget
from studio.ui.widgets.json_highlighter import JsonHighlighter, is_dark
from tests.ui.test_tool_editor import QUERY_INVOICES, current, make_document


def colours(document: QTextDocument) -> dict[str, str]:
    """Foreground colour per highlighted fragment of the first line."""
    layout = document.firstBlock().layout()
    units = document.firstBlock().text().encode("utf-16-le")  # Qt positions are UTF-16
    return {
        units[2 * r.start : 2 * (r.start + r.length)].decode("utf-16-le"): (
            r.format.foreground().color().name()
        )
        for r in layout.formats()
    }


def test_highlighter_colours_tokens_for_light_and_dark(qapp):
    document = QTextDocument()
    document.setPlainText('{"category": "taxi", "limit": 80, "ok": true}')
    highlighter = JsonHighlighter(document, dark=False)
    light = colours(document)
    assert light['"category"'] != light['"taxi"'] != light["80"]
    highlighter.set_dark(True)
    dark = colours(document)
    assert QColor(dark['"taxi"']).lightness() > QColor(light['"taxi"']).lightness()
    assert QColor(dark['"category"']).lightness() > 128 > QColor(light['"category"']).lightness()


def test_highlighter_handles_astral_characters(qapp):
    document = QTextDocument()
    document.setPlainText('{"note": "🚕 出租车", "n": 1}')
    JsonHighlighter(document)
    found = colours(document)
    assert '"🚕 出租车"' in found  # the string after the emoji starts where it should
    assert "1" in found


def test_is_dark_reads_the_base_lightness():
    palette = QPalette()
    palette.setColor(QPalette.ColorRole.Base, QColor("#1e1e1e"))
    assert is_dark(palette)
    palette.setColor(QPalette.ColorRole.Base, QColor("#ffffff"))
    assert not is_dark(palette)


def test_json_edit_is_applied_on_focus_out(qtbot):
    widget = ToolEditorWidget()
    qtbot.addWidget(widget)
    document, key = make_document()
    widget.set_tool(document, key)
    widget.show_tab("json")
    editor = widget.json_tab.editor
    editor.setPlainText(editor.toPlainText().replace('"domain": ""', '"domain": "finance"'))
    assert current(document, key) == QUERY_INVOICES  # debounced, not applied yet
    QApplication.sendEvent(editor, QFocusEvent(QEvent.Type.FocusOut))
    assert current(document, key).domain == "finance"
    assert widget.contract_tab.domain_edit.text() == "finance"
    assert document.undo_stack.count() == 1
