"""Progressive disclosure: what of the skills stays in a model's context, and what loads on demand.

Agent hosts keep only each skill's name and description resident (the
catalogue, in the system prompt) and hand a body over when the model asks for
it through a ``load_skill`` meta-tool. :func:`catalogue_cost` measures both
sides so lint and the README can say what progressive disclosure saves.
Scripts are listed, never run here: running one needs an executor the user set up.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from studio.contract.tokens import estimate_tokens
from studio.skills.model import Skill

LOAD_SKILL = "load_skill"
"""The meta-tool's name (chosen to match what agent hosts call it)."""

LOAD_SKILL_DESCRIPTION = (
    "Load the full instructions of one skill from the catalogue before doing a task it covers. "
    "Returns the skill's body and the files it ships (scripts are listed, not run)."
)

LOAD_SKILL_PARAMETERS = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "description": "The skill's name from the catalogue."}
    },
    "required": ["name"],
    "additionalProperties": False,
}

Counter = Callable[[str], int]


def catalogue_line(skill: Skill) -> str:
    """One resident line: ``- name: description``."""
    return f"- {skill.name}: {' '.join(skill.description.split())}"


def catalogue_text(skills: Sequence[Skill]) -> str:
    """The system-prompt block listing the skills ("" when there are none)."""
    if not skills:
        return ""
    lines = "\n".join(catalogue_line(s) for s in skills)
    return (
        "Skills you can load (call load_skill with the name before following one; "
        "only load a skill whose description fits the task):\n" + lines
    )


def load_skill_result(skills: Sequence[Skill], name: str) -> dict[str, object]:
    """What ``load_skill`` returns: the body and file list, or a structured error."""
    skill = next((s for s in skills if s.name == name), None)
    if skill is None:
        known = ", ".join(s.name for s in skills) or "none"
        return {
            "ok": False,
            "error_code": "UNKNOWN_SKILL",
            "message": f"no skill named {name!r}",
            "hint": f"skills in the catalogue: {known}",
        }
    return {
        "ok": True,
        "name": skill.name,
        "instructions": skill.body,
        "files": [rel for rel, _ in skill.files],
        "scripts_run": "only through an executor the user configured; ask the user if none is",
    }


@dataclass(frozen=True, slots=True)
class CatalogueCost:
    """Tokens of the catalogue (always resident) against the bodies (loaded on demand)."""

    resident: int
    """Names and descriptions, as the catalogue block."""
    bodies: int
    """Every body, as if all were loaded at once (what no disclosure would cost)."""
    per_skill: tuple[tuple[str, int, int], ...]
    """(name, catalogue-line tokens, body tokens) per skill."""

    @property
    def without_disclosure(self) -> int:
        """Everything in context up front: the catalogue and every body."""
        return self.resident + self.bodies


def catalogue_cost(skills: Sequence[Skill], count: Counter | None = None) -> CatalogueCost:
    """Measure the catalogue; ``count`` defaults to the studio's offline token estimate."""
    count = count or estimate_tokens
    per = tuple((s.name, count(catalogue_line(s)), count(s.body)) for s in skills)
    return CatalogueCost(
        resident=count(catalogue_text(skills)) if skills else 0,
        bodies=sum(b for _, _, b in per),
        per_skill=per,
    )
