"""Permissions (step 7) and the risk gate (step 8).

A ``write`` call needs one confirmation; a ``destructive`` call needs the user
to type a confirmation phrase (the tool name unless configured otherwise).
The run waits on an :data:`Approver` — an async callable the GUI or CLI
provides — while its status is ``waiting_approval``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from studio.contract import RiskTier, ToolContract
from studio.runtime.context import SessionContext
from studio.runtime.results import ToolError


def _matches(allowed: str, actual: str) -> bool:
    return allowed == "*" or allowed == actual


def check_permission(tool: ToolContract, context: SessionContext) -> ToolError | None:
    """None when (role, scenario) may call ``tool``; a tool without permissions is open."""
    if not tool.permissions:
        return None
    for perm in tool.permissions:
        if _matches(perm.role, context.role) and _matches(perm.scenario, context.scenario):
            return None
    allowed = ", ".join(f"{p.role}/{p.scenario}" for p in tool.permissions)
    return ToolError(
        "PERMISSION_DENIED",
        f"role {context.role or '(none)'!r} in scenario {context.scenario or '(none)'!r} "
        f"may not call {tool.name}",
        retryable=False,
        hint="Tell the user this action is not available to them; do not retry.",
        details={"allowed": allowed},
    )


@dataclass(frozen=True, slots=True)
class ApprovalRequest:
    """A call waiting for the user.

    Attributes:
        phrase: For destructive calls, the exact text the user must type; empty otherwise.
    """

    call_id: str
    tool: str
    risk: RiskTier
    arguments: dict[str, Any]
    phrase: str = ""


@dataclass(frozen=True, slots=True)
class ApprovalDecision:
    """The user's answer; ``phrase`` is what they typed for a destructive call."""

    approved: bool
    phrase: str = ""
    reason: str = ""


Approver = Callable[[ApprovalRequest], Awaitable[ApprovalDecision]]


def needs_approval(tool: ToolContract) -> bool:
    return tool.risk in (RiskTier.WRITE, RiskTier.DESTRUCTIVE)


def confirmation_phrase(tool: ToolContract, phrases: Mapping[str, str]) -> str:
    """The phrase for a destructive ``tool``: configured, else the tool name."""
    if tool.risk is not RiskTier.DESTRUCTIVE:
        return ""
    return phrases.get(tool.name) or tool.name


def judge(request: ApprovalRequest, decision: ApprovalDecision) -> ToolError | None:
    """None when ``decision`` lets the call run; otherwise the result the model gets."""
    if not decision.approved:
        return ToolError(
            "DENIED_BY_USER",
            f"the user declined to run {request.tool}"
            + (f": {decision.reason}" if decision.reason else ""),
            retryable=False,
            hint="Do not call it again unchanged; ask the user what they want instead.",
        )
    if request.phrase and decision.phrase.strip() != request.phrase:
        return ToolError(
            "DENIED_BY_USER",
            f"{request.tool} is destructive and the confirmation phrase was not typed",
            retryable=False,
            hint="Explain what the call will do and ask the user to confirm it explicitly.",
            details={"reason": "CONFIRMATION_PHRASE_MISMATCH"},
        )
    return None


def auto_approver(mode: str, phrases: Mapping[str, str] | None = None) -> Approver:
    """Headless approvals for ``studio run --approve none|write|all [--phrase TOOL=PHRASE]``.

    ``none`` denies every risky call. ``write`` and ``all`` approve writes; a
    destructive call is approved only with the phrase given for that tool in
    ``phrases`` (tool name → phrase), which the run then checks like a typed
    one. Nothing here ever types a destructive tool's phrase by itself.
    """
    if mode not in ("none", "write", "all"):
        raise ValueError(f"approve mode must be none, write or all, not {mode!r}")
    given = dict(phrases or {})

    async def approve(request: ApprovalRequest) -> ApprovalDecision:
        if mode == "none":
            return ApprovalDecision(False, reason="headless run with --approve none")
        if request.risk is RiskTier.DESTRUCTIVE:
            if request.tool not in given:
                return ApprovalDecision(
                    False,
                    reason=f"{request.tool} is destructive and no --phrase "
                    f"{request.tool}=PHRASE was given",
                )
            return ApprovalDecision(True, phrase=given[request.tool])
        return ApprovalDecision(True)

    return approve
