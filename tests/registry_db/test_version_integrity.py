"""Everything a version shows is covered by the check done on load (issue #10, items 9 and 10).

Each test edits the SQLite file directly, as someone holding the file would:
the immutability triggers are dropped first (they only stop honest mistakes).
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from registry_db import RegistryStore, TamperedVersionError
from registry_db.versions import record_hash
from studio.contract import Registry, ToolContract

TOOL = ToolContract(
    "query_invoices",
    summary="Lists invoices between two dates.",
    parameters={
        "type": "object",
        "properties": {
            "start_date": {"type": "string", "format": "date"},
            "end_date": {"type": "string", "format": "date"},
            "category": {"type": "string", "enum": ["taxi", "hotel", "train", "flight"]},
        },
        "required": ["start_date", "end_date"],
    },
)


@pytest.fixture
def published(store: RegistryStore) -> RegistryStore:
    """travel: v1 and v2 (semver, notes, author, a review); other: an empty registry."""
    store.import_registry(Registry("travel", tools=(TOOL,)))
    store.publish("travel", notes="first", semver="1.0.0", author="ana")
    store.publish("travel", notes="second", semver="1.1.0", author="ben",
                  review={"breaking": [], "summary": "no change"})  # fmt: skip
    store.create_registry("other")
    return store


def tamper(db_path: Path, sql: str, params: tuple[Any, ...] = ()) -> None:
    """Run ``sql`` on the file with the immutability triggers dropped."""
    raw = sqlite3.connect(db_path)
    try:
        with raw:
            raw.execute("DROP TRIGGER IF EXISTS versions_no_update")
            raw.execute("DROP TRIGGER IF EXISTS versions_no_delete")
            raw.execute(sql, params)
    finally:
        raw.close()


def refused(store: RegistryStore, number: int = 2, registry: str = "travel") -> str:
    with pytest.raises(TamperedVersionError) as caught:
        store.load_version(registry, number)
    message = str(caught.value)
    assert message.startswith(f"version {number} of {registry} failed its hash check: ")
    return message


def test_an_untouched_version_loads(published: RegistryStore) -> None:
    version = published.load_version("travel", 2)
    assert (version.info.semver, version.info.notes, version.info.author) == (
        "1.1.0", "second", "ben",
    )  # fmt: skip
    assert version.info.review == {"breaking": [], "summary": "no change"}
    assert list(version.registry.tools[0].parameters["properties"]) == [
        "start_date", "end_date", "category",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("column", "value"),
    [
        ("semver", "9.9.9"),
        ("semver", None),
        ("notes", "approved by security"),
        ("author", "mallory"),
        ("created_at", "2020-01-01T00:00:00.000Z"),
        ("tool_count", 7),
        ("parent_number", None),
        ("content_hash", "sha256:" + "0" * 64),
        ("review_json", '{"breaking": [], "summary": "reviewed by the CISO"}'),
        ("review_json", None),
        ("record_hash", None),
        ("record_hash", "sha256:" + "1" * 64),
    ],
)
def test_changed_metadata_is_refused(
    published: RegistryStore, db_path: Path, column: str, value: object
) -> None:
    tamper(db_path, f"UPDATE versions SET {column} = ? WHERE number = 2", (value,))
    refused(published)
    published.load_version("travel", 1)  # the other version is untouched


def test_reordered_properties_are_refused(published: RegistryStore, db_path: Path) -> None:
    """Same canonical form (so the content hash still matches), different order a model reads."""
    (text,) = published.connection.execute(
        "SELECT document FROM versions WHERE number = 2"
    ).fetchone()
    document = json.loads(text)
    properties = document["tools"][0]["parameters"]["properties"]
    document["tools"][0]["parameters"]["properties"] = dict(reversed(properties.items()))
    reordered = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
    assert reordered != text
    tamper(db_path, "UPDATE versions SET document = ? WHERE number = 2", (reordered,))
    refused(published)


def test_whitespace_in_the_document_is_refused(published: RegistryStore, db_path: Path) -> None:
    tamper(db_path, "UPDATE versions SET document = document || ' ' WHERE number = 2")
    refused(published)


def test_a_version_moved_to_another_registry_is_refused(
    published: RegistryStore, db_path: Path
) -> None:
    tamper(
        db_path,
        "UPDATE versions SET registry_id = (SELECT id FROM registries WHERE name = 'other')"
        " WHERE number = 1",
    )
    refused(published, 1, "other")


@pytest.mark.parametrize(
    "document",
    [
        pytest.param("[" * 200_000 + "]" * 200_000, id="deeply-nested-array"),
        pytest.param('{"a":' * 100_000 + "1" + "}" * 100_000, id="deeply-nested-object"),
        pytest.param(b'{"name":"\xff\xfe"}', id="not-utf-8"),
        pytest.param(b"\x00\x01\x02", id="binary"),
        pytest.param("", id="empty"),
    ],
)
def test_unparseable_documents_are_refused_before_parsing(
    published: RegistryStore, db_path: Path, document: str | bytes | None
) -> None:
    if isinstance(document, bytes):  # stored as TEXT holding bytes that are not UTF-8
        tamper(db_path, "UPDATE versions SET document = CAST(? AS TEXT) WHERE number = 2",
               (document,))  # fmt: skip
    else:
        tamper(db_path, "UPDATE versions SET document = ? WHERE number = 2", (document,))
    refused(published)


def test_non_utf8_metadata_is_refused_and_still_listed(
    published: RegistryStore, db_path: Path
) -> None:
    tamper(db_path, "UPDATE versions SET notes = CAST(? AS TEXT) WHERE number = 2",
           (b"caf\xe9",))  # fmt: skip
    message = refused(published)
    assert "unreadable" in message
    listed = published.list_versions("travel")
    assert [v.number for v in listed] == [1, 2]
    assert listed[1].notes == "caf\ufffd"
    assert published.latest_version("travel") == listed[1]


def test_a_tampered_document_that_kept_both_hashes_fails_neither_check_silently(
    published: RegistryStore, db_path: Path
) -> None:
    """Recomputing the record hash too (an attacker knowing the scheme) still leaves content."""
    (text,) = published.connection.execute(
        "SELECT document FROM versions WHERE number = 2"
    ).fetchone()
    changed = text.replace("Lists invoices", "Deletes invoices")
    info = published.list_versions("travel")[1]
    (review,) = published.connection.execute(
        "SELECT review_json FROM versions WHERE number = 2"
    ).fetchone()
    forged = record_hash("travel", info, review, changed.encode())
    tamper(db_path, "UPDATE versions SET document = ?, record_hash = ? WHERE number = 2",
           (changed, forged))  # fmt: skip
    assert f"stored {info.content_hash}" in refused(published)


def _reset_to_before_record_hashes(db_path: Path, extra: Callable[[sqlite3.Connection], None]):
    """Make the file look as migration 0008 left it (no record_hash column, not applied)."""
    raw = sqlite3.connect(db_path)
    try:
        with raw:
            raw.execute("DROP TRIGGER versions_no_update")
            raw.execute("ALTER TABLE versions DROP COLUMN record_hash")
            extra(raw)
            (trigger,) = raw.execute(
                "SELECT sql FROM sqlite_master WHERE name = 'versions_no_delete'"
            ).fetchone()
            raw.execute(trigger.replace("versions_no_delete", "versions_no_update")
                        .replace("BEFORE DELETE", "BEFORE UPDATE"))  # fmt: skip
            raw.execute("DELETE FROM _sqlite_migrations WHERE name = '0009_version_record_hash'")
    finally:
        raw.close()


def test_the_migration_gives_existing_versions_a_record_hash(
    published: RegistryStore, db_path: Path
) -> None:
    published.close()

    def tamper_v1_before(raw: sqlite3.Connection) -> None:
        # Changed before the migration: the record hash vouches for it, the
        # content hash does not.
        raw.execute("UPDATE versions SET document = replace(document, 'Lists', 'Drops')"
                    " WHERE number = 1")  # fmt: skip

    _reset_to_before_record_hashes(db_path, tamper_v1_before)
    with RegistryStore.open(db_path) as store:
        hashes = store.connection.execute(
            "SELECT number, record_hash FROM versions ORDER BY number"
        ).fetchall()
        assert [n for n, h in hashes] == [1, 2] and all(h.startswith("sha256:") for n, h in hashes)
        assert store.load_version("travel", 2).info.notes == "second"
        assert "stored sha256:" in refused(store, 1, "travel")  # its content hash
        with pytest.raises(sqlite3.IntegrityError, match="versions are immutable"):
            store.connection.execute("UPDATE versions SET notes = 'x'")
        store.publish("travel", notes="third")
        assert store.load_version("travel", 3).info.notes == "third"
    tamper(db_path, "UPDATE versions SET author = 'mallory' WHERE number = 2")
    with RegistryStore.open(db_path) as store:
        refused(store)


def test_load_stays_fast_for_a_large_version(store: RegistryStore) -> None:
    """Hashing the stored bytes first adds little to the content check (a59f1c4, 400c560)."""
    tools = tuple(
        ToolContract(f"tool_{i}", summary=f"Tool number {i}.", parameters=TOOL.parameters)
        for i in range(2000)
    )
    store.import_registry(Registry("big", tools=tools))
    store.publish("big")
    stored = store.read_version("big", 1)
    from registry_db.versions import _decoded_info

    info, review = _decoded_info(stored)
    start = time.perf_counter()
    record_hash("big", info, review, stored.document)
    hashing = time.perf_counter() - start
    start = time.perf_counter()
    store.load_version("big", 1)
    loading = time.perf_counter() - start
    assert hashing < 0.1 * loading + 0.005, (hashing, loading)
