"""Property test: the studio and provider formats hold up for generated tools."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from studio.contract import (
    Execution,
    Idempotency,
    Permission,
    Registry,
    RetryPolicy,
    RiskTier,
    TimeoutTier,
    ToolContract,
    registry_hash,
)
from studio.formats import export_registry, import_text
from studio.formats.schema import clean_schema

names = st.from_regex(r"[a-z][a-z0-9_]{0,20}", fullmatch=True)
prop_names = st.text(min_size=1, max_size=8).filter(lambda s: not s.startswith("x-"))
texts = st.text(max_size=40)
# Registry names are one line: control characters and line breaks are refused on import.
one_line_chars = st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp"))


@st.composite
def property_schemas(draw: st.DrawFn, name: str) -> dict:
    schema: dict = {"type": draw(st.sampled_from(["string", "integer", "number", "boolean"]))}
    if draw(st.booleans()):
        schema["description"] = draw(texts)
    if draw(st.booleans()):
        schema["x-aliases"] = [f"alias {name}"]
    if schema["type"] == "string" and draw(st.booleans()):
        schema["enum"] = ["a", "b"]
        schema["x-enum-aliases"] = {"甲": "a"}
    if draw(st.booleans()):
        schema["x-injected"] = "session.user_id"
    return schema


@st.composite
def tools(draw: st.DrawFn, name: str) -> ToolContract:
    props = {
        n: draw(property_schemas(n)) for n in draw(st.lists(prop_names, max_size=4, unique=True))
    }
    required = draw(st.lists(st.sampled_from(sorted(props)), unique=True)) if props else []
    parameters: dict = {"type": "object", "properties": props}
    if required:
        parameters["required"] = required
    tier = draw(st.sampled_from(list(TimeoutTier)))
    execution = Execution(
        timeout_tier=tier,
        timeout_seconds=draw(st.floats(0.1, 120, allow_nan=False)),
        retry=RetryPolicy(max_attempts=draw(st.integers(1, 5))),
        idempotency=Idempotency(draw(st.booleans()), draw(texts)),
    )
    return ToolContract(
        name=name,
        title=draw(texts),
        summary=draw(texts),
        usage=draw(texts),
        description=draw(texts),
        parameters=parameters,
        risk=draw(st.sampled_from(list(RiskTier))),
        execution=execution,
        permissions=tuple(Permission(r) for r in draw(st.lists(names, max_size=2))),
        tags=tuple(draw(st.lists(texts, max_size=2))),
    )


@st.composite
def registries(draw: st.DrawFn) -> Registry:
    tool_names = draw(st.lists(names, min_size=1, max_size=4, unique=True))
    return Registry(
        name=draw(st.text(one_line_chars, min_size=1, max_size=20)),
        title=draw(texts),
        description=draw(texts),
        tools=tuple(draw(tools(n)) for n in tool_names),
    )


@settings(max_examples=50, deadline=None)
@given(registries())
def test_studio_format_preserves_the_hash(registry: Registry):
    back = import_text(export_registry(registry, "studio").text)
    assert registry_hash(back.registry) == registry_hash(registry)


@settings(max_examples=30, deadline=None)
@given(registries())
def test_anthropic_round_trip_keeps_the_model_view(registry: Registry):
    back = import_text(export_registry(registry, "anthropic").text).registry
    assert [t.name for t in back.tools] == [t.name for t in registry.tools]
    for original, imported in zip(registry.tools, back.tools, strict=True):
        assert imported.parameters == clean_schema(original.parameters)[0]
