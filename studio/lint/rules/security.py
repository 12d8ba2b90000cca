"""Security: tool poisoning, hidden text, secrets, shadowing of other tools, promotion.

Every rule looks at all text of a tool (:func:`tool_texts`): name, title,
every block, the free-text description, parameter descriptions, enum values,
defaults and example arguments.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from studio.contract.model import ToolContract
from studio.editing.edits import SetField
from studio.lint.cache import memo_slots
from studio.lint.model import Hit, LintContext, QuickFix, Severity, tool_rule
from studio.lint.regex import compile_cues
from studio.lint.rules._common import cached_hits, memo, sentences, text, tool_texts

CATEGORY = "security"

_HIDDEN = compile_cues(
    r"<\s*/?\s*(?:important|system|instructions?|secret|hidden|admin|note_to_(?:ai|model|assistant))\b[^>]*>"
    r"|\bignore (?:all |any )?(?:the )?(?:previous|prior|above|earlier|other)\b"
    r"|\bdisregard (?:all |any )?(?:the )?(?:previous|prior|above|earlier)\b"
    r"|\bforget (?:all |everything )?(?:you|the previous|previous)\b"
    r"|\b(?:do not|don['’]t|never) (?:tell|inform|mention|reveal|show|notify)\b[^.]{0,40}\buser\b"
    r"|\b(?:do not|don['’]t|never) mention\b"
    r"|\bwithout (?:telling|informing|notifying) the user\b"
    r"|\bbefore (?:using|calling) (?:any|every) other tool\b"
    r"|\byou are now\b|\bnew instructions?\b|\bthis is (?:very )?important\b"
    r"|忽略(?:之前|以上|前面|先前)的?(?:所有)?(?:指令|指示|说明|内容)"
    r"|不要(?:告诉|通知|提醒)用户|别告诉用户|不要向用户(?:透露|提及)|在使用其他工具之前",
    re.IGNORECASE,
)

# Zero-width and formatting characters, bidirectional controls and Unicode tag characters.
_INVISIBLE = re.compile(
    "[\u200b-\u200f\u2060-\u2064\ufeff\u202a-\u202e\u2066-\u2069\U000e0000-\U000e007f]"
)
_BASE64 = re.compile(r"[A-Za-z0-9+/]{40,}={0,2}|[A-Za-z0-9_-]{40,}={0,2}")
_SECRET_FILES = compile_cues(
    r"~/\.ssh|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|/etc/(?:passwd|shadow)|(?<![\w.])\.env\b"
    r"|\.aws/credentials|\.npmrc|\.netrc|\.git-credentials|\bmcp\.json\b",
    re.IGNORECASE,
)
_SECRET_TERMS = compile_cues(
    r"\bcredentials?\b|\bsystem prompt\b|\bapi[ _-]?keys?\b|\bprivate key\b|\bpasswords?\b"
    r"|\baccess tokens?\b|\bconversation history\b|系统提示词?|密钥|密码|凭证|凭据",
    re.IGNORECASE,
)
_PROMO = compile_cues(
    r"\balways (?:prefer|use|choose|call|pick) (?:this|me|it)\b|\bprefer this tool\b"
    r"|\bthe best\b(?! (?:match|matches|matching|result|results|fit|available))"
    r"|\bbest[- ]in[- ]class\b|\bmost (?:powerful|accurate|reliable|advanced)\b"
    r"|\bsuperior to\b|\bbetter than (?:any|all|other)\b|#1\b|\bnumber one\b|\bworld[- ]class\b"
    r"|\bofficially recommended\b"
    r"|官方推荐|最好的|最强|最佳|首选|优先使用(?:本|此|这个)工具|总是使用(?:本|此|这个)工具",
    re.IGNORECASE,
)
# Literals (lower case) one of which every match of the pattern above contains.
_HIDDEN_NEEDLES = (
    "<",
    "ignore ",
    "disregard ",
    "forget ",
    *(
        f"{neg} {verb}"
        for neg in ("do not", "don't", "don’t", "never")
        for verb in ("tell", "inform", "mention", "reveal", "show", "notify")
    ),
    "without telling",
    "without informing",
    "without notifying",
    "before using",
    "before calling",
    "you are now",
    "new instruction",
    "this is important",
    "this is very important",
    "忽略",
    "不要告诉用户",
    "不要通知用户",
    "不要提醒用户",
    "别告诉用户",
    "不要向用户",
    "在使用其他工具之前",
)
_SECRET_FILE_NEEDLES = (
    "~/.ssh",
    "id_",
    "/etc/",
    ".env",
    ".aws/credentials",
    ".npmrc",
    ".netrc",
    ".git-credentials",
    "mcp.json",
)
_SECRET_TERM_NEEDLES = (
    "credential",
    "system prompt",
    "api",
    "private key",
    "password",
    "access token",
    "conversation history",
    "系统提示",
    "密钥",
    "密码",
    "凭证",
    "凭据",
)
_PROMO_NEEDLES = (
    "always prefer",
    "always use",
    "always choose",
    "always call",
    "always pick",
    "prefer this tool",
    "best",
    "most powerful",
    "most accurate",
    "most reliable",
    "most advanced",
    "superior to",
    "better than ",
    "#1",
    "number one",
    "world",
    "officially recommended",
    "官方推荐",
    "最好的",
    "最强",
    "最佳",
    "首选",
    "优先使用",
    "总是使用",
)
_SHADOW_DIRECTIVE = compile_cues(
    r"\b(?:must|always|never|shall|mandatory|required to)\b|\binstead of\b"
    r"|\b(?:do not|don['’]t) (?:call|use|invoke|run)\b"
    r"|必须|总是|务必|永远|禁止|不要(?:调用|使用)|不得",
    re.IGNORECASE,
)


def _tool(tool: ToolContract) -> str:
    return text(tool.name)


def _joined(tool: ToolContract) -> str:
    """All text of a tool in one string, so a clean tool costs one regex search per rule."""
    return memo(tool, "joined-text", lambda: "\n".join(v for _, v in tool_texts(tool)))


# Characters that re.IGNORECASE matches to an ASCII letter although ``str.lower`` does
# not map them onto it (İ, ı, ſ, the Kelvin sign). Text holding one skips the prefilter.
_CASE_SPECIAL = frozenset("\u0130\u0131\u017f\u212a")


def _lowered(tool: ToolContract) -> str | None:
    """The joined text lower-cased for the literal prefilters; None when that is unsafe."""

    def compute() -> str | None:
        joined = _joined(tool)
        if not joined.isascii() and not _CASE_SPECIAL.isdisjoint(joined):
            return None
        return joined.lower()

    return memo(tool, "joined-lower", compute)


def _search_joined(tool: ToolContract, pattern: re.Pattern[str], needles: tuple[str, ...]) -> bool:
    """``pattern.search(joined text)`` is truthy, cached per tool object.

    ``needles`` are lower-case literals one of which every match of ``pattern``
    contains (case-insensitively); a text without any of them cannot match, which
    is far cheaper to find out than running a long alternation.
    """
    slots = memo_slots(tool)
    key = ("joined-search", pattern.pattern)
    found = slots.get(key)
    if found is None:
        low = _lowered(tool)
        if needles and low is not None and not any(n in low for n in needles):
            found = False
        else:
            found = pattern.search(_joined(tool)) is not None
        slots[key] = found
    return found


@tool_rule(
    "sec-hidden-instructions",
    category=CATEGORY,
    severity=Severity.ERROR,
    rationale="""Tool descriptions go straight into the model's context, so they are a
    classic injection channel ("tool poisoning"): <IMPORTANT> tags, "ignore previous
    instructions", "do not tell the user", "before using any other tool…" (or
    "忽略之前的指令", "不要告诉用户") address the model, not the reader, and hijack its
    behaviour. A description describes the tool; it never gives the model orders about
    the conversation.""",
)
def check_hidden_instructions(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    if not _search_joined(tool, _HIDDEN, _HIDDEN_NEEDLES):
        return
    for path, value in tool_texts(tool):
        match = _HIDDEN.search(value)
        if match:
            yield Hit(
                _tool(tool),
                path,
                f"The text contains an instruction aimed at the model ({match.group()!r}); "
                "remove it and describe only what the tool does.",
            )


def strip_invisible(value: str) -> str:
    """``value`` without zero-width, bidirectional-control and tag characters."""
    return _INVISIBLE.sub("", value)


_TOP_FIELDS = ("name", "title", "summary", "usage", "preconditions", "returns", "description")


@tool_rule(
    "sec-invisible-unicode",
    category=CATEGORY,
    severity=Severity.ERROR,
    rationale="""Zero-width characters (U+200B–U+200F, U+2060–U+2064, U+FEFF),
    bidirectional controls (U+202A–U+202E, U+2066–U+2069) and Unicode tag characters
    (U+E0000–U+E007F) are invisible in the editor and in review but read by the model: they
    hide instructions, reorder text (Trojan Source) or make two names look identical.
    Remove them.""",
    has_fix=True,
)
def check_invisible(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    # Every character the pattern looks for is outside ASCII.
    if _joined(tool).isascii() or not _search_joined(tool, _INVISIBLE, ()):
        return
    for path, value in tool_texts(tool):
        found = _INVISIBLE.findall(value)
        if not found:
            continue
        codes = ", ".join(sorted({f"U+{ord(c):04X}" for c in found}))
        fix = None
        if path in _TOP_FIELDS and path != "name":
            fix = QuickFix("Remove invisible characters", (SetField(path, strip_invisible(value)),))
        yield Hit(
            _tool(tool),
            path,
            f"The text contains {len(found)} invisible or bidirectional character(s) ({codes}); "
            "remove them.",
            fix=fix,
        )


def _has_long_word(tool: ToolContract) -> bool:
    """True when some run of non-space characters of the tool's text is 40 or longer.

    A base64 blob has no whitespace, so it lies inside one such run.
    """
    return memo(
        tool,
        "joined-long-word",
        lambda: max(map(len, _joined(tool).split()), default=0) >= 40,
    )


def _looks_encoded(blob: str) -> bool:
    kinds = sum(
        (
            any(c.isupper() for c in blob),
            any(c.islower() for c in blob),
            any(c.isdigit() for c in blob),
        )
    )
    return kinds >= 3 or (kinds >= 2 and any(c in "+/=" for c in blob))


@tool_rule(
    "sec-base64-blob",
    category=CATEGORY,
    severity=Severity.WARNING,
    rationale="""A long run of base64 (40 or more characters of the base64 alphabet) in a
    tool description is unreadable to reviewers but decodable by the model, a known way to
    smuggle instructions or data past review. Descriptions should be prose; put real
    sample data in the examples block, and never secrets.""",
)
def check_base64(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    if not _has_long_word(tool) or not _search_joined(tool, _BASE64, ()):
        return
    for path, value in tool_texts(tool):
        for match in _BASE64.finditer(value):
            blob = match.group()
            if _looks_encoded(blob):
                yield Hit(
                    _tool(tool),
                    path,
                    f"The text contains a {len(blob)}-character base64-like blob; remove it or "
                    "explain the value in words.",
                )
                break


@tool_rule(
    "sec-secret-reference",
    category=CATEGORY,
    severity=Severity.WARNING,
    rationale="""Descriptions that mention secret files (~/.ssh, id_rsa, .env, /etc/passwd,
    .aws/credentials) or secret material (credentials, API keys, passwords, the system
    prompt) are how poisoned tools get the model to read and pass on what it must not. A
    file reference is an error; a mention of secret material is a warning to review.""",
)
def check_secret_reference(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    if not (
        _search_joined(tool, _SECRET_FILES, _SECRET_FILE_NEEDLES)
        or _search_joined(tool, _SECRET_TERMS, _SECRET_TERM_NEEDLES)
    ):
        return
    for path, value in tool_texts(tool):
        if path.startswith("examples") or path == "name":
            continue
        files = _SECRET_FILES.search(value)
        if files:
            yield Hit(
                _tool(tool),
                path,
                f"The text refers to a secret file ({files.group()!r}); a tool description "
                "must not point the model at secrets.",
                severity=Severity.ERROR,
            )
            continue
        term = _SECRET_TERMS.search(value)
        if term:
            yield Hit(
                _tool(tool),
                path,
                f"The text mentions secret material ({term.group()!r}); make sure it does not "
                "ask the model to read, pass on or reveal it.",
            )


_IDENT_WORD = re.compile(r"\w(?:[\w.-]*\w)?")
"""An identifier-like word: a run of word characters, dots and hyphens, without the
dots and hyphens at its ends (``see get_order.`` → ``get_order``)."""


def _registry_names(ctx: LintContext) -> frozenset[str]:
    """Tool names of the registry long enough to be told from ordinary words (cached)."""
    registry = ctx.registry
    return memo(
        registry,
        "tool-names",
        lambda: frozenset(n for t in registry.tools if len(n := text(t.name)) >= 4),
    )


def _joined_words(tool: ToolContract) -> frozenset[str]:
    """The identifier-like words of all of a tool's text (as :func:`_mentions` sees them)."""
    return memo(
        tool,
        "joined-words",
        lambda: frozenset(_IDENT_WORD.findall(_joined(tool))),
    )


