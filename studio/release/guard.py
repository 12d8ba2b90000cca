"""Guard metrics: is the canary healthy? (DESIGN §7)

Outcomes (one row per tool call, written by playground runs, replays and the
serving endpoint) are summarised per version and tool; canary and stable are
compared with a one-sided two-proportion z-test on the success rate, plus a
latency check, and the result is a recommendation with its reason.

Counting rules: ``skipped`` and ``denied`` calls never reached the tool (a
previous call failed, or a person said no), nor did ``replayed`` and
``refused`` ones (a write answered from its stored result, or held back while
its earlier attempt's outcome is unknown), so they count for neither side.
Success is status ``ok``. A validation failure is status ``rejected`` or an
error code from :data:`VALIDATION_CODES`.

Duplicate writes: a write attempt is a call of a ``write`` or ``destructive``
tool that passed the argument pipeline and was not denied; it is a duplicate
when an earlier call of the same intent (same idempotency key) reached the tool
(``duplicate_of`` is set). Metrics give duplicates per 1,000 write attempts, and
how many of them reached the tool again (the rest were replayed or refused).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from registry_db.sessions import Outcome, SessionStore
from registry_db.store import RegistryStore

VALIDATION_CODES = frozenset({
    "VALIDATION_FAILED",
    "INVALID_ARGUMENTS",
    "INVALID_ARGUMENTS_JSON",
    "MISSING_CONTEXT_VALUE",
    "UNKNOWN_TOOL",
    "CONFIRMATION_PHRASE_MISMATCH",
})  # fmt: skip
NOT_COUNTED = frozenset({"skipped", "denied", "replayed", "refused"})
WRITE_RISKS = frozenset({"write", "destructive"})
NOT_WRITE_ATTEMPTS = frozenset({"skipped", "denied", "rejected"})
"""Statuses of write calls that are not write attempts (never a valid, approved write)."""
REACHED_TOOL = frozenset({"ok", "error", "unknown"})
ALL_TOOLS = "*"

Action = Literal["hold", "promote", "rollback"]


@dataclass(frozen=True, slots=True)
class GuardThresholds:
    """When the guard speaks up.

    Attributes:
        min_samples: Calls each side needs before anything but ``hold``.
        max_success_drop: Largest tolerated drop of the canary's success rate
            (0.02 = two percentage points) before a significant one rolls back.
        p_value: Significance level of the one-sided z-test.
        max_p95_ratio: Canary p95 latency above this multiple of stable's rolls back.
    """

    min_samples: int = 100
    max_success_drop: float = 0.02
    p_value: float = 0.05
    max_p95_ratio: float = 2.0


@dataclass(frozen=True, slots=True)
class Metrics:
    """Outcomes of one version (and one tool, or :data:`ALL_TOOLS`)."""

    version: str
    tool: str
    calls: int
    successes: int
    validation_failures: int
    error_codes: dict[str, int]
    latency_p50: float
    latency_p95: float
    writes: int = 0
    """Write attempts (see the module docstring)."""
    duplicate_writes: int = 0
    """Write attempts of an intent that had already reached the tool."""
    duplicates_sent: int = 0
    """Duplicate write attempts that reached the tool again (not replayed or refused)."""

    @property
    def duplicates_per_1000(self) -> float:
        """Duplicate write attempts per 1,000 write attempts (0.0 without writes)."""
        return 1000 * self.duplicate_writes / self.writes if self.writes else 0.0

    @property
    def duplicates_sent_per_1000(self) -> float:
        """Duplicate writes that reached the tool again, per 1,000 write attempts."""
        return 1000 * self.duplicates_sent / self.writes if self.writes else 0.0

    @property
    def success_rate(self) -> float:
        """Successes over counted calls (0.0 without calls)."""
        return self.successes / self.calls if self.calls else 0.0

    @property
    def validation_rate(self) -> float:
        """Validation failures over counted calls."""
        return self.validation_failures / self.calls if self.calls else 0.0


@dataclass(frozen=True, slots=True)
class Comparison:
    """Canary against stable for one tool (or all tools)."""

    tool: str
    stable: Metrics
    canary: Metrics
    z: float
    p_value: float
    """One-sided: the probability of a drop this large if canary were as good as stable."""

    @property
    def success_drop(self) -> float:
        """Stable's success rate minus canary's (positive when canary is worse)."""
        return self.stable.success_rate - self.canary.success_rate


@dataclass(frozen=True, slots=True)
class Recommendation:
    """What the guard advises, and why (one sentence)."""

    action: Action
    reason: str


@dataclass(frozen=True, slots=True)
class GuardReport:
    """The comparison of two versions and the recommendation."""

    stable_version: str
    canary_version: str
    overall: Comparison
    tools: list[Comparison] = field(default_factory=list)
    recommendation: Recommendation = Recommendation("hold", "")


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0–100) by linear interpolation; 0.0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    if len(ordered) == 1:
        return float(ordered[0])
    rank = (len(ordered) - 1) * q / 100
    low = math.floor(rank)
    high = min(low + 1, len(ordered) - 1)
    return float(ordered[low] + (ordered[high] - ordered[low]) * (rank - low))


def is_validation_failure(outcome: Outcome) -> bool:
    """True for calls refused by argument validation."""
    return outcome.status == "rejected" or outcome.error_code in VALIDATION_CODES


def is_write_attempt(outcome: Outcome) -> bool:
    """True for a valid, not denied call of a write or destructive tool."""
    return outcome.risk in WRITE_RISKS and outcome.status not in NOT_WRITE_ATTEMPTS


def summarize(version: str, tool: str, outcomes: Iterable[Outcome]) -> Metrics:
    """Metrics of the given outcomes (already filtered to one version and tool)."""
    outcomes = list(outcomes)
    counted = [o for o in outcomes if o.status not in NOT_COUNTED]
    latencies = [o.latency_ms for o in counted if o.status == "ok" or o.latency_ms > 0]
    writes = [o for o in outcomes if is_write_attempt(o)]
    duplicates = [o for o in writes if o.duplicate_of]
    return Metrics(
        version=version,
        tool=tool,
        calls=len(counted),
        successes=sum(1 for o in counted if o.status == "ok"),
        validation_failures=sum(1 for o in counted if is_validation_failure(o)),
        error_codes=dict(Counter(o.error_code for o in counted if o.error_code)),
        latency_p50=percentile(latencies, 50),
        latency_p95=percentile(latencies, 95),
        writes=len(writes),
        duplicate_writes=len(duplicates),
        duplicates_sent=sum(1 for o in duplicates if o.status in REACHED_TOOL),
    )


def two_proportion_z(successes_a: int, n_a: int, successes_b: int, n_b: int) -> tuple[float, float]:
    """z and one-sided p-value that proportion b is lower than proportion a.

    Uses the pooled standard error; with no variance (both all-success or
    all-failure) z is 0 and p is 1 (or 0 when the proportions differ).
    """
    if n_a == 0 or n_b == 0:
        return 0.0, 1.0
    p_a, p_b = successes_a / n_a, successes_b / n_b
    pooled = (successes_a + successes_b) / (n_a + n_b)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n_a + 1 / n_b))
    if se == 0:
        return 0.0, (1.0 if p_b >= p_a else 0.0)
    z = (p_b - p_a) / se
    return z, 0.5 * math.erfc(-z / math.sqrt(2))


def version_metrics(outcomes: Iterable[Outcome]) -> dict[tuple[str, str], Metrics]:
    """Metrics per (version, tool), plus (version, :data:`ALL_TOOLS`)."""
    groups: dict[tuple[str, str], list[Outcome]] = defaultdict(list)
    for o in outcomes:
        groups[(o.version, o.tool)].append(o)
        groups[(o.version, ALL_TOOLS)].append(o)
    return {key: summarize(key[0], key[1], rows) for key, rows in groups.items()}


def compare(stable: Metrics, canary: Metrics) -> Comparison:
    """The z-test of canary's success rate against stable's."""
    z, p = two_proportion_z(stable.successes, stable.calls, canary.successes, canary.calls)
    return Comparison(stable.tool, stable, canary, z, p)


def _pct(rate: float) -> str:
    return f"{100 * rate:.1f} %"


def recommend(
    overall: Comparison, tools: Sequence[Comparison], thresholds: GuardThresholds
) -> Recommendation:
    """Hold, promote or roll back, with the reason.

    Roll back when the success rate of all calls or of a tool with enough
    samples dropped by more than the tolerance and significantly, or when
    canary's p95 latency exceeds the allowed multiple of stable's. Hold while
    either side has fewer calls than ``min_samples``. Otherwise promote.
    """
    t = thresholds
    if overall.canary.calls < t.min_samples or overall.stable.calls < t.min_samples:
        return Recommendation(
            "hold",
            f"too few samples: canary {overall.canary.calls}, stable {overall.stable.calls} "
            f"calls (need {t.min_samples} each)",
        )
    for cmp in [overall, *tools]:
        if cmp.canary.calls < t.min_samples or cmp.stable.calls < t.min_samples:
            continue
        if cmp.success_drop > t.max_success_drop and cmp.p_value < t.p_value:
            where = "all tools" if cmp.tool == ALL_TOOLS else f"tool {cmp.tool}"
            return Recommendation(
                "rollback",
                f"{where}: canary success {_pct(cmp.canary.success_rate)} vs stable "
                f"{_pct(cmp.stable.success_rate)} (p = {cmp.p_value:.4f} < {t.p_value})",
            )
    slow = overall.stable.latency_p95 * t.max_p95_ratio
    if overall.stable.latency_p95 > 0 and overall.canary.latency_p95 > slow:
        return Recommendation(
            "rollback",
            f"canary p95 latency {overall.canary.latency_p95:.0f} ms is over "
            f"{t.max_p95_ratio:g}× stable's {overall.stable.latency_p95:.0f} ms",
        )
    return Recommendation(
        "promote",
        f"canary healthy: success {_pct(overall.canary.success_rate)} vs stable "
        f"{_pct(overall.stable.success_rate)} over {overall.canary.calls} canary calls",
    )


def guard_report(
    outcomes: Iterable[Outcome],
    stable_version: str,
    canary_version: str,
    thresholds: GuardThresholds | None = None,
) -> GuardReport:
    """Compare ``canary_version`` with ``stable_version`` over ``outcomes`` (one registry)."""
    thresholds = thresholds or GuardThresholds()
    metrics = version_metrics(o for o in outcomes if o.version in (stable_version, canary_version))

    def get(version: str, tool: str) -> Metrics:
        return metrics.get((version, tool)) or summarize(version, tool, ())

    overall = compare(get(stable_version, ALL_TOOLS), get(canary_version, ALL_TOOLS))
    names = sorted({tool for _, tool in metrics if tool != ALL_TOOLS})
    tools = [compare(get(stable_version, n), get(canary_version, n)) for n in names]
    if stable_version == canary_version:
        rec = Recommendation("hold", "canary and stable serve the same version")
    else:
        rec = recommend(overall, tools, thresholds)
    return GuardReport(stable_version, canary_version, overall, tools, rec)


def guard_for_registry(
    store: RegistryStore,
    registry: str,
    thresholds: GuardThresholds | None = None,
    *,
    canary_channel: str = "canary",
) -> GuardReport | None:
    """The guard report of ``registry``'s canary against its stable; None without a canary."""
    from studio.release.channels import release_state

    state = release_state(store, registry)
    canary = state.channel(canary_channel)
    if canary.version is None or state.stable_version is None:
        return None
    sessions = SessionStore.for_store(store)
    stable_v, canary_v = str(state.stable_version), str(canary.version)
    rows = sessions.outcomes(registry, stable_v) + sessions.outcomes(registry, canary_v)
    return guard_report(rows, stable_v, canary_v, thresholds)


@dataclass(frozen=True, slots=True)
class TimePoint:
    """Success rate and latency of one version in one time bucket (for charts)."""

    version: str
    period: str
    calls: int
    success_rate: float
    latency_p50: float
    latency_p95: float


def metrics_over_time(outcomes: Iterable[Outcome], *, period_chars: int = 13) -> list[TimePoint]:
    """Per version and period: success rate and latency, ordered by period then version.

    Args:
        outcomes: Outcomes of one registry.
        period_chars: How much of the ISO timestamp names a period: 13 for
            hours (``2025-05-01T09``), 10 for days, 16 for minutes.
    """
    groups: dict[tuple[str, str], list[Outcome]] = defaultdict(list)
    for o in outcomes:
        groups[(o.created_at[:period_chars], o.version)].append(o)
    points = []
    for (period, version), rows in sorted(groups.items()):
        m = summarize(version, ALL_TOOLS, rows)
        points.append(
            TimePoint(version, period, m.calls, m.success_rate, m.latency_p50, m.latency_p95)
        )
    return points
