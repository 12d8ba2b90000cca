"""A client the project did not write: the MCP Inspector's CLI against our served endpoint.

``.ci/mcp-clients.sh`` installs it into ``.ci/cache/npm``; without it the tests
skip, except under CI (``$CI`` set), where they fail.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from registry_db import RegistryStore
from studio.server import ServerThread

from .serve_helpers import REGISTRY, ROOT, mcp_sessions, outcomes, published_db

INSPECTOR = ROOT / ".ci" / "cache" / "npm" / "node_modules" / ".bin" / "mcp-inspector"


@pytest.fixture
def inspector() -> Path:
    if not INSPECTOR.exists():
        reason = f"the MCP Inspector is not installed at {INSPECTOR}: run .ci/mcp-clients.sh"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    return INSPECTOR


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return published_db(tmp_path / "serve.sqlite3")


def _inspect(inspector: Path, target: list[str], *method: str) -> Any:
    done = subprocess.run(
        [str(inspector), "--cli", *target, "--method", *method],
        capture_output=True, text=True, timeout=90, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def _stdio(db: Path) -> list[str]:
    return [sys.executable, "-m", "studio.cli", "mcp", "serve", REGISTRY, "--version", "1",
            "--stdio", "--db", str(db)]  # fmt: skip


CALL = ["tools/call", "--tool-name", "query_invoices", "--tool-arg", "startDate=2024-05-01",
        "end_date=2024-05-31", "category=出租车"]  # fmt: skip


def _check(listing: Any, called: Any, db: Path) -> None:
    names = [t["name"] for t in listing["tools"]]
    assert names == ["search_policy", "query_invoices", "query_tickets",
                     "create_reimbursement_ticket"]  # fmt: skip
    assert "employee_id" not in json.dumps(listing["tools"][3]["inputSchema"])
    assert called["isError"] is False
    data = json.loads(called["content"][0]["text"])["data"]
    assert data["invoices"][0]["category"] == "taxi"
    [(info, messages, _)] = mcp_sessions(db)
    assert info.source == "mcp" and [m["role"] for m in messages] == ["assistant", "tool"]
    assert [o.status for o in outcomes(db)] == ["ok"]


def test_inspector_over_stdio(inspector: Path, db: Path) -> None:
    listing = _inspect(inspector, _stdio(db), "tools/list")
    called = _inspect(inspector, _stdio(db), *CALL)
    _check(listing, called, db)


@pytest.fixture
def server(db: Path) -> Iterator[ServerThread]:
    store = RegistryStore.open(db)
    server = ServerThread(store).start()  # no token: the Inspector CLI sends no header
    try:
        yield server
    finally:
        server.stop()
        store.close()


def test_inspector_over_http(inspector: Path, db: Path, server: ServerThread) -> None:
    # The Inspector posts to origin + /mcp unless the path ends in /mcp: the alias route.
    target = [f"{server.url}/mcp/{REGISTRY}/mcp?version=1", "--transport", "http"]
    listing = _inspect(inspector, target, "tools/list")
    called = _inspect(inspector, target, *CALL)
    _check(listing, called, db)
