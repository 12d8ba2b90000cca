"""Migrations run with plain ``sqlite3`` (issue 16), in one transaction.

Creating a database used to import sqlite-utils (and numpy behind it) to run SQL
only. These tests check the file made without it is the file sqlite-utils made
(schema and bookkeeping rows), that an older bookkeeping layout still migrates,
and that a failing migration leaves the file as it was.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from registry_db.connection import connect
from registry_db.migration_set import MIGRATIONS_TABLE, MigrationDb, MigrationSet
from registry_db.schema import apply_migrations, migrations
from registry_db.store import RegistryStore


def _schema(conn: sqlite3.Connection) -> list[tuple[str, str, str]]:
    rows = conn.execute(
        "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY type, name"
    )
    return [(str(t), str(n), str(s)) for t, n, s in rows]


def _applied(conn: sqlite3.Connection) -> list[tuple[str, str]]:
    rows = conn.execute(f"SELECT migration_set, name FROM {MIGRATIONS_TABLE} ORDER BY id")
    return [(str(a), str(b)) for a, b in rows]


def _by_sqlite_utils(path: Path) -> sqlite3.Connection:
    """A database migrated the way it was before: sqlite-utils's own Migrations."""
    conn = connect(path)
    migrations._apply_with_sqlite_utils(conn)
    return conn


def test_a_new_file_is_the_file_sqlite_utils_made(tmp_path: Path) -> None:
    ours = connect(tmp_path / "ours.sqlite3")
    applied = apply_migrations(ours)
    theirs = _by_sqlite_utils(tmp_path / "theirs.sqlite3")
    assert _schema(ours) == _schema(theirs)
    assert _applied(ours) == _applied(theirs) == [("registry_db", n) for n in applied]
    # sqlite-utils's Migrations, run on our file, finds nothing pending.
    from sqlite_utils import Database
    from sqlite_utils.migrations import Migrations

    real = Migrations("registry_db")
    for name in applied:
        real(name=name)(lambda db: None)
    assert real.pending(Database(ours, execute_plugins=False)) == []
    assert apply_migrations(ours) == []


def test_creating_a_store_imports_no_sqlite_utils(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from registry_db.store import RegistryStore\n"
        "RegistryStore.open(sys.argv[1]).close()\n"
        "print(sorted(m for m in ('sqlite_utils', 'numpy', 'click', 'dateutil')"
        " if m in sys.modules))\n"
    )
    db = tmp_path / "new.sqlite3"
    done = subprocess.run(
        [sys.executable, "-c", code, str(db)], capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "[]"
    with RegistryStore.open(db) as store:
        assert migrations.pending_names(store.connection) == []


def test_an_older_bookkeeping_layout_is_converted(tmp_path: Path) -> None:
    """A table keyed by (migration_set, name), as older tools made it, goes through sqlite-utils."""
    path = tmp_path / "old.sqlite3"
    conn = connect(path)
    conn.execute(
        f"CREATE TABLE {MIGRATIONS_TABLE} (migration_set TEXT, name TEXT, applied_at TEXT,"
        " PRIMARY KEY (migration_set, name))"
    )
    conn.execute(f"INSERT INTO {MIGRATIONS_TABLE} VALUES ('other', 'x', '2025-01-01')")
    applied = apply_migrations(conn)
    assert applied and migrations.pending_names(conn) == []
    assert ("other", "x") in _applied(conn)
    keys = [r[1] for r in conn.execute(f"PRAGMA table_info({MIGRATIONS_TABLE})") if r[5]]
    assert keys == ["id"]


def test_a_failing_migration_leaves_the_file_as_it_was(tmp_path: Path) -> None:
    """All pending migrations are one transaction: the second failing undoes the first."""
    steps = MigrationSet("test_set")

    @steps(name="0001_table")
    def _table(db: MigrationDb) -> None:
        db.execute("CREATE TABLE made (id INTEGER PRIMARY KEY)")

    @steps(name="0002_broken")
    def _broken(db: MigrationDb) -> None:
        db.execute("INSERT INTO made (id) VALUES (?)", (1,))
        db.execute("THIS IS NOT SQL")

    path = tmp_path / "half.sqlite3"
    conn = connect(path)
    with pytest.raises(sqlite3.OperationalError):
        conn.execute("BEGIN IMMEDIATE")
        try:
            steps.apply(conn)
        finally:
            conn.execute("ROLLBACK")
    assert _schema(conn) == []
    assert steps.pending_names(conn) == ["0001_table", "0002_broken"]


def test_migrations_commit_without_changing_the_store_sync(tmp_path: Path) -> None:
    conn = connect(tmp_path / "sync.sqlite3")
    before = conn.execute("PRAGMA synchronous").fetchone()[0]
    apply_migrations(conn)
    assert conn.execute("PRAGMA synchronous").fetchone()[0] == before
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


_KILLED_CHILD = """
import os, sys
from pathlib import Path
from registry_db.connection import connect
from registry_db.schema import apply_migrations, migrations

@migrations(name="9999_killed_here")
def _killed(db):
    os._exit(3)  # the process dies after every real migration ran, before COMMIT

apply_migrations(connect(Path(sys.argv[1])))
"""


def test_a_process_killed_while_creating_leaves_no_half_migrated_file(tmp_path: Path) -> None:
    path = tmp_path / "killed.sqlite3"
    done = subprocess.run([sys.executable, "-c", _KILLED_CHILD, str(path)], check=False)
    assert done.returncode == 3
    conn = connect(path)
    assert _schema(conn) == []  # none of the migrations run before it stayed
    applied = apply_migrations(conn)  # the next open creates the file whole
    assert applied == migrations.pending_names(connect(tmp_path / "empty.sqlite3"))
    assert migrations.pending_names(conn) == []
