"""Shared setup of the session browser tests: a real store with imported and playground sessions."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from registry_db import RegistryStore
from registry_db.sessions import SessionStore
from studio.runtime.events import ToolCallPrepared, ToolCallProposed
from studio.sessions.importers import import_sessions
from studio.sessions.library import save_imported
from studio.sessions.model import message_to_dict
from studio.ui.sessions.prompts import SessionPrompts
from tests.runtime.helpers import travel_registry
from tests.sessions.helpers import assistant, call, results, user

FIXTURES = Path(__file__).resolve().parents[1] / "sessions" / "fixtures"
NOV = {"start_date": "2026-11-01", "end_date": "2026-11-30"}

# A log with pairing problems: call_2 is never answered and call_1 is used twice.
PROBLEM_LOG = {
    "model": "gpt-4o",
    "messages": [
        {"role": "user", "content": "Taxi invoices in November, then file a ticket"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_1", "type": "function",
             "function": {"name": "query_invoices", "arguments": json.dumps(NOV)}},
            {"id": "call_2", "type": "function",
             "function": {"name": "search_policy", "arguments": '{"q": "taxi"}'}},
        ]},
        {"role": "tool", "tool_call_id": "call_1", "content": "[]"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_1", "type": "function",
             "function": {"name": "query_invoices", "arguments": json.dumps(NOV)}},
        ]},
        {"role": "tool", "tool_call_id": "call_1", "content": "[]"},
        {"role": "assistant", "content": "Nothing to file. My key is sk-abcdefghijklmnopqrstuvwx."},
    ],
}  # fmt: skip


class StubPrompts(SessionPrompts):
    """Answers every question with a preset value and records what was asked."""

    def __init__(self, log_file: Path | None = None, export_to: Path | None = None) -> None:
        self.log_file = log_file
        self.export_to = export_to
        self.replace_draft = True
        self.asked: list[str] = []

    def choose_log_file(self, parent):
        self.asked.append("log file")
        return self.log_file

    def export_path(self, parent, fmt, suggested):
        self.asked.append(f"export {fmt}")
        return self.export_to

    def confirm_replace_draft(self, parent, registry):
        self.asked.append(f"replace {registry}")
        return self.replace_draft

    def error(self, parent, title, text):
        self.asked.append(f"error {title}: {text}")


def make_store(path: Path) -> RegistryStore:
    store = RegistryStore.open(path)
    store.import_registry(travel_registry())
    return store


def import_file(store: RegistryStore, path: Path, **kwargs: str) -> list[str]:
    """Import every session of ``path`` as the browser does; their ids."""
    sessions = SessionStore.for_store(store)
    outcome = import_sessions(path)
    return [save_imported(sessions, s, file=path.name, **kwargs).id for s in outcome.sessions]


def write_problem_log(directory: Path) -> Path:
    path = directory / "problems.json"
    path.write_text(json.dumps(PROBLEM_LOG), encoding="utf-8")
    return path


def playground_session(store: RegistryStore) -> str:
    """A session as the playground stores it: travel draft, a context, prepared events."""
    sessions = SessionStore.for_store(store)
    info = sessions.create_session(
        registry="travel-reimbursement", version="draft", profile="scripted", title="playground",
        context={"role": "employee", "scenario": "reimbursement", "values": {"employee_id": "E-1"}},
    )  # fmt: skip
    history = [
        user("November taxi invoices"),
        assistant(call("p1", "query_invoices", NOV)),
        results(("p1", [{"id": "INV-102"}])),
        assistant(text="One invoice: INV-102."),
    ]
    for message in history:
        sessions.append_message(info.id, message_to_dict(message))
    events = [
        ToolCallProposed(seq=1, call_id="p1", name="query_invoices", arguments=NOV, turn=1),
        ToolCallPrepared(seq=2, call_id="p1", tool="query_invoices", ok=True,
                         arguments={**NOV, "employee_id": "E-1"}, steps=()),
    ]  # fmt: skip
    sessions.append_events(info.id, [(e.seq, "run-1", e.type, e.data()) for e in events])
    return info.id


def require_category(store: RegistryStore) -> None:
    """Make ``category`` of query_invoices required in the travel draft."""
    registry = store.draft_registry("travel-reimbursement")
    tools = []
    for tool in registry.tools:
        if tool.name == "query_invoices":
            params = dict(tool.parameters)
            params["required"] = [*params["required"], "category"]
            tool = dataclasses.replace(tool, parameters=params)
        tools.append(tool)
    store.import_registry(dataclasses.replace(registry, tools=tuple(tools)), replace_draft=True)


def duplicate_id_session(store: RegistryStore) -> str:
    """A stored (not imported: not repaired) session reusing call id ``c1``; ``c3`` unanswered."""
    sessions = SessionStore.for_store(store)
    info = sessions.create_session(registry="travel-reimbursement", version="draft",
                                   title="duplicate ids", source="replay")  # fmt: skip
    ticket = {"invoice_ids": ["INV-102"], "amount": 118.5, "reason": "taxi"}
    history = [
        user("file it"),
        assistant(call("c1", "create_reimbursement_ticket", ticket)),
        results(("c1", {"ticket": "R-1"})),
        assistant(
            call("c1", "create_reimbursement_ticket", ticket), call("c3", "query_invoices", NOV)
        ),
        results(("c1", {"ticket": "R-2"})),
        assistant(text="Filed twice."),
    ]
    for message in history:
        sessions.append_message(info.id, message_to_dict(message))
    return info.id
