"""Lint results as text, JSON and SARIF 2.1.0.

SARIF locations point into the registry-as-code folder that
``studio export --format dir`` writes: a tool's findings into
``tools/<name>.json`` at the line of the finding's JSON path in that file as
:mod:`studio.formats` writes it (the nearest enclosing key when the path
itself is absent, else line 1); registry-level findings into
``registry.json``.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import Any

from studio import __version__
from studio.contract.model import Registry
from studio.contract.problems import join_path
from studio.contract.token_count import ESTIMATE, format_count
from studio.lint.engine import LintReport, finding_tools, rule_info
from studio.lint.model import Finding, Severity
from studio.lint.scores import TDQS_DIMENSIONS, ToolScores, registry_tdqs

SARIF_SCHEMA = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
INFORMATION_URI = "https://tool-registry-studio.invalid/docs/lint"
"""Where the rule documentation lives (the project has no public site yet)."""

SARIF_LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
MANIFEST_URI = "registry.json"


def tool_uri(name: str) -> str:
    """The registry-as-code file of a tool (as :mod:`studio.formats.folder` names it)."""
    from studio.formats.folder import tool_file

    return tool_file(name)


# ---------------------------------------------------------------- text


def _where(f: Finding) -> str:
    tool = f.tool if f.tool is not None else "(registry)"
    return f"{tool} {f.path}" if f.path else tool


_SEVERITY_TEXT: dict[Severity, str] = {sev: sev.value for sev in Severity}
"""Each severity's value (an enum's ``.value`` is a descriptor call: ~15,000 per report)."""


def to_text(report: LintReport) -> str:
    """One line per finding (``severity rule-id tool path: message``) and a summary."""
    sev = _SEVERITY_TEXT
    # _where(f) written out: a call per finding is a tenth of the text report's time.
    lines = [
        f"{sev[f.severity]} {f.rule_id} "
        f"{'(registry)' if f.tool is None else f.tool}{' ' if f.path else ''}{f.path}: {f.message}"
        for f in report.findings
    ]
    for f in report.suppressed:
        lines.append(
            f"suppressed {f.rule_id} {_where(f)}: {f.message} (reason: {f.suppressed_reason})"
        )
    lines.extend(tdqs_lines(report.registry, report.scores))
    c = report.counts
    t = report.tokens
    approx = "≈ " if t.method == ESTIMATE else ""
    lines.append(
        f"{report.registry} [{report.profile}]: {c.get(Severity.ERROR, 0)} errors, "
        f"{c.get(Severity.WARNING, 0)} warnings, {c.get(Severity.INFO, 0)} info, "
        f"{len(report.suppressed)} suppressed; {len(report.tool_order)} tools, "
        f"{format_count(t.total, t.method)} per request, "
        f"{approx}{t.per_task} per task of {t.rounds} rounds"
    )
    return "\n".join(lines) + "\n"


TDQS_WORST_SHOWN = 5
"""Tools below tier B named in the text report, lowest first (the rest are counted)."""

_TDQS_LABELS = {key: label.lower() for key, label, _weight in TDQS_DIMENSIONS}


def tdqs_lines(registry: str, scores: Mapping[str, ToolScores]) -> list[str]:
    """The registry's TDQS and its weakest tools, in at most two lines.

    The registry score is ``0.6 · mean + 0.4 · min`` of its tools, so one weak
    tool pulls it down: the second line names the few tools below tier B
    (lowest first) with their weakest dimension, which is what to fix first.
    Nothing for a registry without tools.
    """
    summary = registry_tdqs(scores.values())
    if summary is None:
        return []
    tools = [(name, s.tdqs) for name, s in scores.items()]
    passing = sum(1 for _name, t in tools if t.tier in ("A", "B"))
    lines = [
        f"TDQS {summary.score:.1f} ({summary.tier}) for {registry}: 0.6 × mean "
        f"{summary.mean:.1f} + 0.4 × lowest {summary.minimum:.1f}; "
        f"{passing} of {summary.tool_count} tools at B or above"
    ]
    weak = sorted(
        ((t.score, i, name, t) for i, (name, t) in enumerate(tools) if t.tier not in ("A", "B")),
        key=lambda item: item[:2],
    )
    if weak:
        shown = []
        for score, _i, name, t in weak[:TDQS_WORST_SHOWN]:
            key = min(t.dimensions, key=t.dimensions.__getitem__)  # first lowest, spec order
            weakest = f"{_TDQS_LABELS.get(key, key)} {t.dimensions[key]}"
            shown.append(f"{name} {score:.1f} ({t.tier}, weakest: {weakest})")
        more = len(weak) - len(shown)
        tail = f"; {more} more" if more > 0 else ""
        lines.append(f"TDQS below B: {', '.join(shown)}{tail}")
    return lines


# ---------------------------------------------------------------- JSON


class FloatFreeList(list[Any]):
    """A JSON array whose items hold no float at any depth (findings: strings, null and
    lists of strings), so a writer that must check every float may pass over it: the
    report's findings are nine values in tens of thousands of objects."""

    __slots__ = ()


