"""A real A2A server (the sample expense-audit agent, a2a-sdk) on 127.0.0.1 for tests."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import uvicorn

from studio.agents.expense_audit import build_app


@contextmanager
def running_agent(*, poison: bool = False) -> Iterator[str]:
    """Serve the agent on an ephemeral port; yields its base URL."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    base = f"http://127.0.0.1:{sock.getsockname()[1]}"
    config = uvicorn.Config(build_app(base, poison=poison), log_level="warning", lifespan="off")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    try:
        yield base
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()
