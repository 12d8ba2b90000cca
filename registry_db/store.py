"""The registry store: registries, their drafts and their published versions.

A :class:`RegistryStore` wraps one SQLite file. Several stores (in one or
several processes) may share a file: each write is one ``BEGIN IMMEDIATE``
transaction, and stale edits are refused with :class:`ConflictError` instead of
overwriting someone else's work.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from registry_db.connection import (
    connect,
    open_error,
    read_transaction,
    utc_now,
    write_transaction,
)
from registry_db.errors import (
    AlreadyExistsError,
    ConflictError,
    NotFoundError,
    RegistryHasVersionsError,
)
from registry_db.schema import apply_migrations

# drafts, skills, versions, documents (the contract document parser, the skills
# package reader) and the result models are imported by the methods that use
# them: a command that only opens the store for its connection (sessions import
# and check) does not load them.
if TYPE_CHECKING:
    from registry_db import versions
    from registry_db.models import (
        DeleteTool,
        DraftSaveResult,
        DraftTool,
        RegistryInfo,
        UpsertTool,
        Version,
        VersionInfo,
    )
    from studio.contract import Registry, RegistrySettings

_SELECT_INFO = """
    SELECT r.id, r.name, r.title, r.description, r.settings_json, r.draft_revision,
        (SELECT count(*) FROM draft_tools t WHERE t.registry_id = r.id),
        (SELECT count(*) FROM versions v WHERE v.registry_id = r.id),
        (SELECT max(number) FROM versions v WHERE v.registry_id = r.id),
        r.updated_at
    FROM registries r
