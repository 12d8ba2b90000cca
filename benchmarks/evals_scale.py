"""Eval runner at scale: 1,000 cases × 2 variants against the loopback model server.

Run: ``python benchmarks/evals_scale.py [--cases 1000] [--concurrency 16] [--delay-ms 0]``.

Targets (issue #12): at concurrency 16, the runner adds ≤ 1 ms per request
beyond the model's time, the whole run takes ≤ 30 s on a 2-core machine, and
the studio process stays ≤ 300 MB.

The model is ``tests/evals/loopback_model.py`` in a separate process (so its
work is not counted as the runner's), answering in both streamed and plain
form as configured; the cases are the example set's 67 cases repeated with
distinct ids and wording until there are ``--cases`` of them, run against the
example registry's terse version 1 and its full draft. Reported:

- the runner's own time per request: building the request and its cache key,
  scoring raw and after the pipeline, storing attempts and cached answers
  (measured around each of these, summed, divided by the requests);
- the wall time per request beyond the model: (wall − Σ model time / concurrency)
  / requests: how much longer the run takes, per request, than the model alone
  would at this concurrency (it also counts the HTTP client and the event loop);
- the whole run's wall time, peak RSS, and a second run of the same requests
  (every answer from the cache).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from registry_db import RegistryStore, seed_examples  # noqa: E402
from studio.evals.runner import EvalRunner, RunOptions, selection_accuracy  # noqa: E402
from studio.evals.store import EvalStore  # noqa: E402
from studio.evals.variants import resolve_variant  # noqa: E402
from studio.providers import ModelParams, ModelProfile, ProviderKind  # noqa: E402

REGISTRY = "travel-reimbursement"
TERSE = {
    "search_policy": "Search data.",
    "query_invoices": "Query records.",
    "query_tickets": "Query records.",
    "create_reimbursement_ticket": "Create a record.",
}
_SUFFIXES = ("", " please", " 谢谢", " thanks", " 麻烦了", " asap", " 急", " now")


def start_server(delay_ms: float) -> tuple[subprocess.Popen[str], str]:
    """The loopback model in its own process; returns it and its base URL."""
    child = subprocess.Popen(
        [sys.executable, str(ROOT / "tests" / "evals" / "loopback_model.py"),
         "--delay-ms", str(delay_ms)],
        stdout=subprocess.PIPE, text=True, cwd=ROOT,
    )  # fmt: skip
    assert child.stdout is not None
    line = child.stdout.readline().split()
    if not line or line[0] != "ready":
        child.kill()
        raise SystemExit("the loopback model did not start")
    return child, line[1]


def prepare(path: Path, count: int) -> None:
    """Seed the example, publish its terse version 1, and store ``count`` cases."""
    with RegistryStore.open(path) as store:
        seed_examples(store)
        good = store.draft_registry(REGISTRY)
        tools = tuple(
            dataclasses.replace(t, title="", summary=TERSE[t.name], usage="", preconditions="",
                                returns="", errors=(), examples=(), description="")
            for t in good.tools
        )  # fmt: skip
        store.replace_draft(REGISTRY, dataclasses.replace(good, tools=tools))
        store.publish(REGISTRY, notes="terse", semver="1.0.0")
        store.replace_draft(REGISTRY, good)
        core = EvalStore(store).load(REGISTRY, "core").cases
        cases = []
        for i in range(count):
            base = core[i % len(core)]
            round_ = i // len(core)
            suffix = _SUFFIXES[round_ % len(_SUFFIXES)] + (f" #{round_}" if round_ >= 8 else "")
            cases.append(dataclasses.replace(base, id=f"{base.id}-{i}", user=base.user + suffix))
        EvalStore(store).save_cases(REGISTRY, "scale", cases)


async def run_once(path: Path, base_url: str, concurrency: int, run_id: str) -> dict[str, float]:
    with RegistryStore.open(path) as store:
        eval_set = EvalStore(store).load(REGISTRY, "scale")
        variants = [resolve_variant(store, REGISTRY, "1", "A"),
                    resolve_variant(store, REGISTRY, "draft", "B")]  # fmt: skip
        profile = ModelProfile("loop", ProviderKind.OPENAI_CHAT, base_url, "loopback",
                               "LOOPBACK_KEY", ModelParams(stream=True))  # fmt: skip
        runner = EvalRunner(store, REGISTRY, eval_set, variants, [profile],
                            RunOptions(concurrency=concurrency), run_id=run_id)  # fmt: skip
        started = time.perf_counter()
        summary = await runner.run()
        wall = time.perf_counter() - started
        p = summary.progress
        accuracy = selection_accuracy(summary.attempts)
    requests = max(1, p.requests)
    beyond = (wall * 1000 - p.model_ms / concurrency) / max(1, p.done - p.resumed)
    return {
        "wall_s": wall,
        "attempts": p.done,
        "requests": p.requests,
        "cached": p.cached,
        "runner_ms_per_request": p.overhead_ms / max(1, p.done - p.resumed),
        "wall_beyond_model_ms_per_request": beyond,
        "model_ms_mean": p.model_ms / requests,
        "accuracy_a": float(accuracy[f"{REGISTRY}@1"]["selection"]),
        "accuracy_b": float(accuracy[f"{REGISTRY}@draft"]["selection"]),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--delay-ms", type=float, default=0.0, help="the model's thinking time")
    args = parser.parse_args()
    os.environ["LOOPBACK_KEY"] = "sk-loopback"
    server, base_url = start_server(args.delay_ms)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "evals_scale.sqlite3"
            prepare(path, args.cases)
            first = asyncio.run(run_once(path, base_url, args.concurrency, "scale-1"))
            second = asyncio.run(run_once(path, base_url, args.concurrency, "scale-2"))
    finally:
        server.kill()
        server.wait()
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    n = first["attempts"]
    print(f"{args.cases} cases × 2 variants = {n} attempts, concurrency {args.concurrency}, "
          f"model delay {args.delay_ms:g} ms")  # fmt: skip
    print(f"first run: {first['wall_s']:.2f} s wall (target ≤ 30 s), {first['requests']} requests, "
          f"mean model time {first['model_ms_mean']:.2f} ms")  # fmt: skip
    print(
        f"  runner's own time per request: {first['runner_ms_per_request']:.3f} ms "
        "(build + cache key + score raw and after the pipeline + store; target ≤ 1 ms)"
    )
    print(
        f"  wall beyond the model per request (incl. HTTP client, event loop): "
        f"{first['wall_beyond_model_ms_per_request']:.3f} ms"
    )
    print(
        f"  selection accuracy: version 1 (terse) {first['accuracy_a']:.1%}, "
        f"draft {first['accuracy_b']:.1%}"
    )
    print(f"second run (all cached): {second['wall_s']:.2f} s wall, {second['requests']} requests, "
          f"{second['cached']} from the cache, "
          f"{second['runner_ms_per_request']:.3f} ms runner time per attempt")  # fmt: skip
    print(f"peak RSS of the studio process: {peak_mb:.0f} MB (target ≤ 300 MB)")
    ok = first["wall_s"] <= 30 and first["runner_ms_per_request"] <= 1 and peak_mb <= 300
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
