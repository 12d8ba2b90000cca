"""Channels refuse versions that fail their hash check; resolve reports them (issue #10)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from registry_db import RegistryStore, TamperedVersionError
from studio.cli import main
from studio.release import (
    channel_events,
    promote,
    release_state,
    resolve,
    rollback,
    set_canary,
    set_channel,
)

from .conftest import REGISTRY

NESTED = "[" * 100_000 + "]" * 100_000


def tamper(db_path: Path, number: int, sql: str = "notes = 'approved'", *params: object) -> None:
    """Change version ``number`` in the file, triggers dropped as an attacker would."""
    raw = sqlite3.connect(db_path)
    try:
        with raw:
            raw.execute("DROP TRIGGER IF EXISTS versions_no_update")
            raw.execute(f"UPDATE versions SET {sql} WHERE number = ?", (*params, number))
    finally:
        raw.close()


def _unchanged(store: RegistryStore, action: Callable[..., object], *args: object,
               **kwargs: object) -> str:  # fmt: skip
    before = (release_state(store, REGISTRY), channel_events(store, REGISTRY))
    with pytest.raises(TamperedVersionError) as caught:
        action(store, REGISTRY, *args, **kwargs)
    assert (release_state(store, REGISTRY), channel_events(store, REGISTRY)) == before
    return str(caught.value)


@pytest.mark.parametrize(
    ("sql", "params"),
    [
        ("notes = 'approved'", ()),
        ("semver = '9.0.0'", ()),
        ("document = ?", (NESTED,)),
        ("document = CAST(? AS TEXT)", (b'{"name":"\xff"}',)),
    ],
)
def test_set_refuses_a_tampered_version(
    store: RegistryStore, db_path: Path, sql: str, params: tuple[object, ...]
) -> None:
    tamper(db_path, 3, sql, *params)
    message = _unchanged(store, set_canary, version=3, share=10, who="ops")
    assert message.startswith(f"version 3 of {REGISTRY} failed its hash check")
    _unchanged(store, set_channel, "stable", version=3, who="ops")
    set_canary(store, REGISTRY, version=2, share=10, who="ops")  # an intact one still goes


def test_promote_refuses_a_canary_tampered_after_it_was_set(
    store: RegistryStore, db_path: Path
) -> None:
    set_canary(store, REGISTRY, version=3, share=10, who="ops")
    tamper(db_path, 3)
    _unchanged(store, promote, who="ops")
    rollback(store, REGISTRY, who="ops")  # taking the canary to 0 % needs no version


def test_stable_rollback_refuses_a_tampered_previous_version(
    store: RegistryStore, db_path: Path
) -> None:
    set_channel(store, REGISTRY, "stable", version=2, who="ops")
    set_channel(store, REGISTRY, "stable", version=3, who="ops")
    tamper(db_path, 2)
    _unchanged(store, rollback, "stable", who="ops")


def test_resolve_refuses_a_nested_document_without_a_traceback(
    store: RegistryStore, db_path: Path
) -> None:
    tamper(db_path, 3, "document = ?", NESTED)
    with pytest.raises(TamperedVersionError, match="failed its hash check"):
        resolve(store, REGISTRY)


@pytest.mark.parametrize(
    "args",
    [
        ["channel", REGISTRY, "set", "canary", "--version", "3", "--share", "10"],
        ["channel", REGISTRY, "set", "stable", "--version", "3"],
        ["resolve", REGISTRY],
    ],
)
def test_the_cli_exits_2_with_one_line(
    store: RegistryStore, db_path: Path, capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    tamper(db_path, 3, "document = CAST(? AS TEXT)", b'{"name":"\xff"}')
    logged = channel_events(store, REGISTRY)
    assert main(["--db", str(db_path), *args]) == 2
    captured = capsys.readouterr()
    assert f"version 3 of {REGISTRY} failed its hash check" in captured.err
    assert captured.err.count("\n") == 1 and "Traceback" not in captured.err
    assert captured.out == ""
    assert channel_events(store, REGISTRY) == logged
