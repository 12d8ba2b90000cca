"""Names are checked as full matches: ``$`` also matches before a trailing newline."""

from __future__ import annotations

from studio.contract import RegistrySettings, ToolContract
from studio.formats import gemini


def test_gemini_notes_a_name_or_parameter_with_a_trailing_newline() -> None:
    tool = ToolContract(
        name="get_order\n",
        summary="Look up one order.",
        parameters={"type": "object", "properties": {"order_id\n": {"type": "string"}}},
    )
    _doc, notes = gemini.export_tool(tool, RegistrySettings(), "tools[0]")
    messages = " ".join(n.message for n in notes)
    assert "Gemini names must start with a letter or underscore" in messages
    assert "Gemini may reject these parameter names" in messages and "order_id\n" in messages
