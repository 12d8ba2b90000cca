"""Saving one tool costs the same in a registry of 10 tools or 10,000.

The cost is asserted as work, not time (timings belong in
benchmarks/registry_scale.py): the SQL statements a save runs and the rows it
changes do not depend on the registry's size. Saves that move or delete tools
keep their full check; the cases here pin that the quick path and the full
path agree.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest

from registry_db import DuplicateNameError, RegistryStore, UpsertTool
from studio.contract import ToolContract
from studio.editing import DraftWorkspace, EditTool, SetField

MakeTool = Callable[..., ToolContract]


@contextmanager
def recorded(conn: sqlite3.Connection) -> Iterator[list[str]]:
    """The SQL statements run on ``conn`` inside the block, plus a final changes count."""
    statements: list[str] = []
    before = conn.total_changes
    conn.set_trace_callback(statements.append)
    try:
        yield statements
    finally:
        conn.set_trace_callback(None)
        statements.append(f"-- changes: {conn.total_changes - before}")


def _fill(store: RegistryStore, name: str, size: int, make_tool: MakeTool) -> None:
    store.create_registry(name)
    store.save_draft(name, [UpsertTool(make_tool(f"tool_{i:05d}")) for i in range(size)])


def _shape(statements: list[str]) -> list[str]:
    """Statements with their literals stripped (ids and timestamps differ between registries)."""
    return [re.sub(r"\d+", "N", re.sub(r"'(?:[^']|'')*'", "?", s)) for s in statements]


def test_saving_one_tool_does_the_same_work_at_10_and_10000_tools(
    store: RegistryStore, make_tool: MakeTool
):
    _fill(store, "small", 10, make_tool)
    _fill(store, "large", 10_000, make_tool)
    work = {}
    for name, size in (("small", 10), ("large", 10_000)):
        ws = DraftWorkspace.load(store, name)
        entry = ws.entries[size // 2]
        ws.run(EditTool(entry.key, SetField("summary", "Edited once.")))
        with recorded(store.connection) as statements:
            ws.save(store)
        work[name] = statements
        assert not ws.is_dirty
        assert store.draft_tools(name)[size // 2].tool.summary == "Edited once."
    assert _shape(work["small"]) == _shape(work["large"])
    # The tool's row and the registry's revision counter: nothing else changes.
    assert work["large"][-1] == "-- changes: 2"
    assert not any("SELECT" in s and "IN (" not in s and "max(position)" not in s
                   and "registries" not in s for s in work["large"])  # fmt: skip


def test_a_second_save_and_a_rename_stay_quick_and_correct(
    store: RegistryStore, make_tool: MakeTool
):
    _fill(store, "reg", 50, make_tool)
    ws = DraftWorkspace.load(store, "reg")
    first, second = ws.entries[3], ws.entries[7]
    ws.run(EditTool(first.key, SetField("name", "renamed_tool")))
    ws.save(store)
    ws.run(EditTool(second.key, SetField("name", "tool_00003")))  # the name first gave up
    with recorded(store.connection) as statements:
        ws.save(store)
    assert statements[-1] == "-- changes: 3"  # temporary name, the row, the counter
    names = [d.tool.name for d in store.draft_tools("reg")]
    assert names[3] == "renamed_tool" and names[7] == "tool_00003"
    assert [d.position for d in store.draft_tools("reg")] == list(range(50))


def test_a_taken_name_is_refused_as_before(store: RegistryStore, make_tool: MakeTool):
    _fill(store, "reg", 20, make_tool)
    ws = DraftWorkspace.load(store, "reg")
    ws.run(EditTool(ws.entries[2].key, SetField("name", "tool_00009")))
    problems = ws.problems()
    assert [str(p) for p in problems] == [
        "tools[9].name: 'tool_00009' is also the name of tools[2]"
    ]
    drafts = store.draft_tools("reg")
    with pytest.raises(DuplicateNameError):
        store.save_draft(
            "reg", [UpsertTool(make_tool("tool_00009"), drafts[2].id, drafts[2].revision)]
        )
    assert [d.tool.name for d in store.draft_tools("reg")][2] == "tool_00002"


def test_appends_and_moves_keep_positions_dense(store: RegistryStore, make_tool: MakeTool):
    _fill(store, "reg", 5, make_tool)
    store.save_draft("reg", [UpsertTool(make_tool("appended"), position=99)])
    drafts = store.draft_tools("reg")
    assert [d.tool.name for d in drafts][-1] == "appended"
    moved = drafts[4]
    store.save_draft("reg", [UpsertTool(moved.tool, moved.id, moved.revision, position=0)])
    store.save_draft("reg", [UpsertTool(make_tool("inserted"), position=1)])
    drafts = store.draft_tools("reg")
    assert [d.tool.name for d in drafts] == [
        "tool_00004", "inserted", "tool_00000", "tool_00001", "tool_00002", "tool_00003",
        "appended",
    ]  # fmt: skip
    assert [d.position for d in drafts] == list(range(7))
