"""The headless ``studio`` command, on real database files."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from registry_db import RegistryStore, default_db_path
from studio.cli import main

EXAMPLES = Path(__file__).resolve().parents[1] / "resources" / "examples"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "cli.sqlite3"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_import_export_publish_versions(db: Path, tmp_path: Path, capsys) -> None:
    src = EXAMPLES / "travel-reimbursement.json"
    code, out, _ = run(capsys, "--db", str(db), "import", str(src))
    assert code == 0 and "imported travel-reimbursement: 4 tools" in out

    code, out, _ = run(capsys, "registries", "--db", str(db))
    assert code == 0 and out.startswith("travel-reimbursement\t4 tools\tunpublished")

    code, out, _ = run(
        capsys,
        "--db",
        str(db),
        "publish",
        "travel-reimbursement",
        "--notes",
        "first",
        "--semver",
        "1.0.0",
        "--author",
        "ana",
    )
    assert code == 0 and "version 1 (1.0.0) sha256:" in out
    with RegistryStore.open(db) as store:
        assert store.list_versions("travel-reimbursement")[0].author == "ana"

    code, out, _ = run(capsys, "--db", str(db), "versions", "travel-reimbursement")
    assert code == 0 and out.startswith("1\t1.0.0\t")

    code, out, err = run(
        capsys,
        "--db",
        str(db),
        "export",
        "travel-reimbursement",
        "--version",
        "1",
        "--format",
        "openai",
    )
    tools = json.loads(out)
    assert [t["function"]["name"] for t in tools] == [
        "search_policy",
        "query_invoices",
        "query_tickets",
        "create_reimbursement_ticket",
    ]
    assert "employee_id" not in json.dumps(tools), "injected fields never reach the model"
    assert "x-aliases" not in json.dumps(tools)
    assert "note:" in err


def test_dir_round_trip_keeps_the_hash(db: Path, tmp_path: Path, capsys) -> None:
    run(capsys, "--db", str(db), "import", str(EXAMPLES / "order-service.json"))
    out_dir = tmp_path / "as-code"
    code, _, _ = run(
        capsys, "--db", str(db), "export", "order-service", "--format", "dir", "--out", str(out_dir)
    )
    assert code == 0 and (out_dir / "tools" / "get_order.json").is_file()
    code, _out, _ = run(capsys, "--db", str(db), "import", str(out_dir), "--registry", "order-copy")
    assert code == 0
    with RegistryStore.open(db) as store:
        a = store.publish("order-service")
        b = store.publish("order-copy")
    assert a.content_hash != "" and a.tool_count == b.tool_count == 10
    # Same tools, same settings; only the registry name differs.
    with RegistryStore.open(db) as store:
        first = store.load_version("order-service", 1).registry
        second = store.load_version("order-copy", 1).registry
    assert first.tools == second.tools


def test_existing_registry_is_refused_unless_replace_draft(db: Path, capsys) -> None:
    src = str(EXAMPLES / "travel-reimbursement.json")
    run(capsys, "--db", str(db), "import", src)
    run(capsys, "--db", str(db), "publish", "travel-reimbursement")
    code, _, err = run(capsys, "--db", str(db), "import", src)
    assert code == 2
    assert "already exists; pass --replace-draft" in err and err.count("\n") == 1
    code, out, _ = run(capsys, "--db", str(db), "import", src, "--replace-draft")
    assert code == 0 and "replaced the draft of travel-reimbursement" in out
    code, out, _ = run(capsys, "--db", str(db), "versions", "travel-reimbursement")
    assert out.startswith("1\t"), "published versions are never touched"


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        ('{"name": "x", "tools": [', "line 1 column"),
        (
            '{"format": "tool-registry-studio/registry@1", "name": "x", "tools": '
            '[{"name": "a"}, {"name": "b"}, {"name": "c", "parameters": '
            '{"type": "object", "properties": {"start_date": {"type": "date"}}}}]}',
            "tools[2].parameters.properties.start_date.type: 'date' is not a JSON Schema type",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    db: Path, tmp_path: Path, capsys, content: str, fragment: str
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(content, encoding="utf-8")
    code, _, err = run(capsys, "--db", str(db), "import", str(bad))
    assert code == 2
    assert fragment in err
    assert err.startswith("studio: ") and "Traceback" not in err


@pytest.mark.parametrize(
    "argv",
    [
        ["versions", "nope"],
        ["export", "nope", "--format", "openai"],
        ["publish", "nope"],
        ["import", "/no/such/file.json"],
    ],
)
def test_unknown_things_exit_2(db: Path, capsys, argv: list[str]) -> None:
    code, _, err = run(capsys, "--db", str(db), *argv)
    assert code == 2 and err.startswith("studio: ") and err.count("\n") == 1


def test_bad_version_argument(db: Path, capsys) -> None:
    run(capsys, "--db", str(db), "import", str(EXAMPLES / "travel-reimbursement.json"))
    code, _, err = run(
        capsys,
        "--db",
        str(db),
        "export",
        "travel-reimbursement",
        "--version",
        "latest",
        "--format",
        "openai",
    )
    assert code == 2 and "--version must be a number or 'draft'" in err


def test_named_database_starts_empty_default_is_seeded(db: Path, capsys) -> None:
    code, out, _ = run(capsys, "--db", str(db), "registries")
    assert code == 0 and out == "no registries\n"
    code, out, _ = run(capsys, "registries")
    assert code == 0
    assert "travel-reimbursement\t4 tools" in out and "order-service\t10 tools" in out
    assert default_db_path().is_file()


def test_installed_console_script_finds_its_resources(tmp_path: Path) -> None:
    """The installed ``studio`` (not this source tree) seeds the examples it ships."""
    script = shutil.which("studio", path=str(Path(sys.executable).parent))
    if script is None:
        pytest.skip("the studio console script is not installed in this environment")
    result = subprocess.run(
        [script, "registries"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={
            "HOME": str(tmp_path),
            "XDG_DATA_HOME": str(tmp_path / "data"),
            "PATH": "/usr/bin:/bin",
        },
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "travel-reimbursement" in result.stdout and "order-service" in result.stdout
