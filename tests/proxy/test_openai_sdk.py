"""The official openai SDK as the agent, through the proxy, against a scripted upstream."""

from __future__ import annotations

import json
import time

import httpx
import openai
import pytest

from registry_db.sessions import SessionStore
from studio.proxy import Kind, OnBroken
from tests.providers.scripted_server import OPENAI_UNANSWERED, ToolCall, Turn

from .conftest import OPENAI_KEY

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "query_invoices",
            "parameters": {"type": "object", "properties": {"id": {"type": "string"}}},
        },
    }
]
USER = {"role": "user", "content": "Is invoice INV-102 over the limit?"}


def client(url: str) -> openai.OpenAI:
    return openai.OpenAI(base_url=url + "/v1", api_key=OPENAI_KEY, max_retries=0)


def collect_stream(stream) -> tuple[str, list[dict]]:
    text, calls = "", {}
    for chunk in stream:
        for choice in chunk.choices:
            text += choice.delta.content or ""
            for fragment in choice.delta.tool_calls or []:
                call = calls.setdefault(fragment.index, {"id": "", "name": "", "arguments": ""})
                call["id"] = fragment.id or call["id"]
                if fragment.function is not None:
                    call["name"] = fragment.function.name or call["name"]
                    call["arguments"] += fragment.function.arguments or ""
    return text, [calls[i] for i in sorted(calls)]


def assistant_with(calls: list[dict]) -> dict:
    return {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": c["id"],
                "type": "function",
                "function": {"name": c["name"], "arguments": c["arguments"]},
            }
            for c in calls
        ],
    }


def test_streamed_then_plain_conversation_is_one_session(upstream, proxy, sessions):
    server = upstream(
        [
            Turn(tool_calls=[ToolCall("query_invoices", '{"id": "INV-102"}', fragments=4)]),
            Turn(text="INV-102 is 38.5 over the limit.", text_fragments=3),
        ],
        api_key=OPENAI_KEY,
    )
    px = proxy(server, Kind.OPENAI_CHAT)
    agent = client(px.url)
    messages: list[dict] = [USER]
    stream = agent.chat.completions.create(
        model="gpt-x", messages=messages, tools=TOOLS, stream=True
    )
    _, calls = collect_stream(stream)
    assert calls == [{"id": "call_0_0", "name": "query_invoices", "arguments": '{"id": "INV-102"}'}]
    messages += [
        assistant_with(calls),
        {"role": "tool", "tool_call_id": "call_0_0", "content": '{"amount": 118.5}'},
    ]
    answer = agent.chat.completions.create(model="gpt-x", messages=messages, tools=TOOLS)
    assert answer.choices[0].message.content == "INV-102 is 38.5 over the limit."
    px.flush()

    [info] = sessions.list_sessions(source="proxy")
    assert info.title == USER["content"]
    assert info.profile == "gpt-x"
    assert info.meta["broken_requests"] == 0
    assert info.tools == TOOLS
    stored = sessions.messages(info.id)
    assert [m["role"] for m in stored] == ["user", "assistant", "tool", "assistant"]
    assert stored[1]["parts"][0]["arguments"] == '{"id": "INV-102"}'
    assert stored[3]["parts"][0]["text"] == "INV-102 is 38.5 over the limit."
    types = [e.type for e in sessions.events(info.id)]
    assert types == ["proxy.request", "proxy.response", "proxy.request", "proxy.response"]
    # The upstream got the key; the agent's requests went through as sent.
    assert server.requests[0].headers["authorization"] == f"Bearer {OPENAI_KEY}"
    assert server.requests[1].body["messages"] == messages


def test_stream_bytes_pass_through_unchanged(upstream, proxy):
    turn = Turn(
        text="Policy clause 4.2 sets the limit at 80.",
        text_fragments=6,
        tool_calls=[ToolCall("search_policy", '{"q": "limit"}', fragments=3)],
    )
    server = upstream([turn])
    px = proxy(server, Kind.OPENAI_CHAT)
    body = {"model": "m", "messages": [USER], "stream": True}
    direct = httpx.post(upstream([turn]).base_url + "/v1/chat/completions", json=body).content
    via = httpx.post(px.url + "/v1/chat/completions", json=body)
    assert via.content == direct
    assert via.headers["content-type"].startswith("text/event-stream")


def test_stream_chunks_arrive_as_they_are_sent(upstream, proxy):
    server = upstream([Turn(text="one two three four five", text_fragments=5, chunk_delay=0.25)])
    px = proxy(server, Kind.OPENAI_CHAT)
    stream = client(px.url).chat.completions.create(model="m", messages=[USER], stream=True)
    started = time.perf_counter()
    arrivals = []
    for chunk in stream:
        if chunk.choices and chunk.choices[0].delta.content:
            arrivals.append(time.perf_counter() - started)
    assert len(arrivals) == 5
    # Not buffered: the first piece is here long before the last one is sent.
    assert arrivals[-1] - arrivals[0] > 0.75


