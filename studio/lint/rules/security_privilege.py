"""Privilege parameters: a name, default or enum value that hands the model privileges.

``admin_mode``, ``jailbreak_mode``, ``override_instructions``, ``skipApprovalFlow``,
``safety_off``, ``管理员权限``, ``免审核``, an enum value ``unrestricted``, a default
``root`` for ``execute_as``. The words are data (``privilege_names`` in
``resources/lint/security_phrases.json``): single words, and pairs read in
order in a split identifier (a verb of switching off, then what is switched off).
"""

from __future__ import annotations

import re

import re2  # type: ignore[import-untyped]

from studio.lint.regex import compile_cues
from studio.lint.rules._security_phrases import normalise, phrase_data
from studio.lint.rules.security_re2 import seen
from studio.lint.text import split_identifier


def _alternation(words: str) -> frozenset[str]:
    return frozenset(words.split("|"))


_CASELESS = re2.Options()
_CASELESS.case_sensitive = False
_DATA = phrase_data()["privilege_names"]
_PRIV_WORDS = frozenset(_DATA["words"])
_PRIV_PAIRS = tuple((_alternation(a), _alternation(b)) for a, b in _DATA["pairs"])
_PRIV_ZH = compile_cues(_DATA["zh"])
_PRIV_VALUE = re.compile(_DATA["values"])
_BOOK_IDENTITY_NAMES = frozenset(_DATA["identity_names"])
_BOOK_IDENTITY_VALUES = frozenset(_DATA["identity_values"])
_SWITCH_NAMES = frozenset(_DATA["switch_names"])
_SWITCH_OFF = frozenset(_DATA["switch_off_values"])


DEFAULTS_HINT = seen(
    r"scope|role|permission|grant|privileg|elevat|escalat|sudo|superuser|unrestricted|unsafe"
    r"|insecure|force|越权|特权|提权|权限|角色|uid|verify|destructive|share|header|allow|principal"
    r"|account|cap|audit|审计|日志|留痕|log",
    _CASELESS,
)
"""Property names where :func:`privileged_defaults` may find a non-string default that
escalates (a first look on the schema's names)."""
PRIV_HINT = seen(
    "|".join(
        sorted(
            {
                *_PRIV_WORDS,
                *(w for left, _ in _PRIV_PAIRS for w in left),
                *("god", "admin", "root", "developer", "danger", "limit", "system"),
                *(re2.escape(v) for v in _BOOK_IDENTITY_VALUES | _SWITCH_OFF),
            }
        )
    )
    + "|owner|--|:\\*|所有者|所有权|拥有者|public.?read.?write|public.?write|impersonat|"
    + "unconfined|privileged|elev|assume|delete_repo|超级|全部权限|所有权限|全公司|"
    + "masters|cluster-admin|grant option|grant all|nopasswd|glass|emergency.?access|"
    + "(?:no|skip|without).?confirm|紧急访问|破窗|免密|免确认|无需确认|跳过确认|"
    + _DATA["zh"],
    _CASELESS,
)
"""Every privileged name or value contains one of these (one DFA pass: a cheap first look)."""


_TOP_ROLE_NAMES = frozenset(_DATA["top_role_names"])
_TOP_ROLE_VALUES = frozenset(_DATA["top_role_values"])
_TOP_ROLE_ZH = re.compile(_DATA["top_role_zh"])
_SWITCH_ON_NAMES = frozenset(_DATA["switch_on_names"])
_DANGER_FLAGS = re.compile(_DATA["danger_flags"])
_DEVICE_STATES = frozenset(_DATA["device_states"])
_DEVICE_STATES_ZH = re.compile(_DATA["device_states_zh"])
DEVICE_CONTEXT = seen(_DATA["device_context"], _CASELESS)
"""Words of a tool about devices (device, posture, Android, 设备…): there ``jailbreak``,
``rooted`` and ``developer mode`` are states of the device the call describes, not
switches over the model's or the caller's rights."""


