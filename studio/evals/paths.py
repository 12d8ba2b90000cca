"""JSON paths into tool arguments: ``invoice_ids[0]``, ``$.filters.category``, ``["客户 编号"]``.

The subset every matcher needs: an optional leading ``$``, keys (``.name`` or
``["any key"]``) and array indexes (``[0]``). Paths are written as
:func:`studio.contract.join_path` writes them, so a problem's path and a
matcher's path read the same.
"""

from __future__ import annotations

import json
import re
from typing import Any

_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")
_MISSING: Any = object()


class PathError(ValueError):
    """A matcher path that does not parse."""


def parse_path(path: str) -> tuple[str | int, ...]:
    """The steps of ``path`` (keys are strings, indexes ints); :class:`PathError` when malformed."""
    text = path[1:] if path.startswith("$") else path
    steps: list[str | int] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == ".":
            i += 1
            m = _KEY.match(text, i)
            if m is None:
                raise PathError(f"expected a key after '.' at character {i + (path != text)}")
            steps.append(m.group())
            i = m.end()
        elif ch == "[":
            end = text.find("]", i)
            if text.startswith('["', i):
                try:
                    key, length = json.JSONDecoder().raw_decode(text, i + 1)
                except ValueError:
                    raise PathError("a quoted key must be a JSON string") from None
                if not isinstance(key, str) or not text.startswith("]", length):
                    raise PathError("a quoted key must be closed with ']'")
                steps.append(key)
                i = length + 1
            elif end > i and text[i + 1 : end].isdigit():
                steps.append(int(text[i + 1 : end]))
                i = end + 1
            else:
                raise PathError('brackets hold an index [0] or a quoted key ["name"]')
        elif not steps and i == 0:
            m = _KEY.match(text, 0)
            if m is None:
                raise PathError("a path starts with a key, '$', '.' or '['")
            steps.append(m.group())
            i = m.end()
        else:
            raise PathError(f"unexpected {ch!r} at character {i + (path != text)}")
    if not steps:
        raise PathError("the path names nothing; matchers apply to an argument")
    return tuple(steps)


def lookup(document: Any, steps: tuple[str | int, ...]) -> tuple[bool, Any]:
    """``(True, value)`` at ``steps`` in ``document``, or ``(False, None)`` when absent."""
    current = document
    for step in steps:
        if isinstance(step, int):
            if not isinstance(current, list) or step >= len(current):
                return False, None
            current = current[step]
        else:
            if not isinstance(current, dict) or step not in current:
                return False, None
            current = current[step]
    return True, current
