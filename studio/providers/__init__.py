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
from studio.providers.profiles import (
    KEYRING_SERVICE,
    ApiKeyLookup,
    ConnectionResult,
    ModelProfile,
    client_for,
    find_api_key,
    resolve_api_key,
    store_api_key,
    test_connection,
)
from studio.providers.retry import RETRYABLE_STATUSES, backoff_delay, retry_after_seconds

__all__ = [
    "KEYRING_SERVICE",
    "RETRYABLE_STATUSES",
    "AnthropicMessagesClient",
    "ApiKeyLookup",
    "ConnectionResult",
    "ModelClient",
    "ModelParams",
    "ModelProfile",
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
    "client_for",
    "find_api_key",
    "make_timeout",
    "redact_headers",
    "resolve_api_key",
    "retry_after_seconds",
    "store_api_key",
    "test_connection",
]
