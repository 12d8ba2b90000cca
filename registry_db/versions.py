"""Publishing drafts as immutable versions, and loading them back verified.

Functions here run inside a transaction opened by the caller. Publishing also
appends a ``publish`` event to the channel log in that transaction, so a
version and its log entry exist together or not at all.

A version carries two hashes. ``content_hash`` is over the canonical form of
its document (what diffs, ETags and clients compare). ``record_hash`` covers
everything the version shows: the document's stored bytes in authored order
(the property order a model reads) and the metadata (registry, number, semver,
parent, content hash, notes, author, created_at, tool count, review); see
:func:`record_hash`. Loading checks the record hash over the raw stored bytes
first, so a tampered row is refused before it is decoded or parsed (a deeply
nested or non-UTF-8 document included), then the content hash as before.
Versions published before record hashes got theirs from migration 0009, from
their rows as they were then: they were trusted at migration time (their
documents are still held to their content hash).
"""

from __future__ import annotations

import dataclasses
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
from registry_db.skills import extend_version_document
from studio.contract import parse_registry
from studio.contract.canonical import canonical_json, hash_bytes, parse_canonical

_INFO_COLUMNS = (
    "number, semver, parent_number, content_hash, notes, author, created_at, tool_count,"
    " review_json"
)
# The same columns with text read as bytes: a tampered row that is not UTF-8
# must be refused by the hash check, not crash the driver while decoding.
_RAW_INFO_COLUMNS = (
    "number, CAST(semver AS BLOB), parent_number, CAST(content_hash AS BLOB),"
    " CAST(notes AS BLOB), CAST(author AS BLOB), CAST(created_at AS BLOB), tool_count,"
    " CAST(review_json AS BLOB)"
)
_TEXT_FIELDS = (1, 3, 4, 5, 6, 8)  # positions of the text columns in _INFO_COLUMNS
_INT_FIELDS = (0, 7)
RECORD_HASH_SEPARATOR = b"\x00"
"""Between the canonical metadata and the document bytes (canonical JSON never holds a NUL)."""


def record_hash(registry: str, info: VersionInfo, review_json: str | None, document: bytes) -> str:
    """``sha256:<hex>`` over a version's canonical metadata, a NUL and its stored document bytes.

    Args:
        registry: The registry's name (a row moved to another registry fails).
        info: The version's metadata (``review`` is taken from ``review_json``).
        review_json: The ``review_json`` column as stored (None when absent).
        document: The ``document`` column's bytes as stored (UTF-8, authored order).
    """
    meta = canonical_json({
        "registry": registry, "number": info.number, "semver": info.semver,
        "parent_number": info.parent_number, "content_hash": info.content_hash,
        "notes": info.notes, "author": info.author, "created_at": info.created_at,
        "tool_count": info.tool_count, "review_json": review_json,
    })  # fmt: skip
    return hash_bytes(meta + RECORD_HASH_SEPARATOR + document)


def _listed(row: Sequence[Any]) -> VersionInfo:
    """A VersionInfo from a row of ``_RAW_INFO_COLUMNS`` for listing (not verified).

    Text that is not UTF-8 any more (tampering) shows with replacement
    characters instead of breaking the list; loading the version refuses it.
    """
    values = list(row)
    for i in _TEXT_FIELDS:
        if isinstance(values[i], bytes):
            values[i] = values[i].decode("utf-8", "replace")
    try:
        return _info(values)
    except ValueError:  # review_json is not JSON any more
        return _info([*values[:8], None])


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
    canonical, document = extend_version_document(conn, registry_id, canonical, document)
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
    review_json = None if review is None else json.dumps(review, ensure_ascii=False, sort_keys=True)
    conn.execute(
        f"INSERT INTO versions (registry_id, document, record_hash, {_INFO_COLUMNS})"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            registry_id,
            document,
            record_hash(name, info, review_json, document.encode("utf-8")),
            info.number,
            info.semver,
            info.parent_number,
            info.content_hash,
            info.notes,
            info.author,
            info.created_at,
            info.tool_count,
            review_json,
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
        f"SELECT {_RAW_INFO_COLUMNS} FROM versions WHERE registry_id = ? ORDER BY number",
        (registry_id,),
    )
    return [_listed(row) for row in rows]


def latest_version_info(conn: sqlite3.Connection, registry_id: int) -> VersionInfo | None:
    """Metadata of the newest version, or None when nothing was published."""
    row = conn.execute(
        f"SELECT {_RAW_INFO_COLUMNS} FROM versions WHERE registry_id = ?"
        " ORDER BY number DESC LIMIT 1",
        (registry_id,),
    ).fetchone()
    return None if row is None else _listed(row)


@dataclass(frozen=True, slots=True)
class StoredVersion:
    """A version's row as stored, not yet verified (see :func:`verify_version`).

    Attributes:
        registry: The registry's name.
        number: The version asked for.
        document: The ``document`` column's bytes, not decoded.
        columns: The ``_INFO_COLUMNS`` values as stored, text columns as bytes.
        record_hash: The ``record_hash`` column's bytes (None when missing).
    """

    registry: str
    number: int
    document: bytes
    columns: tuple[Any, ...]
    record_hash: bytes | None


