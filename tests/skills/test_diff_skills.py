"""studio diff over skills and remote agents: word diffs, the taxonomy, semver."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from studio.agents.card import read_card_file
from studio.contract import Registry
from studio.diff import diff_registries
from studio.diff.model import ChangeClass
from studio.skills import with_body, with_front_matter
from studio.skills.package import read_skill_folder

EXAMPLES = Path(__file__).parents[2] / "resources" / "examples"


def _base() -> Registry:
    return Registry(
        name="travel",
        skills=(read_skill_folder(EXAMPLES / "skills" / "travel-reimbursement"),),
        agents=(read_card_file(EXAMPLES / "agents" / "expense-audit.json"),),
    )


def _changes(a: Registry, b: Registry) -> dict[str, object]:
    diff = diff_registries(a, b, lint_profile=None)
    return {c.rule_id: c for c in diff.changes}


def test_description_change_is_behavioural_with_a_word_diff() -> None:
    a = _base()
    skill = with_front_matter(
        a.skills[0], description=a.skills[0].description.replace("不处理采购报销", "也处理采购报销")
    )
    changes = _changes(a, dataclasses.replace(a, skills=(skill,)))
    change = changes["skill.description-changed"]
    assert change.klass is ChangeClass.BEHAVIOURAL  # type: ignore[attr-defined]
    assert "[-不-]{+也+}" in change.message  # type: ignore[attr-defined]
    diff = diff_registries(a, dataclasses.replace(a, skills=(skill,)), lint_profile=None)
    assert diff.semver.level == "minor"


def test_body_and_removal() -> None:
    a = _base()
    edited = with_body(a.skills[0], a.skills[0].body.replace("不要心算", "可以心算"))
    changes = _changes(a, dataclasses.replace(a, skills=(edited,)))
    assert "[-不要-]{+可以+}" in changes["skill.body-changed"].message  # type: ignore[attr-defined]
    removed = diff_registries(a, dataclasses.replace(a, skills=()), lint_profile=None)
    assert removed.reaches(ChangeClass.BREAKING)
    assert removed.semver.level == "major"


def test_agent_skill_removed_is_breaking_and_unchanged_is_quiet() -> None:
    a = _base()
    assert diff_registries(a, a, lint_profile=None).changes == ()
    agent = a.agents[0]
    card = dict(agent.card, skills=agent.card["skills"][:1])
    from studio.agents.model import remote_agent

    b = dataclasses.replace(a, agents=(remote_agent(agent.name, card),))
    changes = _changes(a, b)
    assert changes["agent.skill-removed"].klass is ChangeClass.BREAKING  # type: ignore[attr-defined]
