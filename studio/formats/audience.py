"""A provider request's tools for one audience: filtered, or all of them with the choice restricted.

Two ways to keep an audience to its permitted tools (issue #17 part 2):

- ``filter`` — send only the permitted tools (fewest tokens, fewest wrong choices);
- ``choice`` — send every tool (so a prompt cache over the full list stays
  warm across audiences) and restrict what the model may choose:
  OpenAI's ``tool_choice`` ``allowed_tools`` (Chat Completions and Responses
  spell it differently) and Gemini's ``allowedFunctionNames``. Anthropic has
  no such option: its request is filtered, with a note.

Shapes follow the official SDKs' request types:
``openai.types.chat.ChatCompletionAllowedToolChoiceParam``,
``openai.types.responses.ToolChoiceAllowedParam`` and Gemini's
``FunctionCallingConfig`` (``allowedFunctionNames`` applies in modes ``ANY``
and ``VALIDATED``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from studio.contract.audience import Audience, for_audience
from studio.contract.document import provider_settings
from studio.contract.model import Registry
from studio.formats.base import FormatError, Note

MODES = ("filter", "choice")


@dataclass(frozen=True, slots=True)
class AudienceRequest:
    """The request fields for one audience.

    Attributes:
        fields: ``tools`` plus, in ``choice`` mode, the field that restricts the
            choice (``tool_choice`` or ``toolConfig``); Gemini's ``tools`` is
            the list of Tool objects a request holds.
        allowed: The permitted tool names, in registry order.
        sent: How many tools the request holds.
        notes: What could not be done as asked.
    """

    fields: dict[str, Any]
    allowed: tuple[str, ...]
    sent: int
    notes: tuple[Note, ...] = ()


def audience_request(
    registry: Registry, fmt: str, audience: Audience, mode: str = "filter"
) -> AudienceRequest:
    """The ``tools`` (and choice restriction) of a ``fmt`` request for ``audience``.

    Raises:
        FormatError: an unknown mode or a format that is not a provider request.
    """
    from studio.formats import export_registry  # the package imports this module's users

    if mode not in MODES:
        raise FormatError(f"unknown audience mode {mode!r}; use one of {', '.join(MODES)}")
    permitted = for_audience(registry, audience)
    allowed = tuple(t.name for t in permitted.tools)
    notes: list[Note] = []
    if mode == "choice" and fmt == "anthropic":
        notes.append(
            Note(
                "",
                "Anthropic has no allowed-tools choice; only the permitted tools are sent",
                "lost",
            )
        )
        mode = "filter"
    sent = permitted if mode == "filter" else registry
    tools = json.loads(export_registry(sent, fmt).text or "null")
    if fmt == "gemini":
        return _gemini(registry, tools, allowed, mode, len(sent.tools), notes)
    if fmt not in ("openai", "openai-responses", "anthropic"):
        raise FormatError(f"{fmt!r} is not a provider request format")
    fields: dict[str, Any] = {"tools": tools}
    if mode == "choice":
        fields["tool_choice"] = _openai_choice(allowed, responses=fmt == "openai-responses")
    return AudienceRequest(fields, allowed, len(sent.tools), tuple(notes))


def _openai_choice(allowed: tuple[str, ...], *, responses: bool) -> dict[str, Any]:
    tools: list[dict[str, Any]]
    if responses:
        tools = [{"type": "function", "name": name} for name in allowed]
        return {"type": "allowed_tools", "mode": "auto", "tools": tools}
    tools = [{"type": "function", "function": {"name": name}} for name in allowed]
    return {"type": "allowed_tools", "allowed_tools": {"mode": "auto", "tools": tools}}


def _gemini(
    registry: Registry,
    exported: Any,
    allowed: tuple[str, ...],
    mode: str,
    sent: int,
    notes: list[Note],
) -> AudienceRequest:
    # The export is a Tool object, or a request part when the registry sets a calling mode.
    if isinstance(exported, dict) and "tools" in exported:
        tools = exported["tools"]
        config = dict(exported.get("toolConfig", {}).get("functionCallingConfig", {}))
    else:
        tools = [exported]
        config = {}
    fields: dict[str, Any] = {"tools": tools}
    if mode == "choice":
        calling = provider_settings(registry.settings).gemini.mode
        if calling not in ("ANY", "VALIDATED"):
            # allowedFunctionNames is honoured only where calls are constrained.
            config["mode"] = "VALIDATED"
            if calling:
                notes.append(
                    Note(
                        "settings.provider.gemini.mode",
                        f"mode {calling} ignores allowedFunctionNames; VALIDATED used",
                        "guessed",
                    )
                )
        config["allowedFunctionNames"] = list(allowed)
    if config:
        fields["toolConfig"] = {"functionCallingConfig": config}
    return AudienceRequest(fields, allowed, sent, tuple(notes))
