"""A diff as text (terminal), Markdown (a pull request) and JSON (machines)."""

from __future__ import annotations

import html
import json
from dataclasses import replace
from typing import Any

from studio.diff.model import (
    CLASS_ORDER,
    BlockDiff,
    Change,
    RegistryDiff,
    ToolDiff,
    ToolStatus,
)

JSON_FORMAT = "tool-registry-studio/diff@1"


def _counts_line(diff: RegistryDiff) -> str:
    return ", ".join(f"{diff.counts[k]} {k.value}" for k in CLASS_ORDER)


def _status_line(diff: RegistryDiff) -> str:
    by_status = {s: 0 for s in ToolStatus}
    for tool in diff.tools:
        by_status[tool.status] += 1
    return ", ".join(f"{n} {s.value}" for s, n in by_status.items() if n) or "no tools"


def _title(tool: ToolDiff) -> str:
    if tool.status is ToolStatus.RENAMED:
        return f"{tool.old_name} → {tool.name}"
    return tool.name


def _badge(tool: ToolDiff) -> str:
    worst = tool.worst
    return tool.status.value + (f", {worst.value}" if worst else "")


def _inline(block: BlockDiff, deleted: tuple[str, str], inserted: tuple[str, str]) -> str:
    parts = []
    for op in block.ops:
        if op.op == "equal":
            parts.append(op.before)
            continue
        if op.before:
            parts.append(f"{deleted[0]}{op.before}{deleted[1]}")
        if op.after:
            parts.append(f"{inserted[0]}{op.after}{inserted[1]}")
    return "".join(parts)


def _sorted_tools(diff: RegistryDiff) -> list[ToolDiff]:
    return [t for t in diff.tools if t.status is not ToolStatus.UNCHANGED]


# ---------------------------------------------------------------------- text


def to_text(diff: RegistryDiff) -> str:
    """A plain-text report: summary, per-tool changes, word diffs, lint and token deltas."""
    lines = [
        f"{diff.registry}: {diff.a_label} → {diff.b_label}",
        f"suggested bump: {diff.semver.level}"
        + (f" ({', '.join(diff.semver.reasons)})" if diff.semver.reasons else " (no changes)"),
        f"changes: {_counts_line(diff)}",
        f"tools: {_status_line(diff)}",
    ]
    if diff.registry_changes:
        lines += ["", "registry"]
        lines += [_text_change(c) for c in diff.registry_changes]
    for tool in _sorted_tools(diff):
        lines += ["", f"{_title(tool)} [{_badge(tool)}]"]
        lines += [_text_change(c) for c in tool.changes]
        for block in tool.blocks:
            text = _inline(block, ("[-", "-]"), ("{+", "+}"))
            lines.append(f"  {block.block}: " + text.replace("\n", "\n    "))
    rejected = [r for r in diff.renames if not r.accepted]
    for r in rejected:
        lines.append(f"\nrename {r.old} → {r.new} rejected (similarity {r.score:.2f})")
    if diff.lint_delta is not None:
        ld = diff.lint_delta
        lines += ["", f"lint ({ld.profile}): {ld.count_before} → {ld.count_after} findings, "
                  f"{len(ld.added)} added, {len(ld.fixed)} fixed"]  # fmt: skip
        lines += [
            f"  + {i.rule_id} {i.tool or '(registry)'} {i.path} {i.message}" for i in ld.added
        ]
        lines += [
            f"  - {i.rule_id} {i.tool or '(registry)'} {i.path} {i.message}" for i in ld.fixed
        ]
        if ld.gone:
            lines.append(f"  ({len(ld.gone)} findings of removed tools went with them)")
    td = diff.token_delta
    lines += ["", f"tokens ({td.method}): {td.total_before} → {td.total_after} "
              f"({td.total_delta:+d})"]  # fmt: skip
    for name, (before, after) in td.per_tool.items():
        if before != after:
            lines.append(f"  {name}: {before} → {after} ({after - before:+d})")
    return "\n".join(lines) + "\n"


def _text_change(c: Change) -> str:
    return f"  {c.klass.value:<12} {c.rule_id:<40} {c.path or '-'}  {c.message}"


# ---------------------------------------------------------------------- Markdown


def _cell(text: Any) -> str:
    value = text if isinstance(text, str) else json.dumps(text, ensure_ascii=False)
    return value.replace("|", "\\|").replace("\n", "<br>")


def _md_value(value: Any) -> str:
    if value is None:
        return "—"
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    if len(text) > 80:
        text = text[:77] + "…"
    return "`" + _cell(text).replace("`", "'") + "`"


