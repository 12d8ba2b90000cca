"""Small registries shared by the lint tests."""

from __future__ import annotations

import json
from pathlib import Path

from studio.contract import Registry, ToolContract, parse_registry

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"


def example(name: str) -> Registry:
    return parse_registry(json.loads((EXAMPLES / f"{name}.json").read_text("utf-8")))


def tool(name: str, summary: str = "", usage: str = "", **kw) -> ToolContract:
    return ToolContract(name=name, summary=summary, usage=usage, **kw)


def registry(*tools: ToolContract, name: str = "t") -> Registry:
    return Registry(name=name, tools=tuple(tools))
