"""The resolve fast path's channel plan picks what ``choose_channel`` picks, for any state."""

from __future__ import annotations

import random
from dataclasses import dataclass

from registry_db.channels import STABLE
from studio.release.channels import choose_channel
from studio.server.fast_resolve import ChannelPlan


@dataclass(frozen=True)
class _Channel:
    name: str
    version: int | None
    share: int
    salt: str


def _states(rng: random.Random, count: int) -> list[list[_Channel]]:
    states = []
    for _ in range(count):
        channels = [_Channel(STABLE, rng.choice([None, 1, 2]), 100, "s")]
        for i in range(rng.randint(0, 3)):
            channels.append(_Channel(f"live{i}", rng.choice([None, 2, 3, 4]),
                                     rng.choice([-5, 0, 1, 10, 50, 99, 100, 150]),
                                     f"{rng.getrandbits(32):08x}"))  # fmt: skip
        states.append(channels)
    return states


def test_the_plan_chooses_as_choose_channel_does() -> None:
    rng = random.Random(16)
    subjects = [None, "", "user-1", "含 空格", "x" * 256] + [f"u{i}" for i in range(200)]
    for channels in _states(rng, 200):
        plan = ChannelPlan.build(channels)
        for subject in subjects:
            name = choose_channel(channels, subject)
            version = next(c.version for c in channels if c.name == name)
            assert plan.choose(subject) == (name, version), (channels, subject)
