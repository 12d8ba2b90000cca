"""A vs B on paired outcomes: flips, exact McNemar, bootstrap interval, verdict (issue #12, part 5).

Both variants ran the same cases, so the outcomes are *paired*: what matters is
the cases one variant passes and the other fails. The comparison therefore:

- pairs attempts by (case, profile); a case's outcome on a side is its pass
  rate over the repetitions, and it *passes* when more than half passed;
- calls a case **fixed** (A fails, B passes), **broken** (A passes, B fails)
  or **unchanged**;
- tests the discordant pairs with the **exact McNemar test**: under "no
  difference" a discordant case is fixed or broken with probability ½, so the
  two-sided p-value is ``min(1, 2 · P(X ≤ min(fixed, broken)))`` for X ~
  Binomial(fixed + broken, ½) (R's ``mcnemar.test`` exact form, i.e.
  ``binom.test(fixed, fixed + broken)``; statsmodels' ``mcnemar(exact=True)``);
- gives a **bootstrap 95 % interval** of the accuracy difference B − A by
  resampling cases with replacement (seeded, paired: a case keeps both its
  outcomes). Resampling n cases from the observed per-case differences is a
  multinomial draw over their distinct values, which is how it is computed
  (exactly the same distribution, thousands of times faster);
- says **better** / **worse** when McNemar's p < α (0.05) in that direction,
  else **no detectable difference at this set's size**;
- estimates the **cases needed** to detect a 5-point change at α = 0.05
  (two-sided) with 80 % power, by Connor's (1987) sample size for McNemar's
  test: n = (z₁₋α/₂·√ψ + z₁₋β·√(ψ − δ²))² / δ², δ = 0.05, ψ the share of
  discordant cases (observed here, at least 0.10 so that a run with few flips
  does not promise that a handful of cases would do).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Literal

from studio.evals.results import Attempt, Score

Outcome = Literal["pipeline", "raw", "selection", "end_to_end"]
OUTCOMES: tuple[str, ...] = ("pipeline", "raw", "selection", "end_to_end")
Verdict = Literal["better", "worse", "no detectable difference"]

FIXED = "fixed"
BROKEN = "broken"
UNCHANGED = "unchanged"

ALPHA = 0.05
POWER = 0.80
EFFECT = 0.05
MIN_DISCORDANT = 0.10
BOOTSTRAP_SAMPLES = 2000
BOOTSTRAP_SEED = 20261201


def binomial_two_sided(k: int, n: int) -> float:
    """Exact two-sided p-value of k successes in n trials with p = ½ (1.0 when n = 0)."""
    if n == 0:
        return 1.0
    low = min(k, n - k)
    if 2 * low == n:
        return 1.0
    # C(n, i) term by term, exactly in integers (math.comb per term is quadratic:
    # ~0.1 s for 2,000 discordant pairs, this is ~1 ms).
    term = tail = 1
    for i in range(low):
        term = term * (n - i) // (i + 1)
        tail += term
    return min(1.0, 2 * tail / 2**n)


def mcnemar_exact(fixed: int, broken: int) -> float:
    """Exact McNemar p-value from the discordant counts."""
    return binomial_two_sided(fixed, fixed + broken)


def cases_needed(discordant: float, effect: float = EFFECT) -> int:
    """Connor's sample size for McNemar: cases to detect ``effect`` (α 0.05, power 0.8)."""
    psi = max(discordant, MIN_DISCORDANT, effect)
    z = NormalDist()
    za = z.inv_cdf(1 - ALPHA / 2)
    zb = z.inv_cdf(POWER)
    n = (za * math.sqrt(psi) + zb * math.sqrt(psi - effect**2)) ** 2 / effect**2
    return math.ceil(n)


