"""The official anthropic SDK as the agent, through the proxy, against a scripted upstream."""

from __future__ import annotations

import anthropic
import httpx
import pytest

from studio.proxy import Kind, OnBroken
from tests.providers.scripted_server import ANTHROPIC_UNANSWERED, ToolCall, Turn

from .conftest import ANTHROPIC_KEY

TOOLS = [{"name": "query_invoices", "input_schema": {"type": "object"}}]
USER = {"role": "user", "content": "Is invoice INV-102 over the limit?"}
SYSTEM = "You help employees with travel reimbursement."


def client(url: str) -> anthropic.Anthropic:
    return anthropic.Anthropic(base_url=url, api_key=ANTHROPIC_KEY, max_retries=0)


def test_streamed_then_plain_conversation_is_one_session(upstream, proxy, sessions):
    server = upstream(
        [
            Turn(
                text="Let me look.",
                tool_calls=[ToolCall("query_invoices", '{"id": "INV-102"}', fragments=3)],
            ),
            Turn(text="INV-102 is 38.5 over the limit."),
        ]
    )
    px = proxy(server, Kind.ANTHROPIC_MESSAGES)
    agent = client(px.url)
    messages: list[dict] = [USER]
    with agent.messages.stream(
        model="claude-x", max_tokens=256, system=SYSTEM, messages=messages, tools=TOOLS
    ) as stream:
        final = stream.get_final_message()
    tool_use = next(b for b in final.content if b.type == "tool_use")
    assert tool_use.input == {"id": "INV-102"}
    messages += [
        {"role": "assistant", "content": [b.model_dump(exclude_none=True) for b in final.content]},
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": tool_use.id, "content": '{"amount": 118.5}'}
            ],
        },
    ]
    answer = agent.messages.create(
        model="claude-x", max_tokens=256, system=SYSTEM, messages=messages, tools=TOOLS
    )
    assert answer.content[0].text == "INV-102 is 38.5 over the limit."
    px.flush()

    [info] = sessions.list_sessions(source="proxy")
    assert info.system == SYSTEM and info.profile == "claude-x"
    stored = sessions.messages(info.id)
    assert [m["role"] for m in stored] == ["system", "user", "assistant", "tool", "assistant"]
    call = stored[2]["parts"][1]
    assert (call["type"], call["id"], call["arguments"]) == (
        "tool_call",
        "toolu_0_0",
        {"id": "INV-102"},
    )
    assert [e.type for e in sessions.events(info.id)].count("proxy.request") == 2
    # anthropic 2.x sends the key as a bearer token: passed on as sent.
    assert server.requests[0].headers["authorization"] == f"Bearer {ANTHROPIC_KEY}"


def test_stream_bytes_pass_through_unchanged(upstream, proxy):
    turn = Turn(
        text="Clause 4.2: the limit is 80.",
        text_fragments=4,
        tool_calls=[ToolCall("search_policy", '{"q": "limit"}', fragments=2)],
    )
    px = proxy(upstream([turn]), Kind.ANTHROPIC_MESSAGES)
    body = {"model": "m", "max_tokens": 10, "messages": [USER], "stream": True}
    headers = {"anthropic-version": "2023-06-01"}
    direct = httpx.post(upstream([turn]).base_url + "/v1/messages", json=body, headers=headers)
    via = httpx.post(px.url + "/v1/messages", json=body, headers=headers)
    assert via.content == direct.content


BROKEN = [
    USER,
    {
        "role": "assistant",
        "content": [{"type": "tool_use", "id": "toolu_9", "name": "query_invoices", "input": {}}],
    },
    {"role": "user", "content": "never mind, what is the limit?"},
]


@pytest.mark.parametrize("stream", [False, True])
def test_broken_history_forwarded_records_the_provider_error(upstream, proxy, sessions, stream):
    server = upstream([Turn(text="unused")])
    px = proxy(server, Kind.ANTHROPIC_MESSAGES, OnBroken.FORWARD)
    with pytest.raises(anthropic.BadRequestError) as caught:
        client(px.url).messages.create(model="m", max_tokens=10, messages=BROKEN, stream=stream)
    expected = ANTHROPIC_UNANSWERED.format(index=1, ids="toolu_9")
    assert expected in str(caught.value)
    px.flush()
    [info] = sessions.list_sessions(source="proxy")
    request, response = [e.data for e in sessions.events(info.id)]
    assert request["broken"] and request["action"] == "forward"
    assert response["status"] == 400 and expected in response["error"]


@pytest.mark.parametrize("stream", [False, True])
def test_broken_history_refused_with_the_providers_error(upstream, proxy, sessions, stream):
    server = upstream([Turn(text="unused")])
    px = proxy(server, Kind.ANTHROPIC_MESSAGES, OnBroken.REFUSE)
    with pytest.raises(anthropic.BadRequestError) as caught:
        client(px.url).messages.create(model="m", max_tokens=10, messages=BROKEN, stream=stream)
    assert not server.requests
    body = caught.value.body
    assert body["type"] == "error"
    assert body["error"]["type"] == "invalid_request_error"
    # The pairing check's text: the same words the API uses, at the same index.
    assert body["error"]["message"].startswith(
        "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: "
        "toolu_9."
    )
    assert "--on-broken repair" in body["error"]["hint"]
    px.flush()
    [info] = sessions.list_sessions(source="proxy")
    assert info.meta["broken_requests"] == 1


def test_broken_history_repaired_then_answered(upstream, proxy, sessions):
    server = upstream([Turn(text="The limit is 80.")])
    px = proxy(server, Kind.ANTHROPIC_MESSAGES, OnBroken.REPAIR)
    answer = client(px.url).messages.create(model="m", max_tokens=10, messages=BROKEN)
    assert answer.content[0].text == "The limit is 80."
    px.flush()
    [info] = sessions.list_sessions(source="proxy")
    events = {e.type: e.data for e in sessions.events(info.id)}
    assert events["proxy.request"]["action"] == "repair"
    assert events["proxy.repaired"]["changes"] and events["proxy.repaired"]["after"] == []


def test_key_is_never_stored(upstream, proxy, store, db_path):
    server = upstream([Turn(text="hello"), Turn(text="again"), Turn(text="raw")])
    px = proxy(server, Kind.ANTHROPIC_MESSAGES)
    agent = client(px.url)
    agent.messages.create(model="m", max_tokens=10, messages=[USER])
    with agent.messages.stream(model="m", max_tokens=10, messages=[USER]) as stream:
        stream.get_final_message()
    # Agents that send the key as x-api-key (older SDKs, curl).
    raw = httpx.post(
        px.url + "/v1/messages",
        json={
            "model": "m",
            "max_tokens": 5,
            "messages": [{"role": "user", "content": f"my key is {ANTHROPIC_KEY}"}],
        },
        headers={"x-api-key": ANTHROPIC_KEY, "anthropic-version": "2023-06-01"},
    )
    assert raw.status_code == 200
    assert server.requests[-1].headers["x-api-key"] == ANTHROPIC_KEY
    px.stop()
    with store.lock:
        store.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
    for path in db_path.parent.glob(db_path.name + "*"):
        assert ANTHROPIC_KEY.encode() not in path.read_bytes(), path.name
