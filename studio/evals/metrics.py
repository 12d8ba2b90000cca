"""Metrics of an eval run, computed from its attempts (issue #12, part 4).

Everything here is a pure function of a list of :class:`~studio.evals.results.Attempt`
and runs in one pass per group, so a report over 10,000 attempts stays well under
the 200 ms the issue asks for (``benchmarks/evals_report_scale.py``).

Definitions (all shares are over *scored* attempts unless said otherwise; errors
and skipped attempts are counted, never scored):

- **selection**: the model chose the right tool(s) (``raw.selection_passed``);
- **arguments raw**: the whole case passed on the model's own calls (right
  tool(s) *and* arguments, ``raw.passed``);
- **arguments after the pipeline**: the same on the calls after the runtime's
  argument pipeline (``pipeline.passed``) — what would actually execute;
  **arguments given selection** is the same among attempts whose tool choice was
  right (how well a chosen tool is filled, apart from choosing it);
- **repaired**: share of pipeline calls the pipeline had to change;
  **invalid**: pipeline calls that still failed the schema after repair;
- **abstention**: among cases expecting no tool or a question, the share where
  the model called no tool;
- **pass^k** (tau-bench): for a case with *n* repetitions of which *c* passed,
  C(c, k) / C(n, k) — the chance that *k* independent tries *all* pass;
  **pass@k**: 1 − C(n − c, k) / C(n, k) — the chance that *at least one* passes;
  both averaged over cases, on the after-pipeline outcome;
- **cost** C = N · t̄ · R: N tool calls per task (at least 1: the answer itself),
  t̄ mean tokens per call, R rounds (1 in single-turn mode). An attempt's tokens
  already add up every request it made, so C is the mean tokens per task; the
  parts are reported so the decomposition can be read. Priced with an optional
  per-profile :class:`Price`.
- **latency** p50/p95: of attempts that reached the model (cached answers left out).
- **end-to-end** and **grounding**: multi-step mode only, None when not measured;
  **false success**: of the multi-step answers after a failed tool call, the share that
  answered as if it had succeeded.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from studio.evals.results import (
    ASKED,
    NO_TOOL,
    STATUS_SCORED,
    STATUS_SKIPPED,
    Attempt,
)

ABSTAIN = frozenset((NO_TOOL, ASKED))


@dataclass(frozen=True, slots=True)
class Price:
    """What a profile's tokens cost, in a currency per million tokens."""

    input_per_mtok: float
    output_per_mtok: float
    currency: str = "USD"

    def cost(self, tokens_in: float, tokens_out: float) -> float:
        return (tokens_in * self.input_per_mtok + tokens_out * self.output_per_mtok) / 1e6


def parse_price(text: str) -> tuple[str, Price]:
    """``PROFILE=IN/OUT`` (per million tokens, e.g. ``gpt=2.5/10``) as a profile and price.

    Raises:
        ValueError: not in that form, with what was given.
    """
    profile, sep, rest = text.partition("=")
    inp, slash, out = rest.partition("/")
    try:
        if not sep or not slash or not profile:
            raise ValueError
        price = Price(float(inp), float(out))
    except ValueError:
        raise ValueError(
            f"a price is PROFILE=IN/OUT in money per million tokens (e.g. gpt=2.5/10), not {text!r}"
        ) from None
    if (
        price.input_per_mtok < 0
        or price.output_per_mtok < 0
        or not all(math.isfinite(v) for v in (price.input_per_mtok, price.output_per_mtok))
    ):
        raise ValueError(f"a price must be a finite number ≥ 0, not {text!r}")
    return profile, price


@dataclass(frozen=True, slots=True)
class ToolScore:
    """Precision, recall and F1 of one tool over expected vs chosen."""

    tool: str
    support: int  # attempts expecting it
    true_positive: int
    false_positive: int
    false_negative: int

    @property
    def precision(self) -> float | None:
        chosen = self.true_positive + self.false_positive
        return self.true_positive / chosen if chosen else None

    @property
    def recall(self) -> float | None:
        return self.true_positive / self.support if self.support else None

    @property
    def f1(self) -> float | None:
        p, r = self.precision, self.recall
        if p is None or r is None or p + r == 0:
            return None if p is None or r is None else 0.0
        return 2 * p * r / (p + r)


