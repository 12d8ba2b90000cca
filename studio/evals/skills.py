"""Evals with skills (issue #18): the catalogue and ``load_skill`` in a run, and what they cost.

A variant whose registry holds skills is sent as agent hosts send it: the
catalogue (names and descriptions) appended to the system prompt and a
``load_skill`` meta-tool beside the tools (:func:`eval_registry`,
:func:`with_catalogue`). The ``load_skill`` calls are taken out of the answer
before it is scored against ``expect`` (loading a skill is not choosing a tool),
kept in ``raw_calls`` so the report can read them, and scored against
``expect.skills`` (:func:`score_skills`):

- **miss**: a skill in ``load`` was not loaded;
- **mis-trigger**: a skill in ``not`` was loaded (an annual-leave question that
  loads the reimbursement skill). Either one fails the case.

A vs B "with vs without this skill" is the variant ``draft-without-skill:NAME``
(any variant spec followed by ``-without-skill:NAME``). :func:`skill_report`
gives per variant: task success (multi-step's end-to-end), steps (tool calls,
loads included), violations — a write the skill says needs the user's
confirmation, made when the conversation holds no confirmation — and the miss
and mis-trigger rates.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from studio.contract import Registry
from studio.evals.model import EvalCase
from studio.evals.results import STATUS_SCORED, Attempt, AttemptCall, Score
from studio.skills.catalogue import LOAD_SKILL, catalogue_text

WITHOUT_SKILL = "-without-skill:"
"""``<variant>-without-skill:<name>``: the variant with that skill removed."""

_CONFIRM = re.compile(r"确认|同意|批准|confirm|approv|consent|ask the (?:user|employee)", re.I)
_BEFORE = re.compile(r"之前|以前|前(?:先|必须|须)|先|before|prior to|first", re.I)


def split_without_skill(spec: str) -> tuple[str, str]:
    """(base spec, skill to drop) of ``draft-without-skill:NAME``; (spec, "") otherwise."""
    base, sep, skill = spec.partition(WITHOUT_SKILL)
    return (base, skill.strip()) if sep else (spec, "")


def without_skill(registry: Registry, name: str) -> Registry:
    """``registry`` without the skill ``name``.

    Raises:
        ValueError: the registry has no such skill (the message lists the ones it has).
    """
    if registry.skill(name) is None:
        known = ", ".join(s.name for s in registry.skills) or "none"
        raise ValueError(f"{registry.name} has no skill {name!r} (skills: {known})")
    return dataclasses.replace(registry, skills=tuple(s for s in registry.skills if s.name != name))


def eval_registry(registry: Registry) -> Registry:
    """The registry as the model sees it in a run: ``load_skill`` added when it holds skills."""
    if not registry.skills or registry.tool(LOAD_SKILL) is not None:
        return registry
    from studio.runtime.capabilities import load_skill_tool

    return dataclasses.replace(registry, tools=(*registry.tools, load_skill_tool()))


def with_catalogue(system: str, registry: Registry) -> str:
    """``system`` with the skill catalogue appended (unchanged without skills)."""
    if not registry.skills:
        return system
    return (system + "\n\n" if system else "") + catalogue_text(registry.skills)


def split_loads(message: Any) -> tuple[Any, tuple[AttemptCall, ...]]:
    """The answer without its ``load_skill`` calls, and those calls as attempt calls."""
    from studio.sessions.model import ToolCallPart

    loads = tuple(p for p in message.parts if isinstance(p, ToolCallPart) and p.name == LOAD_SKILL)
    if not loads:
        return message, ()
    rest = tuple(p for p in message.parts if p not in loads)
    calls = tuple(AttemptCall(LOAD_SKILL, _arguments(p.arguments), p.id) for p in loads)
    return dataclasses.replace(message, parts=rest), calls


def _arguments(raw: Any) -> Any:
    if isinstance(raw, str):
        import json

        try:
            return json.loads(raw)
        except ValueError:
            return raw
    return raw


def loaded_skills(calls: Iterable[AttemptCall]) -> tuple[str, ...]:
    """The skill names an answer loaded, in order, once each."""
    names: list[str] = []
    for call in calls:
        if call.tool == LOAD_SKILL and isinstance(call.arguments, dict):
            name = call.arguments.get("name")
            if isinstance(name, str) and name not in names:
                names.append(name)
    return tuple(names)


def skill_failures(case: EvalCase, loaded: Sequence[str]) -> tuple[str, ...]:
    """Why the loads break ``expect.skills`` (empty: they keep it, or it has none)."""
    expected = case.expect.skills
    if expected is None:
        return ()
    missed = [f"did not load skill {name}" for name in expected.load if name not in loaded]
    wrong = [f"loaded skill {name}, which it must not" for name in expected.not_load
             if name in loaded]  # fmt: skip
    return (*missed, *wrong)


def score_skills(score: Score | None, failures: Sequence[str]) -> Score | None:
    """``score`` failed with the skill ``failures`` added (unchanged without any)."""
    if score is None or not failures:
        return score
    return dataclasses.replace(score, passed=False, failures=(*score.failures, *failures))


def confirmation_tools(registries: Iterable[Registry]) -> frozenset[str]:
    """Tools a skill body says need the user's confirmation first ("confirm before …")."""
    found: set[str] = set()
    for registry in registries:
        names = {t.name for t in registry.tools}
        for skill in registry.skills:
            for paragraph in re.split(r"\n\s*\n|\n(?=\s*(?:[-*+]|\d+[.)])\s)", skill.body):
                if _CONFIRM.search(paragraph) and _BEFORE.search(paragraph):
                    found.update(n for n in names if n in paragraph)
    return frozenset(found)


