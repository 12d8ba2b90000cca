"""The Scores panel shows the selected tool and the registry on the TDQS yardstick."""

from __future__ import annotations

from studio.lint import lint_registry
from studio.lint.scores import registry_tdqs
from studio.ui.widgets.score_widget import ScoreWidget, registry_tdqs_text
from tests.lint._fixtures import example


def test_tool_dimensions_and_registry_rollup_are_shown(qtbot) -> None:
    report = lint_registry(example("order-service"), profile="openai")
    widget = ScoreWidget()
    qtbot.addWidget(widget)
    widget.set_report(report)
    assert widget.tdqs_registry.text().startswith("Registry TDQS: ")
    assert "0.6 × mean" in widget.tdqs_registry.text()
    rollup = registry_tdqs(report.scores.values())
    assert (
        rollup is not None and f"{rollup.score:.1f} · {rollup.tier}" in widget.tdqs_registry.text()
    )
    assert widget.tdqs_chart.bars() == []  # no tool selected
    widget.set_tool("create_refund")
    tdqs = report.scores["create_refund"].tdqs
    assert widget.tdqs_box.title() == f"TDQS create_refund: {tdqs.score:.1f} · {tdqs.tier}"
    bars = widget.tdqs_chart.bars()
    assert [b.text.split(" ")[1] for b in bars] == ["×25%", "×20%", "×20%", "×15%", "×10%", "×10%"]
    assert [b.value for b in bars] == list(tdqs.dimensions.values())
    assert "Glama" in widget.tdqs_box.toolTip()
    widget.set_report(None)
    assert widget.tdqs_registry.text() == "Registry TDQS: not linted yet"


def test_registry_text_without_tools() -> None:
    assert registry_tdqs_text(None) == "Registry TDQS: — (no tools)"
