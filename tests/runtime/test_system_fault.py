"""Failures the model cannot mistake for data, and the soft fallback of reads (issue #10, 12)."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from typing import Any

import pytest

from studio.contract import ContractError, RetryPolicy, parse_tool, tool_to_dict
from studio.contract.model import FALLBACK_LAST_SUCCESS
from studio.runtime import Run, RunConfig
from studio.runtime.executors import ExecutionRequest, ExecutorFailure
from studio.runtime.fallback import FallbackCache, is_system_error
from studio.runtime.results import (
    SYSTEM_FAULT_INSTRUCTION,
    SYSTEM_FAULT_MARKER,
    ToolError,
    error_content,
    parse_result_content,
    result_content,
    summarize,
)
from tests.runtime.helpers import CONTEXT, FakeClient, answer, assistant, call, travel_registry

# --------------------------------------------------------------------------- the marker


def test_error_content_starts_with_the_marker_then_the_studio_shape():
    error = ToolError("TIMEOUT", "no answer within 3 s", retryable=True, hint="try later")
    content = error_content(error)
    assert content.startswith(SYSTEM_FAULT_MARKER + " {")
    data = json.loads(content.removeprefix(SYSTEM_FAULT_MARKER))
    assert list(data)[:3] == ["status", "code", "message"]
    assert data == {
        "status": "failed",
        "code": "TIMEOUT",
        "message": "no answer within 3 s",
        "ok": False,
        "error_code": "TIMEOUT",
        "retryable": True,
        "hint": "try later",
    }
    assert parse_result_content(content) == data
    assert SYSTEM_FAULT_MARKER in SYSTEM_FAULT_INSTRUCTION


def test_unknown_write_keeps_its_status_and_success_is_not_marked():
    unknown = ToolError("OUTCOME_UNKNOWN", "may have taken effect", status="UNKNOWN").to_result()
    assert unknown["status"] == "UNKNOWN" and unknown["code"] == "OUTCOME_UNKNOWN"
    assert summarize(unknown).startswith("UNKNOWN OUTCOME_UNKNOWN")
    assert summarize(ToolError("TIMEOUT", "late").to_result()) == "TIMEOUT: late"
    ok = {"ok": True, "data": {"x": 1}}
    assert result_content(ok) == json.dumps(ok) and parse_result_content(result_content(ok)) == ok


class Scripted:
    """An executor answering from a script: bodies, or exceptions to raise."""

    name = "scripted"

    def __init__(self, *script: Any, before: Any = None) -> None:
        self.script = list(script)
        self.before = before

    def snapshot(self, request: ExecutionRequest) -> dict[str, Any]:
        return {"tool": request.tool.name}

    async def execute(self, request: ExecutionRequest) -> Any:
        if self.before is not None:
            self.before()
        item = self.script.pop(0)
        if isinstance(item, BaseException):
            raise item
        return item


async def _no_sleep(_seconds: float) -> None:
    return None


def _registry(fallback: str = "", max_age: float | None = None):
    registry = travel_registry(with_destructive=False)
    tools = []
    for tool in registry.tools:
        if tool.name == "search_policy":
            execution = replace(
                tool.execution,
                retry=RetryPolicy(max_attempts=1),
                fallback=fallback,
                fallback_max_age_seconds=max_age,
            )
            tool = replace(tool, execution=execution)
        tools.append(tool)
    return replace(registry, tools=tuple(tools))


def _run(executor, registry, cache=None, calls=2):
    script = [assistant(call(f"c{i}", "search_policy", {"query": "taxi"})) for i in range(calls)]
    client = FakeClient(*script, answer("done"))
    cfg = RunConfig(
        registry,
        context=CONTEXT,
        executors={"search_policy": executor},
        sleep=_no_sleep,
        fallback_cache=cache if cache is not None else FallbackCache(),
    )
    result = asyncio.run(Run(client, cfg).execute("taxi limit?"))
    return [part for m in result.messages for part in m.tool_results]


def test_a_failed_call_reaches_the_model_marked_as_a_system_fault():
    [part] = _run(Scripted(TimeoutError()), _registry(), calls=1)
    assert part.is_error and part.content.startswith(SYSTEM_FAULT_MARKER + " ")
    data = parse_result_content(part.content)
    assert (data["status"], data["code"], data["ok"]) == ("failed", "TIMEOUT", False)
    assert data["error_code"] == "TIMEOUT" and "3 s" in data["message"]


# --------------------------------------------------------------------------- soft fallback


def test_a_read_with_a_fallback_returns_the_last_success_marked_stale_with_its_age():
    now = [1000.0]
    body = {"clauses": [{"id": "4.2", "limit": 80}]}

    def tick() -> None:
        now[0] += 42

    executor = Scripted(body, ExecutorFailure("HTTP_503", "down", retryable=True), before=tick)
    first, second = _run(
        executor, _registry(FALLBACK_LAST_SUCCESS), FallbackCache(clock=lambda: now[0])
    )
    assert not first.is_error and parse_result_content(first.content)["data"] == body
    assert not second.is_error and not second.content.startswith(SYSTEM_FAULT_MARKER)
    data = parse_result_content(second.content)
    assert data["ok"] is True and data["status"] == "stale" and data["data"] == body
    assert data["stale"]["age_seconds"] == 42
    assert data["stale"]["live_error"]["code"] == "HTTP_503"
    assert "STALE" in data["stale"]["note"] and "42 s old" in data["stale"]["note"]
    assert summarize(data).startswith("STALE (42")


def test_without_a_declared_fallback_the_failure_is_returned():
    executor = Scripted({"clauses": []}, ExecutorFailure("HTTP_503", "down", retryable=True))
    _first, second = _run(executor, _registry())
    assert second.is_error and second.content.startswith(SYSTEM_FAULT_MARKER)


def test_fallback_respects_max_age_and_only_covers_system_errors():
    now = [0.0]
    registry = _registry(FALLBACK_LAST_SUCCESS, max_age=60)
    tool = registry.tool("search_policy")
    assert tool is not None
    cache = FallbackCache(clock=lambda: now[0])
    args = {"query": "taxi", "top_k": 3}
    cache.remember(tool, args, {"clauses": []})
    timeout = ToolError("TIMEOUT", "late", retryable=True)
    assert cache.recall(tool, args, ToolError("HTTP_404", "no such clause")) is None
    assert cache.recall(tool, {"query": "hotel"}, timeout) is None  # other arguments
    now[0] = 59
    assert cache.recall(tool, args, timeout) is not None
    now[0] = 61
    assert cache.recall(tool, args, timeout) is None and len(cache) == 0


def test_fallback_is_never_used_for_writes_and_the_cache_is_bounded():
    registry = travel_registry(with_destructive=False)
    write = registry.tool("create_reimbursement_ticket")
    read = _registry(FALLBACK_LAST_SUCCESS).tool("search_policy")
    assert write is not None and read is not None
    # Even when built in memory, past the contract check:
    write = replace(write, execution=replace(write.execution, fallback=FALLBACK_LAST_SUCCESS))
    cache = FallbackCache(max_entries=2)
    cache.remember(write, {"amount": 1}, {"ticket": "R-55821"})
    assert len(cache) == 0
    assert cache.recall(write, {"amount": 1}, ToolError("TIMEOUT", "late", retryable=True)) is None
    for q in ("a", "b", "c"):
        cache.remember(read, {"query": q}, {"q": q})
    assert len(cache) == 2
    assert cache.lookup(read, {"query": "a"}) is None and cache.lookup(read, {"query": "c"})
    assert is_system_error(ToolError("MALFORMED_RESPONSE", "bad body"))
    assert not is_system_error(ToolError("OUTCOME_UNKNOWN", "?", status="UNKNOWN"))


# --------------------------------------------------------------------------- the contract field


def _doc(risk: str = "read", **execution: Any) -> dict[str, Any]:
    return {"name": "search_policy", "risk": risk, "execution": execution}


def test_contract_field_round_trips_and_is_absent_when_unset():
    tool = parse_tool(_doc(fallback="last_success", fallback_max_age_seconds=300))
    assert tool.execution.fallback == "last_success"
    assert tool.execution.fallback_max_age_seconds == 300
    document = tool_to_dict(tool)
    assert document["execution"]["fallback"] == "last_success"
    assert parse_tool(document) == tool
    plain = tool_to_dict(parse_tool(_doc()))
    assert "fallback" not in plain["execution"]
    assert "fallback_max_age_seconds" not in plain["execution"]


@pytest.mark.parametrize(
    ("document", "where", "words"),
    [
        (_doc("write", fallback="last_success"), "execution.fallback", "write tool cannot"),
        (_doc("destructive", fallback="last_success"), "execution.fallback", "destructive"),
        (_doc(fallback="cached"), "execution.fallback", "not one of"),
        (_doc(fallback_max_age_seconds=30), "execution.fallback_max_age_seconds", "only with"),
        (
            _doc(fallback="last_success", fallback_max_age_seconds=0),
            "execution.fallback_max_age_seconds",
            "more than 0",
        ),
    ],
)
def test_contract_refuses_a_bad_fallback_with_a_clear_problem(document, where, words):
    with pytest.raises(ContractError) as info:
        parse_tool(document)
    assert any(p.path == where and words in p.message for p in info.value.problems), str(info.value)
