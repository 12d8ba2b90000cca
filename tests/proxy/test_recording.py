"""How the proxy groups requests into sessions, and re-validates proposed calls."""

from __future__ import annotations

import httpx
import pytest

from registry_db import RegistryStore, UpsertTool
from studio.contract import RiskTier, ToolContract
from studio.proxy import Kind, RegistryTarget
from tests.providers.scripted_server import ToolCall, Turn

URL = "/v1/chat/completions"
USER = {"role": "user", "content": "What is the policy limit for taxis?"}


def post(url: str, messages: list[dict], **headers: str) -> httpx.Response:
    response = httpx.post(url + URL, json={"model": "m", "messages": messages}, headers=headers)
    assert response.status_code == 200, response.text
    return response


def assistant(response: httpx.Response) -> dict:
    return response.json()["choices"][0]["message"]


def test_history_prefix_continues_and_regenerate_forks(upstream, proxy, sessions):
    server = upstream([Turn(text="80 per ride."), Turn(text="Thanks!"), Turn(text="It is 80.")])
    px = proxy(server, Kind.OPENAI_CHAT)
    first = post(px.url, [USER])
    sid = first.headers["x-studio-session-id"]
    history = [USER, assistant(first), {"role": "user", "content": "thanks"}]
    second = post(px.url, history)
    assert second.headers["x-studio-session-id"] == sid
    # The same first request again (a regenerated answer) forks the conversation.
    third = post(px.url, [USER])
    fork = third.headers["x-studio-session-id"]
    assert fork != sid
    px.flush()
    assert [m["role"] for m in sessions.messages(sid)] == ["user", "assistant", "user", "assistant"]
    forked = sessions.get_session(fork)
    assert (forked.parent_session_id, forked.parent_message_index) == (sid, 1)
    assert [m["parts"][0]["text"] for m in sessions.messages(fork)] == [
        USER["content"],
        "It is 80.",
    ]


def test_unrelated_histories_are_separate_sessions(upstream, proxy, sessions):
    px = proxy(upstream([Turn(text="a"), Turn(text="b")]), Kind.OPENAI_CHAT)
    a = post(px.url, [USER]).headers["x-studio-session-id"]
    b = post(px.url, [{"role": "user", "content": "Has my claim been filed?"}])
    assert b.headers["x-studio-session-id"] != a
    px.flush()
    assert len(sessions.list_sessions(source="proxy")) == 2


def test_grouping_header_names_the_conversation(upstream, proxy, sessions):
    server = upstream([Turn(text="a"), Turn(text="b"), Turn(text="c")])
    px = proxy(server, Kind.OPENAI_CHAT)
    one = post(px.url, [USER], **{"X-Studio-Session": "run-7"}).headers["x-studio-session-id"]
    # A trimmed history under the same header: a fork, and the header now names it.
    other = {"role": "user", "content": "Start over: list my invoices."}
    two = post(px.url, [other], **{"X-Studio-Session": "run-7"}).headers["x-studio-session-id"]
    assert two != one
    history = [other, {"role": "assistant", "content": "b"}, {"role": "user", "content": "ok"}]
    three = post(px.url, history, **{"X-Studio-Session": "run-7"})
    assert three.headers["x-studio-session-id"] == two
    assert "x-studio-session" not in server.requests[0].headers  # the proxy's own header
    px.flush()
    info = sessions.get_session(two)
    assert info.meta["grouped_by"] == "header" and info.meta["session_header"] == "run-7"
    assert info.parent_session_id == one
    assert len(sessions.messages(two)) == 4


def test_model_list_and_other_paths_pass_through_unrecorded(upstream, proxy, sessions):
    px = proxy(upstream([]), Kind.OPENAI_CHAT)
    models = httpx.get(px.url + "/v1/models")
    assert models.status_code == 200 and models.json()["data"][0]["id"] == "scripted-model"
    assert httpx.post(px.url + "/v1/nowhere", json={}).status_code == 404
    px.flush()
    assert sessions.list_sessions(source="proxy") == []


def test_a_body_the_studio_cannot_store_passes_through_unrecorded(upstream, proxy, sessions):
    server = upstream([Turn(text="a"), Turn(text="b"), Turn(text="c")])
    px = proxy(server, Kind.OPENAI_CHAT)
    nested = "[" * 150 + "]" * 150  # deeper than the studio stores
    deep = '{"model": "m", "messages": [{"role": "user", "content": "hi", "x": ' + nested + "}]}"
    surrogate = '{"model": "m", "messages": [{"role": "user", "content": "\\ud800"}]}'
    for body in (deep, surrogate):
        response = httpx.post(
            px.url + URL, content=body, headers={"content-type": "application/json"}
        )
        assert response.status_code == 200, response.text  # forwarded as sent
    # The proxy still records what it can store.
    sid = post(px.url, [USER]).headers["x-studio-session-id"]
    px.flush()
    assert [s.id for s in sessions.list_sessions(source="proxy")] == [sid]
    assert [m["role"] for m in sessions.messages(sid)] == ["user", "assistant"]


