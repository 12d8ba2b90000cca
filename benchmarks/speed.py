"""Issue 16's table in one run: every row as a ratio against its reference.

Run: ``python benchmarks/speed.py [--quick] [--only ROW ...]``. Each row is
measured from outside where a user waits for a whole process (the CLI, the GUI,
a served endpoint), with the reference written here and run in the same run,
interleaved round by round, so a busy machine slows both alike:

========================  ===========================================  ==================
row                        studio                                      reference
========================  ===========================================  ==================
cli                        ``studio --help``, ``studio registries``     ``python -c pass``
gui                        cold start on a 1,000-tool registry          a bare PySide6 main
                           to first paint                               window, first paint
pipeline                   argument pipeline per call (typical)         compiled jsonschema;
                                                                        jsonschema-rs
resolve                    ``studio serve`` resolve endpoint,           a bare uvicorn ASGI
                           50 connections                               app, the same bytes
events                     runtime round trip, events in SQLite         events in memory
save                       save one tool, 10,000-tool registry          1,000-tool registry
replay                     one replay step at 100k messages             at 10k messages
diff                       diff of two 1,000-tool versions              (absolute target)
sessions                   ``sessions import`` + ``check``, 60 sessions  ``json.loads`` of it
========================  ===========================================  ==================

The resolve load comes from ``wrk`` when it is installed (Debian package ``wrk``:
its C client takes the least of the shared CPU), else from the asyncio client at
the end of this file in its own process. ``--quick`` is a smoke run: fewer
rounds, smaller sizes (the save and replay rows shrink), 2-second loads. It
prints the same table; the exit code is 1 when a row misses its target.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from _servers import BARE_APP, listening, run_wrk, studio_serve_command  # noqa: E402

PY = sys.executable


@dataclasses.dataclass
class Row:
    what: str
    studio: str
    reference: str
    ratio: str
    target: str
    ok: bool | None

    def line(self) -> str:
        mark = "—" if self.ok is None else ("yes" if self.ok else "**no**")
        cells = (self.what, self.studio, self.reference, self.ratio, self.target, mark)
        return "| " + " | ".join(cells) + " |"


def _studio_command() -> list[str]:
    script = Path(PY).parent / "studio"
    return [str(script)] if script.exists() else [PY, "-m", "studio.cli"]


_CPU: dict[str, list[float]] = {}
"""CPU seconds (user + system) of each command's runs, by name: on a busy machine the
wall-clock ratio drifts with the scheduler, the CPU ratio does not."""


def _wall(command: list[str], name: str = "") -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    _CPU.setdefault(name, []).append(cpu)
    if done.returncode not in (0, 1):  # 1: `sessions check` found problems
        raise RuntimeError(f"{command[:4]} failed: {done.stderr.decode()[-300:]}")
    return elapsed


def _cpu_ratio(name: str, reference: str) -> float:
    return statistics.median(_CPU[name]) / statistics.median(_CPU[reference])


def _interleaved(
    commands: dict[str, list[str]],
    rounds: int,
    before: dict[str, Callable[[], None]] | None = None,
) -> dict[str, float]:
    """Median seconds of each command, run one after the other, round after round.

    ``before`` names what to do (untimed) before a command's every run.
    """
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(rounds):
        for name, command in commands.items():
            if before and name in before:
                before[name]()
            times[name].append(_wall(command, name))
    return {name: statistics.median(t) for name, t in times.items()}


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:,.0f} ms" if seconds >= 0.01 else f"{seconds * 1000:.1f} ms"


# -- cli ------------------------------------------------------------------------------------


def row_cli(quick: bool, tmp: Path) -> list[Row]:
    from registry_db import RegistryStore, load_examples

    db = tmp / "cli.sqlite3"
    with RegistryStore.open(db) as store:
        for registry in load_examples():
            store.import_registry(registry)
    studio = _studio_command()
    medians = _interleaved(
        {
            "pass": [PY, "-c", "pass"],
            "help": [*studio, "--help"],
            "registries": [*studio, "registries", "--db", str(db)],
        },
        5 if quick else 20,
    )
    bare = medians["pass"]
    return [
        Row(f"`studio {name}`", _ms(medians[key]), f"`python -c pass` {_ms(bare)}",
            f"{medians[key] / bare:.1f}× (CPU {_cpu_ratio(key, 'pass'):.1f}×)", "≤ 4×",
            medians[key] / bare <= 4)
        for name, key in (("--help", "help"), ("registries", "registries"))
    ]  # fmt: skip


# -- gui ------------------------------------------------------------------------------------

BARE_WINDOW = r"""
import os, sys, time
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow, QWidget

