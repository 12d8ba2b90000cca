"""Channel actions: set, promote, rollback, the append-only event log, salts."""

from __future__ import annotations

import sqlite3

import pytest

from registry_db import NotFoundError, RegistryStore
from registry_db.channels import ChannelRepository
from studio.release import (
    PUBLISH,
    ChannelError,
    ChannelEvent,
    channel_events,
    promote,
    release_state,
    rollback,
    set_canary,
    set_channel,
)

from .conftest import REGISTRY


def channel_actions(store: RegistryStore) -> list[ChannelEvent]:
    """The log without its publish entries (the fixture's three publishes are logged too)."""
    return [e for e in channel_events(store, REGISTRY) if e.action != PUBLISH]


def test_fresh_registry_has_stable_following_latest(store: RegistryStore) -> None:
    state = release_state(store, REGISTRY)
    assert [c.name for c in state.channels] == ["stable", "canary"]
    assert state.stable_version == 3
    assert not state.stable_pinned
    assert state.channel("canary").version is None
    assert [e.action for e in channel_events(store, REGISTRY)] == [PUBLISH] * 3


def test_set_canary_pins_stable_below_it_and_logs_both(store: RegistryStore) -> None:
    state = set_canary(store, REGISTRY, version=3, share=10, who="ana", why="new policy wording")
    assert state.stable_pinned and state.stable_version == 2
    canary = state.channel("canary")
    assert (canary.version, canary.share) == (3, 10)
    events = channel_actions(store)
    assert [(e.channel, e.action) for e in events] == [("stable", "pin"), ("canary", "set")]
    last = events[-1]
    assert last.who == "ana" and last.why == "new policy wording"
    assert last.before == {"version": None, "share": 0}
    assert last.after == {"version": 3, "share": 10}
    assert last.created_at.endswith("Z")


def test_promote_moves_canary_to_stable(store: RegistryStore) -> None:
    set_canary(store, REGISTRY, version=3, share=25, who="ana")
    state = promote(store, REGISTRY, who="bo", why="guard says healthy")
    assert state.stable_version == 3
    canary = state.channel("canary")
    assert (canary.version, canary.share) == (None, 0)
    promoted = [e for e in channel_events(store, REGISTRY) if e.action == "promote"]
    assert {e.channel for e in promoted} == {"stable", "canary"}
    assert all(e.who == "bo" and e.why == "guard says healthy" for e in promoted)


def test_rollback_canary_to_zero_keeps_its_version(store: RegistryStore) -> None:
    set_canary(store, REGISTRY, version=3, share=50)
    state = rollback(store, REGISTRY, why="errors")
    canary = state.channel("canary")
    assert (canary.version, canary.share) == (3, 0)
    assert channel_events(store, REGISTRY)[-1].action == "rollback"
    with pytest.raises(ChannelError, match="already at 0 %"):
        rollback(store, REGISTRY)


def test_rollback_stable_walks_back_through_its_history(store: RegistryStore) -> None:
    set_channel(store, REGISTRY, "stable", version=1)
    set_canary(store, REGISTRY, version=2, share=10)
    promote(store, REGISTRY)
    set_canary(store, REGISTRY, version=3, share=10)
    promote(store, REGISTRY)
    assert release_state(store, REGISTRY).stable_version == 3
    assert rollback(store, REGISTRY, "stable").stable_version == 2
    assert rollback(store, REGISTRY, "stable").stable_version == 1
    with pytest.raises(ChannelError, match="no previous version"):
        rollback(store, REGISTRY, "stable")
    assert release_state(store, REGISTRY).stable_version == 1


def test_salt_is_per_channel_and_kept_across_releases(store: RegistryStore) -> None:
    first = set_canary(store, REGISTRY, version=2, share=10).channel("canary").salt
    promote(store, REGISTRY)
    again = set_canary(store, REGISTRY, version=3, share=30).channel("canary").salt
    assert first and first == again
    stable_salt = release_state(store, REGISTRY).channel("stable").salt
    assert stable_salt != first


