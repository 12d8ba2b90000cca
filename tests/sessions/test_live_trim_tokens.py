"""Trim counts real tokens where the target's tokenizer is available, and says when it estimates."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.cli import main
from studio.contract.token_count import count_tokens
from studio.sessions.doctor import trim
from studio.sessions.history_trim import MESSAGE_OVERHEAD, estimate_tokens, message_text
from studio.sessions.pairing import analyse_pairing
from studio.sessions.wire import to_wire
from tests.sessions.helpers import assistant, call, results, system, user

HISTORY = [
    system("You file travel expenses. 只报销十一月的出租车。"),
    user("Taxi invoices in November?"),
    assistant(call("c1", "query_invoices", {"month": 11, "kind": "taxi"})),
    results(("c1", json.dumps([{"id": i, "amount": 23.5} for i in range(20)]))),
    user("File them."),
    assistant(call("c2", "file_expense", '{"invoices": [1, 2, 3]}')),
    results(("c2", '{"ok": true}')),
    assistant(text="Filed 3 invoices."),
]


def test_openai_targets_count_with_o200k_base(exact_tokens: None) -> None:
    cut = trim(HISTORY, 10_000, profile="openai")
    assert cut.method == "o200k_base" and not cut.estimated
    expected = sum(MESSAGE_OVERHEAD + count_tokens(message_text(m), "openai") for m in HISTORY)
    assert cut.total_tokens == expected == cut.kept_tokens
    assert cut.tokens_label() == f"kept {expected} of {expected} tokens (o200k_base)"
    # The call's name and arguments are what is counted, not the studio's JSON around them.
    assert message_text(HISTORY[2]) == 'query_invoices\n{"month": 11, "kind": "taxi"}'


def test_a_tight_budget_still_cuts_only_at_safe_points(exact_tokens: None) -> None:
    whole = trim(HISTORY, 10_000, profile="openai").total_tokens
    cut = trim(HISTORY, whole // 3, profile="openai", summary="the invoice search")
    assert cut.cut_at > 1 and cut.kept_tokens <= whole // 3
    assert analyse_pairing(cut.messages).problems == ()
    assert cut.method == "o200k_base"


@pytest.mark.parametrize("profile", ["anthropic", "gemini", None])
def test_targets_without_a_tokenizer_are_estimated_and_say_so(profile: str | None) -> None:
    cut = trim(HISTORY, 10_000, profile=profile)
    assert cut.estimated and cut.method == "estimate"
    assert cut.total_tokens == sum(estimate_tokens(m) for m in HISTORY)
    assert cut.tokens_label().endswith("tokens (estimated)")


def test_without_bpe_openai_openai_is_estimated_too(estimated_tokens: None) -> None:
    assert trim(HISTORY, 10_000, profile="openai").estimated


def test_a_callers_count_is_named_custom() -> None:
    cut = trim(HISTORY, 100, count=lambda m: 10)
    assert cut.method == "custom" and cut.total_tokens == 10 * len(HISTORY)


def test_cli_trim_reports_how_it_counted(exact_tokens: None, tmp_path: Path, capsys) -> None:
    log = tmp_path / "history.json"
    log.write_text(json.dumps(to_wire(HISTORY, "openai")), encoding="utf-8")
    db = str(tmp_path / "s.db")
    assert main(["--db", db, "sessions", "trim", str(log), "--max-tokens", "60"]) == 0
    assert "tokens (o200k_base);" in capsys.readouterr().out
    assert main(["--db", db, "sessions", "trim", str(log), "--max-tokens", "60",
                 "--provider", "anthropic"]) == 0  # fmt: skip
    assert "tokens (estimated);" in capsys.readouterr().out
