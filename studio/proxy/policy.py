"""The pairing check before forwarding, and what the ``--on-broken`` policy does about it.

A request is *broken* when the pairing analysis (:mod:`studio.sessions.pairing`)
finds a problem the upstream's provider enforces — it would answer 400. The
policy then decides:

- ``forward`` — send it anyway; the provider's error is recorded;
- ``repair`` — send the history repaired by the session doctor
  (:func:`studio.sessions.doctor.repair`), and record what changed;
- ``refuse`` — answer the agent with the provider's own error body and
  message, plus a hint saying what is wrong where and how to fix it.

Problems a provider accepts (invalid arguments JSON on OpenAI, a count
mismatch only Gemini checks …) are recorded but never make a request broken.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from studio.proxy.wire import Kind
from studio.sessions.doctor import repair
from studio.sessions.model import Message
from studio.sessions.pairing import PairingKind, PairingProblem, analyse_pairing


class OnBroken(StrEnum):
    """What the proxy does with a request its provider would refuse."""

    FORWARD = "forward"
    REPAIR = "repair"
    REFUSE = "refuse"


_ORDER_RULES = frozenset(
    {
        PairingKind.CALL_WITHOUT_RESULT,
        PairingKind.RESULT_WITHOUT_CALL,
        PairingKind.RESULT_NOT_IN_PRECEDING_CALLS,
        PairingKind.RESULT_NOT_DIRECTLY_AFTER,
    }
)
ENFORCED: dict[Kind, frozenset[PairingKind]] = {
    Kind.OPENAI_CHAT: _ORDER_RULES,
    Kind.ANTHROPIC_MESSAGES: _ORDER_RULES
    | {
        PairingKind.RESULT_NOT_FIRST,
        PairingKind.DUPLICATE_CALL_ID,
        PairingKind.INVALID_ARGUMENTS_JSON,
    },
}
"""The pairing rules each provider refuses a request for (DESIGN §6)."""


@dataclass(frozen=True, slots=True)
class Check:
    """The pairing check of one request.

    Attributes:
        problems: Every pairing problem found.
        enforced: Those the upstream's provider refuses the request for.
    """

    problems: tuple[PairingProblem, ...]
    enforced: tuple[PairingProblem, ...]

    @property
    def broken(self) -> bool:
        return bool(self.enforced)


def check_request(kind: Kind, messages: Sequence[Message]) -> Check:
    """The pairing problems of a request's history, and which the provider enforces."""
    problems = analyse_pairing(messages).problems
    rules = ENFORCED[kind]
    enforced = tuple(p for p in problems if p.kind in rules and kind.provider in p.provider_errors)
    return Check(problems, enforced)


def provider_error(kind: Kind, check: Check) -> str:
    """The message the provider answers with (the first problem it meets)."""
    return check.enforced[0].provider_errors[kind.provider]


def repair_hint(check: Check, policy: OnBroken) -> str:
    """What is wrong where, for the agent's developer, and how to get past it."""
    what = "; ".join(f"{p.position}: {p.message}" for p in check.enforced)
    return (
        f"Tool Registry Studio proxy ({policy.value} policy): the history breaks the pairing "
        f"rules ({what}). Answer every tool call with exactly one result right after the "
        "assistant turn that made it, or run the proxy with --on-broken repair to have it "
        "fixed before it is sent."
    )


def problem_dict(problem: PairingProblem, kind: Kind) -> dict[str, Any]:
    """A pairing problem as recorded in a ``proxy.request`` event."""
    return {
        "kind": problem.kind.value,
        "position": str(problem.position),
        "call_id": problem.call_id,
        "message": problem.message,
        "provider_error": problem.provider_errors.get(kind.provider, ""),
    }


@dataclass(frozen=True, slots=True)
class Repaired:
    """A repaired history and what the doctor changed (JSON-ready descriptions)."""

    messages: list[Message]
    changes: list[Any] = field(default_factory=list)


def repair_history(kind: Kind, messages: Sequence[Message]) -> Repaired:
    """The session doctor's repair of ``messages`` for the upstream's provider."""
    result = repair(list(messages), kind.provider)
    return Repaired(list(result.messages), [_jsonable(c) for c in result.changes])


def _jsonable(change: Any) -> Any:
    to_dict = getattr(change, "to_dict", None)
    if callable(to_dict):
        return to_dict()
    if isinstance(change, str | int | float | bool | dict | list) or change is None:
        return change
    fields = getattr(change, "__dataclass_fields__", None)
    if fields:
        return {name: _jsonable(getattr(change, name)) for name in fields}
    return str(change)