def finding_to_dict(f: Finding) -> dict[str, Any]:
    """A finding as plain JSON."""
    out: dict[str, Any] = {
        "rule_id": f.rule_id,
        "category": f.category,
        "severity": _SEVERITY_TEXT[f.severity],
        "tool": f.tool,
        "path": f.path,
        "message": f.message,
        "related": list(f.related),
    }
    if f.fix is not None:
        out["fix"] = f.fix.label
    if f.suppressed_reason is not None:
        out["suppressed_reason"] = f.suppressed_reason
    return out


def to_json(report: LintReport) -> dict[str, Any]:
    """The whole report as plain JSON (suppressed findings with their reasons)."""
    t = report.tokens
    return {
        "registry": report.registry,
        "profile": report.profile,
        "counts": {sev.value: report.counts.get(sev, 0) for sev in SARIF_LEVELS},
        "findings": FloatFreeList([finding_to_dict(f) for f in report.findings]),
        "suppressed": FloatFreeList([finding_to_dict(f) for f in report.suppressed]),
        "scores": {
            name: {**s.as_dict(), "average": s.average, "tdqs": s.tdqs.as_dict()}
            for name, s in report.scores.items()
        },
        # The registry on Glama's TDQS yardstick (studio.lint.scores): 0.6·mean + 0.4·min.
        "tdqs": tdqs.as_dict() if (tdqs := registry_tdqs(report.scores.values())) else None,
        "tokens": {
            "method": t.method,
            "exact": t.method != ESTIMATE,
            "per_tool": dict(t.per_tool),
            "total": t.total,
            "average": t.average,
            "rounds": t.rounds,
            "per_task": t.per_task,
        },
        "similar": [
            {
                "a": p.a,
                "b": p.b,
                "score": p.score,
                "shared_terms": list(p.shared_terms),
                "a_mentions_b": p.a_mentions_b,
                "b_mentions_a": p.b_mentions_a,
                "near_duplicate": p.near_duplicate,
                "confusable_names": p.confusable_names,
                "summary_score": p.summary_score,
                "cloned_blocks": list(p.cloned_blocks),
                "duplicate": p.duplicate,
                "severity": p.severity or None,
            }
            for p in report.similar
        ],
        "rules": list(report.rule_ids),
    }


# ---------------------------------------------------------------- SARIF


def json_line_map(value: Any) -> dict[str, int]:
    """1-based line of every JSON path in ``json.dumps(value, indent=2)``.

    Paths use :func:`studio.contract.join_path` syntax relative to the
    document (``parameters.properties.start_date``, ``errors[0].code``).
    """
    lines: dict[str, int] = {"": 1}

    def walk(v: Any, path: str, line: int) -> int:
        if isinstance(v, dict | list) and v:
            items = v.items() if isinstance(v, dict) else enumerate(v)
            cur = line
            for k, child in items:
                cur += 1
                p = join_path(path, k)
                lines[p] = cur
                cur = walk(child, p, cur)
            return cur + 1
        return line

    walk(value, "", 1)
    return lines


