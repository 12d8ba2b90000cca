"""The provider interface the runtime drives (DESIGN §5, §6).

A provider client turns a :class:`ModelRequest` (internal messages + tool
specs) into the vendor's wire format, streams the answer, and yields
:class:`StreamEvent` objects ending with exactly one :class:`TurnCompleted`
carrying the assembled assistant :class:`Message`. Tool calls are complete
(arguments fully assembled) only in ``TurnCompleted``; the deltas are for the
UI.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

from studio.sessions.model import Message


class ProviderKind(StrEnum):
    OPENAI_CHAT = "openai-chat"
    ANTHROPIC_MESSAGES = "anthropic-messages"


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """A tool as the model sees it (already exported: no ``x-`` keys, no injected fields)."""

    name: str
    description: str
    parameters: dict[str, Any]


@dataclass(frozen=True, slots=True)
class ModelParams:
    """Sampling and tool-use parameters of one request."""

    temperature: float | None = None
    max_tokens: int | None = 1024
    tool_choice: str | None = None
    """``auto``, ``none``, ``required``/``any``, or a tool name."""
    parallel_tool_calls: bool | None = None
    stream: bool = True


@dataclass(frozen=True, slots=True)
class ModelRequest:
    """Everything one model call needs."""

    messages: tuple[Message, ...]
    tools: tuple[ToolSpec, ...] = ()
    system: str = ""
    params: ModelParams = field(default_factory=ModelParams)


@dataclass(frozen=True, slots=True)
class Usage:
    input_tokens: int | None = None
    output_tokens: int | None = None


@dataclass(frozen=True, slots=True)
class TextDelta:
    text: str


@dataclass(frozen=True, slots=True)
class ToolCallStarted:
    """First fragment of a streamed tool call (OpenAI: index + id + name)."""

    index: int
    id: str
    name: str


@dataclass(frozen=True, slots=True)
class ToolCallDelta:
    """A piece of a tool call's arguments as it streams."""

    index: int
    fragment: str


@dataclass(frozen=True, slots=True)
class TurnCompleted:
    """The assembled assistant message, the stop reason and token usage."""

    message: Message
    stop_reason: str
    usage: Usage = field(default_factory=Usage)
    raw_request: dict[str, Any] = field(default_factory=dict)
    """The request body as sent (secrets are never part of the body)."""
    notes: tuple[str, ...] = ()
    """What the client had to adapt (e.g. unparseable arguments sent as ``{}``)."""


StreamEvent = TextDelta | ToolCallStarted | ToolCallDelta | TurnCompleted


class ProviderError(Exception):
    """The provider answered with an error, shown as the provider sent it.

    Attributes:
        status: HTTP status (None for transport errors).
        type: The provider's error type (``invalid_request_error``…).
        message: The provider's message, verbatim.
        body: The raw response body.
        retryable: Whether retrying could help (429, 5xx, transport).
        code: The provider's error code when it sends one (OpenAI ``code``).
    """

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        type: str = "",
        body: str = "",
        retryable: bool = False,
        code: str = "",
    ) -> None:
        self.status = status
        self.code = code
        self.type = type
        self.message = message
        self.body = body
        self.retryable = retryable
        prefix = f"{status} " if status else ""
        kind = f"{type}: " if type else ""
        super().__init__(f"{prefix}{kind}{message}")


class ModelClient(Protocol):
    """What the runtime needs from a provider."""

    def stream(self, request: ModelRequest) -> AsyncIterator[StreamEvent]:
        """Send ``request``; yield deltas, then one TurnCompleted. Raises ProviderError."""
        ...

    async def aclose(self) -> None: ...