@dataclass(frozen=True, slots=True)
class Confusion:
    """Expected vs chosen counts; labels are tools (sorted), then no tool and asked."""

    labels: tuple[str, ...]
    counts: Mapping[tuple[str, str], int]

    def count(self, expected: str, chosen: str) -> int:
        return self.counts.get((expected, chosen), 0)

    def row_total(self, expected: str) -> int:
        return sum(n for (e, _), n in self.counts.items() if e == expected)

    def off_diagonal(self) -> list[tuple[str, str, int]]:
        """The confusions, most frequent first: (expected, chosen, count)."""
        pairs = [(e, c, n) for (e, c), n in self.counts.items() if e != c]
        return sorted(pairs, key=lambda t: (-t[2], t[0], t[1]))


@dataclass(frozen=True, slots=True)
class Cost:
    """Tokens per task and C = N · t̄ · R, priced when a price is known."""

    tokens_in_per_case: float
    tokens_out_per_case: float
    calls_per_task: float  # N
    tokens_per_call: float  # t̄
    rounds: float  # R
    per_case: float | None  # money, None without a price
    per_1000_cases: float | None
    currency: str = ""

    @property
    def tokens_per_task(self) -> float:
        return self.calls_per_task * self.tokens_per_call * self.rounds


@dataclass(frozen=True, slots=True)
class Metrics:
    """The metrics of one group of attempts (usually one variant × profile)."""

    attempts: int
    scored: int
    errors: int
    skipped: int
    cases: int
    repetitions: int
    selection: float | None
    arguments_raw: float | None
    arguments_pipeline: float | None
    arguments_given_selection: float | None
    repaired_share: float | None
    invalid_calls: int
    calls: int
    abstention: float | None
    abstention_cases: int
    pass_hat_k: dict[int, float]
    pass_at_k: dict[int, float]
    cost: Cost
    latency_p50_ms: float | None
    latency_p95_ms: float | None
    end_to_end: float | None
    grounded: float | None
    confusion: Confusion
    tools: tuple[ToolScore, ...]
    cached: int = 0
    error_messages: tuple[tuple[str, int], ...] = field(default=())
    false_success: float | None = None
    false_success_cases: int = 0


def _share(hits: int, total: int) -> float | None:
    return hits / total if total else None


def percentile(values: Sequence[float], q: float) -> float | None:
    """The ``q``-th percentile (0-100) with linear interpolation (numpy's default)."""
    if not values:
        return None
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100
    low = math.floor(pos)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


def pass_hat_k(n: int, c: int, k: int) -> float:
    """tau-bench's pass^k for one case: C(c, k) / C(n, k)."""
    return math.comb(c, k) / math.comb(n, k)


def pass_at_k(n: int, c: int, k: int) -> float:
    """pass@k for one case: 1 − C(n − c, k) / C(n, k)."""
    return 1 - math.comb(n - c, k) / math.comb(n, k)


def _labels(expected: Iterable[str], chosen: Iterable[str]) -> tuple[str, ...]:
    names = set(expected) | set(chosen)
    tools = sorted(n for n in names if n not in ABSTAIN)
    return (*tools, NO_TOOL, ASKED)


def tool_scores(confusion: Confusion) -> tuple[ToolScore, ...]:
    """Per-tool precision/recall/F1 from a confusion matrix (tools only, not abstentions)."""
    support: Counter[str] = Counter()
    chosen: Counter[str] = Counter()
    hits: Counter[str] = Counter()
    for (e, c), n in confusion.counts.items():
        support[e] += n
        chosen[c] += n
        if e == c:
            hits[e] += n
    out = []
    for tool in confusion.labels:
        if tool in ABSTAIN:
            continue
        tp = hits[tool]
        out.append(ToolScore(tool, support[tool], tp, chosen[tool] - tp, support[tool] - tp))
    return tuple(out)


