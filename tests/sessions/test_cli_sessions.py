"""``studio sessions import|list|check`` on real database files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.cli import main
from tests.sessions.helpers import TICKET

FIXTURES = Path(__file__).parent / "fixtures"
EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_import_list_and_check_a_stored_session(tmp_path: Path, capsys) -> None:
    db = str(tmp_path / "s.db")
    code, out, _ = run(capsys, "--db", db, "sessions", "import",
                       str(FIXTURES / "openai_chat.json"), "--registry", "from-log")  # fmt: skip
    assert code == 0 and "created registry from-log: 2 tools from the log" in out
    session_id = out.split("\t")[0].removeprefix("imported ")
    code, out, _ = run(
        capsys, "--db", db, "sessions", "import", str(FIXTURES / "openai_messy.json")
    )
    assert code == 1 and "warning:" in out and "error: openai_messy.json:1: $[5]" in out
    code, out, _ = run(capsys, "--db", db, "sessions", "list", "--source", "import")
    assert code == 0 and len(out.strip().splitlines()) == 2 and "gpt-4o" in out
    code, out, _ = run(capsys, "--db", db, "sessions", "check", session_id,
                       "--registry", "from-log", "--format", "json")  # fmt: skip
    assert code == 0
    report = json.loads(out)
    assert report["sessions"][0]["revalidation"]["counts"]["passes"] == 1


def test_check_a_file_with_problems_against_a_version(tmp_path: Path, capsys) -> None:
    db = str(tmp_path / "s.db")
    assert run(capsys, "--db", db, "import", str(EXAMPLES / "travel-reimbursement.json"))[0] == 0
    assert run(capsys, "--db", db, "publish", "travel-reimbursement")[0] == 0
    log = [
        {"role": "user", "content": "file it"},
        {"role": "assistant", "tool_calls": [
            {"id": "c1", "type": "function", "function": {
                "name": "create_reimbursement_ticket", "arguments": json.dumps(TICKET)}},
            {"id": "c2", "type": "function", "function": {
                "name": "create_reimbursement_ticket", "arguments": json.dumps(TICKET)}},
            {"id": "c3", "type": "function", "function": {"name": "gone", "arguments": "{"}},
        ]},
        {"role": "tool", "tool_call_id": "c1", "content": "{\"ok\": true}"},
    ]  # fmt: skip
    path = tmp_path / "log.json"
    path.write_text(json.dumps(log))
    code, out, _ = run(capsys, "--db", db, "sessions", "check", str(path),
                       "--registry", "travel-reimbursement", "--version", "1")  # fmt: skip
    assert code == 1
    assert "call-without-result" in out and "duplicate-write" in out and "tool-gone" in out
    assert "did not have response messages: c2, c3" in out  # the OpenAI error text
    assert "re-validation against travel-reimbursement 1:" in out


def test_unreadable_input_exits_2(tmp_path: Path, capsys) -> None:
    db = str(tmp_path / "s.db")
    bad = tmp_path / "bad.json"
    bad.write_text("{nope")
    code, _, err = run(capsys, "--db", db, "sessions", "check", str(bad))
    assert code == 2 and "nothing could be imported" in err and "bad.json:1" in err
    code, _, err = run(capsys, "--db", db, "sessions", "check", "no-such-session")
    assert code == 2 and "no such file or session" in err
    code, _, err = run(capsys, "--db", db, "sessions", "import", str(tmp_path / "missing.json"))
    assert code == 2
    code, out, _ = run(capsys, "--db", db, "sessions", "list")
    assert code == 0 and out.strip() == "no sessions"
