"""``studio diff`` on a real SQLite file: sides, formats and exit codes."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from registry_db import RegistryStore, UpsertTool
from studio.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A database with order-service published once and its draft edited."""
    path = tmp_path / "diff.sqlite3"
    assert main(["--db", str(path), "import", str(EXAMPLES / "order-service.json")]) == 0
    assert main(["--db", str(path), "publish", "order-service", "--semver", "1.0.0"]) == 0
    with RegistryStore.open(path) as store:
        row = next(t for t in store.draft_tools("order-service") if t.tool.name == "get_order")
        params = {**row.tool.parameters, "additionalProperties": False}
        edit = UpsertTool(replace(row.tool, parameters=params), row.id, row.revision)
        store.save_draft("order-service", [edit])
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_diff_version_against_draft(db: Path, capsys) -> None:
    code, out, _ = run(capsys, "--db", str(db), "diff", "order-service", "1", "draft")
    assert code == 0
    assert out.startswith("order-service: v1 → draft\n")
    assert "schema.additional-properties-restricted" in out
    assert "suggested bump: major" in out
    assert "1 fixed" in out


def test_fail_on_thresholds(db: Path, capsys) -> None:
    args = ("--db", str(db), "diff", "order-service", "1", "draft", "--profile", "none")
    assert run(capsys, *args, "--fail-on", "breaking")[0] == 1
    assert run(capsys, *args, "--fail-on", "behavioural")[0] == 1
    assert run(capsys, *args, "--fail-on", "never")[0] == 0
    # Identical sides never meet a threshold.
    same = ("--db", str(db), "diff", "order-service", "1", "v1", "--fail-on", "behavioural")
    assert run(capsys, *same)[0] == 0


def test_json_and_markdown(db: Path, capsys) -> None:
    code, out, _ = run(capsys, "--db", str(db), "diff", "order-service", "1", "draft",
                       "--format", "json")  # fmt: skip
    doc = json.loads(out)
    assert code == 0 and doc["a"] == "v1" and doc["b"] == "draft"
    assert doc["counts"]["breaking"] == 1
    code, out, _ = run(capsys, "--db", str(db), "diff", "order-service", "draft", "1",
                       "--format", "md")  # fmt: skip
    assert code == 0 and out.startswith("# `order-service`: draft → v1")


def test_channel_side(db: Path, capsys) -> None:
    code, out, err = run(capsys, "--db", str(db), "diff", "order-service", "stable", "draft")
    assert code == 0, err
    assert out.startswith("order-service: stable (v1) → draft")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("order-service", "7", "draft"), "version"),
        (("order-service", "nightly", "draft"), "nightly"),
        (("no-such", "draft", "draft"), "no-such"),
        (("order-service", "1", "draft", "--confirm-rename", "oops"), "OLD=NEW"),
        (("order-service", "1", "draft", "--confirm-rename", "get_order=x"), "not removed"),
    ],
)
def test_bad_input_exits_2(db: Path, capsys, argv: tuple[str, ...], message: str) -> None:
    code, _out, err = run(capsys, "--db", str(db), "diff", *argv)
    assert code == 2
    assert message in err and err.count("\n") == 1
