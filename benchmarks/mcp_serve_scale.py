"""MCP serve benchmark: tools/list of a 1,000-tool version, tools/call overhead, 50 clients.

Run: ``python benchmarks/mcp_serve_scale.py [--seconds 30] [--clients 50]``

The endpoint runs as ``studio serve --port 0 --executors mock`` in its own
process (``/mcp/bench?version=1``); requests are raw streamable-HTTP POSTs
of the 2026-07-28 revision (each carries its own envelope, no session).
The 50-client load comes from ``wrk`` when it is installed (Debian package
``wrk``; a C client with a Lua script, :data:`WRK_LOAD`): an asyncio Python
generator on the same two cores as the server ate the CPU the server needed,
so its p99 measured the client. Without ``wrk`` (or with ``--python-load``)
the asyncio httpx clients of this file generate it, as before. Either way
every non-2xx answer, JSON-RPC error and ``isError`` result is counted.

Targets (issue #13, part 3):
- ``tools/list`` of a 1,000-tool version over HTTP ≤ 20 ms p50 (rendering cached);
- ``tools/call`` overhead of the runtime beyond the executor ≤ 2 ms p50 over
  loopback (wall time of the request minus the executor's own latency, which
  the outcome row records);
- 50 concurrent MCP clients for 30 s with no error and p99 ≤ 50 ms on mocks.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from _servers import listening, run_wrk, studio_serve_command  # noqa: E402

from registry_db import RegistryStore  # noqa: E402
from registry_db.sessions import SessionStore  # noqa: E402

TARGETS = {"list_p50_ms": 20.0, "call_overhead_p50_ms": 2.0, "load_p99_ms": 50.0}
PATH = "/mcp/bench?version=1"
CONTEXT = {"role": "employee", "scenario": "reimbursement", "employee_id": "E-1001"}
VERSION = "2026-07-28"
META = {
    "io.modelcontextprotocol/protocolVersion": VERSION,
    "io.modelcontextprotocol/clientInfo": {"name": "bench", "version": "0"},
    "io.modelcontextprotocol/clientCapabilities": {},
}


def _db(tmp: Path, size: int) -> tuple[Path, str]:
    """A database with a ``size``-tool registry published once; returns it and a read tool."""
    from registry_scale import generated_registry

    db = tmp / "bench.sqlite3"
    registry = generated_registry(size, "bench")
    with RegistryStore.open(db) as store:
        store.import_registry(registry)
        store.publish("bench")
        tool = next(t for t in registry.tools if t.name.startswith("get_"))
        mocks = {t.name: {"default": {"body": {"items": [{"id": 1}]}}} for t in registry.tools}
        SessionStore.for_store(store).set_mock_specs("bench", {"": CONTEXT, **mocks})
    return db, tool.name


def served(db: Path) -> contextlib.AbstractContextManager[str]:
    """``studio serve --port 0 --executors mock`` on ``db`` in its own process; yields its URL."""
    return listening(studio_serve_command(db, "--executors", "mock"), "studio serve")


def _request(method: str, params: dict[str, Any], rid: int) -> tuple[dict[str, str], bytes]:
    headers = {"Accept": "application/json, text/event-stream",
               "Content-Type": "application/json", "Mcp-Protocol-Version": VERSION,
               "Mcp-Method": method}  # fmt: skip
    if method == "tools/call":
        headers["Mcp-Name"] = params["name"]
    body = {"jsonrpc": "2.0", "id": rid, "method": method, "params": {**params, "_meta": META}}
    return headers, json.dumps(body).encode()


def _result(response: httpx.Response) -> dict[str, Any]:
    """The JSON-RPC result of a response (JSON, or the last ``data:`` of an SSE stream)."""
    response.raise_for_status()
    text = response.text
    if response.headers.get("content-type", "").startswith("text/event-stream"):
        text = [x for x in text.splitlines() if x.startswith("data:")][-1][5:]
    message = json.loads(text)
    if "error" in message:
        raise RuntimeError(f"JSON-RPC error: {message['error']}")
    result: dict[str, Any] = message["result"]
    return result


async def _timed(
    http: httpx.AsyncClient, method: str, params: dict[str, Any], rid: int, parse: bool = True
) -> float:
    """Milliseconds until the whole answer arrived; the answer is then checked.

    With ``parse`` false a listing is checked by its head only: parsing 1,000 tools takes
    the load generator ~10 ms, which would stall its other 49 clients and count as latency.
    """
    headers, body = _request(method, params, rid)
    t0 = time.perf_counter()
    response = await http.post(PATH, headers=headers, content=body)
    elapsed = (time.perf_counter() - t0) * 1000
    if not parse and method == "tools/list":
        response.raise_for_status()
        if (
            not response.content.startswith(b'{"jsonrpc":"2.0","id":')
            or b'"result":{' not in (response.content[:64])
        ):
            raise RuntimeError(f"not a tools/list result: {response.content[:200]!r}")
        return elapsed
    result = _result(response)
    if method == "tools/call" and result.get("isError"):
        raise RuntimeError(f"tool error: {result['content'][0]['text'][:200]}")
    return elapsed


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def bench_list(url: str, count: int) -> dict[str, float]:
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        await _timed(http, "tools/list", {}, 0)  # renders and caches the version
        times = [await _timed(http, "tools/list", {}, i + 1) for i in range(count)]
    return {"p50_ms": statistics.median(times), "p99_ms": _pct(times, 0.99)}


async def bench_call(url: str, db: Path, tool: str, count: int) -> dict[str, float]:
    args = {"name": tool, "arguments": {"startDate": "2026-11-01", "end_date": "2026-11-07"}}
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        for i in range(20):  # warm-up: validators, the session, the connection
            await _timed(http, "tools/call", args, i)
        with RegistryStore.open(db) as store:
            before = len(SessionStore.for_store(store).outcomes("bench"))
        walls = [await _timed(http, "tools/call", args, 100 + i) for i in range(count)]
        ping = []
        for _ in range(count):
            t0 = time.perf_counter()
            (await http.get("/healthz")).raise_for_status()
            ping.append((time.perf_counter() - t0) * 1000)
    rows: list[Any] = []
    for _ in range(100):  # the server records on its own thread: wait for the rows
        with RegistryStore.open(db) as store:
            rows = SessionStore.for_store(store).outcomes("bench")[before:]
        if len(rows) >= count:
            break
        await asyncio.sleep(0.1)
    executor = [r.latency_ms for r in rows][-count:]
    overhead = [w - e for w, e in zip(walls, executor, strict=True)]
    return {
        "wall_p50_ms": statistics.median(walls),
        "executor_p50_ms": statistics.median(executor),
        "overhead_p50_ms": statistics.median(overhead),
        "http_roundtrip_p50_ms": statistics.median(ping),
    }


def bench_runtime_share(db: Path, tool: str, count: int) -> dict[str, float]:
    """The runtime's own part of a call, in process: pipeline, policy, ledger and recording
    (deferred, as the HTTP endpoint does) around the mock executor, minus the executor."""
    from studio.mcp.server import Caller, ServedRegistry, ServeOptions, mock_context
    from studio.runtime.single_call import WRITER

    store = RegistryStore.open(db)
    options = ServeOptions(mock_context(store, "bench"), executors="mock")
    served = ServedRegistry(store, "bench", version=1, options=options, deferred_writes=True)
    session, _ = served.session_for(Caller("bench", None, None, "memory"), {})
    args = {"startDate": "2026-11-01", "end_date": "2026-11-07"}

    async def run() -> list[float]:
        shares = []
        for i in range(count + 20):
            t0 = time.perf_counter()
            done = await session.call(tool, args)
            wall = (time.perf_counter() - t0) * 1000
            executor = done.latency_ms
            if i >= 20:
                shares.append(wall - executor)
        return shares

    shares = asyncio.run(run())
    served.close_all()
    WRITER.flush()
    store.close()
    return {"p50_ms": statistics.median(shares), "p99_ms": _pct(shares, 0.99)}


async def bench_baseline(
    url: str, clients: int, seconds: float, interval: float = 0.0
) -> dict[str, float]:
    """The same clients on ``GET /healthz``: what this machine and client allow at all.

    With ``interval`` each client paces its requests like the MCP load does,
    so the two p99s compare like for like.
    """
    latencies: list[float] = []
    deadline = time.monotonic() + seconds

    async def client() -> None:
        limits = httpx.Limits(max_connections=1)
        async with httpx.AsyncClient(base_url=url, timeout=30, limits=limits) as http:
            while time.monotonic() < deadline:
                started = time.monotonic()
                t0 = time.perf_counter()
                (await http.get("/healthz")).raise_for_status()
                latencies.append((time.perf_counter() - t0) * 1000)
                if interval:
                    await asyncio.sleep(max(0.0, interval - (time.monotonic() - started)))

    started = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(clients)))
    return {"rps": len(latencies) / (time.perf_counter() - started),
            "p50_ms": statistics.median(latencies), "p99_ms": _pct(latencies, 0.99)}  # fmt: skip


async def bench_load(
    url: str, tool: str, clients: int, seconds: float, interval: float = 0.0
) -> dict[str, float]:
    args = {"name": tool, "arguments": {"start_date": "2026-11-01", "end_date": "2026-11-07"}}
    latencies: list[float] = []
    errors: list[str] = []
    deadline = time.monotonic() + seconds

    async def client(n: int) -> None:
        limits = httpx.Limits(max_connections=1)
        async with httpx.AsyncClient(base_url=url, timeout=30, limits=limits) as http:
            i = 0
            while time.monotonic() < deadline:
                i += 1
                started = time.monotonic()
                try:
                    method = "tools/list" if i % 20 == 0 else "tools/call"
                    params = {} if i % 20 == 0 else args
                    latencies.append(await _timed(http, method, params, i, parse=False))
                except Exception as exc:  # every failure is counted and reported
                    errors.append(f"{type(exc).__name__}: {exc}"[:200])
                if interval:  # an agent's think time between two of its calls
                    await asyncio.sleep(max(0.0, interval - (time.monotonic() - started)))

    started = time.perf_counter()
    await asyncio.gather(*(client(n) for n in range(clients)))
    elapsed = time.perf_counter() - started
    return {
        "requests": len(latencies),
        "errors": len(errors),
        "rps": len(latencies) / elapsed,
        "p50_ms": statistics.median(latencies),
        "p99_ms": _pct(latencies, 0.99),
        "first_error": errors[0] if errors else "",  # type: ignore[dict-item]
        "client": "python",  # type: ignore[dict-item]
    }


# The MCP load for wrk: each of its connections is one client sending, one at a
# time, a tools/call (19 of 20) or a tools/list (1 of 20) of the 2026-07-28
# revision, each with its own envelope (no session), waiting @DELAY_MS@ ms after
# each answer (an agent thinking). ``response`` counts as an error any non-2xx
# status, a JSON-RPC error (``"error"`` in the envelope's head) and a tool
# result with ``"isError":true`` (a call's answer is small: bodies over 64 KiB
# are listings). ``done`` prints the ``WRK {json}`` line run_wrk reads.
WRK_LOAD = """
local threads = {}
local META = '"_meta":{"io.modelcontextprotocol/protocolVersion":"@VERSION@",' ..
  '"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"0"},' ..
  '"io.modelcontextprotocol/clientCapabilities":{}}'
