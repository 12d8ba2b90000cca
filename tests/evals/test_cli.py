"""``studio eval``: sets, show, import, export (byte for byte) and discover."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"
CORE = EXAMPLES / "evals" / "travel-reimbursement" / "core.jsonl"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def db(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    path = str(tmp_path / "cli.sqlite3")
    code, _, _ = run(capsys, "--db", path, "import", str(EXAMPLES / "travel-reimbursement.json"))
    assert code == 0
    return path


def test_import_show_export_round_trip(db: str, tmp_path: Path, capsys) -> None:
    code, out, _ = run(capsys, "--db", db, "eval", "import", "travel-reimbursement", str(CORE))
    assert code == 0 and out.startswith("imported travel-reimbursement/core: ")
    code, out, _ = run(capsys, "--db", db, "eval", "sets", "travel-reimbursement")
    assert code == 0 and out.startswith("core\t67 cases\trevision 1")
    code, out, _ = run(capsys, "--db", db, "eval", "show", "travel-reimbursement", "core")
    assert (
        "tickets-where-zh\tquery_tickets  (not create_reimbursement_ticket, query_invoices)" in out
    )
    code, out, _ = run(
        capsys,
        "--db",
        db,
        "eval",
        "show",
        "travel-reimbursement",
        "core",
        "--case",
        "no-tool-thanks-en",
    )
    assert json.loads(out)["expect"] == {"kind": "no_tool"}

    folder = tmp_path / "reg"
    code, out, _ = run(
        capsys, "--db", db, "eval", "export", "travel-reimbursement", "--out", str(folder)
    )
    assert code == 0 and (folder / "evals" / "core.jsonl").read_bytes() == CORE.read_bytes()

    # Importing the folder again needs --replace, then stores the same bytes.
    code, _, err = run(capsys, "--db", db, "eval", "import", "travel-reimbursement", str(folder))
    assert code == 2 and "--replace" in err
    code, _, _ = run(
        capsys, "--db", db, "eval", "import", "travel-reimbursement", str(folder), "--replace"
    )
    assert code == 0
    code, out, _ = run(
        capsys, "--db", db, "eval", "export", "travel-reimbursement", "--out", "-", "--set", "core"
    )
    assert out.encode() == CORE.read_bytes()


def test_a_bad_file_names_line_and_path_and_stores_nothing(db: str, tmp_path: Path, capsys) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(
        '{"id": "a", "user": "x", "expect": {"kind": "tool", "calls": [{"tool": 3}]}}\n', "utf-8"
    )
    code, _, err = run(capsys, "--db", db, "eval", "import", "travel-reimbursement", str(bad))
    assert code == 2
    assert f"{bad}: line 1: expect.calls[0].tool: must name the expected tool" in err
    code, out, _ = run(capsys, "--db", db, "eval", "sets", "travel-reimbursement")
    assert out == ""


def test_discover_reports_recall_and_gates_ci(db: str, capsys) -> None:
    run(capsys, "--db", db, "eval", "import", "travel-reimbursement", str(CORE))
    code, out, _ = run(capsys, "--db", db, "eval", "discover", "travel-reimbursement")
    assert code == 0
    assert out.splitlines()[0] == "tool\tcases\trecall@3\trecall@5\tmean rank (found)"
    assert any(line.startswith("search_policy\t16\t") for line in out.splitlines())
    code, out, _ = run(capsys, "--db", db, "eval", "discover", "travel-reimbursement", "--json")
    report = json.loads(out)
    assert {t["tool"] for t in report["tools"]} == {
        "search_policy",
        "query_invoices",
        "query_tickets",
        "create_reimbursement_ticket",
    }
    code, _, _ = run(
        capsys, "--db", db, "eval", "discover", "travel-reimbursement", "--fail-under", "0.99"
    )
    assert code == 1


def test_import_warns_about_what_the_registry_lacks(db: str, tmp_path: Path, capsys) -> None:
    text = (
        '{"id": "a", "user": "x", "expect": {"kind": "tool", "calls": [{"tool": "query_invoices",'
        ' "args": {"categroy": {"equals": "taxi"}, "employee_id": {"equals": "E-1"}}}]},'
        ' "must_not": ["delete_everything"]}\n'
    )
    path = tmp_path / "typos.jsonl"
    path.write_text(text, "utf-8")
    code, out, err = run(capsys, "--db", db, "eval", "import", "travel-reimbursement", str(path))
    assert code == 0 and "imported travel-reimbursement/typos: 1 cases" in out
    assert f"warning: {path}: line 1: must_not[0]: no tool delete_everything" in err
    assert "line 1: expect.calls[0].args.categroy: query_invoices has no parameter categroy" in err
    assert "args.employee_id: employee_id is injected from the session; only absent applies" in err


def test_a_registry_folder_carries_its_eval_sets(db: str, tmp_path: Path, capsys) -> None:
    run(capsys, "--db", db, "eval", "import", "travel-reimbursement", str(CORE))
    folder = tmp_path / "reg"
    code, _, err = run(
        capsys,
        "--db",
        db,
        "export",
        "travel-reimbursement",
        "--format",
        "dir",
        "--out",
        str(folder),
    )
    assert code == 0 and "wrote 1 eval set(s)" in err
    assert (folder / "evals" / "core.jsonl").read_bytes() == CORE.read_bytes()

    other = str(tmp_path / "other.sqlite3")
    code, out, _ = run(capsys, "--db", other, "import", str(folder), "--registry", "copy")
    assert code == 0 and "imported eval set core: 67 cases" in out
    code, out, _ = run(
        capsys, "--db", other, "eval", "export", "copy", "--out", "-", "--set", "core"
    )
    assert out.encode() == CORE.read_bytes()

    # A broken set stops the import before anything is stored.
    (folder / "evals" / "bad.jsonl").write_text('{"id": "x"}\n', "utf-8")
    code, _, err = run(capsys, "--db", other, "import", str(folder), "--registry", "third")
    assert code == 2 and "evals/bad.jsonl: line 1: user: is required" in err
    code, out, _ = run(capsys, "--db", other, "registries")
    assert "third" not in out
