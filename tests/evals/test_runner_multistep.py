"""Multi-step mode: whole conversations on the stored mocks, end-to-end success and grounding."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from registry_db import RegistryStore, seed_examples
from registry_db.sessions import SessionStore
from studio.evals.jsonl import build_set
from studio.evals.runner import EvalRunner, RunOptions
from studio.evals.runs import load_attempts
from studio.evals.store import EvalStore
from studio.evals.variants import resolve_variant
from studio.providers import ModelProfile, ProviderKind
from tests.evals.loopback_model import Behaviour, LoopbackModel

REGISTRY = "travel-reimbursement"


def _run(
    tmp_path: Path, kind: ProviderKind, behaviour: Behaviour, mocks: dict | None = None
) -> tuple[list, int, int]:
    with RegistryStore.open(tmp_path / f"{kind.value}.sqlite3") as store:
        seed_examples(store)
        if mocks:  # stored mocks win over the bundled example's
            SessionStore.for_store(store).set_mock_specs(REGISTRY, mocks)
        core = EvalStore(store).load(REGISTRY, "core")
        picked = [c for c in core.cases if c.id in PICKED]
        variant = resolve_variant(store, REGISTRY, "draft")
        with LoopbackModel(behaviour) as server:
            profile = ModelProfile("loop", kind, server.base_url, "m", "LOOP_KEY")
            runner = EvalRunner(store, REGISTRY, build_set("few", picked), [variant], [profile],
                                RunOptions(multi_step=True, concurrency=2))  # fmt: skip
            summary = asyncio.run(runner.run())
            sent = len(server.received)
        assert load_attempts(store, summary.run_id) == summary.attempts
    return summary.attempts, sent, summary.progress.requests


PICKED = ("tickets-filed-en", "policy-taxi-limit-en", "invoices-lastweek-taxi-en",
          "no-tool-weather-en")  # fmt: skip


@pytest.mark.parametrize("kind", [ProviderKind.OPENAI_CHAT, ProviderKind.ANTHROPIC_MESSAGES])
def test_conversations_run_on_the_mocks(tmp_path: Path, monkeypatch, kind: ProviderKind) -> None:
    monkeypatch.setenv("LOOP_KEY", "k")
    # No malformed or aliased arguments: the conversation's outcome is the model's choice.
    attempts, sent, requests = _run(tmp_path, kind, Behaviour(malformed_rate=0, alias_rate=0))
    assert all(a.status == "scored" for a in attempts), [a.error for a in attempts]
    # Every conversation that called a tool took a second turn to answer from the result.
    called = [a for a in attempts if a.raw_calls]
    assert len(called) == 3 and sent == len(attempts) + len(called) == requests
    by_case = {a.case_id: a for a in attempts}
    for case in ("tickets-filed-en", "policy-taxi-limit-en", "invoices-lastweek-taxi-en"):
        a = by_case[case]
        assert a.end_to_end is True and a.grounded is True, a
    assert "R-55821" in by_case["tickets-filed-en"].text  # the mock's ticket, stated
    weather = by_case["no-tool-weather-en"]
    assert weather.raw_calls == () and weather.grounded is None and weather.end_to_end is True


def test_an_answer_not_resting_on_the_results_is_not_grounded(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("LOOP_KEY", "k")
    behaviour = Behaviour(malformed_rate=0, alias_rate=0, hallucinate_rate=1.0)
    attempts, _, _ = _run(tmp_path, ProviderKind.OPENAI_CHAT, behaviour)
    called = [a for a in attempts if a.raw_calls]
    assert called and all(a.grounded is False for a in called)
    assert all("R-99999" in a.text for a in called)


@pytest.mark.parametrize(("hallucinate", "claimed"), [(0.0, False), (1.0, True)])
def test_answering_as_if_a_failed_call_succeeded(
    tmp_path: Path, monkeypatch, hallucinate: float, claimed: bool
) -> None:
    monkeypatch.setenv("LOOP_KEY", "k")
    down = {"default": {"status": 503, "error_code": "TICKET_SERVICE_UNAVAILABLE",
                        "body": {"message": "the ticket service did not answer"}}}  # fmt: skip
    behaviour = Behaviour(malformed_rate=0, alias_rate=0, hallucinate_rate=hallucinate)
    attempts, _, _ = _run(tmp_path, ProviderKind.OPENAI_CHAT, behaviour, {"query_tickets": down})
    ticket = next(a for a in attempts if a.case_id == "tickets-filed-en")
    assert ticket.chosen == "query_tickets"
    assert ticket.end_to_end is False  # the expected call was made but did not succeed
    assert ticket.false_success is claimed, ticket.text


def test_conversations_are_cached_and_budgeted(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("LOOP_KEY", "k")
    with RegistryStore.open(tmp_path / "c.sqlite3") as store:
        seed_examples(store)
        core = EvalStore(store).load(REGISTRY, "core")
        eval_set = build_set("few", [c for c in core.cases if c.id in PICKED])
        variant = resolve_variant(store, REGISTRY, "draft")
        with LoopbackModel(Behaviour(malformed_rate=0, alias_rate=0)) as server:
            profile = ModelProfile(
                "loop", ProviderKind.OPENAI_CHAT, server.base_url, "m", "LOOP_KEY"
            )

            def run(**options) -> object:
                r = EvalRunner(store, REGISTRY, eval_set, [variant], [profile],
                               RunOptions(multi_step=True, **options))  # fmt: skip
                return asyncio.run(r.run())

            first = run()
            sent = len(server.received)
            second = run()
            assert len(server.received) == sent and second.progress.requests == 0
            assert all(a.cached for a in second.attempts)
            strip = lambda a: (a.case_id, a.chosen, a.text, a.end_to_end, a.grounded)  # noqa: E731
            assert sorted(map(strip, second.attempts)) == sorted(map(strip, first.attempts))
            # A budget of 2 requests: what needs more is skipped, nothing beyond 2 is sent.
            third = run(use_cache=False, budget_requests=2, concurrency=1)
            assert len(server.received) - sent == 2 == third.progress.requests
            assert {a.status for a in third.attempts} == {"scored", "skipped"}
