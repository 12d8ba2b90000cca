"""Small builders for session tests (the travel-reimbursement example)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from studio.sessions.model import Message, Role, TextPart, ToolCallPart, ToolResultPart


def user(text: str) -> Message:
    return Message(Role.USER, (TextPart(text),))


def system(text: str) -> Message:
    return Message(Role.SYSTEM, (TextPart(text),))


def assistant(*calls: ToolCallPart, text: str = "") -> Message:
    return Message(Role.ASSISTANT, ((TextPart(text),) if text else ()) + calls)


def call(id_: str, name: str, args: str | dict[str, Any]) -> ToolCallPart:
    return ToolCallPart(id_, name, args)


def results(*pairs: tuple[str, Any], error: bool = False) -> Message:
    return Message(
        Role.TOOL,
        tuple(
            ToolResultPart(i, c if isinstance(c, str) else json.dumps(c), error) for i, c in pairs
        ),
    )


TICKET = {"invoice_ids": ["INV-102"], "amount": 118.5, "reason": "taxi to the airport"}


def stored_rows(db: Path) -> list[str]:
    """Every stored session and message row of ``db`` as a line, in insertion order,
    without the timestamps (two imports of the same log compare equal)."""
    conn = sqlite3.connect(db)
    out = []
    try:
        for table in ("sessions", "messages"):
            columns = [r[1] for r in conn.execute(f"PRAGMA table_info({table})")]
            for row in conn.execute(f"SELECT * FROM {table} ORDER BY rowid"):
                values = dict(zip(columns, row, strict=True))
                values.pop("created_at", None)
                values.pop("updated_at", None)
                out.append(table + " " + json.dumps(values, ensure_ascii=False, sort_keys=True))
    finally:
        conn.close()
    return out
