"""The review stored with a version: written by publish, read back, immutable."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from registry_db import RegistryStore

REVIEW = {
    "against": "stable (v1)",
    "counts": {"breaking": 2, "behavioural": 1, "compatible": 0, "metadata": 0},
    "semver": {"level": "major", "reasons": ["schema.required-added"]},
    "acknowledged": [
        {"rule_id": "schema.required-added", "tool": "t", "path": "parameters.required"}
    ],
    "acknowledged_by": "alice",
}


def test_review_round_trips_through_every_reader(store: RegistryStore, make_tool) -> None:
    store.create_registry("r")
    info = store.publish("r", notes="n", semver="1.0.0", author="alice", review=REVIEW)
    assert info.review == REVIEW
    assert store.list_versions("r")[0].review == REVIEW
    assert store.latest_version("r").review == REVIEW
    assert store.load_version("r", 1).info.review == REVIEW


def test_publish_without_review_stores_none(store: RegistryStore) -> None:
    store.create_registry("r")
    assert store.publish("r").review is None
    assert store.load_version("r", 1).info.review is None
    assert store.list_versions("r")[0].review is None


def test_review_is_immutable_like_the_rest(store: RegistryStore) -> None:
    store.create_registry("r")
    store.publish("r", review=REVIEW)
    with pytest.raises(sqlite3.IntegrityError, match="versions are immutable"):
        store.connection.execute("UPDATE versions SET review_json = NULL")
    assert store.load_version("r", 1).info.review == REVIEW


def test_review_is_outside_the_content_hash(store: RegistryStore) -> None:
    store.create_registry("r")
    plain = store.publish("r")
    reviewed = store.publish("r", review=REVIEW)
    assert plain.content_hash == reviewed.content_hash


def test_migration_adds_a_nullable_column(db_path: Path, store: RegistryStore) -> None:
    columns = {row[1]: row for row in store.connection.execute("PRAGMA table_info(versions)")}
    assert "review_json" in columns and columns["review_json"][3] == 0  # not NOT NULL
    names = [r[0] for r in store.connection.execute("SELECT name FROM _sqlite_migrations")]
    assert names[-1] >= "0006_version_review" and "0006_version_review" in names
