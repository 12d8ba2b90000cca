"""Shared by the pull and drift tests: the third-party servers, our test server, a CLI runner."""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from studio.cli import main

ROOT = Path(__file__).resolve().parents[2]
CACHE = ROOT / ".ci" / "cache"
TIME_SERVER = CACHE / "time-venv" / "bin" / "mcp-server-time"
EVERYTHING_SERVER = (
    CACHE / "npm" / "node_modules" / "@modelcontextprotocol" / "server-everything" / "dist"
    / "index.js"
)  # fmt: skip
PULL_SERVER = Path(__file__).with_name("pull_server.py")


def third_party(path: Path, what: str) -> Path:
    """``path`` of an installed third-party server; skips when absent, fails under CI."""
    if path.exists():
        return path
    reason = f"{what} is not installed ({path}); run .ci/mcp-servers.sh"
    if os.environ.get("CI"):
        pytest.fail(f"{reason}: CI is set, so the real-server tests must run")
    pytest.skip(reason)


def time_server_command() -> str:
    return shlex.quote(str(third_party(TIME_SERVER, "mcp-server-time (PyPI)")))


def everything_server_command() -> str:
    script = third_party(EVERYTHING_SERVER, "@modelcontextprotocol/server-everything (npm)")
    return f"node {shlex.quote(str(script))} stdio"


def own_server_command(tools_file: Path, page_size: int = 100) -> str:
    """Our low-level test server serving ``tools_file`` over stdio."""
    return shlex.join(
        [sys.executable, str(PULL_SERVER), str(tools_file), "--page-size", str(page_size)]
    )


def write_tools(path: Path, tools: list[dict[str, Any]]) -> Path:
    path.write_text(json.dumps(tools), encoding="utf-8")
    return path


def studio(capsys: pytest.CaptureFixture[str], db: Path, *args: str) -> tuple[int, str, str]:
    """Run ``studio --db DB ARGS…`` in process; (exit code, stdout, stderr)."""
    capsys.readouterr()
    code = main(["--db", str(db), *args])
    out, err = capsys.readouterr()
    return code, out, err


@contextlib.contextmanager
def http_server(app: Any) -> Iterator[str]:
    """Serve an ASGI app on 127.0.0.1 (ephemeral port) in a thread; yields its base URL."""
    import uvicorn

    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="error", lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test HTTP server did not start")
        time.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


def bearer_required(app: Any, token: str) -> Any:
    """``app`` behind a check of ``Authorization: Bearer TOKEN`` (401 otherwise)."""

    async def guarded(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            headers = dict(scope.get("headers") or [])
            if headers.get(b"authorization") != f"Bearer {token}".encode():
                await send({"type": "http.response.start", "status": 401,
                            "headers": [(b"content-type", b"text/plain")]})  # fmt: skip
                await send({"type": "http.response.body", "body": b"unauthorized"})
                return
        await app(scope, receive, send)

    return guarded
