"""Soft fallback for read tools: the last successful result, clearly marked stale.

A read tool whose contract says ``execution.fallback: "last_success"`` keeps
its successful results in a small LRU cache keyed by (tool, canonical
arguments hash). When a later call with the same arguments fails with a
system error (timeout, 429, 5xx, transport or malformed body, or any error
the executor calls retryable), the cached body is returned instead of the
failure, with a ``stale`` block saying how old it is and that the live call
failed, so the model can tell the user the data may be out of date.

Never for writes: a cached "created R-55821" would report a change that did
not happen. The contract check refuses a fallback on write and destructive
tools, and :meth:`FallbackCache.recall` refuses them again.

The arguments are the prepared ones, injected identity included, so users
never share an entry; a cache lives as long as its :class:`RunConfig`.
"""

from __future__ import annotations

import re
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from studio.contract import RiskTier, ToolContract
from studio.contract.model import FALLBACK_LAST_SUCCESS
from studio.runtime.pipeline import args_hash
from studio.runtime.results import DEFAULT_MAX_RESULT_CHARS, ToolError, shape_success

DEFAULT_MAX_ENTRIES = 256

SYSTEM_ERROR_CODES = frozenset(
    {"TIMEOUT", "RATE_LIMITED", "UPSTREAM_ERROR", "TRANSPORT_ERROR", "MALFORMED_RESPONSE"}
)
"""Failures of the system rather than answers of the tool (a 404 is an answer)."""
_HTTP_5XX = re.compile(r"^HTTP_5\d\d$")


def is_system_error(error: ToolError) -> bool:
    """True for failures a stale result may stand in for."""
    if error.status:  # e.g. UNKNOWN: a write's outcome, never covered
        return False
    return error.retryable or error.code in SYSTEM_ERROR_CODES or bool(_HTTP_5XX.match(error.code))


def has_fallback(tool: ToolContract) -> bool:
    """The tool declares a soft fallback and may have one (reads only)."""
    return tool.execution.fallback == FALLBACK_LAST_SUCCESS and tool.risk is RiskTier.READ


@dataclass(frozen=True, slots=True)
class CachedResult:
    """One successful body and when it was received (``clock`` seconds)."""

    body: Any
    stored_at: float


class FallbackCache:
    """Bounded LRU of the last successful body per (tool, canonical arguments hash).

    Args:
        max_entries: Entries kept; the least recently used goes first.
        clock: Seconds now (``time.time``); tests pass their own.
    """

    def __init__(
        self, max_entries: int = DEFAULT_MAX_ENTRIES, clock: Callable[[], float] = time.time
    ) -> None:
        self.max_entries = max(1, max_entries)
        self.clock = clock
        self._entries: OrderedDict[tuple[str, str], CachedResult] = OrderedDict()

    def __len__(self) -> int:
        return len(self._entries)

    def __bool__(self) -> bool:  # an empty cache is still a cache (``cache or default``)
        return True

    @staticmethod
    def key(tool: ToolContract, arguments: Any) -> tuple[str, str]:
        return tool.name, args_hash(arguments)

    def remember(self, tool: ToolContract, arguments: Any, body: Any) -> None:
        """Keep a successful body (only for tools with a fallback)."""
        if not has_fallback(tool):
            return
        key = self.key(tool, arguments)
        self._entries[key] = CachedResult(body, self.clock())
        self._entries.move_to_end(key)
        while len(self._entries) > self.max_entries:
            self._entries.popitem(last=False)

    def lookup(self, tool: ToolContract, arguments: Any) -> CachedResult | None:
        """The cached result for these arguments when still young enough, else None."""
        key = self.key(tool, arguments)
        entry = self._entries.get(key)
        if entry is None:
            return None
        max_age = tool.execution.fallback_max_age_seconds
        if max_age is not None and self.clock() - entry.stored_at > max_age:
            del self._entries[key]
            return None
        self._entries.move_to_end(key)
        return entry

    def recall(
        self,
        tool: ToolContract,
        arguments: Any,
        error: ToolError,
        *,
        max_chars: int = DEFAULT_MAX_RESULT_CHARS,
    ) -> dict[str, Any] | None:
        """The stale result standing in for ``error``, or None (no fallback applies)."""
        if not has_fallback(tool) or not is_system_error(error):
            return None
        entry = self.lookup(tool, arguments)
        if entry is None:
            return None
        return stale_result(entry, error, self.clock(), max_chars=max_chars)


def stale_result(
    entry: CachedResult, error: ToolError, now: float, *, max_chars: int = DEFAULT_MAX_RESULT_CHARS
) -> dict[str, Any]:
    """A successful result built from ``entry``, saying it is stale, how old, and why."""
    age = max(0.0, now - entry.stored_at)
    shown = round(age, 1)
    result = dict(shape_success(entry.body, max_chars=max_chars).result)
    result["status"] = "stale"
    result["stale"] = {
        "age_seconds": shown,
        "cached_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(entry.stored_at)),
        "live_error": {"code": error.code, "message": error.message},
        "note": (
            f"STALE DATA: the live call failed ({error.code}); this is the last successful "
            f"result for the same arguments, {shown:g} s old. Tell the user it may be out of "
            "date."
        ),
    }
    return result