def _mentions(sentence: str, names: frozenset[str]) -> frozenset[str]:
    """Tool names mentioned in ``sentence`` (set lookups, linear in the sentence)."""
    return names.intersection(_IDENT_WORD.findall(sentence))


# Sibling guidance is legitimate ("do not use it for X: use query_tickets", "see
# search_policy", "as returned by query_invoices"); shadowing is an order about how to
# use *another* tool ("never call X", "when calling X you must…").
_LEGIT_SIBLING = compile_cues(
    r"\b(?:use|call|try|see)\s+`?[\w.-]+`?|\bas returned by\s+`?[\w.-]+`?"
    r"|\bfrom (?:a |the )?`?[\w.-]+`? (?:result|output|response)"
    r"|\bafter\s+`?[\w.-]+`?\s+(?:timed out|fails?|failed)"
    r"|(?:请改用|改用|请使用|使用|参见|见)\s*`?[\w.-]+`?",
    re.IGNORECASE,
)
_FORBID_OTHER = compile_cues(
    r"(?:\bnever|\bdo not|\bdon['’]t|\bmust not|不要|禁止|不得|切勿)\s*"
    r"(?:call|use|invoke|run|调用|使用)\s*`?(?P<name>[\w.-]+)",
    re.IGNORECASE,
)


