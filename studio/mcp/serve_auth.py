"""Who an MCP caller is: bearer tokens, per-credential contexts, bucketing subjects.

A contexts file gives each credential its own session context (the
employee behind a token gets their own ``employee_id`` injected)::

    {"credentials": [
        {"token": "s3cret-alice", "context": {"employee_id": "E-1001", "role": "employee"}},
        {"token_sha256": "9f86d08…", "context": {"employee_id": "E-2002"}}
    ]}

Tokens may be written as their SHA-256 (hex) so the file holds no secret.
Each context starts from the server's ``--context`` and overrides it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Iterable, Mapping
from pathlib import Path

from studio.runtime.context import SessionContext


def token_digest(token: str) -> str:
    """The full SHA-256 (hex) of a bearer token."""
    return hashlib.sha256(token.encode()).hexdigest()


def load_contexts(path: Path, base: SessionContext) -> dict[str, SessionContext]:
    """Credential subject (:func:`studio.mcp.server.credential_hash`) → its context.

    Raises:
        ValueError: the file is unreadable, not JSON, or an entry is malformed.
    """
    try:
        data = json.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ValueError(f"{path}: cannot read the contexts file: {exc}") from exc
    entries = data.get("credentials") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise ValueError(f'{path}: expected {{"credentials": [...]}}')
    out: dict[str, SessionContext] = {}
    for i, entry in enumerate(entries):
        where = f"{path}: credentials[{i}]"
        if not isinstance(entry, dict) or not isinstance(entry.get("context", {}), dict):
            raise ValueError(f"{where}: must be an object with a context object")
        token, digest = entry.get("token"), entry.get("token_sha256")
        if isinstance(token, str) and token.strip():
            digest = token_digest(token.strip())
        if not isinstance(digest, str) or len(digest) != 64:
            raise ValueError(f"{where}: needs a token or a 64-digit token_sha256")
        pairs = [f"{k}={v}" for k, v in entry.get("context", {}).items()]
        out[digest.lower()[:32]] = base.with_pairs(pairs)
    return out


def parse_phrases(given: Iterable[str]) -> dict[str, str]:
    """``TOOL=PHRASE`` values by tool.

    Raises:
        ValueError: an item is not ``TOOL=PHRASE``.
    """
    phrases: dict[str, str] = {}
    for item in given:
        tool, sep, phrase = item.partition("=")
        if not sep or not tool or not phrase:
            raise ValueError(f"--phrase takes TOOL=PHRASE, not {item!r}")
        phrases[tool] = phrase
    return phrases


def bearer(headers: Mapping[str, str]) -> str | None:
    """The bearer token of an ``Authorization`` header, or None."""
    scheme, _, given = headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not given.strip():
        return None
    return given.strip()


def token_allowed(token: str, server_token: str | None, contexts: Mapping[str, object]) -> bool:
    """True when ``token`` is the server's token or a credential of the contexts file."""
    if server_token is not None and hmac.compare_digest(token.encode(), server_token.encode()):
        return True
    return token_digest(token)[:32] in contexts
