"""Draft tool rows: reading them, and applying edits with optimistic concurrency.

Every function here runs inside a transaction opened by the caller
(:class:`registry_db.store.RegistryStore`), so a refused change leaves nothing
behind: the checks all run before the first write, and any error raised
afterwards rolls the whole transaction back.
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from registry_db.documents import load_tool, tool_json
from registry_db.errors import ConflictError, DuplicateNameError
from registry_db.models import DeleteTool, DraftTool, UpsertTool
from studio.contract import ToolContract

_SELECT_TOOLS = """
    SELECT id, position, revision, document_json, content_hash, updated_at
    FROM draft_tools WHERE registry_id = ? ORDER BY position, id
"""


@dataclass(slots=True)
class _Row:
    name: str
    revision: int
    position: int


def read_draft_tools(conn: sqlite3.Connection, registry_id: int) -> list[DraftTool]:
    """The draft tools of a registry, in position order."""
    return [
        DraftTool(id_, position, revision, load_tool(doc), content_hash, updated_at)
        for id_, position, revision, doc, content_hash, updated_at in conn.execute(
            _SELECT_TOOLS, (registry_id,)
        )
    ]


def read_tool_texts(conn: sqlite3.Connection, registry_id: int) -> tuple[list[str], list[str]]:
    """Each draft tool's ordered and canonical JSON, in position order (no parsing)."""
    rows = conn.execute(
        "SELECT document_json, canonical_json FROM draft_tools WHERE registry_id = ?"
        " ORDER BY position, id",
        (registry_id,),
    ).fetchall()
    return [doc for doc, _ in rows], [canonical for _, canonical in rows]


def _check_base(rows: dict[int, _Row], tool_id: int, base: int | None, label: str) -> None:
    if base is None:
        raise ValueError(f"an edit of {label} (tool #{tool_id}) needs its base_revision")
    row = rows.get(tool_id)
    if row is None:
        raise ConflictError(label, stored_revision=None, base_revision=base, tool_id=tool_id)
    if row.revision != base:
        raise ConflictError(
            row.name, stored_revision=row.revision, base_revision=base, tool_id=tool_id
        )


