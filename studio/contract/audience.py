"""Permission-scoped tool sets: what one audience (role, scenario) may be sent (issue #17).

A tool's ``permissions`` list the (role, scenario) pairs that may call it;
``*`` matches anything and a tool without permissions is open to everyone —
the same rule the runtime enforces at call time
(:func:`studio.runtime.policy.check_permission`). Sending an agent only the
tools its audience may call costs fewer tokens and leaves fewer wrong choices;
:func:`for_audience` builds that registry.

An audience with an empty role and scenario is "anyone": only open tools.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from studio.contract.model import Registry, ToolContract

ANY = "*"


@dataclass(frozen=True, slots=True)
class Audience:
    """Who the tools are for. Empty fields match only ``*`` permissions."""

    role: str = ""
    scenario: str = ""

    def __str__(self) -> str:
        return f"{self.role or '(any role)'} / {self.scenario or '(any scenario)'}"


def _matches(allowed: str, actual: str) -> bool:
    return allowed in (ANY, actual)


def permits(tool: ToolContract, audience: Audience) -> bool:
    """Whether ``audience`` may call ``tool`` (a tool without permissions is open)."""
    if not tool.permissions:
        return True
    return any(
        _matches(p.role, audience.role) and _matches(p.scenario, audience.scenario)
        for p in tool.permissions
    )


def for_audience(registry: Registry, audience: Audience) -> Registry:
    """``registry`` with only the tools ``audience`` may call, in registry order."""
    tools = tuple(t for t in registry.tools if permits(t, audience))
    return dataclasses.replace(registry, tools=tools)


def audiences(registry: Registry) -> list[Audience]:
    """Every (role, scenario) pair the registry's permissions name, sorted.

    ``*`` is kept as written: (employee, *) is one audience, the one whose
    scenario does not matter.
    """
    seen = {Audience(p.role, p.scenario) for t in registry.tools for p in t.permissions}
    return sorted(seen, key=lambda a: (a.role, a.scenario))