"""

_SEEDED_KEY = "examples_seeded_at"


def _info(row: tuple) -> RegistryInfo:
    from registry_db.documents import load_settings
    from registry_db.models import RegistryInfo

    id_, name, title, description, settings, revision, tools, count, latest, updated = row
    return RegistryInfo(
        id_, name, title, description, load_settings(settings), revision, tools, count, latest,
        updated,
    )  # fmt: skip


class RegistryStore:
    """Registries, drafts and versions in one SQLite database file.

    Every public method is one transaction; the instance may be shared
    between threads (calls are serialised by a lock).
    """

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        """Wrap an open, migrated connection; use :meth:`open` instead."""
        self._conn = conn
        self._lock = threading.RLock()
        self.path = path

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> RegistryStore:
        """Open (creating file and parent directory if needed) and migrate a database."""
        resolved = Path(path).expanduser()
        try:
            resolved.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise open_error(resolved, exc) from exc
        conn = connect(resolved)
        try:
            apply_migrations(conn)
        except (sqlite3.DatabaseError, OSError) as exc:
            # A damaged page or a foreign schema may only show once the tables are read.
            conn.close()
            raise open_error(resolved, exc) from exc
        except BaseException:
            conn.close()
            raise
        return cls(conn, resolved)

    def close(self) -> None:
        """Close the connection; the store is unusable afterwards."""
        with self._lock:
            self._conn.close()

    def __enter__(self) -> RegistryStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @property
    def connection(self) -> sqlite3.Connection:
        """The underlying connection, for later repositories (channels, sessions…)."""
        return self._conn

    @property
    def lock(self) -> threading.RLock:
        """The lock serialising this store's connection; repositories sharing it take it too."""
        return self._lock

    # ------------------------------------------------------------------ registries

    def _registry_id(self, name: str) -> tuple[int, int]:
        row = self._conn.execute(
            "SELECT id, draft_revision FROM registries WHERE name = ?", (name,)
        ).fetchone()
        if row is None:
            raise NotFoundError(f"registry {name!r} does not exist")
        return row[0], row[1]

    def _info(self, name: str) -> RegistryInfo:
        row = self._conn.execute(_SELECT_INFO + " WHERE r.name = ?", (name,)).fetchone()
        if row is None:
            raise NotFoundError(f"registry {name!r} does not exist")
        return _info(row)

    def list_registries(self) -> list[RegistryInfo]:
        """Every registry, by name."""
        with self._lock, read_transaction(self._conn):
            return [_info(r) for r in self._conn.execute(_SELECT_INFO + " ORDER BY r.name")]

    def get_registry(self, name: str) -> RegistryInfo:
        """The registry called ``name``; raises NotFoundError."""
        with self._lock, read_transaction(self._conn):
            return self._info(name)

    def _insert_registry(
        self, name: str, title: str, description: str, settings: RegistrySettings, now: str
    ) -> int:
        from registry_db.documents import settings_json

        if not name:
            raise ValueError("a registry needs a name")
        try:
            cursor = self._conn.execute(
                "INSERT INTO registries (name, title, description, settings_json,"
                " draft_revision, created_at, updated_at) VALUES (?, ?, ?, ?, 0, ?, ?)",
                (name, title, description, settings_json(settings), now, now),
            )
        except sqlite3.IntegrityError as exc:
            raise AlreadyExistsError(name) from exc
        return int(cursor.lastrowid or 0)

    def create_registry(
        self,
        name: str,
        title: str = "",
        description: str = "",
        settings: RegistrySettings | None = None,
    ) -> RegistryInfo:
        """Create an empty registry; raises AlreadyExistsError."""
        from studio.contract import RegistrySettings  # on use, like the modules above

        with self._lock, write_transaction(self._conn):
            self._insert_registry(
                name, title, description, settings or RegistrySettings(), utc_now()
            )
            return self._info(name)

    def _bump(self, registry_id: int, now: str) -> None:
        self._conn.execute(
            "UPDATE registries SET draft_revision = draft_revision + 1, updated_at = ?"
            " WHERE id = ?",
            (now, registry_id),
        )

    def _check_draft_revision(self, name: str, stored: int, base: int | None) -> None:
        if base is not None and base != stored:
            raise ConflictError(f"registry {name}", stored_revision=stored, base_revision=base)

    def _set_meta(self, registry_id: int, registry: Registry, now: str) -> None:
        from registry_db.documents import settings_json

        self._conn.execute(
            "UPDATE registries SET title = ?, description = ?, settings_json = ? WHERE id = ?",
            (registry.title, registry.description, settings_json(registry.settings), registry_id),
        )
        self._bump(registry_id, now)

    def update_registry_meta(
        self,
        name: str,
        *,
        base_revision: int,
        title: str,
        description: str,
        settings: RegistrySettings,
    ) -> RegistryInfo:
        """Change title, description and settings; ConflictError when draft_revision moved."""
        from studio.contract import Registry  # on use, like the modules above

        with self._lock, write_transaction(self._conn):
            registry_id, stored = self._registry_id(name)
            self._check_draft_revision(name, stored, base_revision)
            meta = Registry(name=name, title=title, description=description, settings=settings)
            self._set_meta(registry_id, meta, utc_now())
            return self._info(name)

    def delete_registry(self, name: str) -> None:
        """Delete a registry and its draft; refused once it has published versions."""
        with self._lock, write_transaction(self._conn):
            info = self._info(name)
            if info.version_count:
                raise RegistryHasVersionsError(name, info.version_count)
            self._conn.execute("DELETE FROM registries WHERE id = ?", (info.id,))

    # ------------------------------------------------------------------ drafts

    def draft_tools(self, name: str) -> list[DraftTool]:
        """The draft tools of ``name`` in position order."""
        from registry_db import drafts

        with self._lock, read_transaction(self._conn):
            registry_id, _ = self._registry_id(name)
            return drafts.read_draft_tools(self._conn, registry_id)

    def draft_registry(self, name: str) -> Registry:
        """The draft as a registry document (metadata plus tools in order)."""
        from registry_db import drafts, skills
        from studio.contract import Registry

        with self._lock, read_transaction(self._conn):
            info = self._info(name)
            tools = drafts.read_draft_tools(self._conn, info.id)
            draft_skills = skills.read_draft_skills(self._conn, info.id)
            draft_agents = skills.read_draft_agents(self._conn, info.id)
        return Registry(
            name=info.name,
            title=info.title,
            description=info.description,
            settings=info.settings,
            tools=tuple(t.tool for t in tools),
            skills=draft_skills,
            agents=draft_agents,
        )

    def save_draft(
        self,
        name: str,
        changes: Sequence[UpsertTool | DeleteTool],
        *,
        base_draft_revision: int | None = None,
    ) -> DraftSaveResult:
        """Apply upserts and deletes to the draft, all or nothing.

        Args:
            name: The registry.
            changes: Applied in order; edits of existing tools carry their base revision.
            base_draft_revision: When given, the registry's draft revision the
                caller last saw; any other change since then is a conflict.

        Return:
            The new draft revision and the upserted rows.

        Raises:
            NotFoundError: no such registry.
            ConflictError: something this save was based on changed meanwhile.
            DuplicateNameError: two tools would share a name.
        """
        from registry_db import drafts
        from registry_db.models import DraftSaveResult

        with self._lock, write_transaction(self._conn):
            registry_id, stored = self._registry_id(name)
            self._check_draft_revision(name, stored, base_draft_revision)
            if not changes:
                return DraftSaveResult(stored, [])
            now = utc_now()
            saved = drafts.apply_changes(self._conn, registry_id, name, changes, now)
            self._bump(registry_id, now)
            return DraftSaveResult(stored + 1, saved)

    def replace_draft(
        self, name: str, registry: Registry, *, base_draft_revision: int | None = None
    ) -> None:
        """Make the draft of ``name`` equal ``registry`` (its metadata and tools).

        ``registry.name`` is not used: the registry keeps its name. Tools are
        matched by name, so unchanged tools keep their ids and revisions.
        """
        from registry_db import drafts, skills

        with self._lock, write_transaction(self._conn):
            registry_id, stored = self._registry_id(name)
            self._check_draft_revision(name, stored, base_draft_revision)
            now = utc_now()
            drafts.replace_tools(self._conn, registry_id, name, registry.tools, now)
            skills.replace_capabilities(
                self._conn, registry_id, registry.skills, registry.agents, now
            )
            self._set_meta(registry_id, registry, now)

    def import_registry(self, registry: Registry, *, replace_draft: bool = False) -> RegistryInfo:
        """Create a registry from a document, or replace the draft of the one with its name.

        Raises:
            AlreadyExistsError: the name is taken and ``replace_draft`` is False.
        """
        with self._lock, write_transaction(self._conn):
            self._import(registry, replace_draft=replace_draft)
            return self._info(registry.name)

    def _import(self, registry: Registry, *, replace_draft: bool) -> None:
        from registry_db import drafts, skills

        now = utc_now()
        existing = self._conn.execute(
            "SELECT id FROM registries WHERE name = ?", (registry.name,)
        ).fetchone()
        if existing is not None and not replace_draft:
            raise AlreadyExistsError(registry.name)
        if existing is None:
            registry_id = self._insert_registry(
                registry.name, registry.title, registry.description, registry.settings, now
            )
        else:
            registry_id = existing[0]
        drafts.replace_tools(self._conn, registry_id, registry.name, registry.tools, now)
        skills.replace_capabilities(self._conn, registry_id, registry.skills, registry.agents, now)
        self._set_meta(registry_id, registry, now)

    # ------------------------------------------------------------------ seeding

    def needs_seeding(self) -> bool:
        """True while the database has no registries and was never seeded."""
        with self._lock, read_transaction(self._conn):
            return self._needs_seeding()

    def _needs_seeding(self) -> bool:
        seeded = self._conn.execute("SELECT 1 FROM meta WHERE key = ?", (_SEEDED_KEY,)).fetchone()
        return (
            seeded is None
            and self._conn.execute("SELECT 1 FROM registries LIMIT 1").fetchone() is None
        )

    def seed_registries(self, registries: Sequence[Registry]) -> list[str]:
        """Import ``registries`` once in the database's life, in one transaction.

        Nothing happens when the database already has registries or was seeded
        before, so examples a user deleted do not come back.

        Return:
            The names imported (empty when seeding was not needed).
        """
        with self._lock, write_transaction(self._conn):
            # Checked again under the write lock: another process may have
            # seeded between our caller's check and now.
            if not self._needs_seeding():
                return []
            for registry in registries:
                self._import(registry, replace_draft=False)
            self._conn.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?)", (_SEEDED_KEY, utc_now())
            )
            return [r.name for r in registries]

    # ------------------------------------------------------------------ versions

    def publish(
        self,
        name: str,
        *,
        notes: str = "",
        semver: str | None = None,
        author: str | None = None,
        review: Mapping[str, Any] | None = None,
    ) -> VersionInfo:
        """Publish the current draft as the next immutable version (an empty draft may publish).

        ``review`` (optional) is what the author went through in the publish
        dialog: the diff summary and the acknowledged breaking changes. It is
        stored with the version and comes back as ``VersionInfo.review``.

        The same transaction appends a ``publish`` event to the channel log
        (who: the author, why: the notes; see :mod:`registry_db.channel_log`),
        so a version is never published unlogged nor logged unpublished.

        Raises:
            NotFoundError: no such registry.
            InvalidSemverError: ``semver`` malformed or not above the previous one.
        """
        from registry_db import versions

        with self._lock, write_transaction(self._conn):
            registry_id, _ = self._registry_id(name)
            return versions.publish_draft(
                self._conn,
                registry_id,
                notes=notes,
                semver=semver,
                author=author,
                now=utc_now(),
                review=review,
            )

    def list_versions(self, name: str) -> list[VersionInfo]:
        """Version metadata of ``name``, newest last."""
        from registry_db import versions

        with self._lock, read_transaction(self._conn):
            registry_id, _ = self._registry_id(name)
            return versions.list_version_infos(self._conn, registry_id)

    def load_version(self, name: str, number: int) -> Version:
        """Version ``number`` of ``name``, its hash verified; raises TamperedVersionError.

        The lock is held only while the row is read: verifying and parsing a
        large version takes most of a second and needs no database.
        """
        from registry_db import versions

        return versions.verify_version(self.read_version(name, number))

    def read_version(self, name: str, number: int) -> versions.StoredVersion:
        """Version ``number``'s stored row, not yet verified (see ``versions.verify_version``)."""
        from registry_db import versions

        with self._lock, read_transaction(self._conn):
            registry_id, _ = self._registry_id(name)
            return versions.read_version(self._conn, registry_id, name, number)

    def latest_version(self, name: str) -> VersionInfo | None:
        """The newest version of ``name``, or None when nothing was published."""
        from registry_db import versions

        with self._lock, read_transaction(self._conn):
            registry_id, _ = self._registry_id(name)
            return versions.latest_version_info(self._conn, registry_id)
