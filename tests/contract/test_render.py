"""Rendering descriptions from blocks."""

from __future__ import annotations

from studio.contract import ErrorSpec, Example, ToolContract, render_description
from studio.contract.render import template_problems


def test_empty_blocks_drop_their_paragraphs() -> None:
    tool = ToolContract("query_tickets", summary="Find claim tickets.", usage="Use for status.")
    assert render_description(tool) == "Find claim tickets.\n\nUse when: Use for status."


def test_errors_and_examples_render_as_lists() -> None:
    tool = ToolContract(
        "create_reimbursement_ticket",
        summary="File a claim.",
        errors=(ErrorSpec("DUPLICATE_CLAIM", "already filed", False, "Look it up."),),
        examples=(Example("taxi claim", {"invoice_ids": ["INV-102"]}),),
    )
    text = render_description(tool)
    assert "Errors:\n- DUPLICATE_CLAIM: already filed Look it up." in text
    assert 'Examples:\n- taxi claim: {"invoice_ids": ["INV-102"]}' in text


def test_free_text_is_used_only_without_blocks() -> None:
    assert render_description(ToolContract("get_order", description="Gets order.")) == "Gets order."
    with_blocks = ToolContract("get_order", summary="Fetch one order.", description="Gets order.")
    assert render_description(with_blocks) == "Fetch one order."


def test_custom_template_and_broken_template_fallback() -> None:
    tool = ToolContract("t", summary="S", usage="U")
    assert render_description(tool, "[{name}] {summary}\n\nWhen: {usage}") == "[t] S\n\nWhen: U"
    assert template_problems("{summary") != []
    assert render_description(tool, "{summary") == render_description(tool)
