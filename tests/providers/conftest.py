"""Fixtures for the provider tests: a recording sleep and a seeded RNG."""

from __future__ import annotations

import random

import pytest


class RecordingSleep:
    """An awaitable sleep that records the requested delays and returns at once."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


@pytest.fixture
def sleep() -> RecordingSleep:
    return RecordingSleep()


@pytest.fixture
def rng() -> random.Random:
    return random.Random(4)
