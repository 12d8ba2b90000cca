"""Eval runs, their attempts and the response cache (tables from migration 0011).

Storage keeps plain data: a run's configuration and each attempt as JSON text.
Turning that text into :class:`studio.evals.results.Attempt` records is
:mod:`studio.evals.runs`'s job. Attempts are written as they arrive (one short
transaction per batch), so a run killed half-way keeps what it had and a re-run
with the same id skips those keys.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from registry_db.connection import find_registry_id, read_transaction, utc_now, write_transaction
from registry_db.errors import NotFoundError, StoreError
from registry_db.store import RegistryStore

#: A run that is being (or was being, when killed) worked on.
RUN_RUNNING = "running"
#: Every attempt was stored (scored, error or skipped by the budget).
RUN_DONE = "done"
#: Stopped by cancel; re-running the id resumes it.
RUN_CANCELLED = "cancelled"


class RunMismatchError(StoreError, ValueError):
    """A run id names a run of another registry or set (a resume must not mix the two)."""


@dataclass(frozen=True, slots=True)
class StoredRun:
    """One run as stored: what it was asked to do and how far it got."""

    run_id: str
    registry: str
    set_name: str
    config: dict[str, Any]
    status: str
    created_at: str
    updated_at: str
    attempt_count: int = 0


@dataclass(frozen=True, slots=True)
class AttemptRow:
    """One attempt as written: its key, status and JSON text."""

    case_id: str
    variant: str
    profile: str
    repetition: int
    status: str
    attempt_json: str


_SELECT_RUN = """
    SELECT e.id, r.name, e.set_name, e.config_json, e.status, e.created_at, e.updated_at,
        (SELECT count(*) FROM eval_attempts a WHERE a.run_id = e.id)
    FROM eval_runs e JOIN registries r ON r.id = e.registry_id
