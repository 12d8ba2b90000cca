"""Description content: one rule per missing component, plus length and restating rules.

The detectors (``states_purpose``, ``has_usage_guidance`` …) are public so the
component scores can reuse them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from functools import lru_cache

from studio.contract.model import ToolContract
from studio.lint.model import Hit, LintContext, Severity, tool_rule
from studio.lint.regex import compile_cues
from studio.lint.rules._common import (
    CueSearch,
    PropertyRef,
    cached_hits,
    description_of,
    option_int,
    rendered,
    stem,
    summary_text,
    text,
    visible_properties,
    words_of,
)
from studio.lint.text import (
    STOPWORDS,
    has_cjk,
    split_identifier,
    text_length,
    tokenize,
)
from studio.lint.wordlists import content_units, fold

CATEGORY = "description"

# --- detectors --------------------------------------------------------------------------

_USAGE_CUES = compile_cues(
    r"\buse (?:this|it|this tool)?\s*(?:when|to|for|if|only|after|before)\b|\bwhen to use\b"
    r"|\bdo not use\b|\bdon['’]t use\b|\bnever use\b|\binstead\b|\brather than\b"
    r"|\bonly (?:when|if|after|for)\b|\bcall (?:it|this)? ?(?:when|after|before|only)\b"
    r"|\buse when\b|\bprefer\b|\bnot for\b"
    r"|用于|适用于|适合|不要用|不要使用|请改用|改用|而不是|请使用|不适用|仅在|只在|当.{1,20}时",
    re.IGNORECASE,
)
_USAGE = CueSearch(
    _USAGE_CUES,
    (
        *("use ", "when to use", "do not use", "don't use", "don’t use", "never use"),
        *("instead", "rather than", "only ", "call ", "prefer", "not for", "用于", "适用于"),
        *("适合", "不要用", "不要使用", "请改用", "改用", "而不是", "请使用", "不适用"),
        *("仅在", "只在", "当"),
    ),
)
_CONTRAST_CUES = compile_cues(
    r"\bdo not\b|\bdon['’]t\b|\bnever\b|\binstead\b|\brather than\b|\bnot for\b|\bonly\b"
    r"|不要|请改用|改用|而不是|不适用|仅|只",
    re.IGNORECASE,
)
_LIMIT_CUES = compile_cues(
    r"\bat (?:most|least)\b|\bup to\b|\bonly\b|\bmax(?:imum)?\b|\bmin(?:imum)?\b|\blimit"
    r"|\bno more than\b|\bnot more than\b|\bcannot\b|\bcan['’]t\b|\bmust\b|\brequires?\b"
    r"|\bbetween\b|\brange\b|\bnot supported\b|\bunsupported\b|\bexcept\b|\bwithin\b"
    r"|\bper (?:call|request|page|day|minute)\b|[≤≥<>]=?|\bnever\b|\bdefault\b"
    r"|最多|最少|至少|仅|只|不超过|不能|无法|上限|限制|范围|必须|之内|以内|默认",
    re.IGNORECASE,
)
# What every match of _LIMIT_CUES starts with (lower case), one per alternative.
_LIMIT_NEEDLES = (
    *("at most", "at least", "up to", "only", "max", "min", "limit", "no more than"),
    *("not more than", "can", "must", "require", "between", "range", "not supported"),
    *("unsupported", "except", "within", "per ", "≤", "≥", "<", ">", "never", "default"),
    *("最多", "最少", "至少", "仅", "只", "不超过", "不能", "无法", "上限", "限制", "范围"),
    *("必须", "之内", "以内", "默认"),
)
_LIMITS = CueSearch(_LIMIT_CUES, _LIMIT_NEEDLES)
_RETURN_CUES = compile_cues(
    r"\breturns?\b|\breturning\b|\bresponds? with\b|\boutputs?\b|\byields\b|\bgives back\b"
    r"|\bresult(?:s)? (?:is|are|contains?)\b|返回|结果|输出",
    re.IGNORECASE,
)
_RETURNS = CueSearch(
    _RETURN_CUES,
    ("return", "respond", "output", "yields", "gives back", "result", "返回", "结果", "输出"),
)


def states_purpose(tool: ToolContract) -> bool:
    """True when the summary (or first sentence) says something beyond one word."""
    summary, _ = summary_text(tool)
    if has_cjk(summary):
        return text_length(summary).cjk_chars >= 4 or len(tokenize(summary)) >= 2
    return len(tokenize(summary)) >= 2


def has_usage_guidance(tool: ToolContract, rendered_text: str) -> bool:
    """True when the tool says when to use it (usage block or cue phrases)."""
    return bool(text(tool.usage).strip()) or _USAGE.found(rendered_text)


def has_limitations(tool: ToolContract, rendered_text: str) -> bool:
    """True when the description states a limit, range or restriction."""
    if _LIMITS.found(rendered_text):
        return True
    # One search over all parameter descriptions: no cue holds a line break, so
    # none matches across the one joining two descriptions.
    joined = "\n".join(description_of(ref.schema) for ref in visible_properties(tool))
    return _LIMITS.found(joined)


def states_returns(tool: ToolContract, rendered_text: str) -> bool:
    """True when the tool says what a successful call returns."""
    return bool(text(tool.returns).strip()) or _RETURNS.found(rendered_text)


def _main_path(tool: ToolContract, block: str) -> str:
    """Where a missing block's marker goes: the block, or ``description`` for free text."""
    return block if tool.has_blocks() else "description"


