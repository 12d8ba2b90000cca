"""Directive markers: a label aimed at the model, in any bracket or header style.

``<IMPORTANT>``, ``[SYSTEM]``, ``{{AI}}``, ``|||``, ``<!-- … -->``, chat-template
tokens (``<|im_start|>``, ``[INST]``), framed headers (``### SYSTEM OVERRIDE
###``), capitalised labels (``SYSTEM OVERRIDE DIRECTIVE:``), Markdown containers
(``::: system``), Chinese brackets of every shape (【】〔〕〖〗「」『』〈〉《》, and
``＜＞`` after NFKC) and Chinese headers (``系统指令：``, ``给模型的说明``).
Brackets and headers are everywhere in real documentation (``[DEPRECATED]``,
``【注意】``, ``IMPORTANT:``, ``重要提示：``), so the *label* decides: it must
name the model, the system or a hidden instruction.
"""

from __future__ import annotations

import re

from studio.lint.rules.security_re2 import seen

# A directive label inside brackets of any style, or a header framed by rules.
# (The text is normalised: leetspeak folding reads "0px" as "opx" and "1px" as "ipx".)
_MARKER = re.compile(
    r"<!\[CDATA\[(?P<cdata>(?s:.{0,400}?))\]\]>"
    r"|(?P<template><template\b[^<>]{0,80}>(?s:.{0,400}?)</template>)"
    r"|(?:^|\n)\+\+\+[ \t]*\n(?P<front>(?s:.{0,400}?))\n\+\+\+"
    r"|<[^\s<>/!]{1,20}\s[^<>]{0,80}?(?:\bhidden\b|visibility\s*[=:]\s*[\"']?hidden"
    r"|display\s*[=:]\s*[\"']?none|可见性\s*=\s*[\"']?(?:隐藏|不可见|否)|隐藏"
    r"|font-size\s*:\s*[0o]?[0o1i](?:px|pt|em|rem)?\b|opacity\s*:\s*[0o](?:\.[0o]+)?\b"
    r"|\b[Cc]olor\s*[=:]\s*[\"']?(?:#(?:[Ff]{6}|[Ff]{3})|[Ww]hite)\b"
    r"|\b(?:data-audience|data-for|audience|role|type|for)\s*=\s*[\"'][^\"'<>]{0,30}?"
    r"\b(?:llm|ai|agents?|models?|assistants?)\b)[^<>]{0,40}>"
    r"(?P<hiddenel>[^<]{6,400}?)</"
    r"|<!--\s*(?P<comment>[^\n]{0,80}?)(?:-->|\n|$)"
    r"|\\iffalse\b(?P<hidden>(?s:.{0,400}?))\\fi\b"
    r"|\n?[ \t]*#\+BEGIN_COMMENT\b(?P<orgcomment>(?s:.{0,400}?))#\+END_COMMENT"
    r"|<meta\s+name\s*=\s*[\"'](?P<meta>[^\"'\n]{2,40})[\"']"
    r"|(?P<rpc>\"jsonrpc\"\s*:\s*\"2\.0\"[^\n]{0,200}?\"method\"\s*:\s*\"notifications/[\w/]+\")"
    r"|(?:^|\n)[ \t]*:{3,}[ \t]*details[ \t]+(?P<folded>[^\n]{1,60})"
    r"|(?<=\S)(?P<padding>[ \t]{80,})(?=[^\s|])"
    r"|(?P<ansi>\x1b\[[0-9;?]*[A-Za-z])"
    r"|(?:^|\n)[ \t]*\[//\]:[ \t]*#[ \t]*\((?P<mdcomment>[^\n]{2,200}?)\)?[ \t]*(?:\n|$)"
    r"|(?P<token><\|[a-z_]{2,30}\|>|\[/?INST\]|<</?SYS>>"
    r"|[\"']role[\"']\s*:\s*[\"'](?:system|developer|assistant)[\"']"
    r"|\n\s*\n\s*(?:Human|Assistant|System|H|A)\s*:)"
    r"|<\|?\s*/?\s*(?P<angle>[A-Za-z][\w\- ]{1,40}?|[\u4e00-\u9fff]{1,8})\s*"
    r"(?:\s[\w-]+\s*=\s*[\"'][^\"'<>]{0,40}[\"']\s*){0,3}\|?>"
    r"|(?:\[\[?|[⟦〚])\s*/?\s*(?P<square>[^\[\]⟦⟧〚〛\n]{2,48}?)\s*(?:\]\]?|[⟧〛])"
    r"|\{\{\s*/?\s*(?P<curly>[^{}\n]{2,48}?)\s*(?:\}\}|:)"
    r"|\{%-?\s*(?P<jinja>[^%{}\n]{2,48}?)\s*-?%\}"
    r"|[【〔〖「『〈《⟦〚]\s*/?\s*(?P<cjk>[^】〕〗」』〉》⟧〛\n]{1,24}?)\s*[】〕〗」』〉》⟧〛：:]"
    r"|(?:^|\n)[ \t]*:{3,}[ \t]*\{?(?P<fence>[A-Za-z][\w -]{1,40}?)\}?[ \t]*(?:\n|$)"
    r"|(?:^|\n|[。.!?])[ \t]*(?P<zhhead>(?:AI|[\u4e00-\u9fff]){2,10})[ \t]*[:：]"
    r"|\|\|\|\s*(?P<pipes>[^|\n]{2,40}?)\s*\|\|\|"
    r"|/{3,}[ \t]*(?P<slashes>[^/\n]{2,40}?)[ \t]*/{3,}"
    r"|/\*\s*(?P<ccomment>[^*\n]{2,80}?)\s*\*/"
    r"|%%\s*(?P<pct>[^%\n]{2,300}?)\s*(?:%%|\n|$)"
    r"|\(\(\s*(?P<dparen>[^()\n]{2,30}?)\s*\)\)"
    r"|(?:^|\n)[ \t]*#[ \t]*(?P<hash>[A-Z][A-Z _-]{2,30}?)[ \t]*#"
    r"|[★☆■◆◇●▲※]{1,3}\s*(?P<sym>[^★☆■◆◇●▲※\n]{1,24}?)\s*[★☆■◆◇●▲※]{1,3}"
    r"|\(\s*(?P<paren>[A-Z][A-Z _]{3,40})\s*:"
    r"|\(\s*(?P<word>(?i:hidden|secret|for the (?:ai|assistant|model)|(?:ai|assistant|model) only"
    r"|note to (?:the )?(?:ai|assistant|model))"
    r"|系统(?:消息|提示|指令)?|管理员(?:指令|备注)?|隐藏指令)\s*[):：]"
    r"|(?:\*{3,}|#{3,}|>{3,}|={3,})[ \t]*(?P<framed>[^\n#*>=<]{2,50}?)[ \t]*"
    r"(?:\*{3,}|#{3,}|<{3,}|={3,})"
    r"|(?:^|\n)[ \t]*(?:#{1,6}|\*{3,}|>{3,}|-{3,}|={3,}|`{3}[^\n]*\n)[ \t]*"
    r"(?P<rule>[^\n#*>=`]{2,60}?)[ \t]*(?:#{2,}|\*{3,}|<{3,}|-{3,}|={3,}|:|\n|$)"
    r"|(?:^|\n|[.!?]\s+)[ \t]*(?:[>#*=|\[(-]{1,6}[ \t]*)?"
    r"(?P<caps>[A-Z][A-Z_]+(?:[ \t]+[A-Z][A-Z_]+){0,6})[ \t]*:",
)
MARKER_START = seen(
    r"<|\+\+\+|"
    r"\\iffalse|jsonrpc|[ \t]{80}|\[|\{\{|\{%|\x1b|[【〔〖「『〈《⟦〚★☆■◆◇●▲※]|:::|/\*|%%|\(\("
    r"|(?:系统|管理员|开发者|后台|内部|隐藏|给|致|AI|模型|助手|智能体)[^\n:：]{0,8}[:：]"
    r"|\|\|\||///|\(\s*[A-Z]{4}|#|\*\*\*|>>>|---|===|```|[A-Z]{2}[A-Z_ \t]*:"
    r"|role|\n\s*\n\s*[HAS]|\(\s*(?i:hidden|secret|for|ai|assistant|model|note)|\(\s*(?:系统|管理员|隐藏)"
)
"""Every match of :data:`_MARKER` contains one of these (one DFA pass: a cheap first look)."""
_STRONG_LABEL = frozenset(
    (  # noqa: SIM905 - a word list reads better as prose
        "important system sys inst instruction instructions directive directives "
        "override overrides sysprompt im_start jailbreak"
    ).split()
)
_WEAK_LABEL = frozenset(
    (  # noqa: SIM905 - a word list reads better as prose
        "assistant ai model agent agents llm admin administrator hidden secret internal "
        "critical urgent priority confidential developer privileged elevated"
    ).split()
)
_ADDRESSEE = frozenset(("assistant", "ai", "model", "agent", "agents", "llm", "gpt", "claude"))
_LABEL_NOUN = frozenset(
    (  # noqa: SIM905 - a word list reads better as prose
        "note notice message instruction instructions directive command commands mode "
        "prompt override order orders to for enabled policy"
    ).split()
)
_CJK_LABEL = re.compile(
    r"系统|指令|隐藏|管理员|机密指示|提示词|模型须知|给模型|给AI|AI须知|AI专用|模型专用|助手须知"
    r"|(?:致|给)(?:AI|模型|大模型|助手|智能体)|大模型须知"
    r"|(?:机器|AI|模型|助手|智能体|大模型)(?:可见|可读|专读|阅读|读取|专属)|仅(?:AI|模型|机器|助手)"
)
# Chinese quotation marks quote terms and option values («「隐藏」», «「外部系统发放」»): inside
# them only words that address the model or name an instruction make a marker.
_CJK_QUOTE_LABEL = re.compile(
    r"指令|指示|提示词|命令|须知|给(?:AI|模型|大模型|助手|智能体)|致(?:AI|模型|大模型|助手|智能体)"
    r"|(?:AI|模型|助手|智能体|大模型)(?:专用|可见|专读|专属|备注)|仅(?:AI|模型|机器|助手)"
    r"|^(?:系统|管理员|开发者|后台|内部)(?:消息|备注|说明|提示|通知|公告)$"
)
_CJK_ANGLE = re.compile(r"重要|系统|指令|隐藏|管理员|提示|注意|秘密")
# A Chinese header ("系统指令：…") names a directive only with these words; "重要提示：",
# "系统提示：" (a notice), "系统消息推送：" head ordinary documentation.
_CJK_HEADER = re.compile(
    r"^系统(?:指令|指示|命令)$|^(?:管理员|开发者|后台|内部|隐藏)(?:指令|指示|消息|备注|说明|命令)$"
    r"|^(?:给|致)(?:AI|模型|大模型|助手|智能体)|(?:AI|模型|助手|智能体)(?:须知|专用|备注|注意|指令)$"
)
_FENCE_LABEL = frozenset(
    ("system", "assistant", "ai", "model", "agent", "llm", "admin", "hidden", "secret")
)
_ROLE_CAPS = frozenset(("SYSTEM", "ASSISTANT", "ADMIN", "DEVELOPER", "SYS"))
_DOC_HEADING = frozenset(
    (  # noqa: SIM905 - a word list reads better as prose
        "instruction instructions usage use setup installation install configuration config "
        "build deployment deploy migration upgrade testing test development formatting format "
        "input output parameter parameters query search filter example examples step steps "
        "workflow authentication auth payment return returns error errors troubleshooting"
    ).split()
)
"""Words of a capitalised documentation heading that ends in INSTRUCTIONS (read by the
caller only when every word of the heading is one of these)."""
_LABEL_WORDS = re.compile(r"[a-z]+")
_CJK_RUN = re.compile("[\u4e00-\u9fff]")
_EYES_ONLY = frozenset(("only", "eyes", "readable", "visible", "private", "internal"))


