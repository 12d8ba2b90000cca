"""Per-tool options that only some providers' tool definitions can express (issue #17).

Checked against the providers' references as of 2026-12 (the field lists of the
official SDKs' request types: ``anthropic.types.ToolParam``,
``openai.types.responses.FunctionToolParam`` / ``NamespaceToolParam``,
``openai.types.shared_params.FunctionDefinition``):

=========================  ==================  ===================  ===================
option                     Anthropic Messages  OpenAI Responses     OpenAI Chat
=========================  ==================  ===================  ===================
``strict``                 ``strict``          ``strict`` + schema  ``function.strict``
``defer_loading``          ``defer_loading``   ``defer_loading``    — (dropped)
``input_examples``         ``input_examples``  —                    —
``allowed_callers``        ``allowed_callers`` ``allowed_callers``  —
``namespace``              —                   namespace grouping   —
``eager_input_streaming``  ``eager_input_…``   —                    —
=========================  ==================  ===================  ===================

Gemini function declarations carry none of these per tool; its calling
*modes* (``AUTO``, ``ANY``, ``NONE``, ``VALIDATED``) and
``allowedFunctionNames`` are request options: see :class:`GeminiSettings`.

``allowed_callers`` uses the providers' own values. ``direct`` means "the
model calls the tool itself"; ``programmatic`` (OpenAI) and Anthropic's
versioned ``code_execution_…`` values mean "code the model runs calls it".
Exporters translate between the two vocabularies (:func:`callers_for`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

JSONDict = dict[str, Any]

CALLER_DIRECT = "direct"
CALLER_PROGRAMMATIC = "programmatic"
#: Anthropic's code-execution callers, oldest first (``anthropic.types.ToolParam``).
ANTHROPIC_CODE_CALLERS = (
    "code_execution_20250825",
    "code_execution_20260120",
    "code_execution_20260521",
)
CALLERS = (CALLER_DIRECT, CALLER_PROGRAMMATIC, *ANTHROPIC_CODE_CALLERS)

GEMINI_MODES = ("AUTO", "ANY", "NONE", "VALIDATED")
"""Gemini ``functionCallingConfig.mode`` values; ``VALIDATED`` constrains calls to the
declared schemas while still letting the model answer in text."""

ANTHROPIC_CACHE_PLACEMENTS = ("none", "tools")
"""``tools``: a ``cache_control`` breakpoint on the last tool, so the tools block is
cached as a prefix (tools come first in a Messages request)."""


@dataclass(frozen=True, slots=True)
class ProviderOptions:
    """What a tool asks of the providers that can express it (module docstring)."""

    strict: bool | None = None
    """True: send the strict form (every property required, optional ones nullable,
    ``additionalProperties: false``) and ``strict: true``; None: the provider's default."""
    defer_loading: bool = False
    """Leave the tool out of the initial context; it is found through tool search."""
    input_examples: bool = False
    """Send the contract's example calls (those valid against the schema) as
    Anthropic ``input_examples``."""
    allowed_callers: tuple[str, ...] = ()
    """Who may call the tool (:data:`CALLERS`); empty: the provider's default (direct)."""
    namespace: str = ""
    """OpenAI Responses namespace the tool is grouped under (``crm``); "" for none."""
    eager_input_streaming: bool | None = None
    """Anthropic: stream the tool's input as it is generated (None: the default)."""

    def is_default(self) -> bool:
        return self == ProviderOptions()


@dataclass(frozen=True, slots=True)
class GeminiSettings:
    """A registry's Gemini request options (``toolConfig.functionCallingConfig``)."""

    mode: str = ""
    """One of :data:`GEMINI_MODES`; "" leaves the provider's default (``AUTO``)."""


@dataclass(frozen=True, slots=True)
class ProviderSettings:
    """Registry-wide provider options, kept in ``settings.extra["provider"]``.

    Attributes:
        anthropic_cache: Where a ``cache_control`` breakpoint goes
            (:data:`ANTHROPIC_CACHE_PLACEMENTS`).
        namespaces: OpenAI namespace name → the description shown to the model.
        gemini: Gemini calling mode.
    """

    anthropic_cache: str = "none"
    namespaces: dict[str, str] = field(default_factory=dict)
    gemini: GeminiSettings = field(default_factory=GeminiSettings)


def callers_for(callers: tuple[str, ...], provider: str) -> list[str]:
    """``allowed_callers`` in ``provider``'s vocabulary (``anthropic`` or ``openai``).

    Unknown values are dropped by the caller of this function with a note; here a
    programmatic caller maps to the newest Anthropic code-execution version and
    every Anthropic code-execution version to OpenAI's ``programmatic``.
    """
    out: list[str] = []
    for caller in callers:
        if caller == CALLER_DIRECT:
            mapped = CALLER_DIRECT
        elif provider == "anthropic":
            mapped = caller if caller in ANTHROPIC_CODE_CALLERS else ANTHROPIC_CODE_CALLERS[-1]
        else:
            mapped = CALLER_PROGRAMMATIC
        if mapped not in out:
            out.append(mapped)
    return out
