"""Exact token counts cached on disk: the tokenizer loads only for a missing count."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from studio.contract import token_cache, token_count
from studio.contract.token_cache import TokenCache, digest
from studio.contract.token_count import (
    ESTIMATE,
    cached_token_counter,
    cached_token_method,
    count_tokens,
    flush_token_cache,
)
from studio.contract.tokens import estimate_tokens

TEXTS = ["hello world", "差旅报销助手：查询发票 INV-102。", '{"type":"object"}', ""]


@pytest.fixture
def cache_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "cache" / "tokens.sqlite3"
    monkeypatch.setenv(token_cache.ENV_VAR, str(path))
    return path


@pytest.fixture
def fresh_process(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """A process that has not loaded the tokenizer; the list records every load."""
    pytest.importorskip("bpe_openai")
    real = token_count._load_encoding
    loads: list[str] = []

    def load(encoding: str):
        loads.append(encoding)
        return real(encoding)

    monkeypatch.setattr(token_count, "_load_encoding", load)
    monkeypatch.setattr(token_count, "_counters", {})
    return loads


def test_cache_round_trip(tmp_path: Path) -> None:
    cache = TokenCache(tmp_path / "a" / "t.sqlite3")
    key = digest("hello")
    assert cache.get("o200k_base", key) is None
    cache.put("o200k_base", key, 1)
    assert cache.get("o200k_base", key) == 1  # before the flush
    cache.close()
    again = TokenCache(tmp_path / "a" / "t.sqlite3")
    assert again.get("o200k_base", key) == 1
    assert again.get("cl100k_base", key) is None  # keyed by encoding too
    again.close()


def test_an_unusable_file_only_costs_recounting(tmp_path: Path) -> None:
    folder = tmp_path / "dir.sqlite3"
    folder.mkdir()  # a directory where the file should be
    cache = TokenCache(folder)
    cache.put("o200k_base", digest("x"), 3)
    cache.flush()
    assert cache.get("o200k_base", digest("x")) is None
    not_sqlite = tmp_path / "junk.sqlite3"
    not_sqlite.write_bytes(b"not a database" * 100)
    cache = TokenCache(not_sqlite)
    assert cache.get("o200k_base", digest("x")) is None


def test_a_second_process_counts_without_loading_the_tokenizer(
    cache_file: Path, fresh_process: list[str]
) -> None:
    count, method = cached_token_counter("openai")
    assert method == "o200k_base" and fresh_process == []  # nothing loaded to say so
    first = [count(t) for t in TEXTS]
    assert fresh_process == ["o200k_base"]  # loaded for the missing counts
    flush_token_cache()
    assert first == [count_tokens(t, "openai") for t in TEXTS]

    token_count._counters.clear()  # as a new process: counts come from the file
    fresh_process.clear()
    count, method = cached_token_counter("openai")
    assert method == "o200k_base"
    assert [count(t) for t in TEXTS] == first
    assert fresh_process == []
    rows = sqlite3.connect(cache_file).execute("SELECT count(*) FROM token_counts").fetchone()
    assert rows == (3,)  # the empty text is not stored


def test_a_missing_count_loads_the_tokenizer(cache_file: Path, fresh_process: list[str]) -> None:
    count, _method = cached_token_counter("openai")
    count("hello world")
    flush_token_cache()
    token_count._counters.clear()
    fresh_process.clear()
    count, _method = cached_token_counter("openai")
    assert count("hello world") == count_tokens("hello world", "openai")
    assert fresh_process == ["o200k_base"]  # count_tokens loaded it, the cache did not
    token_count._counters.clear()
    fresh_process.clear()
    count, _method = cached_token_counter("openai")
    count("a text never counted before")
    assert fresh_process == ["o200k_base"]


def test_off_means_the_plain_counter(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(token_cache.ENV_VAR, "off")
    assert token_cache.shared_cache() is None
    assert cached_token_counter("openai") == token_count.token_counter("openai")


@pytest.mark.parametrize("target", ["anthropic", "gemini", "mcp", None])
def test_estimated_targets_never_touch_the_cache(cache_file: Path, target: str | None) -> None:
    assert cached_token_counter(target) == (estimate_tokens, ESTIMATE)
    assert not cache_file.exists()


def test_without_a_tokenizer_the_cache_is_not_used(
    cache_file: Path, estimated_tokens: None
) -> None:
    assert cached_token_method("openai") == ESTIMATE
    count, _method = cached_token_counter("openai")
    assert count("hello world") == estimate_tokens("hello world")
    flush_token_cache()
    assert not cache_file.exists()


def test_a_stand_in_tokenizer_is_never_stored(
    cache_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(token_count, "_load_encoding", lambda encoding: lambda text: 4242)
    monkeypatch.setattr(token_count, "_counters", {})
    assert token_count.token_method("openai") == "o200k_base"
    count, _method = cached_token_counter("openai")
    assert count("hello world") == 4242
    flush_token_cache()
    assert not cache_file.exists()