class Painted(QWidget):
    def paintEvent(self, event):
        print(f"{time.time():.6f}", flush=True)
        os._exit(0)

app = QApplication(sys.argv)
window = QMainWindow()
window.setWindowTitle("Tool Registry Studio")
window.setCentralWidget(Painted())
window.statusBar().addWidget(QLabel("bare"))
window.resize(1280, 800)
window.show()
app.exec()
"""

STUDIO_WINDOW = r"""
import os, sys, time
from studio.ui.app import benchmark_cold_start
benchmark_cold_start(sys.argv[1], sys.argv[2])
print(f"{time.time():.6f}", flush=True)
os._exit(0)
"""


def _gui_env(tmp: Path) -> dict[str, str]:
    """The environment of the GUI row's processes: offscreen, with a bytecode cache.

    Both sides read their modules' bytecode from one cache in ``tmp``, as an
    installed package does (pip compiles it). With ``PYTHONDONTWRITEBYTECODE``
    set (as on the shared machine) every project module was compiled from
    source at every start, which no user's start does: ~75 ms of CPU for the
    studio's ~130 modules, nothing for the bare window (its modules are
    site-packages, compiled at install).
    """
    env = dict(os.environ, QT_QPA_PLATFORM=os.environ.get("QT_QPA_PLATFORM", "offscreen"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")
    return env


def _to_first_paint(code: str, *args: str, env: dict[str, str], cpu: list[float]) -> float:
    """Seconds from launch to the first paint; the process's CPU seconds go to ``cpu``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    launched = time.time()
    out = subprocess.run([PY, "-c", code, *args], capture_output=True, text=True, env=env,
                         check=True).stdout.split()  # fmt: skip
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return float(out[-1]) - launched


def row_gui(quick: bool, tmp: Path) -> list[Row]:
    from registry_scale import generated_registry

    from registry_db import RegistryStore

    db = tmp / "gui.sqlite3"
    registry = generated_registry(1000, "gui")
    with RegistryStore.open(db) as store:
        store.import_registry(registry)
    env = _gui_env(tmp)
    studio, bare = [], []
    studio_cpu: list[float] = []
    bare_cpu: list[float] = []
    # Untimed: each side's first run writes its bytecode to the cache.
    _to_first_paint(BARE_WINDOW, env=env, cpu=[])
    _to_first_paint(STUDIO_WINDOW, str(db), registry.name, env=env, cpu=[])
    for _ in range(3 if quick else 7):
        bare.append(_to_first_paint(BARE_WINDOW, env=env, cpu=bare_cpu))
        studio.append(_to_first_paint(STUDIO_WINDOW, str(db), registry.name, env=env,
                                      cpu=studio_cpu))  # fmt: skip
    s, b = statistics.median(studio), statistics.median(bare)
    cpu = statistics.median(studio_cpu) / statistics.median(bare_cpu)
    return [
        Row(
            "GUI cold start, 1,000-tool registry, to first paint",
            _ms(s),
            f"bare PySide6 main window {_ms(b)}",
            f"{s / b:.1f}× (CPU {cpu:.1f}×)",
            "≤ 3.5×",
            s / b <= 3.5,
        )
    ]


# -- pipeline -------------------------------------------------------------------------------


