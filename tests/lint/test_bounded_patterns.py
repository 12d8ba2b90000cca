"""Lint validates examples and defaults with bounded pattern matching (no ReDoS on import)."""

from __future__ import annotations

import time

import pytest

from studio.contract import Example
from tests.lint.fixtures_rules import hits, params, tool


@pytest.mark.timeout(30)
def test_a_hostile_pattern_with_a_hostile_example_is_reported_at_once() -> None:
    hostile = "a" * 40 + "!"
    props = {"code": {"type": "string", "pattern": "^(a+)+$", "examples": [hostile],
                      "default": hostile}}  # fmt: skip
    t = tool(parameters=params(props, ["code"]), examples=(Example("x", {"code": hostile}),))
    started = time.perf_counter()
    found = hits("schema-invalid-default", t)
    assert time.perf_counter() - started < 1.0
    assert sorted(h.path for h in found) == [
        "examples[0].arguments",
        "parameters.properties.code.default",
        "parameters.properties.code.examples[0]",
    ]