def to_markdown(diff: RegistryDiff) -> str:
    """A Markdown report for a pull request: summary, per-tool tables, deltas."""
    out = [f"# `{diff.registry}`: {diff.a_label} → {diff.b_label}", ""]
    reasons = ", ".join(f"`{r}`" for r in diff.semver.reasons) or "no changes"
    out += [f"**Suggested bump: {diff.semver.level}** ({reasons})", ""]
    out += ["## Changes: " + " · ".join(f"{diff.counts[k]} {k.value}" for k in CLASS_ORDER), ""]
    out += ["| " + " | ".join(k.value.capitalize() for k in CLASS_ORDER) + " |"]
    out += ["|" + "---:|" * len(CLASS_ORDER)]
    out += ["| " + " | ".join(str(diff.counts[k]) for k in CLASS_ORDER) + " |", ""]
    out += [f"Tools: {_status_line(diff)}.", ""]
    if diff.registry_changes:
        out += ["## Registry", ""]
        out += _md_table(diff.registry_changes)
    tools = _sorted_tools(diff)
    if tools:
        out += ["## Tools", ""]
    for tool in tools:
        out += [f"### `{_title(tool)}` — {_badge(tool)}", ""]
        if tool.rename_score is not None:
            out += [f"Rename detected with similarity {tool.rename_score:.2f}.", ""]
        out += _md_table(tool.changes)
        for block in tool.blocks:
            text = _inline(_escaped(block), ("<del>", "</del>"), ("<ins>", "</ins>"))
            out += [f"**{block.block}**:", "", "> " + text.replace("\n", "\n> "), ""]
    rejected = [r for r in diff.renames if not r.accepted]
    if rejected:
        out += ["## Renames rejected", ""]
        out += [f"- `{r.old}` → `{r.new}` (similarity {r.score:.2f})" for r in rejected]
        out.append("")
    if diff.lint_delta is not None:
        ld = diff.lint_delta
        out += [
            f"## Lint ({ld.profile}): {len(ld.added)} added, {len(ld.fixed)} fixed",
            "",
            f"{ld.count_before} findings before, {ld.count_after} after"
            + (f"; {len(ld.gone)} went with removed tools." if ld.gone else "."),
            "",
        ]
        if ld.added or ld.fixed:
            out += ["| | Rule | Tool | Path | Message |", "|---|---|---|---|---|"]
            for sign, items in (("added", ld.added), ("fixed", ld.fixed)):
                out += [
                    f"| {sign} | `{i.rule_id}` | {_cell(i.tool or '(registry)')} | "
                    f"{_cell(i.path) or '—'} | {_cell(i.message)} |"
                    for i in items
                ]
            out.append("")
    td = diff.token_delta
    out += [
        f"## Tokens ({td.method}): {td.total_before} → {td.total_after} ({td.total_delta:+d})",
        "",
    ]
    moved = [(n, p) for n, p in td.per_tool.items() if p[0] != p[1]]
    if moved:
        out += ["| Tool | Before | After | Δ |", "|---|---:|---:|---:|"]
        out += [f"| `{n}` | {b} | {a} | {a - b:+d} |" for n, (b, a) in moved]
        out += [f"| **total** | {td.total_before} | {td.total_after} | {td.total_delta:+d} |", ""]
    return "\n".join(out).rstrip() + "\n"


def _escaped(block: BlockDiff) -> BlockDiff:
    """The block with HTML specials escaped, for ``<del>``/``<ins>`` markup."""
    ops = tuple(
        replace(o, before=html.escape(o.before), after=html.escape(o.after)) for o in block.ops
    )
    return replace(block, ops=ops)


def _md_table(changes: tuple[Change, ...]) -> list[str]:
    rows = ["| Class | Rule | Path | Before | After | Change |", "|---|---|---|---|---|---|"]
    for c in changes:
        rows.append(
            f"| {c.klass.value} | `{c.rule_id}` | `{_cell(c.path) or '—'}` | "
            f"{_md_value(c.before)} | {_md_value(c.after)} | {_cell(c.message)} |"
        )
    return [*rows, ""]


# ---------------------------------------------------------------------- JSON


def change_to_json(c: Change) -> dict[str, Any]:
    """One change as a JSON object."""
    return {
        "rule_id": c.rule_id,
        "class": c.klass.value,
        "tool": c.tool,
        "path": c.path,
        "before": c.before,
        "after": c.after,
        "message": c.message,
    }


def to_json(diff: RegistryDiff) -> dict[str, Any]:
    """The diff as a JSON-ready document (``format: tool-registry-studio/diff@1``)."""
    ld = diff.lint_delta
    td = diff.token_delta
    return {
        "format": JSON_FORMAT,
        "registry": diff.registry,
        "a": diff.a_label,
        "b": diff.b_label,
        "counts": {k.value: diff.counts[k] for k in CLASS_ORDER},
        "semver": {"level": diff.semver.level, "reasons": list(diff.semver.reasons)},
        "registry_changes": [change_to_json(c) for c in diff.registry_changes],
        "tools": [
            {
                "name": t.name,
                "old_name": t.old_name,
                "status": t.status.value,
                "worst": t.worst.value if t.worst else None,
                "rename_score": t.rename_score,
                "counts": {k.value: n for k, n in t.counts().items()},
                "changes": [change_to_json(c) for c in t.changes],
                "blocks": [
                    {
                        "block": b.block,
                        "before": b.before,
                        "after": b.after,
                        "ops": [{"op": o.op, "before": o.before, "after": o.after} for o in b.ops],
                    }
                    for b in t.blocks
                ],
            }
            for t in diff.tools
        ],
        "renames": [
            {
                "old": r.old,
                "new": r.new,
                "score": r.score,
                "name_score": r.name_score,
                "description_score": r.description_score,
                "schema_score": r.schema_score,
                "accepted": r.accepted,
                "source": r.source,
            }
            for r in diff.renames
        ],
        "lint_delta": None
        if ld is None
        else {
            "profile": ld.profile,
            "count_before": ld.count_before,
            "count_after": ld.count_after,
            "added": [_lint_item(i) for i in ld.added],
            "fixed": [_lint_item(i) for i in ld.fixed],
            "gone": [_lint_item(i) for i in ld.gone],
        },
        "token_delta": {
            "method": td.method,
            "total_before": td.total_before,
            "total_after": td.total_after,
            "delta": td.total_delta,
            "per_tool": {
                name: {"before": b, "after": a, "delta": a - b}
                for name, (b, a) in td.per_tool.items()
            },
        },
    }


def _lint_item(i: Any) -> dict[str, Any]:
    return {
        "rule_id": i.rule_id,
        "severity": i.severity,
        "tool": i.tool,
        "path": i.path,
        "message": i.message,
    }


__all__ = ["change_to_json", "to_json", "to_markdown", "to_text"]
