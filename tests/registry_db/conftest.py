"""Fixtures for the storage tests: real SQLite files in tmp_path, small tool contracts."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from registry_db import RegistryStore
from studio.contract import RiskTier, ToolContract


def make_tool(name: str, **fields: Any) -> ToolContract:
    """A small, valid tool contract; ``fields`` override the defaults."""
    defaults: dict[str, Any] = {
        "summary": f"Does {name}.",
        "parameters": {
            "type": "object",
            "properties": {"start_date": {"type": "string", "format": "date"}},
            "required": ["start_date"],
        },
        "risk": RiskTier.READ,
    }
    defaults.update(fields)
    return ToolContract(name=name, **defaults)


@pytest.fixture(name="make_tool")
def make_tool_fixture() -> Callable[..., ToolContract]:
    """The :func:`make_tool` factory, for test modules (which cannot import conftest)."""
    return make_tool


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """Where the test database lives (created on first open)."""
    return tmp_path / "data" / "studio.sqlite3"


@pytest.fixture
def store(db_path: Path) -> Iterator[RegistryStore]:
    """A freshly migrated store on a real file."""
    opened = RegistryStore.open(db_path)
    yield opened
    opened.close()


@pytest.fixture
def other_store(db_path: Path, store: RegistryStore) -> Iterator[RegistryStore]:
    """A second store on the same file, standing in for another process."""
    opened = RegistryStore.open(db_path)
    yield opened
    opened.close()
