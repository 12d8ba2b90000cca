"""How big a parsed value is as a tree, counted without recursion and with a stop.

YAML aliases (and inlined ``$ref`` s) let a small text stand for a huge tree:
each shared part counts again every time it is reached. A reader that walks
such a value must know before it walks it that the walk ends in reasonable
time; :func:`grows_past` answers that, stopping as soon as the limit is passed.
"""

from __future__ import annotations

from typing import Any


def grows_past(value: Any, limit: int, *, count_keys: bool = False) -> bool:
    """True when walking ``value`` as a tree visits more than ``limit`` values.

    Objects, arrays (lists, tuples, sets) and scalars count one each; with
    ``count_keys`` an object's keys count too (YAML keys may be aliases).
    """
    stack = [value]
    seen = 0
    while stack:
        item = stack.pop()
        seen += 1
        if seen > limit:
            return True
        if isinstance(item, dict):
            if count_keys:
                stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple | set):
            stack.extend(item)
    return False