def test_unreachable_upstream_is_a_502_in_the_providers_shape(proxy, upstream, sessions):
    server = upstream([])
    px = proxy(server, Kind.OPENAI_CHAT)
    server.stop()
    response = httpx.post(px.url + URL, json={"model": "m", "messages": [USER]})
    assert response.status_code == 502
    assert response.json()["error"]["type"] == "api_connection_error"
    px.flush()
    [info] = sessions.list_sessions(source="proxy")
    assert sessions.events(info.id)[-1].data["status"] == 502


@pytest.fixture
def registry(store: RegistryStore) -> str:
    store.create_registry("travel", title="Travel reimbursement")
    tool = ToolContract(
        name="query_invoices",
        summary="Lists the employee's invoices in a date range.",
        parameters={
            "type": "object",
            "properties": {"start_date": {"type": "string", "format": "date"}},
            "required": ["start_date"],
        },
        risk=RiskTier.READ,
    )
    store.save_draft("travel", [UpsertTool(tool)])
    store.publish("travel", notes="first", semver="1.0.0")
    return "travel"


@pytest.mark.parametrize("stream", [False, True])
def test_proposed_calls_are_revalidated_into_outcomes(upstream, proxy, sessions, registry, stream):
    calls = [
        ToolCall("query_invoices", '{"start_date": "2026-03-01"}', fragments=3),
        ToolCall("query_invoices", '{"from": "March"}'),
        ToolCall("create_ticket", "{}"),
    ]
    server = upstream([Turn(tool_calls=calls)])
    px = proxy(server, Kind.OPENAI_CHAT, registry=RegistryTarget(registry))
    response = httpx.post(px.url + URL, json={"model": "m", "messages": [USER], "stream": stream})
    assert response.status_code == 200
    px.flush()
    outcomes = sessions.outcomes(registry)
    assert [(o.tool, o.status, o.error_code) for o in outcomes] == [
        ("query_invoices", "ok", ""),
        ("query_invoices", "rejected", outcomes[1].error_code),
        ("create_ticket", "rejected", "UNKNOWN_TOOL"),
    ]
    assert outcomes[1].error_code
    assert {o.version for o in outcomes} == {"1"}
    [info] = sessions.list_sessions(source="proxy")
    assert (info.registry, info.version) == ("travel", "1")
    revalidated = [e.data for e in sessions.events(info.id) if e.type == "proxy.revalidated"]
    assert revalidated[0]["counts"]["passes"] == 1


def test_an_answer_cut_short_is_recorded_in_its_event_not_as_a_message(upstream, proxy, sessions):
    turn = Turn(
        text="The limit is eighty",
        text_fragments=4,
        stream_error=("server_error", "the model crashed"),
    )
    px = proxy(upstream([turn]), Kind.OPENAI_CHAT)
    body = {"model": "m", "messages": [USER], "stream": True}
    with httpx.stream("POST", px.url + URL, json=body) as response:
        raw = b"".join(response.iter_raw())
    assert b"the model crashed" in raw  # passed on as the upstream sent it
    px.flush()
    [info] = sessions.list_sessions(source="proxy")
    assert [m["role"] for m in sessions.messages(info.id)] == ["user"]
    answer = sessions.events(info.id)[-1].data
    assert answer["complete"] is False and "the model crashed" in answer["stream_error"]
    assert answer["partial"]["parts"][0]["text"].startswith("The")


def test_concurrent_streams_all_arrive_whole_and_are_all_recorded(upstream, proxy, sessions):
    import asyncio

    count = 30
    turns = [
        Turn(text=f"answer number {i} " * 5, text_fragments=10, chunk_delay=0.005)
        for i in range(count)
    ]
    server = upstream(turns)
    # The scripted server listens with Python's default backlog of 5; the proxy opens
    # every upstream connection at once.
    server._server.socket.listen(64)
    px = proxy(server, Kind.OPENAI_CHAT)

    async def one(client: httpx.AsyncClient, i: int) -> bytes:
        body = {
            "model": "m",
            "stream": True,
            "messages": [{"role": "user", "content": f"question {i}"}],
        }
        async with client.stream("POST", px.url + URL, json=body) as response:
            return b"".join([chunk async for chunk in response.aiter_raw()])

    async def run() -> list[bytes]:
        async with httpx.AsyncClient(timeout=30) as client:
            return await asyncio.gather(*(one(client, i) for i in range(count)))

    bodies = asyncio.run(run())
    assert all(b.endswith(b"data: [DONE]\n\n") for b in bodies)
    px.flush()
    infos = sessions.list_sessions(source="proxy")
    assert len(infos) == count
    answers = {sessions.messages(s.id)[1]["parts"][0]["text"] for s in infos}
    assert answers == {f"answer number {i} " * 5 for i in range(count)}


def test_a_restarted_proxy_continues_recorded_conversations(upstream, proxy, sessions):
    server = upstream([Turn(text="80 per ride."), Turn(text="You're welcome.")])
    first = proxy(server, Kind.OPENAI_CHAT)
    answer = post(first.url, [USER])
    sid = answer.headers["x-studio-session-id"]
    first.stop()
    again = proxy(server, Kind.OPENAI_CHAT)
    history = [USER, assistant(answer), {"role": "user", "content": "thanks"}]
    assert post(again.url, history).headers["x-studio-session-id"] == sid
    again.flush()
    assert len(sessions.messages(sid)) == 4
    assert [e.seq for e in sessions.events(sid)] == [1, 2, 3, 4]
