"""Whole-process `studio lint` against Spectral on the same public tools, interleaved.

Run: ``python benchmarks/lint_vs_spectral.py [--tools 2000] [--rounds 5] [--big 10000]
[--small 20] [--no-spectral] [--findings FILE]``

``--findings FILE`` is the differential check of a speed change: run it once
before the change (it writes the JSON report of the 2,000 tools) and once
after (it compares, and fails when a byte differs).

Targets (issue #11, part 6), whole process (start, import, read, lint, report):

- 2,000 public tools: ``studio lint FILE`` takes ≤ 0.5× Spectral's wall time and
  ≤ 0.5× its CPU time (user + sys), at a peak RSS no larger than Spectral's;
- 10,000 tools: peak RSS ≤ 600 MB;
- 20 tools: ≤ 0.5 s wall.

The tools are the public ones of ``tests/data/security/benign.jsonl`` (BFCL,
MCP servers…): names made unique as the importer normalises them, tools the
importer refuses left out, first N kept. For Spectral they are converted to one
OpenAPI 3.1 document, one POST operation per tool (operationId = name,
description, JSON request body = the parameters), linted with the
``spectral:oas`` ruleset. Spectral (npm ``@stoplight/spectral-cli``) is
installed into ``benchmarks/.cache/spectral`` when missing (needs ``npm``).
Beyond the public tools (10,000), generated tools from ``lint_scale.py`` fill up.

Runs alternate studio / Spectral so machine load hits both alike; the medians
are compared. CPU time and peak RSS come from the child's rusage (``os.wait4``).
Studio runs use a token cache of their own under ``benchmarks/.cache``, filled
by one unmeasured run first (as on a machine that linted these tools before);
one cold-cache run is printed for information. The studio's bytecode is
written first, as installing it does (see :func:`compile_bytecode`). The load average is printed:
on a shared machine CPU time is the steadier measure.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CACHE = ROOT / "benchmarks" / ".cache"
SPECTRAL_DIR = CACHE / "spectral"
SPECTRAL = SPECTRAL_DIR / "node_modules" / ".bin" / "spectral"
WORK = CACHE / "lint_vs_spectral"
SOURCE = ROOT / "tests" / "data" / "security" / "benign.jsonl"

TARGETS = {"wall_ratio": 0.5, "cpu_ratio": 0.5, "rss_ratio": 1.0, "big_rss_mb": 600.0}
SMALL_WALL_S = 0.5


@dataclass
class Sample:
    """One whole-process run."""

    wall: float
    cpu: float
    rss_mb: float
    code: int


def run_measured(argv: list[str], env: dict[str, str] | None = None) -> Sample:
    """Run ``argv`` to completion; wall time, the child's CPU time and peak RSS."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _pid, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    if proc.stderr:
        proc.stderr.close()
    code = proc.returncode
    if code not in (0, 1):
        raise SystemExit(f"{argv[0]} failed with exit code {code}:\n{err[-2000:]}")
    return Sample(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, code)


# ---------------------------------------------------------------- the tools


def public_tools() -> list[dict]:
    """The public tools in OpenAI format, unique by imported name and accepted by the importer."""
    from studio.formats import FormatError, import_text

    seen: set[str] = set()
    out: list[dict] = []
    for line in SOURCE.read_text(encoding="utf-8").splitlines():
        tool = json.loads(line)["tool"]
        key = re.sub(r"[^a-zA-Z0-9_-]", "_", str(tool.get("name", "")))[:64]
        if key in seen:
            continue
        wrapped = {"type": "function", "function": tool}
        try:
            import_text(json.dumps([wrapped]), "openai")
        except FormatError:
            continue
        seen.add(key)
        out.append(wrapped)
    return out


def tools_for(count: int, pool: list[dict]) -> list[dict]:
    """``count`` tools: the public ones first, generated ones after them."""
    if count <= len(pool):
        return pool[:count]
    from benchmarks.lint_scale import generated_registry
    from studio.formats import export_registry

    extra = export_registry(generated_registry(count - len(pool), seed=7), "openai").text or "[]"
    generated = json.loads(extra)
    generated = generated.get("tools", generated) if isinstance(generated, dict) else generated
    taken = {re.sub(r"[^a-zA-Z0-9_-]", "_", t["function"]["name"])[:64] for t in pool}
    fill = [t for t in generated if t["function"]["name"] not in taken]
    return pool + fill[: count - len(pool)]


