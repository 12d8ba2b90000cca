"""Issue 16: what ``sessions import`` stores and prints is pinned, so the import can be made faster
without changing a byte of it.

Every table row an import writes (``sessions`` and ``messages``, timestamps masked) and
every line it prints are digested and compared with the digest the import gave before
its speed work: a log of OpenAI sessions with writes, retries, a timeout, broken
arguments, a missing result, Chinese text and odd numbers, then the fixtures folder
(every format), a second import of both (all "already imported") and ``--replace``.

If you change what an import stores or prints on purpose, print the new digests
(``pytest tests/sessions/test_import_stored.py -s``) and update the constants below,
saying why in the commit.
"""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from studio.cli import main
from tests.sessions.helpers import stored_rows

FIXTURES = Path(__file__).parent / "fixtures"

STORED_DIGEST = "d05b8fb75e5419502ff247cdd17fbbbe9eea8f86f88e7fa6ac8ec8180e047a6d"
PRINTED_DIGEST = "4b46a331f3f1dd38c20b20bbc1dae3e82b2940933c2e522a0f3d5d8e7e20f7ea"

_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z")


def _call(call_id: str, name: str, arguments: str) -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


def _session(n: int) -> dict[str, Any]:
    """One conversation; ``n`` varies its length and which odd things it holds."""
    messages: list[dict[str, Any]] = [{"role": "system", "content": f"助手 {n}: travel desk"}]
    for i in range(3 + n % 4):
        a, b = f"call_{n}_{i}a", f"call_{n}_{i}b"
        args = json.dumps({"ticket": f"T-{i}", "amount": 12.5 * i, "note": "réunion 会议"})
        messages += [
            {"role": "user", "content": f"Question {i}: 报销 INV-{100 + i}? 1e-05 ok"},
            {"role": "assistant", "content": None, "tool_calls": [
                _call(a, "create_ticket" if i % 2 else "query_invoices", args),
                _call(b, "search_policy", '{"q": "taxi", "limit": 12345678901234567890}'),
            ]},
            {"role": "tool", "tool_call_id": a,
             "content": '{"status": "UNKNOWN"}' if (n + i) % 5 == 0 else '{"ok": true}'},
            {"role": "tool", "tool_call_id": b, "content": "clause 4.2: taxi limit 80"},
            {"role": "assistant", "content": f"Done {i} — 完成.", "refusal": None},
        ]  # fmt: skip
    if n % 2:  # the write of question 1 again: a duplicate, or a retry after a timeout
        again = json.dumps({"ticket": "T-1", "amount": 12.5, "note": "réunion 会议"})
        retry = _call(f"call_{n}_r", "create_ticket", again)
        messages += [
            {"role": "assistant", "content": None, "tool_calls": [retry]},
            {"role": "tool", "tool_call_id": f"call_{n}_r", "content": "created"},
        ]
    if n % 3 == 0:  # broken arguments and a call left unanswered
        broken = _call(f"call_{n}_x", "send_email", "{not json")
        messages.append({"role": "assistant", "content": None, "tool_calls": [broken]})
    return {"model": "gpt-4o", "messages": messages, "temperature": 0.0}


def _digest(lines: list[str]) -> str:
    return hashlib.sha256("\n".join(lines).encode("utf-8", "surrogatepass")).hexdigest()


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[str], list[str]]:
    tmp = tmp_path_factory.mktemp("stored")
    log = tmp / "log.jsonl"
    with log.open("w", encoding="utf-8") as f:
        for n in range(12):
            f.write(json.dumps(_session(n), ensure_ascii=n % 2 == 0) + "\n")
        f.write("{not a conversation\n")
    db = str(tmp / "s.sqlite3")
    printed: list[str] = []
    runs = (
        ("sessions", "import", str(log)),
        ("sessions", "import", str(FIXTURES)),
        ("sessions", "import", str(log)),
        ("sessions", "import", str(FIXTURES)),
        ("sessions", "import", str(FIXTURES / "openai_messy.json"), "--replace"),
    )
    import contextlib
    import io

    for argv in runs:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = main(["--db", db, *argv])
        printed.append(f"exit {code}")
        text = out.getvalue().replace(str(FIXTURES), "FIXTURES").replace(str(tmp), "TMP")
        printed += [_TIME.sub("T", line) for line in text.splitlines()]
    return stored_rows(Path(db)), printed


def test_an_import_stores_what_it_stored_before(imported: tuple[list[str], list[str]]) -> None:
    rows, _ = imported
    print("STORED_DIGEST =", _digest(rows))
    assert len(rows) > 300
    assert _digest(rows) == STORED_DIGEST