def apply_changes(
    conn: sqlite3.Connection,
    registry_id: int,
    registry_name: str,
    changes: Sequence[UpsertTool | DeleteTool],
    now: str,
) -> list[DraftTool]:
    """Check and apply draft edits; all of them or (by raising) none.

    Args:
        conn: A connection inside a write transaction.
        registry_id: The registry being edited.
        registry_name: Its name, for messages.
        changes: Upserts and deletes, applied in order.
        now: Timestamp for the touched rows.

    Return:
        The upserted rows as stored, in the order of the upsert changes.

    Raises:
        ConflictError: a tool was changed or deleted since its base revision.
        DuplicateNameError: two tools would end up with the same name.
        ValueError: a tool is edited twice in one save, or an edit lacks its base revision.
    """
    fast = _apply_in_place(conn, registry_id, registry_name, changes, now)
    if fast is not None:
        return fast
    rows = {
        id_: _Row(name, revision, position)
        for id_, name, revision, position in conn.execute(
            "SELECT id, name, revision, position FROM draft_tools WHERE registry_id = ?",
            (registry_id,),
        )
    }
    # Work out the final order and names in memory; new tools get negative keys
    # until INSERT gives them an id.
    order = sorted(rows, key=lambda i: (rows[i].position, i))
    names = {id_: row.name for id_, row in rows.items()}
    touched: set[int] = set()
    deleted: list[int] = []
    upserts: list[tuple[int, ToolContract]] = []
    for change in changes:
        if isinstance(change, DeleteTool):
            key = change.tool_id
            _check_base(rows, key, change.base_revision, f"tool #{key}")
        elif change.tool_id is not None:
            key = change.tool_id
            _check_base(rows, key, change.base_revision, change.tool.name)
        else:
            key = -(len(upserts) + 1)
        if key in touched:
            raise ValueError(f"tool #{key} is changed twice in one save of {registry_name}")
        touched.add(key)
        if isinstance(change, DeleteTool):
            order.remove(key)
            del names[key]
            deleted.append(key)
            continue
        names[key] = change.tool.name
        upserts.append((key, change.tool))
        if change.position is not None or key < 0:
            if key > 0:
                order.remove(key)
            at = len(order) if change.position is None else max(0, min(change.position, len(order)))
            order.insert(at, key)
    duplicated = [name for name, count in Counter(names.values()).items() if count > 1]
    if duplicated:
        raise DuplicateNameError(registry_name, duplicated[0])

    if deleted:
        conn.executemany("DELETE FROM draft_tools WHERE id = ?", [(i,) for i in deleted])
    # Renames go through a temporary name so that swapping two names never
    # trips UNIQUE(registry_id, name) halfway through.
    renamed = [(key,) for key, tool in upserts if key > 0 and rows[key].name != tool.name]
    if renamed:
        conn.executemany("UPDATE draft_tools SET name = char(0) || id WHERE id = ?", renamed)
    position_of = {key: index for index, key in enumerate(order)}
    saved: dict[int, tuple[int, int, ToolContract, str]] = {}
    for key, tool in upserts:
        text, canonical, digest = tool_json(tool)
        if key > 0:
            revision = rows[key].revision + 1
            conn.execute(
                "UPDATE draft_tools SET name = ?, revision = ?, document_json = ?,"
                " canonical_json = ?, content_hash = ?, updated_at = ? WHERE id = ?",
                (tool.name, revision, text, canonical, digest, now, key),
            )
            saved[key] = (key, revision, tool, digest)
        else:
            cursor = conn.execute(
                "INSERT INTO draft_tools (registry_id, name, position, revision, document_json,"
                " canonical_json, content_hash, updated_at) VALUES (?, ?, ?, 1, ?, ?, ?, ?)",
                (registry_id, tool.name, position_of[key], text, canonical, digest, now),
            )
            saved[key] = (int(cursor.lastrowid or 0), 1, tool, digest)
    moved = [
        (index, key)
        for key, index in position_of.items()
        if key > 0 and rows[key].position != index
    ]
    if moved:
        conn.executemany("UPDATE draft_tools SET position = ? WHERE id = ?", moved)
    return [
        DraftTool(id_, position_of[key], revision, tool, digest, now)
        for key, (id_, revision, tool, digest) in saved.items()
    ]


