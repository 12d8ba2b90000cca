"""Model profiles in the database (the ``model_profiles`` table).

Only where to find a key is stored (``api_key_env``), never the key: the
profile model itself refuses secret headers, and this repository stores
exactly the fields of :class:`~studio.providers.profiles.ModelProfile`.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import asdict
from typing import Any

from registry_db.connection import read_transaction, utc_now, write_transaction
from registry_db.errors import NotFoundError, StoreError
from registry_db.store import RegistryStore
from studio.providers.base import ModelParams, ProviderKind
from studio.providers.profiles import ModelProfile

_COLUMNS = "name, kind, base_url, model, api_key_env, params_json, headers_json"


class ProfileExistsError(StoreError):
    """A model profile with that name exists already."""

    def __init__(self, name: str) -> None:
        self.name = name
        super().__init__(f"a model profile named {name!r} already exists")


def _params_json(params: ModelParams) -> str:
    return json.dumps(asdict(params), sort_keys=True)


def _params(text: str) -> ModelParams:
    data: dict[str, Any] = json.loads(text or "{}")
    known = set(ModelParams.__dataclass_fields__)
    # Unknown keys come from a newer studio; dropping them keeps older ones working.
    return ModelParams(**{k: v for k, v in data.items() if k in known})


def _row(profile: ModelProfile) -> tuple[Any, ...]:
    return (
        profile.name,
        profile.kind.value,
        profile.base_url,
        profile.model,
        profile.api_key_env or None,
        _params_json(profile.params),
        json.dumps(dict(profile.headers), sort_keys=True),
    )


def _profile(row: tuple[Any, ...]) -> ModelProfile:
    name, kind, base_url, model, api_key_env, params_json, headers_json = row
    return ModelProfile(
        name,
        ProviderKind(kind),
        base_url,
        model,
        api_key_env,
        _params(params_json),
        json.loads(headers_json or "{}"),
    )


class ProfileRepository:
    """CRUD of model profiles on a :class:`RegistryStore`'s database.

    Every method is one transaction, serialised with the store's other work.
    """

    def __init__(self, store: RegistryStore) -> None:
        self._store = store

    @property
    def _conn(self) -> sqlite3.Connection:
        return self._store.connection

    def list_profiles(self) -> list[ModelProfile]:
        """Every profile, by name."""
        with self._store.lock, read_transaction(self._conn):
            rows = self._conn.execute(f"SELECT {_COLUMNS} FROM model_profiles ORDER BY name")
            return [_profile(r) for r in rows]

    def get(self, name: str) -> ModelProfile:
        """The profile called ``name``; raises NotFoundError."""
        with self._store.lock, read_transaction(self._conn):
            row = self._conn.execute(
                f"SELECT {_COLUMNS} FROM model_profiles WHERE name = ?", (name,)
            ).fetchone()
        if row is None:
            raise NotFoundError(f"model profile {name!r} does not exist")
        return _profile(row)

    def add(self, profile: ModelProfile) -> ModelProfile:
        """Store a new profile; raises ProfileExistsError."""
        now = utc_now()
        with self._store.lock, write_transaction(self._conn):
            try:
                self._conn.execute(
                    f"INSERT INTO model_profiles ({_COLUMNS}, created_at, updated_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (*_row(profile), now, now),
                )
            except sqlite3.IntegrityError as exc:
                raise ProfileExistsError(profile.name) from exc
        return profile

    def update(self, profile: ModelProfile, *, old_name: str | None = None) -> ModelProfile:
        """Replace the stored profile ``old_name`` (default: ``profile.name``); may rename.

        Raises:
            NotFoundError: no profile ``old_name``.
            ProfileExistsError: the new name is taken by another profile.
        """
        target = old_name or profile.name
        with self._store.lock, write_transaction(self._conn):
            try:
                cursor = self._conn.execute(
                    "UPDATE model_profiles SET name = ?, kind = ?, base_url = ?, model = ?,"
                    " api_key_env = ?, params_json = ?, headers_json = ?, updated_at = ?"
                    " WHERE name = ?",
                    (*_row(profile), utc_now(), target),
                )
            except sqlite3.IntegrityError as exc:
                raise ProfileExistsError(profile.name) from exc
            if cursor.rowcount == 0:
                raise NotFoundError(f"model profile {target!r} does not exist")
        return profile

    def delete(self, name: str) -> None:
        """Remove a profile; raises NotFoundError. (Its keyring entry is left alone.)"""
        with self._store.lock, write_transaction(self._conn):
            cursor = self._conn.execute("DELETE FROM model_profiles WHERE name = ?", (name,))
            if cursor.rowcount == 0:
                raise NotFoundError(f"model profile {name!r} does not exist")

    def timestamps(self, name: str) -> tuple[str, str]:
        """``(created_at, updated_at)`` of a profile; raises NotFoundError."""
        with self._store.lock, read_transaction(self._conn):
            row = self._conn.execute(
                "SELECT created_at, updated_at FROM model_profiles WHERE name = ?", (name,)
            ).fetchone()
        if row is None:
            raise NotFoundError(f"model profile {name!r} does not exist")
        return row[0], row[1]
