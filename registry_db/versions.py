"""Publishing drafts as immutable versions, and loading them back verified.

Functions here run inside a transaction opened by the caller. Publishing also
appends a ``publish`` event to the channel log in that transaction, so a
version and its log entry exist together or not at all.
"""

from __future__ import annotations

import getpass
import json
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from registry_db.channel_log import NO_CHANNEL, PUBLISH, append_event
from registry_db.documents import assemble_registry_document, assemble_registry_json
from registry_db.drafts import read_tool_texts
from registry_db.errors import NotFoundError, TamperedVersionError
from registry_db.models import Version, VersionInfo
from registry_db.semver import check_next_semver
from studio.contract import parse_registry
from studio.contract.canonical import hash_bytes, parse_canonical

_INFO_COLUMNS = (
    "number, semver, parent_number, content_hash, notes, author, created_at, tool_count,"
    " review_json"
)


def _info(row: Sequence[Any]) -> VersionInfo:
    """A VersionInfo from a row of ``_INFO_COLUMNS`` (review_json decoded)."""
    number, semver, parent, content_hash, notes, author, created_at, tool_count, review_json = row
    review = json.loads(review_json) if review_json else None
    return VersionInfo(
        number,
        semver,
        parent,
        content_hash,
        notes,
        author,
        created_at,
        tool_count,
        review=review if isinstance(review, dict) else None,
    )


def default_author() -> str:
    """The login name of the current user, or ``unknown`` when the OS will not say."""
    try:
        return getpass.getuser()
    except Exception:  # getuser raises OSError/KeyError without USER and a passwd entry
        return "unknown"


def publish_draft(
    conn: sqlite3.Connection,
    registry_id: int,
    *,
    notes: str,
    semver: str | None,
    author: str | None,
    now: str,
    review: Mapping[str, Any] | None = None,
) -> VersionInfo:
    """Snapshot the registry's draft as the next version and log it.

    The ``publish`` event goes to the channel log under no channel (a publish
    moves no channel row; a stable that was never set follows it anyway):
    ``who`` is the author, ``why`` the notes, ``before``/``after`` the newest
    version's ``{"version", "semver"}`` before and after.

    Args:
        conn: A connection inside a write transaction.
        registry_id: The registry to publish.
        notes: Release notes.
        semver: Optional ``X.Y.Z[-pre]`` label, greater than the last one given.
        author: Who publishes; defaults to the OS user.
        now: The creation timestamp.
        review: What the author reviewed (diff summary, acknowledged breaking
            changes); stored as JSON beside the version, outside its hash.

    Return:
        The new version's metadata.

    Raises:
        InvalidSemverError: ``semver`` is malformed or not greater than the previous one.
    """
    name, title, description, settings_text = conn.execute(
        "SELECT name, title, description, settings_json FROM registries WHERE id = ?",
        (registry_id,),
    ).fetchone()
    previous, previous_semver = conn.execute(
        "SELECT number, semver FROM versions WHERE registry_id = ? ORDER BY number DESC LIMIT 1",
        (registry_id,),
    ).fetchone() or (None, None)
    if semver is not None:
        last_semver = conn.execute(
            "SELECT semver FROM versions WHERE registry_id = ? AND semver IS NOT NULL"
            " ORDER BY number DESC LIMIT 1",
            (registry_id,),
        ).fetchone()
        check_next_semver(semver, last_semver[0] if last_semver else None)
    tool_texts, canonical_texts = read_tool_texts(conn, registry_id)
    canonical = assemble_registry_json(
        name=name,
        title=title,
        description=description,
        settings_text=settings_text,
        tool_texts=canonical_texts,
    )
    # The stored document keeps the authored key order; the hash is over its
    # canonical form, which is what verify_version recomputes.
    document = assemble_registry_document(
        name=name,
        title=title,
        description=description,
        settings_text=settings_text,
        tool_texts=tool_texts,
    )
    info = VersionInfo(
        number=(previous or 0) + 1,
        semver=semver,
        parent_number=previous,
        content_hash=hash_bytes(canonical),
        notes=notes,
        author=default_author() if author is None else author,
        created_at=now,
        tool_count=len(tool_texts),
        review=None if review is None else json.loads(json.dumps(review)),
    )
    conn.execute(
        f"INSERT INTO versions (registry_id, document, {_INFO_COLUMNS})"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            registry_id,
            document,
            info.number,
            info.semver,
            info.parent_number,
            info.content_hash,
            info.notes,
            info.author,
            info.created_at,
            info.tool_count,
            None if review is None else json.dumps(review, ensure_ascii=False, sort_keys=True),
        ),
    )
    append_event(
        conn,
        registry=name,
        channel=NO_CHANNEL,
        action=PUBLISH,
        who=info.author,
        why=info.notes,
        before={"version": previous, "semver": previous_semver},
        after={"version": info.number, "semver": info.semver},
        now=now,
    )
    return info


def list_version_infos(conn: sqlite3.Connection, registry_id: int) -> list[VersionInfo]:
    """Metadata of every version of a registry, oldest first."""
    rows = conn.execute(
        f"SELECT {_INFO_COLUMNS} FROM versions WHERE registry_id = ? ORDER BY number",
        (registry_id,),
    )
    return [_info(row) for row in rows]


def latest_version_info(conn: sqlite3.Connection, registry_id: int) -> VersionInfo | None:
    """Metadata of the newest version, or None when nothing was published."""
    row = conn.execute(
        f"SELECT {_INFO_COLUMNS} FROM versions WHERE registry_id = ? ORDER BY number DESC LIMIT 1",
        (registry_id,),
    ).fetchone()
    return None if row is None else _info(row)


@dataclass(frozen=True, slots=True)
class StoredVersion:
    """A version's row as stored, not yet verified (see :func:`verify_version`)."""

    registry: str
    info: VersionInfo
    document_text: str


def read_version(
    conn: sqlite3.Connection, registry_id: int, registry_name: str, number: int
) -> StoredVersion:
    """Read version ``number``'s row (the quick part; verifying it is the slow one).

    Raises:
        NotFoundError: there is no such version.
    """
    row = conn.execute(
        f"SELECT document, {_INFO_COLUMNS} FROM versions WHERE registry_id = ? AND number = ?",
        (registry_id, number),
    ).fetchone()
    if row is None:
        raise NotFoundError(f"version {number} of {registry_name} does not exist")
    return StoredVersion(registry_name, _info(row[1:]), row[0])


def verify_version(stored: StoredVersion) -> Version:
    """Check a stored version's document against its hash and parse it; no database access.

    Raises:
        TamperedVersionError: the document's hash differs from the one stored at publish.
    """
    info = stored.info
    try:
        document, canonical = parse_canonical(stored.document_text)
        computed = hash_bytes(canonical)
    except (ValueError, TypeError) as exc:  # not JSON any more, or not canonicalisable
        raise TamperedVersionError(
            stored.registry, info.number, info.content_hash, f"unreadable ({exc})"
        ) from exc
    if computed != info.content_hash:
        raise TamperedVersionError(stored.registry, info.number, info.content_hash, computed)
    # Checked before it was stored and proven unchanged by the hash: skip the
    # metaschema pass, which would dominate loading a large registry.
    registry = parse_registry(document, check_schema=False)
    return Version(info=info, registry=registry, document=document)
