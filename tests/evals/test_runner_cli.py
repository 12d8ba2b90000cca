"""``studio eval run`` as a user runs it: progress, summary, a killed run resumed, a missing key."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from registry_db import RegistryStore, seed_examples
from registry_db.profiles import ProfileRepository
from studio.cli import main
from studio.evals.runs import load_attempts
from studio.providers import ModelProfile, ProviderKind
from tests.evals.loopback_model import Behaviour, LoopbackModel
from tests.evals.test_runner import REGISTRY

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def server() -> Iterator[LoopbackModel]:
    with LoopbackModel(Behaviour(delay_ms=15)) as model:
        yield model


@pytest.fixture
def db(tmp_path: Path, server: LoopbackModel) -> Path:
    path = tmp_path / "studio.sqlite3"
    with RegistryStore.open(path) as store:
        seed_examples(store)  # version 1 is the example's flawed original
        profiles = ProfileRepository(store)
        profiles.add(ModelProfile("loop", ProviderKind.OPENAI_CHAT, server.base_url, "m",
                                  "OPENAI_API_KEY"))  # fmt: skip
        profiles.add(ModelProfile("claude", ProviderKind.ANTHROPIC_MESSAGES, server.base_url,
                                  "m", "ANTHROPIC_API_KEY"))  # fmt: skip
    return path


def _cli(db: Path, *argv: str) -> list[str]:
    return [sys.executable, "-m", "studio.cli", "--db", str(db), "eval", "run", REGISTRY, "core",
            *argv]  # fmt: skip


def _stored(db: Path, run_id: str) -> int:
    conn = sqlite3.connect(db, timeout=5)
    try:
        (n,) = conn.execute(
            "SELECT count(*) FROM eval_attempts WHERE run_id = ? AND status = 'scored'", (run_id,)
        ).fetchone()
    except sqlite3.OperationalError:  # not created yet
        n = 0
    finally:
        conn.close()
    return int(n)


def test_a_killed_run_resumes_without_sending_twice(db: Path, server: LoopbackModel) -> None:
    env = {**os.environ, "OPENAI_API_KEY": "sk-loop", "PYTHONPATH": str(ROOT)}
    argv = _cli(db, "--a", "1", "--b", "draft", "--profile", "loop", "--concurrency", "2",
                "--run-id", "killed", "--no-cache", "--quiet")  # fmt: skip
    child = subprocess.Popen(argv, env=env, cwd=ROOT, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)  # fmt: skip
    deadline = time.monotonic() + 60
    while _stored(db, "killed") < 30 and time.monotonic() < deadline and child.poll() is None:
        time.sleep(0.02)
    child.send_signal(signal.SIGKILL)
    child.communicate()
    kept = _stored(db, "killed")
    sent_before = len(server.received)
    assert 30 <= kept < 134, f"the run was not killed half-way ({kept} stored)"
    # Only what was in flight or not yet written (a flush is every 0.1 s) was lost, and will
    # be sent again; a busy machine may delay the last flush, hence the margin.
    assert sent_before - kept <= 40, (sent_before, kept)

    done = subprocess.run(argv, env=env, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    sent_after = len(server.received) - sent_before
    assert sent_after == 134 - kept, (sent_after, kept)  # nothing stored was asked again
    assert f"{kept} attempts kept from before" in done.stdout
    with RegistryStore.open(db) as store:
        attempts = load_attempts(store, "killed")
    assert len(attempts) == 134 and len({a.key for a in attempts}) == 134
    assert all(a.status == "scored" for a in attempts)


def test_run_prints_progress_and_the_selection_table(
    db: Path, server: LoopbackModel, capsys: pytest.CaptureFixture[str], monkeypatch
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "k")
    argv = ["--db", str(db), "eval", "run", REGISTRY, "core", "--a", "1.0.0", "--b", "draft",
            "--profile", "claude", "--concurrency", "8", "--run-id", "cli"]  # fmt: skip
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert "134/134 attempts: 134 scored" in err
    assert "run cli: done" in out
    rows = {line.split("\t")[0]: line.split("\t") for line in out.splitlines() if "\t" in line}
    a, b = rows[f"{REGISTRY}@1"], rows[f"{REGISTRY}@draft"]
    assert int(a[2].rstrip(" %")) + 10 <= int(b[2].rstrip(" %"))  # selection: B wins
    # Again: every answer comes from the cache.
    assert main([*argv[:-2], "--run-id", "again", "--json", "--quiet"]) == 0
    out, err = capsys.readouterr()
    assert '"requests": 0' in out and '"cached": 134' in out and err == ""


def test_bad_input_is_one_line(db: Path, capsys: pytest.CaptureFixture[str], monkeypatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    base = ["--db", str(db), "eval", "run", REGISTRY, "core", "--profile", "loop"]
    for extra, message in (
        (["--a", "draft"], "OPENAI_API_KEY is not set"),
        (["--a", "7"], "has no version 7"),
        (["--a", "draft", "--b", "draft"], "both name"),
        (["--a", "draft", "--repeat", "0"], "--repeat must be at least 1"),
        (["--a", "#canary"], "serves no version"),
    ):
        assert main([*base, *extra]) == 2
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert main([*base[:-1], "nobody", "--a", "draft"]) == 2
    assert "nobody" in capsys.readouterr().err


def test_multi_step_from_the_cli(db: Path, capsys: pytest.CaptureFixture[str], monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    argv = ["--db", str(db), "eval", "run", REGISTRY, "core", "--a", "draft", "--profile", "loop",
            "--multi-step", "--concurrency", "8", "--budget-requests", "40", "--quiet"]  # fmt: skip
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "end-to-end" in out.splitlines()[1] and "budget of 40 requests reached" in out


def test_ctrl_c_cancels_and_says_how_to_resume(db: Path, server: LoopbackModel) -> None:
    env = {**os.environ, "OPENAI_API_KEY": "sk-loop", "PYTHONPATH": str(ROOT)}
    argv = _cli(db, "--a", "draft", "--profile", "loop", "--run-id", "int", "--quiet")
    child = subprocess.Popen(argv, env=env, cwd=ROOT, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)  # fmt: skip
    deadline = time.monotonic() + 60
    while _stored(db, "int") < 5 and time.monotonic() < deadline and child.poll() is None:
        time.sleep(0.02)
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=60)
    assert child.returncode == 130, err
    assert "cancelled; run the same --run-id int to resume" in err and "Traceback" not in err
    kept = _stored(db, "int")
    done = subprocess.run(argv, env=env, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and f"{kept} attempts kept from before" in done.stdout
