"""Cost: what the tool definitions cost in tokens, every round of every task.

Counts come from :mod:`studio.contract.token_count`: for the ``openai`` and
``openai-strict`` profiles the ``o200k_base`` tokens of the definition as the
studio exports it, when the optional ``bpe-openai`` package is installed;
otherwise (other profiles, or no tokenizer) the offline estimate. Every message
says which: "≈ N tokens (estimate)" or "N tokens (o200k_base)".
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from typing import Any

from studio.contract.model import Registry, RegistrySettings, ToolContract
from studio.contract.problems import join_path
from studio.contract.token_count import (
    ESTIMATE,
    Counter,
    cached_token_counter,
    count_all,
    format_count,
)
from studio.lint.cache import memo_slots
from studio.lint.model import Hit, LintContext, Severity, registry_rule, tool_rule
from studio.lint.rules._common import (
    description_of,
    known_parameters_json,
    memo,
    model_parameters,
    option_int,
    params_of,
    rendered,
    sentences,
    text,
    visible_properties,
)
from studio.lint.text import ascii_words, token_count

CATEGORY = "cost"

PER_TOOL_OVERHEAD = 8
"""Tokens a provider's wrapper adds per tool ({"type": "function", "function": {…}}):
a fixed allowance, added to exact counts too (providers render definitions in
their own internal format, so no offline count of the wrapper is exact)."""

DEFAULT_ROUNDS = 5


def model_schema(tool: ToolContract) -> dict[str, Any]:
    """The parameters as a model sees them: x- keys and injected properties (any depth) removed."""
    out: dict[str, Any] = model_parameters(tool)
    return out


def tool_tokens(
    tool: ToolContract, settings: RegistrySettings | None = None, profile: str | None = None
) -> int:
    """Tokens one tool definition costs per request (name, description, schema).

    The count is the tokens of the name, of the rendered description and of the
    parameter schema as the model receives it (compact JSON, ``x-`` keys and
    injected properties removed), plus :data:`PER_TOOL_OVERHEAD` for the
    wrapper. Cached per tool object, method and description template.

    Args:
        tool: The tool.
        settings: The registry settings (for the description template).
        profile: The target (a lint profile); it selects the method, see
            :func:`studio.contract.token_count.token_method`. None: the estimate.
            Exact counts come from the disk cache when stored there.

    Return:
        The count, exact for the parts when the method is an encoding
        (``o200k_base``), else the offline estimate.
    """
    count, method = cached_token_counter(profile)
    template = settings.description_template if settings is not None else None
    return memo(tool, ("tokens", method, template), lambda: _count_tokens(tool, settings, count))


def count_tool_tokens(
    tools: Iterable[ToolContract], settings: RegistrySettings, profile: str | None
) -> None:
    """:func:`tool_tokens` of many tools at once, kept in its per-tool cache.

    The same counts; the stored ones are read from the disk cache in a few
    queries (:func:`~studio.contract.token_count.count_all`) instead of three
    per tool. A tool whose texts cannot be built is left to :func:`tool_tokens`,
    which then fails on it as it always did.
    """
    _count, method = cached_token_counter(profile)
    key = ("tokens", method, settings.description_template)
    todo: list[ToolContract] = []
    texts: list[str] = []
    for tool in tools:
        if key in memo_slots(tool):
            continue
        try:
            schema = _model_schema_json(tool)
            parts = (text(tool.name), rendered(tool, settings), schema)
        except Exception:  # tool_tokens reports it, as before
            continue
        todo.append(tool)
        texts.extend(parts)
    counts, _method = count_all(profile, texts)
    for i, tool in enumerate(todo):
        memo_slots(tool)[key] = PER_TOOL_OVERHEAD + sum(counts[3 * i : 3 * i + 3])


def _model_schema_json(tool: ToolContract) -> str:
    """``model_schema(tool)`` as compact JSON (``str(parameters)`` when it is not JSON)."""
    try:
        raw = json.dumps(params_of(tool), ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError):
        raw = None
    if raw is not None:
        # Most schemas have nothing to strip: a key starting with "x-" shows in the
        # JSON as '"x-' (so does a string value holding one, which only costs the
        # slow path below). Without one there is no injected property either.
        known_parameters_json(tool, raw)
        if '"x-' not in raw:
            return raw
    try:
        return json.dumps(model_schema(tool), ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError):
        return str(tool.parameters)


def _count_tokens(tool: ToolContract, settings: RegistrySettings | None, count: Counter) -> int:
    schema = _model_schema_json(tool)
    return (
        PER_TOOL_OVERHEAD + count(text(tool.name)) + count(rendered(tool, settings)) + count(schema)
    )


def registry_token_summary(
    registry: Registry, rounds: int = DEFAULT_ROUNDS, profile: str | None = None
) -> dict[str, Any]:
    """Token budget of a registry: per tool, in total, and per task of ``rounds`` rounds.

    Args:
        registry: The registry.
        rounds: Model rounds per task.
        profile: The target; it selects the counting method (None: the estimate).

    Return:
        ``{"method": m, "estimate": m == "estimate", "tools": n, "per_tool":
        {name: tokens}, "total": t, "average": t / n, "rounds": rounds,
        "per_task": t * rounds}``. Every round of an agent loop sends all
        definitions again, so a task of ``rounds`` model calls costs
        ``tools × average × rounds``.
    """
    rounds = rounds if isinstance(rounds, int) and rounds > 0 else DEFAULT_ROUNDS
    _count, method = cached_token_counter(profile)
    per_tool = {text(t.name): tool_tokens(t, registry.settings, profile) for t in registry.tools}
    total = sum(per_tool.values())
    count = len(registry.tools)
    return {
        "method": method,
        "estimate": method == ESTIMATE,
        "tools": count,
        "per_tool": per_tool,
        "total": total,
        "average": total / count if count else 0.0,
        "rounds": rounds,
        "per_task": total * rounds,
    }


@tool_rule(
    "cost-tool-tokens",
    category=CATEGORY,
    severity=Severity.INFO,
    rationale="""Every tool definition is sent with every model request, in every round of
    the agent loop. A definition above the budget (default 600 tokens, option
    cost.max_tool_tokens) costs latency and money on every call and crowds the context.
    For the openai profiles, with the optional bpe-openai package installed, the count is
    the o200k_base tokens of the definition as the studio exports it (name, rendered
    description, parameter schema) plus a fixed allowance for the wrapper; the provider
    renders definitions in its own internal format, so its bill differs somewhat.
    Otherwise the count is an offline estimate, and the message says so.""",
)
def check_tool_tokens(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    limit = option_int(ctx, "cost.max_tool_tokens", 600)
    _count, method = cached_token_counter(ctx.profile)
    tokens = tool_tokens(tool, ctx.settings, ctx.profile)
    if tokens > limit:
        yield Hit(
            text(tool.name),
            "",
            f"The definition costs {format_count(tokens, method)}, over the {limit}-token "
            "budget; shorten the description or split the tool.",
        )


@registry_rule(
    "cost-registry-tokens",
    category=CATEGORY,
    severity=Severity.INFO,
    rationale="""All definitions are sent again in every round, so a task of R model calls
    pays tools × average tokens × R. Above the budgets (options cost.max_registry_tokens,
    default 10000 per request, and cost.max_task_tokens, default 50000 per task of
    cost.rounds rounds, default 5) consider fewer tools per agent or shorter descriptions.
    Counts are o200k_base tokens of the exported definitions for the openai profiles when
    the optional bpe-openai package is installed, else offline estimates.""",
)
def check_registry_tokens(registry: Registry, ctx: LintContext) -> Iterator[Hit]:
    rounds = option_int(ctx, "cost.rounds", DEFAULT_ROUNDS)
    per_request = option_int(ctx, "cost.max_registry_tokens", 10000)
    per_task_limit = option_int(ctx, "cost.max_task_tokens", 50000)
    summary = registry_token_summary(registry, rounds, ctx.profile)
    if summary["total"] <= per_request and summary["per_task"] <= per_task_limit:
        return
    method = summary["method"]
    approx = "≈ " if method == ESTIMATE else ""
    yield Hit(
        None,
        "",
        f"The {summary['tools']} tool definitions cost {format_count(summary['total'], method)} "
        f"per request and {approx}{summary['per_task']} per task of {rounds} rounds; send fewer "
        "tools per agent or shorten the descriptions.",
    )


def audience_token_summary(
    registry: Registry, rounds: int = DEFAULT_ROUNDS, profile: str | None = None
) -> list[dict[str, Any]]:
    """The C = N·t̄·R of a task for each audience the permissions name (issue #17).

    An agent sent only its audience's tools (``studio resolve --role --scenario``)
    pays for N of them, not all: per (role, scenario) of
    :func:`studio.contract.audience.audiences`, ``{"role", "scenario", "tools": N,
    "total": N·t̄, "average": t̄, "rounds": R, "per_task": N·t̄·R}`` with the
    same counting method as :func:`registry_token_summary`.
    """
    from studio.contract.audience import audiences, for_audience

    rounds = rounds if isinstance(rounds, int) and rounds > 0 else DEFAULT_ROUNDS
    out = []
    for audience in audiences(registry):
        tools = for_audience(registry, audience).tools
        total = sum(tool_tokens(t, registry.settings, profile) for t in tools)
        out.append({
            "role": audience.role,
            "scenario": audience.scenario,
            "tools": len(tools),
            "total": total,
            "average": total / len(tools) if tools else 0.0,
            "rounds": rounds,
            "per_task": total * rounds,
        })  # fmt: skip
    return out


@registry_rule(
    "cost-audience-tokens",
    category=CATEGORY,
    severity=Severity.INFO,
    rationale="""Tools carry permissions (role × scenario). An agent serving one audience
    can be sent only the tools it may call (studio resolve --role R --scenario S, the
    resolve endpoint's ?role=&scenario=, MCP serving with --role/--scenario), so its task
    costs C = N·t̄·R for its own N tools, not for all of them. Reported once per audience
    the permissions name, with the whole registry's cost beside it, so the saving of a
    permission-scoped tool set is visible (rounds: option cost.rounds, default 5).""",
)
def check_audience_tokens(registry: Registry, ctx: LintContext) -> Iterator[Hit]:
    rounds = option_int(ctx, "cost.rounds", DEFAULT_ROUNDS)
    per_audience = audience_token_summary(registry, rounds, ctx.profile)
    if not per_audience:
        return
    whole = registry_token_summary(registry, rounds, ctx.profile)
    method = whole["method"]
    approx = "≈ " if method == ESTIMATE else ""
    for a in per_audience:
        role = a["role"] or "(any role)"
        scenario = a["scenario"] or "(any scenario)"
        yield Hit(
            None,
            "",
            f"For role {role!r} in scenario {scenario!r}: {a['tools']} of {whole['tools']} "
            f"tools, {format_count(a['total'], method)} per request; C = {a['tools']} × "
            f"{approx}{a['average']:.0f} × {rounds} = {approx}{a['per_task']} per task "
            f"(all tools: {approx}{whole['per_task']}).",
        )


_WORD = re.compile(r"\w+")


def _normalise(sentence: str) -> str:
    return " ".join(_WORD.findall(sentence.casefold()))


def _tool_sentences(tool: ToolContract) -> Iterator[tuple[str, str]]:
    """(path, sentence) for every sentence a model sees in the tool's text."""
    fields = (
        ("summary", "usage", "preconditions", "returns") if tool.has_blocks() else ("description",)
    )
    for field in fields:
        for s in sentences(text(getattr(tool, field, ""))):
            yield field, s
    for i, err in enumerate(tool.errors or ()):
        for key in ("meaning", "hint"):
            for s in sentences(text(getattr(err, key, ""))):
                yield join_path("errors", i, key), s
    for ref in visible_properties(tool):
        for s in sentences(description_of(ref.schema)):
            yield ref.at("description"), s


@registry_rule(
    "cost-repeated-boilerplate",
    category=CATEGORY,
    severity=Severity.INFO,
    rationale="""The same sentence repeated across many tools (a disclaimer, a house rule)
    is paid for once per tool in every request and tells the model nothing that tells the
    tools apart. Say it once in the system prompt, or drop it. Reported when a sentence of
    at least 6 words appears in at least 3 tools (options cost.boilerplate_min_words,
    cost.boilerplate_min_tools).""",
)
def check_boilerplate(registry: Registry, ctx: LintContext) -> Iterator[Hit]:
    min_words = option_int(ctx, "cost.boilerplate_min_words", 6)
    min_tools = option_int(ctx, "cost.boilerplate_min_tools", 3)
    count, method = cached_token_counter(ctx.profile)
    seen: dict[str, dict[str, str]] = {}  # normalised sentence → tool → first path
    originals: dict[str, str] = {}
    for tool in registry.tools:
        name = text(tool.name)
        for path, sentence, words, key in _boilerplate_sentences(tool):
            if words < min_words:
                continue
            originals.setdefault(key, sentence)
            seen.setdefault(key, {}).setdefault(name, path)
    for key, tools in seen.items():
        if len(tools) < min_tools:
            continue
        # Names are distinct, so the first 10 others are among the first 11 names
        # (a sentence shared by hundreds of tools must not cost quadratic time).
        head = list(tools)[:11]
        sample = originals[key]
        shown = sample if len(sample) <= 60 else sample[:57] + "…"
        message = (
            f"The sentence {shown!r} is repeated in {len(tools)} tools and costs "
            f"{format_count(count(sample), method)} in each; say it once or drop it."
        )
        for name, path in tools.items():
            others = tuple(n for n in head if n != name)[:10]
            yield Hit(name, path, message, related=others)


def _boilerplate_sentences(tool: ToolContract) -> tuple[tuple[str, str, int, str], ...]:
    """(path, sentence, word count, normalised key) of every sentence, once per tool object.

    The registry rule re-runs on every edit; only the edited tool is tokenized again.
    """
    return memo(
        tool,
        "boilerplate-sentences",
        lambda: tuple(_sentence_entry(path, s) for path, s in _tool_sentences(tool)),
    )


def _sentence_entry(path: str, sentence: str) -> tuple[str, str, int, str]:
    if sentence.isascii() and "_" not in sentence and "'" not in sentence:
        # Here \w+ and the tokenizer's words are the same runs of letters and digits.
        words = ascii_words(sentence.lower())
        return path, sentence, len(words), " ".join(words)
    return path, sentence, token_count(sentence), _normalise(sentence)