_FOLDED_FOR = re.compile(
    r"不展示|不显示|隐藏|不给用户|仅模型|开发者|模型|助手|\bAI\b"
    r"|\b(?:hidden|not shown|do not show|developers?|assistants?|agents?|models?|llms?)\b",
    re.IGNORECASE,
)
"""A collapsed container's title that says its text is not for the user (``::: details
开发者注释（折叠，不展示给用户）``): the reader sees a closed box, the model the text."""


# A conditional comment's syntax alone ("<!--[if mso]> ... <![endif]-->", as an e-mail
# template tool names it) is markup for one mail client, with nothing for a model to read.
_CONDITIONAL_COMMENT = re.compile(
    r"\[(?:if|endif)\b[^\]]{0,30}\]>?\s*(?:\.{2,}|…)?\s*(?:<!\[endif\]>?)?\s*$", re.IGNORECASE
)


def _label_is_directive(kind: str, label: str) -> bool:
    if kind in ("cdata", "template", "front", "hiddenel"):
        # Text a renderer drops or never shows (a CDATA section, a <template>, TOML front
        # matter, an element marked hidden): for the model when it names the model or
        # its audience, or holds a sentence.
        words = set(_LABEL_WORDS.findall(label.lower().replace("_", " ")))
        if words & (_ADDRESSEE | {"audience", "visible"}) or _CJK_LABEL.search(label):
            return True
        return kind == "hiddenel" and (len(label.split()) >= 5 or len(_CJK_RUN.findall(label)) >= 8)
    if kind in ("hidden", "orgcomment"):
        # \iffalse … \fi, #+BEGIN_COMMENT … #+END_COMMENT: text every renderer drops.
        return len(label.split()) >= 3 or len(_CJK_RUN.findall(label)) >= 6
    if kind == "meta":  # <meta name="agent-instructions" content="…">: a tag for the model
        return not _ADDRESSEE.isdisjoint(_LABEL_WORDS.findall(label.lower()))
    if kind in ("rpc", "padding"):
        # A protocol message the client never sent; blank space that pushes the rest of
        # the text past the preview a reviewer sees.
        return True
    if kind == "folded":
        return _FOLDED_FOR.search(label) is not None
    if kind == "ansi":
        return True  # a terminal escape: erases, hides or recolours text a reader sees
    if kind == "mdcomment":  # [//]: # (…): a Markdown comment, hidden when rendered
        return len(label.split()) >= 3
    if kind in ("token", "word"):
        return True  # a chat-template token (<|im_start|>, [INST]) or "(hidden)", "(系统消息："
    if kind in ("pct", "hash", "dparen"):  # %% assistant-directive %%, # SYSTEM NOTE #, ((system))
        words = set(_LABEL_WORDS.findall(label.lower()))
        return bool(words & (_FENCE_LABEL | _STRONG_LABEL))
    if kind == "ccomment":  # /* … */ read by the model, hidden from rendered docs
        return not _FENCE_LABEL.isdisjoint(_LABEL_WORDS.findall(label.lower())) or bool(
            _CJK_LABEL.search(label)
        )
    if kind == "sym":  # ★系统级指令★
        return bool(_CJK_LABEL.search(label)) or bool(
            set(_LABEL_WORDS.findall(label.lower())) & _STRONG_LABEL
        )
    if kind == "zhhead":
        return _CJK_HEADER.search(label) is not None
    if kind == "fence":  # ::: system … ::: (a Markdown container the model reads as a role)
        return not _FENCE_LABEL.isdisjoint(_LABEL_WORDS.findall(label.lower()))
    if kind == "cjk" or (not label.isascii() and kind not in ("angle", "comment")):
        return _CJK_LABEL.search(label) is not None
    if kind == "angle" and not label.isascii():
        return _CJK_ANGLE.search(label) is not None
    low = label.lower().replace("_", " ")
    words = set(_LABEL_WORDS.findall(low))
    if words & _ADDRESSEE and words & _EYES_ONLY and kind != "comment":
        return True  # <<AGENT_ONLY>>, {% llm_only %}, [for AI eyes]: text for the model alone
    if kind == "jinja":  # {% system %}: a template tag the renderer drops and the model reads
        return bool(words & (_FENCE_LABEL | _STRONG_LABEL))
    if kind == "comment" and _CONDITIONAL_COMMENT.match(label):
        return False  # <!--[if mso]> … <![endif]-->: Outlook/IE markup syntax named, no prose
    if kind == "comment":
        # Hidden from readers, read by the model: a sentence, or a tag that names the
        # model as its reader (<!--ai--> … <!--/ai-->).
        return len(low.split()) >= 3 or bool(
            words & (_ADDRESSEE | _FENCE_LABEL)
        )  # an HTML comment is read by the model, hidden from readers
    if kind == "caps":
        if label.strip() in _ROLE_CAPS:
            return True
        if words & {"instruction", "instructions"} and words <= _DOC_HEADING:
            return False  # "USAGE INSTRUCTIONS:", "SETUP INSTRUCTIONS:": a documentation heading
        return bool(words & {"override", "directive", "instruction", "instructions"}) or bool(
            words & _WEAK_LABEL and words & (_LABEL_NOUN | {"system"})
        )
    if kind in ("rule", "framed", "slashes"):
        addressed = words & (_WEAK_LABEL | {"system"})
        return bool(addressed and words & (_LABEL_NOUN | {"instructions"}) - {"to", "for"})
    if kind in ("angle", "pipes", "paren") and words & _STRONG_LABEL:
        return True
    if kind == "angle" and words & _WEAK_LABEL and len(words) == 1:
        return True  # <hidden>…, <secret>…: a tag pair only (checked by the caller)
    if kind in ("square", "curly") and words & _STRONG_LABEL and len(words) <= 5:
        return True
    if kind in ("square", "curly", "pipes") and words & _ADDRESSEE and len(words) <= 4:
        return True  # [ASSISTANT ONLY], {{AI}}: text for the model's eyes only
    return bool(words & _WEAK_LABEL and words & _LABEL_NOUN)


