"""Changes of one tool between two versions: description blocks, schema, risk and the rest.

Description blocks get a word-level diff in which a Latin word (or number) is
one unit and every CJK character is its own unit, so ``查询发票`` → ``查询订单``
shows ``发票`` → ``订单`` rather than the whole run as changed.
"""

from __future__ import annotations

import re
from dataclasses import replace
from difflib import SequenceMatcher

from studio.contract.model import Permission, RegistrySettings, ToolContract
from studio.contract.render import block_values
from studio.diff.model import BlockDiff, Change, ChangeClass, WordOp
from studio.diff.output_diff import diff_mcp_fields
from studio.diff.schema_diff import diff_schema

B = ChangeClass.BREAKING
H = ChangeClass.BEHAVIOURAL
C = ChangeClass.COMPATIBLE
M = ChangeClass.METADATA

TEXT_BLOCKS = ("summary", "usage", "preconditions", "returns", "errors", "examples", "description")

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef\u3000-\u303f"
_UNITS = re.compile(rf"[{_CJK}]|(?:(?![{_CJK}])\w)+|\s+|.", re.DOTALL)


def word_units(text: str) -> list[str]:
    """Diff units of ``text``: words, single CJK characters, whitespace runs, punctuation."""
    return _UNITS.findall(text)


def word_diff(before: str, after: str) -> tuple[WordOp, ...]:
    """A word-level diff of two texts (CJK-aware).

    Args:
        before: Old text.
        after: New text.

    Return:
        Operations covering both texts in order; joining the ``before`` sides
        gives ``before`` and joining the ``after`` sides gives ``after``.
    """
    ua, ub = word_units(before), word_units(after)
    matcher = SequenceMatcher(None, ua, ub, autojunk=False)
    ops: list[WordOp] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        ops.append(WordOp(tag, "".join(ua[i1:i2]), "".join(ub[j1:j2])))
    return tuple(ops)


def diff_tool(
    a: ToolContract,
    b: ToolContract,
    settings_a: RegistrySettings | None = None,
    settings_b: RegistrySettings | None = None,
) -> tuple[list[Change], list[BlockDiff]]:
    """Classified changes and block word diffs from ``a`` to ``b`` (names are not compared).

    Args:
        a: The tool in A.
        b: The tool in B (possibly under a new name).
        settings_a: A's registry settings (unused today; kept for template-aware rules).
        settings_b: B's registry settings.

    Return:
        The changes (reported under ``b.name``) and the word diffs of changed blocks.
    """
    if a == b or _same_but_name(a, b):
        return [], []
    tool = b.name
    changes: list[Change] = []
    blocks = _blocks(a, b, tool, changes)
    changes.extend(diff_schema(a.parameters, b.parameters, tool=tool))
    if a.risk != b.risk:
        changes.append(
            Change(
                "tool.risk-changed", H, tool, "risk", a.risk.value, b.risk.value,
                f"risk tier {a.risk.value} → {b.risk.value} (changes confirmation before a call)",
            )
        )  # fmt: skip
    changes.extend(_execution(a, b, tool))
    changes.extend(_permissions(a, b, tool))
    changes.extend(_deprecation(a, b, tool))
    changes.extend(diff_mcp_fields(a, b, tool))
    changes.extend(_metadata(a, b, tool))
    return changes, blocks


def _same_but_name(a: ToolContract, b: ToolContract) -> bool:
    return replace(a, name=b.name) == b


