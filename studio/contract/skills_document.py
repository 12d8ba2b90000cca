"""The ``skills`` and ``agents`` arrays of a registry document (issue #18).

Kept apart from :mod:`studio.contract.document` so the tool document stays as
it was; each problem becomes a :class:`Problem` located like the tools'
(``skills[0].files["SKILL.md"]: …``).
"""

from __future__ import annotations

from typing import Any

from studio.agents.model import AgentCardError, RemoteAgent, agent_to_dict, parse_agent_dict
from studio.contract.problems import Problem, join_path, json_kind
from studio.skills.document import parse_skill_dict, skill_to_dict
from studio.skills.model import Skill, SkillError
from studio.skills.spec import usable_name

__all__ = ["agent_to_dict", "read_agents", "read_skills", "skill_to_dict"]


def _array(value: Any, key: str, problems: list[Problem]) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        problems.append(Problem(key, f"must be an array, not {json_kind(value)}"))
        return []
    return value


def read_skills(value: Any, problems: list[Problem]) -> tuple[Skill, ...]:
    """The skills of a registry document; names must be valid and unique."""
    out: list[Skill] = []
    seen: dict[str, int] = {}
    for i, item in enumerate(_array(value, "skills", problems)):
        where = join_path("", "skills", i)
        try:
            skill = parse_skill_dict(item)
        except SkillError as exc:
            problems.append(Problem(where, str(exc)))
            continue
        # Only what would break storage or files is fatal here; the spec's style
        # rules (lowercase, length…) are lint's skill-spec findings, so a version
        # holding a non-conforming name still loads.
        if not usable_name(skill.name):
            problems.append(
                Problem(join_path(where, "name"), f"{skill.name!r} is not a usable skill name")
            )
        if skill.name in seen:
            problems.append(
                Problem(
                    join_path(where, "name"),
                    f"{skill.name!r} is already the name of skills[{seen[skill.name]}]",
                )
            )
        seen.setdefault(skill.name, i)
        out.append(skill)
    return tuple(out)


def read_agents(value: Any, problems: list[Problem]) -> tuple[RemoteAgent, ...]:
    """The remote agents of a registry document; keys must be unique."""
    out: list[RemoteAgent] = []
    seen: dict[str, int] = {}
    for i, item in enumerate(_array(value, "agents", problems)):
        where = join_path("", "agents", i)
        try:
            agent = parse_agent_dict(item)
        except AgentCardError as exc:
            problems.append(Problem(where, str(exc)))
            continue
        if agent.name in seen:
            problems.append(
                Problem(
                    join_path(where, "name"),
                    f"{agent.name!r} is already the name of agents[{seen[agent.name]}]",
                )
            )
        seen.setdefault(agent.name, i)
        out.append(agent)
    return tuple(out)
