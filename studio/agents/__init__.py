"""Remote agents (A2A): Agent Cards held in a registry beside tools and skills.

:mod:`model` is plain Python (no SDK); :mod:`card` imports and checks cards
with ``a2a-sdk``; delegation lives in :mod:`studio.runtime.delegate`.
"""

from studio.agents.model import (
    AgentCardError,
    AgentSkillInfo,
    RemoteAgent,
    agent_to_dict,
    parse_agent_dict,
    remote_agent,
)

__all__ = [
    "AgentCardError",
    "AgentSkillInfo",
    "RemoteAgent",
    "agent_to_dict",
    "parse_agent_dict",
    "remote_agent",
]
