"""The ``skills`` and ``agents`` arrays of a registry document (issue #18).

Kept apart from :mod:`studio.contract.document` so the tool document stays as
it was; each problem becomes a :class:`Problem` located like the tools'
(``skills[0].files["SKILL.md"]: …``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar

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
    return _read_named(value, "skills", parse_skill_dict, SkillError, problems, _unusable_name)


def _unusable_name(skill: Skill) -> str | None:
    # Only what would break storage or files is fatal here; the spec's style
    # rules (lowercase, length…) are lint's skill-spec findings, so a version
    # holding a non-conforming name still loads.
    return None if usable_name(skill.name) else f"{skill.name!r} is not a usable skill name"


def read_agents(value: Any, problems: list[Problem]) -> tuple[RemoteAgent, ...]:
    """The remote agents of a registry document; keys must be unique."""
    return _read_named(value, "agents", parse_agent_dict, AgentCardError, problems)


class _Named(Protocol):
    @property
    def name(self) -> str: ...


_T = TypeVar("_T", bound=_Named)


def _read_named(
    value: Any,
    key: str,
    parse: Callable[[Any], _T],
    error: type[Exception],
    problems: list[Problem],
    check_name: Callable[[_T], str | None] | None = None,
) -> tuple[_T, ...]:
    """Parse each item of the array ``key``; a problem per item that fails or repeats a name.

    Skills and agents are read alike: an item that does not parse is left out
    (its error located at ``key[i]``); one whose name is taken already is kept,
    with a problem at ``key[i].name`` naming the first.
    """
    out: list[_T] = []
    seen: dict[str, int] = {}
    for i, item in enumerate(_array(value, key, problems)):
        where = join_path("", key, i)
        try:
            parsed = parse(item)
        except error as exc:
            problems.append(Problem(where, str(exc)))
            continue
        message = check_name(parsed) if check_name is not None else None
        if message is not None:
            problems.append(Problem(join_path(where, "name"), message))
        if parsed.name in seen:
            problems.append(
                Problem(
                    join_path(where, "name"),
                    f"{parsed.name!r} is already the name of {key}[{seen[parsed.name]}]",
                )
            )
        seen.setdefault(parsed.name, i)
        out.append(parsed)
    return tuple(out)
