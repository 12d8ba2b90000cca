"""Our two halves against each other: `studio mcp check` on what `studio mcp serve` serves."""

from __future__ import annotations

import dataclasses
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from registry_db import RegistryStore, UpsertTool

from .serve_helpers import REGISTRY, ROOT, published_db


@pytest.fixture
def db(tmp_path: Path) -> Path:
    db = published_db(tmp_path / "serve.sqlite3")
    with RegistryStore.open(db) as store:  # v2: one description changed
        row = next(t for t in store.draft_tools(REGISTRY) if t.tool.name == "query_tickets")
        tool = dataclasses.replace(row.tool, summary=row.tool.summary + " Changed.")
        store.save_draft(REGISTRY, [UpsertTool(tool, row.id, row.revision)])
        store.publish(REGISTRY, notes="changed", semver="1.1.0")
    return db


def _check(db: Path, pinned: str, served: str, protocol: str) -> subprocess.CompletedProcess[str]:
    server = shlex.join([sys.executable, "-m", "studio.cli", "mcp", "serve", REGISTRY,
                         "--version", served, "--stdio", "--db", str(db)])  # fmt: skip
    return subprocess.run(
        [sys.executable, "-m", "studio.cli", "--db", str(db), "mcp", "check", REGISTRY,
         "--version", pinned, "--protocol", protocol, "--stdio", server],
        capture_output=True, text=True, timeout=90, cwd=ROOT,
    )  # fmt: skip


@pytest.mark.parametrize("protocol", ["2025-11-25", "2026-07-28"])
def test_a_served_version_has_no_drift_against_itself(db: Path, protocol: str) -> None:
    done = _check(db, "1", "1", protocol)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no drift" in done.stdout


def test_serving_another_version_is_drift(db: Path) -> None:
    done = _check(db, "1", "2", "2026-07-28")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "query_tickets" in done.stdout
