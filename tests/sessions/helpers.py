"""Small builders for session tests (the travel-reimbursement example)."""

from __future__ import annotations

import json
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
