"""Provider tool fields (issue #17): what a provider option asks that the tool cannot give.

Three checks, each on an option of :class:`studio.contract.provider_options.ProviderOptions`:

- an OpenAI namespace grouping so many functions that the model's tool search
  within it is no better than a flat list;
- a deferred tool (``defer_loading``) that the provider's search would not find
  for its own use cases — measured as the evals' discoverability does
  (:class:`studio.evals.discover.ToolSearch`, BM25 over name and description);
- ``strict: true`` on a parameter schema strict mode cannot express: the strict
  form (:func:`studio.formats.openai.to_openai_strict`) loses something, or the
  schema uses keywords strict mode rejects.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from studio.contract.model import Registry, ToolContract
from studio.lint.model import Hit, LintContext, Severity, registry_rule, tool_rule
from studio.lint.rules._common import model_parameters, option_int, sentences, text

CATEGORY = "provider"

STRICT_UNSUPPORTED = (
    "allOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "dependentRequired",
    "dependentSchemas",
    "patternProperties",
    "unevaluatedProperties",
    "propertyNames",
)
"""Keywords OpenAI's strict mode (Structured Outputs' supported subset) rejects."""


@registry_rule(
    "provider-namespace-too-large",
    category=CATEGORY,
    severity=Severity.WARNING,
    rationale="""An OpenAI namespace groups deferred functions so tool search can load the
    group a task needs. A namespace of more than about ten functions (option
    provider.max_namespace_tools, default 10) is loaded whole and costs what a flat list
    costs, and the model picks among many neighbours again: split it by task.""",
)
def check_namespace_size(registry: Registry, ctx: LintContext) -> Iterator[Hit]:
    limit = option_int(ctx, "provider.max_namespace_tools", 10)
    groups: dict[str, list[str]] = {}
    for tool in registry.tools:
        space = getattr(tool.provider, "namespace", "")
        if isinstance(space, str) and space:
            groups.setdefault(space, []).append(text(tool.name))
    for space, names in groups.items():
        if len(names) > limit:
            yield Hit(
                names[0],
                "provider.namespace",
                f"Namespace {space!r} groups {len(names)} functions, more than {limit}; "
                "split it by task so tool search loads a small group.",
                related=tuple(names[1:11]),
            )


def use_cases(tool: ToolContract) -> list[str]:
    """What the tool is for, as a user would ask: example descriptions, else usage sentences."""
    cases = [text(e.description) for e in tool.examples if text(e.description).strip()]
    return cases or [s for s in sentences(text(tool.usage)) if s.strip()]


@registry_rule(
    "provider-deferred-not-found",
    category=CATEGORY,
    severity=Severity.WARNING,
    rationale="""A deferred tool (defer_loading) is not in the model's context until tool
    search finds it, and the providers search by BM25 over names and descriptions. A tool
    that a search for its own use cases (its examples' descriptions, else its usage
    sentences) does not rank in the top k (option provider.search_k, default 5) among the
    deferred tools will not be loaded when it is needed. The same measure as the evals'
    discoverability; add the words users say to the summary or usage.""",
)
def check_deferred_found(registry: Registry, ctx: LintContext) -> Iterator[Hit]:
    deferred = [t for t in registry.tools if getattr(t.provider, "defer_loading", False) is True]
    if not deferred:
        return
    import dataclasses

    from studio.evals.discover import ToolSearch  # bm25s: only when something is deferred

    k = option_int(ctx, "provider.search_k", 5)
    search = ToolSearch(dataclasses.replace(registry, tools=tuple(deferred)))
    for tool in deferred:
        cases = use_cases(tool)
        missed = []
        for case in cases:
            rank, top = search.rank(case, tool.name)
            if rank is None or rank > k:
                missed.append((case, top))
        if not missed:
            continue
        case, top = missed[0]
        shown = case if len(case) <= 60 else case[:57] + "…"
        found = ", ".join(top[:3]) or "nothing"
        yield Hit(
            text(tool.name),
            "provider.defer_loading",
            f"Deferred, but a search for {len(missed)} of its {len(cases)} use cases does not "
            f"rank it in the top {k} (e.g. {shown!r} finds {found}); say what users ask for "
            "in its summary or usage.",
            related=tuple(t for t in top[:3] if t != tool.name),
        )


@tool_rule(
    "provider-strict-inexpressible",
    category=CATEGORY,
    severity=Severity.WARNING,
    rationale="""strict: true makes OpenAI (and Anthropic) constrain arguments to the schema,
    but only to the subset strict mode supports: every object closed
    (additionalProperties false), every property required (optional ones become
    nullable), and no allOf, oneOf, not, if/then/else, patternProperties,
    propertyNames or dependent keywords. A schema outside that subset is either
    rejected by the provider or sent changed (an open map closed), so the model is
    constrained to something other than the contract.""",
)
def check_strict(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    if getattr(tool.provider, "strict", None) is not True:
        return
    schema = model_parameters(tool)
    if not isinstance(schema, dict) or schema.get("type") != "object":
        yield Hit(
            text(tool.name),
            "provider.strict",
            "strict is set, but the parameters are not an object schema; strict mode "
            "cannot express them.",
        )
        return
    from studio.formats.base import FormatError
    from studio.formats.openai import to_openai_strict

    try:
        _strict, notes = to_openai_strict(schema)
    except FormatError as exc:
        yield Hit(text(tool.name), "provider.strict", f"strict mode cannot express this: {exc}")
        return
    lost = [n for n in notes if n.kind == "lost"]
    for note in lost[:3]:
        where = f"parameters.{note.path}" if note.path else "parameters"
        yield Hit(
            text(tool.name),
            where,
            f"strict is set, but strict mode cannot express this schema here: {note.message}; "
            "turn strict off or close the object.",
        )
    for path, keyword in _unsupported(schema, "parameters"):
        yield Hit(
            text(tool.name),
            path,
            f"strict is set, but strict mode does not support {keyword!r}; "
            "turn strict off or rewrite the schema without it.",
        )


def _unsupported(node: Any, path: str) -> Iterator[tuple[str, str]]:
    """(path, keyword) of every keyword strict mode rejects, depth-first."""
    if isinstance(node, list):
        for i, item in enumerate(node):
            yield from _unsupported(item, f"{path}[{i}]")
        return
    if not isinstance(node, dict):
        return
    for key, value in node.items():
        if key in STRICT_UNSUPPORTED:
            yield path, key
        if key in ("properties", "$defs", "definitions") and isinstance(value, dict):
            for name, sub in value.items():
                yield from _unsupported(sub, f"{path}.{key}.{name}")
        elif isinstance(value, dict | list) and key not in ("enum", "const", "examples", "default"):
            yield from _unsupported(value, f"{path}.{key}")
