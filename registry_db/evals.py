"""Eval sets per registry (table ``eval_sets``), stored as their JSONL text.

Storage keeps plain data: the text exactly as given (so an export writes the
same bytes), its case count and SHA-256. Validating the cases is
:mod:`studio.evals`'s job, before anything is saved here.
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from dataclasses import dataclass

from registry_db.connection import find_registry_id, read_transaction, utc_now, write_transaction
from registry_db.errors import ConflictError, NotFoundError
from registry_db.store import RegistryStore


@dataclass(frozen=True, slots=True)
class StoredEvalSet:
    """One stored set: its text and what describes it."""

    registry: str
    name: str
    text: str
    case_count: int
    sha256: str
    revision: int
    updated_at: str


def text_sha256(text: str) -> str:
    """SHA-256 (hex) of the set's UTF-8 bytes."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class EvalSetStore:
    """Eval sets in the same SQLite file as the registries (one transaction per call)."""

    def __init__(self, conn: sqlite3.Connection, lock: threading.RLock | None = None) -> None:
        self._conn = conn
        self._lock = lock or threading.RLock()

    @classmethod
    def for_store(cls, store: RegistryStore) -> EvalSetStore:
        return cls(store.connection, store.lock)

    def names(self, registry: str) -> list[str]:
        """The registry's set names, sorted; raises NotFoundError for an unknown registry."""
        with self._lock, read_transaction(self._conn):
            registry_id = find_registry_id(self._conn, registry)
            rows = self._conn.execute(
                "SELECT name FROM eval_sets WHERE registry_id = ? ORDER BY name", (registry_id,)
            ).fetchall()
        return [r[0] for r in rows]

    def list(self, registry: str) -> list[StoredEvalSet]:
        """Every set of the registry, sorted by name."""
        with self._lock, read_transaction(self._conn):
            registry_id = find_registry_id(self._conn, registry)
            rows = self._conn.execute(
                "SELECT name, text, case_count, sha256, revision, updated_at FROM eval_sets"
                " WHERE registry_id = ? ORDER BY name",
                (registry_id,),
            ).fetchall()
        return [StoredEvalSet(registry, *row) for row in rows]

    def get(self, registry: str, name: str) -> StoredEvalSet:
        """One set; NotFoundError when the registry or the set does not exist."""
        with self._lock, read_transaction(self._conn):
            registry_id = find_registry_id(self._conn, registry)
            row = self._conn.execute(
                "SELECT name, text, case_count, sha256, revision, updated_at FROM eval_sets"
                " WHERE registry_id = ? AND name = ?",
                (registry_id, name),
            ).fetchone()
        if row is None:
            raise NotFoundError(f"registry {registry!r} has no eval set {name!r}")
        return StoredEvalSet(registry, *row)

    def save(
        self,
        registry: str,
        name: str,
        text: str,
        case_count: int,
        *,
        expected_revision: int | None = None,
    ) -> StoredEvalSet:
        """Create or replace a set's text (validated by the caller).

        Args:
            registry: The registry the set belongs to.
            name: The set's name.
            text: The JSONL text, stored as given.
            case_count: How many cases it holds.
            expected_revision: The revision the caller edited (0: the set must not
                exist yet); a different stored revision is a conflict, never
                silently overwritten. None replaces whatever is there.

        Raises:
            NotFoundError: the registry does not exist.
            ConflictError: the stored revision is not ``expected_revision``.
        """
        now = utc_now()
        digest = text_sha256(text)
        with self._lock, write_transaction(self._conn):
            registry_id = find_registry_id(self._conn, registry)
            row = self._conn.execute(
                "SELECT revision FROM eval_sets WHERE registry_id = ? AND name = ?",
                (registry_id, name),
            ).fetchone()
            current = int(row[0]) if row else 0
            if expected_revision is not None and expected_revision != current:
                raise ConflictError(
                    f"eval set {name!r} of {registry!r}",
                    stored_revision=current or None,
                    base_revision=expected_revision,
                )
            if row is None:
                self._conn.execute(
                    "INSERT INTO eval_sets (registry_id, name, text, case_count, sha256,"
                    " revision, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 1, ?, ?)",
                    (registry_id, name, text, case_count, digest, now, now),
                )
            else:
                self._conn.execute(
                    "UPDATE eval_sets SET text = ?, case_count = ?, sha256 = ?,"
                    " revision = revision + 1, updated_at = ? WHERE registry_id = ? AND name = ?",
                    (text, case_count, digest, now, registry_id, name),
                )
        return self.get(registry, name)

    def delete(self, registry: str, name: str) -> None:
        """Remove a set; NotFoundError when it does not exist."""
        with self._lock, write_transaction(self._conn):
            registry_id = find_registry_id(self._conn, registry)
            cur = self._conn.execute(
                "DELETE FROM eval_sets WHERE registry_id = ? AND name = ?", (registry_id, name)
            )
            if cur.rowcount == 0:
                raise NotFoundError(f"registry {registry!r} has no eval set {name!r}")
