"""Release channels and their append-only event log (DESIGN §4, §7).

A channel points a registry at one of its published versions; every channel
but ``stable`` also has a share in percent. Each channel gets a random salt
the first time it is written and keeps it for life, so bucketing stays
sticky across releases. Every action here is one ``BEGIN IMMEDIATE``
transaction that changes the channel rows and appends one event per channel
it changed (who, when, why, the action, the channel before and after).
Publishing appends its own ``publish`` event (see :mod:`registry_db.channel_log`).
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import threading
from dataclasses import dataclass
from typing import Any

from registry_db.channel_log import NO_CHANNEL, PUBLISH, append_event
from registry_db.connection import find_registry_id, read_transaction, utc_now, write_transaction
from registry_db.errors import NotFoundError, StoreError
from registry_db.store import RegistryStore
from registry_db.versions import check_version, default_author, read_version

STABLE = "stable"
CANARY = "canary"
DEFAULT_CHANNELS = (STABLE, CANARY)

__all__ = [
    "CANARY",
    "DEFAULT_CHANNELS",
    "NO_CHANNEL",
    "PUBLISH",
    "STABLE",
    "Channel",
    "ChannelError",
    "ChannelEvent",
    "ChannelRepository",
]


class ChannelError(StoreError, ValueError):
    """A channel action that cannot be carried out (nothing was written)."""


@dataclass(frozen=True, slots=True)
class Channel:
    """One channel of a registry.

    Attributes:
        registry: The registry's name.
        name: ``stable``, ``canary`` or another name.
        version: The version number it serves, or None when unset.
        share: Percent of subjects it takes (``stable`` is always 100).
        salt: The bucketing salt, fixed for the channel's life.
        updated_at: When it last changed ('' for a channel never written).
    """

    registry: str
    name: str
    version: int | None
    share: int
    salt: str
    updated_at: str


@dataclass(frozen=True, slots=True)
class ChannelEvent:
    """One entry of the append-only channel log.

    A channel action names its channel, and ``before``/``after`` are that
    channel's ``{"version", "share"}``. A :data:`PUBLISH` entry has
    ``channel == NO_CHANNEL`` (``""``), ``who``/``why`` are the version's
    author and notes, and ``before``/``after`` are the newest version
    ``{"version", "semver"}`` (``version`` None before the first publish).
    """

    id: int
    registry: str
    channel: str
    action: str
    who: str
    why: str
    before: dict[str, Any]
    after: dict[str, Any]
    created_at: str


def _state(channel: Channel | None) -> dict[str, Any]:
    if channel is None:
        return {"version": None, "share": 0}
    return {"version": channel.version, "share": channel.share}


class ChannelRepository:
    """Channels of every registry in a store's database (shares its connection and lock)."""

    def __init__(self, store: RegistryStore) -> None:
        self._store = store
        self._conn: sqlite3.Connection = store.connection
        self._lock: threading.RLock = store.lock

    # ------------------------------------------------------------------ reads

    def _rows(self, registry: str) -> list[Channel]:
        registry_id = find_registry_id(self._conn, registry)
        rows = self._conn.execute(
            "SELECT name, version, share, salt, updated_at FROM channels"
            " WHERE registry_id = ? ORDER BY id",
            (registry_id,),
        ).fetchall()
        return [Channel(registry, *row) for row in rows]

    def channels(self, registry: str) -> list[Channel]:
        """The registry's channels: ``stable`` first, then the others in creation order.

        ``stable`` and ``canary`` are always listed; one never written has no
        version, share 0 (100 for stable) and an empty salt.
        """
        with self._lock, read_transaction(self._conn):
            rows = self._rows(registry)
        by_name = {c.name: c for c in rows}
        for name in DEFAULT_CHANNELS:
            by_name.setdefault(name, Channel(registry, name, None, 100 if name == STABLE else 0,
                                             "", ""))  # fmt: skip
        stable = by_name.pop(STABLE)
        canary = by_name.pop(CANARY)
        others = [c for c in rows if c.name not in DEFAULT_CHANNELS]
        return [stable, canary, *others]

    def latest_version_number(self, registry: str) -> int | None:
        """The newest published version of ``registry`` (None before the first publish)."""
        with self._lock, read_transaction(self._conn):
            registry_id = find_registry_id(self._conn, registry)
            row = self._conn.execute(
                "SELECT max(number) FROM versions WHERE registry_id = ?", (registry_id,)
            ).fetchone()
        return None if row[0] is None else int(row[0])

    def events(self, registry: str, channel: str | None = None) -> list[ChannelEvent]:
        """The registry's channel log, oldest first (optionally one channel's)."""
        sql = (
            "SELECT id, registry, channel, action, who, why, before_json, after_json, created_at"
            " FROM channel_events WHERE registry = ?"
        )
        params: list[Any] = [registry]
        if channel is not None:
            sql += " AND channel = ?"
            params.append(channel)
        with self._lock, read_transaction(self._conn):
            find_registry_id(self._conn, registry)
            rows = self._conn.execute(sql + " ORDER BY id", params).fetchall()
        return [
            ChannelEvent(
                id_, reg, chan, action, who, why, json.loads(before), json.loads(after), at
            )
            for id_, reg, chan, action, who, why, before, after, at in rows
        ]

    # ------------------------------------------------------------------ writes

    def _check_version(self, registry: str, number: int) -> None:
        """Refuse (TamperedVersionError) a version that fails its hash check.

        Read under the lock, checked without it, before the action's write
        transaction: a channel never points at a version every resolve would
        then refuse. A missing registry or version is left to the action,
        which reports it in its own words.
        """
        try:
            stored = self._store.read_version(registry, number)
        except NotFoundError:
            return
        check_version(stored)

    def _check_stored(self, registry_id: int, registry: str, number: int) -> None:
        """:meth:`_check_version` inside a transaction (the lock held while hashing)."""
        check_version(read_version(self._conn, registry_id, registry, number))

    def _version_exists(self, registry_id: int, number: int) -> bool:
        return (
            self._conn.execute(
                "SELECT 1 FROM versions WHERE registry_id = ? AND number = ?",
                (registry_id, number),
            ).fetchone()
            is not None
        )

    def _write(
        self,
        registry: str,
        registry_id: int,
        before: Channel | None,
        name: str,
        version: int | None,
        share: int,
        *,
        action: str,
        who: str,
        why: str,
        now: str,
    ) -> Channel:
        if before is None:
            salt = secrets.token_hex(8)
            self._conn.execute(
                "INSERT INTO channels (registry_id, name, version, share, salt, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (registry_id, name, version, share, salt, now),
            )
        else:
            salt = before.salt
            self._conn.execute(
                "UPDATE channels SET version = ?, share = ?, updated_at = ?"
                " WHERE registry_id = ? AND name = ?",
                (version, share, now, registry_id, name),
            )
        after = Channel(registry, name, version, share, salt, now)
        append_event(self._conn, registry=registry, channel=name, action=action, who=who,
                     why=why, before=_state(before), after=_state(after), now=now)  # fmt: skip
        return after

    def _stable_history(self, registry: str) -> list[int]:
        """Versions stable pointed at, oldest first, with rolled-back ones popped off.

        Only stable's channel actions count: a publish moves no channel (and
        is logged under no channel; the action test guards the replay anyway).
        """
        history: list[int] = []
        rows = self._conn.execute(
            "SELECT action, after_json FROM channel_events WHERE registry = ? AND channel = ?"
            " AND action != ? ORDER BY id",
            (registry, STABLE, PUBLISH),
        )
        for action, after_json in rows:
            version = json.loads(after_json).get("version")
            if action == "rollback":
                if history:
                    history.pop()
            elif version is not None and (not history or history[-1] != version):
                history.append(version)
        return history

    def set_channel(
        self,
        registry: str,
        name: str,
        *,
        version: int,
        share: int,
        who: str | None = None,
        why: str = "",
    ) -> list[Channel]:
        """Point ``name`` at ``version`` with ``share`` percent (``stable`` takes 100).

        When a non-stable channel is set while stable was never set, stable is
        pinned in the same transaction to the newest version below ``version``
        (logged as a ``pin`` event), so publishing later never moves stable.

        Return:
            The channels after the change.

        Raises:
            NotFoundError: no such registry or version.
            TamperedVersionError: the version fails its hash check (nothing is written).
            ChannelError: a bad name or share.
        """
        if not name or len(name) > 64 or not name.replace("-", "").replace("_", "").isalnum():
            raise ChannelError(f"channel name {name!r}: use letters, digits, '-' and '_'")
        if not 0 <= share <= 100:
            raise ChannelError(f"share must be between 0 and 100, not {share}")
        if name == STABLE and share != 100:
            raise ChannelError("the stable channel always takes 100 %; set a canary's share")
        who = who or default_author()
        self._check_version(registry, version)
        with self._lock, write_transaction(self._conn):
            registry_id = find_registry_id(self._conn, registry)
            if not self._version_exists(registry_id, version):
                raise NotFoundError(f"{registry} has no version {version}")
            current = {c.name: c for c in self._rows(registry)}
            now = utc_now()
            if name != STABLE and current.get(STABLE) is None:
                below = self._conn.execute(
                    "SELECT max(number) FROM versions WHERE registry_id = ? AND number < ?",
                    (registry_id, version),
                ).fetchone()[0]
                if below is not None:
                    self._write(registry, registry_id, None, STABLE, int(below), 100,
                                action="pin", who=who, now=now,
                                why=f"stable pinned when {name} was first set")  # fmt: skip
            self._write(registry, registry_id, current.get(name), name, version, share,
                        action="set", who=who, why=why, now=now)  # fmt: skip
        return self.channels(registry)

    def promote(
        self, registry: str, channel: str = CANARY, *, who: str | None = None, why: str = ""
    ) -> list[Channel]:
        """Make ``channel``'s version the stable one and take the channel to 0 %, unset.

        Raises:
            ChannelError: the channel has no version, or it is stable itself.
            TamperedVersionError: its version fails its hash check (nothing is written).
        """
        if channel == STABLE:
            raise ChannelError("stable cannot be promoted; promote a canary channel")
        who = who or default_author()
        with self._lock, write_transaction(self._conn):
            registry_id = find_registry_id(self._conn, registry)
            current = {c.name: c for c in self._rows(registry)}
            source = current.get(channel)
            if source is None or source.version is None:
                raise ChannelError(f"{registry}: channel {channel!r} has no version to promote")
            self._check_stored(registry_id, registry, source.version)
            now = utc_now()
            self._write(registry, registry_id, current.get(STABLE), STABLE, source.version, 100,
                        action="promote", who=who, why=why, now=now)  # fmt: skip
            self._write(registry, registry_id, source, channel, None, 0,
                        action="promote", who=who, why=why, now=now)  # fmt: skip
        return self.channels(registry)

    def rollback(
        self, registry: str, channel: str = CANARY, *, who: str | None = None, why: str = ""
    ) -> list[Channel]:
        """Roll ``channel`` back: stable to its previous version, any other channel to 0 %.

        Raises:
            ChannelError: nothing to roll back (no previous stable version, or
                the channel already at 0 %).
            TamperedVersionError: stable's previous version fails its hash check.
        """
        who = who or default_author()
        with self._lock, write_transaction(self._conn):
            registry_id = find_registry_id(self._conn, registry)
            current = {c.name: c for c in self._rows(registry)}
            before = current.get(channel)
            now = utc_now()
            if channel == STABLE:
                history = self._stable_history(registry)
                if before is None or before.version is None or len(history) < 2:
                    raise ChannelError(
                        f"{registry}: stable has no previous version to roll back to"
                    )
                target = history[-2]
                self._check_stored(registry_id, registry, target)
                self._write(registry, registry_id, before, STABLE, target, 100,
                            action="rollback", who=who, why=why, now=now)  # fmt: skip
            else:
                if before is None or before.share == 0:
                    raise ChannelError(
                        f"{registry}: channel {channel!r} is already at 0 %"
                        + ("; pass --channel stable to roll stable back" if channel == CANARY
                           else "")
                    )  # fmt: skip
                self._write(registry, registry_id, before, channel, before.version, 0,
                            action="rollback", who=who, why=why, now=now)  # fmt: skip
        return self.channels(registry)
