"""Eval cases: what a user says, in which session, and what a good model does about it.

One case is one JSON object (one line of an eval set's ``.jsonl`` file)::

    {"id": "tr-001", "tags": ["zh", "confusable:query_invoices/query_tickets"],
     "user": "我上周打车的发票能报吗",
     "context": {"role": "employee", "values": {"employee_id": "E1001", "today": "2026-11-30"}},
     "expect": {"kind": "tool", "calls": [{"tool": "query_invoices",
                "args": {"category": {"equals": "taxi"}, "start_date": {"date": "today-7"}}}]},
     "must_not": ["create_reimbursement_ticket"]}

Keys: ``id`` (unique in the set), ``user`` (the user turn), optional ``system``
and ``turns`` (earlier ``{"role": "user"|"assistant", "content": …}``),
``context`` (``role``, ``scenario``, ``values`` such as ``employee_id`` and
``today``), ``expect`` (below), ``must_not`` (tools whose call fails the case
even when the expected tool is called too), ``tags``, ``note`` (why the case
exists).

``expect.kind`` is ``tool`` (one call), ``tools`` (several; ``order`` is ``set``
or ``sequence``), ``no_tool`` (the model answers directly) or ``ask`` (the model
asks a follow-up question and calls nothing). Each expected call names its
``tool`` and optional ``args`` matchers by JSON path
(:mod:`studio.evals.matchers`). ``expect.skills`` (issue #18) names skills the
model must load (``load``) and must **not** load (``not``) through the
``load_skill`` meta-tool: ``{"load": ["travel-reimbursement"]}`` for a taxi
claim, ``{"not": ["travel-reimbursement"]}`` for an annual-leave question
(:mod:`studio.evals.skills` scores miss and mis-trigger rates).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from studio.contract import Problem, join_path
from studio.evals.matchers import Matcher, parse_matcher

EXPECT_KINDS = ("tool", "tools", "no_tool", "ask")
ORDERS = ("set", "sequence")
TURN_ROLES = ("user", "assistant")
_CASE_KEYS = ("id", "tags", "system", "turns", "user", "context", "expect", "must_not", "note")
_CONTEXT_KEYS = ("role", "scenario", "values")


class CaseError(ValueError):
    """A case (or a set of them) that does not validate; ``problems`` say where and what."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("; ".join(str(p) for p in problems))


@dataclass(frozen=True, slots=True)
class Turn:
    """An earlier turn of the conversation."""

    role: str
    content: str


@dataclass(frozen=True, slots=True)
class SessionContext:
    """Who is talking and where: what the runtime injects (``employee_id``) and ``today``."""

    role: str = ""
    scenario: str = ""
    values: Mapping[str, Any] = field(default_factory=dict)

    @property
    def today(self) -> str | None:
        """``values.today`` (YYYY-MM-DD), the anchor of relative dates, when given."""
        today = self.values.get("today")
        return today if isinstance(today, str) else None


@dataclass(frozen=True, slots=True)
class ExpectedCall:
    """A call the model should make: the tool and matchers on its arguments."""

    tool: str
    args: tuple[Matcher, ...] = ()


@dataclass(frozen=True, slots=True)
class SkillExpectation:
    """Skills the model must load (``load``) and must not load (``not_load``, ``not`` in JSON)."""

    load: tuple[str, ...] = ()
    not_load: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Expectation:
    """What a good answer does (see the module docstring for the kinds)."""

    kind: str
    calls: tuple[ExpectedCall, ...] = ()
    order: str = "set"
    skills: SkillExpectation | None = None

    @property
    def tools(self) -> tuple[str, ...]:
        """The expected tools, in the order written."""
        return tuple(c.tool for c in self.calls)


@dataclass(frozen=True, slots=True)
class EvalCase:
    """One eval case; build it with :func:`parse_case` to have it validated."""

    id: str
    user: str
    expect: Expectation
    context: SessionContext = field(default_factory=SessionContext)
    turns: tuple[Turn, ...] = ()
    system: str = ""
    must_not: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    note: str = ""


class _Problems:
    def __init__(self, base: str) -> None:
        self.base = base
        self.items: list[Problem] = []

    def add(self, message: str, *parts: str | int) -> None:
        self.items.append(Problem(join_path(self.base, *parts), message))


def _string(data: Mapping[str, Any], key: str, out: _Problems, *, required: bool = False) -> str:
    value = data.get(key, "")
    if key not in data and required:
        out.add("is required", key)
        return ""
    if not isinstance(value, str):
        out.add("must be a string", key)
        return ""
    if required and not value.strip():
        out.add("must not be empty", key)
    return value