def row_pipeline(quick: bool, tmp: Path) -> list[Row]:
    import jsonschema_rs
    from jsonschema import Draft202012Validator
    from runtime_overhead import CONTEXT

    from registry_db import load_examples
    from studio.runtime import ArgumentPipeline
    from studio.sessions.model import ToolCallPart

    travel = next(r for r in load_examples() if r.name == "travel-reimbursement")
    pipeline = ArgumentPipeline(travel, CONTEXT, "s")
    raw = json.dumps({"startDate": "2024-05-01", "to": "2024-05-10", "类别": "打车",
                      "employee_id": "E-9"}, ensure_ascii=False)  # fmt: skip
    call = ToolCallPart("c1", "query_invoices", raw)
    prepared = pipeline.prepare(call)
    assert prepared.ok, prepared.error
    # A call needing no repair but the injection every call of this tool gets (shown, not judged).
    valid = ToolCallPart("c2", "query_invoices", json.dumps(
        {k: v for k, v in prepared.arguments.items() if k != "employee_id"}))  # fmt: skip
    assert pipeline.prepare(valid).ok
    # The references validate the arguments the studio prepared (same schema, same object).
    schema, arguments = pipeline.tools["query_invoices"].schema, prepared.arguments
    python = Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)
    rust = jsonschema_rs.validator_for(schema, validate_formats=True)
    subjects: dict[str, Callable[[], object]] = {
        "studio": lambda: pipeline.prepare(call),
        "studio, valid call": lambda: pipeline.prepare(valid),
        "jsonschema": lambda: list(python.iter_errors(arguments)),
        "jsonschema-rs": lambda: rust.is_valid(arguments),
    }
    per_call: dict[str, list[float]] = {name: [] for name in subjects}
    for _ in range(5 if quick else 15):
        for name, fn in subjects.items():
            n = 200 if name == "jsonschema" else 2000
            # CPU time: what a call costs, not how long the scheduler kept us off a core.
            start = time.process_time()
            for _ in range(n):
                fn()
            per_call[name].append((time.process_time() - start) / n * 1e6)
    us = {name: statistics.median(v) for name, v in per_call.items()}
    s = us["studio"]
    return [
        Row(
            "argument pipeline per call (typical schema)",
            f"{s:.1f} µs (a call needing no repair: {us['studio, valid call']:.1f} µs)",
            f"compiled `jsonschema` {us['jsonschema']:.0f} µs; `jsonschema-rs` "
            f"{us['jsonschema-rs']:.2f} µs",
            f"{s / us['jsonschema']:.2f}× / {s / us['jsonschema-rs']:.0f}× "
            f"(no repair: {us['studio, valid call'] / us['jsonschema-rs']:.0f}×)",
            "≤ 50 µs, ≤ 40× jsonschema-rs",
            s <= 50 and s / us["jsonschema-rs"] <= 40,
        )
    ]


# -- resolve --------------------------------------------------------------------------------


async def _load(url: str, path: str, seconds: float, connections: int) -> dict[str, float]:
    """Keep-alive GETs on ``connections`` connections for ``seconds``; rps and p99 (ms)."""
    host, port = url.removeprefix("http://").split(":")
    latencies: list[float] = []
    deadline = time.perf_counter() + seconds

    async def connection(worker: int) -> None:
        reader, writer = await asyncio.open_connection(host, int(port))
        i = worker
        while time.perf_counter() < deadline:
            i += connections
            request = (f"GET {path}?subject=user-{i}&format=openai HTTP/1.1\r\n"
                       f"Host: {host}\r\n\r\n").encode()  # fmt: skip
            start = time.perf_counter()
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            if not head.startswith(b"HTTP/1.1 200"):
                raise RuntimeError(f"{url}{path}: {head[:40]!r}")
            length = next(int(h.split(b":")[1]) for h in head.lower().split(b"\r\n")
                          if h.startswith(b"content-length:"))  # fmt: skip
            await reader.readexactly(length)
            latencies.append((time.perf_counter() - start) * 1000)
        writer.close()

    start = time.perf_counter()
    await asyncio.gather(*(connection(w) for w in range(connections)))
    elapsed = time.perf_counter() - start
    latencies.sort()
    return {"rps": len(latencies) / elapsed, "p99": latencies[int(len(latencies) * 0.99)]}


WRK_SCRIPT = """
local i = 0
request = function()
  i = i + 1
  return wrk.format("GET", "@PATH@?subject=user-" .. i .. "&format=openai")
end
done = function(summary, latency, requests)
  io.write(string.format('WRK {"requests":%d,"us":%d,"p99_us":%d,"errors":%d}\\n',
    summary.requests, summary.duration, latency:percentile(99),
    summary.errors.connect + summary.errors.read + summary.errors.write
    + summary.errors.timeout + summary.errors.status))
end
"""


