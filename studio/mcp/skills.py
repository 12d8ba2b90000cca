"""A served version's skills as MCP prompts and resources (issue #18).

MCP has no "skill" primitive; the two that fit are prompts (a client lists
them by name and description and fetches one's text on demand, which is
progressive disclosure as a user-invoked menu) and resources (a client reads
``SKILL.md`` and the package's text files by URI). Both are served: clients
that support only one still see the skills. Scripts are listed as resources
but never run here.
"""

from __future__ import annotations

from urllib.parse import quote, unquote

import mcp.types as types
from mcp.shared.exceptions import MCPError

from studio.contract import Registry
from studio.skills.model import SKILL_FILE, Skill

SCHEME = "skill"
"""Resource URIs are ``skill://<skill>/<path in the package>``."""


def skill_prompts(registry: Registry) -> list[types.Prompt]:
    """One prompt per skill: its name and description, the catalogue a client shows."""
    return [
        types.Prompt(
            name=s.name,
            description=s.description,
            arguments=[
                types.PromptArgument(
                    name="task", description="What to do with this skill (optional)"
                )
            ],
        )
        for s in registry.skills
    ]


def _skill(registry: Registry, name: str) -> Skill:
    skill = registry.skill(name)
    if skill is None:
        known = ", ".join(s.name for s in registry.skills) or "none"
        raise MCPError(types.INVALID_PARAMS, f"Unknown prompt: {name} (skills: {known})")
    return skill


def skill_prompt(registry: Registry, name: str, task: str = "") -> types.GetPromptResult:
    """The skill's body as the prompt's message, the task (if given) after it."""
    skill = _skill(registry, name)
    text = skill.body if not task else f"{skill.body.rstrip()}\n\nTask: {task}"
    return types.GetPromptResult(
        description=skill.description,
        messages=[
            types.PromptMessage(role="user", content=types.TextContent(type="text", text=text))
        ],
    )


def _uri(skill: str, path: str) -> str:
    return f"{SCHEME}://{quote(skill, safe='')}/{quote(path)}"


def skill_resources(registry: Registry) -> list[types.Resource]:
    """Every text file of every skill package, ``SKILL.md`` first (binary files are left out)."""
    found: list[types.Resource] = []
    for skill in registry.skills:
        for path in skill.file_names():
            if path != SKILL_FILE and _text(skill, path) is None:
                continue
            mime = "text/markdown" if path.endswith(".md") else "text/plain"
            description = skill.description if path == SKILL_FILE else f"{skill.name}: {path}"
            found.append(
                types.Resource(
                    name=f"{skill.name}/{path}",
                    uri=_uri(skill.name, path),
                    description=description,
                    mime_type=mime,
                )
            )
    return found


def _text(skill: Skill, path: str) -> str | None:
    if path == SKILL_FILE:
        return skill.text
    data = skill.file(path)
    if data is None:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def read_skill_resource(registry: Registry, uri: str) -> types.ReadResourceResult:
    """The text of ``skill://<skill>/<path>``.

    Raises:
        MCPError: another scheme, an unknown skill, or no such text file in it.
    """
    prefix = f"{SCHEME}://"
    if not uri.startswith(prefix) or "/" not in uri[len(prefix) :]:
        raise MCPError(types.INVALID_PARAMS, f"Unknown resource: {uri}")
    name, _, path = uri[len(prefix) :].partition("/")
    skill = registry.skill(unquote(name))
    text = _text(skill, unquote(path)) if skill is not None else None
    if text is None:
        raise MCPError(types.INVALID_PARAMS, f"Unknown resource: {uri}")
    mime = "text/markdown" if path.endswith(".md") else "text/plain"
    return types.ReadResourceResult(
        contents=[types.TextResourceContents(uri=uri, mime_type=mime, text=text)]
    )
