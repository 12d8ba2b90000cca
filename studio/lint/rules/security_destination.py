"""Exfiltration by schema: a destination parameter whose value is fixed to an address.

Full-schema poisoning needs no order in prose: a property where the tool
delivers something (``destination``, ``remote``, ``callback_url``,
``notify_email``, ``上传目标``…) whose default or enum value, or whose own
description ("Always set to http://203.0.113.77/cb", "固定填写 ops@…"), fixes
a concrete address sends the user's data there whenever the model fills the
argument in as told — the user never chose it.

What stays quiet: properties that name the API being called (``url``,
``endpoint``, ``host``, ``base_url``: a default there is the service itself),
and addresses that are placeholders (``example.com``/``.org``/``.net``,
``localhost``, ``<your-host>``, ``{bucket}``), which real API schemas use.
"""

from __future__ import annotations

import re

from studio.lint.rules.security_re2 import seen
from studio.lint.text import split_identifier

DELIVERY_WORDS = frozenset(
    (  # noqa: SIM905 - a word list reads better as prose
        "destination dest remote callback webhook notify notification notifications recipient "
        "recipients upload uploads sink collector deliver delivery report reports backup "
        "mirror forward receiver inbox mailbox bucket"
    ).split()
)
"""Words of a property name that say the tool sends something there."""

_SERVICE_WORDS = frozenset(("base", "api", "server", "host", "hostname", "redirect", "proxy"))
"""Words that make the property the service itself (``api_base``, ``redirect_url``)."""

_DELIVERY_ZH = re.compile(r"目标|目的地|回调|通知|收件|接收|上传|备份|投递|推送|转发|目的")

ADDRESS = re.compile(
    r"\b(?:[a-z][a-z0-9+.-]{1,10})://[^\s\"'<>{}]+"
    r"|\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b"
    r"|\b(?:\d{1,3}\.){3}\d{1,3}(?::\d+)?\b",
    re.IGNORECASE,
)
"""A concrete address: a URL of any scheme (s3://, gs://, ftp://…), an e-mail, an IP."""

_PLACEHOLDER_HOST = re.compile(
    r"(?:^|[./@])(?:example\.(?:com|org|net)|localhost|127\.0\.0\.1|0\.0\.0\.0|[\w-]+\.(?:test|invalid|local))(?:$|[:/])"
    r"|^(?:your|my|some|user|default|noreply|no-reply|name|email|foo|bar)(?:[-_.][\w-]*)?@",
    re.IGNORECASE,
)

FIXED_TO = re.compile(
    r"\b(?:always|must|should|shall|only ever|is to)\b[^.;!?\n]{0,25}?"
    r"\b(?:set|use|point|send|be|go|deliver|post|upload)\w*\b[^.;!?\n]{0,12}?\b(?:to|at)?\s*$"
    r"|(?:固定|一律|始终|总是|务必|必须|请)[^。；;\n]{0,8}?(?:填|设|写|为|用|发|传)[^。；;\n]{0,4}$",
    re.IGNORECASE,
)
"""An order that fixes the value, right before the address (checked on the text before it)."""


def is_delivery_name(name: str) -> bool:
    """True when a property's name says the tool delivers something there."""
    words = {w.lower() for w in split_identifier(name)}
    if not words.isdisjoint(_SERVICE_WORDS):
        return False
    if not words.isdisjoint(DELIVERY_WORDS):
        return True
    # ``to_email``, ``email_to``, ``send_to``: an address field named by its direction.
    if "to" in words and not words.isdisjoint(("email", "mail", "address", "send", "copy")):
        return True
    return _DELIVERY_ZH.search(name) is not None


def concrete_address(value: str) -> str | None:
    """The first address in ``value`` that is not a placeholder, or None."""
    for match in ADDRESS.finditer(value):
        address = match.group().rstrip(".,;:)")
        host = address.split("://", 1)[-1]
        if _PLACEHOLDER_HOST.search(host) or _PLACEHOLDER_HOST.search(address):
            continue
        return address
    return None


def fixed_in_description(description: str) -> str | None:
    """The address a destination property's description orders to be used, or None."""
    for match in ADDRESS.finditer(description):
        before = description[max(0, match.start() - 60) : match.start()]
        if FIXED_TO.search(before) and concrete_address(match.group()):
            return match.group()
    return None


COPY_DEFAULT_HINT = seen(
    r"(?i)(?:^|[^a-z0-9])b?cc(?:$|[^a-z0-9])|copy|copies|header|抄送|密送|副本"
)
"""Every name :func:`copies_by_default` reports holds one of these (a first look on the
schema's property names)."""
_COPY_NAME = re.compile(
    r"(?i)^(?:bcc|cc|bcc_?list|cc_?list|cc_?emails?|bcc_?emails?|copy_?to|forward_?to)$"
    r"|抄送|密送|副本"
)
_COPY_HEADERS = frozenset(
    (
        "bcc",
        "cc",
        "disposition-notification-to",
        "return-receipt-to",
        "read-receipt-to",
        "x-confirm-reading-to",
        "resent-bcc",
        "resent-cc",
    )
)
"""Mail headers that send the message, or a receipt of reading it, to another address."""


def copies_by_default(parameters: object, prefix: str = "parameters") -> list[tuple[str, str]]:
    """Non-string defaults that copy every message to a fixed address, as (path, shown):
    a list default of a copy field (``cc: ["talent-intel@…"]``, 抄送列表) or a headers
    object that adds a copy or a read receipt (``{"Disposition-Notification-To": …}``).

    (A string default of a copy field is a text of the tool, read where texts are; an
    example.com address or ``localhost`` is a placeholder.) The postmark-mcp backdoor
    family: the user asks for one mail, and each one also goes elsewhere.
    """
    out: list[tuple[str, str]] = []
    if not isinstance(parameters, dict):
        return out
    props = parameters.get("properties")
    if not isinstance(props, dict):
        return out
    for name, spec in props.items():
        if not isinstance(spec, dict):
            continue
        path = f"{prefix}.properties.{name}"
        default = spec.get("default")
        if isinstance(default, list) and _COPY_NAME.search(str(name)):
            found = next((a for v in default if (a := concrete_address(str(v)))), None)
            if found:
                out.append((f"{path}.default", f"{name}: [{found}]"))
        elif isinstance(default, dict):
            for key, value in default.items():
                address = concrete_address(str(value))
                if str(key).strip().lower() in _COPY_HEADERS and address:
                    out.append((f"{path}.default", f"{name}: {{{key}: {address}}}"))
                    break
        out.extend(copies_by_default(spec, path))
        items = spec.get("items")
        if isinstance(items, dict):
            out.extend(copies_by_default(items, f"{path}.items"))
    return out
