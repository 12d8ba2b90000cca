"""Registry diffs: renames, semver, lint and token deltas, rendering, and properties."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from registry_db import load_examples
from studio.contract import Registry, RegistrySettings, ToolContract
from studio.diff import (
    ChangeClass,
    ToolStatus,
    diff_registries,
    next_semver,
    suggest_semver,
    to_json,
    to_markdown,
    to_text,
)


@pytest.fixture(scope="module")
def examples() -> dict[str, Registry]:
    return {r.name: r for r in load_examples()}


def invoices() -> ToolContract:
    return ToolContract(
        name="query_invoices",
        summary="List the employee's invoices for a date range.",
        usage="Use when the user asks which invoices they uploaded; not for tickets.",
        returns="Invoices with number, amount and date.",
        parameters={
            "type": "object",
            "properties": {
                "start_date": {"type": "string", "format": "date"},
                "end_date": {"type": "string", "format": "date"},
                "status": {"type": "string", "enum": ["open", "paid"]},
            },
        },
    )


def delete_user() -> ToolContract:
    return ToolContract(
        name="delete_user",
        summary="Permanently delete a user account and its data.",
        parameters={"type": "object", "properties": {"user_id": {"type": "string"}}},
    )


def reg(*tools: ToolContract, **kw: Any) -> Registry:
    return Registry(name="r", tools=tools, **kw)


# ---------------------------------------------------------------------- renames


def test_rename_with_small_description_edit_is_detected() -> None:
    old = invoices()
    new = replace(
        old,
        name="search_invoices",
        summary="List the employee's invoices for a date range, newest first.",
    )
    diff = diff_registries(reg(old, delete_user()), reg(new, delete_user()), lint_profile=None)
    [tool] = [t for t in diff.tools if t.status is ToolStatus.RENAMED]
    assert (tool.old_name, tool.name) == ("query_invoices", "search_invoices")
    assert 0.6 <= tool.rename_score < 1.0
    assert tool.changes[0].rule_id == "tool.renamed"
    assert tool.changes[0].klass is ChangeClass.BREAKING
    assert "desc.summary-changed" in [c.rule_id for c in tool.changes]
    assert diff.semver.level == "major"
    [candidate] = diff.renames
    assert candidate.accepted and candidate.source == "detected"


def test_unrelated_tools_are_not_paired() -> None:
    diff = diff_registries(reg(invoices()), reg(delete_user()), lint_profile=None)
    assert {t.status for t in diff.tools} == {ToolStatus.ADDED, ToolStatus.REMOVED}
    assert diff.renames == ()
    assert {c.rule_id for c in diff.changes} == {"tool.added", "tool.removed"}


def test_confirmed_and_rejected_renames_are_respected() -> None:
    old, other = invoices(), delete_user()
    renamed = replace(old, name="search_invoices")
    # Rejected: a detected pair becomes a removal plus an addition.
    diff = diff_registries(
        reg(old), reg(renamed), rejected_renames=[("query_invoices", "search_invoices")],
        lint_profile=None,
    )  # fmt: skip
    assert [t.status for t in diff.tools] == [ToolStatus.ADDED, ToolStatus.REMOVED]
    [candidate] = diff.renames
    assert not candidate.accepted and candidate.source == "rejected"
    # Confirmed: a pair the detector would never make is taken as a rename.
    diff = diff_registries(
        reg(old), reg(replace(other, name="purge_user")),
        confirmed_renames={"query_invoices": "purge_user"}, lint_profile=None,
    )  # fmt: skip
    [tool] = diff.tools
    assert tool.status is ToolStatus.RENAMED and tool.old_name == "query_invoices"
    assert tool.rename_score is not None and tool.rename_score < 0.6
    assert diff.renames[0].source == "confirmed"


def test_confirmed_rename_must_name_removed_and_added_tools() -> None:
    with pytest.raises(ValueError, match="not removed in A"):
        diff_registries(
            reg(invoices()), reg(invoices()), confirmed_renames={"query_invoices": "x"},
            lint_profile=None,
        )  # fmt: skip


# ---------------------------------------------------------------------- semver


def test_semver_levels() -> None:
    base = reg(invoices())
    tool = invoices()
    assert diff_registries(base, base, lint_profile=None).semver.level == "patch"
    meta = diff_registries(base, reg(replace(tool, title="Invoices")), lint_profile=None)
    assert (meta.semver.level, meta.semver.reasons) == ("patch", ("tool.title-changed",))
    added = diff_registries(base, reg(tool, delete_user()), lint_profile=None)
    assert (added.semver.level, added.semver.reasons) == ("minor", ("tool.added",))
    edited = diff_registries(base, reg(replace(tool, usage="Use for invoices.")), lint_profile=None)
    assert (edited.semver.level, edited.semver.reasons) == ("minor", ("desc.usage-changed",))
    params = dict(tool.parameters, required=["start_date"])
    broken = diff_registries(
        base, reg(replace(tool, parameters=params, title="x")), lint_profile=None
    )
    assert broken.semver.level == "major"
    assert broken.semver.reasons == ("schema.optional-to-required",)
    assert broken.counts[ChangeClass.BREAKING] == 1
    assert broken.counts[ChangeClass.METADATA] == 1


def test_next_semver() -> None:
    assert next_semver(None, "minor") == "1.0.0"
    assert next_semver("1.4.2", "major") == "2.0.0"
    assert next_semver("1.4.2", "minor") == "1.5.0"
    assert next_semver("1.4.2", "patch") == "1.4.3"
    assert next_semver("2.0.0-rc.1", "major") == "2.0.0"
    with pytest.raises(ValueError):
        next_semver("one", "patch")
    assert suggest_semver([]).level == "patch"


def test_registry_level_changes() -> None:
    a = reg(invoices(), delete_user())
    template = "{summary}\n\n{usage}"
    b = Registry(
        name="r", title="New", tools=(delete_user(), invoices()),
        settings=RegistrySettings(description_template=template),
    )  # fmt: skip
    diff = diff_registries(a, b, lint_profile=None)
    found = {c.rule_id: c.klass for c in diff.registry_changes}
    assert found == {
        "registry.title-changed": ChangeClass.METADATA,
        "registry.template-changed": ChangeClass.BEHAVIOURAL,
        "registry.tools-reordered": ChangeClass.METADATA,
    }


# ---------------------------------------------------------------------- deltas


def test_lint_delta_after_fixing_one_flaw(examples: dict[str, Registry]) -> None:
    a = examples["order-service"]
    get_order = a.tool("get_order")
    assert get_order is not None
    fixed_tool = replace(
        get_order, parameters={**get_order.parameters, "additionalProperties": False}
    )
    b = replace(a, tools=tuple(fixed_tool if t.name == "get_order" else t for t in a.tools))
    diff = diff_registries(a, b, a_label="v1", b_label="draft")
    delta = diff.lint_delta
    assert delta is not None and delta.profile == "openai"
    assert [(i.rule_id, i.tool, i.path) for i in delta.fixed] == [
        ("schema-additional-properties", "get_order", "parameters")
    ]
    assert delta.added == ()
    assert delta.count_after == delta.count_before - 1
    # The fix is itself a breaking change: unknown keys are rejected now.
    assert diff.tool("get_order").changes[0].rule_id == "schema.additional-properties-restricted"
    assert diff.semver.level == "major"


def test_lint_delta_follows_renames_and_skips_removed_tools(examples) -> None:
    a = examples["order-service"]
    tools = [
        replace(t, name="query_order_list") if t.name == "queryOrderList" else t for t in a.tools
    ]
    b = replace(a, tools=tuple(t for t in tools if t.name != "check_stock"))
    delta = diff_registries(a, b).lint_delta
    assert delta is not None
    assert ("name-casing-mixed", "query_order_list") in [(i.rule_id, i.tool) for i in delta.fixed]
    assert all(i.tool != "check_stock" for i in delta.fixed)
    assert {i.tool for i in delta.gone} == {"check_stock"}


def test_token_delta(examples: dict[str, Registry]) -> None:
    a = examples["order-service"]
    b = replace(a, tools=a.tools[1:])
    td = diff_registries(a, b, lint_profile=None).token_delta
    removed = a.tools[0].name
    before, after = td.per_tool[removed]
    assert before > 0 and after == 0
    assert td.total_after == td.total_before - before
    assert td.method == "estimate"  # linting skipped and no token profile: the estimate


def test_token_delta_counts_for_the_lint_profile(
    exact_tokens: None, examples: dict[str, Registry]
) -> None:
    from studio.lint.rules.cost import tool_tokens

    a = examples["order-service"]
    b = replace(a, tools=a.tools[1:])
    exact = diff_registries(a, b).token_delta  # lint_profile defaults to openai
    assert exact.method == "o200k_base"
    removed = a.tools[0]
    assert exact.per_tool[removed.name] == (tool_tokens(removed, a.settings, "openai"), 0)
    assert diff_registries(a, b, lint_profile="anthropic").token_delta.method == "estimate"
    chosen = diff_registries(a, b, lint_profile=None, token_profile="openai").token_delta
    assert chosen == exact
    doc = to_json(diff_registries(a, b))
    assert doc["token_delta"]["method"] == "o200k_base"
    assert "## Tokens (o200k_base): " in to_markdown(diff_registries(a, b))


def test_token_delta_without_a_tokenizer_is_estimated(
    estimated_tokens: None, examples: dict[str, Registry]
) -> None:
    a = examples["order-service"]
    b = replace(a, tools=a.tools[1:])
    assert diff_registries(a, b).token_delta.method == "estimate"


# ---------------------------------------------------------------------- rendering


def _sample_diff():
    a = reg(invoices(), delete_user())
    tool = invoices()
    props = dict(tool.parameters["properties"])
    props["status"] = {"type": "string", "enum": ["open"]}
    b = reg(
        replace(
            tool,
            summary="列出员工的发票 | newest first",
            parameters={**tool.parameters, "properties": props},
        )
    )
    return diff_registries(a, b, a_label="v1", b_label="draft")


def test_markdown_is_readable(estimated_tokens: None) -> None:
    md = to_markdown(_sample_diff())
    assert md.startswith("# `r`: v1 → draft\n")
    assert "**Suggested bump: major**" in md
    assert "## Changes: 2 breaking · 1 behavioural · 0 compatible · 0 metadata" in md
    assert "| Breaking | Behavioural | Compatible | Metadata |" in md
    assert "### `query_invoices` — changed, breaking" in md
    assert "### `delete_user` — removed, breaking" in md
    assert "| breaking | `schema.enum-value-removed` | `parameters.properties.status.enum` |" in md
    assert "<ins>" in md and "<del>" in md
    assert "\\|" in md  # a pipe in a cell does not break the table
    assert "## Lint (openai):" in md and "## Tokens (estimate):" in md


def test_text_and_json() -> None:
    diff = _sample_diff()
    text = to_text(diff)
    assert "suggested bump: major (schema.enum-value-removed, tool.removed)" in text
    assert "changes: 2 breaking, 1 behavioural, 0 compatible, 0 metadata" in text
    assert "{+" in text and "[-" in text
    doc = json.loads(json.dumps(to_json(diff), ensure_ascii=False))
    assert doc["format"] == "tool-registry-studio/diff@1"
    assert doc["counts"] == {"breaking": 2, "behavioural": 1, "compatible": 0, "metadata": 0}
    assert doc["semver"]["level"] == "major"
    tool = doc["tools"][0]
    assert tool["status"] == "changed" and tool["worst"] == "breaking"
    assert {c["rule_id"] for c in tool["changes"]} == {
        "schema.enum-value-removed",
        "desc.summary-changed",
    }
    assert tool["blocks"][0]["ops"]
    assert doc["lint_delta"]["profile"] == "openai"
    assert doc["token_delta"]["per_tool"]["delete_user"]["after"] == 0


def test_reaches() -> None:
    diff = _sample_diff()
    assert diff.reaches(ChangeClass.BREAKING) and diff.reaches(ChangeClass.BEHAVIOURAL)
    same = diff_registries(reg(invoices()), reg(invoices()), lint_profile=None)
    assert not same.reaches(ChangeClass.METADATA)


# ---------------------------------------------------------------------- properties

_keys = st.sampled_from(["id", "name", "status", "amount", "items", "start_date", "note"])
_leaf = st.fixed_dictionaries(
    {"type": st.sampled_from(["string", "integer", "number", "boolean"])},
    optional={
        "description": st.text(max_size=20),
        "enum": st.lists(st.sampled_from(["a", "b", "c"]), min_size=1, max_size=3, unique=True),
        "minimum": st.integers(0, 10),
        "maxLength": st.integers(1, 10),
    },
)


def _object(children: st.SearchStrategy) -> st.SearchStrategy:
    return st.builds(
        lambda props, req, closed: {
            "type": "object",
            "properties": props,
            **({"required": sorted(set(req) & set(props))} if req else {}),
            **({"additionalProperties": False} if closed else {}),
        },
        st.dictionaries(_keys, children, max_size=4),
        st.lists(_keys, max_size=3),
        st.booleans(),
    )


_schema = st.recursive(
    _leaf,
    lambda inner: st.one_of(
        _object(inner), st.builds(lambda s: {"type": "array", "items": s}, inner)
    ),
    max_leaves=8,
)
_tool = st.builds(
    lambda name, summary, params: ToolContract(name=name, summary=summary, parameters=params),
    st.sampled_from(["get_order", "list_orders", "create_refund", "search_users"]),
    st.text(max_size=30),
    _object(_schema),
)
_registry = st.lists(_tool, max_size=4, unique_by=lambda t: t.name).map(
    lambda tools: Registry(name="r", tools=tuple(tools))
)


def _shuffled(value: Any, rng: random.Random) -> Any:
    """The same JSON value with every object's keys in another order."""
    if isinstance(value, dict):
        keys = list(value)
        rng.shuffle(keys)
        return {k: _shuffled(value[k], rng) for k in keys}
    if isinstance(value, list):
        return [_shuffled(v, rng) for v in value]
    return value


def _reorder(registry: Registry, seed: int) -> Registry:
    rng = random.Random(seed)
    tools = tuple(replace(t, parameters=_shuffled(t.parameters, rng)) for t in registry.tools)
    return replace(registry, tools=tools)


@settings(max_examples=60, deadline=None)
@given(_registry)
def test_diff_with_itself_is_empty_and_patch(registry: Registry) -> None:
    diff = diff_registries(registry, registry, lint_profile=None)
    assert diff.changes == ()
    assert all(t.status is ToolStatus.UNCHANGED for t in diff.tools)
    assert diff.semver.level == "patch" and diff.semver.reasons == ()
    assert diff.token_delta.total_delta == 0


@settings(max_examples=60, deadline=None)
@given(_registry, _registry, st.integers(0, 2**16))
def test_diff_is_stable_under_key_order(a: Registry, b: Registry, seed: int) -> None:
    reference = to_json(diff_registries(a, b, lint_profile=None))
    again = to_json(diff_registries(_reorder(a, seed), _reorder(b, seed + 1), lint_profile=None))
    assert again == reference
    assert diff_registries(a, _reorder(a, seed), lint_profile=None).changes == ()