def _apply_in_place(
    conn: sqlite3.Connection,
    registry_id: int,
    registry_name: str,
    changes: Sequence[UpsertTool | DeleteTool],
    now: str,
) -> list[DraftTool] | None:
    """Apply edits that move nothing, reading and writing only the rows they touch.

    The common save (edit some tools, add some at the end) then costs the same
    in a registry of 10 tools or 10,000: the touched rows are read by id, names
    are checked against the ``UNIQUE (registry_id, name)`` index, and the
    tool count comes from the position index. Returns None, having written
    nothing, when the save deletes or reorders tools or would duplicate a
    name: :func:`apply_changes` then does the full check and keeps positions
    dense with its in-memory order (same results, same errors).
    """
    upserts = [c for c in changes if isinstance(c, UpsertTool)]
    if len(upserts) != len(changes):
        return None
    ids = [c.tool_id for c in upserts if c.tool_id is not None]
    rows: dict[int, _Row] = {}
    for start in range(0, len(ids), 500):  # under SQLite's bound-parameter limit
        chunk = ids[start : start + 500]
        rows.update(
            (id_, _Row(name, revision, position))
            for id_, name, revision, position in conn.execute(
                "SELECT id, name, revision, position FROM draft_tools"
                f" WHERE registry_id = ? AND id IN ({', '.join('?' * len(chunk))})",
                (registry_id, *chunk),
            )
        )
    count = conn.execute(
        "SELECT coalesce(max(position) + 1, 0) FROM draft_tools WHERE registry_id = ?",
        (registry_id,),
    ).fetchone()[0]
    touched: set[int] = set()
    appended = 0
    for change in upserts:
        if change.tool_id is None:
            # A new tool stays in place only at the end of the list.
            if change.position is not None and change.position < count + appended:
                return None
            appended += 1
            continue
        key = change.tool_id
        _check_base(rows, key, change.base_revision, change.tool.name)
        if key in touched:
            raise ValueError(f"tool #{key} is changed twice in one save of {registry_name}")
        touched.add(key)
        if change.position is not None and change.position != rows[key].position:
            return None
    names = [c.tool.name for c in upserts]
    if len(set(names)) != len(names):
        return None
    unique_names = sorted(set(names))
    for start in range(0, len(unique_names), 500):
        some = unique_names[start : start + 500]
        holders = conn.execute(
            "SELECT id FROM draft_tools"
            f" WHERE registry_id = ? AND name IN ({', '.join('?' * len(some))})",
            (registry_id, *some),
        ).fetchall()
        if any(id_ not in touched for (id_,) in holders):
            return None
    changed_name = [(c.tool_id,) for c in upserts
                    if c.tool_id is not None and rows[c.tool_id].name != c.tool.name]  # fmt: skip
    if changed_name:
        # Through a temporary name, as in apply_changes (two tools may swap names).
        conn.executemany("UPDATE draft_tools SET name = char(0) || id WHERE id = ?", changed_name)
    saved: list[DraftTool] = []
    position = count
    for change in upserts:
        tool = change.tool
        text, canonical, digest = tool_json(tool)
        if change.tool_id is not None:
            row = rows[change.tool_id]
            conn.execute(
                "UPDATE draft_tools SET name = ?, revision = ?, document_json = ?,"
                " canonical_json = ?, content_hash = ?, updated_at = ? WHERE id = ?",
                (tool.name, row.revision + 1, text, canonical, digest, now, change.tool_id),
            )
            saved.append(
                DraftTool(change.tool_id, row.position, row.revision + 1, tool, digest, now)
            )
        else:
            cursor = conn.execute(
                "INSERT INTO draft_tools (registry_id, name, position, revision, document_json,"
                " canonical_json, content_hash, updated_at) VALUES (?, ?, ?, 1, ?, ?, ?, ?)",
                (registry_id, tool.name, position, text, canonical, digest, now),
            )
            saved.append(DraftTool(int(cursor.lastrowid or 0), position, 1, tool, digest, now))
            position += 1
    return saved


def replace_tools(
    conn: sqlite3.Connection,
    registry_id: int,
    registry_name: str,
    tools: Sequence[ToolContract],
    now: str,
) -> None:
    """Make the draft exactly ``tools``, in that order, inside the caller's transaction.

    Tools are matched to existing rows by name, so a tool that did not change
    keeps its id and revision, and only changed tools conflict with other editors.

    Raises:
        DuplicateNameError: ``tools`` has two tools with one name.
    """
    duplicated = [name for name, count in Counter(t.name for t in tools).items() if count > 1]
    if duplicated:
        raise DuplicateNameError(registry_name, duplicated[0])
    existing = {
        name: (id_, revision, position, content_hash)
        for id_, name, revision, position, content_hash in conn.execute(
            "SELECT id, name, revision, position, content_hash FROM draft_tools"
            " WHERE registry_id = ?",
            (registry_id,),
        )
    }
    wanted = {t.name for t in tools}
    gone = [(row[0],) for name, row in existing.items() if name not in wanted]
    if gone:
        conn.executemany("DELETE FROM draft_tools WHERE id = ?", gone)
    for index, tool in enumerate(tools):
        text, canonical, digest = tool_json(tool)
        row = existing.get(tool.name)
        if row is None:
            conn.execute(
                "INSERT INTO draft_tools (registry_id, name, position, revision, document_json,"
                " canonical_json, content_hash, updated_at) VALUES (?, ?, ?, 1, ?, ?, ?, ?)",
                (registry_id, tool.name, index, text, canonical, digest, now),
            )
        elif row[3] != digest:
            conn.execute(
                "UPDATE draft_tools SET position = ?, revision = ?, document_json = ?,"
                " canonical_json = ?, content_hash = ?, updated_at = ? WHERE id = ?",
                (index, row[1] + 1, text, canonical, digest, now, row[0]),
            )
        elif row[2] != index:
            conn.execute("UPDATE draft_tools SET position = ? WHERE id = ?", (index, row[0]))
