"""``studio mcp serve --role R --scenario S``: only the audience's tools are listed and callable."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError

from registry_db import RegistryStore, UpsertTool
from studio.contract import Permission, RiskTier, ToolContract
from studio.contract.audience import Audience
from studio.mcp.server import ServedRegistry, ServeOptions

ROOT = Path(__file__).resolve().parents[2]
REGISTRY = "expenses"


def _tool(name: str, *perms: tuple[str, str]) -> ToolContract:
    return ToolContract(
        name=name,
        summary=f"Does {name.replace('_', ' ')} for the expense desk.",
        parameters={"type": "object", "properties": {"id": {"type": "string"}}},
        risk=RiskTier.READ,
        permissions=tuple(Permission(r, s) for r, s in perms),
    )


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "audience.sqlite3"
    with RegistryStore.open(path) as store:
        store.create_registry(REGISTRY, title="Expenses")
        tools = [
            _tool("submit_claim", ("employee", "reimbursement")),
            _tool("approve_claim", ("manager", "reimbursement")),
            _tool("list_policies"),
        ]
        store.save_draft(REGISTRY, [UpsertTool(t) for t in tools])
        store.publish(REGISTRY, notes="v1", semver="1.0.0")
    return path


def test_served_registry_lists_only_the_audience_tools(db: Path) -> None:
    with RegistryStore.open(db) as store:
        everyone = ServedRegistry(store, REGISTRY, version=1)
        assert [t.name for t in everyone.list_result(None).tools] == [
            "submit_claim", "approve_claim", "list_policies",
        ]  # fmt: skip
        options = ServeOptions(audience=Audience("manager", "reimbursement"))
        managers = ServedRegistry(store, REGISTRY, version=1, options=options)
        assert [t.name for t in managers.list_result(None).tools] == [
            "approve_claim", "list_policies",
        ]  # fmt: skip
        assert "submit_claim" not in managers.version(1).executors


def test_stdio_serve_with_role_and_scenario(db: Path) -> None:
    params = StdioServerParameters(
        command=sys.executable,
        args=[
            "-m",
            "studio.cli",
            "mcp",
            "serve",
            REGISTRY,
            "--stdio",
            "--db",
            str(db),
            "--version",
            "1",
            "--executors",
            "mock",
            "--role",
            "employee",
            "--scenario",
            "reimbursement",
        ],
        cwd=str(ROOT),
    )

    async def go() -> Any:
        async with Client(params) as client:
            listing = await client.list_tools()
            with pytest.raises(MCPError, match="Unknown tool: approve_claim"):
                await client.call_tool("approve_claim", {"id": "c-1"})
            return listing

    listing = asyncio.run(asyncio.wait_for(go(), 60))
    assert [t.name for t in listing.tools] == ["submit_claim", "list_policies"]
