"""Sticky bucketing (DESIGN §7): Unleash vectors, range, stickiness, monotonic growth."""

from __future__ import annotations

import subprocess
import sys

from hypothesis import given
from hypothesis import strategies as st

from studio.release import bucket, buckets, in_share


def test_unleash_vectors() -> None:
    # Unleash normalisation: murmur3_x86_32("{group}:{id}", 0) % 100 + 1.
    assert bucket("gr1", "123") == 73
    assert bucket("groupX", "999") == 25


def test_many_buckets_equal_single_buckets() -> None:
    subjects = [f"user-{i}" for i in range(500)]
    assert buckets("salt", subjects) == [bucket("salt", s) for s in subjects]


@given(st.text(max_size=20), st.text(max_size=40))
def test_bucket_is_between_1_and_100(salt: str, subject: str) -> None:
    assert 1 <= bucket(salt, subject) <= 100


def test_share_bounds() -> None:
    assert not any(in_share("s", f"u{i}", 0) for i in range(200))
    assert all(in_share("s", f"u{i}", 100) for i in range(200))


def test_same_bucket_in_another_process() -> None:
    subjects = [f"user-{i}" for i in range(50)] + ["", "用户-七", "emoji-🙂"]
    code = (
        "import json, sys\n"
        "from studio.release.bucketing import bucket\n"
        "print(json.dumps([bucket('abc123', s) for s in json.loads(sys.stdin.read())]))\n"
    )
    import json

    out = subprocess.run(
        [sys.executable, "-c", code],
        input=json.dumps(subjects),
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(out.stdout) == [bucket("abc123", s) for s in subjects]


@given(
    st.text(min_size=1, max_size=16),
    st.lists(st.text(min_size=1, max_size=24), min_size=1, max_size=60, unique=True),
    st.integers(0, 100),
    st.integers(0, 100),
)
def test_raising_the_share_only_adds_subjects(
    salt: str, subjects: list[str], low: int, high: int
) -> None:
    low, high = sorted((low, high))
    before = {s for s in subjects if in_share(salt, s, low)}
    after = {s for s in subjects if in_share(salt, s, high)}
    assert before <= after


def test_split_is_close_to_the_share() -> None:
    subjects = [f"session-{i}" for i in range(20_000)]
    inside = sum(in_share("canary-salt", s, 10) for s in subjects)
    assert 0.09 < inside / len(subjects) < 0.11
