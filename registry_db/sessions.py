"""Sessions, their messages and run events, tool-call outcomes and mock responses.

The runtime writes a run's events, messages and outcomes in batches (one
transaction each, at most 50 ms late, and at once before a call executes or
the run waits for a person), so a crash mid-run leaves everything up to the
last such point readable.
Values are stored as JSON; this module knows nothing of the runtime's types.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import orjson

from registry_db.connection import find_registry_id, read_transaction, utc_now, write_transaction
from registry_db.errors import NotFoundError
from registry_db.store import RegistryStore

if TYPE_CHECKING:
    from registry_db.session_records import Outcome as Outcome
    from registry_db.session_records import SessionSummary as SessionSummary
    from registry_db.session_records import StoredEvent as StoredEvent

_RECORDS = frozenset({"Outcome", "SessionSummary", "StoredEvent"})


def __getattr__(name: str) -> Any:
    """``Outcome``, ``SessionSummary`` and ``StoredEvent``, from registry_db.session_records
    on first use (an import or check of a log defines none of them)."""
    if name in _RECORDS:
        from registry_db import session_records

        return getattr(session_records, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@contextmanager
def _synchronous(conn: sqlite3.Connection, synced: bool) -> Iterator[None]:
    """Inside the block, commits on ``conn`` skip the fsync unless ``synced``."""
    if synced:
        yield
        return
    previous = conn.execute("PRAGMA synchronous").fetchone()[0]
    conn.execute("PRAGMA synchronous = NORMAL")
    try:
        yield
    finally:
        conn.execute(f"PRAGMA synchronous = {int(previous)}")


@contextmanager
def _savepoint(conn: sqlite3.Connection) -> Iterator[None]:
    """The block all or nothing inside the transaction already open on ``conn``."""
    conn.execute("SAVEPOINT import_session")
    try:
        yield
    except BaseException:
        # An error raised by SQLite itself may already have ended the whole transaction.
        if conn.in_transaction:
            conn.execute("ROLLBACK TO import_session")
            conn.execute("RELEASE import_session")
        raise
    conn.execute("RELEASE import_session")


@dataclass(frozen=True, slots=True)
class SessionInfo:
    """A stored session's row (its messages and events are read apart)."""

    id: str
    registry: str
    version: str
    profile: str
    title: str
    system: str
    context: dict[str, Any]
    parent_session_id: str | None
    parent_message_index: int | None
    status: str
    created_at: str
    updated_at: str
    source: str = "playground"
    """``playground``, ``import`` or ``replay``."""
    tools: list[Any] = field(default_factory=list)
    """Tool definitions that came with an imported log (wire form)."""
    meta: dict[str, Any] = field(default_factory=dict)
    """List metadata: model, file, line, format, warning and problem counts."""


_SUMMARY_COLUMNS = (
    "id, registry, version, profile, title, status, created_at, updated_at, source, meta_json"
)


_OUTCOME_COLUMNS = (
    "session_id, call_id, registry, version, tool, status, error_code, latency_ms, created_at,"
    " risk, idempotency_key, duplicate_of"
)


def _outcome_row(o: Outcome, now: str) -> tuple[Any, ...]:
    return (o.session_id, o.call_id, o.registry, o.version, o.tool, o.status, o.error_code,
            o.latency_ms, o.created_at or now, o.risk, o.idempotency_key,
            o.duplicate_of)  # fmt: skip


_SESSION_COLUMNS = (
    "id, registry, version, profile, title, system, context_json, parent_session_id,"
    " parent_message_index, status, created_at, updated_at, source, tools_json, meta_json"
)


def _random_id() -> str:
    """A new session's id; :mod:`uuid` (which loads :mod:`platform`) is imported here, not by
    the imports and checks of session logs, whose ids come from their content hash."""
    import uuid

    return uuid.uuid4().hex


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


_ORJSON_STRICT = orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME


_DIGITS_AS_ZERO = bytes.maketrans(b"123456789", b"000000000")
_LONG_NUMBER = b"0" * 19
"""19 digits in a row once every digit is spelled 0: one translate and find, ~9× faster than
a regex (as studio.sessions.importers.base.has_long_number)."""


def _loads_fast(text: str) -> Any:
    """``json.loads(text)`` by orjson for a text :func:`_dumps_fast` or :func:`_dumps` wrote.

    What orjson refuses (NaN, infinities) or reads otherwise (an int past 64 bits becomes
    a float: any run of 19 digits is sent along) goes to json.loads, so the value is
    always json.loads's.
    """
    if _LONG_NUMBER not in text.encode("utf-8", "surrogatepass").translate(_DIGITS_AS_ZERO):
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError:
            pass
    return json.loads(text)


