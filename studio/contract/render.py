"""Rendering the description a model sees from a tool's description blocks."""

from __future__ import annotations

import json
import string

from studio.contract.model import DEFAULT_DESCRIPTION_TEMPLATE, ToolContract

PLACEHOLDERS = (
    "name",
    "title",
    "summary",
    "usage",
    "preconditions",
    "returns",
    "errors",
    "examples",
    "description",
)

_FORMATTER = string.Formatter()


def template_problems(template: str) -> list[str]:
    """What is wrong with a description template (empty when usable)."""
    try:
        fields = [f for _, f, _, _ in _FORMATTER.parse(template) if f is not None]
    except ValueError as exc:
        return [f"template is malformed: {exc} (write '{{{{' for a literal brace)"]
    unknown = sorted({f for f in fields if f not in PLACEHOLDERS})
    if unknown:
        known = ", ".join("{" + p + "}" for p in PLACEHOLDERS)
        return [f"unknown placeholder {{{unknown[0]}}}; known: {known}"]
    return []


def block_values(tool: ToolContract) -> dict[str, str]:
    """The text each placeholder renders to for ``tool``."""
    errors = "\n".join(
        f"- {e.code}: {e.meaning}"
        + (" (retryable)" if e.retryable else "")
        + (f" {e.hint}" if e.hint else "")
        for e in tool.errors
    )
    examples = "\n".join(
        f"- {e.description}: {json.dumps(e.arguments, ensure_ascii=False, sort_keys=True)}"
        if e.description
        else f"- {json.dumps(e.arguments, ensure_ascii=False, sort_keys=True)}"
        for e in tool.examples
    )
    return {
        "name": tool.name,
        "title": tool.title,
        "summary": tool.summary,
        "usage": tool.usage,
        "preconditions": tool.preconditions,
        "returns": tool.returns,
        "errors": errors,
        "examples": examples,
        # Free text stands in only when the author wrote no blocks.
        "description": "" if tool.has_blocks() else tool.description,
    }


def render_description(tool: ToolContract, template: str = DEFAULT_DESCRIPTION_TEMPLATE) -> str:
    """The description text a model sees.

    Each paragraph of the template (separated by blank lines) is rendered; a
    paragraph whose placeholders are all empty is dropped, and so is one with
    no placeholders at all only when it would stand alone. A broken template
    falls back to the default one rather than failing an export.

    Args:
        tool: The tool to describe.
        template: The registry's template (``str.format`` placeholders).

    Return:
        The rendered text, stripped.
    """
    if template_problems(template):
        template = DEFAULT_DESCRIPTION_TEMPLATE
    values = block_values(tool)
    out = []
    for paragraph in template.split("\n\n"):
        fields = [f for _, f, _, _ in _FORMATTER.parse(paragraph) if f is not None]
        if fields and not any(values[f] for f in fields):
            continue
        text = paragraph.format_map(values).strip()
        if text:
            out.append(text)
    return "\n\n".join(out)
