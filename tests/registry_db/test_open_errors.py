"""A file that is not a usable database is refused with one line naming it, never a traceback."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from registry_db import DatabaseOpenError, RegistryStore, StoreError, load_examples
from studio.cli import main

ROOT = Path(__file__).resolve().parents[2]


def _valid(path: Path) -> bytes:
    with RegistryStore.open(path) as store:
        store.seed_registries(load_examples())
    assert not Path(f"{path}-wal").exists(), "the last close checkpoints the WAL"
    return path.read_bytes()


def _text(tmp: Path) -> Path:
    path = tmp / "notes.sqlite3"
    path.write_text("registry: travel-reimbursement\nthis is not a database\n" * 20)
    return path


def _first_100_bytes(tmp: Path) -> Path:
    path = tmp / "head.sqlite3"
    path.write_bytes(_valid(tmp / "valid.sqlite3")[:100])
    return path


def _cut_in_the_middle(tmp: Path) -> Path:
    data = _valid(tmp / "valid.sqlite3")
    path = tmp / "half.sqlite3"
    path.write_bytes(data[: len(data) // 2])
    return path


def _directory(tmp: Path) -> Path:
    path = tmp / "folder.sqlite3"
    path.mkdir()
    return path


def _under_a_file(tmp: Path) -> Path:
    (tmp / "plain").write_text("x")
    return tmp / "plain" / "studio.sqlite3"


def _unreadable(tmp: Path) -> Path:
    if os.name != "posix" or os.geteuid() == 0:
        pytest.skip("permissions do not stop root (or this platform)")
    path = tmp / "locked.sqlite3"
    _valid(path)
    path.chmod(0)
    return path


CASES: dict[str, tuple[Callable[[Path], Path], str]] = {
    "text": (_text, "not an SQLite database"),
    "first-100-bytes": (_first_100_bytes, "damaged or truncated"),
    "cut-in-the-middle": (_cut_in_the_middle, "damaged or truncated"),
    "directory": (_directory, "is a directory"),
    "under-a-file": (_under_a_file, "is a file, not a folder"),
    "unreadable": (_unreadable, ""),
}


@pytest.fixture(params=sorted(CASES))
def bad(request, tmp_path: Path) -> tuple[Path, str]:
    make, reason = CASES[request.param]
    return make(tmp_path), reason


def test_open_raises_one_store_error_naming_the_file(bad) -> None:
    path, reason = bad
    before = path.read_bytes() if path.is_file() and os.access(path, os.R_OK) else None
    with pytest.raises(DatabaseOpenError) as caught:
        RegistryStore.open(path)
    assert isinstance(caught.value, StoreError)
    message = str(caught.value)
    assert message.startswith(f"cannot open the database {path}: ")
    assert reason in message and "\n" not in message
    if before is not None:
        assert path.read_bytes() == before, "a refused file is left as it was"


@pytest.mark.parametrize(
    "argv",
    [["registries"], ["lint", "travel-reimbursement"], ["versions", "travel-reimbursement"]],
)
def test_cli_exits_2_with_one_line(bad, argv, capsys) -> None:
    path, reason = bad
    assert main([*argv, "--db", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"studio: cannot open the database {path}: ") and reason in err
    assert err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize(
    "argv", [["registries"], ["export", "travel-reimbursement", "--format", "openai"]]
)
def test_cli_process_exits_2_without_a_traceback(bad, argv) -> None:
    path, _reason = bad
    done = subprocess.run(
        [sys.executable, "-m", "studio.cli", "--db", str(path), *argv],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=60,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    assert done.stderr.startswith("studio: cannot open the database ")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_a_foreign_sqlite_database_that_fails_migration_is_an_open_error(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite3"
    with sqlite3.connect(path) as conn:
        # Not ours: a table of the same name with other columns.
        conn.execute("CREATE TABLE registries (x)")
        conn.execute("CREATE VIEW draft_tools AS SELECT 1")
    conn.close()
    try:
        store = RegistryStore.open(path)
    except DatabaseOpenError as exc:
        assert str(exc).startswith(f"cannot open the database {path}: ")
    else:  # the migrations coped with it: nothing to report
        store.close()


def test_a_file_sqlite_may_not_open_is_a_permission_error_even_as_root(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    # chmod does not stop root (CI containers), so the refusal is simulated where SQLite opens.
    import registry_db.connection as connection

    path = tmp_path / "locked.sqlite3"
    _valid(path)

    def refuse(*_args, **_kwargs):
        raise sqlite3.OperationalError("unable to open database file")

    monkeypatch.setattr(connection.sqlite3, "connect", refuse)
    monkeypatch.setattr(connection.os, "access", lambda *_a: False)
    with pytest.raises(DatabaseOpenError) as caught:
        RegistryStore.open(path)
    assert str(caught.value) == (
        f"cannot open the database {path}: permission denied (unable to open database file)"
    )
    assert main(["registries", "--db", str(path)]) == 2
    err = capsys.readouterr().err
    assert err == f"studio: cannot open the database {path}: permission denied " \
                  "(unable to open database file)\n"  # fmt: skip


def test_damage_found_during_a_command_is_one_line_too(tmp_path: Path, monkeypatch, capsys):
    import studio.cli.registries as registry_cli

    path = tmp_path / "ok.sqlite3"
    _valid(path)

    def damaged(_store, _args):
        raise sqlite3.DatabaseError("database disk image is malformed")

    monkeypatch.setattr(registry_cli, "_cmd_registries", damaged)
    assert main(["registries", "--db", str(path)]) == 1
    err = capsys.readouterr().err
    assert err == f"studio: database error in {path}: database disk image is malformed\n"
