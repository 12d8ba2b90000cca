"""``studio import`` of skills (a SKILL.md folder, a folder of them, a zip) and A2A Agent Cards.

Called from :mod:`studio.cli.registry` before the tool importers: a path that is
a skill package or an Agent Card (or ``--url``) is added to the draft of
``--registry NAME`` (created when missing), beside its tools; anything else
goes on to the tool importers. Module top level stays light (the skills and
agents packages load only when a command runs).
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

from registry_db import RegistryStore
from studio.cli.common import UsageError

SKILL_FILE = "SKILL.md"
_CARD_KEYS = ("supportedInterfaces", "capabilities", "skills", "url", "defaultInputModes")
_CARD_ONLY_KEYS = ("supportedInterfaces", "defaultInputModes", "defaultOutputModes")
"""Keys no tool format has: a card with a broken name is still read as a card (and refused)."""


def source_kind(path: Path) -> str | None:
    """``skills``, ``agent-card`` or None (not ours: the tool importers take it)."""
    if path.is_dir():
        if (path / "registry.json").exists():
            return None  # registry-as-code: the folder importer reads its skills/ too
        # lexists: a SKILL.md that is a folder or a link is the skill reader's to refuse.
        if os.path.lexists(path / SKILL_FILE):
            return "skills"
        for base in (path, path / "skills"):
            if base.is_dir() and any(
                os.path.lexists(c / SKILL_FILE) for c in base.iterdir() if c.is_dir()
            ):
                return "skills"
        return None
    suffix = path.suffix.lower()
    if suffix in (".zip", ".skill"):
        return "skills"  # no tool format is a zip: the skill reader says what is wrong with it
    if path.name == SKILL_FILE:
        return "skills"
    if suffix == ".json" and path.is_file() and path.stat().st_size < 1024 * 1024:
        try:
            data = json.loads(path.read_text(encoding="utf-8-sig"))
        except (ValueError, OSError, RecursionError):
            # Not a card we can read: the tool importers say what is wrong with it.
            return None
        if (
            isinstance(data, dict)
            and "tools" not in data
            and (isinstance(data.get("name"), str) or any(k in data for k in _CARD_ONLY_KEYS))
            and any(k in data for k in _CARD_KEYS)
            and not isinstance(data.get("inputSchema"), dict)
        ):
            return "agent-card"
    return None


def import_capabilities(store: RegistryStore, args: argparse.Namespace) -> int | None:
    """Import skills or an agent card when ``args`` names one (None: not ours, import tools).

    Raises:
        UsageError: a package or card that cannot be read (one line), or no ``--registry``.
    """
    url = getattr(args, "url", None)
    if url:
        if args.file:
            raise UsageError("give either FILE or --url, not both")
        return _import_card(store, args, None, url)
    if not args.file:
        raise UsageError("give a FILE (or folder) to import, or --url for an A2A agent card")
    path = Path(args.file)
    kind = source_kind(path) if args.format == "auto" else None
    if kind == "skills":
        return _import_skills(store, args, path.parent if path.name == SKILL_FILE else path)
    if kind == "agent-card":
        return _import_card(store, args, path, None)
    if args.format == "auto" and path.is_dir() and not os.path.lexists(path / "registry.json"):
        # Else the folder importer's "registry.json: file not found" named no folder.
        raise UsageError(
            f"{path}: a folder without registry.json, SKILL.md or skill folders; nothing to import"
        )
    return None


def _target(store: RegistryStore, args: argparse.Namespace, what: str) -> str:
    name = args.registry
    if not name:
        raise UsageError(f"name the registry to add the {what} to: --registry NAME")
    if not any(r.name == name for r in store.list_registries()):
        store.create_registry(name)
        print(f"created registry {name}")
    return str(name)


def _import_skills(store: RegistryStore, args: argparse.Namespace, path: Path) -> int:
    from registry_db.skills import save_draft_skills
    from studio.skills.catalogue import catalogue_cost
    from studio.skills.model import SkillError
    from studio.skills.package import read_skills
    from studio.skills.spec import import_refusal, validate_skill, visible

    try:
        found = read_skills(path)
    except SkillError as exc:
        raise UsageError(str(exc)) from None
    registry = _target(store, args, "skills")
    for folder, skill in found:
        for problem in validate_skill(skill, folder):
            print(f"warning: {visible(problem)}")
        if refusal := import_refusal(skill, folder):
            raise UsageError(refusal)
    skills = [skill for _, skill in found]
    save_draft_skills(store, registry, skills=skills)
    cost = catalogue_cost(store.draft_registry(registry).skills)
    names = ", ".join(s.name for s in skills)
    print(
        f"added {len(skills)} skill(s) to {registry}: {names} — catalogue {cost.resident} tokens "
        f"resident, bodies {cost.bodies} tokens on demand"
    )
    return 0


def _import_card(
    store: RegistryStore, args: argparse.Namespace, path: Path | None, url: str | None
) -> int:
    import asyncio

    from registry_db.skills import save_draft_skills
    from studio.agents.card import fetch_card, read_card_file
    from studio.agents.model import AgentCardError
    from studio.skills.spec import shown

    if not args.registry:  # before the fetch: a missing flag costs no request
        raise UsageError("name the registry to add the agent to: --registry NAME")
    try:
        if url is not None:
            if not url.startswith(("http://", "https://")):
                raise UsageError(f"--url {url}: an agent card URL starts with http:// or https://")
            agent = asyncio.run(fetch_card(url))
        else:
            assert path is not None
            agent = read_card_file(path)
    except AgentCardError as exc:
        raise UsageError(str(exc)) from None
    registry = _target(store, args, "agent")
    save_draft_skills(store, registry, agents=[agent])
    skills = ", ".join(s.name or s.id for s in agent.skills) or "no skills"
    stream = "streaming" if agent.streaming else "no streaming"
    print(shown(f"added remote agent {agent.name} to {registry}: {agent.url} ({stream}; {skills})"))
    return 0
