"""Publishing appends a ``publish`` event to the channel log, in the version's transaction."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from registry_db import InvalidSemverError, NotFoundError, RegistryStore, UpsertTool
from registry_db.channel_log import NO_CHANNEL, PUBLISH
from registry_db.channels import ChannelEvent, ChannelRepository
from registry_db.versions import default_author


def log(store: RegistryStore, registry: str = "r") -> list[ChannelEvent]:
    return ChannelRepository(store).events(registry)


def test_publish_appends_exactly_one_event_with_who_why_and_version(
    store: RegistryStore, db_path: Path, make_tool
) -> None:
    store.create_registry("r")
    store.save_draft("r", [UpsertTool(make_tool("search_policy"))])
    first = store.publish("r", notes="first cut", semver="1.0.0", author="alice")
    events = log(store)
    assert len(events) == 1
    event = events[0]
    assert (event.registry, event.channel, event.action) == ("r", NO_CHANNEL, PUBLISH)
    assert (event.who, event.why) == ("alice", "first cut")
    assert event.before == {"version": None, "semver": None}
    assert event.after == {"version": 1, "semver": "1.0.0"}
    assert event.created_at == first.created_at

    store.publish("r")  # no semver, no notes, no author: the OS user
    with RegistryStore.open(db_path) as reopened:  # committed, not just visible to this connection
        events = log(reopened)
    assert len(events) == 2
    second = events[1]
    assert (second.action, second.who, second.why) == (PUBLISH, default_author(), "")
    assert second.before == {"version": 1, "semver": "1.0.0"}
    assert second.after == {"version": 2, "semver": None}


def test_publish_logs_under_its_own_registry_only(store: RegistryStore) -> None:
    store.create_registry("a")
    store.create_registry("b")
    store.publish("a", author="x")
    store.publish("b", author="y", semver="2.0.0")
    assert [(e.who, e.after["version"]) for e in log(store, "a")] == [("x", 1)]
    assert [(e.who, e.after["semver"]) for e in log(store, "b")] == [("y", "2.0.0")]


def test_a_failing_publish_appends_nothing(store: RegistryStore) -> None:
    store.create_registry("r")
    store.publish("r", semver="1.2.0", author="alice")
    logged = log(store)
    for bad in ("banana", "1.1.9", "1.2.0"):
        with pytest.raises(InvalidSemverError):
            store.publish("r", semver=bad, notes="should not be logged")
    with pytest.raises(NotFoundError):
        store.publish("nope", notes="should not be logged")
    assert log(store) == logged
    assert [v.number for v in store.list_versions("r")] == [1]
    total = store.connection.execute("SELECT count(*) FROM channel_events").fetchone()[0]
    assert total == 1


def test_a_failing_log_write_publishes_nothing(store: RegistryStore, make_tool) -> None:
    store.create_registry("r")
    store.save_draft("r", [UpsertTool(make_tool("search_policy"))])
    conn = store.connection
    # A real refusal from SQLite, after the version row was already inserted.
    conn.execute(
        "CREATE TEMP TRIGGER refuse_publish_log BEFORE INSERT ON channel_events"
        " WHEN NEW.action = 'publish' BEGIN SELECT RAISE(ABORT, 'log refused'); END"
    )
    with pytest.raises(sqlite3.DatabaseError, match="log refused"):
        store.publish("r", notes="lost", semver="1.0.0", author="alice")
    assert store.list_versions("r") == []
    assert store.latest_version("r") is None
    assert store.get_registry("r").version_count == 0
    assert log(store) == []

    conn.execute("DROP TRIGGER refuse_publish_log")
    info = store.publish("r", notes="kept", semver="1.0.0", author="alice")
    assert info.number == 1  # the failed attempt used up nothing
    assert [(e.after["version"], e.why) for e in log(store)] == [(1, "kept")]
