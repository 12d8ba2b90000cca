"""Shared pieces of the runtime tests: the example registry, mocks, a scripted fake client."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any

from registry_db import load_examples
from studio.contract import Registry, RiskTier, ToolContract
from studio.providers.base import (
    ModelRequest,
    TextDelta,
    ToolCallDelta,
    ToolCallStarted,
    TurnCompleted,
    Usage,
)
from studio.runtime import MockExecutor, SessionContext, example_mocks, parse_mocks
from studio.runtime.results import SYSTEM_FAULT_MARKER, parse_result_content
from studio.sessions.model import Message, Role, TextPart, ToolCallPart

CONTEXT = SessionContext("employee", "reimbursement", {"employee_id": "E-1001"})

DELETE_TICKET = ToolContract(
    name="delete_reimbursement_ticket",
    summary="Delete a reimbursement ticket for good.",
    parameters={
        "type": "object",
        "properties": {"ticket_id": {"type": "string", "pattern": "^R-\\d{5}$"}},
        "required": ["ticket_id"],
        "additionalProperties": False,
    },
    risk=RiskTier.DESTRUCTIVE,
)


def travel_registry(*, with_destructive: bool = True) -> Registry:
    registry = next(r for r in load_examples() if r.name == "travel-reimbursement")
    if with_destructive:
        registry = replace(registry, tools=(*registry.tools, DELETE_TICKET))
    return registry


def travel_mocks() -> MockExecutor:
    document = example_mocks("travel-reimbursement")
    assert document is not None
    specs = dict(parse_mocks(document).tools)
    specs.update(
        parse_mocks(
            {"tools": {"delete_reimbursement_ticket": {"default": {"body": {"deleted": True}}}}}
        ).tools
    )
    return MockExecutor(specs)


def call(id_: str, name: str, arguments: str | dict[str, Any]) -> ToolCallPart:
    return ToolCallPart(id_, name, arguments)


class FakeClient:
    """A ModelClient that answers each request with the next scripted message.

    A script item is a Message, or a float (seconds to hang mid-stream, for
    cancellation tests). Requests are recorded.
    """

    def __init__(self, *script: Message | tuple[Message, float]) -> None:
        self.script = list(script)
        self.requests: list[ModelRequest] = []
        self.closed_streams = 0

    async def stream(self, request: ModelRequest) -> AsyncIterator[Any]:
        self.requests.append(request)
        item = self.script.pop(0)
        message, hang = item if isinstance(item, tuple) else (item, 0.0)
        try:
            if message.text:
                for piece in (
                    message.text[: len(message.text) // 2],
                    message.text[len(message.text) // 2 :],
                ):
                    yield TextDelta(piece)
            if hang:
                await asyncio.sleep(hang)
            for i, c in enumerate(message.tool_calls):
                yield ToolCallStarted(i, c.id, c.name)
                raw = c.arguments if isinstance(c.arguments, str) else json.dumps(c.arguments)
                for j in range(0, len(raw), 3):
                    yield ToolCallDelta(i, raw[j : j + 3])
            stop = "tool_calls" if message.tool_calls else "stop"
            yield TurnCompleted(message, stop, Usage(10, 5), {"model": "fake"})
        finally:
            self.closed_streams += 1

    async def aclose(self) -> None:
        return None


def assistant(*calls: ToolCallPart, text: str = "") -> Message:
    parts: list[Any] = [TextPart(text)] if text else []
    return Message(Role.ASSISTANT, (*parts, *calls))


def answer(text: str) -> Message:
    return Message(Role.ASSISTANT, (TextPart(text),))


def results_of(message: Message) -> dict[str, dict[str, Any]]:
    """Tool results by call id, parsed; a failure's content must start with the marker."""
    for r in message.tool_results:
        assert r.content.startswith(SYSTEM_FAULT_MARKER) == r.is_error, r.content
    return {r.id: parse_result_content(r.content) for r in message.tool_results}
