"""Scoring one answer against a case: which checks passed, which failed, and why.

The runner (a later step) sends a case to a model and hands the returned
calls here, before and after the runtime's argument pipeline; the same
function scores both.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from studio.evals.matchers import MatchResult, evaluate
from studio.evals.model import EvalCase, ExpectedCall


@dataclass(frozen=True, slots=True)
class Call:
    """A tool call as the model made it (arguments decoded; not a dict when they did not parse)."""

    tool: str
    arguments: Any = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Check:
    """One thing the case asks for, and whether the answer does it.

    Attributes:
        what: ``selection``, ``order``, ``must_not``, ``no_tool``, ``ask`` or ``args``.
        passed: Whether it holds.
        reason: In words, what was found.
        tool: The expected (or forbidden) tool it is about, when any.
        matches: For ``args``: each matcher's result.
    """

    what: str
    passed: bool
    reason: str
    tool: str = ""
    matches: tuple[MatchResult, ...] = ()


@dataclass(frozen=True, slots=True)
class CaseResult:
    """The checks of one answer; it passes when all of them pass."""

    case_id: str
    checks: tuple[Check, ...]

    @property
    def passed(self) -> bool:
        return all(c.passed for c in self.checks)

    @property
    def selection_passed(self) -> bool:
        """Right tool(s) or right abstention, nothing forbidden; arguments not considered."""
        return all(c.passed for c in self.checks if c.what != "args")

    @property
    def arguments_passed(self) -> bool:
        return all(c.passed for c in self.checks if c.what == "args")

    def failures(self) -> list[str]:
        """One line per failed check or matcher."""
        lines: list[str] = []
        for check in self.checks:
            if check.passed:
                continue
            if check.matches:
                lines.extend(
                    f"{check.tool}.{m.path} ({m.kind}): {m.reason}"
                    for m in check.matches
                    if not m.passed
                )
            else:
                lines.append(f"{check.what}: {check.reason}")
        return lines


def _is_question(reply: str) -> bool:
    return "?" in reply or "？" in reply


def _best(
    expected: ExpectedCall, calls: Sequence[tuple[int, Call]], today: str | None
) -> tuple[int, tuple[MatchResult, ...]]:
    """The call (index into ``calls``) whose arguments pass the most matchers (first on ties)."""
    best_index, best_score = -1, -1
    best_results: tuple[MatchResult, ...] = ()
    for index, (_, call) in enumerate(calls):
        results = tuple(evaluate(m, call.arguments, today) for m in expected.args)
        score = sum(r.passed for r in results)
        if score > best_score:
            best_index, best_results, best_score = index, results, score
    return best_index, best_results


def match_case(case: EvalCase, calls: Sequence[Call], reply: str | None = None) -> CaseResult:
    """Score the calls (and optional text reply) of one answer to ``case``.

    Each expected call is paired with an unused actual call of its tool, the one
    whose arguments pass the most matchers. Extra calls of other tools are
    allowed (a model may search the policy first) unless listed in ``must_not``.
    For ``ask`` a reply, when given, must contain a question mark.

    Args:
        case: The case.
        calls: The calls the model made, in order.
        reply: The model's text, when known.

    Return:
        Every check with its reason.
    """
    checks: list[Check] = []
    today = case.context.today
    expect = case.expect
    for tool in case.must_not:
        used = sum(c.tool == tool for c in calls)
        checks.append(
            Check("must_not", used == 0, f"called {used} time(s)" if used else "not called", tool)
        )
    if expect.kind in ("no_tool", "ask"):
        names = ", ".join(c.tool for c in calls)
        checks.append(
            Check(expect.kind, not calls, f"called {names}" if calls else "no tool called")
        )
        if expect.kind == "ask" and reply is not None and not calls:
            asked = _is_question(reply)
            checks.append(Check("ask", asked, "asks a question" if asked else "no question asked"))
        return CaseResult(case.id, tuple(checks))
    unused = list(enumerate(calls))
    positions: list[int] = []
    for expected in expect.calls:
        candidates = [(i, c) for i, c in unused if c.tool == expected.tool]
        if not candidates:
            made = ", ".join(dict.fromkeys(c.tool for c in calls)) or "no tool"
            checks.append(Check("selection", False, f"not called (called: {made})", expected.tool))
            continue
        pick, results = _best(expected, candidates, today)
        position, _ = candidates[pick]
        unused = [(i, c) for i, c in unused if i != position]
        positions.append(position)
        checks.append(Check("selection", True, f"called (call {position + 1})", expected.tool))
        if results:
            ok = all(r.passed for r in results)
            failed = sum(not r.passed for r in results)
            checks.append(
                Check(
                    "args",
                    ok,
                    "all matchers pass" if ok else f"{failed} matcher(s) fail",
                    expected.tool,
                    results,
                )
            )
    if (
        expect.kind == "tools"
        and expect.order == "sequence"
        and len(positions) == len(expect.calls)
    ):
        in_order = positions == sorted(positions)
        checks.append(
            Check("order", in_order, "in the expected order" if in_order else "out of order")
        )
    return CaseResult(case.id, tuple(checks))


def calls_from_json(items: Sequence[Mapping[str, Any]]) -> list[Call]:
    """Calls from ``[{"tool": …, "arguments": {…}}]`` (the form the CLI and tests use)."""
    return [Call(str(item.get("tool", "")), item.get("arguments", {})) for item in items]