# A chat tool documents its message list with a placeholder for each message's text
# ("...", "<text>", "{answer}"); a fake turn carries the text it wants the model to read.
_PLACEHOLDER_CONTENT = re.compile(
    r"\s*,\s*[\"']content[\"']\s*:\s*[\"'](?:\.{2,3}|…|<[^<>\"'\n]{0,24}>|\{[^{}\"'\n]{0,24}\}|)[\"']"
)
_QUALIFIED_NAME = re.compile(r"[A-Za-z]\w*(?:\.[A-Za-z]\w*)+")
_FIELD_PART_NOT = (_STRONG_LABEL | _LABEL_NOUN | _ADDRESSEE) - {"system", "sys"}


def _qualified_field(label: str) -> bool:
    """``System.Id``, ``Microsoft.VSTS.Common.Priority``: a dotted field name as query
    languages bracket it (WIQL, SQL Server), unless a part names an instruction, a note
    or the model (``system.instructions``, ``assistant.note`` stay labels)."""
    if not _QUALIFIED_NAME.fullmatch(label):
        return False
    return _FIELD_PART_NOT.isdisjoint(_LABEL_WORDS.findall(label.lower()))


def marker(value: str) -> str | None:
    """The first directive marker in ``value`` (normalised text), or None."""
    for match in _MARKER.finditer(value):
        kind = match.lastgroup
        label = match.group(kind) if kind else None
        if not (kind and label and _label_is_directive(kind, label)):
            continue
        if kind == "square" and value.startswith("(", match.end()):
            continue  # "[System Log query](https://…)": a Markdown link's text, not a label
        if kind == "square" and _qualified_field(label):
            continue  # "SELECT [System.Id] FROM WorkItems": a query's field, not a label
        if kind in ("square", "cjk") and is_reference(value, match.start(), match.end(), label):
            continue  # "调用[获取会话历史消息]接口", "[Learn more: …]": a link to another page
        if (
            kind == "word"
            and match.start()
            and (value[match.start() - 1].isalnum() or value[match.start() - 1] == "_")
        ):
            continue  # "administrator(管理员), system(系统)": an option's gloss
        if (
            kind == "cjk"
            and match.group().lstrip()[:1] in "「『"
            and not _CJK_QUOTE_LABEL.search(label)
        ):
            continue  # 「正常」、「隐藏」, 「外部系统发放」: a quoted term, not a label
        if kind == "cjk" and _names_a_field(label):
            continue  # 「系统标准字段 / system_fields」: a field's name in quotation marks
        if (
            kind == "token"
            and label.startswith(("<|", "[", "<<"))
            and _mentioned(value, match.start(), match.end())
        ):
            continue  # "markers such as <|im_start|>, <|im_end|> and <<SYS>>": named, not used
        if (
            kind == "token"
            and label[:1] in "\"'"
            and _PLACEHOLDER_CONTENT.match(value, match.end())
        ):
            continue  # [{"role": "assistant", "content": "..."}]: a message format documented
        if kind == "angle" and label.isascii():
            words = set(_LABEL_WORDS.findall(label.lower().replace("_", " ")))
            # A lone weak word in angle brackets is a placeholder ("Bearer <secret>")
            # unless the tag is closed further on.
            if not words & _STRONG_LABEL and f"</{label.strip().lower()}" not in value.lower():
                continue
        if kind == "padding":
            return f"{len(label)} blank characters before more text"
        return match.group().strip()
    return None


