"""``studio proxy`` as a process: listens, forwards, records, and writes everything on Ctrl-C."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import httpx

from registry_db import RegistryStore
from registry_db.sessions import SessionStore
from tests.providers.scripted_server import Turn

from .conftest import OPENAI_KEY

ROOT = Path(__file__).resolve().parents[2]


def test_studio_proxy_command_records_and_exits_cleanly(upstream, tmp_path):
    server = upstream([Turn(text="80 per ride.")], api_key=OPENAI_KEY)
    db = tmp_path / "cli.sqlite3"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "studio.cli",
            "proxy",
            "--db",
            str(db),
            "--listen",
            "127.0.0.1:0",
            "--upstream",
            server.base_url,
            "--kind",
            "openai-chat",
            "--on-broken",
            "refuse",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert "proxy listening on http://127.0.0.1:" in line, line
        url = line.split("listening on ")[1].split()[0]
        response = httpx.post(
            url + "/v1/chat/completions",
            json={"model": "m", "messages": [{"role": "user", "content": "Taxi limit?"}]},
            headers={"Authorization": f"Bearer {OPENAI_KEY}"},
        )
        assert response.status_code == 200
        assert response.json()["choices"][0]["message"]["content"] == "80 per ride."
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    store = RegistryStore.open(db)
    try:
        [info] = SessionStore.for_store(store).list_sessions(source="proxy")
        assert info.meta["policy"] == "refuse" and info.status == "recorded"
        assert len(SessionStore.for_store(store).messages(info.id)) == 2
    finally:
        store.close()
    assert OPENAI_KEY.encode() not in b"".join(p.read_bytes() for p in tmp_path.glob("cli*"))
