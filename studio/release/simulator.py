"""Rollout simulator: who lands where for a set of subjects, and the split.

Uses the same channel choice as serving, so what the simulator shows is what
the resolve endpoint will do for those subjects.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from studio.release.bucketing import bucket
from studio.release.channels import ChannelLike, choose_channel

_SEPARATORS = re.compile(r"[\s,;]+")


@dataclass(frozen=True, slots=True)
class Assignment:
    """One subject's landing: its bucket per channel salt and the channel chosen."""

    subject: str
    bucket: int
    """The bucket under the first non-stable channel's salt (0 when there is none)."""
    channel: str
    version: int | None


@dataclass(frozen=True, slots=True)
class Simulation:
    """The result of a simulation.

    Attributes:
        assignments: One per subject, in input order.
        split: Subjects per channel name (every channel listed, zeros included).
    """

    assignments: list[Assignment]
    split: dict[str, int]

    @property
    def total(self) -> int:
        """How many subjects were simulated."""
        return len(self.assignments)

    def percent(self, channel: str) -> float:
        """The share of subjects that landed on ``channel``, in percent."""
        return 100.0 * self.split.get(channel, 0) / self.total if self.total else 0.0


def parse_subjects(text: str) -> list[str]:
    """Subject ids pasted one per line or separated by commas, semicolons or spaces.

    Duplicates are kept once, in first-seen order.
    """
    seen: dict[str, None] = {}
    for token in _SEPARATORS.split(text):
        if token:
            seen.setdefault(token, None)
    return list(seen)


def generate_subjects(count: int, *, prefix: str = "user-", seed: int | None = None) -> list[str]:
    """``count`` distinct synthetic subject ids (random unless ``seed`` is given)."""
    if count < 0:
        raise ValueError("count must not be negative")
    rng = random.Random(seed)
    return [f"{prefix}{rng.getrandbits(48):012x}" for _ in range(count)]


def simulate(channels: Sequence[ChannelLike], subjects: Iterable[str]) -> Simulation:
    """Assign each subject to a channel as serving would.

    Args:
        channels: The channels (stable first), e.g. ``release_state(...).channels``
            or a changed copy to preview a share before setting it.
        subjects: Subject ids.

    Return:
        Per-subject assignments and the split per channel.
    """
    versions = {c.name: c.version for c in channels}
    first = next((c for c in channels if c.name != "stable"), None)
    assignments = []
    for subject in subjects:
        name = choose_channel(channels, subject)
        shown = bucket(first.salt, subject) if first is not None else 0
        assignments.append(Assignment(subject, shown, name, versions.get(name)))
    counts = Counter(a.channel for a in assignments)
    return Simulation(assignments, {c.name: counts.get(c.name, 0) for c in channels})
