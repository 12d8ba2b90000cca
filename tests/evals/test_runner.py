"""The eval runner through the whole stack: loopback model server, both wire formats.

The server picks tools by the overlap of the user's words with each tool's
name and description, so the example registry's full descriptions (version
"B", the draft) must beat a terse, overlapping rewrite of them (version 1, "A")
as the providers, the pipeline and the scoring see them.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest

from registry_db import RegistryStore, seed_examples
from studio.evals.runner import EvalRunError, EvalRunner, RunOptions, selection_accuracy
from studio.evals.runs import load_attempts
from studio.evals.store import EvalStore
from studio.evals.variants import VariantError, resolve_variant
from studio.providers import ModelParams, ModelProfile, ProviderKind, client_for
from tests.evals.loopback_model import Behaviour, LoopbackModel

REGISTRY = "travel-reimbursement"


@pytest.fixture
def store(tmp_path: Path) -> Iterator[RegistryStore]:
    s = RegistryStore.open(tmp_path / "studio.sqlite3")
    seed_examples(s)  # version 1 is the example's flawed original (terse, overlapping)
    yield s
    s.close()


@pytest.fixture
def server() -> Iterator[LoopbackModel]:
    with LoopbackModel(Behaviour(seed=3)) as model:
        yield model


def profile_for(server: LoopbackModel, wire: str, *, stream: bool = True) -> ModelProfile:
    kind = ProviderKind.OPENAI_CHAT if wire == "openai" else ProviderKind.ANTHROPIC_MESSAGES
    env = "OPENAI_API_KEY" if wire == "openai" else "ANTHROPIC_API_KEY"
    return ModelProfile(f"loop-{wire}", kind, server.base_url, "loopback", env,
                        ModelParams(stream=stream))  # fmt: skip


def runner(
    store: RegistryStore, profile: ModelProfile, options: RunOptions | None = None, **kw
) -> EvalRunner:
    eval_set = EvalStore(store).load(REGISTRY, "core")
    variants = [
        resolve_variant(store, REGISTRY, "1", "A"),
        resolve_variant(store, REGISTRY, "draft", "B"),
    ]
    return EvalRunner(store, REGISTRY, eval_set, variants, [profile], options or RunOptions(), **kw)


@pytest.fixture(autouse=True)
def keys(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-loop")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "ant-loop")


@pytest.mark.parametrize(("wire", "stream"), [("openai", True), ("anthropic", False),
                                              ("anthropic", True), ("openai", False)])  # fmt: skip
def test_better_descriptions_win_through_the_whole_stack(
    store: RegistryStore, server: LoopbackModel, wire: str, stream: bool
) -> None:
    progress: list[int] = []
    r = runner(store, profile_for(server, wire, stream=stream), RunOptions(concurrency=8),
               on_progress=lambda p: progress.append(p.done))  # fmt: skip
    summary = asyncio.run(r.run())
    cases = len(EvalStore(store).load(REGISTRY, "core").cases)
    assert summary.status == "done" and len(summary.attempts) == 2 * cases
    assert all(a.status == "scored" for a in summary.attempts)
    assert len(server.received) == 2 * cases  # one model turn per attempt
    assert {x.wire for x in server.received} == {wire} and {x.stream for x in server.received} == {
        stream
    }
    assert progress[-1] == 2 * cases
    acc = selection_accuracy(summary.attempts)
    a, b = acc[f"{REGISTRY}@1"], acc[f"{REGISTRY}@draft"]
    assert b["selection"] >= a["selection"] + 0.15, acc
    # The pipeline repairs some answers (aliases, coercion) and refuses others (bad JSON).
    repaired = [at for at in summary.attempts if any(c.repaired for c in at.pipeline_calls)]
    assert any(at.pipeline.passed and not at.raw.passed for at in repaired)
    assert load_attempts(store, summary.run_id) == summary.attempts
    # Both views are kept; the pipeline injected employee_id from the case's context.
    piped = [c for at in summary.attempts for c in at.pipeline_calls if c.tool == "query_invoices"]
    assert piped and all(c.arguments.get("employee_id") == "E-1001" for c in piped if not c.invalid)


def test_the_cache_makes_a_second_run_free(store: RegistryStore, server: LoopbackModel) -> None:
    profile = profile_for(server, "openai")
    first = asyncio.run(runner(store, profile, RunOptions(concurrency=4)).run())
    sent = len(server.received)
    second = asyncio.run(runner(store, profile, RunOptions(concurrency=4)).run())
    assert len(server.received) == sent  # nothing new was sent
    assert second.run_id != first.run_id and second.progress.requests == 0
    assert all(a.cached for a in second.attempts)
    strip = lambda a: (a.key, a.chosen, a.raw, a.pipeline)  # noqa: E731
    assert sorted(map(strip, second.attempts)) == sorted(map(strip, first.attempts))
    third = asyncio.run(runner(store, profile, RunOptions(use_cache=False)).run())
    assert third.progress.requests == len(third.attempts) == len(server.received) - sent


def test_a_budget_stops_sending_and_a_resume_finishes(
    store: RegistryStore, server: LoopbackModel
) -> None:
    profile = profile_for(server, "anthropic")
    options = RunOptions(concurrency=1, budget_requests=10, use_cache=False)
    summary = asyncio.run(runner(store, profile, options, run_id="budget").run())
    assert len(server.received) == 10 and "10 requests" in summary.budget_stop
    statuses = [a.status for a in summary.attempts]
    assert statuses.count("scored") == 10 and statuses.count("skipped") == len(statuses) - 10
    # The same run id resumes: the scored ten are kept, the skipped are sent now.
    again = asyncio.run(runner(store, profile, RunOptions(use_cache=False), run_id="budget").run())
    assert again.progress.resumed == 10
    assert len(server.received) == len(again.attempts)
    assert all(a.status == "scored" for a in again.attempts)
    tokens = asyncio.run(runner(store, profile, RunOptions(concurrency=1, budget_tokens=1,
                                                           use_cache=False)).run())  # fmt: skip
    assert tokens.progress.requests == 1 and "tokens" in tokens.budget_stop


def test_a_missing_key_fails_before_any_request(
    store: RegistryStore, server: LoopbackModel, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY")
    with pytest.raises(EvalRunError, match=r"^OPENAI_API_KEY is not set"):
        asyncio.run(runner(store, profile_for(server, "openai")).run())
    assert server.received == []


def test_rate_limits_are_retried(store: RegistryStore, server: LoopbackModel) -> None:
    server.fail_next(2)  # two retries are allowed per request
    summary = asyncio.run(
        runner(store, profile_for(server, "openai"), RunOptions(concurrency=1)).run()
    )
    assert all(a.status == "scored" for a in summary.attempts)
    assert len(server.received) == len(summary.attempts) + 2
    assert summary.progress.retries == 2


def test_variants_name_versions_semvers_and_channels(store: RegistryStore) -> None:
    from registry_db.channels import ChannelRepository

    assert resolve_variant(store, REGISTRY, "1.0.0").label == f"{REGISTRY}@1"
    ChannelRepository(store).set_channel(REGISTRY, "stable", version=1, share=100)
    assert resolve_variant(store, REGISTRY, "#stable").label == f"{REGISTRY}@1#stable"
    for bad, message in (("9", "no version 9"), ("2.0.0", "no version with semver"),
                         ("#canary", "serves no version"), ("latest!", "write draft")):  # fmt: skip
        with pytest.raises(VariantError, match=message):
            resolve_variant(store, REGISTRY, bad)


def test_concurrency_is_limited_and_cancel_stops_then_resumes(store: RegistryStore) -> None:
    with LoopbackModel(Behaviour(delay_ms=20)) as server:
        profile = profile_for(server, "openai")
        holder: list[EvalRunner] = []

        def stop_after_twenty(p) -> None:
            if p.done == 20:
                holder[0].cancel()

        r = runner(store, profile, RunOptions(concurrency=3), run_id="c",
                   on_progress=stop_after_twenty)  # fmt: skip
        holder.append(r)
        summary = asyncio.run(r.run())
        assert summary.status == "cancelled" and len(summary.attempts) == 20
        assert server.max_in_flight <= 3
        sent = len(server.received)
        assert sent <= 20 + 3  # what was in flight when cancelled is dropped
        # Resuming sends the rest; the cache answers what was in flight already.
        again = asyncio.run(runner(store, profile, RunOptions(concurrency=3), run_id="c").run())
        assert again.status == "done" and again.progress.resumed == 20
        assert len(again.attempts) == 134 and len(server.received) - sent <= 134 - 20


def test_a_refused_key_stops_the_run_at_once(store: RegistryStore, server: LoopbackModel) -> None:
    # No key is sent (the profile names no variable and the keyring has none): 401.
    profile = dataclasses.replace(profile_for(server, "openai"), api_key_env=None)
    r = runner(store, profile, RunOptions(concurrency=2), client_factory=lambda p, key: client_for(
        p, api_key=""))  # fmt: skip
    with pytest.raises(EvalRunError, match=r"the provider refused the request: 401 .*resume"):
        asyncio.run(r.run())
    assert len(server.received) <= 2


def test_a_rate_limit_holds_back_every_worker(store: RegistryStore, server: LoopbackModel) -> None:
    server.fail_next(1, retry_after="0.6")
    profile = profile_for(server, "openai")
    summary = asyncio.run(runner(store, profile, RunOptions(concurrency=4)).run())
    assert all(a.status == "scored" for a in summary.attempts)
    got = server.received
    [limited] = [r for r in got if r.status == 429]
    # Requests already on their way may arrive just after the 429; then nothing until it expires.
    quiet = [r for r in got if limited.at + 0.15 < r.at < limited.at + 0.55]
    assert quiet == []


def test_two_profiles_in_one_run(store: RegistryStore, server: LoopbackModel) -> None:
    profiles = [profile_for(server, "openai"), profile_for(server, "anthropic", stream=False)]
    eval_set = EvalStore(store).load(REGISTRY, "core")
    variants = [
        resolve_variant(store, REGISTRY, "1", "A"),
        resolve_variant(store, REGISTRY, "draft", "B"),
    ]
    summary = asyncio.run(EvalRunner(store, REGISTRY, eval_set, variants, profiles).run())
    assert len(summary.attempts) == 4 * len(eval_set.cases)
    assert {x.wire for x in server.received} == {"openai", "anthropic"}
    acc = selection_accuracy(summary.attempts)
    assert set(acc) == {
        f"{REGISTRY}@{v} · loop-{w}" for v in ("1", "draft") for w in ("openai", "anthropic")
    }
    # The same model behind both wire formats makes the same choices.
    for v in ("1", "draft"):
        assert (
            acc[f"{REGISTRY}@{v} · loop-openai"]["selection"]
            == acc[f"{REGISTRY}@{v} · loop-anthropic"]["selection"]
        )


def test_cancel_from_another_thread(store: RegistryStore) -> None:
    import threading

    with LoopbackModel(Behaviour(delay_ms=30)) as server:
        r = runner(store, profile_for(server, "openai"), RunOptions(concurrency=2), run_id="t")
        timer = threading.Timer(0.5, r.cancel)  # as a GUI's Cancel button would
        timer.start()
        summary = asyncio.run(r.run())
        timer.join()
    assert summary.status == "cancelled" and 0 < len(summary.attempts) < 134