def _strings(data: Mapping[str, Any], key: str, out: _Problems) -> tuple[str, ...]:
    value = data.get(key, [])
    if not isinstance(value, list):
        out.add("must be an array of strings", key)
        return ()
    good = []
    for i, item in enumerate(value):
        if not isinstance(item, str) or not item:
            out.add("must be a non-empty string", key, i)
        else:
            good.append(item)
    if len(set(good)) != len(good):
        out.add("lists a value twice", key)
    return tuple(good)


def _unknown(data: Mapping[str, Any], known: tuple[str, ...], out: _Problems, *parts: str) -> None:
    for key in data:
        if key not in known:
            out.add(f"unknown key (expected one of {', '.join(known)})", *parts, key)


def _context(data: Any, out: _Problems) -> SessionContext:
    if data is None:
        return SessionContext()
    if not isinstance(data, dict):
        out.add("must be an object with role, scenario, values", "context")
        return SessionContext()
    _unknown(data, _CONTEXT_KEYS, out, "context")
    sub = _Problems(join_path(out.base, "context"))
    role = _string(data, "role", sub)
    scenario = _string(data, "scenario", sub)
    values = data.get("values", {})
    if not isinstance(values, dict):
        sub.add("must be an object of session values", "values")
        values = {}
    today = values.get("today")
    if today is not None and (not isinstance(today, str) or len(today) != 10):
        sub.add("must be a date YYYY-MM-DD", "values", "today")
    out.items.extend(sub.items)
    return SessionContext(role, scenario, values)


def _turns(data: Any, out: _Problems) -> tuple[Turn, ...]:
    if data is None:
        return ()
    if not isinstance(data, list):
        out.add("must be an array of earlier turns", "turns")
        return ()
    turns = []
    for i, item in enumerate(data):
        if not isinstance(item, dict):
            out.add('must be {"role": …, "content": …}', "turns", i)
            continue
        _unknown(item, ("role", "content"), out, "turns", i)  # type: ignore[arg-type]
        role, content = item.get("role"), item.get("content")
        if role not in TURN_ROLES:
            out.add(f"must be one of {', '.join(TURN_ROLES)}", "turns", i, "role")
        if not isinstance(content, str) or not content:
            out.add("must be a non-empty string", "turns", i, "content")
        if role in TURN_ROLES and isinstance(content, str) and content:
            turns.append(Turn(role, content))
    return tuple(turns)


def _calls(data: Any, out: _Problems, today: str | None) -> tuple[ExpectedCall, ...]:
    if not isinstance(data, list) or not data:
        out.add("must be a non-empty array of expected calls", "expect", "calls")
        return ()
    calls = []
    for i, item in enumerate(data):
        where = ("expect", "calls", i)
        if not isinstance(item, dict):
            out.add('must be {"tool": …, "args": {…}}', *where)
            continue
        _unknown(item, ("tool", "args"), out, *where)  # type: ignore[arg-type]
        tool = item.get("tool")
        if not isinstance(tool, str) or not tool:
            out.add("must name the expected tool", *where, "tool")
            continue
        args = item.get("args", {})
        if not isinstance(args, dict):
            out.add("must be an object of matchers by argument path", *where, "args")
            continue
        matchers = []
        for path, body in args.items():
            matcher, problems = parse_matcher(path, body, today)
            for sub, message in problems:
                parts = [p for p in sub.split(".") if p]
                out.add(message, *where, "args", path, *parts)
            if matcher is not None:
                matchers.append(matcher)
        calls.append(ExpectedCall(tool, tuple(matchers)))
    return tuple(calls)


def _skills(data: Any, out: _Problems) -> SkillExpectation | None:
    """``expect.skills``: ``{"load": [...], "not": [...]}``, at least one non-empty."""
    if data is None:
        return None
    if not isinstance(data, dict):
        out.add('must be {"load": [skill, …], "not": [skill, …]}', "expect", "skills")
        return None
    _unknown(data, ("load", "not"), out, "expect", "skills")
    sub = _Problems(join_path(out.base, "expect", "skills"))
    load = _strings(data, "load", sub)
    not_load = _strings(data, "not", sub)
    for i, name in enumerate(not_load):
        if name in load:
            sub.add(f"{name} is also in load", "not", i)
    if not load and not not_load and not sub.items:
        sub.add("names no skill: give load, not or both")
    out.items.extend(sub.items)
    return SkillExpectation(load, not_load)


