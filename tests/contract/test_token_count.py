"""Token counts per target: exact o200k_base for OpenAI with bpe-openai, else the estimate."""

from __future__ import annotations

import json
import logging
import threading

import pytest

from studio.contract import token_count
from studio.contract.token_count import (
    ESTIMATE,
    count_tokens,
    exact_ready,
    exact_settled,
    format_count,
    preload,
    token_counter,
    token_method,
)
from studio.contract.tokens import estimate_tokens

OPENAI_TARGETS = ("openai", "openai-strict", "openai-responses")
OTHER_TARGETS = ("anthropic", "gemini", "mcp", "studio", None, "", "no-such-profile")

TEXTS = [
    "",
    "tiktoken is great!",
    "hello world",
    "Search the travel reimbursement policy clauses and their limit amounts.",
    "差旅报销助手：查询发票 INV-102，金额 118.5 元，超出上限 38.5 元。",
    json.dumps({"type": "object", "properties": {"category": {"enum": ["taxi", "hotel"]}}}),
    "<|endoftext|> is plain text in a description",
]


# ---------------------------------------------------------------- exact path


def test_known_o200k_counts(exact_tokens: None) -> None:
    # Token ids as tiktoken gives them: [83, 8251, 2488, 382, 2212, 0] and [24912, 2375].
    assert count_tokens("tiktoken is great!", "openai") == 6
    assert count_tokens("hello world", "openai") == 2
    assert count_tokens("", "openai") == 0


def test_openai_targets_use_o200k_base(exact_tokens: None) -> None:
    import bpe_openai

    encode = bpe_openai.get_encoding("o200k_base").encode_ordinary
    for target in OPENAI_TARGETS:
        assert token_method(target) == "o200k_base"
        assert exact_ready(target) and exact_settled(target)
        for text in TEXTS:
            assert count_tokens(text, target) == len(encode(text))


def test_special_token_markers_count_as_text(exact_tokens: None) -> None:
    # encode() would refuse the marker; a description holding it is just text.
    assert count_tokens("<|endoftext|>", "openai") > 1


@pytest.mark.parametrize("target", OTHER_TARGETS)
def test_other_targets_are_estimated_even_with_a_tokenizer(
    exact_tokens: None, target: str | None
) -> None:
    assert token_method(target) == ESTIMATE
    assert not exact_ready(target) and exact_settled(target)
    for text in TEXTS:
        assert count_tokens(text, target) == estimate_tokens(text)


def test_texts_past_the_tokenizer_limits_are_counted_in_exact_pieces(exact_tokens: None) -> None:
    # bpe-openai refuses texts of 1,000,000 characters; counting cuts them at pretoken
    # bounds, so ten copies of a text ending in a space cost ten times its tokens, less
    # the nine trailing spaces that join the next copy's first word.
    chunk = "word " * 25_000
    one = count_tokens(chunk, "openai")
    assert one == 25_001
    assert count_tokens(chunk * 10, "openai") == 10 * one - 9


def test_pieces_are_exact_where_a_space_separates_words(
    exact_tokens: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = "\n".join(
        [
            "Use when: the user asks about an invoice (e.g. INV-102); not for tickets.",
            json.dumps({"a": "b c", "d": [1, 22, 333], "e": "why not, said she"}),
            "Returns: the matching invoices, newest first — at most 50 per call.",
        ]
        * 40
    )
    whole = count_tokens(text, "openai")
    monkeypatch.setattr(token_count, "_PIECE_CHARS", 64)
    pieces = list(token_count._pieces(text))
    assert "".join(pieces) == text and len(pieces) > 50
    assert all(len(p) <= 64 for p in pieces)
    assert count_tokens(text, "openai") == whole


# ---------------------------------------------------------------- estimate path


@pytest.mark.parametrize("target", [*OPENAI_TARGETS, *OTHER_TARGETS])
def test_without_a_tokenizer_everything_is_estimated(
    estimated_tokens: None, target: str | None
) -> None:
    assert token_method(target) == ESTIMATE
    assert not exact_ready(target) and exact_settled(target)
    for text in TEXTS:
        assert count_tokens(text, target) == estimate_tokens(text)
    count, method = token_counter(target)
    assert count is estimate_tokens and method == ESTIMATE


def test_a_broken_tokenizer_falls_back_to_the_estimate_with_a_warning(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    calls: list[str] = []

    def broken(encoding: str):
        calls.append(encoding)
        raise RuntimeError("corrupt vocabulary")

    monkeypatch.setattr(token_count, "_load_encoding", broken)
    monkeypatch.setattr(token_count, "_counters", {})
    with caplog.at_level(logging.WARNING, logger="studio.contract.token_count"):
        assert token_method("openai") == ESTIMATE
        assert count_tokens("hello world", "openai") == estimate_tokens("hello world")
    assert calls == ["o200k_base"]  # tried once, not on every count
    assert "token counts are estimated" in caplog.text


def test_a_tokenizer_that_does_not_reproduce_tiktoken_is_not_trusted(
    exact_tokens: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(token_count, "_KNOWN_IDS", {"o200k_base": ("hello world", [1, 2])})
    monkeypatch.setattr(token_count, "_counters", {})
    assert token_method("openai") == ESTIMATE


def test_labels() -> None:
    assert format_count(1234, ESTIMATE) == "≈ 1234 tokens (estimate)"
    assert format_count(1234, "o200k_base") == "1234 tokens (o200k_base)"
    assert format_count(1234, "o200k_base", grouped=True) == "1,234 tokens (o200k_base)"


# ---------------------------------------------------------------- loading


def test_concurrent_first_counts_load_once_and_agree(
    exact_tokens: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_load = token_count._load_encoding
    loads: list[str] = []

    def load(encoding: str):
        loads.append(threading.current_thread().name)
        return real_load(encoding)

    expected = [count_tokens(t, "openai") for t in TEXTS]
    monkeypatch.setattr(token_count, "_load_encoding", load)
    monkeypatch.setattr(token_count, "_counters", {})  # a process that has not loaded yet
    start = threading.Barrier(8)
    results: dict[int, list[tuple[str, list[int]]]] = {}

    def worker(i: int) -> None:
        start.wait()
        results[i] = [
            (token_method("openai"), [count_tokens(t, "openai") for t in TEXTS]) for _ in range(20)
        ]

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert len(loads) == 1
    assert sorted(results) == list(range(8))
    for runs in results.values():
        assert all(run == ("o200k_base", expected) for run in runs)


def test_preload_loads_off_the_calling_thread_once(monkeypatch: pytest.MonkeyPatch) -> None:
    release = threading.Event()
    loads: list[str] = []

    def slow_load(encoding: str):
        loads.append(threading.current_thread().name)
        assert release.wait(10)
        return lambda text: 4242

    monkeypatch.setattr(token_count, "_load_encoding", slow_load)
    monkeypatch.setattr(token_count, "_counters", {})
    done = [threading.Event(), threading.Event()]
    assert preload("openai", done[0].set)
    assert preload("openai-strict", done[1].set)  # same encoding: joins the running load
    assert not exact_settled("openai") and not exact_ready("openai")
    assert not preload("anthropic")  # nothing to load
    release.set()
    assert done[0].wait(10) and done[1].wait(10)
    assert loads == ["load-o200k_base"]
    assert exact_ready("openai") and count_tokens("anything", "openai") == 4242
    assert not preload("openai")  # settled: nothing more to do
