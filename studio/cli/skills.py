"""``studio skills REGISTRY``: a registry's skills and remote agents, listed or in a window."""

from __future__ import annotations

import argparse

from registry_db import RegistryStore
from studio.cli.common import Subcommands, UsageError


def add_parsers(sub: Subcommands, common: argparse.ArgumentParser) -> None:
    """Register ``studio skills``."""
    p = sub.add_parser("skills", parents=[common], help="skills and remote agents of a registry")
    p.add_argument("registry", metavar="REGISTRY")
    p.add_argument("--gui", action="store_true", help="open the skill editor in a window")
    p.set_defaults(handler=_cmd_skills)


def _cmd_skills(store: RegistryStore, args: argparse.Namespace) -> int:
    from registry_db.errors import NotFoundError
    from studio.skills.catalogue import catalogue_cost
    from studio.skills.spec import shown

    try:
        registry = store.draft_registry(args.registry)
    except NotFoundError as exc:
        raise UsageError(str(exc)) from None
    if args.gui:
        from studio.ui.skills.window import run_skills_window

        return run_skills_window(store, args.registry)
    cost = catalogue_cost(registry.skills)
    for skill in registry.skills:
        files = ", ".join(rel for rel, _ in skill.files) or "no other files"
        # shown(): a description's line breaks, escape sequences or bidi overrides
        # would otherwise break the columns or drive the terminal.
        print(shown(f"skill\t{skill.name}\t{skill.description}\t({files})", keep_tabs=True))
    for agent in registry.agents:
        skills = ", ".join(s.name or s.id for s in agent.skills)
        print(shown(f"agent\t{agent.name}\t{agent.url}\t{skills}", keep_tabs=True))
    if registry.skills:
        print(
            f"catalogue: {cost.resident} tokens resident (names and descriptions); bodies "
            f"{cost.bodies} tokens on demand; {cost.without_disclosure} without progressive "
            "disclosure"
        )
    elif not registry.agents:
        print(f"{args.registry} has no skills or remote agents")
    return 0
