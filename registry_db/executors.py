"""Playground executors per registry: each tool's executor and HTTP target, the allow-list.

Stored beside the draft (tables ``tool_executors`` and ``executor_settings``),
never inside a published version. Targets are JSON (see
:mod:`studio.runtime.http_targets` for the form); this module checks only
what storage must guarantee: the executor is ``mock`` or ``http``, and no
header holds a literal credential (:func:`studio.sessions.redact.literal_credential`,
the predicate the editor and the runtime use) — a credential is written as an
environment variable reference, ``Bearer {env:TICKETS_API_TOKEN}``.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from registry_db.connection import find_registry_id, read_transaction, utc_now, write_transaction
from registry_db.errors import StoreError
from registry_db.store import RegistryStore
from studio.contract import Registry
from studio.sessions.redact import literal_credential

EXECUTORS = ("mock", "http")
_KEEP: Any = object()  # "leave the stored target as it is"


class SecretInTargetError(StoreError):
    """An HTTP target would store a credential in the database."""

    def __init__(self, tool: str, header: str) -> None:
        self.tool = tool
        self.header = header
        super().__init__(
            f"the HTTP target of {tool} has a literal {header} value; store a reference to "
            "an environment variable instead, e.g. Bearer {env:API_TOKEN}"
        )


@dataclass(frozen=True, slots=True)
class ToolExecutor:
    """One tool's executor and its HTTP target (JSON form, kept while on mock)."""

    tool: str
    executor: str = "mock"
    http: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class ExecutorSettings:
    """A registry's executor settings (tools never set are absent: they use mock)."""

    allowed_base_urls: tuple[str, ...] = ()
    tools: Mapping[str, ToolExecutor] = field(default_factory=dict)


def _check(tool: str, executor: str, http: Mapping[str, Any] | None) -> None:
    if executor not in EXECUTORS:
        raise StoreError(f"executor of {tool} must be mock or http, not {executor!r}")
    if http is None:
        return
    headers = http.get("headers") or {}
    if not isinstance(headers, Mapping):
        raise StoreError(f"the HTTP target of {tool}: headers must be an object")
    for name, value in headers.items():
        if literal_credential(str(name), str(value)):
            raise SecretInTargetError(tool, str(name))


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class ExecutorStore:
    """Executor settings in the same SQLite file as the registries (one transaction per call)."""

    def __init__(self, conn: sqlite3.Connection, lock: threading.RLock | None = None) -> None:
        self._conn = conn
        self._lock = lock or threading.RLock()

    @classmethod
    def for_store(cls, store: RegistryStore) -> ExecutorStore:
        return cls(store.connection, store.lock)

    def settings(self, registry: str) -> ExecutorSettings:
        """The executors and allow-list of ``registry``; raises NotFoundError."""
        with self._lock, read_transaction(self._conn):
            registry_id = find_registry_id(self._conn, registry)
            rows = self._conn.execute(
                "SELECT tool, executor, http_json FROM tool_executors WHERE registry_id = ?"
                " ORDER BY tool",
                (registry_id,),
            ).fetchall()
            allowed = self._conn.execute(
                "SELECT allowed_base_urls_json FROM executor_settings WHERE registry_id = ?",
                (registry_id,),
            ).fetchone()
        tools = {
            tool: ToolExecutor(tool, executor, json.loads(http) if http else None)
            for tool, executor, http in rows
        }
        return ExecutorSettings(tuple(json.loads(allowed[0])) if allowed else (), tools)

    def _upsert(self, registry_id: int, tool: str, executor: str, http: Any, now: str) -> None:
        if http is _KEEP:
            self._conn.execute(
                "INSERT INTO tool_executors (registry_id, tool, executor, updated_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (registry_id, tool) DO UPDATE SET"
                " executor = excluded.executor, updated_at = excluded.updated_at",
                (registry_id, tool, executor, now),
            )
            return
        self._conn.execute(
            "INSERT INTO tool_executors (registry_id, tool, executor, http_json, updated_at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (registry_id, tool) DO UPDATE SET"
            " executor = excluded.executor, http_json = excluded.http_json,"
            " updated_at = excluded.updated_at",
            (registry_id, tool, executor, None if http is None else _dumps(http), now),
        )

    def _set_allowed(self, registry_id: int, urls: Sequence[str], now: str) -> None:
        cleaned = list(dict.fromkeys(u.strip().rstrip("/") for u in urls if u.strip()))
        self._conn.execute(
            "INSERT INTO executor_settings (registry_id, allowed_base_urls_json, updated_at)"
            " VALUES (?, ?, ?) ON CONFLICT (registry_id) DO UPDATE SET"
            " allowed_base_urls_json = excluded.allowed_base_urls_json,"
            " updated_at = excluded.updated_at",
            (registry_id, _dumps(cleaned), now),
        )

    def set_executor(self, registry: str, tool: str, executor: str) -> None:
        """Run ``tool`` on ``executor`` (its HTTP target, if any, is kept)."""
        _check(tool, executor, None)
        with self._lock, write_transaction(self._conn):
            self._upsert(find_registry_id(self._conn, registry), tool, executor, _KEEP, utc_now())

    def save_http_target(
        self,
        registry: str,
        tool: str,
        http: Mapping[str, Any],
        *,
        allowed_base_urls: Sequence[str] | None = None,
        executor: str = "http",
    ) -> None:
        """Store ``tool``'s target (and the registry's allow-list, when given) together.

        Raises:
            SecretInTargetError: a credential header holds a literal value.
        """
        _check(tool, executor, http)
        now = utc_now()
        with self._lock, write_transaction(self._conn):
            registry_id = find_registry_id(self._conn, registry)
            self._upsert(registry_id, tool, executor, dict(http), now)
            if allowed_base_urls is not None:
                self._set_allowed(registry_id, allowed_base_urls, now)

    def import_with_targets(
        self,
        store: RegistryStore,
        registry: Registry,
        targets: Mapping[str, Mapping[str, Any]],
        *,
        allowed_base_urls: Sequence[str],
        replace_draft: bool = False,
        executor: str = "mock",
    ) -> None:
        """Import ``registry`` and store its tools' HTTP targets in one transaction.

        An OpenAPI import (issue #17) gives each tool a target; either the draft
        and every target are stored, or nothing is. ``executor`` is what the
        tools run on (``mock`` keeps the targets for when the user switches).

        Raises:
            SecretInTargetError: a credential header holds a literal value.
            AlreadyExistsError: the name is taken and ``replace_draft`` is False.
        """
        for tool, http in targets.items():
            _check(tool, executor, http)
        now = utc_now()
        with self._lock, store.lock, write_transaction(self._conn):
            # The store's own step (same package), so draft and targets share the transaction.
            store._import(registry, replace_draft=replace_draft)
            registry_id = find_registry_id(self._conn, registry.name)
            for tool, http in targets.items():
                self._upsert(registry_id, tool, executor, dict(http), now)
            self._set_allowed(registry_id, allowed_base_urls, now)

    def set_allowed_base_urls(self, registry: str, urls: Sequence[str]) -> None:
        """Replace the registry's allowed base URLs (blank entries and repeats dropped)."""
        with self._lock, write_transaction(self._conn):
            self._set_allowed(find_registry_id(self._conn, registry), urls, utc_now())
