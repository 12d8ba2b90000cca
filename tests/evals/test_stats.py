"""A vs B: exact McNemar against reference values, paired bootstrap, verdict, cases needed."""

from __future__ import annotations

import pytest

from studio.evals.stats import (
    BROKEN,
    FIXED,
    UNCHANGED,
    binomial_two_sided,
    bootstrap_interval,
    cases_needed,
    compare,
    mcnemar_exact,
)
from tests.evals.synthetic import attempt, paired_run


@pytest.mark.parametrize(
    ("k", "n", "p"),
    [
        (1, 10, 0.021484375),  # R: binom.test(1, 10)$p.value = 0.02148438
        (0, 6, 0.03125),  # R: binom.test(0, 6)$p.value
        (7, 20, 0.2631760),  # R: binom.test(7, 20)$p.value = 0.2632
        (
            1,
            7 + 1,
            0.0703125,
        ),  # Fagerland et al. 2013 (BMC Med Res Methodol): exact conditional 0.070
        (5, 10, 1.0),
        (0, 0, 1.0),
    ],
)
def test_exact_binomial_matches_reference_values(k: int, n: int, p: float) -> None:
    assert binomial_two_sided(k, n) == pytest.approx(p, rel=1e-6)
    assert mcnemar_exact(k, n - k) == pytest.approx(p, rel=1e-6)
    assert mcnemar_exact(n - k, k) == pytest.approx(p, rel=1e-6)  # symmetric


def test_large_discordant_counts_stay_exact_and_fast() -> None:
    p = mcnemar_exact(2600, 2400)
    assert 0.004 < p < 0.006  # normal approximation: z = 200/√5000 ≈ 2.83, p ≈ 0.0047


def test_cases_needed_by_connors_formula() -> None:
    # ψ = 0.10, δ = 0.05: (1.95996·√0.1 + 0.84162·√0.0975)² / 0.0025 = 311.6
    assert cases_needed(0.10) == 312
    assert cases_needed(0.0) == 312  # floored at ψ = 0.10
    assert cases_needed(0.30) > cases_needed(0.10)


def test_bootstrap_is_seeded_paired_and_brackets_the_difference() -> None:
    diffs = [1.0] * 30 + [-1.0] * 10 + [0.0] * 60
    low, high = bootstrap_interval(diffs)  # type: ignore[misc]
    assert (low, high) == bootstrap_interval(diffs)
    assert low < 0.2 < high and low > 0.0
    assert bootstrap_interval([]) is None
    assert bootstrap_interval([0.0] * 50) == (0.0, 0.0)


def test_a_clearly_better_b_is_better_with_flips_listed_first() -> None:
    a_passes = set(range(0, 40))
    b_passes = set(range(0, 38)) | set(range(40, 70))  # 30 fixed, 2 broken
    cmp = compare(
        [x for x in paired_run(100, a_passes, b_passes) if x.variant == "A"],
        [x for x in paired_run(100, a_passes, b_passes) if x.variant == "B"],
        a_label="v1", b_label="draft",
    )  # fmt: skip
    assert (cmp.fixed, cmp.broken) == (30, 2)
    assert cmp.a_accuracy == 0.40 and cmp.b_accuracy == 0.68
    assert cmp.difference == pytest.approx(0.28)
    assert cmp.verdict == "better" and cmp.p_value < 1e-6
    assert cmp.interval is not None and cmp.interval[0] > 0.15 and cmp.interval[1] < 0.40
    assert [p.status for p in cmp.pairs[:32]] == [BROKEN] * 2 + [FIXED] * 30
    assert cmp.pairs[-1].status == UNCHANGED
    assert cmp.flips[0].b_failures and not cmp.flips[0].a_failures
    tool = cmp.tools[0]
    assert (tool.tool, tool.fixed, tool.broken, tool.delta) == (
        "query_invoices",
        30,
        2,
        pytest.approx(0.28),
    )


def test_a_small_set_says_no_detectable_difference_and_how_many_cases() -> None:
    a = [attempt(f"c{i}", variant="A", passed=i != 0) for i in range(10)]
    b = [attempt(f"c{i}", variant="B", passed=i not in (1, 2)) for i in range(10)]
    cmp = compare(a, b)
    assert (cmp.fixed, cmp.broken) == (1, 2)
    assert cmp.verdict == "no detectable difference"
    assert cmp.cases_needed >= 312


def test_worse_and_unpaired_cases() -> None:
    a = [attempt(f"c{i}", variant="A") for i in range(20)]
    b = [attempt(f"c{i}", variant="B", passed=i >= 12) for i in range(20)]
    b.append(attempt("extra", variant="B"))
    cmp = compare([*a, attempt("lonely", variant="A")], b)
    assert cmp.verdict == "worse" and cmp.broken == 12
    assert (cmp.only_a, cmp.only_b) == (1, 1)


def test_repetitions_use_the_majority_and_errors_are_left_out() -> None:
    a = [attempt("x", variant="A", repetition=r, passed=r == 0) for r in range(3)]
    b = [attempt("x", variant="B", repetition=r, passed=r > 0) for r in range(3)]
    b.append(attempt("x", variant="B", repetition=3, status="error"))
    cmp = compare(a, b)
    pair = cmp.pairs[0]
    assert pair.a_rate == pytest.approx(1 / 3) and pair.b_rate == pytest.approx(2 / 3)
    assert pair.status == FIXED


def test_other_outcomes_and_a_wrong_one() -> None:
    a = [attempt("x", variant="A", raw_passed=False)]
    b = [attempt("x", variant="B")]
    assert compare(a, b, outcome="raw").fixed == 1
    assert compare(a, b).fixed == 0
    assert compare(a, b, outcome="end_to_end").pairs == ()
    with pytest.raises(ValueError, match="outcome must be one of"):
        compare(a, b, outcome="vibes")


def test_the_running_binomial_terms_equal_math_comb() -> None:
    import math

    for n, k in ((301, 120), (1000, 480), (57, 0), (58, 29)):
        low = min(k, n - k)
        direct = (
            1.0
            if 2 * low == n
            else min(1.0, 2 * sum(math.comb(n, i) for i in range(low + 1)) / 2**n)
        )
        assert binomial_two_sided(k, n) == direct
