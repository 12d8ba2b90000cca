"""The migrations of :mod:`registry_db.schema`, applied with plain ``sqlite3``.

sqlite-utils (with numpy, click and dateutil behind it) costs 0.1–0.3 s to
import, and the migrations only run SQL. So the set records its migrations
itself, keeps the bookkeeping table sqlite-utils's ``Migrations`` uses
(``_sqlite_migrations``: the same DDL, the same rows), and applies what is
pending with the connection it is given. sqlite-utils is imported only for a
database whose bookkeeping table has an older layout (no ``id`` key), which its
``Migrations`` knows how to convert.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

MIGRATIONS_TABLE = "_sqlite_migrations"
"""Where sqlite-utils records applied migrations (``migration_set``, ``name``, ``applied_at``)."""

# Exactly what sqlite_utils.migrations.Migrations.ensure_migrations_table creates,
# so a database made here and one made by sqlite-utils cannot be told apart.
_CREATE_TABLE = (
    'CREATE TABLE "_sqlite_migrations" (\n'
    '   "id" INTEGER PRIMARY KEY,\n'
    '   "migration_set" TEXT,\n'
    '   "name" TEXT,\n'
    '   "applied_at" TEXT\n'
    ")"
)
_CREATE_INDEX = (
    'CREATE UNIQUE INDEX "idx__sqlite_migrations_migration_set_name"\n'
    '    ON "_sqlite_migrations" ("migration_set", "name")'
)


class MigrationDb:
    """What a migration function is handed: the connection, and ``execute`` on it.

    The migrations were written against ``sqlite_utils.Database`` and use only
    these two members of it, so they run unchanged on this stand-in.
    """

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def execute(self, sql: str, parameters: Any = ()) -> sqlite3.Cursor:
        return self.conn.execute(sql, parameters)


@dataclass(frozen=True)
class Migration:
    name: str
    fn: Callable[[MigrationDb], None]
    transactional: bool = True


class MigrationSet:
    """Registers migrations like ``sqlite_utils.migrations.Migrations`` (``@set(name=…)``)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._migrations: list[Migration] = []

    def __call__(
        self, *, name: str | None = None, transactional: bool = True
    ) -> Callable[[Callable[[MigrationDb], None]], Callable[[MigrationDb], None]]:
        def register(fn: Callable[[MigrationDb], None]) -> Callable[[MigrationDb], None]:
            migration = name or fn.__name__
            if any(m.name == migration for m in self._migrations):
                raise ValueError(f"migration {migration!r} is already in set {self.name!r}")
            self._migrations.append(Migration(migration, fn, transactional))
            return fn

        return register

    def pending_names(self, conn: sqlite3.Connection) -> list[str]:
        """The migrations not yet applied to ``conn``'s database, in order (read only)."""
        if not _table_exists(conn):
            return [m.name for m in self._migrations]
        rows = conn.execute(
            f"SELECT name FROM {MIGRATIONS_TABLE} WHERE migration_set = ?", (self.name,)
        )
        applied = {str(row[0]) for row in rows}
        return [m.name for m in self._migrations if m.name not in applied]

    def apply(self, conn: sqlite3.Connection) -> None:
        """Apply what is pending, each migration followed by its bookkeeping row.

        The caller holds the transaction (:func:`registry_db.schema.apply_migrations`
        runs the whole set in one ``BEGIN IMMEDIATE``): a migration that fails, or
        a process killed half-way, leaves the database as it was before, never half
        migrated. (sqlite-utils's per-migration transactions were savepoints inside
        that same transaction, so the outcome is the same.)
        """
        if _table_exists(conn):
            if not _has_id_key(conn):
                self._apply_with_sqlite_utils(conn)
                return
        else:
            conn.execute(_CREATE_TABLE)
            conn.execute(_CREATE_INDEX)
        pending = set(self.pending_names(conn))
        db = MigrationDb(conn)
        for migration in self._migrations:
            if migration.name not in pending:
                continue
            migration.fn(db)
            conn.execute(
                f"INSERT INTO {MIGRATIONS_TABLE} (migration_set, name, applied_at)"
                " VALUES (?, ?, ?)",
                (self.name, migration.name, str(datetime.now(UTC))),
            )

    def _apply_with_sqlite_utils(self, conn: sqlite3.Connection) -> None:
        """An older bookkeeping layout: sqlite-utils converts it and applies the rest."""
        from sqlite_utils import Database
        from sqlite_utils.migrations import Migrations

        real: Any = Migrations(self.name)
        for m in self._migrations:
            real(name=m.name, transactional=m.transactional)(m.fn)
        real.apply(Database(conn, execute_plugins=False))


def _table_exists(conn: sqlite3.Connection) -> bool:
    found = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (MIGRATIONS_TABLE,)
    ).fetchone()
    return found is not None


def _has_id_key(conn: sqlite3.Connection) -> bool:
    """Whether the bookkeeping table is keyed by ``id`` (the layout sqlite-utils 4 makes)."""
    keys = [row[1] for row in conn.execute(f"PRAGMA table_info({MIGRATIONS_TABLE})") if row[5]]
    return keys == ["id"]
