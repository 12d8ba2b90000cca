"""Contract consistency: injected identity, risk tier, idempotency, aliases."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator, Sequence
from functools import lru_cache

from studio.contract.model import (
    DEFAULT_IDEMPOTENCY_KEY_TEMPLATE,
    Idempotency,
    RetryPolicy,
    RiskTier,
    ToolContract,
)
from studio.contract.problems import join_path
from studio.contract.verbs import inflections
from studio.editing.edits import SetField, SetPropertyKey
from studio.lint.lexicon import destructive_groups
from studio.lint.model import Hit, LintContext, QuickFix, Severity, tool_rule
from studio.lint.regex import compile_cues
from studio.lint.rules._common import (
    cached_hits,
    iter_properties,
    iter_schemas,
    rendered,
    stem,
    summary_text,
    text,
    words_of,
)
from studio.lint.text import has_cjk, may_contain, split_identifier
from studio.lint.wordlists import content_units, verb_class

CATEGORY = "consistency"

_CREDENTIAL_WORDS = words_of(
    "password passwd passphrase pwd secret secrets apikey credential credentials cookie "
    "jwt bearer authorization otp"
)
_CREDENTIAL_PAIRS = {
    ("api", "key"),
    ("access", "key"),
    ("private", "key"),
    ("secret", "key"),
    ("session", "id"),
    ("session", "token"),
    ("access", "token"),
    ("refresh", "token"),
    ("auth", "token"),
    ("client", "secret"),
}
_SECRET_TAILS = words_of("value string str text raw plain plaintext")
"""Words after a secret that still name the secret itself (secret_value, password_text)."""
# "token" alone is a credential, except pagination and model-budget tokens.
_NOT_CREDENTIAL = words_of("page next cursor continuation max count limit num")
_IDENTITY_SUBJECTS = words_of(
    "user employee customer account member tenant staff operator caller login owner uid "
    "userid employeeid customerid accountid"
)
_CJK_CREDENTIAL = compile_cues(r"密码|口令|密钥|令牌|会话")
_CJK_IDENTITY = compile_cues(
    r"(?:用户|员工|客户|账号|账户|会员|租户)(?:ID|Id|id|编号|号)|工号|用户名"
)


@lru_cache(maxsize=65536)
def credential_kind(name: str) -> str | None:
    """``credential``, ``identity`` or None for a property name (once per name: two rules
    ask it of every top-level property, and names repeat across tools)."""
    words = split_identifier(name)
    if _CJK_CREDENTIAL.search(name):
        return "credential"
    if _CJK_IDENTITY.search(name):
        return "identity"
    if not words:
        return None
    # The secret is what the name ends on: api_token, admin_password, secret_key
    # (a "…_value" of it too); tokenId, secret_name, tokenLifetimeSeconds and
    # credentialsRefreshInterval name something about a secret, not the secret.
    head = list(words)
    while len(head) > 1 and head[-1] in _SECRET_TAILS:
        head.pop()
    if tuple(head[-2:]) in _CREDENTIAL_PAIRS or head[-1] in _CREDENTIAL_WORDS:
        return "credential"
    if head[-1] == "token" and not set(words) & _NOT_CREDENTIAL:
        return "credential"
    if words in (("uid",), ("userid",)) or (
        len(words) == 2 and words[1] in ("id", "no", "number") and words[0] in _IDENTITY_SUBJECTS
    ):
        return "identity"
    return None


def _session_key(name: str) -> str:
    if has_cjk(name):
        return "session." + name
    words = split_identifier(name)
    if words and all(re.fullmatch(r"[a-z0-9]+", w) for w in words):
        return "session." + "_".join(words)
    return "session." + name


def _holds_no_secret(schema: object) -> bool:
    """True for an object schema with properties none of which (at any depth) is a credential.

    Okta's ``credentials: {signing: {rotationMode, use}}`` configures how keys
    are handled and holds no secret; ``credentials: {username, password}``
    does, and so does an object that declares no properties.
    """
    if not isinstance(schema, dict):
        return False
    props = schema.get("properties")
    if not isinstance(props, dict) or not props:
        return False
    for name, sub in props.items():
        if credential_kind(str(name)) == "credential":
            return False
        nested = isinstance(sub, dict) and isinstance(sub.get("properties"), dict)
        if nested and not _holds_no_secret(sub):
            return False
    return True


_NOT_SECRET_TYPES = frozenset(("boolean", "integer", "number"))


def _not_secret(schema: object) -> bool:
    """True for a value no secret can be: a flag, a number, one of a fixed list.

    ``alwaysIncludeInToken: boolean``, ``passkeys_discoverable_credentials:
    enum [required, preferred]`` say something about a credential.
    """
    if not isinstance(schema, dict):
        return False
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return True
    kind = schema.get("type")
    kinds = {k for k in (kind if isinstance(kind, list) else [kind]) if k != "null"}
    return bool(kinds) and kinds <= _NOT_SECRET_TYPES


def _injection_hits(tool: ToolContract, kind: str) -> Iterator[Hit]:
    for ref in iter_properties(tool):
        if not ref.top_level or ref.injected or credential_kind(ref.name) != kind:
            continue
        if kind == "credential" and (_holds_no_secret(ref.schema) or _not_secret(ref.schema)):
            continue  # settings about credentials, not a credential
        key = _session_key(ref.name)
        fix = QuickFix(f"Inject from {key}", (SetPropertyKey(ref.path, "x-injected", key),))
        what = "a credential" if kind == "credential" else "the caller's identity"
        yield Hit(
            text(tool.name),
            ref.json_path,
            f"Parameter {ref.name!r} looks like {what} but the model must fill it; mark it "
            f"x-injected ({key}) so it comes from the session.",
            fix=fix,
        )


@tool_rule(
    "param-credential-not-injected",
    category=CATEGORY,
    severity=Severity.ERROR,
    rationale="""A credential (api_key, token, password, session_id, 密码) that the model
    fills is a credential the model has seen: it leaks into transcripts and logs, can be
    extracted by prompt injection, and the model may invent one. Credentials must come
    from the session context (x-injected), never from the model.""",
    has_fix=True,
)
def check_credentials(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    yield from _injection_hits(tool, "credential")


@tool_rule(
    "param-identity-not-injected",
    category=CATEGORY,
    severity=Severity.WARNING,
    rationale="""When the model fills user_id or employee_id, a user can ask it to act as
    someone else, and the model guesses ids it was never told. The caller's identity
    belongs to the login session: mark it x-injected. (A tool that really acts on another
    user, e.g. an administrator's lookup, should name it target_user_id.)""",
    has_fix=True,
)
def check_identity(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    yield from _injection_hits(tool, "identity")


MUTATING_VERBS = words_of(
    "create update delete remove send pay cancel refund set add insert post put patch write "
    "submit approve reject transfer upload modify edit drop purge reset assign book charge "
    "revoke grant close archive move rename replace save publish enable disable"
)


@tool_rule(
    "risk-mutating-verb-on-read",
    category=CATEGORY,
    severity=Severity.ERROR,
    rationale="""The risk tier decides confirmation: a read tool runs without asking the
    user. A tool whose name says it changes state (create, update, delete, send, pay,
    cancel, refund…) but is tiered read runs its side effect unconfirmed, and is retried
    on timeout as if it were safe. Set the tier to write or destructive.""",
    has_fix=True,
)
def check_mutating_read(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    if tool.risk != RiskTier.READ:
        return
    verb = _mutating_name_verb(split_identifier(text(tool.name)), summary_text(tool)[0])
    if verb is None:
        return
    yield Hit(
        text(tool.name),
        "risk",
        f"The name says {verb!r} (a state change) but the tool is tiered read, so it runs "
        "without confirmation; set the risk to write or destructive.",
        fix=QuickFix("Set risk to write", (SetField("risk", RiskTier.WRITE),)),
    )


_READ_CLASSES = frozenset(("read", "read.list"))


def _mutating_name_verb(words: Sequence[str], summary: str) -> str | None:
    """The state-changing verb of a name: its first word, or its second after a namespace.

    A second word is read as a noun when the name ends on a read verb
    (``games_update_find``: games.update.find) or when a read verb both opens
    the name and the summary (``getBookMetadata``, "Retrieve metadata for a
    book"); after a namespace (``views_update``, ``display_set_brightness``) it
    is the verb.
    """
    if not words:
        return None
    if words[0] in MUTATING_VERBS:
        return words[0]
    if len(words) < 2 or words[1] not in MUTATING_VERBS:
        return None
    if len(words) > 2 and verb_class(words[-1]) in _READ_CLASSES:
        return None
    if verb_class(words[0]) in _READ_CLASSES:
        opening = content_units(summary).verbs[:1] if summary else ()
        if opening and opening[0] in _READ_CLASSES:
            return None
    return words[1]


@tool_rule(
    "risk-annotations-contradict",
    category=CATEGORY,
    severity=Severity.WARNING,
    rationale="""MCP clients decide whether to ask the user from a tool's annotations
    (readOnlyHint, destructiveHint); the studio decides from the risk
    tier. Annotations kept from an import that say otherwise than the tier (readOnlyHint
    on a tool tiered destructive, or destructiveHint false on one) mean the tier was
    changed after the import or the server's hints were wrong. The export follows the
    tier; remove the contradicting hints so what is stored says the same.""",
    has_fix=True,
)
def check_annotations_contradict_risk(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    annotations = getattr(tool, "annotations", None)
    if not isinstance(annotations, dict) or not annotations:
        return
    # idempotentHint is not compared: false says a repeated call has another effect,
    # which the studio's idempotency key deals with rather than contradicts.
    implied = {
        "readOnlyHint": tool.risk == RiskTier.READ,
        "destructiveHint": tool.risk == RiskTier.DESTRUCTIVE,
    }
    wrong = [
        k
        for k, v in implied.items()
        if isinstance(annotations.get(k), bool) and annotations[k] is not v
    ]
    if not wrong:
        return
    kept = {k: v for k, v in annotations.items() if k not in wrong}
    said = ", ".join(f"{k}={str(annotations[k]).lower()}" for k in wrong)
    yield Hit(
        text(tool.name),
        "annotations",
        f"The MCP annotations say {said}, but the tool is tiered {tool.risk}; clients that "
        "trust the hints confirm differently than the studio does. Remove the hints or change "
        "the tier.",
        fix=QuickFix("Remove contradicting annotations", (SetField("annotations", kept),)),
    )


@tool_rule(
    "risk-write-without-idempotency",
    category=CATEGORY,
    severity=Severity.ERROR,
    rationale="""A write that times out has an unknown outcome. Without an idempotency key
    the runtime cannot tell a retry from a second order, refund or message, and cannot
    look the first attempt up. Writes and destructive tools require idempotency with a key
    template such as {session_id}:{message_id}:{tool}:{args_hash}.""",
    has_fix=True,
)
def check_idempotency(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    if tool.risk == RiskTier.READ:
        return
    execution = tool.execution
    idem = getattr(execution, "idempotency", None)
    required = bool(getattr(idem, "required", False))
    template = text(getattr(idem, "key_template", ""))
    if required and template.strip():
        return
    fix = None
    if dataclasses.is_dataclass(execution):
        new_exec = dataclasses.replace(
            execution, idempotency=Idempotency(True, template or DEFAULT_IDEMPOTENCY_KEY_TEMPLATE)
        )
        fix = QuickFix("Require an idempotency key", (SetField("execution", new_exec),))
    problem = "does not require an idempotency key" if not required else "has no key template"
    yield Hit(
        text(tool.name),
        "execution.idempotency",
        f"This {tool.risk} tool {problem}; require idempotency with a key template so a "
        "timed-out call can be reconciled instead of repeated.",
        fix=fix,
    )


@tool_rule(
    "risk-write-retried",
    category=CATEGORY,
    severity=Severity.WARNING,
    rationale="""A write that timed out may have happened. Retrying it blindly can refund,
    pay or send twice; the runtime should report the outcome as unknown and reconcile
    through the idempotency key instead. Writes get one attempt.""",
    has_fix=True,
)
def check_write_retry(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    if tool.risk == RiskTier.READ:
        return
    retry = getattr(tool.execution, "retry", None)
    attempts = getattr(retry, "max_attempts", 1)
    if not isinstance(attempts, int) or attempts <= 1:
        return
    fix = None
    if isinstance(retry, RetryPolicy):
        new_exec = dataclasses.replace(
            tool.execution, retry=dataclasses.replace(retry, max_attempts=1)
        )
        fix = QuickFix("Never retry", (SetField("execution", new_exec),))
    yield Hit(
        text(tool.name),
        "execution.retry.max_attempts",
        f"This {tool.risk} tool is tried up to {attempts} times; set max_attempts to 1 and "
        "reconcile timeouts through the idempotency key.",
        fix=fix,
    )


_DESTRUCTIVE_PHRASES = compile_cues(
    r"\birreversibl[ey]\b|\bpermanently\b|\bcannot be (?:undone|reversed|recovered)\b"
    r"|\bcan['’]t be (?:undone|reversed|recovered)\b|\bno undo\b"
    r"|不可恢复|无法恢复|不可撤销|无法撤销|不可逆|永久删除|彻底删除",
    re.IGNORECASE,
)
# A literal (lower case) of every alternative of _DESTRUCTIVE_PHRASES.
_DESTRUCTIVE_NEEDLES = (
    *("irreversibl", "permanently", "cannot be ", "can't be ", "can’t be ", "no undo"),
    *("不可恢复", "无法恢复", "不可撤销", "无法撤销", "不可逆", "永久删除", "彻底删除"),
)
OBJECT_WINDOW = 4
"""Words after a final verb (terminate) searched for an object it cannot bring back."""


@lru_cache(maxsize=1)
def _kinds() -> dict[str, str]:
    """Destructive verb → "irreversible", "final" or "reversible" (the first group wins)."""
    irreversible, reversible, final_verbs, _objects = destructive_groups()
    out: dict[str, str] = {}
    for verbs, kind in (
        (irreversible, "irreversible"),
        (final_verbs, "final"),
        (reversible, "reversible"),
    ):
        for verb in verbs:
            out.setdefault(verb, kind)
    return out


def _verb_kind(word: str, inflected: bool = True) -> str:
    """ "irreversible", "final" (reversible, except of a final object), "reversible" or "".

    In any simple inflection when ``inflected`` (a summary's "Deletes"); a
    name's verb is its base form, and ``list_deleted_orders`` deletes nothing.
    """
    kinds = _kinds()
    low = word.lower()
    kind = kinds.get(low)
    if kind is not None or not inflected:
        return kind or ""
    return next((k for f in inflections(low)[1:] if (k := kinds.get(f))), "")


def _final_object(words: Sequence[str]) -> str | None:
    """The first word of ``words`` naming what a final verb cannot bring back (an instance)."""
    objects = destructive_groups()[3]
    return next((w for w in words if w.lower() in objects or stem(w) in objects), None)


def _cjk_verb(summary: str) -> tuple[str, str] | None:
    """(kind, verb) of the listed Chinese destructive verb a summary opens with."""
    irreversible, reversible, final_verbs, _objects = destructive_groups()
    head = summary.lstrip()[:4]
    for verbs, kind in (
        (irreversible, "irreversible"),
        (final_verbs, "final"),
        (reversible, "reversible"),
    ):
        for verb in verbs:
            if not verb.isascii() and head.startswith(verb):
                return kind, verb
    return None


def destructive_reason(tool: ToolContract, rendered_text: str) -> str | None:
    """Why a tool sounds destructive (a verb or a phrase), or None.

    Irreversible verbs (delete, purge, cancel, 删除, 清空, 注销 …) make a tool
    destructive by themselves; reversible ones (revoke, deactivate, stop,
    停用, 撤销 …) do not: access revoked can be granted again, a user
    deactivated reactivated. Terminate (终止) is destructive only of what it
    cannot bring back (an instance, a cluster: EC2's terminate deletes it), not
    of a finished job or a session. The lists are data
    (``studio/lint/data/destructive_verbs.txt``). Whatever the verb, a
    description that says the change cannot be undone makes it destructive.
    """
    words = split_identifier(text(tool.name))
    for i, word in enumerate(words[:2]):
        kind = _verb_kind(word, inflected=False)
        if kind == "irreversible":
            return f"its name says {word!r}"
        if kind == "final":
            obj = _final_object(words[i + 1 : i + 1 + OBJECT_WINDOW])
            if obj:
                return f"its name says {word!r} {obj!r}"
    summary, _ = summary_text(tool)
    opening = summary.split()[: 1 + OBJECT_WINDOW] if summary else []
    first = split_identifier(opening[0]) if opening else ()
    kind = _verb_kind(first[0]) if first else ""
    if kind == "irreversible" or (
        kind == "final" and _final_object([w.strip(".,;:") for w in opening[1:]])
    ):
        return f"its summary starts with {opening[0]!r}"
    cjk = _cjk_verb(summary) if summary and has_cjk(summary[:4]) else None
    if cjk is not None:
        objects = destructive_groups()[3]
        rest = summary.lstrip()[len(cjk[1]) : len(cjk[1]) + 12]
        if cjk[0] == "irreversible" or (
            cjk[0] == "final" and any(o in rest for o in objects if not o.isascii())
        ):
            return f"its summary starts with {cjk[1]!r}"
    if not may_contain(_DESTRUCTIVE_NEEDLES, rendered_text):
        return None
    match = _DESTRUCTIVE_PHRASES.search(rendered_text)
    if match:
        return f"its description says {match.group()!r}"
    return None


@tool_rule(
    "risk-destructive-not-marked",
    category=CATEGORY,
    severity=Severity.ERROR,
    rationale="""Destructive tools (delete, remove, drop, purge, wipe, cancel; "cannot be
    undone", "permanently", "删除"; revoke, terminate, deactivate only of what cannot
    be brought back, such as an instance or an account) need the strongest gate: the
    user types a confirmation phrase, and the playground defaults them to the mock
    executor. A tool that sounds irreversible but is tiered read or write gets one
    click or none.""",
    has_fix=True,
)
def check_destructive(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    return cached_hits(
        tool,
        ("risk-destructive-not-marked", rendered(tool, ctx.settings)),
        lambda: _check_destructive_hits(tool, ctx),
    )


def _check_destructive_hits(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    if tool.risk == RiskTier.DESTRUCTIVE:
        return
    reason = destructive_reason(tool, rendered(tool, ctx.settings))
    if reason is None:
        return
    yield Hit(
        text(tool.name),
        "risk",
        f"The tool sounds destructive ({reason}) but is tiered {tool.risk}; mark it "
        "destructive so the user must confirm it explicitly.",
        fix=QuickFix("Mark destructive", (SetField("risk", RiskTier.DESTRUCTIVE),)),
    )


def _aliases(ref_schema: dict) -> list[str]:
    raw = ref_schema.get("x-aliases")
    return [a for a in raw if isinstance(a, str)] if isinstance(raw, list) else []


@tool_rule(
    "param-alias-collision",
    category=CATEGORY,
    severity=Severity.ERROR,
    rationale="""x-aliases map other key names a model may emit onto a property. An alias
    that equals another property's name, or appears as alias of two properties, makes the
    mapping ambiguous: the runtime cannot know which property the model meant, and one
    argument silently overwrites another.""",
)
def check_alias_collision(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    for node in iter_schemas(tool):
        props = node.schema.get("properties")
        if not isinstance(props, dict):
            continue
        owner: dict[str, str] = {}
        for prop, sub in props.items():
            if not isinstance(sub, dict):
                continue
            for i, alias in enumerate(_aliases(sub)):
                path = join_path(node.json_path, "properties", prop, "x-aliases", i)
                if alias in props and alias != prop:
                    yield Hit(
                        text(tool.name),
                        path,
                        f"Alias {alias!r} of {prop!r} is also the name of another property; "
                        "remove or change the alias.",
                    )
                elif alias in owner and owner[alias] != prop:
                    yield Hit(
                        text(tool.name),
                        path,
                        f"Alias {alias!r} is declared for both {owner[alias]!r} and {prop!r}; "
                        "keep it on one property.",
                    )
                else:
                    owner.setdefault(alias, prop)


@tool_rule(
    "param-enum-alias-unknown",
    category=CATEGORY,
    severity=Severity.ERROR,
    rationale="""x-enum-aliases map value synonyms ("出租车" → "taxi") onto enum values. A
    synonym that maps to a value the enum does not contain turns a correct user phrase
    into a validation error.""",
)
def check_enum_alias_targets(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    for ref in iter_properties(tool):
        mapping = ref.schema.get("x-enum-aliases")
        enum = ref.schema.get("enum")
        if not isinstance(mapping, dict) or not isinstance(enum, list):
            continue
        for synonym, target in mapping.items():
            if target not in enum:
                yield Hit(
                    text(tool.name),
                    join_path(ref.json_path, "x-enum-aliases", str(synonym)),
                    f"Enum alias {synonym!r} maps to {target!r}, which is not in the enum; "
                    "map it to one of the enum values.",
                )


__all__ = ["MUTATING_VERBS", "credential_kind", "destructive_reason"]
