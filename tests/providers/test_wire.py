"""Request building and stream assembly without a network (httpx.MockTransport where needed)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest

from studio.providers import (
    AnthropicMessagesClient,
    ModelParams,
    ModelRequest,
    OpenAIChatClient,
    ProviderError,
    ToolSpec,
    TurnCompleted,
    redact_headers,
)
from studio.providers.anthropic import build_anthropic_body, to_anthropic_messages
from studio.providers.openai_chat import (
    OpenAIStreamAssembler,
    build_openai_body,
    parse_openai_error,
    to_openai_messages,
)
from studio.sessions.model import Message, Role, TextPart, ToolCallPart, ToolResultPart

TOOL = ToolSpec("get_invoice", "Look up.", {"type": "object", "properties": {}})


def history() -> tuple[Message, ...]:
    return (
        Message(Role.USER, (TextPart("check"),)),
        Message(
            Role.ASSISTANT,
            (
                TextPart("on it"),
                ToolCallPart("c1", "get_invoice", {"id": "INV-102"}),
                ToolCallPart("c2", "get_invoice", '{"id":  "INV-103"}'),
            ),
        ),
        Message(Role.TOOL, (ToolResultPart("c1", "118.5"),)),
        Message(Role.TOOL, (ToolResultPart("c2", "boom", is_error=True),)),
        Message(Role.USER, (TextPart("and the limit?"),)),
    )


def test_openai_messages() -> None:
    out = to_openai_messages(history(), "sys")
    assert out[0] == {"role": "system", "content": "sys"}
    calls = out[2]["tool_calls"]
    assert calls[0]["function"]["arguments"] == '{"id": "INV-102"}'  # dict → json.dumps
    assert calls[1]["function"]["arguments"] == '{"id":  "INV-103"}'  # string verbatim
    assert out[3:5] == [
        {"role": "tool", "tool_call_id": "c1", "content": "118.5"},
        {"role": "tool", "tool_call_id": "c2", "content": "boom"},
    ]
    assert out[5] == {"role": "user", "content": "and the limit?"}


def test_openai_body_parameters() -> None:
    params = ModelParams(
        temperature=0.2, max_tokens=50, tool_choice="get_invoice", parallel_tool_calls=False
    )
    body = build_openai_body("m", ModelRequest(history(), (TOOL,), "sys", params))
    assert body["tools"][0] == {
        "type": "function",
        "function": {
            "name": "get_invoice",
            "description": "Look up.",
            "parameters": TOOL.parameters,
        },
    }
    assert body["tool_choice"] == {"type": "function", "function": {"name": "get_invoice"}}
    assert body["parallel_tool_calls"] is False
    assert (body["temperature"], body["max_tokens"], body["stream"]) == (0.2, 50, True)
    assert body["stream_options"] == {"include_usage": True}
    req = ModelRequest(history(), (TOOL,), params=ModelParams(tool_choice="any", stream=False))
    body = build_openai_body("m", req)
    assert body["tool_choice"] == "required" and "stream_options" not in body
    assert "tool_choice" not in build_openai_body("m", ModelRequest(history()))


def test_anthropic_messages_merge_results_first() -> None:
    notes: list[str] = []
    out, system = to_anthropic_messages(history(), notes)
    assert [m["role"] for m in out] == ["user", "assistant", "user"]
    assert out[1]["content"][1:] == [
        {"type": "tool_use", "id": "c1", "name": "get_invoice", "input": {"id": "INV-102"}},
        {"type": "tool_use", "id": "c2", "name": "get_invoice", "input": {"id": "INV-103"}},
    ]
    assert out[2]["content"] == [
        {"type": "tool_result", "tool_use_id": "c1", "content": "118.5", "is_error": False},
        {"type": "tool_result", "tool_use_id": "c2", "content": "boom", "is_error": True},
        {"type": "text", "text": "and the limit?"},
    ]
    assert notes == [] and system == ""


def test_anthropic_unparseable_arguments_become_empty_object_with_a_note() -> None:
    messages = (
        Message(Role.USER, (TextPart("x"),)),
        Message(Role.ASSISTANT, (ToolCallPart("c1", "get_invoice", '{"id": '),)),
        Message(Role.TOOL, (ToolResultPart("c1", "bad arguments", True),)),
    )
    notes: list[str] = []
    body = build_anthropic_body("m", ModelRequest(messages, (TOOL,), "sys"), notes)
    assert body["messages"][1]["content"][0]["input"] == {}
    assert len(notes) == 1 and "c1" in notes[0]
    assert body["system"] == "sys" and body["max_tokens"] == 1024


def test_anthropic_tool_choice() -> None:
    def choice(**kw: Any) -> Any:
        req = ModelRequest(history(), (TOOL,), params=ModelParams(**kw))
        return build_anthropic_body("m", req).get("tool_choice")

    assert choice() is None
    assert choice(tool_choice="required") == {"type": "any"}
    assert choice(tool_choice="get_invoice") == {"type": "tool", "name": "get_invoice"}
    assert choice(parallel_tool_calls=False) == {"type": "auto", "disable_parallel_tool_use": True}


def test_openai_assembly_by_index_without_ids_on_later_fragments() -> None:
    asm = OpenAIStreamAssembler()

    def chunk(*calls: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {
            "choices": [{"index": 0, "delta": {"tool_calls": list(calls)}, "finish_reason": finish}]
        }

    events = []
    for c in [
        chunk({"index": 1, "id": "b", "function": {"name": "g", "arguments": ""}}),
        chunk({"index": 0, "id": "a", "function": {"name": "f", "arguments": '{"x"'}}),
        chunk({"index": 1, "function": {"arguments": "[1,"}}),
        chunk({"index": 0, "function": {"arguments": ": 1}"}}),
        chunk({"index": 1, "function": {"arguments": "2]"}}, finish="tool_calls"),
    ]:
        events += list(asm.feed(c))
    message = asm.message()
    assert [(c.id, c.name, c.arguments) for c in message.tool_calls] == [
        ("a", "f", '{"x": 1}'),
        ("b", "g", "[1,2]"),
    ]
    assert asm.complete and asm.finish_reason == "tool_calls"


def test_openai_missing_call_id_is_generated_and_marked() -> None:
    asm = OpenAIStreamAssembler()
    list(
        asm.feed(
            {
                "choices": [
                    {
                        "delta": {
                            "tool_calls": [
                                {"index": 0, "function": {"name": "f", "arguments": "{}"}}
                            ]
                        }
                    }
                ]
            }
        )
    )
    call = asm.message().tool_calls[0]
    assert call.id.startswith("call_") and call.extra == {"generated_id": True}


@pytest.mark.parametrize(
    ("body", "message", "kind"),
    [
        (
            b'{"error": {"message": "bad", "type": "invalid_request_error", "code": "x"}}',
            "bad",
            "invalid_request_error",
        ),
        (b'{"error": "model not found"}', "model not found", ""),
        (b'{"detail": "Not Found"}', "Not Found", ""),
        (b"upstream broke", "upstream broke", ""),
    ],
)
def test_openai_error_shapes(body: bytes, message: str, kind: str) -> None:
    error = parse_openai_error(400, body)
    assert (error.message, error.type, error.status) == (message, kind, 400)
    assert error.body == body.decode()


def test_redact_headers() -> None:
    assert redact_headers(
        {"Authorization": "Bearer k", "X-API-Key": "k", "api-key": "k", "Accept": "a"}
    ) == {"Authorization": "***", "X-API-Key": "***", "api-key": "***", "Accept": "a"}


def _run(client: Any, req: ModelRequest) -> list[Any]:
    async def main() -> list[Any]:
        try:
            return [e async for e in client.stream(req)]
        finally:
            await client.aclose()

    return asyncio.run(main())


def test_server_that_ignores_stream_flag_is_read_as_json() -> None:
    answer = {
        "choices": [{"message": {"role": "assistant", "content": "hi"}, "finish_reason": "stop"}]
    }
    transport = httpx.MockTransport(lambda request: httpx.Response(200, json=answer))
    client = OpenAIChatClient("http://x/v1", "m", None, transport=transport)
    events = _run(client, ModelRequest((Message(Role.USER, (TextPart("q"),)),)))
    assert isinstance(events[-1], TurnCompleted) and events[-1].message.text == "hi"


def test_truncated_stream_is_an_error() -> None:
    sse = b'data: {"choices": [{"index": 0, "delta": {"content": "par"}}]}\n\n'
    transport = httpx.MockTransport(
        lambda request: httpx.Response(
            200, content=sse, headers={"content-type": "text/event-stream"}
        )
    )
    for client in (
        OpenAIChatClient("http://x/v1", "m", None, transport=transport),
        AnthropicMessagesClient("http://x", "m", None, transport=transport),
    ):
        with pytest.raises(ProviderError) as info:
            _run(client, ModelRequest((Message(Role.USER, (TextPart("q"),)),)))
        assert info.value.type == "stream_interrupted"


def test_anthropic_base_url_with_or_without_v1() -> None:
    seen: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(str(request.url))
        assert json.loads(request.content)["stream"] is False
        return httpx.Response(
            200,
            json={
                "content": [{"type": "text", "text": "ok"}],
                "stop_reason": "end_turn",
                "usage": {},
            },
        )

    req = ModelRequest((Message(Role.USER, (TextPart("q"),)),), params=ModelParams(stream=False))
    for base in ("https://api.anthropic.com", "https://api.anthropic.com/v1/"):
        client = AnthropicMessagesClient(base, "m", "k", transport=httpx.MockTransport(handler))
        _run(client, req)
    assert seen == ["https://api.anthropic.com/v1/messages"] * 2
