"""The preview shows what each provider receives, the rendered text, notes and tokens."""

from __future__ import annotations

import json
import threading

import pytest

from studio.contract import RegistrySettings, ToolContract, token_count
from studio.contract.tokens import estimate_tokens
from studio.formats import Note
from studio.ui.widgets.preview import PROVIDERS, PreviewWidget

TOOL = ToolContract(
    "create_reimbursement_ticket",
    title="File a claim",
    summary="File a reimbursement claim for one invoice.",
    usage="the user asks to claim an invoice they already found with query_invoices.",
    parameters={
        "type": "object",
        "properties": {
            "invoice_id": {
                "type": "string",
                "description": "Invoice number, e.g. INV-102.",
                "x-aliases": ["invoiceId", "发票号"],
            },
            "employee_id": {"type": "string", "x-injected": "session.employee_id"},
        },
        "required": ["invoice_id", "employee_id"],
    },
)


@pytest.fixture
def preview(qtbot) -> PreviewWidget:
    widget = PreviewWidget()
    qtbot.addWidget(widget)
    return widget


def test_openai_json_has_no_extension_keys_and_no_injected_properties(
    preview: PreviewWidget, estimated_tokens: None
) -> None:
    preview.set_format("openai")
    preview.set_tool(TOOL, RegistrySettings())
    preview.flush()
    text = preview.json_view.toPlainText()
    value = json.loads(text)
    assert value["type"] == "function"
    function = value["function"]
    assert function["name"] == "create_reimbursement_ticket"
    assert list(function["parameters"]["properties"]) == ["invoice_id"]
    assert "employee_id" not in text
    assert '"x-' not in text
    assert preview.json_view.isReadOnly()
    compact = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    assert preview.tokens_label.text() == f"≈ {estimate_tokens(compact)} tokens (estimate)"
    assert estimate_tokens(compact) > 10
    assert "install the exact-tokens extra" in preview.tokens_label.toolTip()


def _compact(preview: PreviewWidget) -> str:
    value = json.loads(preview.json_view.toPlainText())
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


@pytest.mark.parametrize("fmt", ["openai", "openai-responses"])
def test_openai_formats_show_exact_o200k_counts(
    preview: PreviewWidget, exact_tokens: None, fmt: str
) -> None:
    import bpe_openai

    encode = bpe_openai.get_encoding("o200k_base").encode_ordinary
    preview.set_tool(TOOL, RegistrySettings())
    preview.set_format(fmt)
    preview.flush()
    assert preview.tokens_label.text() == f"{len(encode(_compact(preview)))} tokens (o200k_base)"
    assert "internal format" in preview.tokens_label.toolTip()


@pytest.mark.parametrize("fmt", ["anthropic", "mcp", "gemini"])
def test_other_formats_stay_estimated(preview: PreviewWidget, exact_tokens: None, fmt: str) -> None:
    preview.set_tool(TOOL, RegistrySettings())
    preview.set_format(fmt)
    preview.flush()
    expected = f"≈ {estimate_tokens(_compact(preview))} tokens (estimate)"
    assert preview.tokens_label.text() == expected
    assert "no offline tokenizer" in preview.tokens_label.toolTip()


def test_the_tokenizer_loads_in_the_background_then_the_count_turns_exact(
    qtbot, preview: PreviewWidget, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = threading.Event()
    loaded_on: list[threading.Thread] = []

    def slow_load(encoding: str):
        loaded_on.append(threading.current_thread())
        assert release.wait(10)
        return lambda text: 4242

    monkeypatch.setattr(token_count, "_load_encoding", slow_load)
    monkeypatch.setattr(token_count, "_counters", {})
    preview.set_format("openai")
    preview.set_tool(TOOL, RegistrySettings())
    preview.flush()  # returns while the load is blocked: the GUI thread never waits for it
    assert preview.tokens_label.text().endswith(" tokens (estimate)")
    assert "loading the o200k_base tokenizer" in preview.tokens_label.toolTip()
    release.set()
    qtbot.waitUntil(lambda: preview.tokens_label.text() == "4242 tokens (o200k_base)", timeout=5000)
    assert loaded_on and loaded_on[0] is not threading.main_thread()


def test_rendered_description_uses_the_registry_template(preview: PreviewWidget) -> None:
    settings = RegistrySettings(description_template="{title}: {summary}")
    preview.set_tool(TOOL, settings)
    preview.flush()
    assert preview.description_view.toPlainText() == (
        "File a claim: File a reimbursement claim for one invoice."
    )


@pytest.mark.parametrize("fmt", [fmt for fmt, _ in PROVIDERS])
def test_every_provider_exports(preview: PreviewWidget, fmt: str) -> None:
    preview.set_tool(TOOL, RegistrySettings())
    preview.set_format(fmt)
    preview.flush()
    assert preview.current_format() == fmt
    text = preview.json_view.toPlainText()
    json.loads(text)
    assert "create_reimbursement_ticket" in text
    assert "employee_id" not in text
    assert preview.notes_list.count() >= 1


def test_updates_are_debounced(qtbot, preview: PreviewWidget) -> None:
    calls: list[str] = []

    def exporter(tool, fmt, settings):
        calls.append(tool.summary)
        return {"name": tool.name, "description": tool.summary}, []

    widget = PreviewWidget(exporter=exporter)
    qtbot.addWidget(widget)
    for i in range(5):
        widget.set_tool(ToolContract("t", summary=f"s{i}"))
    qtbot.waitUntil(lambda: calls == ["s4"], timeout=1000)


def test_notes_and_export_errors_are_shown(qtbot) -> None:
    def exporter(tool, fmt, settings):
        if fmt == "gemini":
            raise ValueError("gemini cannot take this schema")
        return {"name": tool.name}, [Note("parameters", "examples are dropped", "lost")]

    widget = PreviewWidget(exporter=exporter)
    qtbot.addWidget(widget)
    widget.set_tool(TOOL)
    widget.flush()
    assert widget.notes_list.item(0).text() == "[Lost] parameters: examples are dropped"
    widget.set_format("gemini")
    assert "gemini cannot take this schema" in widget.json_view.toPlainText()
    assert widget.tokens_label.text() == "≈ — tokens"
    widget.set_tool(None)
    widget.flush()
    assert widget.json_view.toPlainText() == ""


def test_loss_notes_read_in_chinese(qtbot, qapp) -> None:
    from studio.ui import i18n

    i18n.apply_language(qapp, "zh_CN")
    try:
        widget = PreviewWidget()
        qtbot.addWidget(widget)
        widget.set_tool(TOOL, RegistrySettings())
        widget.set_format("openai")
        widget.flush()
        lines = [widget.notes_list.item(i).text() for i in range(widget.notes_list.count())]
        assert lines and all(line.startswith(("[丢失]", "[推测]", "[信息]")) for line in lines), (
            lines
        )
        assert not any("dropped" in line or "not representable" in line for line in lines), lines
    finally:
        i18n.apply_language(qapp, "en")