_DATA_QUALIFIERS = frozenset(
    (  # noqa: SIM905 - a word list reads better as prose
        "consistency format formatting spell spelling duplicate duplicates dedup length size "
        "type types range date time encoding case whitespace schema unique uniqueness"
    ).split()
)
"""Words that make a check or a rule one of data quality ("ignore_consistency_check",
"ignore_working_hours_type_rule"): switching it off changes what is stored, not who may."""


_MANAGED = frozenset(("rule", "policy", "filter", "limit", "restriction", "check"))
"""Objects a tool may manage (mailbox rules, firewall policies): named in the tool's own
name, a switch over them is a setting of one of them."""
_COLLECTION = frozenset(("list", "ids", "items", "nodes", "array"))
"""A name ending in one of these names data (``node_auto_approval_list``), not a switch."""


_APPLICATIONS = frozenset(
    ("apply", "applies", "application", "applications", "join", "joins", "membership")
)
"""What is approved after an approval word (``auto_approve_apply``, ``auto_approve_join``):
people's applications to join the resource the tool creates or updates, a setting of
that group or department, not a switch over the caller's own actions."""


def _singular(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") else word


def _privileged_name(name: str, device: bool = False, domain: frozenset[str] = frozenset()) -> bool:
    if device:
        name = _DEVICE_STATES_ZH.sub(" ", name)
    if _PRIV_ZH.search(name):
        return True
    words = [w.lower() for w in split_identifier(name)]
    if device:
        words = [w for w in words if w not in _DEVICE_STATES]
        if not words:
            return False
    if _PRIV_WORDS.intersection(words) or "".join(words) in _PRIV_WORDS:
        return True
    for i, first in enumerate(words):
        for left, right in _PRIV_PAIRS:
            if first not in left:
                continue
            for j in range(i + 1, len(words)):
                if words[j] not in right:
                    continue
                if (
                    (_singular(words[j]) in domain and _singular(words[j]) in _MANAGED)
                    or words[j - 1] in _DATA_QUALIFIERS
                    or words[-1] in _COLLECTION
                    or not _APPLICATIONS.isdisjoint(words[j + 1 :])
                ):
                    continue  # a rule of the mail-rule tool; a consistency check; a list of nodes
                return True
    return False


_ASSIGNED = re.compile(
    r"`\s*[\"']?([A-Za-z_][\w.-]{2,40})[\"']?\s*[:=]\s*(?:true|1|on|yes|enabled)\s*`", re.IGNORECASE
)


_ASSIGNED_BARE = re.compile(
    r"\b([A-Za-z_][\w.-]{2,40})\s*[:=]\s*(?:true|1|on|yes|enabled)\b", re.IGNORECASE
)


def assigned_privilege(value: str, quoted: bool = True) -> str | None:
    """A privileged switch set in prose (``Pass `god_mode: true` with every call``), or None:
    the text hands the model a setting the schema does not show or should not offer.

    ``quoted=False`` reads a bare ``admin=true`` too, and a switch named after a
    privileged identity (``admin``, ``root``, ``sudo``): in decoded text, where nobody
    writes code spans and a hidden ``admin=true`` has no innocent reading."""
    for match in (_ASSIGNED if quoted else _ASSIGNED_BARE).finditer(value):
        name = match.group(1)
        if _privileged_name(name) or (not quoted and name.lower() in _BOOK_IDENTITY_VALUES):
            return match.group()
    return None


NAME_PATH = re.compile(r'\.properties(?:\.[^.\[\]"]+|\["(?:[^"\\]|\\.)*"\])$')
"""The path of a property's name in :func:`tool_texts` (``….properties.x``, ``…["名"]``)."""


def is_privilege_text(
    path: str, value: str, device: bool = False, domain: frozenset[str] = frozenset()
) -> bool:
    """True when ``value`` at ``path`` is a property name, default or enum value that
    offers the model privileges ("admin_mode", "免审核", a default "root" of ``execute_as``).

    ``device``: the tool is about devices (:data:`DEVICE_CONTEXT`), where a device's
    states (a ``jailbreak`` flag, ``CHROME_OS_DEVELOPER_MODE``) are not privileges.
    ``domain``: the words of the tool's name, singular; a switch over what the tool
    manages (``ignore_the_rest_of_rules`` of a mailbox-rule tool, ``node_auto_approval_list``
    of an approval tool) is a setting of the thing, not a privilege of the caller.
    """
    value = normalise(value)
    last = path.rsplit(".", 1)[-1]
    if NAME_PATH.search(path):
        return _privileged_name(value, device, domain)
    if last == "default" or "enum[" in last:
        if _is_state_field(path):
            return False  # statuses: [Approving, Approved, NoNeedApproval]: states of a record
        if device and not _privileged_name(value, device):
            return False
        return (
            _PRIV_VALUE.match(value) is not None
            or (len(value) <= 40 and " " not in value.strip() and _privileged_name(value))
            or _identity_value(path, value)
            or _switched_off(path, value)
            or (last == "default" and _escalating_default(path, value))
            or (last == "default" and _OPEN_DEFAULT.search(value) is not None)
            or (last == "default" and _granting_default(path, value))
        )
    return False


def _property_name(path: str) -> str:
    where = _OWNER.search(path)
    return (where.group(1) or where.group(2) or "") if where else ""


def _top_role(value: str) -> bool:
    """``owner``, ``admin:*``, ``org_owner（组织所有者…）``, ``*``: the highest grant there is."""
    value = value.strip()
    if _TOP_ROLE_ZH.search(value):
        return True
    head = re.split(r"[\s(（]", value, maxsplit=1)[0]
    if head.endswith(":*") and len(head) > 2:
        return True  # admin:*, repo:*: every permission of a kind
    words = {w.lower() for w in split_identifier(head.replace(":", "_"))}
    return head.lower() in _TOP_ROLE_VALUES or (
        len(words) <= 3 and not words.isdisjoint(_TOP_ROLE_VALUES)
    )


def _escalating_default(path: str, value: str) -> bool:
    """A default that escalates whatever the model asks: the highest role or scope of a
    role/permission/scope property (``role: org_owner``, 权限级别: 所有者并转移文档所有权),
    or flags that switch safeguards off (``extra_args: "--no-verify --force"``).

    A default is what the call gets when the model leaves the argument out, so the
    user never sees it chosen; an enum merely offers the value.
    """
    if _DANGER_FLAGS.search(value):
        return True
    name = _property_name(path)
    words = {w.lower() for w in split_identifier(name)}
    if words.isdisjoint(_TOP_ROLE_NAMES) and not any(
        n in name for n in _TOP_ROLE_NAMES if not n.isascii()
    ):
        return False
    return _top_role(value)


def privileged_defaults(parameters: object, prefix: str = "parameters") -> list[tuple[str, str]]:
    """Non-string defaults that escalate, as (path, value shown): a privilege switch on by
    default (``privileged: true``, 越权读取全部租户: true) or a list of scopes or roles
    holding the highest one (``scopes: ["admin:*", …]``). (String defaults are texts of
    the tool and read by :func:`is_privilege_text`.)"""
    out: list[tuple[str, str]] = []
    if not isinstance(parameters, dict):
        return out
    props = parameters.get("properties")
    if isinstance(props, dict):
        for name, spec in props.items():
            if not isinstance(spec, dict):
                continue
            path = f"{prefix}.properties.{name}"
            default = spec.get("default")
            if default is True and _switch_on_name(str(name)):
                out.append((f"{path}.default", f"{name}: true"))
            elif (shown_open := _opening_default(str(name), default)) is not None:
                out.append((f"{path}.default", shown_open))
            elif default is False and _AUDIT_NAME.search(str(name)):
                out.append((f"{path}.default", f"{name}: false"))
            elif isinstance(default, list) and any(
                isinstance(v, str)
                and (
                    _escalating_default(f"{path}.default", v)
                    or _granting_default(f"{path}.default", v)
                )
                for v in default
            ):
                shown = ", ".join(str(v) for v in default[:3])
                out.append((f"{path}.default", f"{name}: [{shown}]"))
            out.extend(privileged_defaults(spec, path))
            items = spec.get("items")
            if isinstance(items, dict):
                out.extend(privileged_defaults(items, f"{path}.items"))
    return out


_OPEN_DEFAULT = re.compile(
    r"(?i)\bpublic[-_ ]?(?:read[-_ ]?)?write\b|impersonat\w*[-_ #]?(?:any|all|every)"
    r"|\banyone[-_ ]?(?:with[-_ ]?(?:the[-_ ]?)?link[-_ ]?)?(?:can[-_ ]?)?edit\b"
)
"""String defaults that open a resource to everyone or let the call act as anyone
(``acl: public-read-write``, a grant ``…#impersonate-any-user``): chosen for the
model when it leaves the argument out, so nobody sees the grant made."""
_WILDCARD_NAMES = frozenset(
    (  # noqa: SIM905 - a word list reads better as prose
        "share shared allow allowed accounts principals grantees readers viewers editors "
        "members users groups cidrs origins"
    ).split()
)
_TRANSPORT = frozenset(
    ("tls", "ssl", "cert", "certs", "certificate", "certificates", "host", "peer")
)
"""What a ``verify`` switch checks in transport: off by default, anyone can intercept."""
_IDENTITY_HEADERS = frozenset(
    ("x-forwarded-user", "x-remote-user", "x-user", "x-auth-user", "x-user-id", "x-role")
)


def _opening_default(name: str, default: object) -> str | None:
    """A non-string default that drops a safeguard or widens a grant, shown, or None.

    ``tls_verify: false`` (certificates unchecked), ``execute_as_uid: 0`` (root),
    ``share_with_accounts: ["*"]`` (everyone), a headers object that claims an admin
    identity or a bypass (``X-Forwarded-User: admin``, ``X-Internal-Bypass: 1``).
    """
    words = {w.lower() for w in split_identifier(name)}
    if default is False and (
        words == {"verify"} or (words & {"verify", "verification"} and words & _TRANSPORT)
    ):
        return f"{name}: false"
    if default == 0 and not isinstance(default, bool) and "uid" in words:
        return f"{name}: 0"
    if isinstance(default, list) and "*" in default and words & _WILDCARD_NAMES:
        return f'{name}: ["*"]'
    if isinstance(default, dict):
        for key, value in default.items():
            low = str(key).lower()
            if "bypass" in low or (
                low in _IDENTITY_HEADERS and str(value).strip().lower() in _BOOK_IDENTITY_VALUES
            ):
                return f"{name}: {{{key}: {value}}}"
    return None


# A default is chosen for the model whenever it leaves the argument out, so a grant in it
# is made without anyone seeing it: kernel capabilities (SYS_ADMIN), a sandbox profile
# switched off (seccomp=unconfined), a deletion or admin scope, an elevation token, a
# role assumed by default, a superuser account, every row with salaries and ID numbers,
# the cluster's superuser group (system:masters, cluster-admin), every SQL privilege with
# the right to grant it on, passwordless sudo, an emergency break-glass access, each
# confirmation skipped.
_GRANTING = re.compile(
    r"(?-i:\b(?:CAP_)?(?:SYS_ADMIN|NET_ADMIN|SYS_PTRACE|SYS_MODULE|DAC_OVERRIDE)\b)"
    r"|\bsystem:masters\b|\bcluster-admin\b|\ball privileges\b|\bwith grant option\b"
    r"|\bgrant all\b|\bnopasswd\b|\bbreak[-_ ]?glass\b|\bemergency[-_ ]?access\b"
    r"|(?:\b|_)(?:no|skip|without)[-_ ]?confirm(?:ation)?s?\b"
    r"|紧急访问|破窗|免密(?:码)?(?:执行|sudo|提权)|(?:免|无需|跳过)(?:人工|用户|二次)?确认"
    r"|\bunconfined\b|\bprivileged\b|--privileged"
    r"|\badmin:[\w*]+|\bdelete_repo\b|\b\w+:admin\b"
    r"|(?-i:\bELEV\b)|\belevated\b|\bsuperuser\b"
    r"|超级用户|超级管理员|全部权限|所有权限|最高权限|管理员权限"
    r"|(?:全公司|全部|所有|全量)[^，,;；]{0,6}(?:薪资|工资|身份证|手机号|银行卡|住址)",
    re.IGNORECASE,
)
_ASSUMED_IDENTITY = frozenset(("assume", "impersonate", "sudo", "elevation", "elevate"))
"""Property names that say whom the call acts as: any default there is an identity chosen
for the model (``assume_role_arn: …OrganizationAccountAccessRole``)."""
_AUDIT_NAME = re.compile(r"(?i)audit|审计|留痕|(?<![a-z])log(?:ging)?(?![a-z])|日志")
"""A switch of the call's audit trail, off by default: nothing records what it did."""


def _granting_default(path: str, value: str) -> bool:
    """True when a default grants what the model never asked for (see :data:`_GRANTING`)."""
    if not value.strip():
        return False
    if _GRANTING.search(value):
        return True
    words = {w.lower() for w in split_identifier(_property_name(path))}
    return not words.isdisjoint(_ASSUMED_IDENTITY) and len(value.strip()) > 2


def _switch_on_name(name: str) -> bool:
    words = {w.lower() for w in split_identifier(name)}
    return not words.isdisjoint(_SWITCH_ON_NAMES) or _privileged_name(name)


_IDENTITY_OF = re.compile(
    r'\.properties(?:\.([^.\[\]"]+)|\["((?:[^"\\]|\\.)*)"\])\.(?:default|enum\[\d+\])$'
)


def _identity_value(path: str, value: str) -> bool:
    """A privileged identity as the value of a property that says whom the call runs as.

    ``execute_as: "root"``, ``run_as: "system"``, ``privilege: "admin"``; not a
    ``role`` of a user being created nor a database ``user`` (``root`` is the
    default MySQL account).
    """
    where = _IDENTITY_OF.search(path)
    if not where or value.strip().lower() not in _BOOK_IDENTITY_VALUES:
        return False
    words = {w.lower() for w in split_identifier(where.group(1) or where.group(2) or "")}
    if not words.isdisjoint(_BOOK_IDENTITY_NAMES):
        return True
    name = where.group(1) or where.group(2) or ""
    return any(n in name for n in _BOOK_IDENTITY_NAMES if not n.isascii())


def _switched_off(path: str, value: str) -> bool:
    """An enum value or default that turns a safeguard off: ``moderation: "off"``.

    (``safeSearch: "off"`` is a search filter the user picks, not a safeguard of
    the model: ``safe`` is not one of the names.)
    """
    where = _IDENTITY_OF.search(path)
    if not where or value.strip().lower() not in _SWITCH_OFF:
        return False
    name = where.group(1) or where.group(2) or ""
    parts = [w.lower() for w in split_identifier(name)]
    words = {*parts, "".join(parts)}  # guard_rails: "guardrails"
    return not words.isdisjoint(_SWITCH_NAMES) or any(
        n in name for n in _SWITCH_NAMES if not n.isascii()
    )


_OWNER = re.compile(
    r'\.properties(?:\.([^.\[\]"]+)|\["((?:[^"\\]|\\.)*)"\])(?:\.items)*\.(?:default|enum\[\d+\])$'
)
_STATE_WORDS = frozenset(
    ("status", "statuses", "state", "states", "phase", "phases", "stage", "stages", "outcome")
)


def _is_state_field(path: str) -> bool:
    """True when ``path`` is an enum value or default of a status field (``statuses``,
    ``approval_state``, 状态): its values name the states a record is in, which a filter
    selects ("NoNeedApproval", 无需审批), not switches over the caller's rights."""
    where = _OWNER.search(path)
    if not where:
        return False
    name = where.group(1) or where.group(2) or ""
    words = {w.lower() for w in split_identifier(name)}
    return not words.isdisjoint(_STATE_WORDS) or "状态" in name