def confirmed_before(case: EvalCase) -> bool:
    """An earlier assistant turn asked for a confirmation, and the user answered after it.

    The case's own ``user`` turn always follows its earlier turns, so an asking
    assistant turn anywhere in them is answered.
    """
    return any(t.role == "assistant" and _CONFIRM.search(t.content) for t in case.turns)


def violations(attempt: Attempt, case: EvalCase, confirm: frozenset[str]) -> int:
    """Writes to ``confirm`` tools made without a confirmation in the conversation."""
    if confirmed_before(case):
        return 0
    return sum(1 for c in attempt.raw_calls if c.tool in confirm)


@dataclass(frozen=True, slots=True)
class SkillVariantReport:
    """One variant's numbers for skills (shares are None when nothing was measured)."""

    variant: str
    attempts: int
    task_success: float | None
    mean_steps: float | None
    violations: int
    expect_load: int
    miss_rate: float | None
    expect_not: int
    mis_trigger_rate: float | None


def _share(hits: int, total: int) -> float | None:
    return hits / total if total else None


def skill_report(
    attempts: Iterable[Attempt],
    cases: Mapping[str, EvalCase],
    registries: Iterable[Registry],
) -> list[SkillVariantReport]:
    """Per variant: task success, steps, violations, miss and mis-trigger rates.

    Args:
        attempts: The run's attempts (only scored ones count).
        cases: The set's cases by id.
        registries: The variants' registries: a skill's confirmation rule counts
            for every variant, also the one run without that skill.
    """
    confirm = confirmation_tools(registries)
    by_variant: dict[str, list[Attempt]] = {}
    for attempt in attempts:
        if attempt.status == STATUS_SCORED and attempt.case_id in cases:
            by_variant.setdefault(attempt.variant, []).append(attempt)
    out = []
    for variant, mine in by_variant.items():
        e2e = [a.end_to_end for a in mine if a.end_to_end is not None]
        load_total = miss = not_total = wrong = bad = 0
        for a in mine:
            case = cases[a.case_id]
            bad += violations(a, case, confirm)
            expected = case.expect.skills
            if expected is None:
                continue
            loaded = loaded_skills(a.raw_calls)
            if expected.load:
                load_total += 1
                miss += any(name not in loaded for name in expected.load)
            if expected.not_load:
                not_total += 1
                wrong += any(name in loaded for name in expected.not_load)
        out.append(
            SkillVariantReport(
                variant=variant,
                attempts=len(mine),
                task_success=_share(sum(e2e), len(e2e)),
                mean_steps=sum(len(a.raw_calls) for a in mine) / len(mine),
                violations=bad,
                expect_load=load_total,
                miss_rate=_share(miss, load_total),
                expect_not=not_total,
                mis_trigger_rate=_share(wrong, not_total),
            )
        )
    return out


def format_skill_report(rows: Sequence[SkillVariantReport]) -> str:
    """The report as text lines, one per variant (for the CLI and logs)."""

    def pct(value: float | None) -> str:
        return "—" if value is None else f"{value:.0%}"

    lines = []
    for r in rows:
        steps = "—" if r.mean_steps is None else f"{r.mean_steps:.1f}"
        lines.append(
            f"{r.variant}: task success {pct(r.task_success)}, steps {steps}, "
            f"violations {r.violations}, miss {pct(r.miss_rate)} of {r.expect_load}, "
            f"mis-trigger {pct(r.mis_trigger_rate)} of {r.expect_not}"
        )
    return "\n".join(lines)
