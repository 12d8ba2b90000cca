"""A risk tier guessed from what a tool definition says, with the evidence.

Provider tool formats (OpenAI, Anthropic, Gemini) carry no risk tier; MCP has
annotations, OpenAPI the HTTP method. Every importer asks :func:`guess_risk`
and puts its note in the import report, so a guess is never silent.

Evidence, strongest first:

1. MCP annotations: ``destructiveHint: true`` → destructive,
   ``readOnlyHint: true`` → read, both explicitly false → write (not a guess).
2. The HTTP method: GET, HEAD, OPTIONS → read; DELETE → destructive; any
   other (POST, PUT, PATCH …) → write.
3. The verb the name starts with, else the first word of the description,
   by its class in ``verbs.txt`` (:mod:`studio.contract.verbs`): ``read`` and
   ``read.list`` (get, query, search …) and ``compute`` (calculate, convert …)
   → read; ``delete`` (delete, remove, destroy, purge …) → destructive; every
   other class (create, update, send, buy, cancel, approve, run …) → write.
4. Nothing known → write, the safe side: a write asks for one confirmation,
   a wrong ``read`` would let a state change run unasked.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from studio.contract.verbs import verb_class, verb_classes

if TYPE_CHECKING:
    from studio.contract.model import RiskTier

UNKNOWN_NOTE = "risk tier unknown: set to write (the safe side)"

_READ_CLASSES = frozenset({"read", "read.list", "compute"})
_DESTRUCTIVE_CLASSES = frozenset({"delete"})
_READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_NAME_WORDS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
_TEXT_WORDS = r"[A-Za-z]+|[\u3400-\u9fff]+"
# Openings that put the verb a few words later ("Use this tool to create …").
_LEAD_IN = (
    r"^\s*(?:(?:use|call)\s+(?:this|it)(?:\s+tool|\s+function)?\s+to|this\s+(?:tool|function)"
    r"|(?:a\s+)?(?:tool|function)\s+(?:to|that|which))\s+"
)


@lru_cache(maxsize=1)
def _description_patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """:data:`_LEAD_IN` and :data:`_TEXT_WORDS` compiled on first use: a session import
    asks only :func:`verb_reads`, and the CJK range alone is ~1 ms to compile."""
    return re.compile(_LEAD_IN, re.IGNORECASE), re.compile(_TEXT_WORDS)


@lru_cache(maxsize=1)
def _risk_tiers() -> type[RiskTier]:
    """:class:`~studio.contract.model.RiskTier`, imported on first use: the session checks
    need no model. Once, not per call: an import statement per guess was a third of
    guessing 2,000 tools' tiers."""
    from studio.contract.model import RiskTier

    return RiskTier


def tier_of_class(cls: str) -> RiskTier:
    """The risk tier a verb class implies (``read.list`` → read, ``delete`` → destructive)."""
    tiers = _risk_tiers()
    if cls in _READ_CLASSES:
        return tiers.READ
    if cls in _DESTRUCTIVE_CLASSES:
        return tiers.DESTRUCTIVE
    return tiers.WRITE


def name_verb(name: str) -> str | None:
    """The first word of a tool name (``createTicket``, ``send-mail`` → create, send)."""
    words = _NAME_WORDS.findall(name.replace("-", "_"))
    return words[0].lower() if words else None


def verb_reads(name: str) -> bool | None:
    """Whether the verb of ``name`` implies the read tier; None for no known verb.

    :func:`verb_risk` without the tier itself: the session checks ask only this,
    and need not load the contract model for the enum.
    """
    verb = name_verb(name)
    cls = verb_class(verb) if verb else None
    if cls is None:
        return None
    return cls in _READ_CLASSES


def verb_risk(name: str) -> tuple[RiskTier, str] | None:
    """The tier the verb of ``name`` implies and that verb, or None for no known verb."""
    verb = name_verb(name)
    cls = verb_class(verb) if verb else None
    if verb is None or cls is None:
        return None
    return tier_of_class(cls), verb


def _description_verb(description: str) -> tuple[str, str] | None:
    """``(verb, class)`` of the verb a description opens with, if it is a known one."""
    lead_in, text_words = _description_patterns()
    text = lead_in.sub("", description.strip(), count=1)
    match = text_words.match(text)
    if match is None:
        return None
    word = match.group()
    if word.isascii():
        cls = verb_class(word)
        return (word.lower(), cls) if cls else None
    # Chinese has no spaces: the longest listed verb the text starts with.
    for verb in sorted((v for v in verb_classes() if not v.isascii()), key=len, reverse=True):
        if word.startswith(verb):
            return verb, verb_classes()[verb]
    return None


def _from_annotations(annotations: Mapping[str, Any]) -> tuple[RiskTier, str | None] | None:
    tiers = _risk_tiers()

    read_only = annotations.get("readOnlyHint")
    destructive = annotations.get("destructiveHint")
    if destructive is True:
        if read_only is True:
            return (
                tiers.DESTRUCTIVE,
                "readOnlyHint and destructiveHint both true; took destructive",
            )
        return tiers.DESTRUCTIVE, None
    if read_only is True:
        return tiers.READ, None
    if read_only is False and destructive is False:
        return tiers.WRITE, None
    return None


def guess_risk(
    name: str,
    description: str = "",
    *,
    method: str | None = None,
    annotations: Mapping[str, Any] | None = None,
) -> tuple[RiskTier, str | None]:
    """The risk tier a tool definition implies, and a note saying how it was guessed.

    Args:
        name: The tool name (any case style).
        description: Its description; its first verb counts when the name has none.
        method: The HTTP method of the operation (OpenAPI), when there is one.
        annotations: MCP tool annotations; ``{}`` for an MCP tool without
            any (the note then says no hint decided), None for other formats.

    Return:
        ``(tier, note)``. The note is None only when the evidence states the
        tier outright (MCP hints that say read, write or destructive); else it
        names the evidence (``risk tier 'read' guessed from the verb 'query'
        of the name``) or is :data:`UNKNOWN_NOTE`.
    """
    tiers = _risk_tiers()

    if annotations is not None:
        found = _from_annotations(annotations)
        if found is not None:
            return found
    if method:
        verb = method.upper()
        if verb in _READ_METHODS:
            tier = tiers.READ
        elif verb == "DELETE":
            tier = tiers.DESTRUCTIVE
        else:
            tier = tiers.WRITE
        return tier, f"risk tier {tier.value!r} guessed from the HTTP method {verb}"
    hints = (
        " (no readOnlyHint/destructiveHint says read or destructive)"
        if annotations is not None
        else ""
    )
    by_name = verb_risk(name)
    if by_name is not None:
        tier, verb = by_name
        where = "of the name"
    elif (by_text := _description_verb(description) if description else None) is not None:
        verb, tier = by_text[0], tier_of_class(by_text[1])
        where = "the description opens with"
    else:
        return tiers.WRITE, UNKNOWN_NOTE + hints
    # A hint that is explicitly false still rules its tier out.
    if annotations and tier is tiers.READ and annotations.get("readOnlyHint") is False:
        tier = tiers.WRITE
        hints = " (readOnlyHint is false)"
    if annotations and tier is tiers.DESTRUCTIVE and annotations.get("destructiveHint") is False:
        tier = tiers.WRITE
        hints = " (destructiveHint is false)"
    return tier, f"risk tier {tier.value!r} guessed from the verb {verb!r} {where}{hints}"


__all__ = ["UNKNOWN_NOTE", "guess_risk", "name_verb", "tier_of_class", "verb_reads", "verb_risk"]