def read_version(
    conn: sqlite3.Connection, registry_id: int, registry_name: str, number: int
) -> StoredVersion:
    """Read version ``number``'s row as bytes (the quick part; verifying it is the slow one).

    Raises:
        NotFoundError: there is no such version.
    """
    row = conn.execute(
        f"SELECT CAST(document AS BLOB), CAST(record_hash AS BLOB), {_RAW_INFO_COLUMNS}"
        " FROM versions WHERE registry_id = ? AND number = ?",
        (registry_id, number),
    ).fetchone()
    if row is None:
        raise NotFoundError(f"version {number} of {registry_name} does not exist")
    document, stored_record, *columns = row
    return StoredVersion(registry_name, number, document or b"", tuple(columns), stored_record)


def stored_record_hash(
    conn: sqlite3.Connection, version_id: int, registry_name: str, number: int
) -> str | None:
    """The record hash of a stored row as it is now (migration 0009); None when unreadable."""
    row = conn.execute(
        f"SELECT CAST(document AS BLOB), {_RAW_INFO_COLUMNS} FROM versions WHERE id = ?",
        (version_id,),
    ).fetchone()
    stored = StoredVersion(registry_name, number, row[0] or b"", tuple(row[1:]), None)
    try:
        info, review_json = _decoded_info(stored)
        return record_hash(registry_name, info, review_json, stored.document)
    except (ValueError, TypeError):
        return None


def _decoded_info(stored: StoredVersion) -> tuple[VersionInfo, str | None]:
    """The metadata of a stored row and its raw ``review_json``; ValueError when malformed."""
    values = list(stored.columns)
    if len(values) != 9:
        raise ValueError(f"{len(values)} metadata columns")
    for i in _TEXT_FIELDS:
        if values[i] is not None:
            if not isinstance(values[i], bytes):
                raise ValueError(f"column {i} is not text")
            values[i] = values[i].decode("utf-8")  # UnicodeDecodeError is a ValueError
    for i in _INT_FIELDS:
        if isinstance(values[i], bool) or not isinstance(values[i], int):
            raise ValueError(f"column {i} is not an integer")
    if values[2] is not None and not isinstance(values[2], int):
        raise ValueError("parent_number is not an integer")
    for i in (3, 4, 5, 6):  # content_hash, notes, author, created_at are NOT NULL
        if values[i] is None:
            raise ValueError(f"column {i} is empty")
    number, semver, parent, content_hash, notes, author, created_at, tool_count, review = values
    info = VersionInfo(number, semver, parent, content_hash, notes, author, created_at, tool_count)
    return info, review


def check_version(stored: StoredVersion) -> tuple[VersionInfo, Any]:
    """Check a stored version against its hashes; no database access, no contract parsing.

    The record hash (metadata and document bytes) is checked first, over the
    bytes as stored: nothing is decoded or parsed before it matches. Then the
    content hash over the document's canonical form, as before record hashes.

    Return:
        The verified metadata and the decoded JSON document.

    Raises:
        TamperedVersionError: the row differs from what was published (either
            hash differs, the record hash is missing, or the row is unreadable).
    """
    registry, number = stored.registry, stored.number
    expected = (stored.record_hash or b"").decode("ascii", "replace") or "no record hash"
    try:
        info, review_json = _decoded_info(stored)
        computed = record_hash(registry, info, review_json, stored.document)
    except (ValueError, TypeError) as exc:  # not text, not an integer, not canonicalisable
        raise TamperedVersionError(registry, number, expected, f"unreadable ({exc})") from exc
    if computed != expected:
        raise TamperedVersionError(registry, number, expected, computed)
    try:
        text = stored.document.decode("utf-8")
        document, canonical = parse_canonical(text)
        computed = hash_bytes(canonical)
    except (ValueError, TypeError, RecursionError) as exc:  # not JSON, or not canonicalisable
        raise TamperedVersionError(
            registry, number, info.content_hash, f"unreadable ({exc})"
        ) from exc
    if computed != info.content_hash:
        raise TamperedVersionError(registry, number, info.content_hash, computed)
    try:
        review = json.loads(review_json) if review_json else None
    except ValueError:  # vouched for by a record hash computed when the database migrated
        review = None
    info = dataclasses.replace(info, review=review if isinstance(review, dict) else None)
    return info, document


def verify_version(stored: StoredVersion) -> Version:
    """Check a stored version against its hashes (:func:`check_version`) and parse it.

    Raises:
        TamperedVersionError: the row differs from what was published.
    """
    info, document = check_version(stored)
    # Checked before it was stored and proven unchanged by the hash: skip the
    # metaschema pass, which would dominate loading a large registry.
    registry = parse_registry(document, check_schema=False)
    return Version(info=info, registry=registry, document=document)
