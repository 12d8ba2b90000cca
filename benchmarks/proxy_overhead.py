"""Recording proxy overhead: added latency, first streamed byte, concurrent streams, memory.

Run: ``python benchmarks/proxy_overhead.py`` (``--quick`` for a scaled-down run).
Targets (issue #14 §3), against a loopback upstream:

- added latency ≤ 2 ms p50 per request (via the proxy minus direct);
- the first streamed byte delayed ≤ 5 ms (p50, via minus direct);
- 100 concurrent streams with no loss (every byte arrives, every answer is recorded);
- memory flat over 10,000 requests (the proxy's RSS after the first 2,000 and at the end).

The upstream (a small uvicorn app answering in the OpenAI Chat Completions format)
and the proxy (``studio proxy`` itself, recording into a fresh database) each run
in their own process, so neither shares a GIL with the client measuring them.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PATH = "/v1/chat/completions"


# ---------------------------------------------------------------- the upstream


def _completion(text: str) -> bytes:
    return json.dumps(
        {
            "id": "chatcmpl-bench",
            "object": "chat.completion",
            "created": 0,
            "model": "bench",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": text},
                    "finish_reason": "stop",
                }
            ],
            "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
        }
    ).encode()


def stream_frames(seed: str, chunks: int) -> list[bytes]:
    """The SSE frames the upstream sends for one streamed answer (deterministic)."""
    base = {
        "id": "chatcmpl-" + seed,
        "object": "chat.completion.chunk",
        "created": 0,
        "model": "bench",
    }
    frames = []
    for i in range(chunks):
        delta = {"content": f"{seed}-{i} "}
        frame = {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}
        frames.append(b"data: " + json.dumps(frame).encode() + b"\n\n")
    end = {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
    frames.append(b"data: " + json.dumps(end).encode() + b"\n\n")
    frames.append(b"data: [DONE]\n\n")
    return frames


async def upstream_app(scope, receive, send) -> None:
    if scope["type"] != "http":
        return
    body = b""
    while True:
        message = await receive()
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    request = json.loads(body or b"{}")
    headers = dict(scope["headers"])
    if not request.get("stream"):
        payload = _completion("ok")
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(payload)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": payload})
        return
    chunks = int(headers.get(b"x-bench-chunks", b"5"))
    delay = float(headers.get(b"x-bench-delay-ms", b"0")) / 1000
    seed = headers.get(b"x-bench-seed", b"s").decode()
    await send(
        {
            "type": "http.response.start",
            "status": 200,
            "headers": [(b"content-type", b"text/event-stream")],
        }
    )
    for i, frame in enumerate(stream_frames(seed, chunks)):
        if i and delay:
            await asyncio.sleep(delay)
        await send({"type": "http.response.body", "body": frame, "more_body": True})
    await send({"type": "http.response.body", "body": b"", "more_body": False})


def run_upstream(port_file: str) -> None:
    import uvicorn

    from studio.proxy.run import _NoDelayProtocol, bind_socket, socket_url

    sock = bind_socket("127.0.0.1", 0)
    Path(port_file).write_text(socket_url(sock))
    config = uvicorn.Config(
        upstream_app,
        http=_NoDelayProtocol,
        loop="auto",
        lifespan="off",
        log_level="warning",
        access_log=False,
    )
    with contextlib.suppress(KeyboardInterrupt):
        uvicorn.Server(config).run(sockets=[sock])


# ---------------------------------------------------------------- processes


def start_upstream(tmp: Path) -> tuple[subprocess.Popen, str]:
    port_file = tmp / "upstream.url"
    proc = subprocess.Popen([sys.executable, __file__, "--serve-upstream", str(port_file)])
    deadline = time.monotonic() + 20
    while not port_file.exists() or not port_file.read_text():
        if time.monotonic() > deadline or proc.poll() is not None:
            raise RuntimeError("the upstream did not start")
        time.sleep(0.05)
    return proc, port_file.read_text()


def start_proxy(upstream: str, db: Path) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "studio.cli",
            "proxy",
            "--db",
            str(db),
            "--listen",
            "127.0.0.1:0",
            "--upstream",
            upstream,
            "--kind",
            "openai-chat",
        ],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if "listening on" not in line:
        raise RuntimeError(f"the proxy did not start: {line!r}")
    return proc, line.split("listening on ")[1].split()[0]


def stop(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(60)
    except subprocess.TimeoutExpired:
        proc.kill()


def rss_mb(pid: int) -> float:
    import psutil

    return psutil.Process(pid).memory_info().rss / 1e6


# ---------------------------------------------------------------- measurements


def body(i: int, stream: bool = False) -> dict:
    return {
        "model": "bench",
        "stream": stream,
        "messages": [{"role": "user", "content": f"Question {i}: is INV-102 over the limit?"}],
    }


def latency(url: str, n: int, offset: int) -> list[float]:
    samples = []
    with httpx.Client(base_url=url, timeout=30) as client:
        for i in range(n):
            started = time.perf_counter()
            response = client.post(PATH, json=body(offset + i))
            response.read()
            samples.append((time.perf_counter() - started) * 1000)
            assert response.status_code == 200
    return samples


def first_byte(url: str, n: int, offset: int) -> list[float]:
    samples = []
    headers = {"x-bench-chunks": "3", "x-bench-delay-ms": "20"}
    with httpx.Client(base_url=url, timeout=30) as client:
        for i in range(n):
            started = time.perf_counter()
            with client.stream("POST", PATH, json=body(offset + i, True), headers=headers) as r:
                chunks = r.iter_raw()
                next(chunks)
                samples.append((time.perf_counter() - started) * 1000)
                for _ in chunks:
                    pass
    return samples


async def concurrent_streams(url: str, streams: int, chunks: int) -> tuple[int, float]:
    limits = httpx.Limits(max_connections=streams * 2)
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as client:

        async def one(i: int) -> bool:
            headers = {
                "x-bench-chunks": str(chunks),
                "x-bench-delay-ms": "10",
                "x-bench-seed": f"c{i}",
            }
            async with client.stream(
                "POST", PATH, json=body(10**6 + i, True), headers=headers
            ) as r:
                got = b"".join([c async for c in r.aiter_raw()])
            return got == b"".join(stream_frames(f"c{i}", chunks))

        started = time.perf_counter()
        results = await asyncio.gather(*(one(i) for i in range(streams)))
        return sum(results), time.perf_counter() - started


async def many_requests(url: str, n: int, offset: int, concurrency: int) -> None:
    async with httpx.AsyncClient(base_url=url, timeout=60) as client:
        queue = iter(range(offset, offset + n))

        async def worker() -> None:
            for i in queue:
                response = await client.post(PATH, json=body(i))
                assert response.status_code == 200

        await asyncio.gather(*(worker() for _ in range(concurrency)))


def p50(samples: list[float]) -> float:
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="a scaled-down run")
    parser.add_argument("--serve-upstream", metavar="FILE", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_upstream:
        run_upstream(args.serve_upstream)
        return
    n_latency, n_memory = (300, 2000) if args.quick else (2000, 10000)
    with tempfile.TemporaryDirectory() as tmp_dir:
        tmp = Path(tmp_dir)
        up_proc, upstream = start_upstream(tmp)
        px_proc, proxy = start_proxy(upstream, tmp / "proxy.sqlite3")
        try:
            latency(upstream, 50, 0)
            latency(proxy, 50, 0)  # warm-up
            direct, via = latency(upstream, n_latency, 100), latency(proxy, n_latency, 100)
            print(
                f"latency p50: direct {p50(direct):.3f} ms, via proxy {p50(via):.3f} ms, "
                f"added {p50(via) - p50(direct):.3f} ms  (target ≤ 2 ms; {n_latency} requests "
                f"each)"
            )
            direct, via = (
                first_byte(upstream, n_latency // 4, 0),
                first_byte(proxy, n_latency // 4, 50_000),
            )
            print(
                f"first streamed byte p50: direct {p50(direct):.3f} ms, via proxy "
                f"{p50(via):.3f} ms, delayed {p50(via) - p50(direct):.3f} ms  (target ≤ 5 ms)"
            )
            ok, took = asyncio.run(concurrent_streams(proxy, 100, 50))
            print(f"100 concurrent streams of 50 chunks: {ok}/100 byte-identical in {took:.2f} s")
            step = n_memory // 10
            samples = []
            for k in range(10):
                asyncio.run(many_requests(proxy, step, 200_000 + k * step, 10))
                samples.append(rss_mb(px_proc.pid))
            print(
                f"proxy RSS over {n_memory} requests (every {step}): "
                + ", ".join(f"{s:.1f}" for s in samples)
                + " MB; "
                f"growth after the first {2 * step}: {samples[-1] - samples[1]:+.1f} MB"
            )
        finally:
            stop(px_proc)
            stop(up_proc)
        from registry_db import RegistryStore

        store = RegistryStore.open(tmp / "proxy.sqlite3")
        with store.lock:
            recorded = store.connection.execute(
                "SELECT count(*) FROM sessions WHERE source = 'proxy'"
            ).fetchone()[0]
            answered = store.connection.execute(
                "SELECT count(*) FROM messages WHERE message_json LIKE '%\"assistant\"%'"
            ).fetchone()[0]
        store.close()
        sent = 50 + n_latency + n_latency // 4 + 100 + n_memory
        print(
            f"recorded: {recorded} sessions and {answered} assistant messages for the "
            f"{sent} requests sent through the proxy"
        )


if __name__ == "__main__":
    main()