def _blocks(a: ToolContract, b: ToolContract, tool: str, out: list[Change]) -> list[BlockDiff]:
    va, vb = block_values(a), block_values(b)
    # Free text renders only when a tool has no blocks; it is still shown
    # for tools with blocks so nothing is hidden from the reviewer.
    va["description"], vb["description"] = a.description, b.description
    blocks: list[BlockDiff] = []
    for block in TEXT_BLOCKS:
        before, after = va[block], vb[block]
        if before == after:
            continue
        blocks.append(BlockDiff(block, before, after, word_diff(before, after)))
        if block == "errors":
            out.extend(_errors(a, b, tool))
            continue
        klass, note = H, "what the model reads"
        if block == "description" and a.has_blocks() and b.has_blocks():
            klass, note = M, "not rendered: the tool has description blocks"
        out.append(
            Change(
                f"desc.{block}-changed", klass, tool, block, before, after,
                f"{block} {'added' if not before else 'removed' if not after else 'edited'}"
                f" ({note})",
            )
        )  # fmt: skip
    return blocks


def _errors(a: ToolContract, b: ToolContract, tool: str) -> list[Change]:
    ea = {e.code: e for e in a.errors}
    eb = {e.code: e for e in b.errors}
    out: list[Change] = []
    for code, spec in ea.items():
        if code not in eb:
            out.append(
                Change(
                    "desc.error-removed", H, tool, f"errors.{code}", spec.meaning, None,
                    f"documented error {code} removed",
                )
            )  # fmt: skip
        elif eb[code] != spec:
            new = eb[code]
            what = "retryable" if new.retryable != spec.retryable else "meaning or hint"
            out.append(
                Change(
                    "desc.error-changed", H, tool, f"errors.{code}",
                    _error_text(spec), _error_text(new), f"error {code}: {what} changed",
                )
            )  # fmt: skip
    for code, spec in eb.items():
        if code not in ea:
            out.append(
                Change(
                    "desc.error-added", H, tool, f"errors.{code}", None, spec.meaning,
                    f"documented error {code} added",
                )
            )  # fmt: skip
    if not out and a.errors != b.errors:
        out.append(
            Change(
                "desc.errors-reordered", H, tool, "errors", [e.code for e in a.errors],
                [e.code for e in b.errors], "documented errors reordered",
            )
        )  # fmt: skip
    return out


def _error_text(spec: object) -> dict[str, object]:
    return {
        "meaning": getattr(spec, "meaning", ""),
        "retryable": getattr(spec, "retryable", False),
        "hint": getattr(spec, "hint", ""),
    }


def _execution(a: ToolContract, b: ToolContract, tool: str) -> list[Change]:
    xa, xb = a.execution, b.execution
    if xa == xb:
        return []
    out: list[Change] = []
    if xa.timeout_tier != xb.timeout_tier:
        out.append(
            Change(
                "exec.timeout-tier-changed", H, tool, "execution.timeout_tier",
                xa.timeout_tier.value, xb.timeout_tier.value,
                f"timeout tier {xa.timeout_tier.value} → {xb.timeout_tier.value}",
            )
        )  # fmt: skip
    if xa.timeout_seconds != xb.timeout_seconds:
        out.append(
            Change(
                "exec.timeout-changed", H, tool, "execution.timeout_seconds",
                xa.timeout_seconds, xb.timeout_seconds,
                f"timeout {xa.timeout_seconds:g} s → {xb.timeout_seconds:g} s",
            )
        )  # fmt: skip
    if xa.retry != xb.retry:
        out.append(
            Change(
                "exec.retry-changed", H, tool, "execution.retry",
                _retry(xa.retry), _retry(xb.retry),
                f"retry policy changed (attempts {xa.retry.max_attempts} → "
                f"{xb.retry.max_attempts})",
            )
        )  # fmt: skip
    if xa.idempotency != xb.idempotency:
        ia, ib = xa.idempotency, xb.idempotency
        out.append(
            Change(
                "exec.idempotency-changed", H, tool, "execution.idempotency",
                {"required": ia.required, "key_template": ia.key_template},
                {"required": ib.required, "key_template": ib.key_template},
                "idempotency "
                + (
                    ("now required" if ib.required else "no longer required")
                    if ia.required != ib.required
                    else "key template changed"
                ),
            )
        )  # fmt: skip
    fa = (xa.fallback, xa.fallback_max_age_seconds)
    fb = (xb.fallback, xb.fallback_max_age_seconds)
    if fa != fb:
        shown = {"fallback": fb[0], "fallback_max_age_seconds": fb[1]}
        out.append(
            Change(
                "exec.fallback-changed", H, tool, "execution.fallback",
                {"fallback": fa[0], "fallback_max_age_seconds": fa[1]}, shown,
                f"soft fallback {fa[0] or 'none'} → {fb[0] or 'none'}"
                + (f" (max age {fb[1]:g} s)" if fb[0] and fb[1] is not None else ""),
            )
        )  # fmt: skip
    return out


