"""A process killed in the middle of saving or publishing leaves a consistent database.

A child process (crash_child.py) saves multi-tool drafts and publishes in a
loop; the parent kills it with SIGKILL at random moments, then checks that
every change was applied entirely or not at all.
"""

from __future__ import annotations

import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from registry_db import RegistryStore

CHILD = Path(__file__).with_name("crash_child.py")
REGISTRY = "crash"
TOOL_COUNT = 40  # crash_child.TOOL_COUNT
ROUNDS = 8


def _run_and_kill(db_path: Path, seed: int, delay: float, cwd: Path) -> None:
    child = subprocess.Popen(
        [sys.executable, str(CHILD), str(db_path), str(seed)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=cwd,
    )
    try:
        assert child.stdout is not None
        line = child.stdout.readline()
        assert line == "ready\n", child.stderr.read() if child.stderr else line
        time.sleep(delay)
        assert child.poll() is None, child.stderr.read() if child.stderr else "child exited"
        child.send_signal(signal.SIGKILL)
    finally:
        child.kill()
        child.wait(timeout=5)
        for stream in (child.stdout, child.stderr):
            if stream is not None:
                stream.close()


def _check_consistent(db_path: Path) -> tuple[int, int]:
    """Assert every invariant; return (draft revision, version count)."""
    raw = sqlite3.connect(db_path)
    try:
        assert raw.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert raw.execute("PRAGMA foreign_key_check").fetchall() == []
    finally:
        raw.close()
    with RegistryStore.open(db_path) as store:
        info = store.get_registry(REGISTRY)
        drafts = store.draft_tools(REGISTRY)
        assert len(drafts) in (0, TOOL_COUNT)  # 0 only before the first change
        assert [d.position for d in drafts] == list(range(len(drafts)))
        assert {d.tool.title for d in drafts} <= {f"m{info.draft_revision}"}
        assert all(d.revision <= info.draft_revision for d in drafts)
        versions = store.list_versions(REGISTRY)
        assert [v.number for v in versions] == list(range(1, len(versions) + 1))
        assert [v.parent_number for v in versions] == [None, *range(1, len(versions))]
        for info_ in versions:
            version = store.load_version(REGISTRY, info_.number)  # verifies the hash
            tools = version.document["tools"]
            assert info_.tool_count == len(tools) == len(version.registry.tools)
            assert len({t["title"] for t in tools}) <= 1
    return info.draft_revision, len(versions)


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX SIGKILL")
def test_killed_writer_leaves_database_consistent(tmp_path: Path) -> None:
    db_path = tmp_path / "crash.sqlite3"
    with RegistryStore.open(db_path) as store:
        store.create_registry(REGISTRY)
    rng = random.Random(20250501)
    started = time.monotonic()
    revisions = []
    for round_ in range(ROUNDS):
        _run_and_kill(db_path, seed=round_ + 1, delay=rng.uniform(0.05, 0.6), cwd=tmp_path)
        revision, version_count = _check_consistent(db_path)
        revisions.append(revision)
    assert revisions == sorted(revisions)
    # The child must have done real work for the test to mean anything.
    assert revisions[-1] > ROUNDS and version_count > 0
    assert time.monotonic() - started < 15
