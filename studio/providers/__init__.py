"""Model API clients over httpx (OpenAI-compatible chat, Anthropic messages).

Typical use::

    profile = ModelProfile("local", ProviderKind.OPENAI_CHAT, "http://localhost:11434/v1", "qwen3")
    client = client_for(profile)
    async with aclosing(client.stream(ModelRequest(messages, tools))) as events:
        async for event in events:
            ...  # TextDelta / ToolCallStarted / ToolCallDelta, then one TurnCompleted
    await client.aclose()
"""

from studio.providers.anthropic import AnthropicMessagesClient
from studio.providers.base import (
    ModelClient,
    ModelParams,
    ModelRequest,
    ProviderError,
    ProviderKind,
    StreamEvent,
    TextDelta,
    ToolCallDelta,
    ToolCallStarted,
    ToolSpec,
    TurnCompleted,
    Usage,
)
from studio.providers.http import (
    RetryNotice,
    RetryPolicy,
    build_http_client,
    make_timeout,
    redact_headers,
)
from studio.providers.openai_chat import OpenAIChatClient
from studio.providers.retry import RETRYABLE_STATUSES, backoff_delay, retry_after_seconds

__all__ = [
    "RETRYABLE_STATUSES",
    "AnthropicMessagesClient",
    "ModelClient",
    "ModelParams",
    "ModelRequest",
    "OpenAIChatClient",
    "ProviderError",
    "ProviderKind",
    "RetryNotice",
    "RetryPolicy",
    "StreamEvent",
    "TextDelta",
    "ToolCallDelta",
    "ToolCallStarted",
    "ToolSpec",
    "TurnCompleted",
    "Usage",
    "backoff_delay",
    "build_http_client",
    "make_timeout",
    "redact_headers",
    "retry_after_seconds",
]
