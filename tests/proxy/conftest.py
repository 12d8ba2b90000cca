"""A real proxy (uvicorn on 127.0.0.1, ephemeral port) in front of a scripted model API."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from registry_db import RegistryStore
from registry_db.sessions import SessionStore
from studio.proxy import Kind, OnBroken, ProxyConfig, ProxyThread, RegistryTarget
from tests.providers.scripted_server import ScriptedServer, Turn

OPENAI_KEY = "sk-proj-PROXYtestKEY0123456789abcdefXYZ"
ANTHROPIC_KEY = "sk-ant-api03-PROXYtestKEY0123456789abcdefXYZ"


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "proxy.sqlite3"


@pytest.fixture
def store(db_path: Path) -> Iterator[RegistryStore]:
    opened = RegistryStore.open(db_path)
    yield opened
    opened.close()


@pytest.fixture
def sessions(store: RegistryStore) -> SessionStore:
    return SessionStore.for_store(store)


Upstream = Callable[..., ScriptedServer]
Proxy = Callable[..., ProxyThread]


@pytest.fixture
def upstream() -> Iterator[Upstream]:
    """``upstream(turns, **options)``: a started scripted server, stopped after the test."""
    started: list[ScriptedServer] = []

    def make(turns: list[Turn], **options: object) -> ScriptedServer:
        server = ScriptedServer(turns, **options).start()  # type: ignore[arg-type]
        started.append(server)
        return server

    yield make
    for server in started:
        server.stop()


@pytest.fixture
def proxy(store: RegistryStore) -> Iterator[Proxy]:
    """``proxy(server, kind, on_broken=..., registry=...)``: a started proxy in front of it."""
    started: list[ProxyThread] = []

    def make(
        server: ScriptedServer,
        kind: Kind,
        on_broken: OnBroken = OnBroken.FORWARD,
        registry: RegistryTarget | None = None,
        record: bool = True,
    ) -> ProxyThread:
        thread = ProxyThread(
            ProxyConfig(server.base_url, kind, on_broken),
            store if record else None,
            registry=registry,
        ).start()
        started.append(thread)
        return thread

    yield make
    for thread in started:
        thread.stop()
