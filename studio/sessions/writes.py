"""Whether calling a tool changes state: the registry's risk tier, else its name's verb.

A leaf module: every import counts the suspicious writes of each conversation
(:mod:`studio.sessions.suspicious`), and a log whose calls are all reads (most)
needs this question answered and nothing else of that module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from studio.contract.risk import verb_reads

if TYPE_CHECKING:
    from studio.contract.model import Registry


def is_write_tool(name: str, registry: Registry | None = None) -> bool:
    """Whether calling ``name`` changes state (registry risk, else the name's verb)."""
    if registry is not None:
        # Imported here: a registry means the contract model is loaded already, and
        # checking a session without one (every import) need not load it.
        from studio.contract.model import RiskTier

        tool = registry.tool(name)
        if tool is not None:
            return tool.risk is not RiskTier.READ
    # The importers' verb classes (studio.contract.risk); an unknown verb is no
    # evidence of a write here: a duplicate read is no side effect to report.
    return verb_reads(name) is False
