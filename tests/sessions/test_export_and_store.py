"""Exports with secrets redacted, and imported sessions in the session store."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from registry_db import open_default_store
from registry_db.sessions import SessionStore
from studio.sessions.exporters import export_document, export_jsonl, export_text
from studio.sessions.importers import import_sessions
from studio.sessions.library import (
    import_tools_as_draft,
    load_messages,
    save_imported,
    session_rows,
)
from studio.sessions.redact import REDACTED, redact_text
from tests.sessions.helpers import TICKET, assistant, call, results, system, user

FIXTURES = Path(__file__).parent / "fixtures"
KEY = "sk-proj-abcdefghijklmnopqrstuvwxyz012345"


@pytest.mark.parametrize(
    "text",
    [f"my key is {KEY}", "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload",
     "x-api-key: sk-ant-api03-abcdefghijklmnopqrstuvwx", "?api_key=abcdef123456&x=1"],
)  # fmt: skip
def test_api_key_like_strings_are_redacted(text: str) -> None:
    out = redact_text(text)
    assert REDACTED in out
    assert "abcdef" not in out and "eyJhbG" not in out


def history() -> list:
    return [
        system("You are the travel-reimbursement assistant."),
        user(f"use {KEY}"),
        assistant(call("c1", "create_reimbursement_ticket", {**TICKET, "token": "t0ps3cret"})),
        results(("c1", {"ok": True, "ticket": "R-55821", "auth": f"Bearer {KEY}"})),
        assistant(text="Filed R-55821."),
    ]


@pytest.mark.parametrize("fmt", ["openai", "anthropic", "jsonl"])
def test_export_redacts_and_reads_back(fmt: str) -> None:
    text = export_text(history(), fmt, tools=[{"name": "x", "input_schema": {}}])
    assert KEY not in text and "t0ps3cret" not in text and REDACTED in text
    (session,) = import_sessions(text).sessions
    expected = {"openai": "openai", "anthropic": "anthropic", "jsonl": "studio"}[fmt]
    assert session.source_format == expected
    calls = [c for m in session.messages for c in m.tool_calls]
    assert [c.id for c in calls] == ["c1"]
    assert session.messages[-1].text == "Filed R-55821."


def test_export_without_redaction_and_unknown_format() -> None:
    doc = export_document(history(), "openai", redact=False)
    assert KEY in json.dumps(doc)
    with pytest.raises(ValueError):
        export_document(history(), "yaml")
    assert export_jsonl([history(), history()]).count("\n") == 2


def test_imported_sessions_are_stored_listed_and_tools_become_a_draft(tmp_path: Path) -> None:
    store = open_default_store(tmp_path / "s.db", seed=False)
    sessions = SessionStore.for_store(store)
    outcome = import_sessions(FIXTURES / "openai_messy.json")
    (imported,) = outcome.sessions
    info = save_imported(sessions, imported, file="openai_messy.json")
    assert info.source == "import" and info.tools == []
    assert info.meta["format"] == "openai" and len(info.meta["warnings"]) == len(imported.warnings)
    assert load_messages(sessions, info.id) == imported.messages
    playground = sessions.create_session(registry="travel-reimbursement", title="pg")
    sessions.append_message(
        playground.id, {"role": "user", "parts": [{"type": "text", "text": "x"}]}
    )
    rows = session_rows(sessions)
    assert {r.source for r in rows} == {"import", "playground"}
    (row,) = session_rows(sessions, source="import")
    assert row.problems == info.meta["problems"] and row.messages == len(imported.messages)
    assert row.title == "File a ticket for INV-102"

    (chat,) = import_sessions(FIXTURES / "openai_chat.json").sessions
    _registry, replaced = import_tools_as_draft(store, chat.tools, "from-log")
    assert not replaced and [t.name for t in store.draft_registry("from-log").tools] == [
        "query_invoices", "create_reimbursement_ticket",
    ]  # fmt: skip
    assert import_tools_as_draft(store, chat.tools, "from-log")[1] is True
    store.close()
