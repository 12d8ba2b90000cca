"""Scores on Glama's Tool Definition Quality Score yardstick (issue #11.7)."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.contract import ToolContract
from studio.formats import import_path
from studio.lint import lint_registry
from studio.lint.report import to_json
from studio.lint.scores import (
    TDQS_DIMENSIONS,
    ToolScores,
    registry_tdqs,
    score_tool,
    tdqs_tier,
)

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"


def _scores(*values: int, **extra: object) -> ToolScores:
    return ToolScores(*values, **extra)  # type: ignore[arg-type]


def test_the_weights_are_the_specs_and_sum_to_100():
    weights = {key: w for key, _, w in TDQS_DIMENSIONS}
    assert weights == {
        "purpose_clarity": 25,
        "usage_guidelines": 20,
        "behavioral_transparency": 20,
        "parameter_semantics": 15,
        "conciseness_structure": 10,
        "contextual_completeness": 10,
    }


@pytest.mark.parametrize(
    ("score", "tier"),
    [
        (5.0, "A"),
        (3.5, "A"),
        (3.4, "B"),
        (3.0, "B"),
        (2.9, "C"),
        (2.0, "C"),
        (1.9, "D"),
        (1.0, "D"),
    ],
)
def test_tiers(score: float, tier: str):
    assert tdqs_tier(score) == tier


def test_a_tool_maps_component_by_component_and_is_weighted():
    tdqs = _scores(4, 3, 2, 5, 1, 3, conciseness=5).tdqs
    assert tdqs.dimensions == {
        "purpose_clarity": 4,
        "usage_guidelines": 3,
        "behavioral_transparency": 2,
        "parameter_semantics": 5,
        "conciseness_structure": 4,  # never above the purpose: short is not concise
        "contextual_completeness": 2,  # (3 + 1) / 2
    }
    # 0.25·4 + 0.20·3 + 0.20·2 + 0.15·5 + 0.10·4 + 0.10·2 = 3.35
    assert tdqs.score == 3.4 and tdqs.tier == "B"  # half-up, in integers


def test_no_description_is_one_everywhere_and_no_parameters_is_the_baseline_four():
    empty = score_tool(ToolContract(name="get_x"))
    assert empty.tdqs.score == 1.0 and empty.tdqs.tier == "D"
    assert set(empty.tdqs.dimensions.values()) == {1}
    described = score_tool(ToolContract(name="get_x", summary="Get the x of an order by its id."))
    assert described.tdqs.dimensions["parameter_semantics"] == 4


def test_the_registry_rollup_weighs_the_worst_tool():
    good, bad = _scores(5, 5, 5, 5, 5, 5), _scores(1, 1, 1, 1, 1, 1, conciseness=1)
    rollup = registry_tdqs([good, good, good, bad])
    assert rollup is not None
    assert (rollup.mean, rollup.minimum) == (4.0, 1.0)
    assert rollup.score == 2.8 and rollup.tier == "C"  # 0.6·4.0 + 0.4·1.0
    assert registry_tdqs([]) is None


def test_the_scores_are_deterministic_and_in_the_json_report():
    registry = import_path(EXAMPLES / "travel-reimbursement.json").registry
    first, again = to_json(lint_registry(registry)), to_json(lint_registry(registry))
    assert first["tdqs"] == again["tdqs"]
    assert first["tdqs"]["tier"] == "A" and first["tdqs"]["tools"] == len(registry.tools)
    tool = first["scores"]["query_invoices"]["tdqs"]
    assert set(tool["dimensions"]) == {k for k, _, _ in TDQS_DIMENSIONS}
    assert tool["tier"] in "ABCD" and 1.0 <= tool["score"] <= 5.0
    legacy = to_json(lint_registry(import_path(EXAMPLES / "order-service.json").registry))
    assert legacy["tdqs"]["score"] < first["tdqs"]["score"]
    assert legacy["tdqs"]["min"] <= legacy["tdqs"]["mean"]