def _load_process(url: str, path: str, seconds: float, connections: int) -> dict[str, float]:
    """Requests per second and p99 (ms) under ``connections`` keep-alive connections.

    ``wrk`` (2 threads) when installed: its C client costs the shared CPU least.
    Otherwise the asyncio generator of this file, in its own process.
    """
    if shutil.which("wrk"):
        data = run_wrk(WRK_SCRIPT.replace("@PATH@", path), url, seconds, connections)
        if data["errors"]:
            raise RuntimeError(f"wrk saw {data['errors']} errors against {url}")
        return {"rps": data["requests"] / (data["us"] / 1e6), "p99": data["p99_us"] / 1000}
    out = subprocess.run([PY, __file__, "--load", url, path, str(seconds), str(connections)],
                         capture_output=True, text=True, check=True).stdout  # fmt: skip
    return dict(json.loads(out.strip().splitlines()[-1]))


def row_resolve(quick: bool, tmp: Path) -> list[Row]:
    import httpx
    from release_scale import RESOLVE_PATH, _store

    _store(tmp).close()
    seconds, connections = (2.0 if quick else 10.0), 50
    studio = studio_serve_command(tmp / "bench.sqlite3")
    results: dict[str, list[dict[str, float]]] = {"studio": [], "bare": []}
    body_file = tmp / "resolve-body.json"
    for _ in range(1 if quick else 2):
        with listening(studio, "studio serve") as url:
            response = httpx.get(f"{url}{RESOLVE_PATH}", params={"subject": "user-1",
                                                                 "format": "openai"})  # fmt: skip
            response.raise_for_status()
            body_file.write_bytes(response.content)
            results["studio"].append(_load_process(url, RESOLVE_PATH, seconds, connections))
        with listening([PY, "-c", BARE_APP, str(body_file)], "the bare app") as url:
            results["bare"].append(_load_process(url, RESOLVE_PATH, seconds, connections))
    s = {k: statistics.median(r[k] for r in results["studio"]) for k in ("rps", "p99")}
    b = {k: statistics.median(r[k] for r in results["bare"]) for k in ("rps", "p99")}
    ratio = s["rps"] / b["rps"]
    return [
        Row(
            f"resolve endpoint, {connections} connections, {seconds:g} s",
            f"{s['rps']:,.0f} req/s, p99 {s['p99']:.1f} ms",
            f"bare uvicorn ASGI app, same bytes: {b['rps']:,.0f} req/s, p99 {b['p99']:.1f} ms",
            f"{ratio:.2f}×",
            "≥ 0.8×, p99 ≤ 15 ms",
            ratio >= 0.8 and s["p99"] <= 15,
        )
    ]


# -- events ---------------------------------------------------------------------------------


def row_events(quick: bool, tmp: Path) -> list[Row]:
    from runtime_overhead import round_trip_ms

    runs = [asyncio.run(round_trip_ms(10 if quick else 40)) for _ in range(1 if quick else 3)]
    added = {
        k: statistics.median(r[k] - r["bare"] for r in runs) for k in ("in memory", "SQLite file")
    }
    sqlite, memory = added["SQLite file"], added["in memory"]
    return [Row("runtime round trip with events in SQLite", f"{sqlite:+.2f} ms",
                f"events in memory {memory:+.2f} ms", "", "≤ +3 ms", sqlite <= 3)]  # fmt: skip


# -- save -----------------------------------------------------------------------------------


