"""Skills (Agent Skills format): ``SKILL.md`` packages held in a registry beside tools.

Plain Python, no Qt: :mod:`model` (the skill and edits that keep bytes),
:mod:`package` (folders and zips, hostile input refused), :mod:`spec` (the
agentskills.io rules), :mod:`document` (the registry-document form),
:mod:`markdown` (what a body points at), :mod:`catalogue` (what a model sees).
"""

from studio.skills.model import (
    SKILL_FILE,
    Skill,
    SkillError,
    new_skill,
    parse_skill,
    with_body,
    with_files,
    with_front_matter,
)

__all__ = [
    "SKILL_FILE",
    "Skill",
    "SkillError",
    "new_skill",
    "parse_skill",
    "with_body",
    "with_files",
    "with_front_matter",
]