def test_an_import_prints_what_it_printed_before(imported: tuple[list[str], list[str]]) -> None:
    _, printed = imported
    print("PRINTED_DIGEST =", _digest(printed))
    assert any(line.startswith("already imported") for line in printed)
    assert any(line.startswith("replaced") for line in printed)
    assert _digest(printed) == PRINTED_DIGEST


def test_importing_a_log_of_reads_loads_no_runtime(tmp_path: Path) -> None:
    """The suspicious-write check imports the runtime's helpers only to sign a write."""
    import subprocess
    import sys

    log = tmp_path / "reads.jsonl"
    messages = [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": None, "tool_calls": [_call("c1", "get_invoice", "{}")]},
        {"role": "tool", "tool_call_id": "c1", "content": "ok"},
    ]
    log.write_text(json.dumps({"messages": messages}) + "\n", encoding="utf-8")
    code = (
        "import sys\nfrom studio.cli import main\ncode = main(sys.argv[1:])\n"
        "print(sorted(m for m in sys.modules if m.startswith('studio.runtime')))\n"
        "sys.exit(code)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, "--db", str(tmp_path / "s.sqlite3"), "sessions", "import",
         str(log)], capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_a_new_database_switches_to_wal_and_then_syncs_as_before(tmp_path: Path) -> None:
    """connect() skips the fsyncs of a new file's switch to WAL, and only those."""
    from registry_db.connection import connect

    default = sqlite3.connect(":memory:").execute("PRAGMA synchronous").fetchone()[0]
    for path in (tmp_path / "new.sqlite3", tmp_path / "empty.sqlite3"):
        if path.name.startswith("empty"):
            path.touch()
        conn = connect(path)
        try:
            assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
            assert conn.execute("PRAGMA synchronous").fetchone()[0] == default
            conn.execute("CREATE TABLE t (x)")
        finally:
            conn.close()
        conn = connect(path)  # existing now: the usual switch, the table still there
        try:
            assert conn.execute("SELECT count(*) FROM t").fetchone()[0] == 0
            assert conn.execute("PRAGMA synchronous").fetchone()[0] == default
        finally:
            conn.close()


def test_a_batch_keeps_the_imports_that_worked_and_a_failed_batch_keeps_none(
    tmp_path: Path,
) -> None:
    from registry_db import RegistryStore
    from registry_db.sessions import SessionStore

    message = {"role": "user", "parts": [{"type": "text", "text": "hi"}]}
    broken = {"role": "user", "parts": [{"type": "text", "text": "\ud800"}]}
    with RegistryStore.open(tmp_path / "s.sqlite3") as store:
        sessions = SessionStore.for_store(store)
        with sessions.batch():
            sessions.import_session("sha256:" + "a" * 64, [message])
            with pytest.raises(UnicodeEncodeError):
                sessions.import_session("sha256:" + "b" * 64, [message, broken])
            assert sessions.has_session("a" * 32) and not sessions.has_session("b" * 32)
            sessions.import_session("sha256:" + "c" * 64, [message])
        with pytest.raises(RuntimeError), sessions.batch():
            sessions.import_session("sha256:" + "d" * 64, [message])
            raise RuntimeError("interrupted")
        stored = [s for s in ("a", "b", "c", "d") if sessions.has_session(s * 32)]
        assert stored == ["a", "c"]
        assert [m["parts"][0]["text"] for m in sessions.messages("c" * 32)] == ["hi"]
        # Outside a batch, each import is its own transaction as before.
        sessions.import_session("sha256:" + "e" * 64, [message])
        assert not store.connection.in_transaction and sessions.has_session("e" * 32)


def test_batches_cut_short_print_and_store_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A batch per session (the time bound reached at once) changes no row and no line."""
    import contextlib
    import io

    from studio.cli import sessions as cli_sessions

    log = tmp_path / "log.jsonl"
    log.write_text("".join(json.dumps(_session(n)) + "\n" for n in range(5)), encoding="utf-8")
    lines = {}
    for bound in (0.0, 60.0):
        monkeypatch.setattr(cli_sessions, "_BATCH_SECONDS", bound)
        db = tmp_path / f"{bound}.sqlite3"
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert main(["--db", str(db), "sessions", "import", str(log)]) == 0
        lines[bound] = (out.getvalue(), stored_rows(db))
    assert lines[0.0] == lines[60.0] and lines[0.0][0].count("imported ") == 5
