"""Issue #14 §1: real logs read right (SWE-agent, reused ids, agent CLI transcripts).

The fixtures are transcripts made for these tests in the shapes the tools
write (SWE-agent ``.traj``, Claude Code ``~/.claude/projects``, Codex
``~/.codex/sessions`` rollouts); none is anyone's real transcript.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.cli import main
from studio.sessions.check import check_session
from studio.sessions.importers import find_log_files, import_sessions
from studio.sessions.suspicious import find_suspicious
from tests.sessions.helpers import TICKET, assistant, call, results, user

FIXTURES = Path(__file__).parent / "fixtures"
CLAUDE = FIXTURES / "claude_projects"
CODEX = FIXTURES / "codex_sessions"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


def test_swe_agent_tool_call_ids_list_pairs_with_a_warning_per_message() -> None:
    outcome = import_sessions(FIXTURES / "swe_agent.traj")
    assert outcome.errors == []
    (session,) = outcome.sessions
    assert session.source_format == "openai"
    listed = [w for w in session.warnings if "tool_call_ids" in w.message]
    assert [w.path for w in listed] == [f"$.history[{i}].tool_call_ids" for i in (3, 5, 7)]
    check = check_session(session.messages, origins=session.origins)
    assert check.findings == ()  # the pairing is complete: nothing to report
    assert len(check.pairing.pairs) == 3


def _log_with_reused_id() -> list[object]:
    # An agent framework that reuses a call id and a logger that dropped a message.
    hgn = "call_HGn16KZh9oNCruxsMJ4gYXan"
    return [
        {"role": "user", "content": "File my taxi claim"},
        {"role": "assistant", "tool_calls": [{"id": hgn, "type": "function", "function": {
            "name": "query_invoices",
            "arguments": '{"start_date": "2026-11-01", "end_date": "2026-11-30"}'}}]},
        {"role": "tool", "tool_call_id": hgn, "content": "[]"},
        42,  # not a message: dropped on import, later positions shift by one
        {"role": "assistant", "tool_calls": [{"id": hgn, "type": "function", "function": {
            "name": "create_reimbursement_ticket", "arguments": json.dumps(TICKET)}}]},
        {"role": "user", "content": "and?"},
    ]  # fmt: skip


def test_findings_keep_the_files_ids_and_positions(tmp_path: Path, capsys) -> None:
    path = tmp_path / "log.json"
    path.write_text(json.dumps(_log_with_reused_id()))
    (session,) = import_sessions(path).sessions
    check = check_session(session.messages, origins=session.origins)
    by_kind = {f.kind: f for f in check.findings}
    missing = by_kind["call-without-result"]
    assert missing.original_id == "call_HGn16KZh9oNCruxsMJ4gYXan" != missing.call_id
    assert "'call_HGn16KZh9oNCruxsMJ4gYXan' (renumbered 'call_3_0')" in missing.message
    assert missing.position.message == 3 and missing.origin == "line 1 $[4]"
    reused = by_kind["duplicate-call-id"]
    assert "`tool_use` ids must be unique" in reused.provider_errors["anthropic"]
    assert reused.to_dict()["original_id"] == "call_HGn16KZh9oNCruxsMJ4gYXan"
    # the same from the CLI, as text and as JSON, for the file and for the stored session
    db = str(tmp_path / "s.db")
    code, out = run(capsys, "--db", db, "sessions", "check", str(path))
    assert code == 1 and "messages[3].parts[0] (line 1 $[4])" in out
    assert "call_HGn16KZh9oNCruxsMJ4gYXan" in out
    code, out = run(capsys, "--db", db, "sessions", "import", str(path))
    session_id = out.split("imported ")[1].split("\t")[0]
    code, out = run(capsys, "--db", db, "sessions", "check", session_id, "--format", "json")
    findings = json.loads(out)["sessions"][0]["findings"]
    assert {"log.json line 1 $[4]"} == {f["origin"] for f in findings
                                         if f["kind"] == "call-without-result"}  # fmt: skip


def test_invalid_arguments_say_what_each_provider_does() -> None:
    messages = [user("file it"), assistant(call("c1", "query_invoices", '{"start": ')),
                results(("c1", "[]"))]  # fmt: skip
    (finding,) = check_session(messages).findings
    assert finding.kind == "invalid-arguments-json"
    assert set(finding.provider_errors) == {"openai", "openai-responses", "anthropic", "gemini"}
    assert "valid dictionary" in finding.provider_errors["anthropic"]


def test_a_retried_write_whose_first_attempt_failed_is_not_a_duplicate() -> None:
    failed = [user("file it"), assistant(call("c1", "create_reimbursement_ticket", TICKET)),
              results(("c1", {"error": "VALIDATION", "message": "amount too high"}), error=True),
              assistant(call("c2", "create_reimbursement_ticket", TICKET)),
              results(("c2", {"ticket": "R-55821"}))]  # fmt: skip
    assert find_suspicious(failed) == []
    done = [*failed[:2], results(("c1", {"ticket": "R-55821"})), *failed[3:]]
    (dup,) = find_suspicious(done)
    assert dup.kind.value == "duplicate-write" and "by its name's verb" in dup.message
    check = check_session(done)
    assert check.risk_guessed and "told by their names' verbs" in check.format_text()


def test_import_twice_skips_and_replace_stores_anew(tmp_path: Path, capsys) -> None:
    db = str(tmp_path / "s.db")
    log = str(FIXTURES / "swe_agent.traj")
    code, out = run(capsys, "--db", db, "sessions", "import", log)
    assert code == 0 and "\nimported " in out
    code, out = run(capsys, "--db", db, "sessions", "import", log)
    assert out.startswith("already imported ")
    code, out = run(capsys, "--db", db, "sessions", "import", log, "--replace")
    assert code == 0 and "\nreplaced " in out
    code, out = run(capsys, "--db", db, "sessions", "list")
    assert len(out.strip().splitlines()) == 1
    assert "\t3 calls\t0 problems\t8 messages\tswe_agent.traj\t" in out


def test_claude_code_folder_live_chain_branch_and_subagent(capsys, tmp_path: Path) -> None:
    files = find_log_files(CLAUDE)
    assert [f.name for f in files] == ["5f1c2a9e-0000-4000-8000-000000000001.jsonl",
                                       "agent-a1b2c3d4.jsonl"]  # fmt: skip
    live, branch = import_sessions(files[0]).sessions
    assert live.source_format == "claude-code" and live.model.startswith("claude-sonnet")
    assert live.title == "Taxi invoice INV-102 over the policy limit"  # the summary line
    # one response written as three lines (text + two parallel tool_use) is one message
    assert [len(m.tool_calls) for m in live.messages][:3] == [0, 2, 0]
    assert [len(m.tool_results) for m in live.messages][2] == 2
    assert live.messages[-1].text == "Filed: ticket R-55821 for 80."
    assert live.meta["usage"] == {"input_tokens": 4800, "output_tokens": 160}
    assert check_session(live.messages).findings == ()
    assert (
        branch.meta["branch"] == "abandoned"
        and branch.title == "[branch] Can I claim my taxi invoice INV-102?"
    )
    assert branch.messages[-1].text == "No, only what the policy allows."
    (sub,) = import_sessions(files[1]).sessions
    assert sub.meta["sidechain"] is True and len(sub.messages) == 4
    assert sub.title == "[subagent] Find clause 4.2 of the travel policy."
    assert str(live.origins[1]) == "line 4 $[3]"  # the first line of that response
    db = str(tmp_path / "s.db")
    code, out = run(capsys, "--db", db, "sessions", "import", str(CLAUDE))
    assert code == 0 and out.count("\nimported ") == 3


def test_codex_rollout_pairs_function_and_custom_calls_by_call_id() -> None:
    (path,) = find_log_files(CODEX)
    (session,) = import_sessions(path).sessions
    assert session.source_format == "codex" and session.model == "gpt-5-codex"
    assert session.title.startswith("Raise the taxi limit")
    calls = [c for m in session.messages for c in m.tool_calls]
    assert [c.name for c in calls] == ["shell", "apply_patch"]
    assert calls[1].extra.get("custom") is True and "*** Begin Patch" in calls[1].arguments
    assert check_session(session.messages).findings == ()
    assert session.meta["usage"]["output_tokens"] == 230


def test_claude_code_sidechain_lines_in_the_main_file_and_an_interrupted_call(tmp_path) -> None:
    def line(uuid, parent, kind, content, **extra):
        message = {"role": kind, "content": content}
        if kind == "assistant":
            message.update(id=f"msg_{uuid}", model="claude-sonnet-4-5")
        return {"parentUuid": parent, "isSidechain": False, "sessionId": "s1", "type": kind,
                "uuid": uuid, "message": message, **extra}  # fmt: skip

    use = {"type": "tool_use", "id": "toolu_01Interrupted", "name": "search_policy",
           "input": {"query": "taxi"}}  # fmt: skip
    lines = [
        line("a", None, "user", "What does clause 4.2 say?"),
        line("b", "a", "assistant", [use]),
        line("x", "b", "user", "Look it up", isSidechain=True),
        line("y", "x", "assistant", [{"type": "text", "text": "80 per trip"}], isSidechain=True),
        line("c", "b", "user", [{"type": "text", "text": "[Request interrupted by user]"}]),
    ]
    path = tmp_path / "s1.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    live, sub = import_sessions(path).sessions
    assert sub.meta["sidechain"] is True and sub.messages[-1].text == "80 per trip"
    (finding,) = check_session(live.messages, origins=live.origins).findings
    assert finding.kind == "call-without-result" and finding.call_id == "toolu_01Interrupted"
    assert finding.origin == "line 2 $[1]"


def test_check_a_folder_of_transcripts(capsys, tmp_path: Path) -> None:
    code, out = run(capsys, "--db", str(tmp_path / "s.db"), "sessions", "check", str(CODEX))
    assert code == 0 and out.count("== ") == 1 and "Raise the taxi limit" in out
