"""A tool document without ``execution`` or ``provider`` gets the house defaults.

Every such tool shares one frozen default object (per tier), which must equal
what building them anew gives, and stay the tier's: a read tool's defaults
are never a write tool's.
"""

from __future__ import annotations

import dataclasses

import pytest

from studio.contract.document import parse_tool, tool_to_dict
from studio.contract.model import Execution, TimeoutTier
from studio.contract.provider_options import ProviderOptions


def _doc(name: str, risk: str) -> dict[str, object]:
    return {"name": name, "description": "x", "risk": risk, "parameters": {"type": "object"}}


@pytest.mark.parametrize(
    ("risk", "tier"),
    [("read", TimeoutTier.READ), ("write", TimeoutTier.WRITE), ("destructive", TimeoutTier.WRITE)],
)
def test_defaults_equal_fresh_ones(risk: str, tier: TimeoutTier) -> None:
    tool = parse_tool(_doc("get_thing", risk))
    assert tool.execution == Execution.for_tier(tier)
    assert tool.provider == ProviderOptions()
    assert tool.provider.is_default()


def test_shared_defaults_cannot_leak_between_tools() -> None:
    first, second = parse_tool(_doc("a_tool", "write")), parse_tool(_doc("b_tool", "write"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        first.execution.retry.max_attempts = 5  # type: ignore[misc]
    changed = dataclasses.replace(first, execution=Execution.for_tier(TimeoutTier.BATCH))
    assert second.execution == Execution.for_tier(TimeoutTier.WRITE)
    assert tool_to_dict(changed)["execution"] != tool_to_dict(second)["execution"]
