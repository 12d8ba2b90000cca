"""Per-tool description scores, 1–5 on six components.

The scores are deterministic heuristics over the description blocks and the
rendered text (a tool without blocks is judged on its free-text description):

- **purpose** — 1: nothing says what the tool does; 2: the text only restates
  the name; 3: a purpose shorter than four words (or six CJK characters);
  4: a real one-line purpose; 5: that, plus a statement of what it returns.
- **usage** — 1: no guidance; 2: a usage of under eight words; 3: when to use
  it; 4: also when *not* to use it ("do not", "不要"…); 5: also names a
  sibling tool or says what to use "instead".
- **limitations** — one point per signal, from 1: preconditions written;
  errors documented; limits in prose ("at most", "only", "最多", "≤"…);
  bounds in the schema (maximum, maxLength, pattern, enum…); capped at 5.
- **parameters** — 1 + 4 × the share of model-filled parameters whose
  description exists and says more than the parameter's name (5 when the tool
  has no parameters to fill).
- **examples** — 1: none; 3: inline examples ("e.g.", "例如") or schema
  ``examples``; 4: one example call; 5: two or more example calls.
- **length** — completeness and size: one point for each filled block among
  summary, usage, returns, preconditions/errors and examples (max 5), minus
  one when the rendered text exceeds 2,000 characters; at least 1.

The same scores are also read on a public yardstick: the six dimensions of
Glama's open Tool Definition Quality Score (TDQS, specification 1.2, as its
reference implementation ``tdqs`` 0.1.0 spells it out in
``tdqs/spec/tool_dimensions.py``, ``spec/tiers.py``, ``compute_tdqs.py`` and
``rollup_server_score.py``; https://github.com/glama-ai/tool-definition-quality-score).
TDQS has a model grade each dimension; here each is mapped deterministically
from the components above:

==========================  ======  =========================================
TDQS dimension              weight  from
==========================  ======  =========================================
Purpose Clarity             25 %    purpose
Usage Guidelines            20 %    usage
Behavioral Transparency     20 %    limitations (preconditions, errors, limits)
Parameter Semantics         15 %    parameters (4, the spec's baseline, for a
                                    tool without parameters to fill)
Conciseness & Structure     10 %    size of the rendered text (5 up to 1,200
                                    characters, 4 to 2,000, 3 to 3,000, 2 to
                                    5,000, else 1), at most the purpose score:
                                    under-specification is not conciseness
Contextual Completeness     10 %    mean of length and examples, rounded up
==========================  ======  =========================================

A tool's TDQS is the weighted sum rounded half-up to one decimal; a tool
without any description scores 1 on every dimension (the spec's "No
Description" hard gate). Tiers, for a tool and for the registry alike:
A ≥ 3.5, B ≥ 3.0 (the passing bar), C ≥ 2.0, D ≥ 1.0. The registry's score is
the spec's description-quality rollup, ``0.6 · mean + 0.4 · min`` of the
tools' scores (the minimum weighs 40 %: one poor definition degrades
selection across the whole set). The spec's server coherence score (a model's
judgement of the tool set) and the overall score that blends it in are not
computed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from studio.contract.model import DEFAULT_DESCRIPTION_TEMPLATE, ToolContract
from studio.contract.render import render_description
from studio.lint.regex import compile_cues
from studio.lint.rules._common import CueSearch
from studio.lint.text import (
    fewer_words_than,
    only_words_of,
    split_identifier,
)

COMPONENTS = ("purpose", "usage", "limitations", "parameters", "examples", "length")

_NEGATIVE = compile_cues(
    r"\bdo not\b|\bdon't\b|\bnot for\b|\bnever\b|\bnot to\b|\bavoid\b|不要|请勿|不可|勿用|不用于",
    re.IGNORECASE,
)
_INSTEAD = compile_cues(r"\binstead\b|\brather than\b|改用|而不是|而非|请使用", re.IGNORECASE)
_WHEN = compile_cues(r"\bwhen\b|\bif\b|\bthe user\b|\bfor\b|当|如果|用户", re.IGNORECASE)
_LIMITS = compile_cues(
    r"\bat most\b|\bat least\b|\bonly\b|\bmax(?:imum)?\b|\bmin(?:imum)?\b|\blimit|\bcannot\b|"
    r"\bmust\b|\bup to\b|[≤≥<>]|最多|至少|仅|只能|不能|上限|不超过",
    re.IGNORECASE,
)
# What every match of _LIMITS starts with (lower case).
_LIMIT_NEEDLES = (
    *("at most", "at least", "only", "max", "min", "limit", "cannot", "must", "up to"),
    *("≤", "≥", "<", ">", "最多", "至少", "仅", "只能", "不能", "上限", "不超过"),
)
_RETURNS = compile_cues(r"\breturns?\b|返回", re.IGNORECASE)
_INLINE_EXAMPLE = compile_cues(r"\be\.g\.|\bfor example\b|\bexample:|\bsuch as\b|例如|比如", re.I)
# The cues above, each with what every match of it starts with: matched only where
# one of those literals starts (see CueSearch), ~8 of 49 ms of the scores of 2,000
# public tools.
_NEGATIVE_CUES = CueSearch(
    _NEGATIVE,
    (
        *("do not", "don't", "not for", "never", "not to", "avoid", "不要", "请勿", "不可"),
        *("勿用", "不用于"),
    ),
)
_INSTEAD_CUES = CueSearch(_INSTEAD, ("instead", "rather than", "改用", "而不是", "而非", "请使用"))
_WHEN_CUES = CueSearch(_WHEN, ("when", "if", "the user", "for", "当", "如果", "用户"))
_LIMIT_CUES = CueSearch(_LIMITS, _LIMIT_NEEDLES)
_RETURN_CUES = CueSearch(_RETURNS, ("return", "返回"))
_EXAMPLE_CUES = CueSearch(
    _INLINE_EXAMPLE, ("e.g.", "for example", "example:", "such as", "例如", "比如")
)
_SCHEMA_BOUNDS = frozenset(
    (
        "maximum",
        "minimum",
        "exclusiveMaximum",
        "exclusiveMinimum",
        "maxLength",
        "minLength",
        "maxItems",
        "pattern",
        "enum",
        "const",
        "format",
    )
)
_TOOL_NAME = compile_cues(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b|\b[a-z]+(?:[A-Z][a-z0-9]+)+\b")


TDQS_DIMENSIONS: tuple[tuple[str, str, int], ...] = (
    ("purpose_clarity", "Purpose clarity", 25),
    ("usage_guidelines", "Usage guidelines", 20),
    ("behavioral_transparency", "Behavioral transparency", 20),
    ("parameter_semantics", "Parameter semantics", 15),
    ("conciseness_structure", "Conciseness & structure", 10),
    ("contextual_completeness", "Contextual completeness", 10),
)
"""``(key, label, weight in percent)`` of the TDQS dimensions, in the spec's order."""

