"""Naming rules: tool names per provider, uniqueness, generic names, verb_noun, casing."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from studio.contract.model import Registry, ToolContract
from studio.editing.edits import SetField
from studio.lint.model import Hit, LintContext, QuickFix, Severity, registry_rule, tool_rule
from studio.lint.rules._common import text, visible_properties, words_of
from studio.lint.text import split_identifier
from studio.lint.wordlists import fold, verb_class

CATEGORY = "naming"

# Documented tool-name rules, as of 2025:
# - OpenAI function calling: a-z, A-Z, 0-9, underscores and dashes, at most 64.
# - Anthropic tool use: ^[a-zA-Z0-9_-]{1,64}$.
# - Gemini FunctionDeclaration: must start with a letter or an underscore; a-z, A-Z,
#   0-9, underscores, dots and dashes (some versions also allow colons), at most 64.
# - MCP (2025-11 spec guidance): 1–128 characters of A-Z, a-z, 0-9, _, - and .
NAME_RULES: dict[str, tuple[re.Pattern[str], str]] = {
    "openai-strict": (re.compile(r"^[a-zA-Z0-9_-]{1,64}$"), "letters, digits, _ and -, ≤ 64"),
    "openai": (re.compile(r"^[a-zA-Z0-9_-]{1,64}$"), "letters, digits, _ and -, ≤ 64"),
    "anthropic": (re.compile(r"^[a-zA-Z0-9_-]{1,64}$"), "letters, digits, _ and -, ≤ 64"),
    "gemini": (
        re.compile(r"^[a-zA-Z_][a-zA-Z0-9_.-]{0,63}$"),
        "a letter or _ first, then letters, digits, _, . and -, ≤ 64",
    ),
    "mcp": (re.compile(r"^[a-zA-Z0-9_.-]{1,128}$"), "letters, digits, _, - and ., ≤ 128"),
}
_DEFAULT_NAME_RULE = NAME_RULES["openai"]


def safe_name(name: str, profile: str = "openai") -> str:
    """A name close to ``name`` that the profile's name rule accepts."""
    pattern, _ = NAME_RULES.get(profile, _DEFAULT_NAME_RULE)
    limit = 128 if profile == "mcp" else 64
    out = re.sub(r"[^a-zA-Z0-9_-]+", "_", name).strip("_") or "tool"
    if profile == "gemini" and not re.match(r"[a-zA-Z_]", out):
        out = "_" + out
    out = out[:limit]
    return out if pattern.fullmatch(out) else "tool"