_LAST_SEGMENT = re.compile(r'(?:\.[^.\[\]]+|\["(?:[^"\\]|\\.)*"\]|\[\d+\])$')


def line_of(lines: dict[str, int], path: str) -> int:
    """The line of ``path``, else of its nearest ancestor present, else 1."""
    while path:
        if path in lines:
            return lines[path]
        shorter = _LAST_SEGMENT.sub("", path)
        if shorter == path:
            # The first segment has no leading dot.
            shorter = ""
        path = shorter
    return 1


def _rule_descriptor(rule_id: str) -> dict[str, Any]:
    rule = rule_info(rule_id)
    if rule is None:  # pragma: no cover - findings always come from known rules
        return {"id": rule_id}
    first = re.split(r"(?<=[.!?])\s", rule.rationale, maxsplit=1)[0]
    return {
        "id": rule.id,
        "name": rule.id,
        "shortDescription": {"text": first},
        "fullDescription": {"text": rule.rationale},
        "help": {"text": rule.rationale},
        "defaultConfiguration": {"level": SARIF_LEVELS[rule.default_severity]},
        "properties": {"category": rule.category},
    }


def to_sarif(report: LintReport, registry: Registry) -> dict[str, Any]:
    """The report as a SARIF 2.1.0 log for code-scanning tools.

    Args:
        report: The lint report.
        registry: The registry that was linted (to locate findings in the
            files the ``dir`` export writes).
    """
    from studio.contract import tool_to_dict

    all_findings = [*report.findings, *report.suppressed]
    rule_ids = list(dict.fromkeys([*report.rule_ids, *(f.rule_id for f in all_findings)]))
    index = {rid: i for i, rid in enumerate(rule_ids)}
    line_maps: dict[str, dict[str, int]] = {}
    tools = {t.name: t for t in registry.tools}

    def location(f: Finding) -> dict[str, Any]:
        if f.tool is not None and f.tool in tools:
            lines = line_maps.get(f.tool)
            if lines is None:
                lines = line_maps[f.tool] = json_line_map(tool_to_dict(tools[f.tool]))
            uri, line = tool_uri(f.tool), line_of(lines, f.path)
        else:
            uri, line = MANIFEST_URI, 1
        return {
            "physicalLocation": {
                "artifactLocation": {"uri": uri},
                "region": {"startLine": line},
            }
        }

    results = []
    for f in all_findings:
        result: dict[str, Any] = {
            "ruleId": f.rule_id,
            "ruleIndex": index[f.rule_id],
            "level": SARIF_LEVELS[f.severity],
            "message": {"text": f.message},
            "locations": [location(f)],
            "properties": {"tool": f.tool, "path": f.path, "related": list(f.related)},
        }
        others = finding_tools(f)[1:]
        if others:
            # A confusable pair is one result; the other tool is a related location.
            result["relatedLocations"] = [
                {
                    "id": i,
                    "physicalLocation": location(dataclasses.replace(f, tool=other))[
                        "physicalLocation"
                    ],
                    "message": {"text": other},
                }
                for i, other in enumerate(others, 1)
            ]
        if f.suppressed_reason is not None:
            result["suppressions"] = [{"kind": "external", "justification": f.suppressed_reason}]
        results.append(result)
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "tool-registry-studio-lint",
                        "version": __version__,
                        "informationUri": INFORMATION_URI,
                        "rules": [_rule_descriptor(rid) for rid in rule_ids],
                    }
                },
                "results": results,
                "properties": {
                    "registry": report.registry,
                    "profile": report.profile,
                    "tokens": {
                        "method": report.tokens.method,
                        "total": report.tokens.total,
                        "per_task": report.tokens.per_task,
                        "rounds": report.tokens.rounds,
                    },
                },
            }
        ],
    }
