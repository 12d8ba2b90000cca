"""Publish entries in the channel log: channel state ignores them, the CLI lists them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from registry_db import RegistryStore
from registry_db.versions import default_author
from studio.cli import main
from studio.release import (
    NO_CHANNEL,
    PUBLISH,
    STABLE,
    ChannelError,
    channel_events,
    promote,
    release_state,
    rollback,
    set_canary,
    set_channel,
)

from .conftest import REGISTRY, publish_versions


def replayed(store: RegistryStore) -> dict[str, dict[str, Any]]:
    """Each channel's state as its own log entries leave it (the last ``after``)."""
    state: dict[str, dict[str, Any]] = {}
    for channel in release_state(store, REGISTRY).channels:
        own = channel_events(store, REGISTRY, channel.name)
        if own:
            state[channel.name] = own[-1].after
    return state


def stored(store: RegistryStore) -> dict[str, dict[str, Any]]:
    return {
        c.name: {"version": c.version, "share": c.share}
        for c in release_state(store, REGISTRY).channels
        if c.updated_at
    }


def test_publish_rows_leave_channel_state_and_rollback_alone(store: RegistryStore) -> None:
    set_channel(store, REGISTRY, STABLE, version=1, who="ana")
    publish_versions(store, REGISTRY, 1)  # v4, while stable is pinned
    set_canary(store, REGISTRY, version=2, share=10)
    promote(store, REGISTRY)
    publish_versions(store, REGISTRY, 1)  # v5

    state = release_state(store, REGISTRY)
    assert state.stable_pinned and state.stable_version == 2
    assert state.channel("canary").version is None
    assert stored(store) == replayed(store)
    for channel in state.channels:  # publishes are not any channel's entries
        assert all(e.action != PUBLISH for e in channel_events(store, REGISTRY, channel.name))
    publishes = [e for e in channel_events(store, REGISTRY) if e.action == PUBLISH]
    assert [e.after["version"] for e in publishes] == [1, 2, 3, 4, 5]
    assert {e.channel for e in publishes} == {NO_CHANNEL}

    # Stable's history is 1 → 2; the publishes of 4 and 5 are not steps of it.
    assert rollback(store, REGISTRY, STABLE).stable_version == 1
    with pytest.raises(ChannelError, match="no previous version"):
        rollback(store, REGISTRY, STABLE)
    assert stored(store) == replayed(store)


def test_publish_while_stable_follows_latest_moves_only_the_effective_version(
    store: RegistryStore,
) -> None:
    before = release_state(store, REGISTRY)
    publish_versions(store, REGISTRY, 1)
    after = release_state(store, REGISTRY)
    assert (before.stable_version, after.stable_version) == (3, 4)
    assert not after.stable_pinned
    assert after.channels == before.channels  # no channel row was written
    assert replayed(store) == {}


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = tmp_path / "cli.sqlite3"
    with RegistryStore.open(path) as store:
        publish_versions(store, REGISTRY, 2)
    return str(path)


def test_cli_publish_is_logged_and_channel_show_lists_it(db: str, capsys) -> None:
    assert main(["--db", db, "publish", REGISTRY, "--notes", "clarified dates",
                 "--semver", "1.5.0"]) == 0  # fmt: skip
    assert main(["--db", db, "channel", REGISTRY, "set", "canary", "--version", "3",
                 "--share", "10", "--who", "ana", "--why", "try it"]) == 0  # fmt: skip
    capsys.readouterr()
    assert main(["--db", db, "channel", REGISTRY, "show"]) == 0
    lines = capsys.readouterr().out.splitlines()
    log = [line.split("\t", 1)[1] for line in lines if line[:4].isdigit()]  # drop timestamps
    who = default_author()
    assert log == [
        f"{who}\tpublish\tnone -> v1 (1.0.0)\trelease 1",
        f"{who}\tpublish\tv1 (1.0.0) -> v2 (1.1.0)\trelease 2",
        f"{who}\tpublish\tv2 (1.1.0) -> v3 (1.5.0)\tclarified dates",
        "ana\tpin stable\tunset -> v2 at 100 %\tstable pinned when canary was first set",
        "ana\tset canary\tunset -> v3 at 10 %\ttry it",
    ]
