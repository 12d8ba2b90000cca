"""Model profiles: storage in a real SQLite file, key lookup, client_for and test_connection."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterator
from contextlib import aclosing
from pathlib import Path

import keyring
import pytest
from keyring.backend import KeyringBackend
from keyring.backends.fail import Keyring as FailKeyring

from registry_db import NotFoundError, RegistryStore
from registry_db.profiles import ProfileExistsError, ProfileRepository
from studio.providers import (
    AnthropicMessagesClient,
    ModelParams,
    ModelProfile,
    ModelRequest,
    OpenAIChatClient,
    ProviderKind,
    TurnCompleted,
    client_for,
    find_api_key,
    resolve_api_key,
    store_api_key,
    test_connection,
)
from studio.sessions.model import Message, Role, TextPart
from tests.providers.scripted_server import ScriptedServer, Turn

KEY = "sk-profile-secret"


class MemoryKeyring(KeyringBackend):
    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.items: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.items.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.items[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        self.items.pop((service, username), None)


@pytest.fixture
def memory_keyring() -> Iterator[MemoryKeyring]:
    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(previous)


@pytest.fixture
def no_keyring() -> Iterator[None]:
    previous = keyring.get_keyring()
    keyring.set_keyring(FailKeyring())
    yield
    keyring.set_keyring(previous)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[RegistryStore]:
    opened = RegistryStore.open(tmp_path / "db" / "studio.sqlite3")
    yield opened
    opened.close()


def profile(name: str = "local", **fields: object) -> ModelProfile:
    values: dict[str, object] = {
        "kind": ProviderKind.OPENAI_CHAT,
        "base_url": "http://localhost:11434/v1",
        "model": "qwen3:8b",
        "api_key_env": "STUDIO_TEST_KEY",
        "params": ModelParams(
            temperature=0.1, max_tokens=300, tool_choice="auto", parallel_tool_calls=True
        ),
        "headers": {"HTTP-Referer": "https://example.test"},
    }
    values.update(fields)
    return ModelProfile(name, **values)  # type: ignore[arg-type]


# ---------------------------------------------------------------- repository


def test_profiles_crud_in_a_real_file(store: RegistryStore, tmp_path: Path) -> None:
    repo = ProfileRepository(store)
    assert repo.list_profiles() == []
    repo.add(profile("local"))
    repo.add(
        profile(
            "claude",
            kind=ProviderKind.ANTHROPIC_MESSAGES,
            base_url="https://api.anthropic.com",
            model="claude-sonnet-4-5",
            api_key_env=None,
            params=ModelParams(),
            headers={},
        )
    )
    with pytest.raises(ProfileExistsError):
        repo.add(profile("local"))
    assert [p.name for p in repo.list_profiles()] == ["claude", "local"]
    assert repo.get("local") == profile("local")
    assert repo.get("claude").api_key_env is None

    changed = profile("local", model="llama3.1", params=ModelParams(stream=False))
    repo.update(changed)
    repo.update(profile("ollama", model="llama3.1"), old_name="local")
    with pytest.raises(NotFoundError):
        repo.get("local")
    created, updated = repo.timestamps("ollama")
    assert created <= updated
    with pytest.raises(ProfileExistsError):
        repo.update(profile("claude"), old_name="ollama")
    with pytest.raises(NotFoundError):
        repo.update(profile("nobody"))

    # Another connection to the same file sees the committed rows.
    with RegistryStore.open(store.path) as other:
        assert ProfileRepository(other).get("ollama").model == "llama3.1"
    repo.delete("ollama")
    with pytest.raises(NotFoundError):
        repo.delete("ollama")
    assert [p.name for p in repo.list_profiles()] == ["claude"]


def test_the_table_has_no_place_for_a_key(store: RegistryStore) -> None:
    columns = [r[1] for r in store.connection.execute("PRAGMA table_info(model_profiles)")]
    assert columns == [
        "id",
        "name",
        "kind",
        "base_url",
        "model",
        "api_key_env",
        "params_json",
        "headers_json",
        "created_at",
        "updated_at",
    ]


def test_secret_headers_are_refused() -> None:
    with pytest.raises(ValueError, match="secret"):
        profile(headers={"Authorization": "Bearer sk-x"})
    with pytest.raises(ValueError):
        profile(base_url="localhost:11434")


def test_stored_file_never_contains_the_key(
    store: RegistryStore, monkeypatch: pytest.MonkeyPatch, memory_keyring: MemoryKeyring
) -> None:
    monkeypatch.setenv("STUDIO_TEST_KEY", KEY)
    store_api_key("kr", KEY)
    repo = ProfileRepository(store)
    repo.add(profile("local"))
    repo.add(profile("kr", api_key_env=None))
    assert resolve_api_key(repo.get("local")) == KEY
    assert resolve_api_key(repo.get("kr")) == KEY
    store.connection.execute("PRAGMA wal_checkpoint(FULL)")
    for path in store.path.parent.iterdir():
        assert KEY.encode() not in path.read_bytes()
    dump = "\n".join(sqlite3.connect(store.path).iterdump())
    assert KEY not in dump


# ---------------------------------------------------------------- keys


def test_key_from_env(monkeypatch: pytest.MonkeyPatch, no_keyring: None) -> None:
    monkeypatch.setenv("STUDIO_TEST_KEY", KEY)
    lookup = find_api_key(profile())
    assert (lookup.key, lookup.source) == (KEY, "env")
    assert KEY not in repr(lookup) and KEY not in lookup.message


def test_env_wins_over_keyring_and_keyring_is_the_fallback(
    monkeypatch: pytest.MonkeyPatch, memory_keyring: MemoryKeyring
) -> None:
    store_api_key("local", "from-keyring")
    assert memory_keyring.items == {("tool-registry-studio", "local"): "from-keyring"}
    monkeypatch.setenv("STUDIO_TEST_KEY", KEY)
    assert resolve_api_key(profile()) == KEY
    monkeypatch.delenv("STUDIO_TEST_KEY")
    assert find_api_key(profile()).source == "keyring"
    assert resolve_api_key(profile(api_key_env=None)) == "from-keyring"


def test_no_keyring_backend_gives_none_with_a_reason(
    monkeypatch: pytest.MonkeyPatch, no_keyring: None
) -> None:
    monkeypatch.delenv("STUDIO_TEST_KEY", raising=False)
    lookup = find_api_key(profile())
    assert lookup.key is None and lookup.source == "none"
    assert "$STUDIO_TEST_KEY is not set" in lookup.message
    assert "keyring is unavailable" in lookup.message


# ---------------------------------------------------------------- clients and connection


def test_client_for_picks_the_wire_format(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STUDIO_TEST_KEY", KEY)
    req = ModelRequest((Message(Role.USER, (TextPart("hi"),)),))

    async def main(p: ModelProfile) -> TurnCompleted:
        client = client_for(p)
        try:
            async with aclosing(client.stream(req)) as events:
                return [e async for e in events][-1]  # type: ignore[return-value]
        finally:
            await client.aclose()

    with ScriptedServer([Turn(text="openai"), Turn(text="anthropic")], api_key=KEY) as s:
        openai = profile(base_url=s.base_url + "/v1")
        anthropic = profile(kind=ProviderKind.ANTHROPIC_MESSAGES, base_url=s.base_url)
        assert isinstance(client_for(openai), OpenAIChatClient)
        assert isinstance(client_for(anthropic), AnthropicMessagesClient)
        assert asyncio.run(main(openai)).message.text == "openai"
        assert asyncio.run(main(anthropic)).message.text == "anthropic"
    assert s.requests[0].headers["http-referer"] == "https://example.test"
    assert s.requests[0].path == "/v1/chat/completions"
    assert s.requests[1].path == "/v1/messages"


@pytest.mark.parametrize("kind", list(ProviderKind))
def test_test_connection(kind: ProviderKind, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STUDIO_TEST_KEY", KEY)
    with ScriptedServer([], api_key=KEY, models=["qwen3:8b", "other"]) as s:
        base = s.base_url + ("/v1" if kind is ProviderKind.OPENAI_CHAT else "")
        good = asyncio.run(test_connection(profile(kind=kind, base_url=base)))
        missing = asyncio.run(test_connection(profile(kind=kind, base_url=base, model="nope")))
        monkeypatch.setenv("STUDIO_TEST_KEY", "wrong")
        refused = asyncio.run(test_connection(profile(kind=kind, base_url=base)))
        monkeypatch.delenv("STUDIO_TEST_KEY")
        keyless = asyncio.run(test_connection(profile(kind=kind, base_url=base)))
        url = s.base_url
    assert good.ok and good.models == ("qwen3:8b", "other") and good.latency_ms is not None
    assert "is available" in good.message
    assert missing.ok and "not among the 2 models" in missing.message
    assert not refused.ok and refused.message.startswith("401 ")
    assert not keyless.ok and "STUDIO_TEST_KEY is not set" in keyless.message
    assert all(r.turn is None for r in s.requests)  # no tokens spent
    unreachable = asyncio.run(test_connection(profile(kind=kind, base_url=url), timeout=2))
    assert not unreachable.ok and "cannot reach" in unreachable.message
