"""The session list reads session rows and message counts in one query, never the messages.

Measured by the statements SQLite runs (``set_trace_callback``), not by time:
with 3,000 sessions the refresh is one SELECT that does not touch
``message_json``; sessions that grew are named stale and counted once.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest

from registry_db import RegistryStore
from registry_db.connection import utc_now, write_transaction
from registry_db.sessions import SessionStore
from studio.sessions.library import SOURCE_IMPORT, SOURCE_PLAYGROUND
from studio.sessions.model import message_to_dict
from studio.ui.sessions.session_list import count_sessions, list_rows
from tests.sessions.helpers import assistant, call, results, user

SESSIONS = 3000
PER_SESSION = 6


def _docs() -> list[str]:
    history = [
        user("Taxi invoices in November?"),
        assistant(call("call_1", "query_invoices", {"month": 11})),
        results(("call_1", "[]")),
        assistant(call("call_2", "search_policy", {"q": "taxi"})),  # never answered
        user("And the policy?"),
        assistant(text="80 per ride."),
    ]
    return [json.dumps(message_to_dict(m)) for m in history]


def _fill(store: RegistryStore, count: int) -> list[str]:
    """``count`` imported sessions of PER_SESSION messages with counts in meta, in one commit."""
    docs, now = _docs(), utc_now()
    meta = json.dumps({"problems": 1, "problems_at": PER_SESSION, "calls": 2, "model": "m"})
    ids = [uuid.uuid4().hex for _ in range(count)]
    conn = store.connection
    with store.lock, write_transaction(conn):
        conn.executemany(
            "INSERT INTO sessions (id, title, status, created_at, updated_at, source, meta_json)"
            " VALUES (?, ?, 'imported', ?, ?, ?, ?)",
            [(sid, f"session {i}", now, now, SOURCE_IMPORT, meta) for i, sid in enumerate(ids)],
        )
        conn.executemany(
            "INSERT INTO messages (session_id, idx, message_json, created_at) VALUES (?, ?, ?, ?)",
            [(sid, idx, doc, now) for sid in ids for idx, doc in enumerate(docs)],
        )
    return ids


@pytest.fixture
def store(tmp_path: Path):
    opened = RegistryStore.open(tmp_path / "studio.sqlite3")
    yield opened
    opened.close()


class Statements:
    """Every SQL statement run on a connection while active."""

    def __init__(self, store: RegistryStore) -> None:
        self.conn = store.connection
        self.seen: list[str] = []

    def __enter__(self) -> Statements:
        self.conn.set_trace_callback(self.seen.append)
        return self

    def __exit__(self, *exc: object) -> None:
        self.conn.set_trace_callback(None)

    @property
    def selects(self) -> list[str]:
        return [s for s in self.seen if s.lstrip().upper().startswith("SELECT")]


def test_thousands_of_sessions_list_in_one_query_reading_no_message(store):
    ids = _fill(store, SESSIONS)
    sessions = SessionStore.for_store(store)
    with Statements(store) as statements:
        listed = list_rows(sessions)
    assert len(statements.selects) == 1
    assert not any("message_json" in s for s in statements.seen)
    assert not any(s.lstrip().upper().startswith(("UPDATE", "INSERT")) for s in statements.seen)
    assert len(listed.rows) == SESSIONS and listed.stale == []
    row = next(r for r in listed.rows if r.id == ids[0])
    assert (row.messages, row.problems, row.calls, row.model) == (PER_SESSION, 1, 2, "m")
    assert listed.message_counts[ids[0]] == PER_SESSION
    # The query counts in the messages' (session_id, idx) index, never the table.
    (query,) = statements.selects
    plan = " ".join(str(r[-1]) for r in store.connection.execute("EXPLAIN QUERY PLAN " + query))
    assert "SEARCH m USING COVERING INDEX" in plan and "SCAN m" not in plan
    assert "tools_json" not in query and "context_json" not in query


def test_a_grown_session_is_stale_until_counted_once(store):
    sessions = SessionStore.for_store(store)
    info = sessions.create_session(title="running", source=SOURCE_PLAYGROUND)
    for doc in _docs()[:4]:
        sessions.append_message(info.id, json.loads(doc))
    listed = list_rows(sessions)
    assert listed.stale == [info.id]
    assert listed.rows[0].messages == 4
    counted = count_sessions(sessions, listed.stale)
    assert counted[info.id].problems == 1  # call_2 has no result
    assert counted[info.id].calls == 2
    again = list_rows(sessions)
    assert again.stale == [] and again.rows[0].problems == 1 and again.rows[0].calls == 2
    # One more message: stale again, the last counts still shown meanwhile.
    sessions.append_message(info.id, json.loads(_docs()[4]))
    grown = list_rows(sessions)
    assert grown.stale == [info.id] and grown.rows[0].problems == 1
    assert grown.message_counts[info.id] == listed.message_counts[info.id] + 1


def test_empty_and_deleted_sessions(store):
    sessions = SessionStore.for_store(store)
    empty = sessions.create_session(title="empty")
    assert list_rows(sessions).stale == []
    assert list_rows(sessions).rows[0].id == empty.id
    assert count_sessions(sessions, ["no-such-session"]) == {}


def test_filters_by_registry_and_source(store):
    _fill(store, 3)
    sessions = SessionStore.for_store(store)
    sessions.create_session(registry="travel", source=SOURCE_PLAYGROUND)
    assert len(list_rows(sessions, source=SOURCE_IMPORT).rows) == 3
    assert [r.registry for r in list_rows(sessions, registry="travel").rows] == ["travel"]


def test_change_marker_moves_with_messages_and_meta(store):
    sessions = SessionStore.for_store(store)
    first = sessions.change_marker()
    info = sessions.create_session(title="t")
    second = sessions.change_marker()
    assert second != first
    sessions.append_message(info.id, json.loads(_docs()[0]))
    third = sessions.change_marker()
    assert third[0] > second[0]
    with Statements(store) as statements:
        sessions.change_marker()
    assert not any("message_json" in s for s in statements.seen)
