"""Token counts of many texts at once: the same counts, stored ones read in a few queries."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.contract import token_cache, token_count
from studio.contract.token_cache import TokenCache, digest
from studio.contract.token_count import cached_token_counter, count_all, flush_token_cache

TEXTS = ["hello world", "差旅报销助手：查询发票 INV-102。", '{"type":"object"}', "", "hello world"]


def test_get_many_reads_stored_and_pending_counts(tmp_path: Path) -> None:
    cache = TokenCache(tmp_path / "t.sqlite3")
    stored, pending, missing = digest("a"), digest("b"), digest("c")
    cache.put("o200k_base", stored, 1)
    cache.flush()
    cache.put("o200k_base", pending, 2)
    keys = [stored, pending, missing, stored] + [digest(str(i)) for i in range(1200)]
    assert cache.get_many("o200k_base", keys) == {stored: 1, pending: 2}
    assert cache.get_many("cl100k_base", [stored]) == {}
    cache.close()


def test_get_many_of_an_unusable_file_is_empty(tmp_path: Path) -> None:
    folder = tmp_path / "dir.sqlite3"
    folder.mkdir()
    assert TokenCache(folder).get_many("o200k_base", [digest("x")]) == {}


@pytest.mark.parametrize("profile", ["openai", "anthropic", None])
def test_count_all_counts_as_the_counter_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, profile: str | None
) -> None:
    monkeypatch.setenv(token_cache.ENV_VAR, str(tmp_path / "tokens.sqlite3"))
    count, method = cached_token_counter(profile)
    half = [count(t) for t in TEXTS[:2]]  # some counts stored, the others missing
    flush_token_cache()
    counts, how = count_all(profile, TEXTS)
    assert how == method
    assert counts[:2] == half
    assert counts == [count(t) for t in TEXTS]


def test_count_all_reads_the_file_in_one_query(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("bpe_openai")
    monkeypatch.setenv(token_cache.ENV_VAR, str(tmp_path / "tokens.sqlite3"))
    count, _method = cached_token_counter("openai")
    expected = [count(t) for t in TEXTS]
    flush_token_cache()
    asked: list[bytes] = []
    monkeypatch.setattr(
        TokenCache,
        "get",
        lambda self, encoding, key: asked.append(key),  # type: ignore[misc]
    )
    monkeypatch.setattr(token_count, "_exact_counter", lambda encoding: pytest.fail("loaded"))
    assert count_all("openai", TEXTS)[0] == expected
    assert asked == []