local CALL_ARGS = '@CALL_ARGS@'

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  n, errors, first = 0, 0, ""
end

local function headers(method)
  local h = {["Accept"] = "application/json, text/event-stream",
             ["Content-Type"] = "application/json",
             ["Mcp-Protocol-Version"] = "@VERSION@", ["Mcp-Method"] = method}
  if method == "tools/call" then h["Mcp-Name"] = "@TOOL@" end
  return h
end
local LIST_HEADERS, CALL_HEADERS = headers("tools/list"), headers("tools/call")

function request()
  n = n + 1
  if n % 20 == 0 then
    return wrk.format("POST", "@PATH@", LIST_HEADERS,
      '{"jsonrpc":"2.0","id":' .. n .. ',"method":"tools/list","params":{' .. META .. '}}')
  end
  return wrk.format("POST", "@PATH@", CALL_HEADERS,
    '{"jsonrpc":"2.0","id":' .. n .. ',"method":"tools/call","params":{"name":"@TOOL@",' ..
    '"arguments":' .. CALL_ARGS .. ',' .. META .. '}}')
end

function delay()
  return @DELAY_MS@
end

function response(status, headers, body)
  local bad = status < 200 or status > 299
    or string.find(string.sub(body, 1, 96), '"error"', 1, true)
    or (#body < 65536 and string.find(body, '"isError":true', 1, true))
  if bad then
    errors = errors + 1
    if first == "" then first = status .. " " .. string.sub(body, 1, 160) end
  end
end

function done(summary, latency, requests)
  local e, f = 0, ""
  for _, t in ipairs(threads) do
    e = e + t:get("errors")
    if f == "" then f = t:get("first") end
  end
  local s = summary.errors
  f = string.gsub(f, '[%c"\\\\]', " ")
  io.write(string.format('WRK {"requests":%d,"us":%d,"p50_us":%d,"p99_us":%d,' ..
    '"errors":%d,"socket_errors":%d,"first_error":"%s"}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e, s.connect + s.read + s.write + s.timeout, f))
end
"""

WRK_HEALTHZ = """
function delay()
  return @DELAY_MS@
end
done = function(summary, latency, requests)
  local s = summary.errors
  io.write(string.format('WRK {"requests":%d,"us":%d,"p50_us":%d,"p99_us":%d,"errors":%d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    s.connect + s.read + s.write + s.timeout + s.status))
end
"""


def baseline_with_wrk(url: str, clients: int, seconds: float, interval: float) -> dict[str, float]:
    """:func:`bench_baseline` (``GET /healthz``, paced alike) generated by ``wrk``."""
    script = WRK_HEALTHZ.replace("@DELAY_MS@", str(round(interval * 1000)))
    data = run_wrk(script, f"{url}/healthz", seconds, clients)
    if data["errors"]:
        raise RuntimeError(f"wrk saw {data['errors']} errors on {url}/healthz")
    return {"rps": data["requests"] / (data["us"] / 1e6), "p50_ms": data["p50_us"] / 1000,
            "p99_ms": data["p99_us"] / 1000}  # fmt: skip


def load_with_wrk(
    url: str, tool: str, clients: int, seconds: float, interval: float = 0.0
) -> dict[str, Any]:
    """The load of :func:`bench_load` generated by ``wrk`` (one connection a client)."""
    args = {"start_date": "2026-11-01", "end_date": "2026-11-07"}
    script = (WRK_LOAD.replace("@PATH@", PATH).replace("@VERSION@", VERSION)
              .replace("@TOOL@", tool).replace("@CALL_ARGS@", json.dumps(args))
              .replace("@DELAY_MS@", str(round(interval * 1000))))  # fmt: skip
    data = run_wrk(script, url, seconds, clients)
    elapsed = data["us"] / 1e6
    errors = data["errors"] + data["socket_errors"]
    first = data["first_error"] or ("socket errors" if data["socket_errors"] else "")
    return {"requests": data["requests"], "errors": errors, "rps": data["requests"] / elapsed,
            "p50_ms": data["p50_us"] / 1000, "p99_ms": data["p99_us"] / 1000,
            "first_error": first, "client": "wrk"}  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools", type=int, default=1000)
    parser.add_argument("--lists", type=int, default=200)
    parser.add_argument("--calls", type=int, default=500)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument(
        "--interval",
        type=float,
        default=0.2,
        help="seconds from one request of a client to its next (an agent thinking between "
        "calls); 0 sends back to back",
    )
    parser.add_argument(
        "--python-load",
        action="store_true",
        help="generate the 50-client load with asyncio httpx clients even when wrk is installed",
    )
    args = parser.parse_args()
    use_wrk = shutil.which("wrk") is not None and not args.python_load
    with tempfile.TemporaryDirectory() as tmp:
        db, tool = _db(Path(tmp), args.tools)
        with served(db) as url:
            listed = asyncio.run(bench_list(url, args.lists))
            print(
                f"tools/list of {args.tools} tools: p50 {listed['p50_ms']:.2f} ms, "
                f"p99 {listed['p99_ms']:.2f} ms (target p50 ≤ {TARGETS['list_p50_ms']} ms)"
            )
            called = asyncio.run(bench_call(url, db, tool, args.calls))
            print(
                f"tools/call: wall p50 {called['wall_p50_ms']:.2f} ms, executor p50 "
                f"{called['executor_p50_ms']:.3f} ms, overhead p50 "
                f"{called['overhead_p50_ms']:.2f} ms (target ≤ "
                f"{TARGETS['call_overhead_p50_ms']} ms); a bare HTTP round trip "
                f"(/healthz) p50 {called['http_roundtrip_p50_ms']:.2f} ms"
            )
            share = bench_runtime_share(db, tool, args.calls)
            print(
                f"tools/call, the runtime's own part (in process, executor excluded): p50 "
                f"{share['p50_ms']:.3f} ms, p99 {share['p99_ms']:.3f} ms"
            )
            seconds = min(args.seconds, 10.0)
            if use_wrk:
                base = baseline_with_wrk(url, args.clients, seconds, args.interval)
            else:
                base = asyncio.run(bench_baseline(url, args.clients, seconds, args.interval))
            print(
                f"baseline, {args.clients} clients on GET /healthz, one request per "
                f"{args.interval:g} s each: {base['rps']:.0f}/s, "
                f"p50 {base['p50_ms']:.2f} ms, p99 {base['p99_ms']:.2f} ms "
                "(the machine's and the client's ceiling)"
            )
            if use_wrk:
                load = load_with_wrk(url, tool, args.clients, args.seconds, args.interval)
            else:
                load = asyncio.run(bench_load(url, tool, args.clients, args.seconds, args.interval))
            print(
                f"{args.clients} clients ({load['client']}) × {args.seconds:g} s, one request per "
                f"{args.interval:g} s each: {load['requests']} requests "
                f"({load['rps']:.0f}/s), {load['errors']} errors, p50 {load['p50_ms']:.2f} ms, "
                f"p99 {load['p99_ms']:.2f} ms (target p99 ≤ {TARGETS['load_p99_ms']} ms, "
                f"no error){' first: ' + str(load['first_error']) if load['errors'] else ''}"
            )
            print(
                f"  vs the /healthz baseline of this run: p50 "
                f"{load['p50_ms'] / base['p50_ms']:.2f}×, p99 "
                f"{load['p99_ms'] / base['p99_ms']:.2f}× (the load generator shares the "
                "cores: on a busy machine the ratio is the comparable number)"
            )
    ok = (listed["p50_ms"] <= TARGETS["list_p50_ms"]
          and called["overhead_p50_ms"] <= TARGETS["call_overhead_p50_ms"]
          and load["errors"] == 0 and load["p99_ms"] <= TARGETS["load_p99_ms"])  # fmt: skip
    print("all targets met" if ok else "some targets missed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
