"""Evals with skills: expect.skills, the catalogue and load_skill in runs, A vs B without a skill.

The model here is a small scripted client that behaves as a model that follows
what it is given: with the reimbursement skill in its catalogue it loads it for
travel claims (and, as a mis-triggering model, for annual leave too), and after
reading it asks the employee to confirm before filing; without the skill it
files at once. The numbers below follow from that behaviour through the real
runner, multi-step loop, mocks and SQLite store.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from registry_db import RegistryStore, seed_examples
from studio.evals.jsonl import EvalSetError, build_set, parse_set
from studio.evals.model import CaseError, dump_case, parse_case
from studio.evals.runner import EvalRunner, RunOptions
from studio.evals.skills import format_skill_report, skill_report
from studio.evals.store import EvalStore
from studio.evals.variants import VariantError, resolve_variant
from studio.providers import ModelProfile, ProviderKind
from studio.providers.base import ModelRequest, StreamEvent, TurnCompleted, Usage
from studio.sessions.model import Message, Role, TextPart, ToolCallPart

REGISTRY = "travel-reimbursement"
SKILL = "travel-reimbursement"
EXAMPLE = Path(__file__).parents[2] / "resources/examples/evals/travel-reimbursement"
SKILLS_SET = (EXAMPLE / "skills.jsonl").read_text(encoding="utf-8")
CTX = {"role": "employee", "values": {"employee_id": "E-1001", "today": "2026-11-30"}}


# ---------------------------------------------------------------------- the case format


def test_the_example_skill_cases_round_trip_byte_for_byte() -> None:
    cases = parse_set("skills", SKILLS_SET).cases
    assert "".join(dump_case(c) + "\n" for c in cases) == SKILLS_SET
    loads = [c.id for c in cases if c.expect.skills and c.expect.skills.load]
    nots = [c.id for c in cases if c.expect.skills and c.expect.skills.not_load]
    assert "skill-not-annual-leave-zh" in nots and "skill-load-overlimit-en" in loads
    core = (EXAMPLE / "core.jsonl").read_text(encoding="utf-8")
    assert all(c.expect.skills is None for c in parse_set("core", core).cases)


def test_expect_skills_problems_name_their_path() -> None:
    base = {"id": "x", "user": "年假还有几天", "expect": {"kind": "no_tool"}}
    with pytest.raises(CaseError) as bad:
        parse_case({**base, "expect": {"kind": "no_tool", "skills": {"load": [""], "maybe": 1}}})
    text = str(bad.value)
    assert "expect.skills.load[0]: must be a non-empty string" in text
    assert "expect.skills.maybe: unknown key (expected one of load, not)" in text
    with pytest.raises(CaseError, match=r"expect\.skills\.not\[0\]: a is also in load"):
        parse_case({**base, "expect": {"kind": "no_tool", "skills": {"load": ["a"], "not": ["a"]}}})
    with pytest.raises(CaseError, match=r"expect\.skills: names no skill"):
        parse_case({**base, "expect": {"kind": "no_tool", "skills": {}}})
    with pytest.raises(CaseError, match=r"expect\.skills: must be"):
        parse_case({**base, "expect": {"kind": "no_tool", "skills": ["a"]}})
    line = json.dumps({**base, "expect": {"kind": "no_tool", "skills": {"not": 3}}})
    with pytest.raises(EvalSetError, match=r"line 2: expect\.skills\.not: must be an array"):
        parse_set("s", "\n" + line + "\n")


# ---------------------------------------------------------------------- a scripted model


class SkillFollowingModel:
    """A deterministic model: loads a skill when its catalogue fits, follows its confirm step."""

    url = "scripted://skills"

    def __init__(self, *, mis_trigger: bool = False) -> None:
        self.mis_trigger = mis_trigger
        self.requests: list[ModelRequest] = []

    async def stream(self, request: ModelRequest) -> AsyncIterator[StreamEvent]:
        self.requests.append(request)
        yield TurnCompleted(self._answer(request), "stop", Usage(100, 10))

    async def aclose(self) -> None:
        pass

    def _answer(self, request: ModelRequest) -> Message:
        calls = [p for m in request.messages for p in m.parts if isinstance(p, ToolCallPart)]
        user = next(m.text for m in reversed(request.messages) if m.role is Role.USER)
        n = len(calls)
        travel = any(w in user for w in ("打车", "taxi", "INV-", "Confirmed", "确认"))
        leave = "年假" in user or "annual leave" in user
        can_load = any(t.name == "load_skill" for t in request.tools)
        loaded = any(c.name == "load_skill" for c in calls)
        if can_load and not loaded and (travel or (leave and self.mis_trigger)):
            return _call(n, "load_skill", {"name": SKILL})
        if any(c.name != "load_skill" for c in calls) or leave:
            return Message(Role.ASSISTANT, (TextPart("Done: R-55821." if travel else "OK."),))
        confirmed = "确认" in user or "Confirmed" in user
        if "file" in user.lower() or "提交" in user or confirmed:
            if loaded and not confirmed:  # the skill: confirm before filing
                return Message(Role.ASSISTANT, (TextPart("请确认金额与说明后我再提交？"),))
            args = {"invoice_ids": ["INV-102"], "amount": 118.5, "reason": "client visit",
                    "over_limit_explanation": "no metro"}  # fmt: skip
            return _call(n, "create_reimbursement_ticket", args)
        return _call(n, "query_invoices", {"start_date": "2026-11-23", "end_date": "2026-11-29"})


def _call(n: int, name: str, args: dict) -> Message:
    return Message(Role.ASSISTANT, (ToolCallPart(f"call_{n}", name, json.dumps(args)),))


def _runner(store, spec_b: str | None, model: SkillFollowingModel, multi_step: bool):
    cases = EvalStore(store).load(REGISTRY, "skills")
    variants = [resolve_variant(store, REGISTRY, "draft")]
    if spec_b:
        variants.append(resolve_variant(store, REGISTRY, spec_b, "B"))
    profile = ModelProfile("scripted", ProviderKind.OPENAI_CHAT, "http://127.0.0.1:9", "m", "K")
    options = RunOptions(multi_step=multi_step, concurrency=1, use_cache=False)
    runner = EvalRunner(store, REGISTRY, build_set("skills", cases.cases), variants, [profile],
                        options, client_factory=lambda p, key: model)  # fmt: skip
    return runner, cases, variants


@pytest.fixture
def store(tmp_path: Path, monkeypatch) -> RegistryStore:
    monkeypatch.setenv("K", "key")
    opened = RegistryStore.open(tmp_path / "db.sqlite3")
    seed_examples(opened)
    yield opened
    opened.close()


def test_single_turn_sends_the_catalogue_and_scores_mis_triggers(store: RegistryStore) -> None:
    model = SkillFollowingModel(mis_trigger=True)
    runner, cases, variants = _runner(store, None, model, multi_step=False)
    summary = asyncio.run(runner.run())
    first = model.requests[0]
    assert "load_skill" in [t.name for t in first.tools]
    assert "- travel-reimbursement: 处理差旅费用报销与超标说明" in first.system
    by_case = {a.case_id: a for a in summary.attempts}
    leave = by_case["skill-not-annual-leave-zh"]
    assert leave.raw is not None and not leave.raw.passed
    assert "loaded skill travel-reimbursement, which it must not" in leave.raw.failures
    report = skill_report(summary.attempts, {c.id: c for c in cases.cases}, [variants[0].registry])
    (row,) = report
    assert row.expect_not == 2 and row.mis_trigger_rate == 1.0  # a mis-triggering model
    assert row.expect_load == 6 and row.miss_rate == 0.0


def test_with_vs_without_the_skill_multi_step(store: RegistryStore) -> None:
    spec = f"draft-without-skill:{SKILL}"
    runner, cases, variants = _runner(store, spec, SkillFollowingModel(), multi_step=True)
    assert variants[1].registry.skills == () and variants[1].label.endswith(spec)
    summary = asyncio.run(runner.run())
    assert summary.status == "done" and len(summary.attempts) == 16, summary
    assert all(a.status == "scored" for a in summary.attempts), [a.error for a in summary.attempts]
    by_id = {c.id: c for c in cases.cases}
    report = skill_report(summary.attempts, by_id, [v.registry for v in variants])
    rows = {r.variant: r for r in report}
    with_skill, without = rows[variants[0].label], rows[variants[1].label]
    # With the skill: asks before filing; without: files unconfirmed twice (the two
    # confirm-first cases), never loads anything (every load expectation missed).
    assert with_skill.violations == 0 and without.violations == 2
    assert with_skill.miss_rate == 0.0 and without.miss_rate == 1.0
    assert with_skill.mis_trigger_rate == 0.0
    assert with_skill.mean_steps is not None and without.mean_steps is not None
    assert with_skill.mean_steps > without.mean_steps  # the loads are steps too
    assert with_skill.task_success is not None and with_skill.task_success >= 0.75
    text = format_skill_report(list(rows.values()))
    assert "violations 2" in text and "mis-trigger 0% of 2" in text


def test_a_variant_without_an_unknown_skill_is_one_clear_line(store: RegistryStore) -> None:
    with pytest.raises(VariantError) as bad:
        resolve_variant(store, REGISTRY, "draft-without-skill:annual-leave")
    assert str(bad.value) == (
        "variant 'draft-without-skill:annual-leave': travel-reimbursement has no skill "
        "'annual-leave' (skills: travel-reimbursement)"
    )


def test_the_cli_prints_the_skill_report(tmp_path: Path, monkeypatch, capsys) -> None:
    from registry_db.profiles import ProfileRepository
    from studio.cli import main
    from tests.evals.loopback_model import Behaviour, LoopbackModel

    monkeypatch.setenv("OPENAI_API_KEY", "sk-loop")
    path = tmp_path / "cli.sqlite3"
    with LoopbackModel(Behaviour(malformed_rate=0, alias_rate=0)) as server:
        with RegistryStore.open(path) as opened:
            seed_examples(opened)
            profile = ModelProfile("loop", ProviderKind.OPENAI_CHAT, server.base_url, "m",
                                   "OPENAI_API_KEY")  # fmt: skip
            ProfileRepository(opened).add(profile)
        argv = ["--db", str(path), "eval", "run", REGISTRY, "skills", "--profile", "loop",
                "--a", "draft", "--b", f"draft-without-skill:{SKILL}",
                "--multi-step", "--quiet"]  # fmt: skip
        code = main(argv)
    out = capsys.readouterr().out
    assert code == 0, out
    lines = [line for line in out.splitlines() if line.startswith("skills: ")]
    assert len(lines) == 2, out
    assert f"@draft-without-skill:{SKILL}: task success" in lines[1]
    assert "violations" in lines[0] and "mis-trigger" in lines[0]


def test_a_skill_the_registry_lacks_is_a_warning_with_its_line(store: RegistryStore) -> None:
    from studio.evals.check import check_against_registry

    draft = store.draft_registry(REGISTRY)
    assert check_against_registry(parse_set("skills", SKILLS_SET), draft) == []
    case = {"id": "x", "user": "年假", "expect": {"kind": "no_tool", "skills": {"not": ["leave"]}}}
    problems = check_against_registry(parse_set("s", json.dumps(case) + "\n"), draft)
    assert [str(p) for p in problems] == ["line 1: expect.skills.not[0]: no skill leave"]
