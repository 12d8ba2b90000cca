"""The append-only ``channel_events`` log: the one INSERT every writer goes through.

Two kinds of rows share the log (DESIGN §4):

* channel actions (``set``, ``pin``, ``promote``, ``rollback``) name a real
  channel, and their ``before``/``after`` are that channel's state
  ``{"version", "share"}``;
* ``publish`` rows name no channel (``channel`` is :data:`NO_CHANNEL`, the
  empty string, which no channel can be called): publishing creates a version
  but moves no channel row. Their ``before``/``after`` are the registry's
  newest version ``{"version", "semver"}`` before and after the publish.

Anything that replays a channel's state from the log must therefore read only
that channel's rows, or skip :data:`PUBLISH` rows. Functions here run inside a
write transaction opened by the caller, so an event and the change it records
commit or roll back together.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from typing import Any

PUBLISH = "publish"
"""The action of a row that records a new version rather than a channel change."""

NO_CHANNEL = ""
"""The ``channel`` of a row that concerns the registry, not one channel (publish)."""


def append_event(
    conn: sqlite3.Connection,
    *,
    registry: str,
    channel: str,
    action: str,
    who: str,
    why: str,
    before: Mapping[str, Any],
    after: Mapping[str, Any],
    now: str,
) -> None:
    """Append one row to the log.

    Args:
        conn: A connection inside a write transaction.
        registry: The registry's name (names, not keys: nothing cascades into the log).
        channel: The channel acted on, or :data:`NO_CHANNEL`.
        action: ``set``, ``pin``, ``promote``, ``rollback`` or :data:`PUBLISH`.
        who: Who acted.
        why: The reason given (may be empty).
        before: The state before the action, stored as JSON.
        after: The state after it, stored as JSON.
        now: The timestamp.
    """
    conn.execute(
        "INSERT INTO channel_events (registry, channel, action, who, why, before_json,"
        " after_json, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (registry, channel, action, who, why, json.dumps(dict(before)),
         json.dumps(dict(after)), now),
    )  # fmt: skip
