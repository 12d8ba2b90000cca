"""Default database location, --db / $STUDIO_DB precedence, and seeding the examples once."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from registry_db import (
    RegistryStore,
    default_db_path,
    load_examples,
    open_default_store,
    resolve_db_path,
    seed_examples,
)
from studio.contract import Registry, ToolContract, registry_to_dict

MakeTool = Callable[..., ToolContract]


@pytest.fixture
def examples(tmp_path: Path, make_tool: MakeTool) -> Path:
    """A directory with two small registry documents, one broken file and a non-JSON file."""
    folder = tmp_path / "examples"
    folder.mkdir()
    for name, tools in (("travel", ["query_invoices", "query_tickets"]), ("orders", ["get_order"])):
        registry = Registry(name=name, title=name.title(), tools=tuple(make_tool(t) for t in tools))
        (folder / f"{name}.json").write_text(json.dumps(registry_to_dict(registry)), "utf-8")
    (folder / "broken.json").write_text('{"name": "broken", "tools": [{"name": "bad name"}]}')
    (folder / "README.md").write_text("not a registry")
    return folder


def test_default_path_is_in_the_user_data_directory(tmp_path: Path) -> None:
    # tests/conftest.py points XDG_DATA_HOME at a temporary home.
    path = default_db_path()
    assert path.name == "studio.sqlite3"
    assert path.parent.name == "tool-registry-studio"


def test_resolve_db_path_precedence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert resolve_db_path(None) == default_db_path()
    monkeypatch.setenv("STUDIO_DB", str(tmp_path / "env.sqlite3"))
    assert resolve_db_path(None) == tmp_path / "env.sqlite3"
    assert resolve_db_path(str(tmp_path / "arg.sqlite3")) == tmp_path / "arg.sqlite3"
    monkeypatch.setenv("STUDIO_DB", "")
    assert resolve_db_path(None) == default_db_path()


def test_load_examples_skips_broken_documents(examples: Path) -> None:
    assert [r.name for r in load_examples(examples)] == ["orders", "travel"]


def test_seeding_happens_once(store: RegistryStore, examples: Path) -> None:
    assert store.needs_seeding()
    assert seed_examples(store, examples) == ["orders", "travel"]
    assert [r.name for r in store.list_registries()] == ["orders", "travel"]
    assert [d.tool.name for d in store.draft_tools("travel")] == ["query_invoices", "query_tickets"]
    assert seed_examples(store, examples) == []
    store.delete_registry("orders")
    store.delete_registry("travel")
    assert seed_examples(store, examples) == []
    assert store.list_registries() == []


def test_database_with_registries_is_not_seeded(store: RegistryStore, examples: Path) -> None:
    store.create_registry("mine")
    assert seed_examples(store, examples) == []
    assert [r.name for r in store.list_registries()] == ["mine"]


def test_no_examples_leaves_the_database_seedable(
    store: RegistryStore, tmp_path: Path, examples: Path
) -> None:
    assert seed_examples(store, tmp_path / "missing") == []
    assert store.needs_seeding()
    assert seed_examples(store, examples) == ["orders", "travel"]


def test_open_default_store_uses_env_and_seeds_bundled_examples(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STUDIO_DB", str(tmp_path / "env" / "studio.sqlite3"))
    with open_default_store(seed=False) as store:
        assert store.path == tmp_path / "env" / "studio.sqlite3"
        assert store.list_registries() == []
    bundled = {r.name for r in load_examples()}
    with open_default_store() as store:
        assert {r.name for r in store.list_registries()} == bundled
    with open_default_store(tmp_path / "explicit.sqlite3", seed=False) as store:
        assert store.path == tmp_path / "explicit.sqlite3"
