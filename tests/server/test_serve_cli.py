"""`studio serve --port 0` in a subprocess prints its real URL and serves it."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from pathlib import Path

import httpx

from registry_db import RegistryStore
from registry_db.sessions import SessionStore

from .conftest import REGISTRY, publish_versions


def _start(args: list[str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "studio.cli", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
    )


def test_serve_port_zero_prints_the_real_url(tmp_path: Path) -> None:
    db = tmp_path / "serve.sqlite3"
    with RegistryStore.open(db) as store:
        publish_versions(store, REGISTRY, 2)
    token_file = tmp_path / "token"
    token_file.write_text("tok-123\n")
    proc = _start(["serve", "--db", str(db), "--port", "0", "--token-file", str(token_file)])
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)", line)
        assert match, line
        assert int(match.group(1)) > 0
        url = match.group(0)
        with httpx.Client(base_url=url, timeout=10) as http:
            assert http.get("/healthz").json() == {"status": "ok"}
            assert http.get(f"/v1/registries/{REGISTRY}/resolve").json()["version"] == 2
            posted = http.post(
                "/v1/outcomes",
                json={"registry": REGISTRY, "version": 2, "tool": "search_policy", "status": "ok"},
                headers={"Authorization": "Bearer tok-123"},
            )
            assert posted.status_code == 201
    finally:
        proc.terminate()
        proc.wait(timeout=15)
    # uvicorn shuts down gracefully, then re-raises SIGTERM (the conventional exit status).
    assert proc.returncode in (0, -signal.SIGTERM)
    with RegistryStore.open(db) as store:
        assert len(SessionStore.for_store(store).outcomes(REGISTRY)) == 1


def test_serve_bad_input_exits_2(tmp_path: Path) -> None:
    db = tmp_path / "serve.sqlite3"
    for args, message in (
        (["--port", "70000"], "--port must be between"),
        (["--token-file", str(tmp_path / "missing")], "cannot read the token file"),
    ):
        proc = _start(["serve", "--db", str(db), *args])
        _, err = proc.communicate(timeout=30)
        assert proc.returncode == 2
        assert message in err