@tool_rule(
    "name-charset",
    category=CATEGORY,
    severity=Severity.ERROR,
    rationale="""A provider rejects the whole request when one tool name breaks its naming
    rule, so every tool of the registry becomes unusable. OpenAI and Anthropic accept
    ^[a-zA-Z0-9_-]{1,64}$; Gemini wants a letter or underscore first and allows dots,
    at most 64 characters; MCP recommends 1–128 characters of letters, digits, _, - and .
    (the rules as the providers document them; the studio's own house rule is the
    strictest common one).""",
    has_fix=True,
)
def check_name_charset(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    name = text(tool.name)
    pattern, desc = NAME_RULES.get(ctx.profile, _DEFAULT_NAME_RULE)
    if pattern.fullmatch(name):
        return
    fixed = safe_name(name, ctx.profile)
    fix = None
    if fixed != name and fixed != "tool":
        fix = QuickFix(f"Rename to {fixed}", (SetField("name", fixed),))
    yield Hit(
        name or None,
        "name",
        f"Tool name {name!r} breaks the {ctx.profile} naming rule ({desc}); rename it.",
        fix=fix,
    )


@registry_rule(
    "name-unique",
    category=CATEGORY,
    severity=Severity.ERROR,
    rationale="""Two tools with the same name cannot both be sent to a model, and names
    that differ only in case (get_order / Get_Order) are rejected by some providers and
    confuse models and people alike. Tool names must be unique after case folding.""",
)
def check_name_unique(registry: Registry, ctx: LintContext) -> Iterator[Hit]:
    first: dict[str, str] = {}
    for tool in registry.tools:
        name = text(tool.name)
        key = name.casefold()
        if key in first:
            other = first[key]
            how = "the same name" if other == name else "a name differing only in case"
            yield Hit(
                name,
                "name",
                f"Tool {name!r} has {how} as {other!r}; give each tool a distinct name.",
                related=(other,),
            )
        else:
            first[key] = name


# Device names Windows reserves in every folder, whatever the case and the extension
# ("nul.json", "Com1.v2.json"): learn.microsoft.com/windows/win32/fileio/naming-a-file.
WINDOWS_RESERVED = frozenset(
    {"CON", "PRN", "AUX", "NUL"} | {f"COM{i}" for i in range(10)} | {f"LPT{i}" for i in range(10)}
)


def windows_reserved_stem(name: str) -> str | None:
    """The reserved device name ``name``'s file would start with (``CON``, ``LPT1``…), or None.

    Windows looks at the part before the first dot, case-insensitively, and ignores
    spaces at its end: ``con``, ``Nul.v2`` and ``aux .x`` all name a device.
    """
    stem = name.split(".", 1)[0].rstrip(" ").upper()
    return stem if stem in WINDOWS_RESERVED else None


@tool_rule(
    "name-windows-reserved",
    category=CATEGORY,
    severity=Severity.WARNING,
    rationale="""The registry-as-code folder (export format dir) stores each tool as
    tools/<name>.json. Windows reserves the device names CON, PRN, AUX, NUL, COM0–COM9
    and LPT0–LPT9 in every folder, in any case and with any extension, so a tool named
    con or nul.v2 cannot be written or checked out there: the export fails or git skips
    the file, and the registry comes back without that tool. Give the tool a name that
    says what it does (which the verb_noun convention does anyway).""",
    has_fix=True,
)
def check_name_windows_reserved(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    name = text(tool.name)
    stem = windows_reserved_stem(name)
    if stem is None:
        return
    head, dot, rest = name.partition(".")
    fixed = f"{head.rstrip(' ')}_tool{dot}{rest}"
    taken = {t.name for t in ctx.registry.tools}
    pattern, _ = NAME_RULES.get(ctx.profile, _DEFAULT_NAME_RULE)
    fix = None
    if fixed not in taken and pattern.fullmatch(fixed):
        fix = QuickFix(f"Rename to {fixed}", (SetField("name", fixed),))
    yield Hit(
        name,
        "name",
        f"Tool name {name!r} is the Windows device name {stem}: exported as a folder "
        f"(format dir), its file tools/{name}.json cannot exist on Windows; rename it.",
        fix=fix,
    )


GENERIC_WORDS = words_of(
    """search query run execute exec process handle do stuff thing things tool tools func
    function action call invoke get set data info item items object request api main
    helper util utils misc test temp tmp new my perform operation op task manage handler
    service fetch"""
)


def is_generic_name(name: str) -> bool:
    """True when a name says nothing about what the tool acts on (``search``, ``tool1``)."""
    words = split_identifier(name)
    if not words:
        return False
    return all(w in GENERIC_WORDS or w.isdigit() for w in words)


@tool_rule(
    "name-generic",
    category=CATEGORY,
    severity=Severity.WARNING,
    rationale="""A model chooses a tool first by its name. Names such as search, query,
    run, execute, process, tool1 or do_stuff say what happens but not to what, so they
    compete with every other tool and collide with tools of other servers loaded into the
    same conversation. Name the object: search_orders, run_sql_report.""",
)
def check_name_generic(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    name = text(tool.name)
    if is_generic_name(name):
        yield Hit(
            name,
            "name",
            f"Tool name {name!r} is generic; name what it acts on, e.g. {name}_orders.",
        )


@tool_rule(
    "name-verb-noun",
    category=CATEGORY,
    severity=Severity.WARNING,
    rationale="""Names of the form verb_noun with a small, shared verb vocabulary
    (configured per registry: get, list, query, search, create, update, delete…) let a
    model infer what a tool does and whether it changes anything, and keep sibling tools
    comparable. A name that starts with another verb or has no noun is harder to choose
    correctly.""",
)
def check_name_verb_noun(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    name = text(tool.name)
    words = split_identifier(name)
    if not words:
        return
    verbs, shown = _vocabulary(ctx.settings.verbs)
    first = words[0]
    if first not in verbs:
        kind = verb_class(first)
        if kind is None:
            yield Hit(
                name,
                "name",
                f"Tool name {name!r} does not start with a verb ({first!r}; the registry's "
                f"verbs are {shown}); rename it to verb_noun.",
            )
            return
        # A verb, just not one of the registry's: say which of its verbs means the same.
        same = _verbs_of_kind(verbs, kind)
        instead = f"use {same[0]!r} (the registry's verb of that kind) or " if same else ""
        yield Hit(
            name,
            "name",
            f"Tool name {name!r} starts with the verb {first!r}, which is not in the "
            f"registry's vocabulary ({shown}); {instead}add {first!r} to the vocabulary.",
            severity=Severity.INFO,
        )
    elif len(words) < 2:
        yield Hit(name, "name", f"Tool name {name!r} has no noun; rename it to {name}_<noun>.")


def _vocabulary(setting: Any) -> tuple[tuple[str, ...], str]:
    """The registry's verbs, lower-cased, and how a message lists them.

    Worked out once per vocabulary, not for each tool (it is the same for all of
    a registry's tools): with :func:`_verbs_of_kind`, name-verb-noun on 2,000
    public tools 11 -> 6 ms.
    """
    try:
        return _cached_vocabulary(setting)
    except TypeError:  # not hashable (a list): worked out each time
        return _make_vocabulary(setting)


def _make_vocabulary(setting: Any) -> tuple[tuple[str, ...], str]:
    verbs = tuple(v.lower() for v in (setting or ()) if isinstance(v, str))
    return verbs, ", ".join(verbs[:9])


_cached_vocabulary = lru_cache(maxsize=64)(_make_vocabulary)


@lru_cache(maxsize=1024)
def _verbs_of_kind(verbs: tuple[str, ...], kind: str) -> tuple[str, ...]:
    """The registry's verbs of class ``kind``, else of its family (``read.list``: ``read``)."""
    family = kind.split(".", 1)[0]
    return tuple(v for v in verbs if verb_class(v) == kind) or tuple(
        v for v in verbs if (verb_class(v) or "").split(".", 1)[0] == family
    )


_NEUTRAL = re.compile(r"[a-z][a-z0-9]*")
_STYLES = (
    ("snake", re.compile(r"[a-z][a-z0-9]*(_[a-z0-9]+)+")),
    ("kebab", re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)+")),
    ("camel", re.compile(r"[a-z][a-z0-9]*([A-Z][a-z0-9]*)+")),
    ("pascal", re.compile(r"([A-Z][a-z0-9]*)+")),
)


@lru_cache(maxsize=65536)
def casing_style(name: str) -> str | None:
    """``snake``, ``camel``, ``pascal``, ``kebab``, ``mixed``, or None for a neutral name.

    A single lower-case word (``search``) fits every style, so it is neutral.
    """
    if _NEUTRAL.fullmatch(name):
        return None
    for style, pattern in _STYLES:
        if pattern.fullmatch(name):
            return style
    return "mixed"


def to_style(name: str, style: str) -> str:
    """``name`` rewritten in ``style`` (snake, kebab, camel or pascal)."""
    words = split_identifier(name)
    if not words:
        return name
    if style == "kebab":
        return "-".join(words)
    if style == "camel":
        return words[0] + "".join(w[:1].upper() + w[1:] for w in words[1:])
    if style == "pascal":
        return "".join(w[:1].upper() + w[1:] for w in words)
    return "_".join(words)


@registry_rule(
    "name-casing-mixed",
    category=CATEGORY,
    severity=Severity.WARNING,
    rationale="""When some tools are snake_case and others camelCase (get_order next to
    queryOrderList), the names look like they come from different systems, models copy
    the wrong style when guessing names, and near-duplicates are harder to spot. Use one
    casing style across the registry; the studio's house style is snake_case.""",
    has_fix=True,
)
def check_name_casing(registry: Registry, ctx: LintContext) -> Iterator[Hit]:
    styles = [(text(t.name), casing_style(text(t.name))) for t in registry.tools]
    counts = Counter(s for _, s in styles if s and s != "mixed")
    if not counts:
        return
    top = max(counts.values())
    # Ties go to snake_case, the house style.
    leaders = [s for s, c in counts.items() if c == top]
    majority = "snake" if "snake" in leaders else leaders[0]
    taken = {n for n, _ in styles}
    for name, style in styles:
        if style is None or style == majority:
            continue
        target = to_style(name, majority)
        fix = None
        if target != name and target not in taken:
            fix = QuickFix(f"Rename to {target}", (SetField("name", target),))
        yield Hit(
            name,
            "name",
            f"Tool name {name!r} is {style} case while most tools are {majority} case; "
            f"rename it to {target}.",
            fix=fix,
        )


AMBIGUOUS_PARAMS = words_of(
    """id ids data value values user info type obj object item items thing param params
    payload input arg args val key body content entity record target"""
)


@tool_rule(
    "param-name-ambiguous",
    category=CATEGORY,
    severity=Severity.WARNING,
    rationale="""A parameter called id, data, value, user, info, type or obj does not say
    which id or what data: the model has to guess from the description, and often sends
    the wrong identifier (an order number where a customer id was meant). Qualify the
    name: order_id, notification_payload, user_email.""",
)
def check_param_name(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    for ref in visible_properties(tool):
        words = split_identifier(ref.name)
        # Only a bare word is ambiguous: user_id already says which id.
        if len(words) == 1 and words[0] in AMBIGUOUS_PARAMS:
            noun = _tool_noun(tool.name, words[0])
            example = f" (e.g. {noun}_{words[0]})" if noun else ""
            yield Hit(
                text(tool.name),
                ref.json_path,
                f"Parameter {ref.name!r} is ambiguous; name what it identifies or holds{example}.",
            )


def _tool_noun(name: str, word: str) -> str | None:
    """The noun a tool's name acts on (``get_song`` → song), to qualify a parameter with.

    Only a noun of the tool's own name is suggested (``song_key``, never a stock
    ``order_key`` for a music key); None when the name has none to offer.
    """
    nouns = [
        w
        for w in split_identifier(name)
        if w.isalpha()
        and len(w) > 2
        and w != word
        and verb_class(w) is None
        and w not in AMBIGUOUS_PARAMS
    ]
    if not nouns:
        return None
    return fold(nouns[-1])  # list_invoices → invoice