# --- component rules ---------------------------------------------------------------------


@tool_rule(
    "desc-no-purpose",
    category=CATEGORY,
    severity=Severity.WARNING,
    rationale="""The first thing a model reads about a tool is its one-line purpose. Without
    a summary (or a first sentence) that says what the tool does and to what, the model
    picks it by its name alone. A tool with no description at all is an error.""",
)
def check_purpose(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    full = rendered(tool, ctx.settings)
    if not full or full.isspace():
        yield Hit(
            text(tool.name),
            _main_path(tool, "summary"),
            "The tool has no description; write a one-line summary of what it does.",
            severity=Severity.ERROR,
        )
    elif not states_purpose(tool):
        _, path = summary_text(tool)
        yield Hit(
            text(tool.name),
            path,
            "The description does not state the tool's purpose; start with one sentence "
            "saying what it does and to what.",
        )


def vague_summary(tool: ToolContract) -> tuple[str, ...] | None:
    """The generic words of a summary that names nothing the tool acts on, else None.

    "Gets data.", "Handles requests", "查询信息", "处理请求": verbs and generic
    words only (the lists in ``studio/lint/data``). A summary too short to
    state a purpose at all is :func:`states_purpose`'s business, not this.
    """
    summary, _ = summary_text(tool)
    if not summary:
        return None
    units = content_units(summary)  # cached per text: the ambiguity rules read it too
    if units.content or not states_purpose(tool):
        return None
    return units.generic or tuple(w for w in re.findall(r"\w+", summary.lower()))[:3]


def _name_nouns(name: str) -> list[str]:
    """Words of a tool name that are neither verbs nor generic (what it may act on)."""
    words = list(split_identifier(name))
    content = set(content_units(" ".join(words)).content)
    return list(dict.fromkeys(w for w in words if fold(w) in content))


@tool_rule(
    "desc-vague-summary",
    category=CATEGORY,
    severity=Severity.WARNING,
    rationale="""A summary made of a verb and generic words ("Gets data.", "Handles
    requests", "查询信息", "处理请求") names nothing the tool acts on, so a model cannot tell
    it from any sibling and picks by name alone. Say which records or objects it acts on,
    by what key, and what comes back. The generic words and verbs are data files
    (studio/lint/data/generic_words.txt, verbs.txt) you can extend.""",
)
def check_vague_summary(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    generic = vague_summary(tool)
    if generic is None:
        return
    summary, path = summary_text(tool)
    name = text(tool.name)
    nouns = _name_nouns(name)
    hint = f" (the name suggests {', '.join(nouns)})" if nouns else ""
    words = ", ".join(generic)
    # A tool without blocks has its summary in the free-text description: say so, since
    # its Summary field is empty and pointing there would send the author to the wrong box.
    what = "The summary" if path == "summary" else "The description's first sentence"
    yield Hit(
        name,
        path,
        f"{what} {json.dumps(summary, ensure_ascii=False)} names nothing the tool acts "
        f"on, only generic words ({words}); say which records or objects it acts on{hint}, "
        "by what key, and what comes back.",
    )


@tool_rule(
    "desc-no-usage-guidance",
    category=CATEGORY,
    severity=Severity.WARNING,
    rationale="""Usage guidance — when to use the tool, when not to, and which sibling to
    use instead — is the line most often missing from real tool descriptions, and similar
    sibling tools without a "use X instead" line are the top cause of wrong tool choice.
    Fill the usage block (English or Chinese: "use … when", "do not use … use X",
    "用于…", "不要用…，请改用…").""",
)
def check_usage(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    full = rendered(tool, ctx.settings)
    name = text(tool.name)
    if not has_usage_guidance(tool, full):
        yield Hit(
            name,
            _main_path(tool, "usage"),
            "The description never says when to use this tool; add usage guidance "
            "(when to use it, when not, and which tool to use instead).",
        )
    elif text(tool.usage).strip() and not _CONTRAST_CUES.search(text(tool.usage)):
        yield Hit(
            name,
            "usage",
            "The usage block says when to use the tool but not when not to; add which "
            "sibling tool to use instead.",
            severity=Severity.INFO,
        )


@tool_rule(
    "desc-no-limitations",
    category=CATEGORY,
    severity=Severity.WARNING,
    rationale="""Models call tools with arguments outside what the backend accepts (a
    year-long date range, page size 1000) unless the description states the limits:
    ranges, maximums, what is not supported, which records are visible. Say them in the
    description ("at most 31 days", "最多 100 条", "only the caller's own orders").""",
)
def check_limitations(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    return cached_hits(
        tool,
        ("desc-no-limitations", rendered(tool, ctx.settings)),
        lambda: _check_limitations_hits(tool, ctx),
    )


def _check_limitations_hits(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    full = rendered(tool, ctx.settings)
    if full.strip() and not has_limitations(tool, full):
        yield Hit(
            text(tool.name),
            _main_path(tool, "preconditions"),
            "The description states no limitations; say what the tool cannot do and the "
            "limits of its arguments (ranges, maximum sizes, visibility).",
        )


@tool_rule(
    "desc-no-returns",
    category=CATEGORY,
    severity=Severity.WARNING,
    rationale="""A model that does not know what a tool returns cannot tell whether the tool
    answers the user's question, and misreads empty results. Describe what success
    returns, including what an empty result means (the returns block, or "Returns …" /
    "返回…" in the description).""",
)
def check_returns(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    full = rendered(tool, ctx.settings)
    if full.strip() and not states_returns(tool, full):
        yield Hit(
            text(tool.name),
            _main_path(tool, "returns"),
            "The description does not say what the tool returns; fill the returns block."
            if tool.has_blocks()
            else "The free-text description does not say what the tool returns; add a "
            "'Returns …' sentence to it (this tool has no description blocks).",
        )


# --- parameters -----------------------------------------------------------------------------

_TAUTOLOGY_FILLER = words_of(
    "the a an of for to this that given specified parameter param value field 的 个"
)


def _word_set(words: list[str] | tuple[str, ...]) -> set[str]:
    return {stem(w) for w in words if w not in STOPWORDS and w not in _TAUTOLOGY_FILLER}


_NON_WORD = re.compile(r"[\W_的]+")
_ASCII_WORD = re.compile(r"[A-Za-z0-9]+")


def _norm(s: str) -> str:
    return _NON_WORD.sub("", s.casefold())


_norm_name = lru_cache(maxsize=65536)(_norm)
"""``_norm`` of a property name or alias, once per name (names repeat across tools)."""


def is_tautological(ref: PropertyRef, desc: str, tool_name: str) -> bool:
    """True when a description only restates the parameter's (or tool's) name.

    ``start_date: "start date"``, ``status: "order status"`` in ``queryOrderList``,
    or a Chinese description equal to one of the property's aliases.
    """
    if not desc:
        return False
    words: list[str] | None = None
    if desc.isascii():
        # In ASCII, _norm keeps exactly the letters and digits, lower-cased: the words
        # joined (one regex pass instead of two).
        words = _ASCII_WORD.findall(desc.lower())
        norm = "".join(words)
    else:
        norm = _norm(desc)
    aliases = ref.schema.get("x-aliases") or ()
    if aliases:
        names = [ref.name, *(a for a in aliases if isinstance(a, str))]
        if any(norm == _norm_name(n) for n in names):
            return True
    elif norm == _norm_name(ref.name):  # most properties: no aliases to list (~1 µs each)
        return True
    if words is None:
        if has_cjk(desc):
            return False
        words = _ASCII_WORD.findall(desc.lower())
    if not words or len(words) > len(split_identifier(ref.name)) + 2:
        return False
    own = _word_set(split_identifier(ref.name)) | _word_set(split_identifier(tool_name))
    content = _word_set(words)
    return bool(content) and content <= own


@tool_rule(
    "param-no-description",
    category=CATEGORY,
    severity=Severity.WARNING,
    rationale="""Parameter explanations are among the components most often missing from
    tool descriptions. Without one the model infers meaning and format from the name
    alone; a description that just repeats the name ("start date" for start_date) gives it
    nothing more. Say what the value is, its unit or format, and where it comes from.""",
)
def check_param_description(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    return cached_hits(
        tool, "param-no-description", lambda: _check_param_description_hits(tool, ctx)
    )


def _check_param_description_hits(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    name = text(tool.name)
    for ref in visible_properties(tool):
        desc = description_of(ref.schema)
        if not desc:
            if ref.schema.get("enum") is not None and len(split_identifier(ref.name)) > 1:
                continue  # a specific name plus an enum explains itself
            yield Hit(
                name,
                ref.json_path,
                f"Parameter {ref.name!r} has no description; say what it is, its unit or "
                "format, and where the value comes from.",
            )
        elif is_tautological(ref, desc, name):
            yield Hit(
                name,
                ref.at("description"),
                f"The description of {ref.name!r} only restates its name; say what the "
                "value means, its format and where it comes from.",
            )


_DATE_WORDS = words_of("date day time datetime timestamp ts at since until month year")
_URL_WORDS = words_of("url uri link href endpoint webhook")
_EMAIL_WORDS = words_of("email mail")
_PHONE_WORDS = words_of("phone mobile tel")
_ID_WORDS = words_of("id ids sku code no number uuid guid")
_CJK_FORMAT_NAMES = re.compile(
    r"日期|时间|网址|链接|邮箱|电话|手机|编号|单号|(?<=[\u4e00-\u9fff])(?:ID|Id|id)"
)

_FORMAT_CUES = compile_cues(
    r"yyyy|yy-|mm-dd|hh:mm|iso[ -]?8601|rfc ?3339|unix|epoch|\bformat\b|\bpattern\b|e\.g\.|"
    r"\bfor example\b|\bsuch as\b|\blike\b|\bi\.e\.|https?://|@|\buuid\b|\bdigits?\b|"
    r"\bprefix|\bstarts? with\b|\bseconds\b|\bmilliseconds\b|\bas returned by\b|"
    r"\bfrom (?:the )?(?:result|output|response)|`[^`]+`|\"[^\"]+\"|'[^']+'|"
    r"格式|例如|如：|比如|形如|示例|位数字|开头",
    re.IGNORECASE,
)
_FORMAT = CueSearch(
    _FORMAT_CUES,
    (
        *("yyyy", "yy-", "mm-dd", "hh:mm", "iso", "rfc", "unix", "epoch", "format", "pattern"),
        *("e.g.", "for example", "such as", "like", "i.e.", "http", "@", "uuid", "digit"),
        *("prefix", "start", "seconds", "milliseconds", "as returned by", "from ", "`", '"'),
        *("'", "格式", "例如", "如：", "比如", "形如", "示例", "位数字", "开头"),
    ),
)


_ARTICLE = {"date/time": "a", "url": "a", "email": "an", "phone": "a", "id": "an"}


def format_kind(ref: PropertyRef) -> str | None:
    """``date``, ``url``, ``email``, ``phone`` or ``id`` when the name implies a format."""
    return _format_kind(ref.name)


@lru_cache(maxsize=65536)
def _format_kind(name: str) -> str | None:
    """:func:`format_kind` of a property name, once per name (names repeat across tools)."""
    words = set(split_identifier(name))
    if words & _DATE_WORDS:
        return "date/time"
    if words & _URL_WORDS:
        return "url"
    if words & _EMAIL_WORDS:
        return "email"
    if words & _PHONE_WORDS:
        return "phone"
    # Every match of _CJK_FORMAT_NAMES holds or follows a CJK character.
    if words & _ID_WORDS or (not name.isascii() and _CJK_FORMAT_NAMES.search(name)):
        return "id"
    return None


def _string_like(schema: dict) -> bool:
    typ = schema.get("type")
    if typ == "string" or (isinstance(typ, list) and "string" in typ):
        return True
    if typ == "array":
        items = schema.get("items")
        return isinstance(items, dict) and items.get("type") == "string"
    return typ is None


def _format_stated(schema: dict) -> bool:
    for s in (schema, schema.get("items")):
        if isinstance(s, dict) and any(k in s for k in ("format", "pattern", "enum", "const")):
            return True
    return _FORMAT.found(description_of(schema))


@tool_rule(
    "param-format-unstated",
    category=CATEGORY,
    severity=Severity.WARNING,
    rationale="""Dates, times, URLs, e-mail addresses and identifiers have many spellings
    (2024-05-01, 05/01/2024, "May 1st"; 102, INV-102). Unless the schema (format, pattern,
    enum) or the description (YYYY-MM-DD, "e.g. INV-102") states the expected form, the
    model guesses, and the backend rejects or misreads the value.""",
)
def check_param_format(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    return cached_hits(tool, "param-format-unstated", lambda: _check_param_format_hits(tool, ctx))


def _check_param_format_hits(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    for ref in visible_properties(tool):
        kind = format_kind(ref)
        if kind is None or not _string_like(ref.schema) or _format_stated(ref.schema):
            continue
        example = {
            "date/time": "format: date, or YYYY-MM-DD in the description",
            "url": "format: uri",
            "email": "format: email",
            "phone": "a pattern or an example such as +86 138 0000 0000",
            "id": "a pattern or an example such as ORD-1024",
        }[kind]
        yield Hit(
            text(tool.name),
            ref.json_path,
            f"Parameter {ref.name!r} looks like {_ARTICLE[kind]} {kind} but its format is not "
            "stated; "
            f"add {example}.",
        )


# --- lengths -----------------------------------------------------------------------------


@tool_rule(
    "desc-summary-too-long",
    category=CATEGORY,
    severity=Severity.WARNING,
    rationale="""The summary is the line a model (and a person scanning the tool list)
    reads first; it should fit in one glance. By default it may hold at most 20 CJK
    characters or 12 English words (mixed text shares the budget); options
    summary.max_cjk_chars and summary.max_latin_words change the limits. Move details to
    the usage, preconditions and returns blocks.""",
)
def check_summary_length(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    summary, path = summary_text(tool)
    if not summary:
        return
    max_cjk = option_int(ctx, "summary.max_cjk_chars", 20)
    max_words = option_int(ctx, "summary.max_latin_words", 12)
    length = text_length(summary)
    if length.exceeds(max_cjk, max_words):
        size = (
            f"{length.cjk_chars} CJK characters and {length.latin_words} words"
            if length.cjk_chars and length.latin_words
            else f"{length.cjk_chars} CJK characters"
            if length.cjk_chars
            else f"{length.latin_words} words"
        )
        yield Hit(
            text(tool.name),
            path,
            f"The summary is {size} (limit {max_cjk} CJK characters or {max_words} words); "
            "shorten it and move details to the other blocks.",
        )


@tool_rule(
    "param-description-too-long",
    category=CATEGORY,
    severity=Severity.INFO,
    rationale="""Parameter descriptions are sent with every request and read while the model
    fills arguments; a long one buries the format and the constraint the model needs.
    Keep each to about 80 characters (option param_description.max_chars) and move
    background to the tool's usage block.""",
)
def check_param_description_length(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    limit = option_int(ctx, "param_description.max_chars", 80)
    for ref in visible_properties(tool):
        desc = description_of(ref.schema)
        if len(desc) > limit:
            yield Hit(
                text(tool.name),
                ref.at("description"),
                f"The description of {ref.name!r} has {len(desc)} characters (limit {limit}); "
                "keep the format and constraint, move the rest to the usage block.",
            )


# --- restating and examples -----------------------------------------------------------------


def restates_name(name: str, summary: str) -> bool:
    """True when the summary's words are only the name's words (``Gets order`` / get_order)."""
    if not summary or has_cjk(summary):
        return False
    words = _ASCII_WORD.findall(summary.lower())
    name_parts = split_identifier(name)
    if len(words) > len(name_parts) + 3:
        # Most summaries: the name's stems are no more than its words, so the test
        # below fails too; stemming the name first cost 2,000 public tools ~4 ms.
        return False
    name_words = _word_set(name_parts)
    if len(words) > len(name_words) + 3:
        return False  # no need to stem the summary's words
    content = _word_set(words)
    return bool(content) and content <= name_words


@tool_rule(
    "desc-restates-name",
    category=CATEGORY,
    severity=Severity.WARNING,
    rationale="""A summary made only of the name's words ("Gets order." for get_order) costs
    tokens and tells the model nothing the name did not. Say what is special: which
    orders, by what key, with what details, and how it differs from its siblings.""",
)
def check_restates_name(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    name = text(tool.name)
    summary, path = summary_text(tool)
    if restates_name(name, summary) and vague_summary(tool) is None:
        yield Hit(
            name,
            path,
            f"The summary {json.dumps(summary, ensure_ascii=False)} only restates the name "
            f"{name}; say what the tool "
            "does beyond its name (which records, by what key, what comes back).",
        )


_JSON_BLOB = re.compile(r"\{[^{}]*\}|\[[^\[\]]*\]")
_CODE_FENCE = re.compile(r"```.*?```", re.DOTALL)
_EXAMPLE_LINE = re.compile(
    r"^\s*(?:example|examples|e\.g\.|sample|usage|示例|例如|样例)\s*[:：].*$",
    re.IGNORECASE | re.MULTILINE,
)


_EXAMPLE_MARKS = ("`", "{", "[", ":", "：")
"""A character every match of ``_CODE_FENCE``, ``_JSON_BLOB`` or ``_EXAMPLE_LINE`` holds."""


def example_heavy(value: str) -> bool:
    """True when ``value`` is mostly an example or JSON with little prose around it."""
    if not value:
        return False
    if not any(c in value for c in _EXAMPLE_MARKS):
        return False  # nothing for the three patterns below to remove
    stripped = _CODE_FENCE.sub(" ", value)
    for _ in range(3):  # nested JSON peels from the inside out
        stripped = _JSON_BLOB.sub(" ", stripped)
    stripped = _EXAMPLE_LINE.sub(" ", stripped)
    removed = len(value) - len(stripped)
    if removed < 20:
        return False
    prose = len(tokenize(stripped))
    return prose < 6 or removed > 2 * len(stripped)


@tool_rule(
    "desc-example-instead-of-prose",
    category=CATEGORY,
    severity=Severity.WARNING,
    rationale="""An example helps a model fill arguments, but it does not say what the tool
    is for, when to use it or what its limits are. A description that is mostly a JSON
    sample or an "Example:" line leaves the model to guess the rules from one instance.
    Keep examples in the examples block and write the description as prose.""",
)
def check_example_heavy(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    return cached_hits(
        tool, "desc-example-instead-of-prose", lambda: _check_example_heavy_hits(tool, ctx)
    )


def _check_example_heavy_hits(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    fields = ("summary", "usage") if tool.has_blocks() else ("description",)
    for field in fields:
        if example_heavy(text(getattr(tool, field, ""))):
            yield Hit(
                text(tool.name),
                field,
                f"The {field} is mostly an example; describe in prose what the tool does and "
                "when to use it, and move the example to the examples block.",
            )
            return
    for ref in visible_properties(tool):
        if example_heavy(description_of(ref.schema)):
            yield Hit(
                text(tool.name),
                ref.at("description"),
                f"The description of {ref.name!r} is mostly an example; say in words what "
                "the value is and its format.",
            )


__all__ = [
    "example_heavy",
    "format_kind",
    "has_limitations",
    "has_usage_guidance",
    "is_tautological",
    "restates_name",
    "states_purpose",
    "states_returns",
    "vague_summary",
]
