"""Shared by the MCP serve tests: a database with the travel example published, and clients."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from mcp import StdioServerParameters

from registry_db import RegistryStore
from registry_db.defaults import seed_examples
from registry_db.sessions import SessionStore
from studio.runtime.single_call import WRITER

REGISTRY = "travel-reimbursement"
ROOT = Path(__file__).resolve().parents[2]
CONTEXT = {"role": "employee", "scenario": "reimbursement", "employee_id": "E-1001"}


def published_db(path: Path, *, versions: int = 1, mocks: dict[str, Any] | None = None) -> Path:
    """A database at ``path`` with the travel example published ``versions`` times.

    ``mocks`` replaces the stored mock responses (key ``""``: the suggested context).
    """
    with RegistryStore.open(path) as store:
        seed_examples(store, history=False)
        for i in range(versions):
            store.publish(REGISTRY, notes=f"release {i + 1}", semver=f"1.{i}.0")
        if mocks is not None:
            SessionStore.for_store(store).set_mock_specs(REGISTRY, {"": CONTEXT, **mocks})
    return path


def stdio_params(db: Path, *args: str, env: dict[str, str] | None = None) -> StdioServerParameters:
    """``studio mcp serve travel-reimbursement --stdio`` as a client spawns it."""
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "studio.cli", "mcp", "serve", REGISTRY, "--stdio", "--db", str(db), *args],
        cwd=str(ROOT),
        env=env,
    )


def mcp_sessions(db: Path) -> list[tuple[Any, list[dict[str, Any]], list[Any]]]:
    """Every recorded MCP session with its messages and events, oldest first.

    An in-process server (HTTP) records on a background thread: waited for first.
    """
    WRITER.flush()
    with RegistryStore.open(db) as store:
        sessions = SessionStore.for_store(store)
        found = sessions.list_sessions(source="mcp")
        return [(s, sessions.messages(s.id), sessions.events(s.id)) for s in reversed(found)]


def outcomes(db: Path) -> list[Any]:
    WRITER.flush()
    with RegistryStore.open(db) as store:
        return SessionStore.for_store(store).outcomes(REGISTRY)
