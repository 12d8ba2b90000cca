"""A tampered stored version is refused by the server with the storage message (issue #10)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import httpx
import pytest

from .conftest import REGISTRY

V = f"/v1/registries/{REGISTRY}"


@pytest.mark.parametrize(
    ("sql", "params"),
    [
        ("document = ?", ("[" * 100_000 + "]" * 100_000,)),
        ("document = CAST(? AS TEXT)", (b'{"name":"\xff"}',)),
        ("author = 'mallory'", ()),
    ],
    ids=["deeply-nested", "not-utf-8", "metadata"],
)
def test_a_tampered_stable_version_is_refused_not_served(
    http: httpx.Client, db_path: Path, sql: str, params: tuple[object, ...]
) -> None:
    raw = sqlite3.connect(db_path)
    with raw:
        raw.execute("DROP TRIGGER versions_no_update")
        raw.execute(f"UPDATE versions SET {sql} WHERE number = 2", params)  # stable
    raw.close()
    for path in (f"{V}/resolve", f"{V}/snapshot", f"{V}/versions/2"):
        response = http.get(path)
        assert response.status_code == 500, (path, response.text)
        message = response.json()["error"]["message"]
        assert message.startswith(f"storage error: version 2 of {REGISTRY} failed its hash check")
        assert "tools" not in response.json()
    assert http.get(f"{V}/versions/3").status_code == 200  # the intact canary still serves
