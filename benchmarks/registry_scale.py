"""Registry scale benchmark: import, save, publish, export, cold start, memory.

Run: ``python benchmarks/registry_scale.py [--sizes 1000 10000] [--repeat 5]``

Targets on the 2-core reference machine (issue #2):
- publish of 1,000 tools ≤ 300 ms;
- cold start with a 1,000-tool registry to a painted main window ≤ 1.5 s;
- resident memory of that window ≤ 300 MB.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from registry_db import RegistryStore
from studio.contract import Registry, RiskTier, registry_to_dict
from studio.editing import DraftWorkspace, EditTool, SetField
from studio.formats import export_registry, import_text, write_export

TARGETS = {
    "publish_1000_ms": 300.0,
    "cold_start_1000_s": 1.5,
    "rss_1000_mb": 300.0,
    "save_one_10k_vs_1k": 1.5,  # issue #16: saving one tool costs the same at any size
}

VERBS = ("get", "list", "query", "search", "create", "update", "delete", "send")
NOUNS = ("invoice", "ticket", "order", "policy", "refund", "user", "stock", "trip", "receipt")


def generated_registry(size: int, name: str = "scale") -> Registry:
    """A registry of ``size`` realistic tools (blocks, 5 parameters, enums, aliases)."""
    doc_tools = []
    for i in range(size):
        verb, noun = VERBS[i % len(VERBS)], NOUNS[(i // len(VERBS)) % len(NOUNS)]
        risk = RiskTier.READ if verb in ("get", "list", "query", "search") else RiskTier.WRITE
        doc_tools.append(
            {
                "name": f"{verb}_{noun}_{i}",
                "title": f"{verb.title()} {noun} #{i}",
                "summary": f"{verb.title()} {noun} records of the signed-in employee.",
                "usage": f"Use for {noun} questions. Not for tickets: use query_ticket_{i}.",
                "preconditions": "The employee is signed in.",
                "returns": f"A list of {noun} objects with id, amount and date.",
                "errors": [{"code": "NOT_FOUND", "meaning": "no match", "hint": "widen"}],
                "examples": [
                    {"description": "last week", "arguments": {"start_date": "2026-11-01"}}
                ],
                "parameters": {
                    "type": "object",
                    "properties": {
                        "start_date": {
                            "type": "string",
                            "format": "date",
                            "description": "YYYY-MM-DD",
                            "x-aliases": ["startDate", "from"],
                        },
                        "end_date": {
                            "type": "string",
                            "format": "date",
                            "description": "YYYY-MM-DD",
                        },
                        "category": {
                            "type": "string",
                            "enum": ["taxi", "hotel", "train", "flight"],
                            "x-enum-aliases": {"出租车": "taxi"},
                        },
                        "limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 20},
                        "employee_id": {"type": "string", "x-injected": "session.employee_id"},
                    },
                    "required": ["start_date", "end_date"],
                    "additionalProperties": False,
                },
                "risk": risk.value,
                "permissions": [{"role": "employee", "scenario": "reimbursement"}],
                "tags": [noun],
            }
        )
    text = json.dumps({"name": name, "title": f"{size} tools", "tools": doc_tools})
    return import_text(text, "studio").registry


def timed(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    """Median and best wall time in milliseconds over ``repeat`` runs."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), min(times)


COLD_START_CHILD = r"""
import sys, time
from studio.ui.app import benchmark_cold_start
rss = benchmark_cold_start(sys.argv[1], sys.argv[2])
print(f"{time.time():.6f} {rss:.1f}")
"""


def cold_start(db: Path, registry: str, repeat: int) -> tuple[float, float]:
    """Median seconds from process launch to a painted main window, and max RSS (MB).

    The child prints the wall-clock time right after the window's first paint;
    the difference to the launch time includes interpreter start-up and every
    import, which is what a user waits for.
    """
    env = dict(os.environ, QT_QPA_PLATFORM=os.environ.get("QT_QPA_PLATFORM", "offscreen"))
    walls, rss = [], []
    for _ in range(repeat):
        launched = time.time()
        out = subprocess.run(
            [sys.executable, "-c", COLD_START_CHILD, str(db), registry],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        ).stdout.split()
        walls.append(float(out[0]) - launched)
        rss.append(float(out[1]))
    return statistics.median(walls), max(rss)


