"""Work cached per tool object, shared by the rules, the scores and the engine.

Lint runs many rules over the same immutable tool, and the editor re-lints
the same tool objects after every edit of another tool, so what is derived
from one tool (its rendered description, schema walks, texts, token counts,
similarity terms…) is computed once per tool object. The cache is keyed by
identity and keeps the object itself, so a recycled ``id`` never returns a
stale value; it holds at most :data:`MAX_OBJECTS` objects and then starts
afresh (a cleared cache only costs recomputation).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from studio.contract.model import ToolContract
from studio.contract.render import render_description

T = TypeVar("T")

MAX_OBJECTS = 40000
"""Objects (tools, registries) the cache keeps work for."""

_slots: dict[int, tuple[object, dict[Any, Any]]] = {}
_last: tuple[object, dict[Any, Any]] = (object(), {})
"""The entry looked up last: the rules ask for the same tool many times in a row.
(One tuple, so a reader on another thread never pairs an object with another's dict.)"""


def memo_slots(obj: object) -> dict[Any, Any]:
    """The cache dict of one object (by identity)."""
    global _last
    last = _last
    if last[0] is obj:
        return last[1]
    hit = _slots.get(id(obj))
    if hit is None or hit[0] is not obj:
        if len(_slots) >= MAX_OBJECTS:
            _slots.clear()
        hit = _slots[id(obj)] = (obj, {})
    _last = hit
    return hit[1]


def memo(obj: object, key: Any, compute: Callable[[], T]) -> T:
    """``compute()`` cached per object identity under ``key``."""
    slots = memo_slots(obj)
    try:
        return slots[key]
    except KeyError:
        value = slots[key] = compute()
        return value


def render_cached(tool: ToolContract, template: str) -> str:
    """``render_description(tool, template)``, cached per tool object (raises as it does)."""
    slots = memo_slots(tool)
    key = ("render", template)
    out = slots.get(key)
    if out is None:
        out = slots[key] = render_description(tool, template)
    return out
