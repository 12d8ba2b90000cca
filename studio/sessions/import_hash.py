"""The content hash of an imported conversation, its text written by orjson when exact.

An imported session's id is the start of this hash, so a conversation imported
again is recognised (:func:`studio.sessions.library.store_imported`). The hashed
text must therefore stay byte for byte what it always was::

    json.dumps({"format": …, "messages": [message_to_dict(m), …], "meta": …,
                "title": …, "tools": …},
               sort_keys=True, ensure_ascii=True, separators=(",", ":"))

That ``json.dumps`` was a sixth of a large import; orjson writes the same
document with sorted keys ~7× faster, and its bytes are those very bytes unless
the document holds:

- text outside ASCII, or DEL (``ensure_ascii`` escapes them; the escapes of
  control characters, quotes and backslashes are the same);
- a float between 1e-10 and 1e-4 in magnitude (Python writes ``1e-05``, orjson
  ``0.00001`` or ``1e-5``), seen in its bytes as ``0.0000`` or a one-digit
  negative exponent;
- NaN or an infinity (orjson writes ``null``: any ``null`` is left to json.dumps);
- what orjson refuses (integers past 64 bits, non-string keys, lone surrogates,
  subclasses of str, dict or list).

For those the text is written by ``json.dumps`` as before. A string that merely
looks like one of them (``"0.00001"``) costs only that slower path.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

import orjson

_SORTED = (
    orjson.OPT_SORT_KEYS
    | orjson.OPT_PASSTHROUGH_SUBCLASS
    | orjson.OPT_PASSTHROUGH_DATACLASS
    | orjson.OPT_PASSTHROUGH_DATETIME
)
_ONE_DIGIT_EXPONENT = re.compile(rb"e-[0-9](?![0-9])")
"""Where orjson writes a float between 1e-10 and 1e-5 (``1e-7``; Python ``1e-07``)."""


def canonical_text(document: Any) -> bytes:
    """``json.dumps(document, sort_keys=True, ensure_ascii=True, separators=(",", ":"))``
    as ASCII bytes: the text an import's content hash is taken of."""
    try:
        text = orjson.dumps(document, option=_SORTED)
    except TypeError:  # orjson.JSONEncodeError: json.dumps writes it or raises as it did
        pass
    else:
        if _spelled_alike(text):
            return text
    slow = json.dumps(document, sort_keys=True, ensure_ascii=True, separators=(",", ":"))
    return slow.encode("ascii")


def _spelled_alike(text: bytes) -> bool:
    """Whether orjson's ``text`` is what json.dumps writes (see the module docstring).

    Each test is one scan in C; one regex of all of them scans ~6× slower.
    """
    return (
        text.isascii()
        and b"\x7f" not in text
        and b"null" not in text
        and b"0.0000" not in text
        and _ONE_DIGIT_EXPONENT.search(text) is None
    )


def conversation_hash(document: dict[str, Any]) -> str:
    """``sha256:`` and the hex digest of ``document``'s :func:`canonical_text`."""
    return "sha256:" + hashlib.sha256(canonical_text(document)).hexdigest()