def _save_one_ms(tmp: Path, sizes: tuple[int, int], repeat: int) -> tuple[float, float]:
    """Median seconds to save one edited tool in a registry of each size, saves alternating."""
    from registry_scale import generated_registry

    from registry_db import RegistryStore
    from studio.editing import DraftWorkspace, EditTool, SetField

    sides: list[tuple[int, Any, Any, list[float]]] = []
    for size in sizes:
        registry = generated_registry(size, f"save{size}")
        store = RegistryStore.open(tmp / f"save-{size}.sqlite3")
        store.import_registry(registry)
        sides.append((size, store, DraftWorkspace.load(store, registry.name), []))
    for i in range(repeat):
        for size, store, workspace, times in sides:
            entry = workspace.entries[(size // 2 + i) % size]
            workspace.run(EditTool(entry.key, SetField("summary", f"edited {i}")))
            start = time.perf_counter()
            workspace.save(store)
            times.append(time.perf_counter() - start)
    for _, store, _, _ in sides:
        store.close()
    large, small = (statistics.median(side[3]) for side in sides)
    return large, small


def row_save(quick: bool, tmp: Path) -> list[Row]:
    small, large = (500, 5000) if quick else (1000, 10_000)
    s, r = _save_one_ms(tmp, (large, small), 5 if quick else 15)
    return [Row(f"save one tool in a {large:,}-tool registry", _ms(s),
                f"the same in a {small:,}-tool registry: {_ms(r)}", f"{s / r:.1f}×", "≤ 1.5×",
                s / r <= 1.5)]  # fmt: skip


# -- replay ---------------------------------------------------------------------------------

REPLAY_STEP = r"""
import json, os, sys, time
sys.path[:0] = [sys.argv[3], sys.argv[3] + "/benchmarks"]
from PySide6.QtWidgets import QApplication
from registry_db import RegistryStore
from registry_db.sessions import SessionStore
from sessions_scale import openai_log
from studio.sessions.importers import import_sessions
from studio.sessions.library import save_imported
from studio.ui.sessions.browser import SessionsView

size, tmp = int(sys.argv[1]), sys.argv[2]
doc = os.path.join(tmp, f"replay-{size}.json")
with open(doc, "w") as f:
    json.dump({"model": "gpt-4o", "messages": openai_log(size)}, f)
store = RegistryStore.open(os.path.join(tmp, f"replay-{size}.sqlite3"))
(session,) = import_sessions(doc).sessions
info = save_imported(SessionStore.for_store(store), session)
app = QApplication.instance() or QApplication([])
view = SessionsView(store)
view.resize(1280, 800)
view.show()
view.select_session(info.id)
app.processEvents()
bar = view.viewer.replay_bar
bar.jump(len(view.viewer.replay) // 2)
app.processEvents()
steps = 50
start = time.perf_counter()
for _ in range(steps):
    bar.next()
    app.processEvents()
print((time.perf_counter() - start) / steps, flush=True)
os._exit(0)
"""


def row_replay(quick: bool, tmp: Path) -> list[Row]:
    small, large = (2000, 20_000) if quick else (10_000, 100_000)
    env = dict(os.environ, QT_QPA_PLATFORM=os.environ.get("QT_QPA_PLATFORM", "offscreen"))

    def step(size: int) -> float:
        out = subprocess.run(
            [PY, "-c", REPLAY_STEP, str(size), str(tmp), str(ROOT)],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        ).stdout
        return float(out.split()[-1])

    s, r = step(large), step(small)
    return [Row("one replay step", f"{_ms(s)} at {large:,} messages",
                f"{_ms(r)} at {small:,}", f"{s / r:.1f}×", "independent of length (≤ 1.5×)",
                s / r <= 1.5)]  # fmt: skip


# -- diff -----------------------------------------------------------------------------------


def row_diff(quick: bool, tmp: Path) -> list[Row]:
    from release_scale import diff_inputs

    from studio.diff import diff_registries

    times: list[float] = []
    cpus: list[float] = []
    for _ in range(3 if quick else 7):
        a, b = diff_inputs()
        start, cpu = time.perf_counter(), time.process_time()
        diff_registries(a, b, lint_profile=None)
        times.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
    s, c = statistics.median(times), statistics.median(cpus)
    return [Row("diff of two 1,000-tool versions (100 changed)", f"{_ms(s)} (CPU {_ms(c)})",
                "", "", "≤ 150 ms", s <= 0.150)]  # fmt: skip


# -- sessions -------------------------------------------------------------------------------


def row_sessions(quick: bool, tmp: Path) -> list[Row]:
    """Import into a new database file (created by the import: the row's figure) and, as a
    second row, into a database that exists already (a copy of one the CLI made), which
    tells the import's own work from creating and migrating the file."""
    from sessions_scale import openai_log

    log = tmp / "sessions-60.jsonl"
    with log.open("w", encoding="utf-8") as f:
        for i in range(60):
            f.write(json.dumps({"model": "gpt-4o", "messages": openai_log(170 + i)}) + "\n")
    db = tmp / "sessions.sqlite3"
    existing, template = tmp / "existing.sqlite3", tmp / "template.sqlite3"
    studio = _studio_command()
    # The studio's modules read from a bytecode cache, as an installed package's are (see
    # _gui_env): with PYTHONDONTWRITEBYTECODE set, every module edited since its .pyc was
    # compiled from source in every run (~10 ms for a few edited modules), which no user
    # pays. The warm-up below fills the cache; the environment is restored at the end.
    saved = {k: os.environ.get(k) for k in ("PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX")}
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")
    try:
        return _sessions_rows(quick, tmp, log, db, existing, template, studio)
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def _sessions_rows(
    quick: bool, tmp: Path, log: Path, db: Path, existing: Path, template: Path, studio: list[str]
) -> list[Row]:
    subprocess.run([*studio, "sessions", "list", "--db", str(template)], check=True,
                   stdout=subprocess.DEVNULL)  # fmt: skip
    subprocess.run([PY, "-c", "import json, sys"], check=True)  # the reference's modules too
    for command in ("import", "check"):  # the bytecode cache of every module they import
        subprocess.run([*studio, "sessions", command, str(log), "--db", str(tmp / "warm.sqlite3")],
                       check=False, stdout=subprocess.DEVNULL)  # fmt: skip

    def fresh_db() -> None:
        for file in tmp.glob("sessions.sqlite3*"):
            file.unlink()

    def existing_db() -> None:
        for file in tmp.glob("existing.sqlite3*"):
            file.unlink()
        shutil.copyfile(template, existing)

    medians = _interleaved(
        {
            "json": [PY, "-c", "import json, sys\n"
                     "for line in open(sys.argv[1], encoding='utf-8'): json.loads(line)", str(log)],
            "import": [*studio, "sessions", "import", str(log), "--db", str(db)],
            "check": [*studio, "sessions", "check", str(log), "--db", str(db)],
            "import-existing": [*studio, "sessions", "import", str(log), "--db", str(existing)],
        },
        3 if quick else 7,
        before={"import": fresh_db, "import-existing": existing_db},
    )  # fmt: skip
    ref = medians["json"]
    ri, rc = medians["import"] / ref, medians["check"] / ref
    re_ = medians["import-existing"] / ref
    return [Row("`sessions import` + `check` of a 60-session log (whole processes)",
                f"{_ms(medians['import'])} / {_ms(medians['check'])}",
                f"plain `json.loads` of the file (a process) {_ms(ref)}",
                f"{ri:.1f}× / {rc:.1f}× (CPU {_cpu_ratio('import', 'json'):.1f}× / "
                f"{_cpu_ratio('check', 'json'):.1f}×)", "≤ 6×", ri <= 6 and rc <= 6),
            Row("… the same import into a database that exists (not created by it)",
                _ms(medians["import-existing"]), f"the same {_ms(ref)}",
                f"{re_:.1f}× (CPU {_cpu_ratio('import-existing', 'json'):.1f}×)", "(≤ 6×)",
                None)]  # fmt: skip


ROWS: dict[str, Callable[[bool, Path], list[Row]]] = {
    "cli": row_cli,
    "gui": row_gui,
    "pipeline": row_pipeline,
    "resolve": row_resolve,
    "events": row_events,
    "save": row_save,
    "replay": row_replay,
    "diff": row_diff,
    "sessions": row_sessions,
}


def main() -> int:
    if len(sys.argv) == 6 and sys.argv[1] == "--load":
        url, path, seconds, connections = sys.argv[2:]
        print(json.dumps(asyncio.run(_load(url, path, float(seconds), int(connections)))))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a fast smoke run")
    parser.add_argument("--only", nargs="+", choices=tuple(ROWS), metavar="ROW",
                        help=f"rows to run ({', '.join(ROWS)}; default: all)")  # fmt: skip
    args = parser.parse_args()
    print(f"# issue 16 speed table ({'quick' if args.quick else 'full'} run, "
          f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at start)\n")  # fmt: skip
    print("| what | studio | reference in the same run | ratio | target | ok? |")
    print("|---|---|---|---|---|---|")
    failed = 0
    for name in args.only or ROWS:
        with tempfile.TemporaryDirectory() as tmp:
            try:
                rows = ROWS[name](args.quick, Path(tmp))
            except Exception as exc:  # one broken row must not hide the others
                rows = [Row(name, f"not measured: {type(exc).__name__}: {exc}"[:200], "", "", "",
                            False)]  # fmt: skip
        for row in rows:
            failed += row.ok is False
            print(row.line(), flush=True)
    print(f"\nload average at the end {os.getloadavg()[0]:.1f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
