"""The proxy's pieces without a server: SSE reading, request reading, the policy check."""

from __future__ import annotations

import json

import pytest

from studio.cli import main
from studio.cli.common import UsageError
from studio.cli.proxy import parse_listen
from studio.proxy.grouping import Grouper, digests
from studio.proxy.policy import OnBroken, check_request, provider_error, repair_hint
from studio.proxy.sse import SSEReader, SSEvent
from studio.proxy.wire import Kind, StreamWatcher, read_request, write_messages
from studio.sessions.model import Message, Role, TextPart, ToolResultPart

STREAM = (
    b'data: {"choices": [{"index": 0, "delta": {"content": "Hi \xe4\xbd\xa0"}}]}\r\n\r\n'
    b": keep-alive\n\n"
    b'data: {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}\n\n'
    b"data: [DONE]\n\n"
)


@pytest.mark.parametrize("size", [1, 2, 7, len(STREAM)])
def test_sse_reader_is_indifferent_to_how_chunks_cut_the_stream(size):
    reader = SSEReader()
    events = [e for i in range(0, len(STREAM), size) for e in reader.feed(STREAM[i : i + size])]
    assert [e.data[:12] for e in events] == ['{"choices": ', '{"choices": ', "[DONE]"]
    assert "你" in events[0].data


def test_sse_reader_keeps_event_names_and_multiline_data():
    events = list(SSEReader().feed(b"event: message_stop\ndata: {\ndata: }\n\n"))
    assert events == [SSEvent("message_stop", "{\n}")]


def test_stream_watcher_assembles_the_answer_and_survives_garbage():
    watcher = StreamWatcher(Kind.OPENAI_CHAT)
    watcher.feed(STREAM)
    answer = watcher.answer()
    assert answer.complete and answer.message is not None
    assert answer.message.text == "Hi 你" and answer.stop_reason == "stop"
    broken = StreamWatcher(Kind.OPENAI_CHAT)
    broken.feed(b"data: {not json\n\n")
    assert "not a openai-chat stream" in broken.answer().unreadable


ANTHROPIC_BODY = {
    "system": "Be brief.",
    "messages": [
        {"role": "user", "content": "Check INV-102"},
        {
            "role": "assistant",
            "content": [
                {"type": "tool_use", "id": "toolu_1", "name": "query_invoices", "input": {}}
            ],
        },
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "hurry"},
                {"type": "tool_result", "tool_use_id": "toolu_1", "content": "118.5"},
            ],
        },
    ],
}


def test_anthropic_result_not_first_is_broken_and_rewritten_in_wire_form():
    read = read_request(Kind.ANTHROPIC_MESSAGES, ANTHROPIC_BODY)
    assert [m.role for m in read.messages] == [Role.SYSTEM, Role.USER, Role.ASSISTANT, Role.USER]
    assert read.origin == [-1, 0, 1, 2]
    check = check_request(Kind.ANTHROPIC_MESSAGES, read.messages)
    assert check.broken
    assert "tool_result blocks must come first" in provider_error(Kind.ANTHROPIC_MESSAGES, check)
    assert "messages[3].parts[1]" in repair_hint(check, OnBroken.REFUSE)
    # A repair that moves the result first: unchanged messages go back as sent.
    fixed = Message(Role.USER, (ToolResultPart("toolu_1", "118.5"), TextPart("hurry")))
    body = write_messages(
        Kind.ANTHROPIC_MESSAGES, ANTHROPIC_BODY, read, [*read.messages[:3], fixed]
    )
    assert body["system"] == "Be brief."
    assert body["messages"][:2] == ANTHROPIC_BODY["messages"][:2]
    assert [b["type"] for b in body["messages"][2]["content"]] == ["tool_result", "text"]
    again = read_request(Kind.ANTHROPIC_MESSAGES, body)
    assert not check_request(Kind.ANTHROPIC_MESSAGES, again.messages).broken