def test_session_is_visible_while_the_answer_streams(upstream, proxy, sessions):
    server = upstream([Turn(text="thinking about it", text_fragments=4, hang=True)])
    px = proxy(server, Kind.OPENAI_CHAT)
    with httpx.stream(
        "POST",
        px.url + "/v1/chat/completions",
        json={"model": "m", "messages": [USER], "stream": True},
    ) as response:
        chunks = response.iter_raw()
        next(chunks)
        px.flush()
        [info] = sessions.list_sessions(source="proxy")
        assert [m["role"] for m in sessions.messages(info.id)] == ["user"]
    # The agent went away mid-answer: the proxy stops reading the upstream.
    assert server.wait_disconnected(5)
    px.flush()
    response_event = sessions.events(info.id)[-1]
    assert response_event.type == "proxy.response"
    assert response_event.data["complete"] is False


BROKEN = [
    USER,
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "call_9",
                "type": "function",
                "function": {"name": "query_invoices", "arguments": "{}"},
            }
        ],
    },
    {"role": "user", "content": "never mind, what is the limit?"},
]


@pytest.mark.parametrize("stream", [False, True])
def test_broken_history_forwarded_records_the_provider_error(upstream, proxy, sessions, stream):
    server = upstream([Turn(text="unused")])
    px = proxy(server, Kind.OPENAI_CHAT, OnBroken.FORWARD)
    with pytest.raises(openai.BadRequestError) as caught:
        client(px.url).chat.completions.create(model="m", messages=BROKEN, stream=stream)
    expected = OPENAI_UNANSWERED.format(ids="call_9")
    assert caught.value.status_code == 400
    assert expected in str(caught.value)
    assert server.requests, "forwarded"
    px.flush()
    [info] = sessions.list_sessions(source="proxy")
    assert info.meta["broken_requests"] == 1
    request, response = [e.data for e in sessions.events(info.id)]
    assert request["broken"] and request["action"] == "forward"
    assert request["problems"][0]["kind"] == "call-without-result"
    assert response["status"] == 400 and expected in response["error"]


@pytest.mark.parametrize("stream", [False, True])
def test_broken_history_refused_with_the_providers_error(upstream, proxy, sessions, stream):
    server = upstream([Turn(text="unused")])
    px = proxy(server, Kind.OPENAI_CHAT, OnBroken.REFUSE)
    with pytest.raises(openai.BadRequestError) as caught:
        client(px.url).chat.completions.create(model="m", messages=BROKEN, stream=stream)
    assert not server.requests, "refused before forwarding"
    error = caught.value.body
    assert set(error) >= {"message", "type", "param", "code"}
    assert error["type"] == "invalid_request_error"
    assert error["message"] == OPENAI_UNANSWERED.format(ids="call_9")
    assert "--on-broken repair" in error["hint"] and "messages[1]" in error["hint"]
    raw = httpx.post(px.url + "/v1/chat/completions", json={"model": "m", "messages": BROKEN})
    assert raw.status_code == 400
    assert set(raw.json()) == {"error"}
    px.flush()
    [info] = sessions.list_sessions(source="proxy")
    assert [e.type for e in sessions.events(info.id)][:2] == ["proxy.request", "proxy.refused"]


def test_broken_history_repaired_then_answered(upstream, proxy, sessions):
    server = upstream([Turn(text="The limit is 80.")])
    px = proxy(server, Kind.OPENAI_CHAT, OnBroken.REPAIR)
    answer = client(px.url).chat.completions.create(model="m", messages=BROKEN)
    assert answer.choices[0].message.content == "The limit is 80."
    sent = server.requests[0].body["messages"]
    assert sent[0] == BROKEN[0] and sent[-1] == BROKEN[-1]
    px.flush()
    [info] = sessions.list_sessions(source="proxy")
    events = {e.type: e.data for e in sessions.events(info.id)}
    assert events["proxy.request"]["action"] == "repair"
    assert events["proxy.repaired"]["changes"]
    assert events["proxy.repaired"]["after"] == []
    assert events["proxy.repaired"]["changes"][0]["action"] == "add-result"
    # The agent goes on from its own (still broken) history: the same session continues.
    history = [
        *BROKEN,
        {"role": "assistant", "content": "The limit is 80."},
        {"role": "user", "content": "thanks"},
    ]
    server.add(Turn(text="You're welcome."))
    client(px.url).chat.completions.create(model="m", messages=history)
    px.flush()
    assert [s.id for s in sessions.list_sessions(source="proxy")] == [info.id]
    roles = [m["role"] for m in sessions.messages(info.id)]
    assert roles == ["user", "assistant", "tool", "user", "assistant", "user", "assistant"]


def test_key_is_passed_on_and_never_stored(upstream, proxy, store, db_path):
    server = upstream([Turn(text=f"echo {OPENAI_KEY}"), Turn(text="ok")], api_key=OPENAI_KEY)
    px = proxy(server, Kind.OPENAI_CHAT)
    agent = client(px.url)
    agent.chat.completions.create(model="m", messages=[USER])
    for _ in agent.chat.completions.create(model="m", messages=[USER], stream=True):
        pass
    px.stop()  # everything queued is written
    with store.lock:
        store.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
    for path in db_path.parent.glob(db_path.name + "*"):
        assert OPENAI_KEY.encode() not in path.read_bytes(), path.name
    sessions = SessionStore.for_store(store)
    stored = json.dumps([sessions.messages(s.id) for s in sessions.list_sessions()])
    assert "[REDACTED]" in stored
