"""Release scale benchmark: bucketing throughput, resolve endpoint on loopback, diff.

Run: ``python benchmarks/release_scale.py [--subjects 1000000] [--requests 4000]``

Targets (issue #6):
- bucketing ≥ 500,000 subjects/s;
- the resolve endpoint on loopback ≥ 2,000 requests/s with p99 ≤ 20 ms;
- diff of two 1,000-tool versions ≤ 300 ms (measured when ``studio.diff`` exists).
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from registry_db import RegistryStore, UpsertTool
from studio.release import buckets, set_canary
from studio.server import ServerThread

TARGETS = {"bucketing_per_s": 500_000, "resolve_rps": 2_000, "resolve_p99_ms": 20.0}


def bench_bucketing(count: int) -> float:
    subjects = [f"user-{i}" for i in range(count)]
    start = time.perf_counter()
    buckets("a1b2c3d4e5f6a7b8", subjects)
    return count / (time.perf_counter() - start)


def _store(tmp: Path) -> RegistryStore:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from registry_scale import generated_registry

    store = RegistryStore.open(tmp / "bench.sqlite3")
    registry = generated_registry(50, "bench")
    store.import_registry(registry)
    store.publish("bench")
    tool = registry.tools[0]
    row = next(t for t in store.draft_tools("bench") if t.tool.name == tool.name)
    changed = dataclasses.replace(tool, summary=tool.summary + " Changed.")
    store.save_draft("bench", [UpsertTool(changed, row.id, row.revision)])
    store.publish("bench")
    set_canary(store, "bench", version=2, share=10, who="bench")
    return store


def bench_resolve(requests: int, workers: int) -> tuple[float, float, float]:
    with tempfile.TemporaryDirectory() as tmp:
        store = _store(Path(tmp))
        with ServerThread(store) as server:
            latencies: list[float] = []
            lock = threading.Lock()

            def work(offset: int) -> None:
                mine = []
                with httpx.Client(base_url=server.url) as http:
                    for i in range(offset, requests, workers):
                        t0 = time.perf_counter()
                        params = {"subject": f"user-{i}", "format": "openai"}
                        r = http.get("/v1/registries/bench/resolve", params=params)
                        r.raise_for_status()
                        mine.append((time.perf_counter() - t0) * 1000)
                with lock:
                    latencies.extend(mine)

            threads = [threading.Thread(target=work, args=(w,)) for w in range(workers)]
            start = time.perf_counter()
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            elapsed = time.perf_counter() - start
        store.close()
    latencies.sort()
    p99 = latencies[int(len(latencies) * 0.99) - 1]
    return len(latencies) / elapsed, statistics.median(latencies), p99


def bench_diff() -> float | None:
    try:
        from studio.diff import diff_registries
    except ImportError:
        return None
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from registry_scale import generated_registry

    a = generated_registry(1000, "a")
    b = generated_registry(1000, "a")
    tools = list(b.tools)
    for i in range(0, len(tools), 10):
        tools[i] = dataclasses.replace(tools[i], summary=tools[i].summary + " New.")
    b = dataclasses.replace(b, tools=tuple(tools))
    start = time.perf_counter()
    diff_registries(a, b, lint_profile=None)
    return (time.perf_counter() - start) * 1000


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--subjects", type=int, default=1_000_000)
    parser.add_argument("--requests", type=int, default=4000)
    parser.add_argument("--workers", type=int, default=8)
    args = parser.parse_args()
    rate = bench_bucketing(args.subjects)
    print(f"bucketing: {rate:,.0f} subjects/s (target ≥ {TARGETS['bucketing_per_s']:,})")
    rps, p50, p99 = bench_resolve(args.requests, args.workers)
    print(f"resolve: {rps:,.0f} requests/s, p50 {p50:.2f} ms, p99 {p99:.2f} ms "
          f"(targets ≥ {TARGETS['resolve_rps']:,}/s, p99 ≤ {TARGETS['resolve_p99_ms']} ms; "
          f"{args.workers} client threads)")  # fmt: skip
    diff_ms = bench_diff()
    if diff_ms is not None:
        print(f"diff of two 1,000-tool versions (no lint delta): {diff_ms:.0f} ms (target ≤ 300)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
