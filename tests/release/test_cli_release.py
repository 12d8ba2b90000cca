"""studio channel … and studio resolve: output, exit codes, one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from registry_db import RegistryStore
from studio.cli import main
from studio.release import PUBLISH, bucket, channel_events, release_state

from .conftest import REGISTRY, publish_versions


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = tmp_path / "cli.sqlite3"
    with RegistryStore.open(path) as store:
        publish_versions(store, REGISTRY, 3)
    return str(path)


def run(db: str, *args: str) -> int:
    return main(["--db", db, *args])


def test_channel_flow(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(db, "channel", REGISTRY, "show") == 0
    assert "stable\tv3 (latest, not pinned)" in capsys.readouterr().out
    assert run(db, "channel", REGISTRY, "set", "canary", "--version", "3", "--share", "10",
               "--why", "new wording", "--who", "ana") == 0  # fmt: skip
    assert "canary\tv3\t10 %" in capsys.readouterr().out
    assert run(db, "channel", REGISTRY, "show") == 0
    out = capsys.readouterr().out
    assert "ana\tset canary\tunset -> v3 at 10 %\tnew wording" in out
    assert "guard: hold" in out
    assert run(db, "channel", REGISTRY, "promote", "--why", "healthy") == 0
    assert "stable\tv3\t100 %" in capsys.readouterr().out
    assert run(db, "channel", REGISTRY, "rollback", "--channel", "stable", "--why", "oops") == 0
    assert "stable\tv2\t100 %" in capsys.readouterr().out
    with RegistryStore.open(db) as store:
        actions = [(e.channel, e.action) for e in channel_events(store, REGISTRY)]
    assert actions == [("", PUBLISH)] * 3 + [
        ("stable", "pin"),
        ("canary", "set"),
        ("stable", "promote"),
        ("canary", "promote"),
        ("stable", "rollback"),
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["set", "canary", "--version", "3"], "--share is required"),
        (["set", "canary", "--version", "9", "--share", "5"], "no version 9"),
        (["set", "canary", "--version", "3", "--share", "150"], "between 0 and 100"),
        (["promote"], "no version to promote"),
        (["rollback"], "already at 0 %"),
        (["rollback", "--channel", "stable"], "no previous version"),
    ],
)
def test_channel_errors_exit_2_with_one_line(db: str, capsys, args, message) -> None:
    with RegistryStore.open(db) as store:
        logged = channel_events(store, REGISTRY)
    assert run(db, "channel", REGISTRY, *args) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    with RegistryStore.open(db) as store:
        assert channel_events(store, REGISTRY) == logged


def test_unknown_registry(db: str, capsys) -> None:
    assert run(db, "channel", "nope", "show") == 2
    assert run(db, "resolve", "nope", "--subject", "x") == 2
    assert "does not exist" in capsys.readouterr().err


def test_resolve_prints_the_document(db: str, capsys) -> None:
    run(db, "channel", REGISTRY, "set", "canary", "--version", "3", "--share", "50")
    capsys.readouterr()
    with RegistryStore.open(db) as store:
        salt = release_state(store, REGISTRY).channel("canary").salt
    subject = next(s for s in (f"u{i}" for i in range(100)) if bucket(salt, s) <= 50)
    assert run(db, "resolve", REGISTRY, "--subject", subject, "--format", "gemini") == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["channel"], doc["version"], doc["format"]) == ("canary", 3, "gemini")
    assert "functionDeclarations" in doc["tools"]
    assert run(db, "resolve", REGISTRY) == 0
    assert json.loads(capsys.readouterr().out)["channel"] == "stable"
