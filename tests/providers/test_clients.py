"""Both provider clients against the real scripted server on loopback."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from contextlib import aclosing
from typing import Any

import pytest

from studio.providers import (
    AnthropicMessagesClient,
    ModelParams,
    ModelRequest,
    OpenAIChatClient,
    ProviderError,
    StreamEvent,
    TextDelta,
    ToolCallDelta,
    ToolCallStarted,
    ToolSpec,
    TurnCompleted,
)
from studio.providers.http import HTTPModelClient
from studio.sessions.model import Message, Role, TextPart, ToolCallPart, ToolResultPart
from tests.providers.scripted_server import ScriptedServer, ToolCall, Turn

KEY = "sk-secret-123"
INVOICE = ToolSpec(
    "get_invoice",
    "Look up an invoice.",
    {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]},
)

PROVIDERS = ["openai", "anthropic"]
MODES = [True, False]


def make_client(kind: str, server: ScriptedServer, **kwargs: Any) -> HTTPModelClient:
    cls = OpenAIChatClient if kind == "openai" else AnthropicMessagesClient
    return cls(server.base_url, "test-model", KEY, **kwargs)


def user(text: str) -> Message:
    return Message(Role.USER, (TextPart(text),))


def request(*messages: Message, stream: bool = True, **params: Any) -> ModelRequest:
    return ModelRequest(
        messages=messages or (user("What is INV-102?"),),
        tools=(INVOICE,),
        system="You help with reimbursements.",
        params=ModelParams(stream=stream, **params),
    )


async def collect(client: Any, req: ModelRequest) -> list[StreamEvent]:
    async with aclosing(client.stream(req)) as events:
        return [event async for event in events]


def run(kind: str, server: ScriptedServer, req: ModelRequest, **kwargs: Any) -> list[StreamEvent]:
    async def main() -> list[StreamEvent]:
        client = make_client(kind, server, **kwargs)
        try:
            return await collect(client, req)
        finally:
            await client.aclose()

    return asyncio.run(main())


def completed(events: list[StreamEvent]) -> TurnCompleted:
    assert isinstance(events[-1], TurnCompleted)
    assert sum(isinstance(e, TurnCompleted) for e in events) == 1
    return events[-1]


@pytest.mark.parametrize("stream", MODES)
@pytest.mark.parametrize("kind", PROVIDERS)
def test_text_answer_with_usage(kind: str, stream: bool) -> None:
    with ScriptedServer([Turn(text="INV-102 is 118.5 EUR.", text_fragments=4, usage=(30, 9))]) as s:
        events = run(kind, s, request(stream=stream))
    done = completed(events)
    assert done.message.role is Role.ASSISTANT
    assert done.message.text == "INV-102 is 118.5 EUR."
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == done.message.text
    if stream:
        assert sum(isinstance(e, TextDelta) for e in events) == 4
    assert done.stop_reason == ("stop" if kind == "openai" else "end_turn")
    assert (done.usage.input_tokens, done.usage.output_tokens) == (30, 9)
    assert s.requests[0].body == done.raw_request
    assert done.raw_request["stream"] is stream


@pytest.mark.parametrize("stream", MODES)
@pytest.mark.parametrize("kind", PROVIDERS)
def test_parallel_tool_calls_split_across_fragments(kind: str, stream: bool) -> None:
    first = json.dumps({"id": "INV-102", "note": "杭州 trip, 118.5"})
    second = json.dumps({"id": "INV-103"})
    turn = Turn(
        text="Looking up both.",
        tool_calls=[
            ToolCall("get_invoice", first, fragments=17),
            ToolCall("get_invoice", second, fragments=6),
        ],
        interleave=True,
    )
    with ScriptedServer([turn]) as s:
        events = run(kind, s, request(stream=stream))
    done = completed(events)
    calls = done.message.tool_calls
    assert [c.name for c in calls] == ["get_invoice", "get_invoice"]
    prefix = "call" if kind == "openai" else "toolu"
    assert [c.id for c in calls] == [f"{prefix}_0_0", f"{prefix}_0_1"]
    if kind == "openai":
        assert [c.arguments for c in calls] == [first, second]  # the exact strings
    else:
        assert [c.arguments for c in calls] == [json.loads(first), json.loads(second)]
    assert done.stop_reason == ("tool_calls" if kind == "openai" else "tool_use")
    started = [e for e in events if isinstance(e, ToolCallStarted)]
    assert [(e.index, e.id) for e in started] == [(0, calls[0].id), (1, calls[1].id)]
    pieces: dict[int, str] = {0: "", 1: ""}
    for event in events:
        if isinstance(event, ToolCallDelta):
            pieces[event.index] += event.fragment
    assert pieces == {0: first, 1: second}
    if stream:
        # Deltas come before completion: a call is only complete in TurnCompleted.
        assert sum(isinstance(e, ToolCallDelta) for e in events) == 17 + 6


@pytest.mark.parametrize("stream", MODES)
@pytest.mark.parametrize("kind", PROVIDERS)
def test_invalid_json_arguments_are_kept_as_the_raw_string(kind: str, stream: bool) -> None:
    broken = '{"id": "INV-102", "amount": 118.5'
    with ScriptedServer([Turn(tool_calls=[ToolCall("get_invoice", broken, fragments=5)])]) as s:
        done = completed(run(kind, s, request(stream=stream)))
    assert done.message.tool_calls[0].arguments == broken


@pytest.mark.parametrize("kind", PROVIDERS)
def test_a_full_tool_round_trip_is_accepted_by_the_validating_server(kind: str) -> None:
    args = '{"id": "INV-102"}'
    turns = [
        Turn(tool_calls=[ToolCall("get_invoice", args), ToolCall("get_invoice", args)]),
        Turn(text="Done."),
    ]

    async def main() -> TurnCompleted:
        client = make_client(kind, s)
        try:
            history: tuple[Message, ...] = (user("Check INV-102"),)
            first = completed(await collect(client, request(*history)))
            results = tuple(
                Message(Role.TOOL, (ToolResultPart(c.id, '{"amount": 118.5}'),))
                for c in first.message.tool_calls
            )
            history = (*history, first.message, *results)
            return completed(await collect(client, request(*history)))
        finally:
            await client.aclose()

    with ScriptedServer(turns) as s:
        second = asyncio.run(main())
    assert second.message.text == "Done."
    sent = s.requests[1].body["messages"]
    if kind == "openai":
        assert [m["role"] for m in sent] == ["system", "user", "assistant", "tool", "tool"]
        assert sent[2]["tool_calls"][0]["function"]["arguments"] == args
    else:
        assert [m["role"] for m in sent] == ["user", "assistant", "user"]
        assert [b["type"] for b in sent[2]["content"]] == ["tool_result", "tool_result"]
        assert sent[1]["content"][0]["input"] == {"id": "INV-102"}


@pytest.mark.parametrize("stream", MODES)
@pytest.mark.parametrize("kind", PROVIDERS)
def test_429_with_retry_after_is_honoured(kind: str, stream: bool, sleep: Callable) -> None:
    turns = [Turn.error(429, "Rate limit reached", retry_after="7"), Turn(text="ok")]
    with ScriptedServer(turns) as s:
        done = completed(run(kind, s, request(stream=stream), sleep=sleep))
    assert done.message.text == "ok"
    assert sleep.delays == [7.0]
    assert len(s.model_requests) == 2


@pytest.mark.parametrize("kind", PROVIDERS)
def test_500_is_retried_with_jittered_backoff(kind: str, sleep: Callable, rng: Any) -> None:
    turns = [Turn.error(500), Turn.error(503), Turn(text="ok")]
    with ScriptedServer(turns) as s:
        done = completed(run(kind, s, request(), sleep=sleep, rng=rng, max_retries=2))
    assert done.message.text == "ok"
    assert len(sleep.delays) == 2
    assert 0 <= sleep.delays[0] <= 0.5 and 0 <= sleep.delays[1] <= 1.0


@pytest.mark.parametrize("kind", PROVIDERS)
def test_retries_are_bounded(kind: str, sleep: Callable) -> None:
    kind_529 = 529 if kind == "anthropic" else 502
    turns = [Turn.error(kind_529, "Overloaded")] * 3 + [Turn(text="never")]
    with ScriptedServer(turns) as s, pytest.raises(ProviderError) as info:
        run(kind, s, request(), sleep=sleep, max_retries=2)
    assert info.value.status == kind_529 and info.value.retryable
    assert info.value.message == "Overloaded"
    assert len(sleep.delays) == 2 and s.remaining == 1


@pytest.mark.parametrize("kind", PROVIDERS)
def test_400_is_not_retried_and_the_message_is_verbatim(kind: str, sleep: Callable) -> None:
    """A broken history: the tool call is never answered."""
    call = ToolCallPart(
        "call_lost" if kind == "openai" else "toolu_lost", "get_invoice", '{"id": "INV-102"}'
    )
    history = (user("Check"), Message(Role.ASSISTANT, (call,)), user("and?"))
    with ScriptedServer([Turn(text="never")]) as s, pytest.raises(ProviderError) as info:
        run(kind, s, request(*history), sleep=sleep)
    error = info.value
    assert error.status == 400 and not error.retryable
    assert error.type == "invalid_request_error"
    if kind == "openai":
        assert error.message == (
            "An assistant message with 'tool_calls' must be followed by tool messages responding "
            "to each 'tool_call_id'. The following tool_call_ids did not have response messages: "
            "call_lost"
        )
    else:
        assert (
            "`tool_use` ids were found without `tool_result` blocks immediately after: toolu_lost"
            in error.message
        )
    assert json.loads(error.body)
    assert sleep.delays == [] and len(s.requests) == 1


@pytest.mark.parametrize("kind", PROVIDERS)
def test_error_event_inside_the_stream_surfaces(kind: str) -> None:
    turn = Turn(text="partial", stream_error=("overloaded_error", "Overloaded"))
    with ScriptedServer([turn]) as s, pytest.raises(ProviderError) as info:
        run(kind, s, request())
    assert info.value.type == "overloaded_error" and info.value.message == "Overloaded"


@pytest.mark.parametrize("kind", PROVIDERS)
def test_cancellation_mid_stream_closes_the_connection(kind: str) -> None:
    async def main(server: ScriptedServer) -> list[StreamEvent]:
        client = make_client(kind, server)
        seen: list[StreamEvent] = []
        first = asyncio.Event()

        async def consume() -> None:
            async with aclosing(client.stream(request())) as events:
                async for event in events:
                    seen.append(event)
                    first.set()

        task = asyncio.create_task(consume())
        await asyncio.wait_for(first.wait(), 5)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await client.aclose()
        return seen

    with ScriptedServer([Turn(text="a long answer", text_fragments=5, hang=True)]) as s:
        seen = asyncio.run(main(s))
        assert s.wait_disconnected(5)
    assert not any(isinstance(e, TurnCompleted) for e in seen)


@pytest.mark.parametrize("stream", MODES)
@pytest.mark.parametrize("kind", PROVIDERS)
def test_api_key_only_in_headers(kind: str, stream: bool) -> None:
    with ScriptedServer([Turn(text="ok")], api_key=KEY) as s:
        done = completed(run(kind, s, request(stream=stream)))
        client = make_client(kind, s)
        snapshot = client.snapshot(request())
    headers = s.requests[0].headers
    if kind == "openai":
        assert headers["authorization"] == f"Bearer {KEY}"
        assert snapshot["headers"]["Authorization"] == "***"
    else:
        assert headers["x-api-key"] == KEY and headers["anthropic-version"] == "2023-06-01"
        assert snapshot["headers"]["x-api-key"] == "***"
    assert KEY not in json.dumps(done.raw_request)
    assert KEY not in json.dumps(snapshot)
    assert KEY not in repr(client)


@pytest.mark.parametrize("kind", PROVIDERS)
def test_wrong_key_is_a_401_with_the_provider_message(kind: str, sleep: Callable) -> None:
    with (
        ScriptedServer([Turn(text="ok")], api_key="other") as s,
        pytest.raises(ProviderError) as info,
    ):
        run(kind, s, request(), sleep=sleep)
    assert info.value.status == 401 and not info.value.retryable and sleep.delays == []


def test_transport_errors_are_retried_then_surface(sleep: Callable) -> None:
    with ScriptedServer([]) as s:
        url = s.base_url  # the port is closed once the server stops

    async def main() -> None:
        client = OpenAIChatClient(url, "m", KEY, sleep=sleep, max_retries=2)
        try:
            await collect(client, request())
        finally:
            await client.aclose()

    with pytest.raises(ProviderError) as info:
        asyncio.run(main())
    assert info.value.status is None and info.value.type == "connection_error"
    assert len(sleep.delays) == 2


def test_a_retry_after_beyond_the_limit_is_not_waited_for(sleep: Callable) -> None:
    notices: list[Any] = []
    turns = [Turn.error(429, "slow down", retry_after="600"), Turn(text="never")]
    with ScriptedServer(turns) as s, pytest.raises(ProviderError) as info:
        run("openai", s, request(), sleep=sleep, on_retry=notices.append)
    assert info.value.status == 429 and info.value.message == "slow down"
    assert sleep.delays == [] and notices == []


def test_on_retry_reports_each_wait(sleep: Callable) -> None:
    notices: list[Any] = []
    turns = [Turn.error(503, "busy", retry_after="2"), Turn(text="ok")]
    with ScriptedServer(turns) as s:
        run("anthropic", s, request(), sleep=sleep, on_retry=notices.append)
    assert [(n.attempt, n.delay, n.retry_after, n.error.status) for n in notices] == [
        (0, 2.0, 2.0, 503)
    ]
