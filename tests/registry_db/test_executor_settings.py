"""Executor settings per registry: stored beside the draft, never a literal credential."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from registry_db import RegistryStore
from registry_db.errors import NotFoundError, StoreError
from registry_db.executors import (
    ExecutorSettings,
    ExecutorStore,
    SecretInTargetError,
    ToolExecutor,
)
from studio.runtime.http_targets import is_secret_header

TARGET = {
    "method": "GET",
    "url": "https://api.example/tickets/{ticket_id}",
    "headers": {"Authorization": "Bearer {env:TICKETS_TOKEN}"},
}


def test_settings_round_trip_and_survive_reopening(db_path: Path, store: RegistryStore) -> None:
    store.create_registry("r")
    executors = ExecutorStore.for_store(store)
    assert executors.settings("r") == ExecutorSettings()
    executors.save_http_target(
        "r", "query_tickets", TARGET, allowed_base_urls=[" https://api.example/ ", "", "x/"]
    )
    executors.set_executor("r", "create_ticket", "mock")
    store.close()
    with RegistryStore.open(db_path) as reopened:
        settings = ExecutorStore.for_store(reopened).settings("r")
    assert settings.allowed_base_urls == ("https://api.example", "x")
    assert settings.tools == {
        "create_ticket": ToolExecutor("create_ticket", "mock", None),
        "query_tickets": ToolExecutor("query_tickets", "http", TARGET),
    }


def test_switching_back_to_mock_keeps_the_target(store: RegistryStore) -> None:
    store.create_registry("r")
    executors = ExecutorStore.for_store(store)
    executors.save_http_target("r", "t", TARGET)
    executors.set_executor("r", "t", "mock")
    assert executors.settings("r").tools["t"] == ToolExecutor("t", "mock", TARGET)
    executors.set_executor("r", "t", "http")
    assert executors.settings("r").tools["t"].http == TARGET


def test_literal_credentials_and_unknown_executors_are_refused(store: RegistryStore) -> None:
    store.create_registry("r")
    executors = ExecutorStore.for_store(store)
    bad = {**TARGET, "headers": {"X-Api-Key": "sk-live-123"}}
    with pytest.raises(SecretInTargetError, match="literal X-Api-Key value"):
        executors.save_http_target("r", "t", bad)
    with pytest.raises(StoreError, match="mock or http"):
        executors.set_executor("r", "t", "ftp")
    assert executors.settings("r") == ExecutorSettings()
    with pytest.raises(NotFoundError):
        executors.settings("missing")


def test_storage_and_runtime_agree_on_credential_headers(store: RegistryStore) -> None:
    store.create_registry("r")
    executors = ExecutorStore.for_store(store)
    for name in ("Authorization", "Proxy-Authorization", "X-Api-Key", "Api-Key", "X-Auth-Token",
                 "Cookie", "X-Client-Secret", "X-Password", "X-Tenant", "Accept"):  # fmt: skip
        target = {**TARGET, "headers": {name: "literal"}}
        if is_secret_header(name):
            with pytest.raises(SecretInTargetError):
                executors.save_http_target("r", "t", target)
        else:
            executors.save_http_target("r", "t", target)


def test_deleting_the_registry_deletes_its_settings(store: RegistryStore) -> None:
    store.create_registry("r")
    executors = ExecutorStore.for_store(store)
    executors.save_http_target("r", "t", TARGET, allowed_base_urls=["https://api.example"])
    store.delete_registry("r")
    conn = store.connection
    assert conn.execute("SELECT count(*) FROM tool_executors").fetchone()[0] == 0
    assert conn.execute("SELECT count(*) FROM executor_settings").fetchone()[0] == 0


def test_settings_are_not_part_of_a_published_version(store: RegistryStore) -> None:
    store.create_registry("r")
    before = store.publish("r")
    ExecutorStore.for_store(store).save_http_target("r", "t", TARGET)
    after = store.publish("r")
    assert before.content_hash == after.content_hash
    assert "api.example" not in json.dumps(store.load_version("r", 2).document)
