"""A remote agent in the registry: an A2A Agent Card kept as imported, plus what lint and diff read.

The card is stored verbatim (a version must show what was imported, key for
key). The fields the studio reasons about — description, endpoint, streaming,
skills, security schemes — are read from it by :func:`remote_agent` in plain
Python, accepting both the A2A 1.0 shape (``supportedInterfaces``, wrapped
security schemes) and the 0.3 shape (``url``, ``type: http``), so loading a
registry never needs the SDK. Importing a card checks it with the SDK's own
types first (:mod:`studio.agents.card`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

AGENT_NAME_PATTERN = r"^[a-z0-9][a-z0-9-]{0,63}$"
"""A remote agent's key in a registry (also its file name ``agents/<name>.json``)."""


class AgentCardError(ValueError):
    """An Agent Card cannot be read; the message is one line naming what and where."""


@dataclass(frozen=True, slots=True)
class AgentSkillInfo:
    """One skill a remote agent advertises (A2A ``AgentSkill``)."""

    id: str
    name: str
    description: str
    tags: tuple[str, ...] = ()
    examples: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class RemoteAgent:
    """A remote agent: its registry key and its card, with the fields read from it."""

    name: str
    card: dict[str, Any] = field(default_factory=dict)
    title: str = ""
    description: str = ""
    url: str = ""
    protocol_binding: str = ""
    streaming: bool = False
    push_notifications: bool = False
    skills: tuple[AgentSkillInfo, ...] = ()
    security_schemes: tuple[tuple[str, str], ...] = ()
    """(scheme name, kind) such as ("bearer", "http")."""


def slug(text: str) -> str:
    """A registry key from a card's name: "Expense Audit Agent" → ``expense-audit-agent``."""
    out = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:64].strip("-")
    return out or "agent"


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _strings(value: Any) -> tuple[str, ...]:
    return tuple(v for v in value if isinstance(v, str)) if isinstance(value, list) else ()


def _endpoint(card: dict[str, Any]) -> tuple[str, str]:
    interfaces = card.get("supportedInterfaces")
    if isinstance(interfaces, list):
        for iface in interfaces:
            if isinstance(iface, dict) and _text(iface.get("url")):
                return iface["url"], _text(iface.get("protocolBinding")) or "JSONRPC"
    return _text(card.get("url")), _text(card.get("preferredTransport")) or "JSONRPC"


_SCHEME_KINDS = {
    "apiKeySecurityScheme": "apiKey",
    "httpAuthSecurityScheme": "http",
    "oauth2SecurityScheme": "oauth2",
    "openIdConnectSecurityScheme": "openIdConnect",
    "mtlsSecurityScheme": "mutualTLS",
}


def _schemes(value: Any) -> tuple[tuple[str, str], ...]:
    if not isinstance(value, dict):
        return ()
    out = []
    for name, scheme in value.items():
        kind = ""
        if isinstance(scheme, dict):
            kind = _text(scheme.get("type")) or next(
                (_SCHEME_KINDS[k] for k in scheme if k in _SCHEME_KINDS), ""
            )
        out.append((str(name), kind or "unknown"))
    return tuple(out)


def remote_agent(name: str, card: dict[str, Any]) -> RemoteAgent:
    """Read the studio's view of a card (never raises on odd fields: lint reports them)."""
    caps = card.get("capabilities") if isinstance(card.get("capabilities"), dict) else {}
    assert isinstance(caps, dict)
    skills = []
    for item in card.get("skills") or []:
        if isinstance(item, dict):
            skills.append(
                AgentSkillInfo(
                    id=_text(item.get("id")),
                    name=_text(item.get("name")),
                    description=_text(item.get("description")),
                    tags=_strings(item.get("tags")),
                    examples=_strings(item.get("examples")),
                )
            )
    url, binding = _endpoint(card)
    return RemoteAgent(
        name=name,
        card=card,
        title=_text(card.get("name")),
        description=_text(card.get("description")),
        url=url,
        protocol_binding=binding,
        streaming=caps.get("streaming") is True,
        push_notifications=caps.get("pushNotifications") is True,
        skills=tuple(skills),
        security_schemes=_schemes(card.get("securitySchemes")),
    )


def agent_to_dict(agent: RemoteAgent) -> dict[str, Any]:
    """The registry-document form: ``{"name": key, "card": {…as imported…}}``."""
    return {"name": agent.name, "card": agent.card}


def parse_agent_dict(data: Any) -> RemoteAgent:
    """A remote agent from its registry-document form.

    Raises:
        AgentCardError: the name or card is missing or malformed.
    """
    if not isinstance(data, dict):
        raise AgentCardError("must be an object with name and card")
    name = data.get("name")
    if not isinstance(name, str) or not re.fullmatch(AGENT_NAME_PATTERN, name):
        raise AgentCardError(f"name: {name!r} is not an agent key (lowercase letters, digits, '-')")
    card = data.get("card")
    if not isinstance(card, dict):
        raise AgentCardError("card: must be the Agent Card object")
    return remote_agent(name, card)
