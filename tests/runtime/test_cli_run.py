"""``studio profiles`` and ``studio run``, and a run killed mid-flight in a child process."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from registry_db import RegistryStore, load_examples
from registry_db.sessions import SessionStore
from studio.cli import main
from tests.providers.scripted_server import ScriptedServer, ToolCall, Turn

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def db(tmp_path, monkeypatch) -> Path:
    path = tmp_path / "studio.sqlite3"
    with RegistryStore.open(path) as store:
        store.seed_registries(load_examples())
    monkeypatch.setenv("SCRIPTED_KEY", "sk-test")
    return path


def add_profile(db: Path, server: ScriptedServer) -> None:
    assert main(["profiles", "add", "scripted", "--kind", "openai-chat", "--base-url",
                 server.base_url + "/v1", "--model", "m", "--api-key-env", "SCRIPTED_KEY",
                 "--db", str(db)]) == 0  # fmt: skip


def test_profiles_add_and_list(db, capsys):
    with ScriptedServer([]) as server:
        add_profile(db, server)
    assert main(["profiles", "list", "--db", str(db)]) == 0
    assert "scripted\topenai-chat" in capsys.readouterr().out
    with ScriptedServer([]) as server, pytest.raises(AssertionError):
        add_profile(db, server)  # the name is taken: exit code 2


def test_run_prints_jsonl_events_and_stores_the_session(db, capsys):
    turns = [
        Turn(tool_calls=[ToolCall("query_invoices", '{"start_date": "2024-05-01", '
                                  '"end_date": "2024-05-10", "category": "打车"}', fragments=5)]),
        Turn(tool_calls=[ToolCall("create_reimbursement_ticket", '{"invoice_ids": ["INV-102"], '
                                  '"amount": 118.5, "reason": "client visit"}')]),
        Turn(text="Filed R-55821."),
    ]  # fmt: skip
    with ScriptedServer(turns) as server:
        add_profile(db, server)
        capsys.readouterr()
        code = main(["run", "travel-reimbursement", "--profile", "scripted", "--prompt",
                     "claim my taxi", "--approve", "write", "--events", "jsonl",
                     "--context", "employee_id=E-7", "--db", str(db)])  # fmt: skip
    assert code == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["seq"] for line in lines] == list(range(1, len(lines) + 1))
    assert lines[0]["type"] == "run.started" and lines[-1]["type"] == "run.completed"
    completed = [line["data"] for line in lines if line["type"] == "tool_call.completed"]
    assert completed[1]["result"]["data"]["ticket_id"] == "R-55821"
    executing = next(line["data"] for line in lines if line["type"] == "tool_call.executing")
    assert executing["request"]["arguments"]["employee_id"] == "E-7"
    with RegistryStore.open(db) as store:
        sessions = SessionStore.for_store(store)
        (info,) = sessions.list_sessions("travel-reimbursement")
        assert info.status == "completed" and len(sessions.events(info.id)) == len(lines)


def test_run_exit_codes(db, capsys):
    with ScriptedServer([Turn(tool_calls=[ToolCall("search_policy", '{"query": "x"}')])
                         for _ in range(4)]) as server:  # fmt: skip
        add_profile(db, server)
        base = ["run", "travel-reimbursement", "--profile", "scripted", "--db", str(db)]
        assert main([*base, "--prompt", "loop"]) == 1  # the loop guard ends it
        assert main([*base, "--prompt", "x", "--version", "7"]) == 2
        assert main([*base, "--prompt", "x", "--context", "novalue"]) == 2
        assert main(["run", "nope", "--profile", "scripted", "--prompt", "x",
                     "--db", str(db)]) == 2  # fmt: skip


def test_a_crash_mid_run_leaves_a_readable_session(db):
    with RegistryStore.open(db) as store:
        SessionStore.for_store(store).set_mock_specs(
            "travel-reimbursement",
            {"": {"role": "employee", "scenario": "reimbursement", "employee_id": "E-1"},
             "search_policy": {"default": {"latency_ms": 60000, "body": {}}}},
        )  # fmt: skip
    turns = [
        Turn(
            text="Checking the policy",
            text_fragments=6,
            tool_calls=[ToolCall("search_policy", '{"query": "taxi"}', fragments=6)],
        )
    ]
    with ScriptedServer(turns) as server:
        add_profile(db, server)
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        child = subprocess.Popen(
            [sys.executable, "-m", "studio.cli", "run", "travel-reimbursement", "--profile",
             "scripted", "--prompt", "taxi limit?", "--db", str(db)],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            deadline = time.monotonic() + 20
            with RegistryStore.open(db) as store:
                sessions = SessionStore.for_store(store)
                while time.monotonic() < deadline:
                    found = sessions.list_sessions()
                    if found and any(e.type == "tool_call.executing"
                                     for e in sessions.events(found[0].id)):  # fmt: skip
                        break
                    time.sleep(0.05)
                else:
                    pytest.fail("the child never reached tool_call.executing")
        finally:
            child.kill()
            child.wait()
    with RegistryStore.open(db) as store:
        sessions = SessionStore.for_store(store)
        (info,) = sessions.list_sessions()
        events = sessions.events(info.id)
        assert [e.seq for e in events] == list(range(1, len(events) + 1))
        types = [e.type for e in events]
        assert types[0] == "run.started" and types[-1] == "tool_call.executing"
        assert "message.delta" in types and "tool_call.prepared" in types
        assert info.status == "running"
        assert [m["role"] for m in sessions.messages(info.id)] == ["user", "assistant"]


def test_run_uses_the_http_targets_set_in_the_playground(db, capsys):
    from registry_db.executors import ExecutorStore
    from tests.runtime.tool_api_server import ToolApiServer

    policy = {"clauses": [{"clause": "4.2", "limit": 80}]}
    search = '{"query": "taxi limit"}'
    with ToolApiServer({"/policy/search": policy}) as api:
        with RegistryStore.open(db) as store:
            ExecutorStore.for_store(store).save_http_target(
                "travel-reimbursement",
                "search_policy",
                {"url": api.base_url + "/policy/search", "method": "POST",
                 "headers": {"X-Query": "{query}"}, "body": {"q": "{query}"}},
                allowed_base_urls=[api.base_url],
            )  # fmt: skip
        base = ["run", "travel-reimbursement", "--profile", "scripted", "--prompt", "limit?",
                "--events", "jsonl", "--db", str(db)]  # fmt: skip
        turns = [Turn(tool_calls=[ToolCall("search_policy", search)]), Turn(text="80.")]
        with ScriptedServer(turns) as server:
            add_profile(db, server)
            capsys.readouterr()
            assert main(base) == 0
        (request,) = api.requests
        assert (request.method, request.path) == ("POST", "/policy/search")
        assert request.headers["X-Query"] == "taxi limit"
        assert json.loads(request.body) == {"q": "taxi limit"}
        events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        done = next(e["data"] for e in events if e["type"] == "tool_call.completed")
        assert done["result"]["data"] == policy

        # --executors mock keeps every call on the mocks: the API sees nothing more.
        with ScriptedServer(turns) as server:
            add_profile_again = ["profiles", "add", "scripted2", "--kind", "openai-chat",
                                 "--base-url", server.base_url + "/v1", "--model", "m",
                                 "--api-key-env", "SCRIPTED_KEY", "--db", str(db)]  # fmt: skip
            assert main(add_profile_again) == 0
            mock_run = [*base[:3], "scripted2", *base[4:], "--executors", "mock"]
            assert main(mock_run) == 0
        assert len(api.requests) == 1


def test_run_refuses_a_tool_set_to_http_without_a_usable_target(db, capsys):
    from registry_db.executors import ExecutorStore

    with RegistryStore.open(db) as store:
        ExecutorStore.for_store(store).set_executor("travel-reimbursement", "search_policy", "http")
    with ScriptedServer([]) as server:
        add_profile(db, server)
        capsys.readouterr()
        code = main(["run", "travel-reimbursement", "--profile", "scripted", "--prompt", "x",
                     "--db", str(db)])  # fmt: skip
    assert code == 2
    err = capsys.readouterr().err
    assert "Give an HTTP target for search_policy" in err and "--executors mock" in err


def _with_delete_tool(db: Path) -> None:
    from registry_db import UpsertTool
    from tests.runtime.helpers import DELETE_TICKET

    with RegistryStore.open(db) as store:
        store.save_draft("travel-reimbursement", [UpsertTool(DELETE_TICKET)])
        sessions = SessionStore.for_store(store)
        specs = dict(sessions.mock_specs("travel-reimbursement"))
        specs["delete_reimbursement_ticket"] = {"default": {"body": {"deleted": True}}}
        sessions.set_mock_specs("travel-reimbursement", specs)


_PROFILES = itertools.count()


def _delete_run(db: Path, capsys, *extra: str) -> tuple[int, dict]:
    turns = [
        Turn(tool_calls=[ToolCall("delete_reimbursement_ticket", '{"ticket_id": "R-55821"}')]),
        Turn(text="done"),
    ]
    with ScriptedServer(turns) as server:
        name = f"scripted{next(_PROFILES)}"
        assert main(["profiles", "add", name, "--kind", "openai-chat", "--base-url",
                     server.base_url + "/v1", "--model", "m", "--api-key-env", "SCRIPTED_KEY",
                     "--db", str(db)]) == 0  # fmt: skip
        capsys.readouterr()
        code = main(["run", "travel-reimbursement", "--profile", name, "--prompt",
                     "delete R-55821", "--events", "jsonl", "--db", str(db), *extra])  # fmt: skip
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    done = next(e["data"] for e in lines if e["type"] == "tool_call.completed")
    return code, done


@pytest.mark.parametrize("approve", ["write", "all"])
def test_approve_never_types_a_destructive_phrase_itself(db, capsys, approve):
    _with_delete_tool(db)
    code, done = _delete_run(db, capsys, "--approve", approve)
    assert code == 0
    assert done["result"]["error_code"] == "DENIED_BY_USER", done
    assert "--phrase" in json.dumps(done, ensure_ascii=False)


def test_a_destructive_call_runs_with_its_phrase_given(db, capsys):
    _with_delete_tool(db)
    phrase = "delete_reimbursement_ticket=delete_reimbursement_ticket"
    code, done = _delete_run(db, capsys, "--approve", "all", "--phrase", phrase)
    assert code == 0
    assert done["result"]["data"] == {"deleted": True}, done
    # A wrong phrase is a mismatch, not an approval.
    code, done = _delete_run(db, capsys, "--approve", "all", "--phrase",
                             "delete_reimbursement_ticket=yes")  # fmt: skip
    assert done["result"]["error_code"] == "DENIED_BY_USER"
    assert "confirmation phrase was not typed" in done["result"]["message"]


@pytest.mark.parametrize(
    ("phrase", "message"),
    [
        ("delete_reimbursement_ticket", "takes TOOL=PHRASE"),
        ("nope=x", "has no tool named 'nope'"),
        ("search_policy=x", "is not destructive"),
    ],
)
def test_a_bad_phrase_argument_is_a_usage_error(db, capsys, phrase, message):
    _with_delete_tool(db)
    with ScriptedServer([]) as server:
        add_profile(db, server)
        capsys.readouterr()
        code = main(["run", "travel-reimbursement", "--profile", "scripted", "--prompt", "x",
                     "--approve", "all", "--phrase", phrase, "--db", str(db)])  # fmt: skip
    assert code == 2
    assert message in capsys.readouterr().err


def test_a_phrase_with_approve_none_is_a_usage_error(db, capsys):
    _with_delete_tool(db)
    with ScriptedServer([]) as server:
        add_profile(db, server)
        capsys.readouterr()
        code = main(["run", "travel-reimbursement", "--profile", "scripted", "--prompt", "x",
                     "--phrase", "delete_reimbursement_ticket=delete_reimbursement_ticket",
                     "--db", str(db)])  # fmt: skip
    assert code == 2
    assert "--phrase needs --approve write or all" in capsys.readouterr().err


def test_auto_approver_all_approves_writes_and_only_given_phrases():
    import asyncio

    from studio.contract import RiskTier
    from studio.runtime import auto_approver
    from studio.runtime.policy import ApprovalRequest

    def ask(approver, tool, risk):
        request = ApprovalRequest("c1", tool, risk, {}, phrase=tool if risk.value == "destructive"
                                  else "")  # fmt: skip
        return asyncio.run(approver(request))

    everything = auto_approver("all")
    assert ask(everything, "create_x", RiskTier.WRITE).approved
    assert not ask(everything, "delete_x", RiskTier.DESTRUCTIVE).approved
    given = auto_approver("all", {"delete_x": "delete_x"})
    decision = ask(given, "delete_x", RiskTier.DESTRUCTIVE)
    assert decision.approved and decision.phrase == "delete_x"
    assert not ask(given, "delete_y", RiskTier.DESTRUCTIVE).approved
    assert not ask(auto_approver("none", {"delete_x": "delete_x"}), "delete_x",
                   RiskTier.DESTRUCTIVE).approved  # fmt: skip
