"""Importing logs in every format, including the messy variants real logs have."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from studio.sessions.importers import detect_session_format, dump_session, import_sessions
from studio.sessions.model import Role, TextPart, ToolCallPart, ToolResultPart
from studio.sessions.pairing import analyse_pairing

FIXTURES = Path(__file__).parent / "fixtures"


def one(name: str, fmt: str = "auto"):
    outcome = import_sessions(FIXTURES / name, fmt)
    assert len(outcome.sessions) == 1, outcome
    return outcome.sessions[0], outcome


def test_openai_chat_object_with_tools() -> None:
    session, outcome = one("openai_chat.json")
    assert outcome.errors == [] and session.warnings == []
    assert session.source_format == "openai"
    assert session.model == "gpt-4o"
    assert [m.role for m in session.messages] == [
        Role.SYSTEM, Role.USER, Role.ASSISTANT, Role.TOOL, Role.ASSISTANT,
    ]  # fmt: skip
    (call,) = session.messages[2].tool_calls
    assert call.id == "call_a1" and isinstance(call.arguments, str)
    assert json.loads(call.arguments)["category"] == "taxi"
    assert [t["function"]["name"] for t in session.tools] == [
        "query_invoices", "create_reimbursement_ticket",
    ]  # fmt: skip
    assert session.title == "Can I claim my taxi invoice INV-102?"
    assert analyse_pairing(session.messages).problems == ()


def test_openai_messy_log_is_accepted_with_a_warning_per_occurrence() -> None:
    session, outcome = one("openai_messy.json")
    texts = [w.message for w in session.warnings]
    assert sum("encoded 2 times" in t for t in texts) == 1
    assert sum("renumbered" in t for t in texts) == 2  # call_0 used twice
    assert sum("answers 2 ids" in t for t in texts) == 1
    # the non-object message is rejected with its JSON path, the rest imported
    (error,) = outcome.errors
    assert (error.file, error.line, error.path) == ("openai_messy.json", 1, "$[5]")
    assert "must be an object" in error.message
    assert session.messages[0].text == "File a ticket for INV-102"
    first = session.messages[1].tool_calls[0]
    assert json.loads(first.arguments) == {"start_date": "2026-11-01", "end_date": "2026-11-30"}
    assert first.extra["original_id"] == "call_0"
    assert session.messages[1].extra == {"x_trace_id": "t-1"}
    # renumbered ids still pair; the split tool message answers both calls, and
    # the reuse of call_0 (Anthropic refuses it) is the one problem left
    report = analyse_pairing(session.messages)
    (reused,) = report.problems
    assert reused.kind.value == "duplicate-call-id" and "'call_0'" in reused.message
    assert "ids must be unique" in reused.provider_errors["anthropic"]
    results = session.messages[4].tool_results
    assert [r.content for r in results] == ['{"ticket": "R-55821"}', "[]"]


def test_openai_responses_pairs_by_call_id_not_item_id() -> None:
    session, outcome = one("openai_responses.json")
    assert session.source_format == "openai-responses" and outcome.errors == []
    roles = [m.role for m in session.messages]
    assert roles == [Role.SYSTEM, Role.USER, Role.ASSISTANT, Role.TOOL, Role.ASSISTANT]
    (call,) = session.messages[2].tool_calls
    assert call.id == "call_r1" and call.extra["item_id"] == "fc_1"
    assert session.messages[2].extra["items"][0]["type"] == "reasoning"
    assert session.messages[3].tool_results[0].id == "call_r1"
    assert analyse_pairing(session.messages).problems == ()


def test_anthropic_blocks_system_and_kept_thinking() -> None:
    session, outcome = one("anthropic.json")
    assert session.source_format == "anthropic" and outcome.errors == []
    assert session.messages[0].role is Role.SYSTEM
    assistant = session.messages[2]
    assert assistant.extra["blocks"][0]["block"]["type"] == "thinking"
    assert assistant.tool_calls[0].arguments == {
        "start_date": "2026-11-01", "end_date": "2026-11-30",
    }  # fmt: skip
    assert session.messages[3].role is Role.TOOL
    assert session.messages[3].tool_results[0].content == '[{"id": "INV-102"}]'
    assert analyse_pairing(session.messages).problems == ()


def test_anthropic_messy_string_input_result_not_first_and_bad_role() -> None:
    session, outcome = one("anthropic_messy.json")
    assert session.messages[2].tool_calls[0].arguments == {"start_date": "2026-11-01"}
    assert any("JSON string, not an object" in w.message for w in session.warnings)
    (error,) = outcome.errors
    assert error.path == "$.messages[3].role"
    mixed = session.messages[3]
    assert mixed.role is Role.USER and isinstance(mixed.parts[0], TextPart)
    kinds = {p.kind.value for p in analyse_pairing(session.messages).problems}
    assert "result-not-first" in kinds


def test_gemini_ids_assigned_and_thought_signature_kept() -> None:
    session, outcome = one("gemini.json")
    assert session.source_format == "gemini" and outcome.errors == []
    calls = session.messages[2].tool_calls
    assert calls[0].extra["thoughtSignature"] == "c2lnbmF0dXJl"
    results = session.messages[3].tool_results
    assert [r.id for r in results] == [c.id for c in calls]
    assert [r.name for r in results] == ["query_invoices", "search_policy"]
    assert analyse_pairing(session.messages).problems == ()


def test_jsonl_one_conversation_per_line_with_errors_by_line() -> None:
    outcome = import_sessions(FIXTURES / "mixed.jsonl")
    assert [(s.source_format, s.line) for s in outcome.sessions] == [
        ("openai", 1), ("gemini", 2), ("anthropic", 5),
    ]  # fmt: skip
    assert [(e.line, e.path) for e in outcome.errors] == [(3, "$"), (4, "")]
    assert "cannot tell the format" in outcome.errors[0].message
    assert "not JSON" in outcome.errors[1].message


def test_jsonl_one_message_per_line_is_one_conversation() -> None:
    session, _ = one("messages_per_line.jsonl")
    assert len(session.messages) == 4 and session.line == 1


def test_studio_format_round_trips_exactly() -> None:
    session, _ = one("gemini.json")
    line = dump_session(session.messages, tools=session.tools, title="t", meta={"model": "g"})
    again = import_sessions(line + "\n" + line)
    assert len(again.sessions) == 2
    assert again.sessions[0].messages == session.messages
    assert again.sessions[0].source_format == "studio"
    assert again.sessions[0].title == "t" and again.sessions[0].model == "g"


def test_forced_format_and_unknown_format() -> None:
    outcome = import_sessions(FIXTURES / "openai_chat.json", "gemini")
    assert outcome.sessions == [] and outcome.errors[0].path == "$"
    with pytest.raises(ValueError, match="unknown session format"):
        import_sessions("[]", "yaml")


def test_invalid_json_names_the_line() -> None:
    outcome = import_sessions('{\n  "messages": [\n    {"role": "user",, }\n  ]\n}')
    (error,) = outcome.errors
    assert error.line == 3 and "not JSON" in error.message


def test_empty_ids_get_numbered_and_paired() -> None:
    doc = [
        {"role": "user", "content": "x"},
        {"role": "assistant", "tool_calls": [
            {"id": "", "type": "function", "function": {"name": "a", "arguments": "{}"}},
            {"type": "function", "function": {"name": "b", "arguments": "{}"}},
        ]},
        {"role": "tool", "tool_call_id": "", "name": "b", "content": "B"},
        {"role": "tool", "tool_call_id": "", "name": "a", "content": "A"},
    ]  # fmt: skip
    session = import_sessions(json.dumps(doc)).sessions[0]
    calls = session.messages[1].tool_calls
    assert len({c.id for c in calls}) == 2 and all(c.id for c in calls)
    by_id = {r.id: r.content for m in session.messages for r in m.tool_results}
    assert by_id == {calls[0].id: "A", calls[1].id: "B"}
    assert analyse_pairing(session.messages).problems == ()


def test_progress_and_cancel(tmp_path: Path) -> None:
    line = json.dumps({"messages": [{"role": "user", "content": "x" * 50}]})
    path = tmp_path / "many.jsonl"
    path.write_text("\n".join([line] * 500) + "\n")
    seen: list[tuple[int, int]] = []
    outcome = import_sessions(path, progress=lambda d, t: seen.append((d, t)))
    assert len(outcome.sessions) == 500 and not outcome.cancelled
    assert seen[-1][0] == seen[-1][1] and len(seen) <= 210

    cancel = threading.Event()

    def stop_halfway(done: int, total: int) -> None:
        if done > total // 2:
            cancel.set()

    outcome = import_sessions(path, progress=stop_halfway, cancel=cancel)
    assert outcome.cancelled and 200 < len(outcome.sessions) < 500


def test_detection_of_shapes() -> None:
    assert detect_session_format([{"role": "user", "content": "x"}]) == "openai"
    assert detect_session_format({"contents": []}) == "gemini"
    assert detect_session_format({"input": "hi"}) == "openai-responses"
    assert detect_session_format({"system": "s", "messages": []}) == "anthropic"
    assert detect_session_format({"format": "openai-chat", "messages": []}) == "openai"
    assert detect_session_format(3) is None


def test_content_parts_model() -> None:
    doc = {"messages": [{"role": "user", "content": [
        {"type": "text", "text": "look"}, {"type": "image_url", "image_url": {"url": "x"}},
    ]}]}  # fmt: skip
    msg = import_sessions(json.dumps(doc)).sessions[0].messages[0]
    assert msg.text == "look" and msg.extra["content_parts"][0]["index"] == 1
    assert isinstance(msg.parts[0], TextPart)
    assert not any(isinstance(p, ToolCallPart | ToolResultPart) for p in msg.parts)


def test_bytes_that_are_not_utf8_are_replaced_and_said_on_their_session(tmp_path: Path) -> None:
    first = {"messages": [{"role": "user", "content": "hello"}]}
    second = {"messages": [{"role": "user", "content": "PLACEHOLDER 你好"}]}
    line = json.dumps(second, ensure_ascii=False).encode("utf-8")
    line = line.replace(b"PLACEHOLDER", b"caf\xe9 \xff")  # Latin-1 and a stray byte
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(json.dumps(first).encode() + b"\n" + line + b"\n")
    outcome = import_sessions(path)
    assert not outcome.errors and len(outcome.sessions) == 2
    clean, mixed = outcome.sessions
    assert clean.warnings == []
    assert mixed.messages[0].text == "caf\ufffd \ufffd 你好"
    [warning] = mixed.warnings
    assert (warning.file, warning.line) == ("mixed.jsonl", 2)
    assert warning.message == "2 bytes that are not UTF-8 replaced with U+FFFD"
    pretty = tmp_path / "pretty.json"  # a whole document, read at once
    pretty.write_bytes(json.dumps(second, indent=2, ensure_ascii=False).encode().replace(
        b"PLACEHOLDER", b"\xff"
    ))  # fmt: skip
    [session] = import_sessions(pretty).sessions
    assert [w.message for w in session.warnings] == [
        "1 byte that is not UTF-8 replaced with U+FFFD"
    ]


def test_a_title_with_a_bidi_override_is_printed_escaped(tmp_path: Path, capsys) -> None:
    from studio.cli import main

    log = tmp_path / "rtl.jsonl"
    text = "invoice \u202egpj.exe"  # shows as "invoice exe.jpg" on a terminal
    log.write_text(json.dumps({"messages": [{"role": "user", "content": text}]}), "utf-8")
    assert main(["--db", str(tmp_path / "s.db"), "sessions", "import", str(log)]) == 0
    out = capsys.readouterr().out
    assert "\u202e" not in out and "invoice \\u202egpj.exe" in out