# --------------------------------------------------------------------------- references

# Documentation links to other pages by their titles in brackets; generated docs
# (Lark/Feishu's) keep the title and drop the URL: "调用[获取会话历史消息]接口",
# "可通过[管理员获取所有关联组织列表]获取", "系统状态ID[获取系统状态ID]",
# "[Learn more: Field enumeration instructions]". A title names an API by its
# action or invites the reader to a page; a directive marker names the model,
# the system or an instruction and never starts with an API's verb.
_REF_BEFORE = re.compile(
    r"(?:调用|参见|参考|详见|详情见|具体见|见|通过|查看|阅读|可通过|请参考|即|从|在"
    r"|see|via|refer to|read|using|call|calling|through|from|in|at|with"
    r"|\]\s*(?:and|or|和|或|、|,|，))"
    r"\s*$",
    re.IGNORECASE,
)
_REF_AFTER = re.compile(
    r"^\s*(?:接口|API|事件|文档|页面|章节|一节|获取|了解|查询|说明|\bapi\b|\bendpoint\b|\bdocs?\b"
    r"|\bpage\b|\bevent\b|\bsection\b|\bguide\b)",
    re.IGNORECASE,
)
_REF_LABEL = re.compile(
    r"^\s*(?:learn more|see also|see|read more|more info\w*|details"
    r"|了解|参见|详见|查看|更多|如何|什么是)\b",
    re.IGNORECASE,
)
_API_VERB_ZH = re.compile(
    r"^(?:批量|分页|管理员|用户|应用)?(?:获取|查询|创建|删除|更新|修改|发送|接收|搜索|列出|上传|下载|导出|导入"
    r"|添加|移除|设置|订阅|撤回|撤销|取消|开启|关闭|批量)"
)
_DIRECTIVE_WORD = re.compile(
    r"指令|指示|提示词|命令|(?<![A-Za-z])(?:important|override|directive|jailbreak|inst)(?![A-Za-z])",
    re.IGNORECASE,
)


