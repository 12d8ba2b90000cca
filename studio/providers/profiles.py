"""Model profiles: which server, which model, where the key comes from (DESIGN §4).

A profile never holds the API key. The key is read, when a client is made,
from the environment variable the profile names, or else from the system
keyring (service ``tool-registry-studio``, username = the profile name).
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx

from studio.providers.anthropic import (
    ANTHROPIC_VERSION,
    AnthropicMessagesClient,
    parse_anthropic_error,
)
from studio.providers.base import ModelClient, ModelParams, ProviderKind
from studio.providers.http import SECRET_HEADERS, make_timeout, redact_error
from studio.providers.openai_chat import OpenAIChatClient, parse_openai_error
from studio.sessions.redact import Secrets

KEYRING_SERVICE = "tool-registry-studio"


@dataclass(frozen=True, slots=True)
class ModelProfile:
    """A named connection to a model.

    Attributes:
        name: Unique name (also the keyring username).
        kind: Wire format: ``openai-chat`` (OpenAI and compatible servers) or
            ``anthropic-messages``.
        base_url: API root (``https://api.openai.com/v1``, ``http://localhost:11434/v1``,
            ``https://api.anthropic.com``).
        model: Model name sent with each request.
        api_key_env: Name of an environment variable holding the key; when
            empty the keyring is asked.
        params: Default request parameters for runs with this profile.
        headers: Extra request headers (never secrets: those are refused).
    """

    name: str
    kind: ProviderKind
    base_url: str
    model: str
    api_key_env: str | None = None
    params: ModelParams = field(default_factory=ModelParams)
    headers: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise ValueError("a profile needs a name")
        object.__setattr__(self, "kind", ProviderKind(self.kind))
        if not self.base_url.startswith(("http://", "https://")):
            raise ValueError(f"base URL must start with http:// or https://: {self.base_url!r}")
        secret = sorted(k for k in self.headers if k.lower() in SECRET_HEADERS)
        if secret:
            raise ValueError(
                f"header {secret[0]!r} would store a secret in the profile; "
                "use an environment variable or the keyring for the API key"
            )


@dataclass(frozen=True, slots=True)
class ApiKeyLookup:
    """Where a key was found (never the key in ``message``).

    Attributes:
        key: The key, or None.
        source: ``env``, ``keyring`` or ``none``.
        message: A sentence for the UI: where the key came from or why there is none.
    """

    key: str | None
    source: str
    message: str

    def __repr__(self) -> str:
        return f"ApiKeyLookup(source={self.source!r}, message={self.message!r})"


def find_api_key(profile: ModelProfile) -> ApiKeyLookup:
    """Look the key up: the named environment variable first, then the keyring."""
    notes: list[str] = []
    if profile.api_key_env:
        value = os.environ.get(profile.api_key_env)
        if value:
            return ApiKeyLookup(value, "env", f"API key from ${profile.api_key_env}")
        notes.append(f"${profile.api_key_env} is not set")
    try:
        import keyring
        from keyring.errors import KeyringError

        try:
            value = keyring.get_password(KEYRING_SERVICE, profile.name)
        except KeyringError as exc:  # NoKeyringError included: no backend on this system
            notes.append(f"the system keyring is unavailable ({type(exc).__name__}: {exc})")
            value = None
        else:
            if not value:
                notes.append(
                    f"the keyring has no entry for service {KEYRING_SERVICE!r}, "
                    f"user {profile.name!r}"
                )
    except Exception as exc:  # a broken keyring backend must not break the studio
        notes.append(f"the system keyring failed ({type(exc).__name__}: {exc})")
        value = None
    if value:
        return ApiKeyLookup(value, "keyring", f"API key from the keyring ({profile.name})")
    return ApiKeyLookup(None, "none", "no API key: " + "; ".join(notes))


def resolve_api_key(profile: ModelProfile) -> str | None:
    """The profile's API key, or None (see :func:`find_api_key` for the reason)."""
    return find_api_key(profile).key


def store_api_key(profile_name: str, key: str) -> None:
    """Save a key in the system keyring for ``profile_name`` (raises keyring errors)."""
    import keyring

    keyring.set_password(KEYRING_SERVICE, profile_name, key)


def client_for(
    profile: ModelProfile,
    *,
    transport: httpx.AsyncBaseTransport | None = None,
    api_key: str | None = None,
    **kwargs: Any,
) -> ModelClient:
    """A client for ``profile``; the key comes from ``api_key`` or :func:`resolve_api_key`.

    Args:
        profile: The profile.
        transport: An httpx transport for the owned AsyncClient (tests, proxies).
        api_key: Use this key instead of looking it up.
        **kwargs: Passed to the client (``max_retries``, ``timeout``, ``sleep``…).
    """
    key = api_key if api_key is not None else resolve_api_key(profile)
    cls: type[OpenAIChatClient] | type[AnthropicMessagesClient] = (
        AnthropicMessagesClient
        if profile.kind is ProviderKind.ANTHROPIC_MESSAGES
        else OpenAIChatClient
    )
    return cls(
        profile.base_url,
        profile.model,
        key,
        transport=transport,
        extra_headers=profile.headers,
        **kwargs,
    )


@dataclass(frozen=True, slots=True)
class ConnectionResult:
    """What "Test connection" found."""

    ok: bool
    message: str
    latency_ms: float | None = None
    models: tuple[str, ...] = ()


async def test_connection(
    profile: ModelProfile,
    *,
    transport: httpx.AsyncBaseTransport | None = None,
    api_key: str | None = None,
    timeout: float = 10.0,
) -> ConnectionResult:
    """Check that the server answers and accepts the key, without spending tokens.

    Sends ``GET /models`` (OpenAI-compatible) or ``GET /v1/models`` (Anthropic)
    and reports whether the profile's model is among those listed.
    """
    lookup = None if api_key is not None else find_api_key(profile)
    key = api_key if api_key is not None else lookup.key  # type: ignore[union-attr]
    base = profile.base_url.rstrip("/")
    headers = dict(profile.headers)
    if profile.kind is ProviderKind.ANTHROPIC_MESSAGES:
        url = (base if base.endswith("/v1") else base + "/v1") + "/models"
        headers["anthropic-version"] = ANTHROPIC_VERSION
        if key:
            headers["x-api-key"] = key
        parse = parse_anthropic_error
    else:
        url = base + "/models"
        if key:
            headers["Authorization"] = f"Bearer {key}"
        parse = parse_openai_error
    key_note = "" if key or lookup is None else f" ({lookup.message})"
    started = time.perf_counter()
    async with httpx.AsyncClient(
        transport=transport, timeout=make_timeout(connect=timeout, read=timeout)
    ) as http:
        try:
            response = await http.get(url, headers=headers)
        except httpx.TransportError as exc:
            return ConnectionResult(False, f"cannot reach {url}: {type(exc).__name__}: {exc}")
    latency = (time.perf_counter() - started) * 1000
    if not response.is_success:
        # A server may echo the key it refused: it is never shown.
        error = redact_error(parse(response.status_code, response.content),
                             Secrets.from_headers(headers))  # fmt: skip
        return ConnectionResult(False, f"{error}{key_note}", latency)
    try:
        data = response.json()
        models = tuple(str(m.get("id")) for m in data.get("data", []) if isinstance(m, dict))
    except (ValueError, AttributeError):
        models = ()
    if models and profile.model not in models:
        message = (
            f"connected in {latency:.0f} ms, but {profile.model!r} is not among the "
            f"{len(models)} models the server lists"
        )
    else:
        message = f"connected in {latency:.0f} ms; model {profile.model!r} is available"
        if not models:
            message = f"connected in {latency:.0f} ms"
    return ConnectionResult(True, message + key_note, latency, models)


# pytest would collect the function above as a test when a test module imports it.
test_connection.__test__ = False  # type: ignore[attr-defined]
