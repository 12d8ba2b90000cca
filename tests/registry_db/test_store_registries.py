"""Opening the database and managing registries."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from registry_db import (
    AlreadyExistsError,
    ConflictError,
    NotFoundError,
    RegistryHasVersionsError,
    RegistryStore,
    StoreError,
    UpsertTool,
)
from registry_db.schema import migrations
from studio.contract import RegistrySettings, ToolContract

MakeTool = Callable[..., ToolContract]


def test_open_creates_parent_directory_and_uses_wal(db_path: Path) -> None:
    assert not db_path.parent.exists()
    with RegistryStore.open(db_path) as store:
        assert store.path == db_path
        conn = store.connection
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        assert conn.execute("PRAGMA busy_timeout").fetchone()[0] >= 5000
    assert db_path.exists()


def test_migrations_are_recorded_and_applied_once(db_path: Path) -> None:
    RegistryStore.open(db_path).close()
    with RegistryStore.open(db_path) as store:
        rows = store.connection.execute(
            "SELECT name FROM _sqlite_migrations WHERE migration_set = 'registry_db'"
        ).fetchall()
    assert [r[0] for r in rows] == [m.name for m in migrations._migrations]


def test_create_get_and_list(store: RegistryStore) -> None:
    settings = RegistrySettings(verbs=("query", "create"), extra={"lint": {"max_tools": 40}})
    created = store.create_registry("travel-reimbursement", "Travel", "Claims", settings)
    store.create_registry("order-service")
    assert created.name == "travel-reimbursement"
    assert created.settings == settings
    assert (created.draft_revision, created.tool_count, created.version_count) == (0, 0, 0)
    assert created.latest_version is None
    assert store.get_registry("travel-reimbursement") == created
    assert [r.name for r in store.list_registries()] == ["order-service", "travel-reimbursement"]


def test_create_twice_and_missing_registry(store: RegistryStore) -> None:
    store.create_registry("travel-reimbursement")
    with pytest.raises(AlreadyExistsError, match="travel-reimbursement"):
        store.create_registry("travel-reimbursement")
    with pytest.raises(NotFoundError, match="'nope' does not exist"):
        store.get_registry("nope")
    with pytest.raises(NotFoundError):
        store.draft_tools("nope")
    with pytest.raises(ValueError):
        store.create_registry("")


def test_counts_follow_drafts_and_versions(store: RegistryStore, make_tool: MakeTool) -> None:
    store.create_registry("r")
    store.save_draft("r", [UpsertTool(make_tool("query_a")), UpsertTool(make_tool("query_b"))])
    store.publish("r")
    info = store.get_registry("r")
    assert (info.tool_count, info.version_count, info.latest_version) == (2, 1, 1)
    assert info.draft_revision == 1


def test_update_meta_bumps_revision_and_detects_conflicts(
    store: RegistryStore, other_store: RegistryStore
) -> None:
    info = store.create_registry("r", "Old")
    settings = RegistrySettings(verbs=("get",))
    updated = store.update_registry_meta(
        "r", base_revision=info.draft_revision, title="New", description="D", settings=settings
    )
    assert (updated.title, updated.description, updated.settings) == ("New", "D", settings)
    assert updated.draft_revision == info.draft_revision + 1
    with pytest.raises(ConflictError) as caught:
        other_store.update_registry_meta(
            "r", base_revision=info.draft_revision, title="Lost", description="", settings=settings
        )
    assert caught.value.stored_revision == updated.draft_revision
    assert "changed elsewhere" in str(caught.value)
    assert store.get_registry("r").title == "New"


def test_delete_registry_removes_its_draft(store: RegistryStore, make_tool: MakeTool) -> None:
    store.create_registry("r")
    store.save_draft("r", [UpsertTool(make_tool("query_a"))])
    store.delete_registry("r")
    assert store.list_registries() == []
    assert store.connection.execute("SELECT count(*) FROM draft_tools").fetchone()[0] == 0
    with pytest.raises(NotFoundError):
        store.delete_registry("r")


def test_delete_refused_once_published(store: RegistryStore) -> None:
    store.create_registry("r")
    store.publish("r")
    with pytest.raises(RegistryHasVersionsError, match="1 published version") as caught:
        store.delete_registry("r")
    assert isinstance(caught.value, ValueError)
    assert isinstance(caught.value, StoreError)
    assert store.get_registry("r").version_count == 1


def test_foreign_keys_are_enforced(store: RegistryStore) -> None:
    with pytest.raises(sqlite3.IntegrityError):
        store.connection.execute(
            "INSERT INTO draft_tools (registry_id, name, position, document_json,"
            " content_hash, updated_at) VALUES (999, 'x', 0, '{}', 'h', 'now')"
        )
