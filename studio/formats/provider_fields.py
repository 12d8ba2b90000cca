"""The 2026 provider tool fields on export and import (issue #17 part 3).

:mod:`studio.contract.provider_options` says which option each provider
carries. Here the exporters get the fields to add to one tool entry, the notes
for what a format drops, and the importers read them back, so every field
round-trips through the format that can express it.

``input_examples`` are the contract's example calls as the model would send
them: injected fields removed (the model never sees them), each checked
against the schema the model sees; an example that fails is not sent, with a
note naming the example and the reason.
"""

from __future__ import annotations

from typing import Any

from studio.contract import ToolContract, join_path
from studio.contract.provider_options import (
    ANTHROPIC_CODE_CALLERS,
    CALLER_DIRECT,
    CALLER_PROGRAMMATIC,
    ProviderOptions,
    callers_for,
)
from studio.formats.base import Note, kind_of
from studio.formats.provider import ToolCollector

#: Option → the formats that carry it (export labels as in notes).
ANTHROPIC_KEEPS = frozenset(
    {"strict", "defer_loading", "input_examples", "allowed_callers", "eager_input_streaming"}
)
RESPONSES_KEEPS = frozenset({"strict", "defer_loading", "allowed_callers", "namespace"})
CHAT_KEEPS = frozenset({"strict"})
NONE_KEPT: frozenset[str] = frozenset()

_LABELS = {
    "strict": "strict mode",
    "defer_loading": "deferred loading",
    "input_examples": "input examples",
    "allowed_callers": "allowed callers",
    "namespace": "namespace",
    "eager_input_streaming": "eager input streaming",
}


def set_options(options: ProviderOptions) -> list[str]:
    """The options that differ from the default, in a fixed order."""
    default = ProviderOptions()
    return [key for key in _LABELS if getattr(options, key) != getattr(default, key)]


def dropped_note(tool: ToolContract, path: str, fmt: str, kept: frozenset[str]) -> list[Note]:
    """One note listing the provider options ``fmt`` cannot carry, if any are set."""
    lost = [_LABELS[key] for key in set_options(tool.provider) if key not in kept]
    if not lost:
        return []
    return [Note(path, f"{fmt} cannot express: {', '.join(lost)}", "lost")]


def example_arguments(
    tool: ToolContract, schema: dict[str, Any], path: str
) -> tuple[list, list[Note]]:
    """The contract's example calls valid against the model's ``schema``, and notes."""
    from jsonschema import Draft202012Validator  # a few ms; only when examples are sent

    injected = {f.path[0] for f in tool.injected_fields() if len(f.path) == 1}
    validator = Draft202012Validator(schema)
    out: list[dict[str, Any]] = []
    notes: list[Note] = []
    for i, example in enumerate(tool.examples):
        args = {k: v for k, v in example.arguments.items() if k not in injected}
        error = next(iter(sorted(validator.iter_errors(args), key=lambda e: list(e.path))), None)
        if error is not None:
            where = "/".join(str(p) for p in error.absolute_path) or "(root)"
            notes.append(
                Note(
                    join_path(path, "examples", i),
                    f"example not sent as an input example: {where}: {error.message}",
                    "lost",
                )
            )
            continue
        out.append(args)
    if tool.provider.input_examples and not tool.examples:
        notes.append(Note(path, "input examples asked for, but the tool has no examples", "info"))
    return out, notes


def anthropic_fields(
    tool: ToolContract, schema: dict[str, Any], path: str
) -> tuple[dict[str, Any], list[Note]]:
    """Fields to add to an Anthropic tool definition."""
    opts = tool.provider
    fields: dict[str, Any] = {}
    notes: list[Note] = []
    if opts.strict is not None:
        fields["strict"] = opts.strict
    if opts.defer_loading:
        fields["defer_loading"] = True
    if opts.allowed_callers:
        fields["allowed_callers"] = callers_for(opts.allowed_callers, "anthropic")
    if opts.eager_input_streaming is not None:
        fields["eager_input_streaming"] = opts.eager_input_streaming
    if opts.input_examples:
        examples, notes = example_arguments(tool, schema, path)
        if examples:
            fields["input_examples"] = examples
    return fields, notes + dropped_note(tool, path, "Anthropic tools", ANTHROPIC_KEEPS)


def openai_fields(tool: ToolContract, *, responses: bool) -> dict[str, Any]:
    """Fields to add to an OpenAI function (Responses: beside ``type``; Chat: in ``function``).

    ``strict`` itself (and the strict schema) is handled by the layout, since it
    changes ``parameters``; the namespace grouping by the registry export.
    """
    opts = tool.provider
    fields: dict[str, Any] = {}
    if responses and opts.defer_loading:
        fields["defer_loading"] = True
    if responses and opts.allowed_callers:
        fields["allowed_callers"] = callers_for(opts.allowed_callers, "openai")
    return fields


def read_options(
    entry: dict[str, Any], path: str, collector: ToolCollector, *, provider: str
) -> dict[str, Any] | None:
    """The ``provider`` document of a tool from an entry's provider fields (None when none).

    Wrong types are problems at their path; callers outside the provider's
    vocabulary are dropped with a note.
    """
    out: dict[str, Any] = {}
    for key in ("strict", "defer_loading", "eager_input_streaming"):
        if key not in entry or entry[key] is None:
            continue
        if not isinstance(entry[key], bool):
            collector.problem(
                join_path(path, key), f"must be true or false, not {kind_of(entry[key])}"
            )
        elif entry[key] or key != "defer_loading":
            out[key] = entry[key]
    if "input_examples" in entry:
        if isinstance(entry["input_examples"], list) and entry["input_examples"]:
            out["input_examples"] = True
            for i, example in enumerate(entry["input_examples"]):
                if not isinstance(example, dict):  # examples_from_input keeps objects only
                    collector.note(
                        join_path(path, "input_examples", i),
                        f"an input example is an object of arguments, not {kind_of(example)}; "
                        "dropped",
                        "lost",
                    )
        elif not isinstance(entry["input_examples"], list):
            collector.problem(
                join_path(path, "input_examples"),
                f"must be an array of objects, not {kind_of(entry['input_examples'])}",
            )
    callers = entry.get("allowed_callers")
    if callers is not None:
        known = (
            (CALLER_DIRECT, *ANTHROPIC_CODE_CALLERS)
            if provider == "anthropic"
            else (
                CALLER_DIRECT,
                CALLER_PROGRAMMATIC,
            )
        )
        if not isinstance(callers, list) or not all(isinstance(c, str) for c in callers):
            collector.problem(join_path(path, "allowed_callers"), "must be an array of strings")
        else:
            kept = [c for c in callers if c in known]
            if len(kept) < len(callers):
                unknown = ", ".join(_short(c) for c in callers if c not in known)
                collector.note(
                    join_path(path, "allowed_callers"),
                    f"unknown callers dropped: {unknown}",
                    "lost",
                )
            if kept:
                out["allowed_callers"] = kept
    return out or None


def _short(text: str, limit: int = 60) -> str:
    """``repr`` of a value from the file, cut to ``limit`` characters (a note is one line)."""
    shown = repr(text)
    return shown if len(shown) <= limit else f"{shown[: limit - 1]}…"


def examples_from_input(entry: dict[str, Any]) -> list[dict[str, Any]]:
    """Anthropic ``input_examples`` as contract examples (objects only)."""
    raw = entry.get("input_examples")
    if not isinstance(raw, list):
        return []
    return [{"description": "", "arguments": e} for e in raw if isinstance(e, dict)]
