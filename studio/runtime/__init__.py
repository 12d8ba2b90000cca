"""The agent loop: argument pipeline, policy, executors, loop guard, run events.

The names below load when first used (PEP 562): code that needs one small piece,
such as :mod:`studio.runtime.repair` for the session checks, does not pay for the
executors, the HTTP client and the loop (``studio sessions import`` starts
~0.3 s sooner; tests/test_import_discipline.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from studio.lazy_exports import LazyExports

if TYPE_CHECKING:
    from studio.runtime.context import SessionContext
    from studio.runtime.events import (
        EVENT_TYPES,
        ApprovalDecided,
        ApprovalRequired,
        LoopDetected,
        MessageDelta,
        ModelRequested,
        ModelResponded,
        RunCancelled,
        RunCompleted,
        RunEvent,
        RunFailed,
        RunStarted,
        ToolCallCompleted,
        ToolCallExecuting,
        ToolCallPrepared,
        ToolCallProposed,
        event_from_record,
        event_to_json,
    )
    from studio.runtime.executors import (
        ExecutionOutcome,
        ExecutionRequest,
        Executor,
        ExecutorFailure,
        HttpExecutor,
        HttpTarget,
        MockExecutor,
        execute_with_policy,
    )
    from studio.runtime.loop import Run, RunConfig, RunResult, tool_specs
    from studio.runtime.loop_guard import LoopGuard, Verdict
    from studio.runtime.mocks import MockSet, MockSpecError, example_mocks, parse_mocks
    from studio.runtime.pipeline import ArgumentPipeline, Prepared, StepRecord
    from studio.runtime.policy import (
        ApprovalDecision,
        ApprovalRequest,
        Approver,
        auto_approver,
        check_permission,
    )
    from studio.runtime.results import ToolError, shape_success

_HOMES = {
    "studio.runtime.context": ("SessionContext",),
    "studio.runtime.events": (
        "EVENT_TYPES",
        "ApprovalDecided",
        "ApprovalRequired",
        "LoopDetected",
        "MessageDelta",
        "ModelRequested",
        "ModelResponded",
        "RunCancelled",
        "RunCompleted",
        "RunEvent",
        "RunFailed",
        "RunStarted",
        "ToolCallCompleted",
        "ToolCallExecuting",
        "ToolCallPrepared",
        "ToolCallProposed",
        "event_from_record",
        "event_to_json",
    ),
    "studio.runtime.executors": (
        "ExecutionOutcome",
        "ExecutionRequest",
        "Executor",
        "ExecutorFailure",
        "HttpExecutor",
        "HttpTarget",
        "MockExecutor",
        "execute_with_policy",
    ),
    "studio.runtime.loop": (
        "Run",
        "RunConfig",
        "RunResult",
        "tool_specs",
    ),
    "studio.runtime.loop_guard": (
        "LoopGuard",
        "Verdict",
    ),
    "studio.runtime.mocks": (
        "MockSet",
        "MockSpecError",
        "example_mocks",
        "parse_mocks",
    ),
    "studio.runtime.pipeline": (
        "ArgumentPipeline",
        "Prepared",
        "StepRecord",
    ),
    "studio.runtime.policy": (
        "ApprovalDecision",
        "ApprovalRequest",
        "Approver",
        "auto_approver",
        "check_permission",
    ),
    "studio.runtime.results": (
        "ToolError",
        "shape_success",
    ),
}
_EXPORTS = LazyExports(__name__, _HOMES, globals())

__all__ = [
    "EVENT_TYPES",
    "ApprovalDecided",
    "ApprovalDecision",
    "ApprovalRequest",
    "ApprovalRequired",
    "Approver",
    "ArgumentPipeline",
    "ExecutionOutcome",
    "ExecutionRequest",
    "Executor",
    "ExecutorFailure",
    "HttpExecutor",
    "HttpTarget",
    "LoopDetected",
    "LoopGuard",
    "MessageDelta",
    "MockExecutor",
    "MockSet",
    "MockSpecError",
    "ModelRequested",
    "ModelResponded",
    "Prepared",
    "Run",
    "RunCancelled",
    "RunCompleted",
    "RunConfig",
    "RunEvent",
    "RunFailed",
    "RunResult",
    "RunStarted",
    "SessionContext",
    "StepRecord",
    "ToolCallCompleted",
    "ToolCallExecuting",
    "ToolCallPrepared",
    "ToolCallProposed",
    "ToolError",
    "Verdict",
    "auto_approver",
    "check_permission",
    "event_from_record",
    "event_to_json",
    "example_mocks",
    "execute_with_policy",
    "parse_mocks",
    "shape_success",
    "tool_specs",
]


def __getattr__(name: str) -> Any:
    return _EXPORTS.load(name)


def __dir__() -> list[str]:
    return _EXPORTS.names(__all__)
