"""``studio lint``: registries in the database, files, formats and exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.cli import main
from tests.lint._fixtures import EXAMPLES


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "lint.sqlite3"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_lint_file_text_fails_on_errors(capsys) -> None:
    code, out, _ = run(capsys, "lint", str(EXAMPLES / "order-service.json"))
    assert code == 1
    assert out.splitlines()[0].startswith("error ")
    assert "order-service [openai]: " in out.splitlines()[-1]


def test_fail_on_levels(capsys) -> None:
    travel = str(EXAMPLES / "travel-reimbursement.json")
    assert run(capsys, "lint", travel)[0] == 0
    assert run(capsys, "lint", travel, "--fail-on", "warning")[0] == 0
    order = str(EXAMPLES / "order-service.json")
    assert run(capsys, "lint", order, "--fail-on", "never")[0] == 0
    assert run(capsys, "lint", order, "--fail-on", "warning")[0] == 1


def test_lint_registry_in_database_draft_and_version(db: Path, capsys) -> None:
    src = str(EXAMPLES / "order-service.json")
    assert run(capsys, "--db", str(db), "import", src)[0] == 0
    assert run(capsys, "--db", str(db), "publish", "order-service")[0] == 0
    code, out, _ = run(capsys, "--db", str(db), "lint", "order-service", "--format", "json")
    assert code == 1 and json.loads(out)["registry"] == "order-service"
    code, out, _ = run(
        capsys, "lint", "order-service", "--db", str(db), "--version", "1", "--format", "sarif"
    )
    log = json.loads(out)
    assert code == 1 and log["version"] == "2.1.0" and log["runs"][0]["results"]


def test_profile_option(capsys) -> None:
    travel = str(EXAMPLES / "travel-reimbursement.json")
    code, out, _ = run(capsys, "lint", travel, "--profile", "anthropic", "--format", "json")
    assert code == 0 and json.loads(out)["profile"] == "anthropic"


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["lint", "no-such-registry"], "no-such-registry"),
        (["lint", "missing/file.json"], "no such file"),
        (["lint", "order-service", "--version", "x"], "--version"),
    ],
)
def test_bad_input_exits_2_with_one_line(db: Path, capsys, argv, needle: str) -> None:
    run(capsys, "--db", str(db), "import", str(EXAMPLES / "order-service.json"))
    code, _, err = run(capsys, "--db", str(db), *argv)
    assert code == 2 and needle in err and err.count("\n") == 1


def test_bad_file_exits_2(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", "utf-8")
    code, _, err = run(capsys, "lint", str(bad))
    assert code == 2 and err.startswith("studio: ") and err.count("\n") == 1
    code, _, err = run(capsys, "lint", str(EXAMPLES / "order-service.json"), "--version", "2")
    assert code == 2 and "--version" in err


def test_a_file_is_linted_without_opening_the_database(tmp_path: Path, capsys) -> None:
    not_a_db = tmp_path / "folder.sqlite3"
    not_a_db.mkdir()  # opening it would fail with exit code 2
    travel = str(EXAMPLES / "travel-reimbursement.json")
    code, out, _ = run(capsys, "--db", str(not_a_db), "lint", travel)
    assert code == 0 and "travel-reimbursement [openai]" in out
    assert run(capsys, "--db", str(not_a_db), "lint", "travel-reimbursement")[0] == 2


def test_a_file_lint_imports_no_database_and_no_tokenizer_when_counts_are_cached(
    tmp_path: Path,
) -> None:
    """Whole process: the second lint of the same file reads its token counts from the cache."""
    import os
    import subprocess
    import sys

    pytest.importorskip("bpe_openai")
    env = {**os.environ, "STUDIO_TOKEN_CACHE": str(tmp_path / "tokens.sqlite3")}
    probe = (
        "import sys\n"
        "from studio.cli import main\n"
        "code = main(sys.argv[1:])\n"
        "heavy = sorted(m for m in ('registry_db', 'sqlite_utils', 'bpe_openai', 'PySide6')"
        " if m in sys.modules)\n"
        "print('HEAVY', heavy, file=sys.stderr)\n"
        "raise SystemExit(code)\n"
    )
    argv = [sys.executable, "-c", probe, "lint", str(EXAMPLES / "order-service.json")]
    argv += ["--format", "json", "--fail-on", "never"]
    first = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=120)
    second = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=120)
    assert first.returncode == second.returncode == 0, first.stderr + second.stderr
    assert "HEAVY ['bpe_openai']" in first.stderr  # counted once, with the tokenizer
    assert "HEAVY []" in second.stderr
    assert json.loads(first.stdout) == json.loads(second.stdout)
    assert json.loads(second.stdout)["tokens"]["method"] == "o200k_base"


@pytest.mark.parametrize(
    "doc",
    [
        {"a": [1, 0.5, -0.0, 123.4, '订单\n"q"', None, True, [], {}], "b": {"c": []}},
        {"tiny": 1e-05, "huge": 1e16},  # repr's exponents: the json module writes these
        {"nan": float("nan"), "inf": float("inf")},
        {1: "an int key"},
    ],
)
def test_json_output_is_the_json_module_bytes(capsys, doc: dict) -> None:
    """The fast writer gives exactly ``json.dumps(doc, ensure_ascii=False, indent=2)``."""
    from studio.cli.lint import _write_json

    _write_json(doc, json)
    out, _ = capsys.readouterr()
    assert out == json.dumps(doc, ensure_ascii=False, indent=2) + "\n"


def test_what_orjson_refuses_goes_to_the_json_module() -> None:
    from studio.cli.lint import _orjson_bytes

    assert _orjson_bytes({"surrogate": "\ud800"}) is None
    assert _orjson_bytes({"big": 2**70}) is None
    assert _orjson_bytes({"ok": "订单"}) == '{\n  "ok": "订单"\n}\n'.encode()


def test_the_json_report_is_the_json_module_bytes(capsys) -> None:
    code, out, _ = run(capsys, "lint", str(EXAMPLES / "order-service.json"), "--format", "json")
    assert code == 1
    assert out == json.dumps(json.loads(out), ensure_ascii=False, indent=2) + "\n"
