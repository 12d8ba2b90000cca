"""Metrics of a run from its attempts: selection, arguments, confusion, pass^k, cost, latency."""

from __future__ import annotations

import math

import pytest

from studio.evals.metrics import (
    Price,
    compute,
    compute_groups,
    parse_price,
    pass_at_k,
    pass_hat_k,
    percentile,
)
from studio.evals.results import ASKED, NO_TOOL
from tests.evals.synthetic import STATUS_ERROR, attempt


def test_selection_arguments_raw_and_after_pipeline_are_separate_columns() -> None:
    attempts = [
        attempt("c1"),  # all good
        attempt("c2", raw_passed=False, repaired=True),  # pipeline repaired the arguments
        attempt("c3", args_ok=False),  # right tool, arguments wrong in both views
        attempt("c4", chosen="query_tickets"),  # wrong tool
    ]
    m = compute(attempts)
    assert m.scored == 4 and m.cases == 4
    assert m.selection == 0.75
    assert m.arguments_raw == 0.25
    assert m.arguments_pipeline == 0.5
    assert m.arguments_given_selection == pytest.approx(2 / 3)
    assert m.repaired_share == 0.25 and m.calls == 4


def test_confusion_matrix_has_no_tool_and_asked_and_per_tool_f1() -> None:
    attempts = [
        attempt("a", expected="query_invoices"),
        attempt("b", expected="query_invoices", chosen="query_tickets"),
        attempt("c", expected="query_tickets"),
        attempt("d", expected=NO_TOOL, chosen="create_ticket"),
        attempt("e", expected=NO_TOOL),
        attempt("f", expected=ASKED, chosen=NO_TOOL),
    ]
    m = compute(attempts)
    assert m.confusion.labels == (
        "create_ticket",
        "query_invoices",
        "query_tickets",
        NO_TOOL,
        ASKED,
    )
    assert m.confusion.count("query_invoices", "query_tickets") == 1
    assert m.confusion.count(NO_TOOL, "create_ticket") == 1
    assert m.confusion.off_diagonal()[0][2] == 1
    tools = {t.tool: t for t in m.tools}
    assert tools["query_invoices"].precision == 1.0 and tools["query_invoices"].recall == 0.5
    assert tools["query_tickets"].precision == 0.5 and tools["query_tickets"].recall == 1.0
    assert tools["query_tickets"].f1 == pytest.approx(2 / 3)
    assert tools["create_ticket"].recall is None and tools["create_ticket"].precision == 0.0
    # Abstention: 3 cases expected no tool or a question; 2 called no tool.
    assert m.abstention == pytest.approx(2 / 3) and m.abstention_cases == 3


def test_pass_hat_k_and_pass_at_k_follow_tau_bench() -> None:
    assert pass_hat_k(4, 2, 2) == pytest.approx(1 / 6)
    assert pass_at_k(4, 2, 2) == pytest.approx(5 / 6)
    assert pass_hat_k(4, 4, 4) == 1.0 and pass_at_k(4, 0, 1) == 0.0
    # Case x passes 2 of 4 tries, case y 4 of 4.
    attempts = [attempt("x", repetition=r, passed=r < 2) for r in range(4)]
    attempts += [attempt("y", repetition=r) for r in range(4)]
    m = compute(attempts)
    assert m.repetitions == 4
    assert m.pass_hat_k[1] == pytest.approx(0.75)
    assert m.pass_hat_k[2] == pytest.approx((1 / 6 + 1) / 2)
    assert m.pass_at_k[2] == pytest.approx((5 / 6 + 1) / 2)
    assert set(m.pass_hat_k) == {1, 2, 3, 4}


def test_errors_are_counted_not_scored_and_latency_skips_cached() -> None:
    attempts = [
        attempt("a", latency_ms=10),
        attempt("b", latency_ms=30),
        attempt("c", latency_ms=0.1, cached=True),
        attempt("d", status=STATUS_ERROR),
        attempt("e", status="skipped"),
    ]
    m = compute(attempts)
    assert (m.attempts, m.scored, m.errors, m.skipped, m.cached) == (5, 3, 1, 1, 1)
    assert m.latency_p50_ms == 20 and m.latency_p95_ms == pytest.approx(29)
    assert m.error_messages == (("HTTP 500 from the model", 1),)


def test_percentile_is_numpys_linear_interpolation() -> None:
    assert percentile([], 50) is None
    assert percentile([5.0], 95) == 5.0
    assert percentile([1, 2, 3, 4], 50) == 2.5
    assert percentile(list(range(1, 101)), 95) == pytest.approx(95.05)


def test_cost_is_n_times_mean_tokens_times_rounds_with_a_price() -> None:
    attempts = [attempt("a", tokens=(1000, 200)), attempt("b", tokens=(3000, 600))]
    m = compute(attempts, Price(2.5, 10.0))
    c = m.cost
    assert c.tokens_in_per_case == 2000 and c.tokens_out_per_case == 400
    assert c.calls_per_task == 1 and c.rounds == 1
    assert c.tokens_per_task == pytest.approx(2400)
    assert c.per_case == pytest.approx((2000 * 2.5 + 400 * 10) / 1e6)
    assert c.per_1000_cases == pytest.approx(c.per_case * 1000)
    assert compute(attempts).cost.per_case is None


def test_end_to_end_and_grounding_only_when_measured() -> None:
    assert compute([attempt("a")]).end_to_end is None
    m = compute([attempt("a", end_to_end=True, grounded=False), attempt("b", end_to_end=False)])
    assert m.end_to_end == 0.5 and m.grounded == 0.0


def test_groups_per_variant_and_profile_with_their_price() -> None:
    attempts = [attempt("a", variant="A"), attempt("a", variant="B", profile="other")]
    groups = compute_groups(attempts, {"other": Price(1, 1)})
    assert list(groups) == [("A", "loopback"), ("B", "other")]
    assert groups[("A", "loopback")].cost.per_case is None
    assert groups[("B", "other")].cost.per_case is not None


def test_empty_run_has_no_rates() -> None:
    m = compute([])
    assert m.selection is None and m.pass_hat_k == {} and m.latency_p50_ms is None


@pytest.mark.parametrize(
    ("text", "problem"),
    [("gpt", "PROFILE=IN/OUT"), ("gpt=1", "PROFILE=IN/OUT"), ("gpt=a/b", "PROFILE=IN/OUT"),
     ("gpt=-1/2", "≥ 0"), ("gpt=nan/2", "≥ 0")],
)  # fmt: skip
def test_price_parse_errors_say_the_form(text: str, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        parse_price(text)
    name, price = parse_price("通义=0.8/2")
    assert name == "通义" and math.isclose(price.output_per_mtok, 2)


def test_false_success_share_from_multi_step_attempts() -> None:
    import dataclasses

    attempts = [
        dataclasses.replace(attempt("a", end_to_end=True), false_success=True),
        dataclasses.replace(attempt("b", end_to_end=False), false_success=False),
        attempt("c", end_to_end=True),  # no call failed: not counted
    ]
    m = compute(attempts)
    assert m.false_success == 0.5 and m.false_success_cases == 2
    assert compute([attempt("a")]).false_success is None
