"""Retry timing shared by the providers and the runtime's executors (DESIGN §5 step 10).

Both functions are pure: the caller passes the random source and the clock,
so tests check exact values and nothing waits.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

RETRYABLE_STATUSES = frozenset({429, 500, 502, 503, 504, 529})
"""Statuses worth retrying: rate limits, server errors, Anthropic's 529 overloaded."""


def backoff_delay(attempt: int, base: float, cap: float, rng: random.Random) -> float:
    """Exponential backoff with full jitter: ``U(0, min(cap, base * 2**attempt))``.

    Args:
        attempt: 0 for the first retry, 1 for the second, …
        base: The ceiling of the first wait, in seconds.
        cap: The largest ceiling, in seconds.
        rng: The random source (inject a seeded one in tests).

    Return:
        Seconds to wait before the next attempt.
    """
    if attempt < 0:
        raise ValueError("attempt must be >= 0")
    # 2**attempt overflows float arithmetic long after the cap applies.
    ceiling = cap if attempt > 62 else min(cap, base * (2**attempt))
    return rng.uniform(0.0, max(0.0, ceiling))


def retry_after_seconds(header_value: str | None, now: datetime | None = None) -> float | None:
    """Seconds a ``Retry-After`` header asks to wait.

    Args:
        header_value: Delta seconds (``"2"``, ``"1.5"``) or an HTTP date
            (``"Wed, 21 Oct 2015 07:28:00 GMT"``).
        now: The current time for HTTP dates (defaults to the system clock).

    Return:
        Non-negative seconds, or None when the header is absent or unreadable.
    """
    if header_value is None:
        return None
    value = header_value.strip()
    if not value:
        return None
    try:
        seconds = float(value)
    except ValueError:
        pass
    else:
        if seconds != seconds or seconds in (float("inf"), float("-inf")):
            return None
        return max(0.0, seconds)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    current = now or datetime.now(UTC)
    if current.tzinfo is None:
        current = current.replace(tzinfo=UTC)
    return max(0.0, (when - current).total_seconds())
