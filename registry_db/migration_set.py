"""The migrations of :mod:`registry_db.schema`, registered without importing sqlite-utils.

sqlite-utils (with numpy, click and dateutil behind it) costs ~0.1 s to import,
and almost every open of a database only finds that nothing is pending. So the
set records its migrations itself, answers "what is pending?" from sqlite-utils's
own ``_sqlite_migrations`` table with plain ``sqlite3``, and hands the work to a
real :class:`sqlite_utils.migrations.Migrations` only when there is some.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sqlite_utils import Database

MIGRATIONS_TABLE = "_sqlite_migrations"
"""Where sqlite-utils records applied migrations (``migration_set``, ``name``, ``applied_at``)."""


@dataclass(frozen=True)
class Migration:
    name: str
    fn: Callable[[Database], None]
    transactional: bool = True


class MigrationSet:
    """Registers migrations like ``sqlite_utils.migrations.Migrations`` (``@set(name=…)``)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._migrations: list[Migration] = []

    def __call__(
        self, *, name: str | None = None, transactional: bool = True
    ) -> Callable[[Callable[[Database], None]], Callable[[Database], None]]:
        def register(fn: Callable[[Database], None]) -> Callable[[Database], None]:
            migration = name or fn.__name__
            if any(m.name == migration for m in self._migrations):
                raise ValueError(f"migration {migration!r} is already in set {self.name!r}")
            self._migrations.append(Migration(migration, fn, transactional))
            return fn

        return register

    def pending_names(self, conn: sqlite3.Connection) -> list[str]:
        """The migrations not yet applied to ``conn``'s database, in order (read only)."""
        exists = conn.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (MIGRATIONS_TABLE,)
        ).fetchone()
        applied: set[str] = set()
        if exists:
            rows = conn.execute(
                f"SELECT name FROM {MIGRATIONS_TABLE} WHERE migration_set = ?", (self.name,)
            )
            applied = {str(row[0]) for row in rows}
        return [m.name for m in self._migrations if m.name not in applied]

    def apply(self, conn: sqlite3.Connection) -> None:
        """Apply what is pending through sqlite-utils (imported now), as it always did."""
        from sqlite_utils import Database
        from sqlite_utils.migrations import Migrations

        real: Any = Migrations(self.name)
        for m in self._migrations:
            real(name=m.name, transactional=m.transactional)(m.fn)
        real.apply(Database(conn, execute_plugins=False))
