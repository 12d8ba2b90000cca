"""Cases from stored sessions: a user turn that led to tool calls becomes a case."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from registry_db import RegistryStore, seed_examples
from registry_db.sessions import SessionStore
from studio.cli import main
from studio.evals.from_sessions import cases_from_sessions
from studio.evals.jsonl import build_set
from studio.evals.runner import EvalRunner, RunOptions
from studio.evals.variants import resolve_variant
from studio.providers import ModelProfile, ProviderKind, client_for
from studio.runtime import MockExecutor, Run, RunConfig, SessionContext, example_mocks, parse_mocks
from studio.sessions.model import (
    Message,
    Role,
    TextPart,
    ToolCallPart,
    ToolResultPart,
    message_to_dict,
)
from tests.evals.loopback_model import LoopbackModel

REGISTRY = "travel-reimbursement"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "studio.sqlite3"
    with RegistryStore.open(path) as store:
        seed_examples(store)
    return path


def _record(store: RegistryStore, messages: list[Message], **info) -> str:
    sessions = SessionStore.for_store(store)
    session = sessions.create_session(registry=REGISTRY, **info)
    for m in messages:
        sessions.append_message(session.id, message_to_dict(m))
    return session.id


def user(text: str) -> Message:
    return Message(Role.USER, (TextPart(text),))


def calls(*items: tuple[str, str | dict]) -> Message:
    return Message(
        Role.ASSISTANT, tuple(ToolCallPart(f"c{i}", n, a) for i, (n, a) in enumerate(items))
    )


def results(*ids: str) -> Message:
    return Message(Role.TOOL, tuple(ToolResultPart(i, '{"ok": true}') for i in ids))


def answer(text: str) -> Message:
    return Message(Role.ASSISTANT, (TextPart(text),))


def test_each_turn_with_calls_becomes_a_case(db: Path) -> None:
    with RegistryStore.open(db) as store:
        ctx = {"role": "employee", "scenario": "reimbursement", "employee_id": "E-1001"}
        taxi = {"category": "taxi", "start_date": "2026-11-23"}
        sid = _record(
            store,
            [
                user("hello"),
                answer("Hi! How can I help?"),
                user("上周打车的发票给我看看"),
                calls(("query_invoices", json.dumps({**taxi, "employee_id": "E-9"}))),
                results("c0"),
                # The same call again after an error is one expectation.
                calls(("query_invoices", {**taxi, "employee_id": "E-9"})),
                results("c0"),
                answer("你有一张 118.5 的发票 INV-102。"),
                user("file it: INV-102, 118.5"),
                calls(
                    ("search_policy", '{"query": "taxi limit"}'),
                    ("create_reimbursement_ticket", "{not json"),
                ),
                results("c0", "c1"),
                answer("Filed R-55821."),
            ],
            system="You help employees.",
            context=ctx,
        )
        # A second session repeating the first question (same history) merges.
        again = [user("hello"), answer("Hi! How can I help?"), user("上周打车的发票给我看看")]
        again.append(calls(("query_invoices", taxi)))
        _record(store, again, system="You help employees.", context=ctx)
        made = cases_from_sessions(store, REGISTRY)
    assert made.merged == 1 and len(made.sessions) == 2
    first, second = made.cases
    assert first.id == f"{sid[:8]}-t2" and first.user == "上周打车的发票给我看看"
    assert first.tags == ("from-session", "zh") and first.system == "You help employees."
    assert [(t.role, t.content) for t in first.turns] == [
        ("user", "hello"),
        ("assistant", "Hi! How can I help?"),
    ]
    assert first.context.role == "employee" and first.context.values["employee_id"] == "E-1001"
    assert first.expect.kind == "tool"
    [call] = first.expect.calls
    # employee_id is injected by the runtime: not expected from the model.
    assert {(m.path, m.kind, m.value) for m in call.args} == {
        ("category", "equals", "taxi"),
        ("start_date", "equals", "2026-11-23"),
    }
    assert second.expect.kind == "tools" and second.expect.order == "sequence"
    assert second.expect.tools == ("search_policy", "create_reimbursement_ticket")
    assert second.expect.calls[1].args == ()  # its arguments were not JSON
    assert len(second.turns) == 4 and second.turns[-1].content == "你有一张 118.5 的发票 INV-102。"
    build_set("from-sessions", made.cases)  # they validate as a set


def test_recorded_runs_round_trip_through_the_runner(db: Path, monkeypatch) -> None:
    """Sessions recorded by the runtime with the loopback model give cases it passes again."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-loop")
    prompts = ["Show my taxi invoices from last week", "R-55821 审批到哪了？状态 ticket",
               "How much can I claim for a taxi ride per the policy?"]  # fmt: skip
    with LoopbackModel() as server, RegistryStore.open(db) as store:
        profile = ModelProfile(
            "loop", ProviderKind.OPENAI_CHAT, server.base_url, "m", "OPENAI_API_KEY"
        )
        registry = store.draft_registry(REGISTRY)
        document = example_mocks(REGISTRY)
        mocks = parse_mocks({"tools": document["tools"]})
        context = SessionContext.from_dict(document["context"])
        sessions = SessionStore.for_store(store)

        async def record() -> None:
            client = client_for(profile, api_key="sk-loop")
            config = RunConfig(
                registry, profile="loop", context=context, mock=MockExecutor(mocks.tools)
            )
            for prompt in prompts:
                await Run(client, config, sessions=sessions).execute(prompt)
            await client.aclose()

        asyncio.run(record())
        made = cases_from_sessions(store, REGISTRY)
        assert len(made.cases) >= 2
        eval_set = build_set("recorded", made.cases)
        variant = resolve_variant(store, REGISTRY, "draft")
        summary = asyncio.run(EvalRunner(store, REGISTRY, eval_set, [variant], [profile],
                                         RunOptions(use_cache=False)).run())  # fmt: skip
    # The model answers a request the same way each time: the cases pass on selection.
    assert all(a.raw.selection_passed for a in summary.attempts), [a.raw for a in summary.attempts]


def test_the_cli_stores_the_set(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with RegistryStore.open(db) as store:
        sid = _record(
            store, [user("R-55821 到哪一步了"), calls(("query_tickets", {"ticket_id": "R-55821"}))]
        )
    assert (
        main(["--db", str(db), "eval", "from-sessions", REGISTRY, "mined", "--session", sid]) == 0
    )
    out = capsys.readouterr().out
    assert "1 case(s) from 1 session(s) (0 duplicate turn(s) merged)" in out
    assert main(["--db", str(db), "eval", "from-sessions", REGISTRY, "mined"]) == 2
    assert "--append" in capsys.readouterr().err
    assert main(["--db", str(db), "eval", "from-sessions", REGISTRY, "mined", "--append"]) == 2
    assert "already cases of mined" in capsys.readouterr().err  # merged with the stored one
    assert (
        main(["--db", str(db), "eval", "show", REGISTRY, "mined", "--case", f"{sid[:8]}-t1"]) == 0
    )
    shown = json.loads(capsys.readouterr().out)
    assert shown["expect"]["calls"] == [
        {"tool": "query_tickets", "args": {"ticket_id": {"equals": "R-55821"}}}
    ]
    assert main(["--db", str(db), "eval", "from-sessions", REGISTRY, "x", "--session", "nope"]) == 2