def test_openai_accepts_invalid_arguments_so_they_do_not_break_a_request():
    body = {
        "messages": [
            {"role": "user", "content": "x"},
            {
                "role": "assistant",
                "tool_calls": [
                    {
                        "id": "c1",
                        "type": "function",
                        "function": {"name": "f", "arguments": "{oops"},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "c1", "content": "done"},
        ]
    }
    read = read_request(Kind.OPENAI_CHAT, body)
    check = check_request(Kind.OPENAI_CHAT, read.messages)
    assert check.problems and not check.broken


def test_unreadable_messages_become_placeholders():
    read = read_request(Kind.OPENAI_CHAT, {"messages": [{"role": "wizard"}, "nonsense"]})
    assert len(read.messages) == 2 and len(read.unreadable) == 2
    assert read.messages[0].text.startswith("[unreadable message")


def test_grouper_forgets_the_oldest_conversations_past_its_limit():
    grouper = Grouper(limit=2)
    histories = [[Message(Role.USER, (TextPart(f"question {i}"),))] for i in range(3)]
    first = grouper.place(digests(histories[0])).conversation
    for history in histories[1:]:
        grouper.place(digests(history))
    assert len(grouper) == 2
    again = grouper.place(digests(histories[0]))
    assert again.created and again.conversation is not first


def test_listen_addresses():
    assert parse_listen("127.0.0.1:0") == ("127.0.0.1", 0)
    assert parse_listen("[::1]:8788") == ("::1", 8788)
    assert parse_listen(":9000") == ("127.0.0.1", 9000)
    for bad in ("localhost", "host:port", "127.0.0.1:70000"):
        with pytest.raises(UsageError):
            parse_listen(bad)


def test_cli_refuses_bad_arguments(tmp_path, capsys):
    db = str(tmp_path / "cli.sqlite3")
    base = ["proxy", "--db", db, "--kind", "openai-chat"]
    assert main([*base, "--upstream", "ftp://example"]) == 2
    assert "--upstream must be an http(s) URL" in capsys.readouterr().err
    assert main([*base, "--upstream", "http://127.0.0.1:9", "--registry", "nope"]) == 2
    assert "no registry named 'nope'" in capsys.readouterr().err
    assert main([*base, "--upstream", "http://127.0.0.1:9", "--listen", "x"]) == 2


def test_error_bodies_are_json_with_the_provider_shape():
    from studio.proxy.wire import error_body

    openai_body = error_body(Kind.OPENAI_CHAT, "m", "h")
    assert json.loads(json.dumps(openai_body))["error"]["code"] is None
    anthropic_body = error_body(Kind.ANTHROPIC_MESSAGES, "m", "h")
    assert anthropic_body["type"] == "error" and anthropic_body["error"]["message"] == "m"


def test_compressed_answers_are_read_for_the_record():
    import gzip

    from studio.proxy.app import _Decoder

    packed = gzip.compress(STREAM)
    decoder = _Decoder("gzip")
    watcher = StreamWatcher(Kind.OPENAI_CHAT)
    for i in range(0, len(packed), 5):
        watcher.feed(decoder.decode(packed[i : i + 5]))
    assert watcher.answer().message.text == "Hi 你"
    assert _Decoder("br").decode(b"\x00") == b""  # not read; the bytes still go to the agent


def test_model_calls_wait_while_the_writer_is_far_behind(store, monkeypatch):
    import asyncio
    import time

    from studio.proxy.grouping import Conversation
    from studio.proxy.recorder import Recorder, Write

    recorder = Recorder(store)
    monkeypatch.setattr(recorder, "_write", lambda group: time.sleep(0.3))
    recorder.submit(Write(Conversation("slow"), "run", 1))
    assert recorder.pending == 1
    started = time.perf_counter()
    asyncio.run(recorder.below(1))
    assert time.perf_counter() - started > 0.2 and recorder.pending == 0
    recorder.close()