def test_salt_differs_between_registries(store: RegistryStore, publish_versions) -> None:
    publish_versions(store, "orders", 2)
    a = set_canary(store, REGISTRY, version=2, share=10).channel("canary").salt
    b = set_canary(store, "orders", version=2, share=10).channel("canary").salt
    assert a != b


def test_bad_input_changes_nothing(store: RegistryStore) -> None:
    logged = channel_events(store, REGISTRY)
    with pytest.raises(ChannelError, match="between 0 and 100"):
        set_canary(store, REGISTRY, version=3, share=101)
    with pytest.raises(NotFoundError, match="no version 9"):
        set_canary(store, REGISTRY, version=9, share=10)
    with pytest.raises(NotFoundError):
        set_canary(store, "nope", version=1, share=10)
    with pytest.raises(ChannelError, match="100 %"):
        set_channel(store, REGISTRY, "stable", version=1, share=50)
    with pytest.raises(ChannelError, match="channel name"):
        set_channel(store, REGISTRY, "bad name!", version=1, share=5)
    with pytest.raises(ChannelError, match="no version to promote"):
        promote(store, REGISTRY)
    assert channel_events(store, REGISTRY) == logged
    assert release_state(store, REGISTRY).channel("canary").salt == ""


def test_more_channels_by_name(store: RegistryStore) -> None:
    state = set_channel(store, REGISTRY, "beta", version=3, share=5)
    assert [c.name for c in state.channels] == ["stable", "canary", "beta"]


def test_events_cannot_be_updated_or_deleted(store: RegistryStore) -> None:
    set_canary(store, REGISTRY, version=3, share=10)
    logged = channel_events(store, REGISTRY)  # three publishes, a pin and a set
    conn = store.connection
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        conn.execute("UPDATE channel_events SET why = 'edited'")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        conn.execute("DELETE FROM channel_events")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        conn.execute("UPDATE channel_events SET after_json = '{}' WHERE action = 'publish'")
    assert channel_events(store, REGISTRY) == logged and len(logged) == 5


def test_every_action_is_logged_and_survives_reopen(store: RegistryStore, db_path) -> None:
    set_canary(store, REGISTRY, version=2, share=10, who="a")
    set_canary(store, REGISTRY, version=2, share=40, who="b")
    rollback(store, REGISTRY, who="c")
    set_canary(store, REGISTRY, version=3, share=10, who="d")
    promote(store, REGISTRY, who="e")
    rollback(store, REGISTRY, "stable", who="f")
    with RegistryStore.open(db_path) as reopened:
        logged = ChannelRepository(reopened).events(REGISTRY)
        state = release_state(reopened, REGISTRY)
    assert [e.action for e in logged[:3]] == [PUBLISH] * 3
    events = logged[3:]
    assert [(e.who, e.channel, e.action) for e in events] == [
        ("a", "stable", "pin"),
        ("a", "canary", "set"),
        ("b", "canary", "set"),
        ("c", "canary", "rollback"),
        ("d", "canary", "set"),
        ("e", "stable", "promote"),
        ("e", "canary", "promote"),
        ("f", "stable", "rollback"),
    ]
    # Each event's "before" is the previous event's "after" on that channel.
    last: dict[str, dict] = {}
    for e in events:
        if e.channel in last:
            assert e.before == last[e.channel]
        last[e.channel] = e.after
    assert state.stable_version == 1


def test_a_failed_action_writes_nothing(store: RegistryStore, monkeypatch) -> None:
    set_canary(store, REGISTRY, version=3, share=10)
    repo = ChannelRepository(store)
    calls = {"n": 0}
    original = repo._write

    def failing(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 2:
            raise RuntimeError("disk on fire")
        return original(*args, **kwargs)

    monkeypatch.setattr(repo, "_write", failing)
    with pytest.raises(RuntimeError):
        repo.promote(REGISTRY)
    state = release_state(store, REGISTRY)
    assert state.stable_version == 2
    assert state.channel("canary").share == 10
    assert [e.action for e in channel_actions(store)] == ["pin", "set"]
