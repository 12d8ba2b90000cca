"""The registry summary and the tool title say how the definition tokens were counted."""

from __future__ import annotations

import pytest

from studio.lint import lint_registry
from studio.ui.widgets.score_widget import ScoreWidget, budget_text
from tests.lint._fixtures import example


def test_estimated_budget_is_marked_approximate(estimated_tokens: None) -> None:
    report = lint_registry(example("travel-reimbursement"), profile="openai")
    t = report.tokens
    assert budget_text(report) == (
        f"4 tools · ≈ {t.total:,} tokens of definitions (≈ {t.average:,.0f} per tool)\n"
        f"Per task: ≈ {t.total:,} tokens × 5 rounds = ≈ {t.per_task:,} (estimate)"
    )


@pytest.mark.parametrize(("profile", "exact"), [("openai", True), ("anthropic", False)])
def test_exact_budget_names_the_encoding(
    qtbot, exact_tokens: None, profile: str, exact: bool
) -> None:
    report = lint_registry(example("travel-reimbursement"), profile=profile)
    t = report.tokens
    text = budget_text(report)
    if exact:
        assert text.endswith(
            f"Per task: {t.total:,} tokens × 5 rounds = {t.per_task:,} (o200k_base)"
        )
        assert text.startswith(f"4 tools · {t.total:,} tokens of definitions")
    else:
        assert text.endswith(f"= ≈ {t.per_task:,} (estimate)")
    widget = ScoreWidget()
    qtbot.addWidget(widget)
    widget.set_report(report)
    widget.set_tool("query_invoices")
    tokens = t.per_tool["query_invoices"]
    expected = f"{tokens:,} tokens (o200k_base)" if exact else f"≈ {tokens:,} tokens"
    assert widget.tool_box.title().endswith(f" · {expected}")