TDQS_TIERS: tuple[tuple[str, float], ...] = (("A", 3.5), ("B", 3.0), ("C", 2.0), ("D", 1.0))
"""``(tier, inclusive lower bound)``; B and above is passing."""


def _round1(p: int, q: int) -> float:
    """``p / q`` rounded half-up to one decimal, in integers (as the spec does)."""
    return ((20 * p + q) // (2 * q)) / 10


def tdqs_tier(score: float) -> str:
    """The letter tier of a TDQS score (A ≥ 3.5, B ≥ 3.0, C ≥ 2.0, D otherwise)."""
    for tier, minimum in TDQS_TIERS:
        if score >= minimum:
            return tier
    return "D"


@dataclass(frozen=True, slots=True)
class Tdqs:
    """One tool on the TDQS yardstick.

    Attributes:
        dimensions: Score 1–5 per dimension key of :data:`TDQS_DIMENSIONS`.
        score: The weighted sum, 1.0–5.0, one decimal.
        tier: ``A`` … ``D``.
    """

    dimensions: dict[str, int]
    score: float
    tier: str

    def as_dict(self) -> dict[str, object]:
        return {"score": self.score, "tier": self.tier, "dimensions": dict(self.dimensions)}


@dataclass(frozen=True, slots=True)
class RegistryTdqs:
    """A registry on the TDQS yardstick: ``0.6 · mean + 0.4 · min`` of its tools."""

    score: float
    tier: str
    mean: float
    minimum: float
    tool_count: int

    def as_dict(self) -> dict[str, object]:
        return {
            "score": self.score,
            "tier": self.tier,
            "mean": self.mean,
            "min": self.minimum,
            "tools": self.tool_count,
        }


@dataclass(frozen=True, slots=True)
class ToolScores:
    """Scores 1–5 of one tool's description components.

    ``conciseness``, ``has_parameters`` and ``described`` are what the TDQS
    mapping needs beyond the components (see the module docstring).
    """

    purpose: int
    usage: int
    limitations: int
    parameters: int
    examples: int
    length: int
    conciseness: int = 5
    has_parameters: bool = True
    described: bool = True

    def __reduce__(self) -> tuple[type[ToolScores], tuple[int | bool, ...]]:
        """Pickled as the constructor's arguments: a forked lint's child may send every
        tool's scores, and a frozen dataclass's default state sets each field from Python
        (2,000 tools: load ~4 -> ~1 ms)."""
        return (
            ToolScores,
            (
                self.purpose,
                self.usage,
                self.limitations,
                self.parameters,
                self.examples,
                self.length,
                self.conciseness,
                self.has_parameters,
                self.described,
            ),
        )

    @property
    def total(self) -> int:
        return (
            self.purpose
            + self.usage
            + self.limitations
            + self.parameters
            + self.examples
            + self.length
        )

    @property
    def average(self) -> float:
        return round(self.total / len(COMPONENTS), 2)

    def as_dict(self) -> dict[str, int]:
        return {c: getattr(self, c) for c in COMPONENTS}

    @property
    def tdqs(self) -> Tdqs:
        """These scores on the six TDQS dimensions, with the weighted score and tier."""
        values, score, tier = _tdqs_parts(
            self.described,
            self.purpose,
            self.usage,
            self.limitations,
            self.parameters if self.has_parameters else 4,
            self.conciseness,
            self.length,
            self.examples,
        )
        return Tdqs(dict(zip(_TDQS_KEYS, values, strict=True)), score, tier)


_TDQS_KEYS = tuple(k for k, _, _ in TDQS_DIMENSIONS)


@lru_cache(maxsize=4096)
def _tdqs_parts(
    described: bool,
    purpose: int,
    usage: int,
    limitations: int,
    parameters: int,
    conciseness: int,
    length: int,
    examples: int,
) -> tuple[tuple[int, ...], float, str]:
    """Dimension values, weighted score and tier of one set of component scores.

    Reports ask for every tool's TDQS two or three times and few sets of
    scores occur (each a small integer): computed once per set.
    """
    if not described:
        values = (1,) * len(TDQS_DIMENSIONS)
    else:
        values = (
            purpose,
            usage,
            limitations,
            parameters,
            min(conciseness, purpose),
            (length + examples + 1) // 2,
        )
    hundredths = sum(v * w for v, (_, _, w) in zip(values, TDQS_DIMENSIONS, strict=True))
    score = _round1(hundredths, 100)
    return values, score, tdqs_tier(score)


def registry_tdqs(scores: Iterable[ToolScores]) -> RegistryTdqs | None:
    """The registry's TDQS description quality: ``0.6 · mean + 0.4 · min``, or None for no tools.

    Computed in tenths, as the spec does, so a tie never lands a tier low.
    """
    tenths = [round(s.tdqs.score * 10) for s in scores]
    if not tenths:
        return None
    count, total, low = len(tenths), sum(tenths), min(tenths)
    score = _round1(6 * total + 4 * count * low, 100 * count)
    return RegistryTdqs(score, tdqs_tier(score), _round1(total, 10 * count), low / 10, count)


def _properties(tool: ToolContract) -> dict[str, dict]:
    params = tool.parameters if isinstance(tool.parameters, dict) else {}
    props = params.get("properties")
    if not isinstance(props, dict):
        return {}
    return {k: v for k, v in props.items() if isinstance(v, dict)}


@lru_cache(maxsize=8192)
def _name_words(name: str) -> frozenset[str]:
    """Words a text may use and still only restate ``name``."""
    words = set(split_identifier(name))
    words |= {w.rstrip("s") for w in words} | {w + "s" for w in words}
    return frozenset(words | {"gets", "get", "returns", "s"})


def _restates(text: str, name: str) -> bool:
    return only_words_of(text, _name_words(name))


def _purpose(tool: ToolContract, rendered: str) -> int:
    text = tool.summary or (rendered if not tool.has_blocks() else "")
    stripped = text.strip()
    if not stripped:
        return 1
    first = stripped.partition("\n")[0]
    if _restates(first, tool.name):
        return 2
    if fewer_words_than(first, 4, 6):
        return 3
    return 5 if tool.returns or _RETURN_CUES.found(rendered) else 4


def _usage(tool: ToolContract, rendered: str) -> int:
    text = tool.usage if tool.has_blocks() else rendered
    if not text or text.isspace() or (not tool.usage and not _WHEN_CUES.found(text)):
        return 1
    if fewer_words_than(text, 8, 12):
        return 2
    score = 3
    if _NEGATIVE_CUES.found(text):
        score += 1
    if _INSTEAD_CUES.found(text) or _TOOL_NAME.search(text):
        score += 1
    return score


def _limitations(tool: ToolContract, rendered: str, props: dict[str, dict]) -> int:
    score = 1
    if tool.preconditions.strip():
        score += 1
    if tool.errors:
        score += 1
    if _LIMIT_CUES.found(rendered):
        score += 1
    if any(not _SCHEMA_BOUNDS.isdisjoint(schema) for schema in props.values()):
        score += 1
    return min(score, 5)


def _parameters(props: dict[str, dict]) -> int:
    props = {k: v for k, v in props.items() if "x-injected" not in v}
    if not props:
        return 5
    good = 0
    for name, schema in props.items():
        desc = schema.get("description")
        if isinstance(desc, str) and desc.strip() and not _restates(desc, name):
            good += 1
    return 1 + round(4 * good / len(props))


def _examples(tool: ToolContract, rendered: str, props: dict[str, dict]) -> int:
    if len(tool.examples) >= 2:
        return 5
    if tool.examples:
        return 4
    if _EXAMPLE_CUES.found(rendered) or any("examples" in s for s in props.values()):
        return 3
    return 1


def _length(tool: ToolContract, rendered: str) -> int:
    filled = sum(
        bool(x)
        for x in (
            tool.summary or (tool.description if not tool.has_blocks() else ""),
            tool.usage,
            tool.returns,
            tool.preconditions or tool.errors,
            tool.examples,
        )
    )
    score = filled - (1 if len(rendered) > 2000 else 0)
    return max(1, min(5, score))


# Upper bounds of the rendered text's size for conciseness 5, 4, 3, 2 (else 1).
_CONCISE_SIZES = (1200, 2000, 3000, 5000)


def _conciseness(rendered: str) -> int:
    size = len(rendered)
    return 5 - sum(size > bound for bound in _CONCISE_SIZES)


def score_tool(
    tool: ToolContract,
    template: str = DEFAULT_DESCRIPTION_TEMPLATE,
    rendered: str | None = None,
) -> ToolScores:
    """The six component scores of ``tool`` (see the module docstring).

    ``rendered``, when given, is ``render_description(tool, template)`` already
    computed by the caller (the engine shares it with the rules).
    """
    if rendered is None:
        rendered = render_description(tool, template)
    props = _properties(tool)
    purpose = _purpose(tool, rendered)
    return ToolScores(
        purpose=purpose,
        usage=_usage(tool, rendered),
        limitations=_limitations(tool, rendered, props),
        parameters=_parameters(props),
        examples=_examples(tool, rendered, props),
        length=_length(tool, rendered),
        conciseness=_conciseness(rendered),
        has_parameters=any("x-injected" not in v for v in props.values()),
        described=bool(rendered.strip()),
    )