def compute(attempts: Iterable[Attempt], price: Price | None = None) -> Metrics:
    """The metrics of ``attempts`` taken as one group (see the module docstring)."""
    n_attempts = errors = skipped = scored = cached = 0
    selection = args_raw = args_pipe = pipe_selection = 0
    calls = repaired = invalid = 0
    abst_total = abst_hits = 0
    e2e_total = e2e_hits = grd_total = grd_hits = fs_total = fs_hits = 0
    tokens_in = tokens_out = 0
    tool_calls = 0
    latencies: list[float] = []
    confusion: Counter[tuple[str, str]] = Counter()
    per_case: dict[str, list[int]] = {}  # case → [tries, passed]
    error_messages: Counter[str] = Counter()
    case_ids: set[str] = set()
    for a in attempts:
        n_attempts += 1
        case_ids.add(a.case_id)
        raw, pipe = a.raw, a.pipeline
        if a.status != STATUS_SCORED or raw is None or pipe is None:
            if a.status == STATUS_SKIPPED:
                skipped += 1
            else:
                errors += 1  # an error, or "scored" without scores (counted, not hidden)
                error_messages[a.error or "unscored"] += 1
            continue
        scored += 1
        selection += raw.selection_passed
        args_raw += raw.passed
        args_pipe += pipe.passed
        pipe_selection += pipe.selection_passed
        record = per_case.get(a.case_id)
        if record is None:
            record = per_case[a.case_id] = [0, 0]
        record[0] += 1
        record[1] += pipe.passed
        for call in a.pipeline_calls:
            calls += 1
            repaired += call.repaired
            invalid += call.invalid
        tool_calls += len(a.raw_calls)
        if a.expected in ABSTAIN:
            abst_total += 1
            abst_hits += a.chosen in ABSTAIN
        confusion[(a.expected, a.chosen)] += 1
        if a.end_to_end is not None:
            e2e_total += 1
            e2e_hits += a.end_to_end
        if a.grounded is not None:
            grd_total += 1
            grd_hits += a.grounded
        false_success = getattr(a, "false_success", None)  # added to the record in multi-step
        if false_success is not None:
            fs_total += 1
            fs_hits += false_success
        tokens_in += a.tokens_in
        tokens_out += a.tokens_out
        if a.cached:
            cached += 1
        else:
            latencies.append(a.latency_ms)

    labels = _labels((e for e, _ in confusion), (c for _, c in confusion))
    matrix = Confusion(labels, dict(confusion))
    # Cases share few (tries, passed) pairs: each is computed once, weighted by its count.
    outcomes = Counter((n, c) for n, c in per_case.values())
    reps = max((n for n, _ in outcomes), default=0)
    k_max = min((n for n, _ in outcomes), default=0)
    hat: dict[int, float] = {}
    at: dict[int, float] = {}
    for k in range(1, k_max + 1):
        hat[k] = sum(pass_hat_k(n, c, k) * w for (n, c), w in outcomes.items()) / len(per_case)
        at[k] = sum(pass_at_k(n, c, k) * w for (n, c), w in outcomes.items()) / len(per_case)
    return Metrics(
        attempts=n_attempts,
        scored=scored,
        errors=errors,
        skipped=skipped,
        cases=len(case_ids),
        repetitions=reps,
        selection=_share(selection, scored),
        arguments_raw=_share(args_raw, scored),
        arguments_pipeline=_share(args_pipe, scored),
        arguments_given_selection=_share(args_pipe, pipe_selection),
        repaired_share=_share(repaired, calls),
        invalid_calls=invalid,
        calls=calls,
        abstention=_share(abst_hits, abst_total),
        abstention_cases=abst_total,
        pass_hat_k=hat,
        pass_at_k=at,
        cost=_cost(scored, tokens_in, tokens_out, tool_calls, e2e_total, price),
        latency_p50_ms=percentile(latencies, 50),
        latency_p95_ms=percentile(latencies, 95),
        end_to_end=_share(e2e_hits, e2e_total),
        grounded=_share(grd_hits, grd_total),
        confusion=matrix,
        tools=tool_scores(matrix),
        cached=cached,
        error_messages=tuple(error_messages.most_common(5)),
        false_success=_share(fs_hits, fs_total),
        false_success_cases=fs_total,
    )


def _cost(
    scored: int, tokens_in: int, tokens_out: int, tool_calls: int, multi_step: int,
    price: Price | None,
) -> Cost:  # fmt: skip
    if not scored:
        return Cost(0.0, 0.0, 0.0, 0.0, 0.0, None, None)
    t_in, t_out = tokens_in / scored, tokens_out / scored
    n = max(1.0, tool_calls / scored)
    # Single-turn mode is one round by construction; in multi-step mode each tool
    # call is answered by another model turn, so the calls already are the rounds.
    rounds = 1.0
    per_call = (t_in + t_out) / (n * rounds)
    money = price.cost(t_in, t_out) if price else None
    return Cost(
        t_in, t_out, n, per_call, rounds, money,
        None if money is None else money * 1000, price.currency if price else "",
    )  # fmt: skip


def group_key(a: Attempt) -> tuple[str, str]:
    """How reports group attempts: (variant, profile)."""
    return (a.variant, a.profile)


def compute_groups(
    attempts: Iterable[Attempt], prices: Mapping[str, Price] | None = None
) -> dict[tuple[str, str], Metrics]:
    """Metrics per (variant, profile), in first-seen order."""
    groups: dict[tuple[str, str], list[Attempt]] = {}
    for a in attempts:
        key = (a.variant, a.profile)  # group_key, inlined: this loop sees every attempt
        group = groups.get(key)
        if group is None:
            group = groups[key] = []
        group.append(a)
    prices = prices or {}
    return {key: compute(items, prices.get(key[1])) for key, items in groups.items()}