def _dumps_fast(value: Any) -> str:
    """:func:`_dumps` by orjson (~5× faster), for the many messages of an import.

    The text may differ (float spelling) but always decodes to the same value. What
    orjson would write differently (NaN and infinities as ``null``) or refuses (ints
    past 64 bits, lone surrogates, non-string keys, dataclasses) goes to json.dumps,
    so every value and every error stays what :func:`_dumps` gives.
    """
    try:
        data = orjson.dumps(value, option=_ORJSON_STRICT)
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return _dumps(value)
    if b"null" in data:  # maybe a NaN or infinity turned into null
        return _dumps(value)
    return data.decode()


def _session(row: tuple[Any, ...]) -> SessionInfo:
    (id_, registry, version, profile, title, system, context_json, parent_id, parent_index,
     status, created_at, updated_at, source, tools_json, meta_json) = row  # fmt: skip
    return SessionInfo(
        id_,
        registry,
        version,
        profile,
        title,
        system,
        json.loads(context_json),
        parent_id,
        parent_index,
        status,
        created_at,
        updated_at,
        source,
        json.loads(tools_json),
        json.loads(meta_json),
    )


class SessionStore:
    """Sessions in the same SQLite file as the registries.

    Share the connection and lock of a :class:`RegistryStore` with
    :meth:`for_store`; every method is one transaction.
    """

    def __init__(self, conn: sqlite3.Connection, lock: threading.RLock | None = None) -> None:
        self._conn = conn
        self._lock = lock or threading.RLock()
        self._batched = False

    @classmethod
    def for_store(cls, store: RegistryStore) -> SessionStore:
        # The registry store's lock serialises every user of the connection.
        return cls(store.connection, store.lock)

    @contextmanager
    def batch(self) -> Iterator[None]:
        """One transaction for the :meth:`import_session` calls made in the block.

        Each import stays all or nothing (a savepoint): one that fails leaves the
        others of the batch stored. A commit per conversation wrote the pages they
        share (the session list, the indexes) again each time: ~3 % of a 60-session
        import. Nothing of the batch is stored before the block ends, so keep it
        short (another process waits for the write lock meanwhile).
        """
        with self._lock, write_transaction(self._conn):
            self._batched = True
            try:
                yield
            finally:
                self._batched = False

    def has_session(self, session_id: str) -> bool:
        """Whether a session of that id is stored (one SELECT: fine inside :meth:`batch`)."""
        with self._lock:
            row = self._conn.execute("SELECT 1 FROM sessions WHERE id = ?", (session_id,))
            return row.fetchone() is not None

    # ------------------------------------------------------------------ sessions

    def create_session(
        self,
        *,
        registry: str = "",
        version: str = "",
        profile: str = "",
        title: str = "",
        system: str = "",
        context: dict[str, Any] | None = None,
        parent_session_id: str | None = None,
        parent_message_index: int | None = None,
        session_id: str | None = None,
        source: str = "playground",
        tools: Sequence[Any] = (),
        meta: dict[str, Any] | None = None,
        status: str = "created",
    ) -> SessionInfo:
        """A new, empty session (id: a random hex string unless given)."""
        sid = session_id or _random_id()
        now = utc_now()
        with self._lock, write_transaction(self._conn):
            self._conn.execute(
                f"INSERT INTO sessions ({_SESSION_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (sid, registry, version, profile, title, system, _dumps(context or {}),
                 parent_session_id, parent_message_index, status, now, now, source,
                 _dumps(list(tools)), _dumps(meta or {})),
            )  # fmt: skip
            return self._get(sid)

    def set_meta(self, session_id: str, meta: dict[str, Any]) -> None:
        """Replace the session's list metadata (e.g. a refreshed problem count)."""
        with self._lock, write_transaction(self._conn):
            self._conn.execute(
                "UPDATE sessions SET meta_json = ?, updated_at = ? WHERE id = ?",
                (_dumps(meta), utc_now(), session_id),
            )

    def import_session(
        self,
        content_hash: str,
        messages: Sequence[dict[str, Any]],
        *,
        title: str = "",
        profile: str = "",
        system: str = "",
        registry: str = "",
        version: str = "",
        tools: Sequence[Any] = (),
        meta: dict[str, Any] | None = None,
        replace: bool = False,
        source: str = "import",
        parent_session_id: str | None = None,
    ) -> tuple[SessionInfo, bool]:
        """Store an imported session with all its messages in ONE transaction.

        The session id is the first 32 hex digits of ``content_hash`` (kept in
        full in its meta), so a conversation imported before is found by its
        key: it is not stored again, that session is returned with False —
        unless ``replace``, which stores it anew in place of the earlier one
        (its messages and events go; True is returned). Any failure (text no
        encoder can write, a full disk) stores nothing. Inside :meth:`batch` it
        is a savepoint of the batch's transaction, committed with the batch.

        Args:
            source: ``import``, or ``repair`` / ``convert`` / ``trim`` for a
                session the doctor made from ``parent_session_id``.
        """
        sid = content_hash.rpartition(":")[2][:32]
        now = utc_now()
        meta = {**(meta or {}), "content_hash": content_hash}
        transaction = _savepoint(self._conn) if self._batched else write_transaction(self._conn)
        with self._lock, transaction:
            row = self._conn.execute("SELECT id FROM sessions WHERE id = ?", (sid,)).fetchone()
            if row is not None and not replace:
                return self._get(row[0]), False
            if row is not None:
                for table in ("messages", "run_events"):
                    self._conn.execute(f"DELETE FROM {table} WHERE session_id = ?", (sid,))
                self._conn.execute("DELETE FROM sessions WHERE id = ?", (sid,))
            tools_json = _dumps(list(tools))
            meta_json = _dumps_fast(meta)  # an import's meta holds every message's origin
            self._conn.execute(
                f"INSERT INTO sessions ({_SESSION_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (sid, registry, version, profile, title, system, _dumps({}), parent_session_id,
                 None, "imported", now, now, source, tools_json, meta_json),
            )  # fmt: skip
            self._conn.executemany(
                "INSERT INTO messages (session_id, idx, run_id, message_json, created_at)"
                " VALUES (?, ?, ?, ?, ?)",
                [(sid, idx, "", _dumps_fast(m), now) for idx, m in enumerate(messages)],
            )
            # The row as _get would read it back, from the texts just written: no SELECT,
            # and the meta decoded by orjson (the same values) rather than json.loads.
            info = SessionInfo(sid, registry, version, profile, title, system, {},
                               parent_session_id, None, "imported", now, now, source,
                               _loads_fast(tools_json), _loads_fast(meta_json))  # fmt: skip
            return info, True

    def _get(self, session_id: str) -> SessionInfo:
        row = self._conn.execute(
            f"SELECT {_SESSION_COLUMNS} FROM sessions WHERE id = ?", (session_id,)
        ).fetchone()
        if row is None:
            raise NotFoundError(f"session {session_id!r} does not exist")
        return _session(row)

    def get_session(self, session_id: str) -> SessionInfo:
        with self._lock, read_transaction(self._conn):
            return self._get(session_id)

    def list_sessions(
        self, registry: str | None = None, *, source: str | None = None
    ) -> list[SessionInfo]:
        """Sessions, newest first (optionally of one registry, or one source)."""
        sql = f"SELECT {_SESSION_COLUMNS} FROM sessions"
        where, params = [], []
        if registry is not None:
            where.append("registry = ?")
            params.append(registry)
        if source is not None:
            where.append("source = ?")
            params.append(source)
        if where:
            sql += " WHERE " + " AND ".join(where)
        with self._lock, read_transaction(self._conn):
            return [_session(r) for r in self._conn.execute(sql + " ORDER BY created_at DESC",
                                                            params)]  # fmt: skip

    def list_summaries(
        self,
        registry: str | None = None,
        *,
        source: str | None = None,
        changed_since: tuple[int, str] | None = None,
    ) -> list[SessionSummary]:
        """Sessions with their message counts, newest first, in ONE query.

        The counts come from the messages' ``(session_id, idx)`` index: no
        message body is read, so the session list costs the same whether the
        sessions hold ten messages or ten thousand.

        Args:
            changed_since: ``(message id, updated_at)`` of an earlier
                :meth:`change_marker`: only sessions that got a message after
                that id or were updated after that time (a live view
                re-reads what changed, not the whole list).
        """
        columns = ", ".join(f"s.{c.strip()}" for c in _SUMMARY_COLUMNS.split(","))
        sql = (
            f"SELECT {columns}, (SELECT count(*) FROM messages m WHERE m.session_id = s.id)"
            " FROM sessions s"
        )
        where: list[str] = []
        params: list[Any] = []
        if registry is not None:
            where.append("s.registry = ?")
            params.append(registry)
        if source is not None:
            where.append("s.source = ?")
            params.append(source)
        if changed_since is not None:
            where.append(
                "(s.updated_at > ? OR s.id IN (SELECT session_id FROM messages WHERE id > ?))"
            )
            params += [changed_since[1], changed_since[0]]
        if where:
            sql += " WHERE " + " AND ".join(where)
        with self._lock, read_transaction(self._conn):
            rows = self._conn.execute(sql + " ORDER BY s.created_at DESC", params).fetchall()
        from registry_db.session_records import SessionSummary

        return [SessionSummary(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8],
                               json.loads(r[9]), int(r[10])) for r in rows]  # fmt: skip

    def change_marker(self) -> tuple[int, int, str]:
        """``(last message id, session count, last session update)``: changes when anything
        the session list shows changes. A poll reads the session rows' dates, no message."""
        with self._lock, read_transaction(self._conn):
            row = self._conn.execute(
                "SELECT (SELECT coalesce(max(id), 0) FROM messages),"
                " (SELECT count(*) FROM sessions),"
                " (SELECT coalesce(max(updated_at), '') FROM sessions)"
            ).fetchone()
        return int(row[0]), int(row[1]), str(row[2])

    def set_status(self, session_id: str, status: str) -> None:
        with self._lock, write_transaction(self._conn):
            self._conn.execute(
                "UPDATE sessions SET status = ?, updated_at = ? WHERE id = ?",
                (status, utc_now(), session_id),
            )

    # ------------------------------------------------------------------ messages

    def append_message(self, session_id: str, message: dict[str, Any], run_id: str = "") -> int:
        """Append ``message`` (its JSON form); returns its index in the session."""
        with self._lock, write_transaction(self._conn):
            row = self._conn.execute(
                "SELECT coalesce(max(idx) + 1, 0) FROM messages WHERE session_id = ?",
                (session_id,),
            ).fetchone()
            idx = int(row[0])
            self._conn.execute(
                "INSERT INTO messages (session_id, idx, run_id, message_json, created_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (session_id, idx, run_id, _dumps(message), utc_now()),
            )
            return idx

    def messages(self, session_id: str) -> list[dict[str, Any]]:
        """The session's messages in order (JSON form)."""
        with self._lock, read_transaction(self._conn):
            rows = self._conn.execute(
                "SELECT message_json FROM messages WHERE session_id = ? ORDER BY idx",
                (session_id,),
            ).fetchall()
        return [json.loads(r[0]) for r in rows]

    # ------------------------------------------------------------------ events

    def next_seq(self, session_id: str) -> int:
        """The sequence number the session's next event gets."""
        with self._lock, read_transaction(self._conn):
            row = self._conn.execute(
                "SELECT coalesce(max(seq) + 1, 1) FROM run_events WHERE session_id = ?",
                (session_id,),
            ).fetchone()
        return int(row[0])

    def append_events(
        self, session_id: str, events: Iterable[tuple[int, str, str, dict[str, Any]]]
    ) -> None:
        """Store ``(seq, run_id, type, data)`` events in one transaction."""
        now = utc_now()
        rows = [(session_id, seq, run_id, type_, _dumps(data), now)
                for seq, run_id, type_, data in events]  # fmt: skip
        if not rows:
            return
        with self._lock, write_transaction(self._conn):
            self._conn.executemany(
                "INSERT INTO run_events (session_id, seq, run_id, type, data_json, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                rows,
            )

    def append_batch(
        self,
        session_id: str,
        events: Sequence[tuple[int, str, str, dict[str, Any]]] = (),
        messages: Sequence[tuple[int, str, dict[str, Any]]] = (),
        outcomes: Sequence[Outcome] = (),
        *,
        synced: bool = True,
        meta: dict[str, Any] | None = None,
    ) -> None:
        """Events ``(seq, run_id, type, data)``, messages ``(idx, run_id, message)`` and
        outcomes in ONE transaction (the runtime writes one batch per burst of work).

        Args:
            synced: False commits without waiting for the disk (``PRAGMA synchronous
                = NORMAL`` for this transaction only): the batch survives the process
                being killed, not a power cut. The runtime uses it for everything but
                a write call about to execute, sparing a run an fsync per round trip.
            meta: Replace the session's list metadata in the same transaction (the
                proxy keeps its counts there as messages arrive).
        """
        now = utc_now()
        with self._lock, _synchronous(self._conn, synced), write_transaction(self._conn):
            self._conn.executemany(
                "INSERT INTO messages (session_id, idx, run_id, message_json, created_at)"
                " VALUES (?, ?, ?, ?, ?)",
                [(session_id, idx, run_id, _dumps(m), now) for idx, run_id, m in messages],
            )
            self._conn.executemany(
                "INSERT INTO run_events (session_id, seq, run_id, type, data_json, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [(session_id, seq, run_id, type_, _dumps(data), now)
                 for seq, run_id, type_, data in events],
            )  # fmt: skip
            self._conn.executemany(
                f"INSERT INTO outcomes ({_OUTCOME_COLUMNS}) VALUES ({', '.join('?' * 12)})",
                [_outcome_row(o, now) for o in outcomes],
            )
            if meta is not None:
                self._conn.execute(
                    "UPDATE sessions SET meta_json = ?, updated_at = ? WHERE id = ?",
                    (_dumps(meta), now, session_id),
                )

    def events(self, session_id: str, *, after_seq: int = 0) -> list[StoredEvent]:
        """The session's events in seq order."""
        with self._lock, read_transaction(self._conn):
            rows = self._conn.execute(
                "SELECT seq, run_id, type, data_json, created_at FROM run_events"
                " WHERE session_id = ? AND seq > ? ORDER BY seq",
                (session_id, after_seq),
            ).fetchall()
        from registry_db.session_records import StoredEvent

        return [StoredEvent(r[0], r[1], r[2], json.loads(r[3]), r[4]) for r in rows]

    # ------------------------------------------------------------------ outcomes

    def record_outcome(self, outcome: Outcome) -> None:
        with self._lock, write_transaction(self._conn):
            self._conn.execute(
                f"INSERT INTO outcomes ({_OUTCOME_COLUMNS}) VALUES ({', '.join('?' * 12)})",
                _outcome_row(outcome, utc_now()),
            )

    def outcomes(
        self, registry: str, version: str | None = None, tool: str | None = None
    ) -> list[Outcome]:
        sql = f"SELECT {_OUTCOME_COLUMNS} FROM outcomes WHERE registry = ?"
        params: list[Any] = [registry]
        if version is not None:
            sql += " AND version = ?"
            params.append(version)
        if tool is not None:
            sql += " AND tool = ?"
            params.append(tool)
        from registry_db.session_records import Outcome

        with self._lock, read_transaction(self._conn):
            return [Outcome(*r) for r in self._conn.execute(sql + " ORDER BY id", params)]

    # ------------------------------------------------------------------ mocks

    def mock_specs(self, registry: str) -> dict[str, Any]:
        """Tool name → mock spec (JSON) of ``registry``; key ``""`` is the suggested context."""
        with self._lock, read_transaction(self._conn):
            registry_id = find_registry_id(self._conn, registry)
            rows = self._conn.execute(
                "SELECT tool, spec_json FROM mock_responses WHERE registry_id = ? ORDER BY tool",
                (registry_id,),
            ).fetchall()
        return {tool: json.loads(spec) for tool, spec in rows}

    def has_mocks(self, registry: str) -> bool:
        with self._lock, read_transaction(self._conn):
            registry_id = find_registry_id(self._conn, registry)
            return (
                self._conn.execute(
                    "SELECT 1 FROM mock_responses WHERE registry_id = ? LIMIT 1", (registry_id,)
                ).fetchone()
                is not None
            )

    def set_mock_specs(
        self, registry: str, specs: dict[str, Any], *, remove: Sequence[str] = ()
    ) -> None:
        """Insert or replace the given tools' specs and delete ``remove``, in one transaction."""
        now = utc_now()
        with self._lock, write_transaction(self._conn):
            registry_id = find_registry_id(self._conn, registry)
            for tool, spec in specs.items():
                self._conn.execute(
                    "INSERT INTO mock_responses (registry_id, tool, spec_json, updated_at)"
                    " VALUES (?, ?, ?, ?) ON CONFLICT (registry_id, tool)"
                    " DO UPDATE SET spec_json = excluded.spec_json,"
                    " updated_at = excluded.updated_at",
                    (registry_id, tool, _dumps(spec), now),
                )
            for tool in remove:
                self._conn.execute(
                    "DELETE FROM mock_responses WHERE registry_id = ? AND tool = ?",
                    (registry_id, tool),
                )
