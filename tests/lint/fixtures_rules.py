"""Helpers for the rule tests: build tools and contexts, run one rule, apply its fix."""

from __future__ import annotations

import json
from importlib.resources import files
from typing import Any

import studio.lint.rules  # noqa: F401 - registers every rule
from studio.contract import Registry, RegistrySettings, ToolContract, parse_registry
from studio.lint.model import RULES, Hit, LintContext, Scope, Severity


def tool(name: str = "get_order", **fields: Any) -> ToolContract:
    """A tool with a complete, lint-clean description unless ``fields`` say otherwise."""
    base: dict[str, Any] = {
        "summary": "Look up one order by its order number.",
        "usage": "the user names an order. Do not use it to list orders: use list_orders.",
        "returns": "The order with status and items; at most 50 items are listed.",
        "parameters": {
            "type": "object",
            "properties": {
                "order_id": {
                    "type": "string",
                    "pattern": "^ORD-\\d+$",
                    "description": "Order number, e.g. ORD-1024.",
                }
            },
            "required": ["order_id"],
            "additionalProperties": False,
        },
    }
    base.update(fields)
    return ToolContract(name=name, **base)


def params(properties: dict[str, Any], required: list[str] | None = None, **extra: Any) -> dict:
    """An object schema with ``properties`` (closed unless ``extra`` says otherwise)."""
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required is not None:
        schema["required"] = required
    schema.setdefault("additionalProperties", False)
    schema.update(extra)
    return schema


def context(
    *tools: ToolContract,
    profile: str = "openai",
    options: dict[str, object] | None = None,
    settings: RegistrySettings | None = None,
) -> LintContext:
    settings = settings or RegistrySettings()
    registry = Registry(name="test", settings=settings, tools=tuple(tools))
    return LintContext(registry, settings, profile, dict(options or {}))


def hits(
    rule_id: str,
    subject: ToolContract | Registry | None = None,
    ctx: LintContext | None = None,
    **kw: Any,
) -> list[Hit]:
    """Run one rule on a tool (tool rules) or on the context's registry (registry rules)."""
    rule = RULES[rule_id]
    if rule.scope is Scope.REGISTRY:
        if ctx is None:
            assert isinstance(subject, Registry)
            ctx = LintContext(subject, subject.settings, kw.get("profile", "openai"), {})
        return list(rule.check(ctx.registry, ctx))
    assert isinstance(subject, ToolContract)
    ctx = ctx or context(subject, **kw)
    return list(rule.check(subject, ctx))


def worst_severities(
    rule_ids: list[str], subject: ToolContract | Registry, ctx: LintContext | None = None
) -> dict[str, Severity]:
    """The worst severity of each of ``rule_ids`` that reports ``subject``."""
    out: dict[str, Severity] = {}
    for rule_id in rule_ids:
        for hit in hits(rule_id, subject, ctx):
            severity = hit.severity or RULES[rule_id].default_severity
            if rule_id not in out or severity.rank > out[rule_id].rank:
                out[rule_id] = severity
    return out


def apply_fix(subject: ToolContract, hit: Hit) -> ToolContract:
    """Apply a hit's quick fix edits in order."""
    assert hit.fix is not None, "expected a quick fix"
    for edit in hit.fix.edits:
        subject, _inverse = edit.apply(subject)
    return subject


def example(name: str) -> Registry:
    text = (files("resources") / "examples" / f"{name}.json").read_text(encoding="utf-8")
    return parse_registry(json.loads(text))


def severity_of(rule_id: str, hit: Hit) -> Severity:
    return hit.severity or RULES[rule_id].default_severity


def run_all(
    registry: Registry, rule_ids: list[str], profile: str = "openai"
) -> list[tuple[str, Hit]]:
    """Every hit of the given rules on the registry, as (rule id, hit)."""
    ctx = LintContext(registry, registry.settings, profile, {})
    out: list[tuple[str, Hit]] = []
    for rule_id in rule_ids:
        rule = RULES[rule_id]
        if not rule.applies_to(profile):
            continue
        if rule.scope is Scope.REGISTRY:
            out += [(rule_id, h) for h in rule.check(registry, ctx)]
        else:
            for t in registry.tools:
                out += [(rule_id, h) for h in rule.check(t, ctx)]
    return out


def module_rules(module: str) -> list[str]:
    """Ids of the rules defined in ``studio.lint.rules.<module>``."""
    return sorted(
        rid for rid, r in RULES.items() if r.check.__module__ == f"studio.lint.rules.{module}"
    )


ODD_TOOLS = [
    ToolContract(name="odd_one", parameters={"type": "object", "properties": {"a": "not a dict"}}),
    ToolContract(name="odd_two", parameters={"properties": None, "required": "a"}),
    ToolContract(
        name="odd_three",
        parameters={
            "type": ["object", 3],
            "properties": {
                "x": {
                    "type": "array",
                    "items": [1],
                    "enum": "x",
                    "description": 12,
                    "x-aliases": "q",
                    "x-enum-aliases": [1],
                    "default": {"$ref": "#/nowhere"},
                }
            },
        },
    ),
    ToolContract(
        name="odd_four",
        description=None,
        summary=None,  # type: ignore[arg-type]
        parameters=[],
    ),  # type: ignore[arg-type]
    ToolContract(
        name="",
        parameters={
            "type": "object",
            "properties": {
                "deep": {
                    "type": "object",
                    "properties": {"deeper": {"type": "object", "pattern": "(", "properties": {}}},
                }
            },
        },
    ),
]
"""Tools from a careless import: no rule may raise on them."""


def run_on(rule_id: str, ctx: LintContext) -> list[Hit]:
    """Run one rule over the context's whole registry (every tool, or the registry once)."""
    rule = RULES[rule_id]
    if rule.scope is Scope.REGISTRY:
        return list(rule.check(ctx.registry, ctx))
    return [h for t in ctx.registry.tools for h in rule.check(t, ctx)]


def example_context(name: str, profile: str = "openai") -> LintContext:
    registry = example(name)
    return LintContext(registry, registry.settings, profile, {})
