"""The JSON document form of a skill, as it sits in a registry document and a version.

``{"name": …, "files": {"SKILL.md": text, "scripts/x.py": text, "assets/logo.png": {"base64": …}}}``
— ``SKILL.md`` first, the other files sorted by path; a file that is not UTF-8
is stored as base64 so the bytes come back exactly. The document is plain JSON,
so a version's content hash covers every byte of every skill.
"""

from __future__ import annotations

import base64
import binascii
from typing import Any

from studio.skills.model import SKILL_FILE, Skill, SkillError, parse_skill
from studio.skills.package import MAX_FILE_BYTES, safe_relpath


def skill_to_dict(skill: Skill) -> dict[str, Any]:
    """The document of one skill."""
    files: dict[str, Any] = {SKILL_FILE: skill.text}
    for rel, data in skill.files:
        try:
            files[rel] = data.decode("utf-8")
        except UnicodeDecodeError:
            files[rel] = {"base64": base64.b64encode(data).decode("ascii")}
    return {"name": skill.name, "files": files}


def parse_skill_dict(data: Any) -> Skill:
    """A skill from its document.

    Raises:
        SkillError: one line saying which key is wrong.
    """
    if not isinstance(data, dict):
        raise SkillError("must be an object with name and files")
    files = data.get("files")
    if not isinstance(files, dict) or not isinstance(files.get(SKILL_FILE), str):
        raise SkillError(f"files.{SKILL_FILE}: the skill's SKILL.md text is required")
    out: dict[str, bytes] = {}
    for rel, value in files.items():
        if rel == SKILL_FILE:
            continue
        rel = safe_relpath(str(rel), f"files[{rel!r}]")
        if isinstance(value, str):
            out[rel] = value.encode("utf-8")
        elif isinstance(value, dict) and isinstance(value.get("base64"), str):
            try:
                out[rel] = base64.b64decode(value["base64"], validate=True)
            except (binascii.Error, ValueError):
                raise SkillError(f"files[{rel!r}].base64: not valid base64") from None
        else:
            raise SkillError(f'files[{rel!r}]: must be text or {{"base64": …}}')
        if len(out[rel]) > MAX_FILE_BYTES:
            raise SkillError(f"files[{rel!r}]: larger than {MAX_FILE_BYTES:,} bytes")
    skill = parse_skill(files[SKILL_FILE], out)
    name = data.get("name")
    if name is not None and name != skill.name:
        raise SkillError(f"name {name!r} differs from SKILL.md's name {skill.name!r}")
    return skill
