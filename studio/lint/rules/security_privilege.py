"""Privilege parameters: a name, default or enum value that hands the model privileges.

``admin_mode``, ``jailbreak_mode``, ``override_instructions``, ``skipApprovalFlow``,
``safety_off``, ``管理员权限``, ``免审核``, an enum value ``unrestricted``, a default
``root`` for ``execute_as``. The words are data (``privilege_names`` in
``resources/lint/security_phrases.json``): single words, and pairs read in
order in a split identifier (a verb of switching off, then what is switched off).
"""

from __future__ import annotations

import re

import re2  # type: ignore[import-untyped]

from studio.lint.regex import compile_cues
from studio.lint.rules._security_phrases import normalise, phrase_data
from studio.lint.rules.security_re2 import seen
from studio.lint.text import split_identifier


def _alternation(words: str) -> frozenset[str]:
    return frozenset(words.split("|"))


_CASELESS = re2.Options()
_CASELESS.case_sensitive = False
_DATA = phrase_data()["privilege_names"]
_PRIV_WORDS = frozenset(_DATA["words"])
_PRIV_PAIRS = tuple((_alternation(a), _alternation(b)) for a, b in _DATA["pairs"])
_PRIV_ZH = compile_cues(_DATA["zh"])
_PRIV_VALUE = re.compile(_DATA["values"])
_BOOK_IDENTITY_NAMES = frozenset(_DATA["identity_names"])
_BOOK_IDENTITY_VALUES = frozenset(_DATA["identity_values"])
_SWITCH_NAMES = frozenset(_DATA["switch_names"])
_SWITCH_OFF = frozenset(_DATA["switch_off_values"])


PRIV_HINT = seen(
    "|".join(
        sorted(
            {
                *_PRIV_WORDS,
                *(w for left, _ in _PRIV_PAIRS for w in left),
                *("god", "admin", "root", "developer", "danger", "limit", "system"),
                *(re2.escape(v) for v in _BOOK_IDENTITY_VALUES | _SWITCH_OFF),
            }
        )
    )
    + "|"
    + _DATA["zh"],
    _CASELESS,
)
"""Every privileged name or value contains one of these (one DFA pass: a cheap first look)."""


_DEVICE_STATES = frozenset(_DATA["device_states"])
_DEVICE_STATES_ZH = re.compile(_DATA["device_states_zh"])
DEVICE_CONTEXT = seen(_DATA["device_context"], _CASELESS)
"""Words of a tool about devices (device, posture, Android, 设备…): there ``jailbreak``,
``rooted`` and ``developer mode`` are states of the device the call describes, not
switches over the model's or the caller's rights."""


def _privileged_name(name: str, device: bool = False) -> bool:
    if device:
        name = _DEVICE_STATES_ZH.sub(" ", name)
    if _PRIV_ZH.search(name):
        return True
    words = [w.lower() for w in split_identifier(name)]
    if device:
        words = [w for w in words if w not in _DEVICE_STATES]
        if not words:
            return False
    if _PRIV_WORDS.intersection(words) or "".join(words) in _PRIV_WORDS:
        return True
    for i, first in enumerate(words):
        for left, right in _PRIV_PAIRS:
            if first in left and right.intersection(words[i + 1 :]):
                return True
    return False


NAME_PATH = re.compile(r'\.properties(?:\.[^.\[\]"]+|\["(?:[^"\\]|\\.)*"\])$')
"""The path of a property's name in :func:`tool_texts` (``….properties.x``, ``…["名"]``)."""


def is_privilege_text(path: str, value: str, device: bool = False) -> bool:
    """True when ``value`` at ``path`` is a property name, default or enum value that
    offers the model privileges ("admin_mode", "免审核", a default "root" of ``execute_as``).

    ``device``: the tool is about devices (:data:`DEVICE_CONTEXT`), where a device's
    states (a ``jailbreak`` flag, ``CHROME_OS_DEVELOPER_MODE``) are not privileges.
    """
    value = normalise(value)
    last = path.rsplit(".", 1)[-1]
    if NAME_PATH.search(path):
        return _privileged_name(value, device)
    if last == "default" or "enum[" in last:
        if device and not _privileged_name(value, device):
            return False
        return (
            _PRIV_VALUE.match(value) is not None
            or (len(value) <= 40 and " " not in value.strip() and _privileged_name(value))
            or _identity_value(path, value)
            or _switched_off(path, value)
        )
    return False


_IDENTITY_OF = re.compile(
    r'\.properties(?:\.([^.\[\]"]+)|\["((?:[^"\\]|\\.)*)"\])\.(?:default|enum\[\d+\])$'
)


def _identity_value(path: str, value: str) -> bool:
    """A privileged identity as the value of a property that says whom the call runs as.

    ``execute_as: "root"``, ``run_as: "system"``, ``privilege: "admin"``; not a
    ``role`` of a user being created nor a database ``user`` (``root`` is the
    default MySQL account).
    """
    where = _IDENTITY_OF.search(path)
    if not where or value.strip().lower() not in _BOOK_IDENTITY_VALUES:
        return False
    words = {w.lower() for w in split_identifier(where.group(1) or where.group(2) or "")}
    if not words.isdisjoint(_BOOK_IDENTITY_NAMES):
        return True
    name = where.group(1) or where.group(2) or ""
    return any(n in name for n in _BOOK_IDENTITY_NAMES if not n.isascii())


def _switched_off(path: str, value: str) -> bool:
    """An enum value or default that turns a safeguard off: ``moderation: "off"``.

    (``safeSearch: "off"`` is a search filter the user picks, not a safeguard of
    the model: ``safe`` is not one of the names.)
    """
    where = _IDENTITY_OF.search(path)
    if not where or value.strip().lower() not in _SWITCH_OFF:
        return False
    name = where.group(1) or where.group(2) or ""
    parts = [w.lower() for w in split_identifier(name)]
    words = {*parts, "".join(parts)}  # guard_rails: "guardrails"
    return not words.isdisjoint(_SWITCH_NAMES) or any(
        n in name for n in _SWITCH_NAMES if not n.isascii()
    )