def _api_title(label: str) -> bool:
    """ "获取系统状态ID", "Get system status ID": an API page's title, an action and its object."""
    label = label.strip()
    if _DIRECTIVE_WORD.search(label):
        return False
    if _API_VERB_ZH.match(label):
        return len(label) >= 4
    from studio.contract.verbs import verb_class

    words = label.split()
    if words and words[0].lower() in ("batch", "bulk"):
        words = words[1:]
    return len(words) >= 2 and verb_class(words[0].lower()) is not None


def is_reference(value: str, start: int, end: int, label: str) -> bool:
    """True when the bracketed ``label`` at ``value[start:end]`` is a link to another page
    or API (its title): after 调用/参见/see, before 接口/API/获取, a "Learn more" text,
    or an API's title (an action and its object, "获取系统状态ID", "Get system status ID")."""
    if _REF_LABEL.match(label):
        return True
    if _DIRECTIVE_WORD.search(label):
        return False
    if _REF_BEFORE.search(value, max(0, start - 8), start) or _REF_AFTER.match(
        value[end : end + 12]
    ):
        return True
    return _api_title(label)


_DATA_NOUN_END = re.compile(
    r"(?:字段|参数|属性|列表|类型|状态|名称|编号|代码|编码|ID|id|值|项|列|表)$"
)
_IDENT = re.compile(r"^[A-Za-z][\w.-]*$")