def run(size: int, repeat: int, workdir: Path) -> dict[str, float]:
    """All measurements for one registry size."""
    results: dict[str, float] = {}
    registry = generated_registry(size)
    text = json.dumps(registry_to_dict(registry), ensure_ascii=False)
    results["document_mb"] = len(text.encode()) / 1e6

    t, _ = timed(lambda: import_text(text, "studio"), max(1, repeat // 2))
    results["parse_import_ms"] = t

    # Import timing writes copies under other names into a scratch database, so
    # the database the cold start opens holds exactly the one measured registry.
    scratch = RegistryStore.open(workdir / f"scratch-{size}.sqlite3")
    counter = iter(range(10**9))

    def store_import() -> None:
        scratch.import_registry(dataclasses.replace(registry, name=f"imp{next(counter)}"))

    results["store_import_ms"], _ = timed(store_import, max(1, repeat // 2))
    scratch.close()
    db = workdir / f"scale-{size}.sqlite3"
    store = RegistryStore.open(db)
    store.import_registry(registry)

    ws = DraftWorkspace.load(store, registry.name)

    def save_one() -> None:
        entry = ws.entries[size // 2]
        ws.run(EditTool(entry.key, SetField("summary", f"edited {time.perf_counter()}")))
        ws.save(store)

    results["save_one_tool_ms"], _ = timed(save_one, repeat)

    def save_all() -> None:
        stamp = f"bulk {time.perf_counter()}"
        for entry in ws.entries:
            ws.run(EditTool(entry.key, SetField("title", stamp)))
        ws.save(store)

    results["save_all_tools_ms"], _ = timed(save_all, max(1, repeat // 2))
    results["load_draft_ms"], _ = timed(lambda: DraftWorkspace.load(store, registry.name), repeat)
    results["publish_ms"], results["publish_best_ms"] = timed(
        lambda: store.publish(registry.name, notes="bench"), repeat
    )
    number = store.latest_version(registry.name).number  # type: ignore[union-attr]
    results["load_version_ms"], _ = timed(lambda: store.load_version(registry.name, number), repeat)
    for fmt in ("openai", "anthropic", "mcp"):
        results[f"export_{fmt}_ms"], _ = timed(lambda f=fmt: export_registry(registry, f), repeat)
    out = workdir / f"dir-{size}"

    def export_dir() -> None:
        write_export(export_registry(registry, "dir"), out)

    results["export_dir_ms"], _ = timed(export_dir, max(1, repeat // 2))
    store.close()
    if size <= 1000:
        results["cold_start_s"], results["rss_mb"] = cold_start(db, registry.name, 3)
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    failed = False
    by_size: dict[int, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for size in args.sizes:
            results = run(size, args.repeat, Path(tmp))
            by_size[size] = results
            print(f"\n== {size} tools ==")
            for key, value in results.items():
                print(f"  {key:<22} {value:10.1f}")
            if size == 1000:
                checks = [
                    ("publish_1000_ms", results["publish_ms"]),
                    ("cold_start_1000_s", results["cold_start_s"]),
                    ("rss_1000_mb", results["rss_mb"]),
                ]
                for name, value in checks:
                    ok = value <= TARGETS[name]
                    failed |= not ok
                    print(
                        f"  target {name}: {value:.2f} ≤ {TARGETS[name]} {'OK' if ok else 'MISSED'}"
                    )
    if 1000 in by_size and 10000 in by_size:
        small, large = by_size[1000]["save_one_tool_ms"], by_size[10000]["save_one_tool_ms"]
        ratio = large / small
        ok = ratio <= TARGETS["save_one_10k_vs_1k"]
        failed |= not ok
        print(f"\nsave one tool: 10,000 tools {large:.1f} ms vs 1,000 tools {small:.1f} ms → "
              f"{ratio:.2f}× (target ≤ {TARGETS['save_one_10k_vs_1k']}×) "
              f"{'OK' if ok else 'MISSED'}")  # fmt: skip
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
