"""Publishing: numbering, semver, canonical documents, immutability and tamper detection."""

from __future__ import annotations

import getpass
import re
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from registry_db import (
    InvalidSemverError,
    NotFoundError,
    RegistryStore,
    TamperedVersionError,
    UpsertTool,
)
from registry_db.documents import assemble_registry_json, settings_json, tool_json
from registry_db.semver import check_next_semver, semver_key
from studio.contract import (
    Registry,
    RegistrySettings,
    ToolContract,
    canonical_json,
    registry_hash,
    registry_to_dict,
)

MakeTool = Callable[..., ToolContract]


@pytest.fixture
def registry(make_tool: MakeTool) -> Registry:
    """A registry with awkward content: non-ASCII, floats, nested schemas, settings extras."""
    return Registry(
        name="travel-reimbursement",
        title="差旅报销",
        description='Claims "and" invoices\n',
        settings=RegistrySettings(verbs=("query", "create"), extra={"lint": {"weight": 0.5}}),
        tools=(
            make_tool("query_invoices", title="发票", parameters={
                "type": "object",
                "properties": {
                    "amount": {"type": "number", "minimum": 1e-7, "maximum": 118.5},
                    "category": {"enum": ["taxi", "hotel"], "x-enum-aliases": {"出租车": "taxi"}},
                },
            }),
            make_tool("create_reimbursement_ticket", tags=("write", "€")),
            make_tool("search_policy"),
        ),
    )  # fmt: skip


def test_assembled_document_equals_full_canonicalisation(registry: Registry) -> None:
    assembled = assemble_registry_json(
        name=registry.name,
        title=registry.title,
        description=registry.description,
        settings_text=settings_json(registry.settings),
        tool_texts=[tool_json(t)[1] for t in registry.tools],
    )
    assert assembled == canonical_json(registry_to_dict(registry))
    empty = Registry(name="e")
    assert assemble_registry_json(
        name="e", title="", description="", settings_text=settings_json(empty.settings),
        tool_texts=[],
    ) == canonical_json(registry_to_dict(empty))  # fmt: skip


def test_round_trip_draft_publish_load(store: RegistryStore, registry: Registry) -> None:
    store.import_registry(registry)
    draft = store.draft_registry(registry.name)
    assert draft == registry
    info = store.publish(registry.name, notes="first", semver="1.0.0", author="ana")
    assert info.content_hash == registry_hash(draft)
    version = store.load_version(registry.name, 1)
    assert version.registry == draft
    assert version.info == info
    assert version.document == registry_to_dict(draft)
    assert (info.number, info.parent_number, info.tool_count) == (1, None, 3)
    assert (info.notes, info.author, info.semver) == ("first", "ana", "1.0.0")
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", info.created_at)


def test_numbering_parent_and_listing(store: RegistryStore, make_tool: MakeTool) -> None:
    store.create_registry("r")
    assert store.latest_version("r") is None
    empty = store.publish("r")
    assert (empty.number, empty.tool_count) == (1, 0)
    store.save_draft("r", [UpsertTool(make_tool("query_a"))])
    second = store.publish("r")
    third = store.publish("r")
    assert (second.number, second.parent_number) == (2, 1)
    assert (third.number, third.parent_number) == (3, 2)
    assert second.content_hash == third.content_hash != empty.content_hash
    assert [v.number for v in store.list_versions("r")] == [1, 2, 3]
    assert store.latest_version("r") == third
    assert empty.author == getpass.getuser()
    with pytest.raises(NotFoundError, match="version 9 of r does not exist"):
        store.load_version("r", 9)


def test_versions_of_registries_are_numbered_separately(store: RegistryStore) -> None:
    store.create_registry("a")
    store.create_registry("b")
    store.publish("a")
    assert store.publish("b").number == 1


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ("1.0.0", True),
        ("0.10.2-rc.1", True),
        ("1.0.0-alpha-2.x", True),
        ("1.0", False),
        ("01.0.0", False),
        ("v1.0.0", False),
        ("1.0.0-", False),
        ("1.0.0-01", False),
        ("1.0.0+build", False),
    ],
)
def test_semver_syntax(text: str, ok: bool) -> None:
    if ok:
        semver_key(text)
    else:
        with pytest.raises(InvalidSemverError, match="not a semantic version"):
            semver_key(text)


def test_semver_precedence() -> None:
    ordered = ["1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta.2",
               "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0", "1.0.1", "1.2.0", "2.0.0"]  # fmt: skip
    assert sorted(ordered, key=semver_key) == ordered
    check_next_semver("1.0.0", None)
    with pytest.raises(InvalidSemverError, match="must be greater than"):
        check_next_semver("1.0.0-rc.1", "1.0.0")


def test_publish_checks_semver_against_the_last_one(store: RegistryStore) -> None:
    store.create_registry("r")
    store.publish("r", semver="1.2.0")
    store.publish("r")  # versions without semver do not reset the sequence
    with pytest.raises(InvalidSemverError, match=r"1\.1\.9 must be greater than .* 1\.2\.0"):
        store.publish("r", semver="1.1.9")
    with pytest.raises(InvalidSemverError):
        store.publish("r", semver="1.2.0")
    with pytest.raises(InvalidSemverError):
        store.publish("r", semver="banana")
    assert [v.semver for v in store.list_versions("r")] == ["1.2.0", None]
    assert store.publish("r", semver="1.3.0-rc.1").number == 3


def test_versions_reject_update_and_delete(store: RegistryStore) -> None:
    store.create_registry("r")
    store.publish("r", notes="original")
    conn = store.connection
    with pytest.raises(sqlite3.IntegrityError, match="versions are immutable"):
        conn.execute("UPDATE versions SET notes = 'changed'")
    with pytest.raises(sqlite3.IntegrityError, match="versions are immutable"):
        conn.execute("DELETE FROM versions")
    assert store.list_versions("r")[0].notes == "original"


def test_tampered_document_is_detected(store: RegistryStore, db_path: Path, registry: Registry):
    store.import_registry(registry)
    info = store.publish(registry.name)
    raw = sqlite3.connect(db_path)
    with raw:
        raw.execute("DROP TRIGGER versions_no_update")
        raw.execute("UPDATE versions SET document = replace(document, '118.5', '80')")
    raw.close()
    with pytest.raises(TamperedVersionError) as caught:
        store.load_version(registry.name, 1)
    message = str(caught.value)
    assert message.startswith(f"version 1 of {registry.name} failed its hash check: ")
    # The record hash (document bytes and metadata) is checked first, before parsing.
    (record,) = store.connection.execute("SELECT record_hash FROM versions").fetchone()
    assert f"stored {record}, computed sha256:" in message
    assert caught.value.computed not in (record, info.content_hash)


def test_authored_property_order_survives_save_publish_and_load(store: RegistryStore) -> None:
    tool = ToolContract(
        "query_invoices",
        parameters={
            "type": "object",
            "properties": {
                "start_date": {"type": "string"},
                "end_date": {"type": "string"},
                "category": {"type": "string"},
            },
        },
    )
    store.import_registry(Registry("travel", tools=(tool,)))
    order = ["start_date", "end_date", "category"]
    assert list(store.draft_tools("travel")[0].tool.parameters["properties"]) == order
    info = store.publish("travel")
    loaded = store.load_version("travel", info.number).registry
    assert list(loaded.tools[0].parameters["properties"]) == order
    assert info.content_hash == registry_hash(loaded), "the hash is still over the canonical form"
