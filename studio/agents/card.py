"""Importing an A2A Agent Card from a file or a URL, checked with the official ``a2a-sdk`` types.

The SDK is imported inside the functions: it brings protobuf and google-auth
(~1 s), which ``studio --help`` and registry loading must not pay. The card is
parsed into ``a2a.types.AgentCard`` (the SDK also maps 0.3 cards to 1.0), and
what the SDK accepts is kept as the file said it (see :mod:`studio.agents.model`).
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from studio.agents.model import AgentCardError, RemoteAgent, remote_agent, slug
from studio.contract.problems import hidden_code_points
from studio.formats.base import FormatError, kind_of, load_json, one_line
from studio.formats.files import decode_text, read_bytes

WELL_KNOWN_PATH = "/.well-known/agent-card.json"
MAX_CARD_BYTES = 1024 * 1024

# What each top-level field of a card must be, checked before the SDK sees it:
# the SDK's own errors on a wrong type name its internals ("'str' object has no
# attribute 'pop'"), not the field.
_STRING_FIELDS = ("name", "description", "url", "version", "preferredTransport",
                  "protocolVersion", "documentationUrl", "iconUrl")  # fmt: skip
_OBJECT_FIELDS = ("capabilities", "securitySchemes", "provider")
_STRING_LIST_FIELDS = ("defaultInputModes", "defaultOutputModes")
_OBJECT_LIST_FIELDS = ("skills", "supportedInterfaces", "security", "signatures")
_SKILL_STRINGS = ("id", "name", "description")
_SKILL_STRING_LISTS = ("tags", "examples", "inputModes", "outputModes")


def check_card(data: Any, shown: str) -> Any:
    """Parse ``data`` into the SDK's ``AgentCard`` (a protobuf message); the input is not changed.

    Raises:
        AgentCardError: not an object, or a field the SDK rejects, or no name/description/endpoint.
    """
    from a2a.client.card_resolver import parse_agent_card
    from google.protobuf.json_format import ParseError  # type: ignore[import-untyped]

    if not isinstance(data, dict):
        raise AgentCardError(f"{shown}: an Agent Card must be a JSON object, not {kind_of(data)}")
    problem = shape_problem(data)
    if problem:
        raise AgentCardError(f"{shown}: {problem}")
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


_HIDDEN_IN_NAMES = frozenset({"Cc", "Cf"})
"""Controls and format characters (bidi overrides, zero-width): refused in a card's name."""


def shape_problem(data: dict[str, Any]) -> str:
    """The first field of a card whose JSON type is wrong, with its path ("" when none)."""

    def strings(value: Any) -> bool:
        return isinstance(value, list) and all(isinstance(v, str) for v in value)

    for key in _STRING_FIELDS:
        if key in data and not isinstance(data[key], str):
            return f"{key}: must be a string, not {kind_of(data[key])}"
    codes = hidden_code_points(data.get("name", ""), _HIDDEN_IN_NAMES)
    if codes:
        return f"name: holds invisible or direction-changing characters ({codes}); refused"
    for key in _OBJECT_FIELDS:
        if key in data and not isinstance(data[key], dict):
            return f"{key}: must be an object, not {kind_of(data[key])}"
    for key in _STRING_LIST_FIELDS:
        if key in data and not strings(data[key]):
            return f"{key}: must be an array of strings"
    for key in _OBJECT_LIST_FIELDS:
        value = data.get(key, [])
        if not isinstance(value, list):
            return f"{key}: must be an array of objects, not {kind_of(value)}"
        for i, item in enumerate(value):
            if not isinstance(item, dict):
                return f"{key}[{i}]: must be an object, not {kind_of(item)}"
    for i, skill in enumerate(data.get("skills", [])):
        for key in _SKILL_STRINGS:
            if key in skill and not isinstance(skill[key], str):
                return f"skills[{i}].{key}: must be a string, not {kind_of(skill[key])}"
        for key in _SKILL_STRING_LISTS:
            if key in skill and not strings(skill[key]):
                return f"skills[{i}].{key}: must be an array of strings"
    for i, iface in enumerate(data.get("supportedInterfaces", [])):
        if "url" in iface and not isinstance(iface["url"], str):
            return f"supportedInterfaces[{i}].url: must be a string, not {kind_of(iface['url'])}"
    for name, scheme in data.get("securitySchemes", {}).items():
        if not isinstance(scheme, dict):
            return f"securitySchemes.{name}: must be an object, not {kind_of(scheme)}"
    return ""


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
        # A folder, FIFO or device is refused before it is opened (a FIFO would block).
        raw = read_bytes(path, path.name, limit=MAX_CARD_BYTES)
    except FormatError as exc:
        raise AgentCardError(str(exc)) from None
    return agent_from_card(_decode(raw, path.name), path.name, name)


def card_url(url: str) -> str:
    """The card's address: a base URL gets :data:`WELL_KNOWN_PATH` appended."""
    return url if url.endswith(".json") else url.rstrip("/") + WELL_KNOWN_PATH


async def fetch_card(url: str, name: str | None = None, timeout: float = 10.0) -> RemoteAgent:
    """A remote agent from a card served over HTTP(S).

    ``timeout`` bounds the whole fetch, body included: a server that sends a
    never-ending or trickling body is cut off at :data:`MAX_CARD_BYTES` or at
    the deadline, whichever comes first.

    Raises:
        AgentCardError: not a URL, unreachable, an HTTP error, too large, too slow,
            not JSON, or not a card.
    """
    import asyncio

    import httpx

    address = card_url(url)
    try:
        async with asyncio.timeout(timeout):
            raw = await _fetch(address, timeout)
    except TimeoutError:
        raise AgentCardError(
            f"{address}: no complete Agent Card within {timeout:g} s (refused)"
        ) from None
    except httpx.InvalidURL as exc:
        raise AgentCardError(f"{one_line(address)}: not a valid URL ({exc})") from None
    except httpx.HTTPError as exc:
        detail = " ".join(str(exc).split())
        reason = f"{type(exc).__name__}: {detail}" if detail else type(exc).__name__
        raise AgentCardError(f"{address}: cannot fetch the Agent Card ({reason})") from None
    return agent_from_card(_decode(raw, address), address, name)


async def _fetch(address: str, timeout: float) -> bytes:
    """The body at ``address``, read in chunks and refused past :data:`MAX_CARD_BYTES`."""
    import httpx

    async with (
        httpx.AsyncClient(timeout=timeout, follow_redirects=False) as client,
        client.stream("GET", address, headers={"Accept": "application/json"}) as response,
    ):
        if response.status_code != 200:
            raise AgentCardError(f"{address}: HTTP {response.status_code} instead of an Agent Card")
        chunks = []
        total = 0
        async for chunk in response.aiter_bytes():
            total += len(chunk)
            if total > MAX_CARD_BYTES:
                raise AgentCardError(
                    f"{address}: larger than {MAX_CARD_BYTES:,} bytes; not an Agent Card"
                )
            chunks.append(chunk)
    return b"".join(chunks)


def _decode(raw: bytes, shown: str) -> Any:
    """The JSON of a card: UTF-8 (a BOM is dropped), under the importers' limits (depth…)."""
    try:
        return load_json(decode_text(raw, shown), shown)
    except FormatError as exc:
        raise AgentCardError(str(exc)) from None
