"""Redacting secrets: known values everywhere, API-key-like strings in exports.

Two halves of one mechanism:

* :class:`Secrets` — values known to be secret for a call or a run (every
  ``{env:NAME}`` value an HTTP tool call read, the model API key). They are
  replaced by ``[REDACTED]`` in every string of a result, an error or an
  event before it is stored, shown or sent to the model.
* :func:`redact_text` / :func:`redact_messages` — API-key-like strings found
  by shape, for exports of sessions: OpenAI-style keys (``sk-…``,
  ``sk-proj-…``), Anthropic keys (``sk-ant-…``), ``Bearer …`` tokens,
  ``x-api-key: …`` / ``api_key=…`` pairs, and the values of fields named like
  secrets (``authorization``, ``api_key``, ``password`` …).

:func:`is_secret_header` and :func:`literal_credential` are the one predicate
for credential headers: the HTTP target editor, its checks, storage and the
request snapshots all ask them.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any
from urllib.parse import quote, quote_plus

from studio.sessions.model import Message, Part, TextPart, ToolCallPart, ToolResultPart

REDACTED = "[REDACTED]"
_SECRET_FIELDS = frozenset({
    "authorization", "proxy-authorization", "x-api-key", "api-key", "api_key", "apikey",
    "x-goog-api-key", "password", "secret", "client_secret", "access_token", "refresh_token",
    "cookie", "set-cookie", "token",
})  # fmt: skip
_PATTERNS = (
    # key: value / key=value pairs (headers in logs, query strings)
    re.compile(
        r"(?i)\b((?:x-api-key|x-goog-api-key|api[_-]?key|access[_-]?token|client[_-]?secret)"
        r"[\"']?\s*[:=]\s*[\"']?)([^\s\"'&,;}]{6,})"
    ),
    re.compile(r"(?i)\b(bearer\s+)([A-Za-z0-9._~+/=-]{8,})"),
    re.compile(r"()\bsk-(?:ant-|proj-|live-|test-)?[A-Za-z0-9_-]{16,}"),
    re.compile(r"()\bAIza[0-9A-Za-z_-]{30,}"),  # Google API keys
)


def redact_text(text: str) -> str:
    """``text`` with every API-key-like string replaced."""
    if not text:
        return text
    for pattern in _PATTERNS:
        text = pattern.sub(lambda m: m.group(1) + REDACTED, text)
    return text


def redact_value(value: Any) -> Any:
    """A JSON value with secret fields and key-like strings replaced (a copy)."""
    if isinstance(value, str):
        return redact_text(value)
    if isinstance(value, dict):
        return {
            k: (REDACTED if str(k).lower() in _SECRET_FIELDS and v else redact_value(v))
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [redact_value(v) for v in value]
    return value


def redact_part(part: Part) -> Part:
    if isinstance(part, TextPart):
        return TextPart(redact_text(part.text))
    if isinstance(part, ToolCallPart):
        return ToolCallPart(
            part.id, part.name, redact_value(part.arguments), redact_value(part.extra)
        )
    return ToolResultPart(part.id, redact_text(part.content), part.is_error, part.name,
                          redact_value(part.extra))  # fmt: skip


def redact_messages(messages: Sequence[Message]) -> list[Message]:
    """Copies of ``messages`` with secrets replaced."""
    return [Message(m.role, tuple(redact_part(p) for p in m.parts), redact_value(m.extra))
            for m in messages]  # fmt: skip


# ---------------------------------------------------------------------------- credentials

_CREDENTIAL_NAME = re.compile(r"auth|key|token|secret|passw|session|cookie|signature|credential")
# Header names that contain a credential word but carry none.
_NOT_CREDENTIAL_NAME = re.compile(r"idempotency[\W_]*key|author(?!i[sz])")
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")
_SCHEME_TOKEN = re.compile(
    r"(?i)^\s*(?:bearer|basic|digest|token|apikey|api-key|hmac|aws4-hmac-sha256|negotiate|ntlm)"
    r"\s+[A-Za-z0-9._~+/=-]{3,}"
)
_KNOWN_PREFIX = re.compile(
    r"(?:\bsk[-_][A-Za-z0-9_-]{8,}|\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{16,}|\bgithub_pat_\w{16,}"
    r"|\bxox[abposr]-[A-Za-z0-9-]{8,}|\b(?:AKIA|ASIA)[0-9A-Z]{16}\b|\bAIza[0-9A-Za-z_-]{30,}"
    r"|\bglpat-[A-Za-z0-9_-]{16,}|\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})"
)
_LONG_RUN = re.compile(r"[A-Za-z0-9+/=_.~-]{24,}")


def is_secret_header(name: str, value: str = "") -> bool:
    """True when a header carries a credential: by its name or by its value's shape.

    Names: any containing auth, key, token, secret, passw(ord), session,
    cookie, signature or credential, whatever the case or separator
    (``Authorization``, ``X-Auth-Key``, ``X_Access_Key``, ``XSessionId``);
    ``Idempotency-Key`` and ``X-Author`` are not credentials. Values: see
    :func:`looks_like_credential` (placeholders in ``value`` are ignored).
    """
    lowered = _NOT_CREDENTIAL_NAME.sub("", name.lower())
    if _CREDENTIAL_NAME.search(lowered):
        return True
    return bool(value) and looks_like_credential(_PLACEHOLDER.sub(" ", value))


def looks_like_credential(text: str) -> bool:
    """True for text shaped like a token.

    An auth scheme with a value (``Bearer abc``, ``Basic …``), a known key
    prefix (``sk-``, ``ghp_``, ``xox…-``, ``AKIA…``, ``AIza…``, ``glpat-``, a
    JWT), or a run of 24 or more token characters mixing letters and digits
    with high entropy.
    """
    if _SCHEME_TOKEN.search(text) or _KNOWN_PREFIX.search(text):
        return True
    for run in _LONG_RUN.findall(text):
        letters = any(c.isalpha() for c in run)
        digits = any(c.isdigit() for c in run)
        if letters and digits and _entropy(run) >= 3.5:
            return True
    return False


def _entropy(text: str) -> float:
    counts = Counter(text)
    return -sum(n / len(text) * math.log2(n / len(text)) for n in counts.values())


def literal_credential(name: str, value: str) -> bool:
    """True when a header template would store a credential (it must use ``{env:NAME}``).

    A credential-named header whose value is not blank and reads no
    environment variable, or any header whose fixed text (placeholders left
    out) looks like a token (:func:`looks_like_credential`).
    """
    if is_secret_header(name) and value.strip() and "{env:" not in value:
        return True
    return looks_like_credential(_PLACEHOLDER.sub(" ", value))


# ---------------------------------------------------------------------------- known secrets

MIN_SECRET_LENGTH = 4
"""Shorter values are not redacted: they would garble every result and hide nothing."""


class Secrets:
    """Values that are secret for one call or one run, replaced by ``[REDACTED]`` wherever seen.

    Also replaced: the forms a service may echo them in — JSON-escaped,
    percent-encoded (``quote``/``quote_plus``). A value shorter than
    :data:`MIN_SECRET_LENGTH` is ignored.

    Example::

        secrets = Secrets(["s3cret-value"])
        secrets.value({"echo": "Bearer s3cret-value"})  # {"echo": "Bearer [REDACTED]"}
    """

    __slots__ = ("_forms", "_pattern")

    def __init__(self, values: Iterable[str | None] = ()) -> None:
        self._forms: set[str] = set()
        self._pattern: re.Pattern[str] | None = None
        for value in values:
            self.add(value)

    @classmethod
    def from_headers(cls, headers: Mapping[str, str]) -> Secrets:
        """The values of the credential headers (and the token after a scheme like Bearer)."""
        secrets = cls()
        for name, value in headers.items():
            if is_secret_header(name, value):
                secrets.add(value)
                scheme, _, token = value.strip().partition(" ")
                if token and scheme.isalpha():
                    secrets.add(token.strip())
        return secrets

    def add(self, value: str | None) -> None:
        if not value or len(value) < MIN_SECRET_LENGTH:
            return
        escaped = json.dumps(value)[1:-1]
        forms = {value, escaped, json.dumps(value, ensure_ascii=False)[1:-1],
                 quote(value, safe=""), quote_plus(value, safe="")}  # fmt: skip
        self._forms |= {f for f in forms if f}
        self._pattern = None

    def __bool__(self) -> bool:
        return bool(self._forms)

    def __or__(self, other: Secrets) -> Secrets:
        union = Secrets()
        union._forms = self._forms | other._forms
        return union

    def _compiled(self) -> re.Pattern[str] | None:
        if self._pattern is None and self._forms:
            longest_first = sorted(self._forms, key=len, reverse=True)
            self._pattern = re.compile("|".join(re.escape(f) for f in longest_first))
        return self._pattern

    def text(self, text: str) -> str:
        """``text`` with every secret replaced."""
        pattern = self._compiled()
        if pattern is None or not text:
            return text
        return pattern.sub(REDACTED, text)

    def value(self, value: Any) -> Any:
        """A copy of a JSON value with every secret replaced in its strings (keys included)."""
        if not self._forms:
            return value
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return {self.text(k) if isinstance(k, str) else k: self.value(v)
                    for k, v in value.items()}  # fmt: skip
        if isinstance(value, list | tuple):
            return [self.value(v) for v in value]
        return value
