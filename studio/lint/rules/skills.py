"""Skills and remote agents: the same lint as tools, because a model chooses them the same way.

A model picks a skill to load, or a remote agent to delegate to, by its
description, exactly as it picks a tool; so confusable descriptions are found
with the tools' own similarity indexes (:class:`SimilarityIndex` over TF-IDF
terms, :class:`ShortTextIndex` over what a one-line summary says), with tools,
skills and the skills remote agents advertise in one index. A skill is
instructions the model will follow, so its body gets the security rules of a
tool description (by calling their checkers), and an instruction that must
hold ("confirm before creating a ticket") is checked against the tool layer
that would have to enforce it.

Locations: findings about a skill have no tool and a path such as
``skills/travel-reimbursement/SKILL.md:24``; findings on a tool name the tool.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from studio.contract.model import Registry, RiskTier, ToolContract
from studio.lint.model import Hit, LintContext, Severity, registry_rule
from studio.lint.similarity import (
    ShortTextIndex,
    SimilarityIndex,
    normalised_terms,
    tool_terms,
)
from studio.lint.text import split_identifier, tokenize
from studio.lint.wordlists import content_units

if TYPE_CHECKING:
    from studio.agents.model import RemoteAgent
    from studio.skills.markdown import BodyRef
    from studio.skills.model import Skill

CATEGORY = "skills"


def named_identifiers(body: str) -> list[BodyRef]:
    """:func:`studio.skills.markdown.named_identifiers`, imported on first use.

    The markdown parser costs ~30 ms to import, and most registries linted
    have no skill for it to read.
    """
    from studio.skills.markdown import named_identifiers as read

    return read(body)


def named_files(body: str) -> list[BodyRef]:
    """:func:`studio.skills.markdown.named_files`, imported on first use."""
    from studio.skills.markdown import named_files as read

    return read(body)


def validate_skill(skill: Skill) -> list[str]:
    """:func:`studio.skills.spec.validate_skill`, imported on first use: the skill and
    agent models (~2 ms of imports and dataclasses) load only for a registry that has
    skills (the skills and agents in a registry's annotations need none of them)."""
    from studio.skills.spec import validate_skill as validate

    return validate(skill)


def front_matter_line(skill: Skill, key: str) -> int:
    """:func:`studio.skills.spec.front_matter_line`, imported on first use."""
    from studio.skills.spec import front_matter_line as line

    return line(skill, key)


SKILL_SPEC = "skill-spec"
SKILL_CONFUSABLE = "skill-confusable"
SKILL_CATALOGUE = "skill-catalogue-cost"
SKILL_DANGLING = "skill-dangling-reference"
SKILL_UNENFORCED = "skill-unenforced-guarantee"
SKILL_SECURITY = "skill-body-security"
AGENT_CARD = "agent-card"

DESCRIPTION_TOKENS_WARN = 120
"""A catalogue line past this many tokens is long (hosts budget ~50-100 per skill)."""
BODY_TOKENS_WARN = 5_000
"""The spec's advice: keep SKILL.md under ~5,000 tokens, move detail to references/."""
BODY_LINES_WARN = 500

# Compiled on first use: only a registry with skills reads them (~0.3 ms of every lint).


@cache
def _clause_end() -> re.Pattern[str]:
    return re.compile(r"[。；;：！？!?\n]|[.,，:](?:\s|$)")


@cache
def _confirm() -> re.Pattern[str]:
    return re.compile(
        r"确认|同意|批准|confirm|approv|consent|ask the (?:user|employee)", re.IGNORECASE
    )


@cache
def _before() -> re.Pattern[str]:
    return re.compile(r"之前|以前|前(?:先|必须|须)|先|before|prior to|first", re.IGNORECASE)


def skill_where(skill: Skill, line: int | None = None) -> str:
    """``skills/<name>/SKILL.md[:line]``."""
    base = f"skills/{skill.name or '?'}/SKILL.md"
    return f"{base}:{line}" if line else base


def _body_line(skill: Skill, ref: BodyRef) -> int:
    return skill.body_line + ref.line - 1


def _first_clause(text: str) -> str:
    return _clause_end().split(text.strip(), maxsplit=1)[0]


# --------------------------------------------------------------------------- spec


@registry_rule(
    SKILL_SPEC,
    category=CATEGORY,
    severity=Severity.ERROR,
    rationale="""The Agent Skills specification (agentskills.io) requires a name of 1-64
    lowercase letters, digits and hyphens and a non-empty description of at most 1,024
    characters; hosts refuse or silently skip skills that break it.""",
)
def skill_spec(registry: Registry, ctx: LintContext) -> Iterator[Hit]:
    for skill in registry.skills:
        for line in validate_skill(skill):
            where, _, message = line.partition(": ")
            yield Hit(None, where.replace(f"{skill.name}/", f"skills/{skill.name}/", 1), message)


# --------------------------------------------------------------------------- confusable


@dataclass(frozen=True, slots=True)
class _Item:
    """A tool or a skill as the confusable check compares them (a docstring also spares
    the dataclass computing one from the signature at import, ~0.2 ms)."""

    key: str
    label: str
    text: str
    summary: str
    tool: str | None = None
    skill: Skill | None = None


def _items(registry: Registry) -> list[_Item]:
    out = [
        _Item(
            f"tool:{t.name}",
            f"tool {t.name}",
            "",
            t.summary or _first_clause(t.description),
            t.name,
        )
        for t in registry.tools
    ]
    for s in registry.skills:
        words = " ".join(split_identifier(s.name.replace("-", "_")))
        out.append(
            _Item(
                f"skill:{s.name}",
                f"skill {s.name}",
                f"{words}\n{s.description}",
                _first_clause(s.description),
                skill=s,
            )
        )
    for agent in registry.agents:
        for sk in agent.skills:
            text = f"{sk.name}\n{sk.description}\n{' '.join(sk.tags)}"
            label = f"remote agent {agent.name}'s skill {sk.name or sk.id}"
            out.append(
                _Item(
                    f"agent:{agent.name}/{sk.id}",
                    label,
                    text,
                    sk.name or _first_clause(sk.description),
                )
            )
    return out


_TERMS_CACHE: dict[tuple[int, str], tuple[ToolContract, Counter[str]]] = {}
_TERMS_CACHE_MAX = 50_000


def _cached_tool_terms(tool: ToolContract, template: str) -> Counter[str]:
    """A tool's similarity terms, kept while the same (immutable) tool object lives.

    The rule re-runs on every edit in the editor; rendering every tool's text
    again each time would cost ~0.3 s at 1,000 tools. The key is the object's
    id, checked against the object itself so a reused id never matches.
    """
    key = (id(tool), template)
    hit = _TERMS_CACHE.get(key)
    if hit is not None and hit[0] is tool:
        return hit[1]
    if len(_TERMS_CACHE) >= _TERMS_CACHE_MAX:
        _TERMS_CACHE.clear()
    terms = tool_terms(tool, template)
    _TERMS_CACHE[key] = (tool, terms)
    return terms


def _mentions(a: _Item, b: _Item) -> bool:
    """True when ``a``'s text names ``b`` (a description that says "use X instead")."""
    name = b.key.split(":", 1)[1].split("/")[-1]
    return bool(name) and name in (a.text or a.summary)


@registry_rule(
    SKILL_CONFUSABLE,
    category=CATEGORY,
    severity=Severity.WARNING,
    rationale="""Skills are chosen by their descriptions exactly like tools: a skill whose
    description says what a tool (or another skill, or a remote agent's skill) says is a
    routing trap — the model loads the skill when it should call the tool, or the other way
    round. Say what each one is for and what it is not for, naming the other.""",
)
def skill_confusable(registry: Registry, ctx: LintContext) -> Iterator[Hit]:
    if not registry.skills and not registry.agents:
        return
    items = {i.key: i for i in _items(registry)}
    threshold = float(ctx.options.get("similarity.threshold", 0.6))  # type: ignore[arg-type]
    short_at = float(ctx.options.get("similarity.summary_threshold", 0.75))  # type: ignore[arg-type]
    index = SimilarityIndex(threshold)
    template = registry.settings.description_template
    tools = {t.name: t for t in registry.tools}

    def terms(item: _Item) -> Counter[str]:
        if item.tool is not None:
            return _cached_tool_terms(tools[item.tool], template)
        return normalised_terms(tokenize(item.text))

    index.build((k, terms(i)) for k, i in items.items())
    short = ShortTextIndex(short_at)
    short.build((k, content_units(i.summary).key()) for k, i in items.items() if i.summary)
    scores: dict[tuple[str, str], float] = {}
    for a, b, score in index.similar():
        scores[(a, b) if a < b else (b, a)] = score
    for (a, b), score in short.pairs().items():
        key = (a, b) if a < b else (b, a)
        scores[key] = max(score, scores.get(key, 0.0))
    for (a, b), score in sorted(scores.items()):
        first, second = items[a], items[b]
        if first.tool is not None and second.tool is not None:
            continue  # tool/tool pairs are the ambiguity rules' findings
        if first.key.startswith("agent:") and first.key.split("/")[0] == second.key.split("/")[0]:
            continue  # one agent's own skills are routed by that agent
        told_apart = _mentions(first, second) or _mentions(second, first)
        severity = Severity.WARNING if told_apart or score < 0.9 else Severity.ERROR
        yield from _confusable_hits(first, second, score, severity)


def _confusable_hits(a: _Item, b: _Item, score: float, severity: Severity) -> Iterator[Hit]:
    message = (
        f"{a.label} and {b.label} say nearly the same thing (similarity {score:.2f}): "
        f"«{a.summary[:60]}» / «{b.summary[:60]}»; a model may load or call the wrong one — "
        "say in each what it is for and what to use instead"
    )
    for item, other in ((a, b), (b, a)):
        if item.tool is not None:
            yield Hit(item.tool, "summary", message, related=(other.key,), severity=severity)
            return
    skill = a.skill or b.skill
    assert skill is not None
    where = skill_where(skill, front_matter_line(skill, "description"))
    yield Hit(None, where, message, related=(a.key, b.key), severity=severity)


# --------------------------------------------------------------------------- catalogue cost


@registry_rule(
    SKILL_CATALOGUE,
    category=CATEGORY,
    severity=Severity.INFO,
    rationale="""Only skill names and descriptions stay in the model's context (~50 tokens
    each); bodies load when a skill is chosen. A long description is paid on every request;
    a long body is paid whenever the skill loads — split it into references/ that load only
    when needed.""",
)
def skill_catalogue(registry: Registry, ctx: LintContext) -> Iterator[Hit]:
    if not registry.skills:
        return
    # Imported here: the catalogue's token estimate compiles its patterns on import,
    # and most registries have no skills.
    from studio.skills.catalogue import catalogue_cost

    cost = catalogue_cost(registry.skills)
    yield Hit(
        None,
        "skills",
        f"catalogue of {len(registry.skills)} skill(s): {cost.resident} tokens resident "
        f"(names and descriptions); bodies {cost.bodies} tokens load on demand "
        f"({cost.without_disclosure} if every body sat in context)",
    )
    for skill, (_, line_tokens, body_tokens) in zip(registry.skills, cost.per_skill, strict=True):
        if line_tokens > DESCRIPTION_TOKENS_WARN:
            yield Hit(
                None,
                skill_where(skill, front_matter_line(skill, "description")),
                f"the description costs ~{line_tokens} tokens in every request; "
                f"keep it under ~{DESCRIPTION_TOKENS_WARN}: what it does and when to use it",
                severity=Severity.WARNING,
            )
        lines = skill.body.count("\n") + 1
        if body_tokens > BODY_TOKENS_WARN or lines > BODY_LINES_WARN:
            yield Hit(
                None,
                skill_where(skill),
                f"the body is ~{body_tokens} tokens ({lines} lines); split the details into "
                "references/ files the body points to, so a load costs less",
                severity=Severity.WARNING,
            )


# --------------------------------------------------------------------------- references


def _looks_like_tool(name: str, verbs: tuple[str, ...]) -> bool:
    head = re.split(r"[_\-.]|(?<=[a-z])(?=[A-Z])", name, maxsplit=1)[0].lower()
    return "_" in name and head in verbs


@registry_rule(
    SKILL_DANGLING,
    category=CATEGORY,
    severity=Severity.ERROR,
    rationale="""A skill body that tells the model to call a tool the registry does not
    have (or that allowed-tools does not grant), or to run a script the package does not
    ship, sends the model after something that is not there: it improvises or fails.""",
)
def skill_dangling(registry: Registry, ctx: LintContext) -> Iterator[Hit]:
    names = {t.name for t in registry.tools} | {a.name for a in registry.agents}
    verbs = registry.settings.verbs
    for skill in registry.skills:
        allowed = set(skill.allowed_tools)
        reported: set[str] = set()
        for ref in named_identifiers(skill.body):
            if ref.text in reported:
                continue
            where = skill_where(skill, _body_line(skill, ref))
            if ref.text in names:
                if allowed and ref.text not in allowed:
                    reported.add(ref.text)
                    yield Hit(
                        None,
                        where,
                        f"the body tells the model to use {ref.text!r} but allowed-tools "
                        "does not grant it; add it to allowed-tools or drop the step",
                        related=(ref.text,),
                    )
            elif _looks_like_tool(ref.text, verbs):
                reported.add(ref.text)
                yield Hit(
                    None,
                    where,
                    f"the body tells the model to call {ref.text!r}, which is not a tool "
                    "of this registry",
                )
        present = {rel for rel, _ in skill.files}
        for ref in named_files(skill.body):
            if ref.text not in present and not any(
                p.startswith(ref.text.rstrip("/") + "/") for p in present
            ):
                yield Hit(
                    None,
                    skill_where(skill, _body_line(skill, ref)),
                    f"the body points at {ref.text!r}, which is not in the skill's folder",
                )


# --------------------------------------------------------------------------- guarantees


def _paragraphs(body: str) -> list[tuple[int, str]]:
    """(1-based first line, text) of each paragraph or list item of a body."""
    out: list[tuple[int, str]] = []
    start, lines = 1, list[str]()
    for number, line in enumerate(body.split("\n"), start=1):
        item = re.match(r"\s*(?:[-*+]|\d+[.)])\s", line)
        if not line.strip() or (item and lines):
            if lines:
                out.append((start, " ".join(lines)))
            lines = [line] if line.strip() else []
            start = number
            continue
        if not lines:
            start = number
        lines.append(line)
    if lines:
        out.append((start, " ".join(lines)))
    return out


@registry_rule(
    SKILL_UNENFORCED,
    category=CATEGORY,
    severity=Severity.ERROR,
    rationale="""A skill's instruction is a suggestion the model may skip. When a body says
    the user must confirm before a tool runs, the tool's risk tier has to make the runtime
    ask for that confirmation (write or destructive); otherwise nothing guarantees it.""",
)
def skill_unenforced(registry: Registry, ctx: LintContext) -> Iterator[Hit]:
    tools = {t.name: t for t in registry.tools}
    for skill in registry.skills:
        for line, text in _paragraphs(skill.body):
            if not (_confirm().search(text) and _before().search(text)):
                continue
            for ref in named_identifiers(text):
                tool = tools.get(ref.text)
                if tool is None or tool.risk is not RiskTier.READ:
                    continue
                where = skill_where(skill, skill.body_line + line - 1)
                yield Hit(
                    None,
                    where,
                    f"the body requires a confirmation before {tool.name!r}, but its risk "
                    f"tier is {tool.risk.value!r}, which runs without one; the model may skip "
                    "the step — make the tool 'write' so the runtime asks",
                    related=(tool.name,),
                )
                yield Hit(
                    tool.name,
                    "risk",
                    f"skill {skill.name!r} ({where}) requires a confirmation before this "
                    f"tool, but risk {tool.risk.value!r} never asks for one; set risk to "
                    "'write' (or 'destructive') so the guarantee is in the tool layer",
                    related=(f"skill:{skill.name}",),
                )


# --------------------------------------------------------------------------- security


def _security_checks() -> list[tuple[str, object]]:
    """The tool security checkers a body goes through.

    Not shadowing ("orders about another tool"): telling the model which tools
    to call, in which order, is what a skill is for.
    """
    from studio.lint.rules import security

    return [
        ("hidden instructions", security.check_hidden_instructions),
        ("invisible characters", security.check_invisible),
        ("encoded payload", security.check_base64),
        ("data gathering", security.check_data_gathering),
        ("exfiltration", security.check_exfiltration),
        ("coercive ranking", security.check_promotional),
    ]


def _as_tool(skill: Skill) -> ToolContract:
    """The skill's description and body as a tool's text, for the tool security checkers."""
    return ToolContract(
        name=skill.name.replace("-", "_") or "skill",
        summary=skill.description,
        description=skill.body,
    )


@registry_rule(
    SKILL_SECURITY,
    category=CATEGORY,
    severity=Severity.ERROR,
    rationale="""A skill body is instructions the model follows once loaded: poisoning there
    (hidden directives, secrecy, gathering or sending data, orders about other tools) is
    worse than in a tool description. The tool security rules run on it.""",
)
def skill_security(registry: Registry, ctx: LintContext) -> Iterator[Hit]:
    checks = _security_checks()
    for skill in registry.skills:
        proxy = _as_tool(skill)
        for label, check in checks:
            for hit in check(proxy, ctx):  # type: ignore[operator]
                key = "description" if hit.path.startswith("summary") else "body"
                yield Hit(
                    None,
                    f"{skill_where(skill)} ({key})",
                    f"{label}: {hit.message}",
                    related=hit.related,
                    severity=hit.severity,
                )


# --------------------------------------------------------------------------- agent cards


def _agent_hits(agent: RemoteAgent) -> Iterator[str]:
    if not agent.description.strip():
        yield "the card has no description, so a model cannot tell when to delegate to it"
    if not agent.skills:
        yield "the card advertises no skills; a model has nothing to match a task against"
    for sk in agent.skills:
        if not sk.description.strip():
            yield f"skill {sk.id!r} has no description"
    if not agent.url:
        yield "the card has no endpoint (url or supportedInterfaces)"
    elif agent.url.startswith("http://") and not re.match(
        r"http://(127\.0\.0\.1|localhost|\[::1\])[:/]", agent.url
    ):
        yield f"the endpoint {agent.url} is plain HTTP; tasks and tokens travel unencrypted"
    if not agent.security_schemes:
        yield "the card declares no security scheme: anyone can send it tasks in your name"


@registry_rule(
    AGENT_CARD,
    category=CATEGORY,
    severity=Severity.WARNING,
    rationale="""A remote agent is chosen by its card like a tool by its description, and
    what it returns is untrusted input. A card without description or skills cannot be
    routed to; one without a security scheme or over plain HTTP is a trust problem.""",
)
def agent_card(registry: Registry, ctx: LintContext) -> Iterator[Hit]:
    for agent in registry.agents:
        for message in _agent_hits(agent):
            yield Hit(None, f"agents/{agent.name}.json", message)
