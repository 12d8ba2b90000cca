"""The scripted server refuses broken histories the way the real APIs do."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.providers.scripted_server import (
    OPENAI_ORPHAN_TOOL_MESSAGE,
    ScriptedServer,
    Turn,
)

CALL = {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
USE = {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}
RESULT = {"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"}


def openai(messages: list[dict[str, Any]]) -> httpx.Response:
    with ScriptedServer([Turn(text="ok")]) as s:
        return httpx.post(
            f"{s.base_url}/v1/chat/completions", json={"model": "m", "messages": messages}
        )


def anthropic(messages: list[dict[str, Any]]) -> httpx.Response:
    with ScriptedServer([Turn(text="ok")]) as s:
        return httpx.post(
            f"{s.base_url}/v1/messages",
            headers={"anthropic-version": "2023-06-01"},
            json={"model": "m", "max_tokens": 5, "messages": messages},
        )


@pytest.mark.parametrize(
    ("messages", "expected"),
    [
        ([{"role": "tool", "tool_call_id": "call_1", "content": "x"}], OPENAI_ORPHAN_TOOL_MESSAGE),
        (
            [
                {"role": "assistant", "tool_calls": [CALL]},
                {"role": "tool", "tool_call_id": "call_1", "content": "x"},
                {"role": "tool", "tool_call_id": "call_9", "content": "x"},
            ],
            "'tool_call_id' of 'call_9' not found in 'tool_calls' of previous message.",
        ),
        (
            [
                {
                    "role": "assistant",
                    "tool_calls": [{**CALL, "function": {"name": "f", "arguments": {}}}],
                },
                {"role": "tool", "tool_call_id": "call_1", "content": "x"},
            ],
            "expected a string, but got an object instead",
        ),
    ],
)
def test_openai_validation(messages: list[dict[str, Any]], expected: str) -> None:
    response = openai([{"role": "user", "content": "hi"}, *messages])
    assert response.status_code == 400
    assert expected in response.json()["error"]["message"]


@pytest.mark.parametrize(
    ("messages", "expected"),
    [
        (
            [
                {"role": "assistant", "content": [USE]},
                {"role": "user", "content": [{"type": "text", "text": "x"}, RESULT]},
            ],
            "`tool_result` blocks must come before any other content",
        ),
        (
            [
                {"role": "assistant", "content": [USE]},
                {"role": "user", "content": [RESULT, {**RESULT, "tool_use_id": "toolu_9"}]},
            ],
            "unexpected `tool_use_id` found in `tool_result` blocks: toolu_9",
        ),
        (
            [
                {"role": "assistant", "content": [{**USE, "input": "{}"}]},
                {"role": "user", "content": [RESULT]},
            ],
            "Input should be a valid dictionary",
        ),
    ],
)
def test_anthropic_validation(messages: list[dict[str, Any]], expected: str) -> None:
    response = anthropic([{"role": "user", "content": "hi"}, *messages])
    assert response.status_code == 400
    error = response.json()
    assert error["type"] == "error" and error["error"]["type"] == "invalid_request_error"
    assert expected in error["error"]["message"]


def test_valid_histories_consume_turns_and_refusals_do_not() -> None:
    good = [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "tool_calls": [CALL]},
        {"role": "tool", "tool_call_id": "call_1", "content": "x"},
    ]
    with ScriptedServer([Turn(text="one")]) as s:
        bad = httpx.post(
            f"{s.base_url}/chat/completions", json={"model": "m", "messages": good[:2]}
        )
        ok = httpx.post(f"{s.base_url}/chat/completions", json={"model": "m", "messages": good})
        over = httpx.post(f"{s.base_url}/chat/completions", json={"model": "m", "messages": good})
    assert (bad.status_code, ok.status_code, over.status_code) == (400, 200, 400)
    assert ok.json()["choices"][0]["message"]["content"] == "one"
    assert over.json()["error"]["type"] == "scripted_server_exhausted"
    assert [r.turn for r in s.requests] == [None, 0, None]
