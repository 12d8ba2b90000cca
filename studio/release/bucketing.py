"""Sticky bucketing of subjects into rollout percentages (DESIGN §7).

``bucket = murmur3_x86_32("{salt}:{subject}", seed 0) % 100 + 1``, and a
subject is in a channel of share ``s`` when ``bucket <= s``. This is Unleash's
normalisation, so its published vectors hold, and because the bucket does not
depend on the share, raising a share only ever adds subjects.
"""

from __future__ import annotations

from collections.abc import Iterable

import mmh3

BUCKETS = 100


def bucket(salt: str, subject: str) -> int:
    """The subject's bucket, 1–100, under ``salt``.

    Args:
        salt: The channel's salt (fixed per registry and channel).
        subject: A user or session id.

    Return:
        An integer between 1 and 100 inclusive.
    """
    return mmh3.hash(f"{salt}:{subject}", 0, signed=False) % BUCKETS + 1


def in_share(salt: str, subject: str, share: int) -> bool:
    """True when ``subject`` falls inside a ``share`` percent rollout under ``salt``."""
    if share <= 0:
        return False
    if share >= BUCKETS:
        return True
    return bucket(salt, subject) <= share


def buckets(salt: str, subjects: Iterable[str]) -> list[int]:
    """The buckets of many subjects (the simulator's and the benchmark's loop)."""
    hash_ = mmh3.hash
    prefix = f"{salt}:"
    return [hash_(prefix + s, 0, signed=False) % BUCKETS + 1 for s in subjects]