"""


def _run(row: tuple) -> StoredRun:
    run_id, registry, set_name, config, status, created, updated, count = row
    return StoredRun(
        run_id, registry, set_name, json.loads(config), status, created, updated, count
    )


class EvalRunStore:
    """Runs and attempts in the registry database (one transaction per call)."""

    def __init__(self, conn: sqlite3.Connection, lock: threading.RLock | None = None) -> None:
        self._conn = conn
        self._lock = lock or threading.RLock()

    @classmethod
    def for_store(cls, store: RegistryStore) -> EvalRunStore:
        return cls(store.connection, store.lock)

    def close(self) -> None:
        """Close the connection: only for a store made on a connection of its own."""
        with self._lock:
            self._conn.close()

    # ------------------------------------------------------------------ runs

    def open_run(
        self, run_id: str, registry: str, set_name: str, config: dict[str, Any]
    ) -> tuple[StoredRun, bool]:
        """Create the run, or find it again to resume it.

        Return:
            The stored run and whether it was created now.

        Raises:
            NotFoundError: the registry does not exist.
            RunMismatchError: ``run_id`` already names a run of another registry or set
                (resuming must not mix two different evaluations under one id).
        """
        now = utc_now()
        with self._lock, write_transaction(self._conn):
            registry_id = find_registry_id(self._conn, registry)
            row = self._conn.execute(
                "SELECT registry_id, set_name FROM eval_runs WHERE id = ?", (run_id,)
            ).fetchone()
            created = row is None
            if created:
                self._conn.execute(
                    "INSERT INTO eval_runs (id, registry_id, set_name, config_json, status,"
                    " created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (run_id, registry_id, set_name, json.dumps(config, ensure_ascii=False),
                     RUN_RUNNING, now, now),
                )  # fmt: skip
            elif (int(row[0]), row[1]) != (registry_id, set_name):
                raise RunMismatchError(
                    f"eval run {run_id!r} belongs to another registry or eval set;"
                    " choose another --run-id"
                )
            else:
                self._conn.execute(
                    "UPDATE eval_runs SET status = ?, config_json = ?, updated_at = ? WHERE id = ?",
                    (RUN_RUNNING, json.dumps(config, ensure_ascii=False), now, run_id),
                )
        return self.get(run_id), created

    def get(self, run_id: str) -> StoredRun:
        """One run; NotFoundError when there is none with that id."""
        with self._lock, read_transaction(self._conn):
            row = self._conn.execute(_SELECT_RUN + " WHERE e.id = ?", (run_id,)).fetchone()
        if row is None:
            raise NotFoundError(f"eval run {run_id!r} does not exist")
        return _run(row)

    def runs(self, registry: str) -> list[StoredRun]:
        """The registry's runs, newest first; NotFoundError for an unknown registry."""
        with self._lock, read_transaction(self._conn):
            registry_id = find_registry_id(self._conn, registry)
            rows = self._conn.execute(
                _SELECT_RUN + " WHERE e.registry_id = ? ORDER BY e.created_at DESC, e.id",
                (registry_id,),
            ).fetchall()
        return [_run(r) for r in rows]

    def set_status(self, run_id: str, status: str) -> None:
        with self._lock, write_transaction(self._conn):
            self._conn.execute(
                "UPDATE eval_runs SET status = ?, updated_at = ? WHERE id = ?",
                (status, utc_now(), run_id),
            )

    def delete(self, run_id: str) -> None:
        """Remove a run and its attempts; NotFoundError when it does not exist."""
        with self._lock, write_transaction(self._conn):
            cur = self._conn.execute("DELETE FROM eval_runs WHERE id = ?", (run_id,))
            if cur.rowcount == 0:
                raise NotFoundError(f"eval run {run_id!r} does not exist")

    # ------------------------------------------------------------------ attempts

    def put_attempts(
        self,
        run_id: str,
        rows: Sequence[AttemptRow],
        cache_rows: Sequence[tuple[str, str, str, str]] = (),
    ) -> None:
        """Store attempts (replacing a stored one with the same key, e.g. a retried skip).

        ``cache_rows`` (see :meth:`cache_responses`) are written in the same
        transaction: one commit for a whole batch of answers and attempts.
        """
        if not rows and not cache_rows:
            return
        now = utc_now()
        with self._lock, write_transaction(self._conn):
            if cache_rows:
                self._conn.executemany(
                    "INSERT OR REPLACE INTO eval_response_cache (key, provider, model,"
                    " response_json, created_at) VALUES (?, ?, ?, ?, ?)",
                    [(*row, now) for row in cache_rows],
                )
            if not rows:
                return
            (seq,) = self._conn.execute(
                "SELECT coalesce(max(seq), -1) FROM eval_attempts WHERE run_id = ?", (run_id,)
            ).fetchone()
            self._conn.executemany(
                "INSERT OR REPLACE INTO eval_attempts (run_id, seq, case_id, variant, profile,"
                " repetition, status, attempt_json, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (run_id, seq + 1 + i, r.case_id, r.variant, r.profile, r.repetition,
                     r.status, r.attempt_json, now)
                    for i, r in enumerate(rows)
                ],
            )  # fmt: skip
            self._conn.execute("UPDATE eval_runs SET updated_at = ? WHERE id = ?", (now, run_id))

    def attempt_rows(self, run_id: str) -> list[AttemptRow]:
        """The run's attempts in the order they were stored; NotFoundError for an unknown run."""
        with self._lock, read_transaction(self._conn):
            if (
                self._conn.execute("SELECT 1 FROM eval_runs WHERE id = ?", (run_id,)).fetchone()
                is None
            ):
                raise NotFoundError(f"eval run {run_id!r} does not exist")
            rows = self._conn.execute(
                "SELECT case_id, variant, profile, repetition, status, attempt_json"
                " FROM eval_attempts WHERE run_id = ? ORDER BY seq",
                (run_id,),
            ).fetchall()
        return [AttemptRow(*r) for r in rows]

    def stored_keys(self, run_id: str, statuses: Iterable[str]) -> set[tuple[str, str, str, int]]:
        """Keys (case, variant, profile, repetition) stored with one of ``statuses``."""
        wanted = tuple(statuses)
        marks = ",".join("?" * len(wanted))
        with self._lock, read_transaction(self._conn):
            rows = self._conn.execute(
                "SELECT case_id, variant, profile, repetition FROM eval_attempts"
                f" WHERE run_id = ? AND status IN ({marks})",
                (run_id, *wanted),
            ).fetchall()
        return {(c, v, p, int(r)) for c, v, p, r in rows}

    # ------------------------------------------------------------------ response cache

    def cached_response(self, key: str) -> str | None:
        """The cached answer's JSON for a request hash, or None."""
        with self._lock:
            row = self._conn.execute(
                "SELECT response_json FROM eval_response_cache WHERE key = ?", (key,)
            ).fetchone()
        return None if row is None else str(row[0])

    def cache_response(self, key: str, provider: str, model: str, response_json: str) -> None:
        self.cache_responses([(key, provider, model, response_json)])

    def cache_responses(self, rows: Sequence[tuple[str, str, str, str]]) -> None:
        """Store answers: (request hash, provider kind, model, answer JSON) each."""
        if not rows:
            return
        now = utc_now()
        with self._lock, write_transaction(self._conn):
            self._conn.executemany(
                "INSERT OR REPLACE INTO eval_response_cache (key, provider, model, response_json,"
                " created_at) VALUES (?, ?, ?, ?, ?)",
                [(*row, now) for row in rows],
            )
