"""SQLite connections and transactions.

Connections run in driver autocommit mode (``isolation_level=None``) so that
the store, not the ``sqlite3`` module, decides where transactions begin: every
write opens with ``BEGIN IMMEDIATE``, which takes the database's write lock up
front. Two processes editing one file therefore serialise their writes
instead of both reading, both deciding, and one failing at COMMIT time.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from registry_db.errors import DatabaseOpenError, NotFoundError

BUSY_TIMEOUT_MS = 5000
"""How long a writer waits for another process's transaction before giving up."""


def connect(path: Path) -> sqlite3.Connection:
    """Open ``path`` with the pragmas every store connection needs.

    Args:
        path: The database file; its parent directory must exist.

    Return:
        A connection in WAL mode with foreign keys enforced and a busy timeout.

    Raises:
        DatabaseOpenError: when the file is not an SQLite database, is damaged or
            truncated, is a directory, cannot be read, or cannot use WAL mode.
    """
    new = _is_new(path)
    try:
        # check_same_thread=False: the UI hands database work to one serial worker
        # thread; RegistryStore serialises access itself with a lock.
        conn = sqlite3.connect(
            path,
            isolation_level=None,
            check_same_thread=False,
            timeout=BUSY_TIMEOUT_MS / 1000,
        )
    except (sqlite3.Error, OSError) as exc:
        raise open_error(path, exc) from exc
    try:
        # busy_timeout first: switching to WAL needs a lock another process may hold.
        conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        conn.execute("PRAGMA foreign_keys=ON")
        if new:
            mode = _new_file_to_wal(conn)
        else:
            mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise DatabaseOpenError(path, f"it cannot use WAL journaling (journal_mode is {mode})")
    except (sqlite3.Error, OSError) as exc:
        conn.close()
        raise open_error(path, exc) from exc
    except BaseException:
        conn.close()
        raise
    return conn


def _is_new(path: Path) -> bool:
    """Whether ``path`` holds no database yet (missing or empty: SQLite creates it)."""
    try:
        return path.stat().st_size == 0
    except OSError:  # missing, or unreadable: connect() words the latter
        return True


def _new_file_to_wal(conn: sqlite3.Connection) -> str:
    """Switch a new, empty database file to WAL without waiting for the disk.

    The switch writes the file's first page through a rollback journal: four fsyncs
    and an unlink (~5 ms on a quiet disk, ~30 ms on a busy one), which every command
    creating a database paid (a first ``sessions import`` among them). A file that
    holds nothing has nothing a crash could lose: at worst a power cut in those
    milliseconds leaves an empty file SQLite cannot read, which holds no data either.
    Every transaction after the switch syncs as before (the setting is restored).
    """
    previous = int(conn.execute("PRAGMA synchronous").fetchone()[0])
    conn.execute("PRAGMA synchronous=OFF")
    try:
        return str(conn.execute("PRAGMA journal_mode=WAL").fetchone()[0])
    finally:
        conn.execute(f"PRAGMA synchronous={previous}")


def open_error(path: Path, exc: BaseException) -> DatabaseOpenError:
    """``exc`` (from SQLite or the system, raised while opening ``path``) as one line."""
    if isinstance(exc, DatabaseOpenError):
        return exc
    if path.is_dir():
        return DatabaseOpenError(path, "it is a directory, not a database file")
    blocking = next((p for p in path.parents if p.exists() and not p.is_dir()), None)
    if blocking is not None:
        return DatabaseOpenError(path, f"{blocking} is a file, not a folder")
    message = str(exc)
    if isinstance(exc, OSError):
        message = exc.strerror or message
    elif isinstance(exc, sqlite3.DatabaseError):
        lowered = message.lower()
        if "not a database" in lowered:
            message = "it is not an SQLite database (file is not a database)"
        elif "malformed" in lowered or "corrupt" in lowered:
            message = f"the file is damaged or truncated ({message})"
        elif path.exists() and not os.access(path, os.R_OK | os.W_OK):
            message = f"permission denied ({message})"
    return DatabaseOpenError(path, " ".join(message.split()))


@contextmanager
def write_transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """Run the block in one ``BEGIN IMMEDIATE`` transaction; roll back on any exception."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        # An error raised by SQLite itself may already have ended the transaction.
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


@contextmanager
def read_transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """Run several reads against one snapshot (WAL readers never block writers)."""
    conn.execute("BEGIN")
    try:
        yield conn
    finally:
        if conn.in_transaction:
            conn.execute("COMMIT")


def utc_now() -> str:
    """The current time as UTC ISO-8601 with milliseconds, e.g. ``2025-05-01T09:30:00.123Z``."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def find_registry_id(conn: sqlite3.Connection, registry: str) -> int:
    """The row id of the registry named ``registry``; raises NotFoundError when there is none."""
    row = conn.execute("SELECT id FROM registries WHERE name = ?", (registry,)).fetchone()
    if row is None:
        raise NotFoundError(f"registry {registry!r} does not exist")
    return int(row[0])


class RegistryListing:
    """What ``studio registries`` prints, read without opening the full store.

    A plain class, not a dataclass or a named tuple: ``dataclasses`` imports ``inspect``
    (~6 ms) and a named tuple is built by ``exec`` (~1 ms), and this module is all
    ``studio registries`` imports before it answers.

    Attributes:
        rows: ``(name, title, draft tool count, latest version or None)`` by name.
        never_seeded: The database has no registries and was never seeded with the
            examples (the embedded database then needs the full store, which seeds it).
    """

    __slots__ = ("never_seeded", "rows")

    def __init__(self, rows: list[tuple[str, str, int, int | None]], never_seeded: bool) -> None:
        self.rows = rows
        self.never_seeded = never_seeded

    def __repr__(self) -> str:
        return f"RegistryListing(rows={self.rows!r}, never_seeded={self.never_seeded!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RegistryListing):
            return NotImplemented
        return (self.rows, self.never_seeded) == (other.rows, other.never_seeded)

    __hash__ = None  # type: ignore[assignment]  # mutable rows, as the dataclass had none


_LISTING = """
    SELECT r.name, r.title,
        (SELECT count(*) FROM draft_tools t WHERE t.registry_id = r.id),
        (SELECT max(number) FROM versions v WHERE v.registry_id = r.id)
    FROM registries r ORDER BY r.name
"""


def read_registry_listing(path: Path) -> RegistryListing | None:
    """The registries of an existing database file, with plain ``sqlite3`` and no migration.

    The full store imports sqlite-utils (and through it numpy) and the contract model
    to migrate the file first: ~0.2 s a listing does not need. Anything unusual
    returns None and the caller opens the full store, which creates, migrates,
    seeds and words errors as usual.

    Args:
        path: The database file.

    Return:
        The listing, or None when the file is missing, is not a readable
        database, or lacks the tables and columns the listing reads.
    """
    if not path.is_file():
        return None
    try:
        conn = connect(path)
    except DatabaseOpenError:
        return None
    try:
        with read_transaction(conn):
            rows = [(str(n), str(t), int(c), m) for n, t, c, m in conn.execute(_LISTING)]
            seeded = conn.execute("SELECT 1 FROM meta WHERE key = 'examples_seeded_at'")
            never_seeded = not rows and seeded.fetchone() is None
    except sqlite3.Error:
        return None
    finally:
        conn.close()
    return RegistryListing(rows, never_seeded)
