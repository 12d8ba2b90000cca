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