def bootstrap_interval(
    differences: Sequence[float],
    *,
    samples: int = BOOTSTRAP_SAMPLES,
    seed: int = BOOTSTRAP_SEED,
    level: float = 0.95,
) -> tuple[float, float] | None:
    """Percentile bootstrap interval of the mean of paired per-case differences."""
    if not differences:
        return None
    import numpy as np  # only when a comparison is made

    counts = Counter(differences)
    values = np.array(list(counts), dtype=float)
    probs = np.array([counts[v] for v in counts], dtype=float) / len(differences)
    rng = np.random.default_rng(seed)
    draws = rng.multinomial(len(differences), probs, size=samples)
    means = draws @ values / len(differences)
    tail = (1 - level) / 2 * 100
    low, high = np.percentile(means, [tail, 100 - tail])
    return float(low), float(high)


@dataclass(frozen=True, slots=True)
class CasePair:
    """One case (for one profile) on both sides."""

    case_id: str
    profile: str
    expected: str
    a_rate: float
    b_rate: float
    a_chosen: str
    b_chosen: str
    a_failures: tuple[str, ...]
    b_failures: tuple[str, ...]
    tags: tuple[str, ...] = ()
    status: str = UNCHANGED  # fixed, broken or unchanged: see pair_status()

    @property
    def a_passed(self) -> bool:
        return self.a_rate > 0.5

    @property
    def b_passed(self) -> bool:
        return self.b_rate > 0.5


def pair_status(a_rate: float, b_rate: float) -> str:
    """Fixed (A fails, B passes), broken (the reverse) or unchanged; pass = more than half."""
    a_passed, b_passed = a_rate > 0.5, b_rate > 0.5
    if a_passed == b_passed:
        return UNCHANGED
    return FIXED if b_passed else BROKEN


@dataclass(frozen=True, slots=True)
class ToolDelta:
    """The cases expecting one tool: pass rates on both sides and their flips."""

    tool: str
    cases: int
    a_accuracy: float
    b_accuracy: float
    fixed: int
    broken: int

    @property
    def delta(self) -> float:
        return self.b_accuracy - self.a_accuracy


@dataclass(frozen=True, slots=True)
class Comparison:
    """A vs B: the paired cases (flips first), the test, the interval and the verdict."""

    a_label: str
    b_label: str
    outcome: str
    pairs: tuple[CasePair, ...]
    only_a: int
    only_b: int
    a_accuracy: float | None
    b_accuracy: float | None
    fixed: int
    broken: int
    p_value: float
    interval: tuple[float, float] | None
    verdict: Verdict
    cases_needed: int
    tools: tuple[ToolDelta, ...]

    @property
    def difference(self) -> float | None:
        if self.a_accuracy is None or self.b_accuracy is None:
            return None
        return self.b_accuracy - self.a_accuracy

    @property
    def flips(self) -> tuple[CasePair, ...]:
        return tuple(p for p in self.pairs if p.status != UNCHANGED)

    @property
    def significant(self) -> bool:
        return self.verdict != "no detectable difference"


def outcome_of(attempt: Attempt, outcome: str) -> bool | None:
    """Whether ``attempt`` passed on ``outcome``; None when not scored or not measured."""
    if not attempt.scored:
        return None
    if outcome == "end_to_end":
        return attempt.end_to_end
    score = _score_of(attempt, outcome)
    if score is None:
        return None
    return score.selection_passed if outcome == "selection" else score.passed


def _score_of(attempt: Attempt, outcome: str) -> Score | None:
    """The view ``outcome`` scores: the raw answer (raw, selection) or after the pipeline."""
    return attempt.raw if outcome in ("raw", "selection") else attempt.pipeline


class _Side:
    """Per (case, profile): tries, passes, and what the last failing try looked like."""

    __slots__ = ("chosen", "expected", "failures", "passed", "tags", "tries")

    def __init__(self) -> None:
        self.tries = self.passed = 0
        self.expected = self.chosen = ""
        self.failures: tuple[str, ...] = ()
        self.tags: tuple[str, ...] = ()


