"""Importing an A2A Agent Card from a file or a URL, checked with the official ``a2a-sdk`` types.

The SDK is imported inside the functions: it brings protobuf and google-auth
(~1 s), which ``studio --help`` and registry loading must not pay. The card is
parsed into ``a2a.types.AgentCard`` (the SDK also maps 0.3 cards to 1.0), and
what the SDK accepts is kept as the file said it (see :mod:`studio.agents.model`).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from studio.agents.model import AgentCardError, RemoteAgent, remote_agent, slug

WELL_KNOWN_PATH = "/.well-known/agent-card.json"
MAX_CARD_BYTES = 1024 * 1024


def check_card(data: Any, shown: str) -> Any:
    """Parse ``data`` into the SDK's ``AgentCard`` (a protobuf message); the input is not changed.

    Raises:
        AgentCardError: not an object, or a field the SDK rejects, or no name/description/endpoint.
    """
    from a2a.client.card_resolver import parse_agent_card
    from google.protobuf.json_format import ParseError  # type: ignore[import-untyped]

    if not isinstance(data, dict):
        raise AgentCardError(f"{shown}: an Agent Card must be a JSON object")
    try:
        card = parse_agent_card(copy.deepcopy(data))
    except (ParseError, ValueError, TypeError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise AgentCardError(f"{shown}: not a valid Agent Card: {first}") from None
    missing = [f for f in ("name", "description") if not getattr(card, f)]
    if not card.supported_interfaces:
        missing.append("url (or supportedInterfaces)")
    if missing:
        raise AgentCardError(f"{shown}: the Agent Card has no {', '.join(missing)}")
    return card


def agent_from_card(data: Any, shown: str, name: str | None = None) -> RemoteAgent:
    """A remote agent from a decoded card, checked by the SDK.

    ``name`` (the registry key) defaults to the card's name, slugged.
    """
    card = check_card(data, shown)
    return remote_agent(name or slug(card.name), data)


def read_card_file(path: Path, name: str | None = None) -> RemoteAgent:
    """A remote agent from a card file.

    Raises:
        AgentCardError: unreadable, too large, not JSON, or not a card.
    """
    try:
        if path.stat().st_size > MAX_CARD_BYTES:
            raise AgentCardError(
                f"{path.name}: larger than {MAX_CARD_BYTES:,} bytes; not an Agent Card"
            )
        raw = path.read_bytes()
    except OSError as exc:
        raise AgentCardError(f"{path}: {exc.strerror or exc}") from None
    return agent_from_card(_decode(raw, path.name), path.name, name)


def card_url(url: str) -> str:
    """The card's address: a base URL gets :data:`WELL_KNOWN_PATH` appended."""
    return url if url.endswith(".json") else url.rstrip("/") + WELL_KNOWN_PATH


async def fetch_card(url: str, name: str | None = None, timeout: float = 10.0) -> RemoteAgent:
    """A remote agent from a card served over HTTP(S).

    Raises:
        AgentCardError: unreachable, an HTTP error, too large, not JSON, or not a card.
    """
    import httpx

    address = card_url(url)
    try:
        async with httpx.AsyncClient(timeout=timeout, follow_redirects=False) as client:
            response = await client.get(address, headers={"Accept": "application/json"})
    except httpx.HTTPError as exc:
        raise AgentCardError(
            f"{address}: cannot fetch the Agent Card ({type(exc).__name__})"
        ) from None
    if response.status_code != 200:
        raise AgentCardError(f"{address}: HTTP {response.status_code} instead of an Agent Card")
    if len(response.content) > MAX_CARD_BYTES:
        raise AgentCardError(f"{address}: larger than {MAX_CARD_BYTES:,} bytes; not an Agent Card")
    return agent_from_card(_decode(response.content, address), address, name)


def _decode(raw: bytes, shown: str) -> Any:
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise AgentCardError(f"{shown}: not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise AgentCardError(f"{shown}:{exc.lineno}:{exc.colno}: not JSON ({exc.msg})") from None
