"""The pure retry timing functions."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest

from studio.providers.retry import backoff_delay, retry_after_seconds


@pytest.mark.parametrize("attempt", range(12))
def test_backoff_stays_within_full_jitter_bounds(attempt: int) -> None:
    rng = random.Random(attempt)
    ceiling = min(8.0, 0.25 * 2**attempt)
    delays = [backoff_delay(attempt, 0.25, 8.0, rng) for _ in range(500)]
    assert all(0.0 <= d <= ceiling for d in delays)
    # Full jitter spreads over the whole range, not just near the ceiling.
    assert min(delays) < ceiling * 0.1 and max(delays) > ceiling * 0.9


def test_backoff_is_reproducible_and_capped() -> None:
    assert backoff_delay(3, 1.0, 5.0, random.Random(7)) == backoff_delay(
        3, 1.0, 5.0, random.Random(7)
    )
    assert backoff_delay(10_000, 1.0, 5.0, random.Random(1)) <= 5.0
    with pytest.raises(ValueError):
        backoff_delay(-1, 1.0, 5.0, random.Random())


class _Top(random.Random):
    def uniform(self, a: float, b: float) -> float:
        return b


def test_backoff_ceiling_doubles_until_the_cap() -> None:
    assert [backoff_delay(n, 0.5, 3.0, _Top()) for n in range(5)] == [0.5, 1.0, 2.0, 3.0, 3.0]


NOW = datetime(2025, 5, 1, 9, 30, tzinfo=UTC)


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("7", 7.0),
        (" 1.5 ", 1.5),
        ("0", 0.0),
        ("-3", 0.0),
        (format_datetime(NOW + timedelta(seconds=42), usegmt=True), 42.0),
        (format_datetime(NOW - timedelta(seconds=42), usegmt=True), 0.0),
        ("Thu, 01 May 2025 09:31:00 GMT", 60.0),
        (None, None),
        ("", None),
        ("soon", None),
        ("nan", None),
    ],
)
def test_retry_after_seconds(header: str | None, expected: float | None) -> None:
    assert retry_after_seconds(header, NOW) == expected
