"""name-windows-reserved, and names checked as full matches (a trailing newline is not a name)."""

from __future__ import annotations

import pytest

from studio.contract import ContractError, parse_tool
from studio.lint.model import RULES, Severity
from studio.lint.rules.naming import windows_reserved_stem
from tests.lint.fixtures_rules import apply_fix, context, hits, tool


@pytest.mark.parametrize(
    ("name", "profile", "stem"),
    [
        ("CON", "openai", "CON"),
        ("con", "openai", "CON"),
        ("Nul", "anthropic", "NUL"),
        ("prn", "openai", "PRN"),
        ("aux", "openai", "AUX"),
        ("com1", "openai", "COM1"),
        ("COM9", "openai", "COM9"),
        ("lpt1", "openai", "LPT1"),
        ("LpT9", "openai", "LPT9"),
        ("nul.v2", "mcp", "NUL"),  # an extension-like suffix does not help
        ("Com3.backup", "gemini", "COM3"),
        ("aux.tool.json", "mcp", "AUX"),
    ],
)
def test_reserved_device_names_get_a_warning(name: str, profile: str, stem: str) -> None:
    [hit] = hits("name-windows-reserved", tool(name), profile=profile)
    assert hit.path == "name"
    assert RULES["name-windows-reserved"].default_severity is Severity.WARNING
    assert stem in hit.message and f"tools/{name}.json" in hit.message
    fixed = apply_fix(tool(name), hit)
    assert windows_reserved_stem(fixed.name) is None
    assert hits("name-windows-reserved", fixed, profile=profile) == []
    assert hits("name-charset", fixed, profile=profile) == []


@pytest.mark.parametrize(
    "name", ["console", "get_con", "null", "nul_check", "com10", "lpt", "com", "auxiliary",
             "con_tool", "get_order", "icon.v2"],
)  # fmt: skip
def test_names_that_only_look_alike_are_fine(name: str) -> None:
    assert hits("name-windows-reserved", tool(name), profile="mcp") == []


def test_the_fix_is_offered_only_when_its_name_is_free() -> None:
    ctx = context(tool("con"), tool("con_tool"))
    [hit] = hits("name-windows-reserved", tool("con"), ctx=ctx)
    assert hit.fix is None


def test_the_rule_is_declared_with_a_rationale_and_a_fix() -> None:
    rule = RULES["name-windows-reserved"]
    assert rule.category == "naming" and rule.has_fix
    assert "tools/<name>.json" in rule.rationale and rule.profiles is None


# --- full matches -----------------------------------------------------------------------


@pytest.mark.parametrize("profile", ["openai", "openai-strict", "anthropic", "gemini", "mcp"])
def test_a_trailing_newline_breaks_every_profiles_name_rule(profile: str) -> None:
    [hit] = hits("name-charset", tool("get_order\n"), profile=profile)
    assert hit.fix is not None and apply_fix(tool("get_order\n"), hit).name == "get_order"


def test_a_tool_document_with_a_trailing_newline_in_its_name_is_refused() -> None:
    doc = {"name": "get_order\n", "summary": "Look up one order.",
           "parameters": {"type": "object", "properties": {}}}  # fmt: skip
    with pytest.raises(ContractError) as caught:
        parse_tool(doc)
    assert "name" in str(caught.value)
    assert parse_tool({**doc, "name": "get_order"}).name == "get_order"


def test_an_injected_path_with_a_trailing_newline_is_refused() -> None:
    from studio.contract.schema_checks import INJECTED_PATTERN

    assert INJECTED_PATTERN.fullmatch("session.employee_id")
    prop = {"type": "string", "x-injected": "session.employee_id\n"}
    doc = {"name": "create_ticket", "summary": "Create a ticket.",
           "parameters": {"type": "object", "properties": {"employee_id": prop}}}  # fmt: skip
    with pytest.raises(ContractError) as caught:
        parse_tool(doc)
    assert "x-injected" in str(caught.value)


def test_a_semver_with_a_trailing_newline_is_not_a_version() -> None:
    from registry_db import InvalidSemverError
    from registry_db.semver import semver_key

    assert semver_key("1.2.3") == (1, 2, 3, 1, ())
    with pytest.raises(InvalidSemverError):
        semver_key("1.2.3\n")