def _retry(policy: object) -> dict[str, object]:
    return {
        "max_attempts": getattr(policy, "max_attempts", 1),
        "backoff_base_seconds": getattr(policy, "backoff_base_seconds", 0.0),
        "backoff_cap_seconds": getattr(policy, "backoff_cap_seconds", 0.0),
    }


def _allows(perms: tuple[Permission, ...], role: str, scenario: str) -> bool:
    if not perms:
        return True  # a tool without permissions is open (runtime.policy)
    return any(p.role in ("*", role) and p.scenario in ("*", scenario) for p in perms)


def _permissions(a: ToolContract, b: ToolContract, tool: str) -> list[Change]:
    """Lost grants are breaking: for that caller the tool disappears."""
    pa, pb = a.permissions, b.permissions
    if pa == pb:
        return []
    out: list[Change] = []
    if not pa:
        shown = [f"{p.role}/{p.scenario}" for p in pb]
        out.append(
            Change(
                "tool.permissions-restricted", B, tool, "permissions", [], shown,
                f"open tool restricted to {', '.join(shown)}; other callers lose it",
            )
        )  # fmt: skip
        return out
    if not pb:
        shown = [f"{p.role}/{p.scenario}" for p in pa]
        out.append(
            Change(
                "tool.permissions-opened", C, tool, "permissions", shown, [],
                "every role and scenario may call it now",
            )
        )  # fmt: skip
        return out
    for p in pa:
        if not _allows(pb, p.role, p.scenario):
            out.append(
                Change(
                    "tool.permission-removed", B, tool, "permissions", f"{p.role}/{p.scenario}",
                    None, f"{p.role}/{p.scenario} may no longer call it",
                )
            )  # fmt: skip
    for p in pb:
        if not _allows(pa, p.role, p.scenario):
            out.append(
                Change(
                    "tool.permission-added", C, tool, "permissions", None,
                    f"{p.role}/{p.scenario}", f"{p.role}/{p.scenario} may call it now",
                )
            )  # fmt: skip
    return out


def _deprecation(a: ToolContract, b: ToolContract, tool: str) -> list[Change]:
    da, db = a.deprecated, b.deprecated
    if da == db:
        return []

    def shown(d: object) -> dict[str, str] | None:
        if d is None:
            return None
        return {"replacement": getattr(d, "replacement", ""), "reason": getattr(d, "reason", "")}

    if da is None and db is not None:
        rule = "tool.deprecated"
        text = "deprecated" + (f"; use {db.replacement}" if db.replacement else "")
    elif db is None:
        rule, text = "tool.undeprecated", "no longer deprecated"
    else:
        rule, text = "tool.deprecation-changed", "deprecation replacement or reason changed"
    return [Change(rule, H, tool, "deprecated", shown(da), shown(db), text)]


def _metadata(a: ToolContract, b: ToolContract, tool: str) -> list[Change]:
    out: list[Change] = []
    if a.title != b.title:
        out.append(Change("tool.title-changed", M, tool, "title", a.title, b.title, "title"))
    if sorted(a.tags) != sorted(b.tags):
        out.append(Change("tool.tags-changed", M, tool, "tags", list(a.tags), list(b.tags), "tags"))
    if a.domain != b.domain:
        out.append(Change("tool.domain-changed", M, tool, "domain", a.domain, b.domain, "domain"))
    return out
