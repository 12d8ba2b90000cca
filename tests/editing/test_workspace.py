"""The draft workspace against a real SQLite store."""

from __future__ import annotations

from pathlib import Path

import pytest

from registry_db import ConflictError, RegistryStore
from studio.contract import Registry, RiskTier, ToolContract
from studio.editing import (
    DraftWorkspace,
    EditTool,
    InsertTool,
    RemoveTool,
    SaveRefused,
    SetField,
)


@pytest.fixture
def store(tmp_path: Path) -> RegistryStore:
    store = RegistryStore.open(tmp_path / "studio.sqlite3")
    store.import_registry(
        Registry(
            "travel",
            tools=(
                ToolContract("search_policy", summary="Search policy clauses."),
                ToolContract("query_invoices", summary="List invoices."),
                ToolContract("query_tickets", summary="Find claim tickets."),
            ),
        )
    )
    yield store
    store.close()


def names(ws: DraftWorkspace) -> list[str]:
    return [e.tool.name for e in ws.entries]


def test_edit_save_reload(store: RegistryStore) -> None:
    ws = DraftWorkspace.load(store, "travel")
    assert not ws.is_dirty
    key = ws.entries[1].key
    inverse = ws.run(EditTool(key, SetField("summary", "List the employee's invoices.")))
    assert ws.is_dirty
    ws.run(inverse)
    assert not ws.is_dirty, "undoing back to the saved state is clean again"
    ws.run(EditTool(key, SetField("summary", "List the employee's invoices.")))
    ws.save(store)
    assert not ws.is_dirty
    again = DraftWorkspace.load(store, "travel")
    assert again.entries[1].tool.summary == "List the employee's invoices."


def test_events_bracket_inserts_and_removes(store: RegistryStore) -> None:
    ws = DraftWorkspace.load(store, "travel")
    seen: list[tuple[str, object]] = []
    for event in ("inserting", "inserted", "removing", "removed", "changed", "dirty"):
        ws.events.connect(event, lambda *a, e=event: seen.append((e, a[0] if a else None)))
    entry = ws.new_entry(ToolContract("query_invoices"))
    assert entry.tool.name == "query_invoices_2"
    undo_insert = ws.run(InsertTool(1, entry))
    ws.run(undo_insert)
    assert seen == [
        ("inserting", 1),
        ("inserted", 1),
        ("dirty", True),
        ("removing", 1),
        ("removed", 1),
        ("dirty", False),
    ]


def test_delete_and_undo_is_not_a_change(store: RegistryStore) -> None:
    ws = DraftWorkspace.load(store, "travel")
    undo = ws.run(RemoveTool(ws.entries[0].key))
    assert names(ws) == ["query_invoices", "query_tickets"] and ws.is_dirty
    ws.run(undo)
    assert names(ws) == ["search_policy", "query_invoices", "query_tickets"]
    assert not ws.is_dirty


def test_delete_insert_and_reorder_are_saved_in_one_go(store: RegistryStore) -> None:
    ws = DraftWorkspace.load(store, "travel")
    ws.run(RemoveTool(ws.entries[0].key))
    ticket = ToolContract("create_reimbursement_ticket", risk=RiskTier.WRITE)
    ws.run(InsertTool(0, ws.new_entry(ticket)))
    ws.save(store)
    assert [d.tool.name for d in store.draft_tools("travel")] == [
        "create_reimbursement_ticket",
        "query_invoices",
        "query_tickets",
    ]


def test_invalid_working_copy_is_refused_and_kept(store: RegistryStore) -> None:
    ws = DraftWorkspace.load(store, "travel")
    ws.run(EditTool(ws.entries[0].key, SetField("name", "query_invoices")))
    ws.run(EditTool(ws.entries[2].key, SetField("name", "bad name")))
    with pytest.raises(SaveRefused) as info:
        ws.save(store)
    messages = [str(p) for p in info.value.problems]
    assert any(
        m.startswith("tools[1].name: 'query_invoices' is also the name of tools[0]")
        for m in messages
    )
    assert any(m.startswith("tools[2].name: 'bad name' must match") for m in messages)
    assert names(ws) == ["query_invoices", "query_invoices", "bad name"], "nothing typed is lost"
    assert next(d.tool.name for d in store.draft_tools("travel")) == "search_policy"


def test_stale_save_from_a_second_window_is_a_conflict(store: RegistryStore) -> None:
    first = DraftWorkspace.load(store, "travel")
    second = DraftWorkspace.load(RegistryStore.open(store.path), "travel")
    first.run(EditTool(first.entries[1].key, SetField("summary", "from the first window")))
    first.save(store)
    second.run(EditTool(second.entries[1].key, SetField("summary", "from the second window")))
    with pytest.raises(ConflictError):
        second.save(store)
    assert store.draft_tools("travel")[1].tool.summary == "from the first window"
    assert second.is_dirty, "the losing edit stays in its window"


def test_read_only_workspace_refuses_commands(store: RegistryStore) -> None:
    ws = DraftWorkspace.from_registry(store.draft_registry("travel"), read_only_version=1)
    with pytest.raises(PermissionError):
        ws.run(RemoveTool(ws.entries[0].key))
