"""Eval report scale: metrics, confusion matrix and A vs B of 10,000 attempts.

Run: ``python benchmarks/evals_report_scale.py [--attempts 10000] [--tools 40] [--repeat 5]``

Builds synthetic attempts (two variants × N/2 cases, 40 tools, a fifth of the
answers on a confusable neighbour, some abstentions and errors) and times, best
of ``--repeat``:

- the report's metrics and confusion matrix for every variant (pure Python);
- the A vs B comparison (pairing, exact McNemar, 2,000-sample paired bootstrap);
- rendering it as text, JSON, JUnit XML, Markdown and HTML;
- for information: loading the 10,000 attempts of a stored run from SQLite.

Target (issue #12): report and confusion matrix of 10,000 results ≤ 200 ms.
"""

from __future__ import annotations

import argparse
import functools
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from studio.evals.compare import build_report
from studio.evals.metrics import compute_groups
from studio.evals.report import FORMATS, render
from studio.evals.results import ASKED, NO_TOOL, Attempt, AttemptCall, Score
from studio.evals.stats import compare

TARGET_MS = 200.0


def synthetic(n: int, tools: int, seed: int = 7) -> list[Attempt]:
    rng = random.Random(seed)
    names = [f"tool_{i:02d}" for i in range(tools)]
    out = []
    for i in range(n // 2):
        expected = rng.choice([*names, NO_TOOL, ASKED]) if i % 10 == 0 else rng.choice(names)
        for variant, skill in (("A", 0.70), ("B", 0.80)):
            if rng.random() < 0.01:
                out.append(Attempt("r", f"c{i}", variant, "m", 0, "error", error="HTTP 503"))
                continue
            right = rng.random() < skill
            chosen = expected if right else rng.choice([*names, NO_TOOL])
            args_ok = right and rng.random() < 0.9
            repaired = rng.random() < 0.1
            calls = () if chosen in (NO_TOOL, ASKED) else (
                AttemptCall(chosen, {"id": i}, "c", repaired=repaired, invalid=not args_ok),
            )  # fmt: skip
            fail = () if args_ok else (f"expected {expected}, called {chosen}",)
            out.append(
                Attempt(
                    "r",
                    f"c{i}",
                    variant,
                    "m",
                    0,
                    "scored",
                    chosen=chosen,
                    expected=expected,
                    raw_calls=calls,
                    pipeline_calls=calls,
                    raw=Score(args_ok and not repaired, right, args_ok, fail),
                    pipeline=Score(args_ok, right, args_ok, fail),
                    tokens_in=rng.randint(800, 1400),
                    tokens_out=rng.randint(20, 80),
                    latency_ms=rng.uniform(200, 900),
                )
            )
    return out


def best_ms(fn: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best * 1000


def load_ms(attempts: list[Attempt]) -> float:
    """Time to read a stored run of these attempts back (a temporary database)."""
    from registry_db import RegistryStore, seed_examples
    from registry_db.eval_runs import EvalRunStore
    from studio.evals.runs import attempt_row, load_attempts

    with tempfile.TemporaryDirectory() as tmp, RegistryStore.open(Path(tmp) / "b.sqlite3") as store:
        seed_examples(store)
        runs = EvalRunStore.for_store(store)
        runs.open_run("r", "travel-reimbursement", "bench", {})
        runs.put_attempts("r", [attempt_row(a) for a in attempts])
        start = time.perf_counter()
        loaded = load_attempts(store, "r")
        elapsed = (time.perf_counter() - start) * 1000
        assert len(loaded) == len(attempts)
        return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--attempts", type=int, default=10_000)
    parser.add_argument("--tools", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    attempts = synthetic(args.attempts, args.tools)
    a = [x for x in attempts if x.variant == "A"]
    b = [x for x in attempts if x.variant == "B"]
    compare(a[:10], b[:10])  # numpy imported once, outside the timing
    metrics_ms = best_ms(lambda: compute_groups(attempts), args.repeat)
    compare_ms = best_ms(lambda: compare(a, b), args.repeat)
    report_ms = best_ms(lambda: build_report(a, b, title="bench"), args.repeat)
    report = build_report(a, b, title="bench")
    print(f"{len(attempts):,} attempts, {args.tools} tools, best of {args.repeat}")
    print(f"  metrics + confusion (2 variants)   {metrics_ms:7.1f} ms")
    print(f"  A vs B (McNemar, bootstrap 2,000)  {compare_ms:7.1f} ms")
    print(f"  whole report (both of the above)   {report_ms:7.1f} ms   target ≤ {TARGET_MS:.0f} ms")
    for fmt in FORMATS:
        ms = best_ms(functools.partial(render, report, fmt), args.repeat)
        print(f"  render {fmt:<6}                      {ms:7.1f} ms")
    print(f"  load 10,000 stored attempts         {load_ms(attempts):7.1f} ms   (SQLite, once)")
    ok = report_ms <= TARGET_MS
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
