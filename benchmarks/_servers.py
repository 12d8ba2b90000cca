"""Servers the benchmarks start in their own process (``studio serve``, a bare uvicorn app),
and ``wrk`` run against one.

Every server here prints ``listening on URL`` as its first line (``studio serve
--port 0`` does, and so does :data:`BARE_APP`), so one context manager starts
any of them, waits for that line and stops the process again (SIGINT, then kill
after 10 s). :func:`run_wrk` runs a benchmark's own Lua script (what it requests
and which numbers it prints differ) and hands back the numbers; the asyncio
load generators stay in each benchmark.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

# The reference for the resolve endpoint (issue #16): a bare uvicorn ASGI app that
# answers every request with the bytes of the file named by argv[1]. It binds its
# own socket so it can print the port it got, like ``studio serve --port 0``.
BARE_APP = r"""
import socket, sys, uvicorn
body = open(sys.argv[1], "rb").read()
headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]

async def app(scope, receive, send):
    if scope["type"] != "http":
        return
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": body})

sock = socket.socket()
sock.bind(("127.0.0.1", 0))
sock.listen(2048)
print(f"listening on http://127.0.0.1:{sock.getsockname()[1]}", flush=True)
config = uvicorn.Config(app, log_level="warning", access_log=False, server_header=False,
                        lifespan="off")
uvicorn.Server(config).run(sockets=[sock])
"""


def studio_serve_command(db: Path, *options: str) -> list[str]:
    """``studio serve --db DB --port 0 [options]`` run by this interpreter (no console script)."""
    return [sys.executable, "-c", "import sys; from studio.cli import main; sys.exit(main())",
            "serve", "--db", str(db), "--port", "0", *options]  # fmt: skip


@contextlib.contextmanager
def listening(command: list[str], what: str) -> Iterator[str]:
    """Run ``command`` (a server that prints ``listening on URL`` first); yields the URL.

    Args:
        command: The server's command line, run from the checkout's root.
        what: How the error names the server when it does not start.
    """
    proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True)  # fmt: skip
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        if not line.startswith("listening on "):
            raise RuntimeError(f"{what} did not start: {line!r}")
        yield line.removeprefix("listening on ").strip()
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def run_wrk(script: str, url: str, seconds: float, connections: int) -> dict[str, Any]:
    """Run ``wrk`` (2 threads) with the Lua ``script`` against ``url``; its ``WRK {json}`` line.

    The script's ``done`` function prints one line ``WRK `` followed by a JSON
    object of the numbers the benchmark wants (requests, duration, percentiles,
    errors); that object is returned.
    """
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as file:
        file.write(script)
    try:
        out = subprocess.run(
            ["wrk", "-t2", f"-c{connections}", f"-d{seconds:g}s", "-s", file.name, url],
            capture_output=True, text=True, check=True,
        ).stdout  # fmt: skip
    finally:
        os.unlink(file.name)
    data: dict[str, Any] = json.loads(next(x for x in out.splitlines() if x.startswith("WRK "))[4:])
    return data