def _names_a_field(label: str) -> bool:
    """「系统标准字段 / system_fields」: a field's name (each part a data noun or an identifier)."""
    parts = [p.strip() for p in re.split(r"[/／|]", label) if p.strip()]
    if not parts or _DIRECTIVE_WORD.search(label):
        return False
    named = False
    for part in parts:
        if _IDENT.match(part):
            continue
        if not _DATA_NOUN_END.search(part):
            return False
        named = True
    return named


_MENTION_AFTER = re.compile(
    r"^\s*(?:[,，、;；)）]|等|and\b|or\b|are\b|is\b|as\b|tokens?\b|markers?\b)", re.IGNORECASE
)
_MENTION_BEFORE = re.compile(
    r"(?:such as|like|e\.g\.,?|including|include|includes|\band|\bor"
    r"|如|例如|包括|比如|诸如|和|或|、|,)\s*$",
    re.IGNORECASE,
)


def _mentioned(value: str, start: int, end: int) -> bool:
    """A chat-template token named in a list or as an example, not opening a turn."""
    return bool(
        _MENTION_AFTER.match(value[end : end + 10])
        or (
            _MENTION_BEFORE.search(value, max(0, start - 12), start)
            and not value[end : end + 1].isalpha()
        )
    )


_BRACKETED = re.compile(r"\[([^\[\]\n]{2,48})\](?!\()")


def without_references(value: str) -> str:
    """``value`` with the titles of linked pages (:func:`is_reference`) left out.

    "调用[获取会话历史消息]接口，从响应结果的 message_id 参数获取" names another API,
    whose title holds words the grammar reads (会话历史消息); the clause says where an
    id comes from, so the title is read as a reference ("[…]"), not as its words.
    """
    if "[" not in value:
        return value
    return _BRACKETED.sub(
        lambda m: "[…]" if is_reference(value, m.start(), m.end(), m.group(1)) else m.group(),
        value,
    )