def _expectation(data: Any, out: _Problems, today: str | None) -> Expectation:
    if not isinstance(data, dict):
        out.add("is required: an object with kind (tool, tools, no_tool, ask)", "expect")
        return Expectation("no_tool")
    _unknown(data, ("kind", "calls", "order", "skills"), out, "expect")
    skills = _skills(data.get("skills"), out)
    kind = data.get("kind")
    if kind not in EXPECT_KINDS:
        out.add(f"must be one of {', '.join(EXPECT_KINDS)}", "expect", "kind")
        return Expectation("no_tool")
    order = data.get("order", "set")
    if kind in ("no_tool", "ask"):
        if "calls" in data:
            out.add(f"an {kind} expectation calls no tool", "expect", "calls")
        if "order" in data:
            out.add(f"an {kind} expectation has no order", "expect", "order")
        return Expectation(kind, skills=skills)
    calls = _calls(data.get("calls"), out, today)
    if kind == "tool":
        if len(calls) > 1:
            out.add(
                "a tool expectation has one call; use kind tools for several", "expect", "calls"
            )
        if "order" in data:
            out.add("only a tools expectation has an order", "expect", "order")
    elif order not in ORDERS:
        out.add(f"must be one of {', '.join(ORDERS)}", "expect", "order")
        order = "set"
    return Expectation(kind, calls, order, skills)


def parse_case(data: Any, base: str = "") -> EvalCase:
    """A validated case from its JSON form.

    Args:
        data: The decoded JSON object.
        base: Prefix of every problem path (e.g. ``cases[3]``).

    Raises:
        CaseError: with every problem found, each with its JSON path.
    """
    out = _Problems(base)
    if not isinstance(data, dict):
        out.add("a case must be a JSON object")
        raise CaseError(out.items)
    _unknown(data, _CASE_KEYS, out)
    case_id = _string(data, "id", out, required=True)
    user = _string(data, "user", out, required=True)
    system = _string(data, "system", out)
    note = _string(data, "note", out)
    context = _context(data.get("context"), out)
    turns = _turns(data.get("turns"), out)
    expect = _expectation(data.get("expect"), out, context.today)
    must_not = _strings(data, "must_not", out)
    tags = _strings(data, "tags", out)
    for i, tool in enumerate(must_not):
        if tool in expect.tools:
            out.add(f"{tool} is also expected", "must_not", i)
    if out.items:
        raise CaseError(out.items)
    return EvalCase(case_id, user, expect, context, turns, system, must_not, tags, note)


def case_to_json(case: EvalCase) -> dict[str, Any]:
    """The file form of a case (defaults left out; keys in the documented order)."""
    out: dict[str, Any] = {"id": case.id}
    if case.tags:
        out["tags"] = list(case.tags)
    if case.system:
        out["system"] = case.system
    if case.turns:
        out["turns"] = [{"role": t.role, "content": t.content} for t in case.turns]
    out["user"] = case.user
    ctx = case.context
    if ctx.role or ctx.scenario or ctx.values:
        context: dict[str, Any] = {}
        if ctx.role:
            context["role"] = ctx.role
        if ctx.scenario:
            context["scenario"] = ctx.scenario
        if ctx.values:
            context["values"] = dict(ctx.values)
        out["context"] = context
    expect: dict[str, Any] = {"kind": case.expect.kind}
    if case.expect.calls:
        expect["calls"] = [_call_to_json(c) for c in case.expect.calls]
    if case.expect.kind == "tools":
        expect["order"] = case.expect.order
    skills = case.expect.skills
    if skills is not None:
        expect["skills"] = {}
        if skills.load:
            expect["skills"]["load"] = list(skills.load)
        if skills.not_load:
            expect["skills"]["not"] = list(skills.not_load)
    out["expect"] = expect
    if case.must_not:
        out["must_not"] = list(case.must_not)
    if case.note:
        out["note"] = case.note
    return out


def _call_to_json(call: ExpectedCall) -> dict[str, Any]:
    out: dict[str, Any] = {"tool": call.tool}
    if call.args:
        out["args"] = {m.path: m.to_json() for m in call.args}
    return out


def dump_case(case: EvalCase) -> str:
    """One JSONL line (no newline): UTF-8 as written, ``, ``/``: `` separators."""
    return json.dumps(case_to_json(case), ensure_ascii=False)