def to_openapi(tools: list[dict]) -> dict:
    """One OpenAPI 3.1 document, one POST operation per tool."""
    paths: dict[str, dict] = {}
    for wrapped in tools:
        fn = wrapped["function"]
        name = re.sub(r"[^a-zA-Z0-9_-]", "_", fn["name"])[:64]
        operation: dict = {
            "operationId": name,
            "summary": name,
            "description": fn.get("description", ""),
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": fn.get("parameters") or {}}},
            },
            "responses": {"200": {"description": "The tool's result."}},
        }
        paths[f"/tools/{name}"] = {"post": operation}
    return {
        "openapi": "3.1.0",
        "info": {"title": "Public tools", "version": "1.0.0", "description": "Tool calls."},
        "servers": [{"url": "https://tools.example.com"}],
        "paths": paths,
    }


def write_inputs(count: int, pool: list[dict]) -> tuple[Path, Path]:
    """The studio input (OpenAI tools) and the Spectral input (OpenAPI) for ``count`` tools."""
    WORK.mkdir(parents=True, exist_ok=True)
    tools = tools_for(count, pool)
    tools_file = WORK / f"tools-{count}.json"
    tools_file.write_text(json.dumps(tools, ensure_ascii=False), encoding="utf-8")
    openapi_file = WORK / f"openapi-{count}.json"
    openapi_file.write_text(json.dumps(to_openapi(tools), ensure_ascii=False), encoding="utf-8")
    return tools_file, openapi_file


# ---------------------------------------------------------------- the commands


def ensure_spectral() -> Path:
    """Spectral's CLI, installed into benchmarks/.cache/spectral when missing."""
    if not SPECTRAL.exists():
        npm = shutil.which("npm")
        if npm is None:
            raise SystemExit("Spectral is not installed and npm is missing; use --no-spectral")
        print("installing @stoplight/spectral-cli into benchmarks/.cache/spectral …", flush=True)
        subprocess.run(
            [npm, "install", "--prefix", str(SPECTRAL_DIR), "@stoplight/spectral-cli"], check=True
        )
    ruleset = WORK / ".spectral.json"
    WORK.mkdir(parents=True, exist_ok=True)
    ruleset.write_text('{"extends": ["spectral:oas"]}\n', encoding="utf-8")
    return SPECTRAL


def compile_bytecode() -> None:
    """Write the studio's bytecode, as installing it does, before anything is timed.

    A checkout run with ``PYTHONDONTWRITEBYTECODE`` (or after an edit) compiles
    every stale module from source in every process: ~0.2 CPU-s that an
    installed studio (pip writes the ``.pyc`` files) never pays.
    """
    import compileall

    for package in ("studio", "registry_db"):
        compileall.compile_dir(ROOT / package, quiet=2)


def studio_argv(tools_file: Path) -> list[str]:
    return [sys.executable, "-m", "studio.cli", "lint", str(tools_file), "--format", "json"]


def spectral_argv(openapi_file: Path) -> list[str]:
    return [
        str(SPECTRAL),
        "lint",
        str(openapi_file),
        "--ruleset",
        str(WORK / ".spectral.json"),
        "--format",
        "json",
        "--fail-severity",
        "error",
        "--quiet",
    ]


def studio_env(cache: Path) -> dict[str, str]:
    return {**os.environ, "STUDIO_TOKEN_CACHE": str(cache)}


def differential_check(tools_file: Path, findings: Path, env: dict[str, str]) -> bool:
    """Write the studio's JSON report of ``tools_file`` to ``findings``, or compare with it.

    The report holds every finding, score, token count and similar pair, in a
    fixed order, so byte equality is the check that a speed change changed
    nothing else. True when written or equal.
    """
    out = subprocess.run(studio_argv(tools_file), capture_output=True, env=env, check=False)
    if out.returncode not in (0, 1):
        raise SystemExit(f"studio lint failed:\n{out.stderr.decode(errors='replace')[-2000:]}")
    if not findings.exists():
        findings.write_bytes(out.stdout)
        print(f"findings written to {findings} ({len(out.stdout):,} bytes)")
        return True
    same = findings.read_bytes() == out.stdout
    print(f"findings {'identical to' if same else 'DIFFER from'} {findings}")
    return same


