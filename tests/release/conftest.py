"""Fixtures for release tests: a real SQLite file with a registry and published versions."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from registry_db import RegistryStore, UpsertTool
from studio.contract import RiskTier, ToolContract

REGISTRY = "travel-reimbursement"


def make_tool(name: str, summary: str = "") -> ToolContract:
    """A small read tool."""
    return ToolContract(
        name=name,
        summary=summary or f"Does {name}.",
        parameters={
            "type": "object",
            "properties": {"start_date": {"type": "string", "format": "date"}},
            "required": ["start_date"],
        },
        risk=RiskTier.READ,
    )


def publish_versions(store: RegistryStore, registry: str, count: int) -> None:
    """Create ``registry`` (if needed) and publish ``count`` versions that differ in a summary."""
    if registry not in {r.name for r in store.list_registries()}:
        store.create_registry(registry, title="Travel reimbursement")
    start = len(store.list_versions(registry))
    for i in range(start, start + count):
        existing = {t.tool.name: t for t in store.draft_tools(registry)}
        tool = make_tool("search_policy", f"Searches the travel policy (edition {i + 1}).")
        if "search_policy" in existing:
            row = existing["search_policy"]
            change = UpsertTool(tool, row.id, row.revision)
        else:
            change = UpsertTool(tool)
        store.save_draft(registry, [change, UpsertTool(make_tool(f"query_invoices_{i + 1}"))])
        store.publish(registry, notes=f"release {i + 1}", semver=f"1.{i}.0")


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "studio.sqlite3"


@pytest.fixture
def store(db_path: Path) -> Iterator[RegistryStore]:
    """A store on a real file with three published versions of the travel registry."""
    opened = RegistryStore.open(db_path)
    publish_versions(opened, REGISTRY, 3)
    yield opened
    opened.close()


@pytest.fixture(name="publish_versions")
def publish_versions_fixture() -> Callable[[RegistryStore, str, int], None]:
    return publish_versions
