"""A real uvicorn server on 127.0.0.1 with an ephemeral port, over a real SQLite file."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from registry_db import RegistryStore
from studio.release import set_canary
from studio.server import ServerThread

_spec = importlib.util.spec_from_file_location(
    "release_conftest", Path(__file__).parent.parent / "release" / "conftest.py"
)
assert _spec and _spec.loader
_release = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_release)

REGISTRY = _release.REGISTRY
TOKEN = "s3cret-token"
publish_versions = _release.publish_versions


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "serve.sqlite3"


@pytest.fixture
def store(db_path: Path) -> Iterator[RegistryStore]:
    """Three published versions; stable 2, canary 3 at 30 %."""
    opened = RegistryStore.open(db_path)
    publish_versions(opened, REGISTRY, 3)
    set_canary(opened, REGISTRY, version=3, share=30, who="test")
    yield opened
    opened.close()


def _serve(store: RegistryStore, token: str | None) -> Iterator[ServerThread]:
    server = ServerThread(store, token=token).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def server(store: RegistryStore) -> Iterator[ServerThread]:
    yield from _serve(store, TOKEN)


@pytest.fixture
def tokenless_server(store: RegistryStore) -> Iterator[ServerThread]:
    yield from _serve(store, None)


@pytest.fixture
def http(server: ServerThread) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=10) as client:
        yield client
