"""Lint messages a person can act on: JSON values as JSON, suggestions from the tool's domain."""

from __future__ import annotations

import pytest

from studio.contract import Registry, ToolContract
from studio.lint import lint_registry
from studio.lint.rules._common import json_repr


@pytest.mark.parametrize(
    ("value", "shown"),
    [(None, "null"), (True, "true"), ("taxi", '"taxi"'), ([1, None], "[1, null]"),
     ({"a": False}, '{"a": false}'), ("出租车", '"出租车"')],
)  # fmt: skip
def test_json_repr(value: object, shown: str):
    assert json_repr(value) == shown


def test_json_repr_cuts_long_values():
    shown = json_repr("x" * 200)
    assert len(shown) == 80 and shown.endswith("…")


def _messages(tool: ToolContract) -> dict[str, list[str]]:
    report = lint_registry(Registry(name="r", tools=(tool,)))
    out: dict[str, list[str]] = {}
    for finding in report.findings:
        out.setdefault(finding.rule_id, []).append(finding.message)
    return out


def test_schema_messages_show_json_values():
    props = {
        "category": {
            "type": "string",
            "description": "Expense category of the invoice.",
            "default": None,
            "examples": [True],
            "enum": ["Taxi", "taxi", None],
        }
    }
    tool = ToolContract(
        name="query_invoices",
        summary="Query invoices by category.",
        parameters={"type": "object", "properties": props},
    )
    text = " ".join(" ".join(m) for m in _messages(tool).values())
    assert "The default null fails its own schema" in text
    assert 'null is not of type "string"' in text
    assert "The example true fails" in text
    assert 'Enum values [null] do not match type "string"' in text
    assert 'Enum values "Taxi" and "taxi" differ only in case' in text
    for python in ("None", "True", "'taxi'", "'string'"):
        assert python not in text


@pytest.mark.parametrize(
    ("name", "suggestion"),
    [("get_song", "(e.g. song_key)"), ("list_invoices", "(e.g. invoice_key)"), ("lookup", None)],
)
def test_ambiguous_parameter_suggests_a_noun_of_the_tools_own_name(name: str, suggestion):
    tool = ToolContract(
        name=name,
        summary="Look something up by its key.",
        parameters={
            "type": "object",
            "properties": {"key": {"type": "string", "description": "The musical key."}},
        },
    )
    (message,) = _messages(tool)["param-name-ambiguous"]
    assert "order_key" not in message
    if suggestion is None:
        assert "e.g." not in message
    else:
        assert suggestion in message