def median(samples: list[Sample]) -> Sample:
    return Sample(
        statistics.median(s.wall for s in samples),
        statistics.median(s.cpu for s in samples),
        statistics.median(s.rss_mb for s in samples),
        samples[-1].code,
    )


def show(label: str, s: Sample) -> None:
    print(f"  {label:<34} wall {s.wall:6.2f} s   cpu {s.cpu:6.2f} s   peak {s.rss_mb:7.1f} MB")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tools", type=int, default=2000, help="tools in the comparison")
    ap.add_argument("--rounds", type=int, default=5, help="interleaved runs of each")
    ap.add_argument("--big", type=int, default=10000, help="tools in the memory run (0: skip)")
    ap.add_argument("--small", type=int, default=20, help="tools in the small run (0: skip)")
    ap.add_argument("--no-spectral", action="store_true", help="studio runs only")
    ap.add_argument(
        "--findings",
        type=Path,
        metavar="FILE",
        help="the differential check: write the JSON report of the --tools set to FILE, "
        "or, when FILE exists, compare with it (a speed change must not change it)",
    )
    args = ap.parse_args(argv)

    compile_bytecode()
    pool = public_tools()
    print(f"{len(pool)} public tools from {SOURCE.relative_to(ROOT)}; load {os.getloadavg()}")
    cache = WORK / "token-counts.sqlite3"
    failed = False

    if args.small:
        small_file, _ = write_inputs(args.small, pool)
        run_measured(studio_argv(small_file), studio_env(cache))  # fills the token cache
        small = median([run_measured(studio_argv(small_file), studio_env(cache)) for _ in range(5)])
        print(f"{args.small} tools, whole process (median of 5):")
        show("studio lint", small)
        ok = small.wall <= SMALL_WALL_S
        failed |= not ok
        print(f"  target wall ≤ {SMALL_WALL_S} s: {'ok' if ok else 'MISSED'}")

    tools_file, openapi_file = write_inputs(args.tools, pool)
    run_measured(studio_argv(tools_file), studio_env(cache))
    if args.findings is not None:
        failed |= not differential_check(tools_file, args.findings, studio_env(cache))
    cold_cache = WORK / "cold-token-counts.sqlite3"
    for leftover in WORK.glob("cold-token-counts.sqlite3*"):
        leftover.unlink()
    cold = run_measured(studio_argv(tools_file), studio_env(cold_cache))
    studio_runs: list[Sample] = []
    spectral_runs: list[Sample] = []
    if not args.no_spectral:
        ensure_spectral()
        run_measured(spectral_argv(openapi_file))  # warm the file cache
    for _ in range(args.rounds):
        studio_runs.append(run_measured(studio_argv(tools_file), studio_env(cache)))
        if not args.no_spectral:
            spectral_runs.append(run_measured(spectral_argv(openapi_file)))
    print(f"{args.tools} tools, whole process, median of {args.rounds} interleaved runs:")
    st = median(studio_runs)
    show("studio lint (token counts cached)", st)
    show("studio lint (empty token cache, 1 run)", cold)
    if spectral_runs:
        sp = median(spectral_runs)
        show("spectral lint (spectral:oas)", sp)
        ratios = {
            "wall_ratio": st.wall / sp.wall,
            "cpu_ratio": st.cpu / sp.cpu,
            "rss_ratio": st.rss_mb / sp.rss_mb,
        }
        for key, value in ratios.items():
            ok = value <= TARGETS[key]
            failed |= not ok
            print(f"  {key:<10} {value:5.2f}  (target ≤ {TARGETS[key]}) {'ok' if ok else 'MISSED'}")

    if args.big:
        big_file, _ = write_inputs(args.big, pool)
        run_measured(studio_argv(big_file), studio_env(cache))
        big = run_measured(studio_argv(big_file), studio_env(cache))
        print(f"{args.big} tools, whole process (token counts cached):")
        show("studio lint", big)
        ok = big.rss_mb <= TARGETS["big_rss_mb"]
        failed |= not ok
        print(f"  target peak ≤ {TARGETS['big_rss_mb']:.0f} MB: {'ok' if ok else 'MISSED'}")
    print(f"load average at the end: {os.getloadavg()}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