def _sides(attempts: Iterable[Attempt], outcome: str) -> dict[tuple[str, str], _Side]:
    sides: dict[tuple[str, str], _Side] = {}
    for a in attempts:
        ok = outcome_of(a, outcome)
        if ok is None:
            continue
        side = sides.get((a.case_id, a.profile))
        if side is None:
            side = sides[(a.case_id, a.profile)] = _Side()
            side.expected, side.tags = a.expected, a.tags
        side.tries += 1
        side.passed += ok
        side.chosen = a.chosen
        if not ok:
            score = _score_of(a, outcome)
            side.failures = score.failures if score else ()
            if not side.failures and outcome == "end_to_end":
                side.failures = ("the expected write was not reached",)
    return sides


def compare(
    a: Iterable[Attempt],
    b: Iterable[Attempt],
    *,
    a_label: str = "A",
    b_label: str = "B",
    outcome: str = "pipeline",
    seed: int = BOOTSTRAP_SEED,
) -> Comparison:
    """Compare two variants' attempts on the same cases (see the module docstring).

    Raises:
        ValueError: ``outcome`` is not one of :data:`OUTCOMES`.
    """
    if outcome not in OUTCOMES:
        raise ValueError(f"outcome must be one of {', '.join(OUTCOMES)}, not {outcome!r}")
    side_a, side_b = _sides(a, outcome), _sides(b, outcome)
    pairs = []
    for key, sa in side_a.items():
        sb = side_b.get(key)
        if sb is None:
            continue
        a_rate, b_rate = sa.passed / sa.tries, sb.passed / sb.tries
        pairs.append(
            CasePair(
                key[0], key[1], sa.expected or sb.expected, a_rate, b_rate, sa.chosen, sb.chosen,
                () if sa.passed == sa.tries else sa.failures,
                () if sb.passed == sb.tries else sb.failures,
                sa.tags or sb.tags, pair_status(a_rate, b_rate),
            )
        )  # fmt: skip
    order = {BROKEN: 0, FIXED: 1, UNCHANGED: 2}
    pairs.sort(key=lambda p: (order[p.status], p.expected, p.case_id, p.profile))
    n = len(pairs)
    fixed = sum(p.status == FIXED for p in pairs)
    broken = sum(p.status == BROKEN for p in pairs)
    a_acc = sum(p.a_passed for p in pairs) / n if n else None
    b_acc = sum(p.b_passed for p in pairs) / n if n else None
    p_value = mcnemar_exact(fixed, broken)
    interval = bootstrap_interval([float(p.b_passed) - float(p.a_passed) for p in pairs], seed=seed)
    verdict: Verdict = "no detectable difference"
    if p_value < ALPHA and fixed != broken:
        verdict = "better" if fixed > broken else "worse"
    return Comparison(
        a_label=a_label,
        b_label=b_label,
        outcome=outcome,
        pairs=tuple(pairs),
        only_a=len(side_a.keys() - side_b.keys()),
        only_b=len(side_b.keys() - side_a.keys()),
        a_accuracy=a_acc,
        b_accuracy=b_acc,
        fixed=fixed,
        broken=broken,
        p_value=p_value,
        interval=interval,
        verdict=verdict,
        cases_needed=cases_needed((fixed + broken) / n if n else 0.0),
        tools=_tool_deltas(pairs),
    )


def _tool_deltas(pairs: Sequence[CasePair]) -> tuple[ToolDelta, ...]:
    """Per expected tool; tools with flips first (most flips first), then by name."""
    groups: dict[str, list[CasePair]] = {}
    for p in pairs:
        groups.setdefault(p.expected, []).append(p)
    deltas = []
    for tool, items in groups.items():
        n = len(items)
        deltas.append(
            ToolDelta(
                tool, n,
                sum(p.a_passed for p in items) / n, sum(p.b_passed for p in items) / n,
                sum(p.status == FIXED for p in items), sum(p.status == BROKEN for p in items),
            )
        )  # fmt: skip
    deltas.sort(key=lambda d: (-(d.fixed + d.broken), -d.broken, d.tool))
    return tuple(deltas)