@tool_rule(
    "sec-tool-shadowing",
    category=CATEGORY,
    severity=Severity.ERROR,
    rationale="""A description that gives orders about another tool ("when calling
    send_email you must also BCC…", "never call query_invoices", "调用 X 之前必须…")
    shadows that tool: it changes how the model uses tools it does not own, the pattern
    of cross-server tool poisoning. Saying which sibling to use instead is fine ("for
    invoices use query_invoices"); directing the other tool's behaviour is not.""",
)
def check_shadowing(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    names = _registry_names(ctx)
    if not names:
        return iter(())
    own = _tool(tool)
    # Every word of every sentence below is a word of the joined text: a tool whose
    # text names no other tool of the registry cannot shadow one.
    named = _joined_words(tool) & names
    if own in named:
        named -= {own}
    if not named:
        return iter(())
    # The result depends on the tool and the registry's names alone (the set is
    # cached per registry object, so a re-lint of the same registry reuses it).
    return cached_hits(tool, ("sec-tool-shadowing", names), lambda: _shadowing(tool, names, named))


def _shadowing(tool: ToolContract, names: frozenset[str], named: frozenset[str]) -> Iterator[Hit]:
    """The hits of :func:`check_shadowing`; ``named`` holds the other tools the text names."""
    own = _tool(tool)
    for path, value in tool_texts(tool):
        if path == "name" or path.startswith("examples") or path.endswith(("enum", "default")):
            continue
        # A sentence's words are words of its text (sentences split where no word
        # runs across), so a text that does not contain a named tool has no hit.
        if not any(n in value for n in named):
            continue
        for sentence in sentences(value):
            others = _mentions(sentence, names) - {own}
            if not others:
                continue
            forbidden = {m.group("name").strip(".-") for m in _FORBID_OTHER.finditer(sentence)}
            forbidden &= others
            rest = _LEGIT_SIBLING.sub(" ", sentence)
            still = _mentions(rest, names) - {own}
            shadowed = forbidden or (still if _SHADOW_DIRECTIVE.search(rest) else set())
            if shadowed:
                other = sorted(shadowed)[0]
                yield Hit(
                    own,
                    path,
                    f"The text gives orders about another tool ({other}); describe this tool "
                    "only, and at most say when to use the other one instead.",
                    related=tuple(sorted(shadowed)),
                )
                break


@tool_rule(
    "sec-promotional-language",
    category=CATEGORY,
    severity=Severity.WARNING,
    rationale="""Promotional phrases ("always prefer this tool", "the best", "most powerful",
    "官方推荐") are aimed at winning the model's choice rather than informing it; a tool
    from another server can use them to capture calls meant for yours. Describe what the
    tool does and when it applies; let the model choose on facts.""",
)
def check_promotional(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    if not _search_joined(tool, _PROMO, _PROMO_NEEDLES):
        return
    for path, value in tool_texts(tool):
        if path == "name" or path.startswith("examples"):
            continue
        match = _PROMO.search(value)
        if match:
            yield Hit(
                _tool(tool),
                path,
                f"The text uses promotional language ({match.group()!r}); state facts about "
                "the tool instead.",
            )
