"""Render an eval report as text, JSON, JUnit XML, Markdown or HTML (issue #12, parts 8–9).

Every format starts from the same table the issue asks for — per variant ×
profile: selection, arguments raw, arguments after the pipeline, end-to-end —
then, when two variants were compared, the A vs B headline (difference, 95 %
interval, exact McNemar p, verdict, cases needed), the flips (broken first) and
the per-tool deltas, then the confusion and the details (pass^k, tokens and
cost, latency). JUnit XML has one ``testcase`` per case × variant (× profile
when there are several) so CI systems list the failing cases with their reasons.
HTML is self-contained (:mod:`studio.evals.report_html`).
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Callable, Sequence
from typing import Any
from xml.etree import ElementTree as ET

from studio.evals.compare import Report
from studio.evals.metrics import Metrics
from studio.evals.results import Attempt
from studio.evals.stats import Comparison

FORMATS = ("text", "json", "junit", "md", "html")
DASH = "—"
MAX_FLIPS = 50


def pct(value: float | None) -> str:
    return DASH if value is None else f"{value * 100:.1f} %"


def points(value: float | None) -> str:
    return DASH if value is None else f"{value * 100:+.1f} pts"


def group_name(key: tuple[str, str]) -> str:
    return f"{key[0]} · {key[1]}"


def headline_rows(report: Report) -> list[list[str]]:
    """The issue's table: one row per variant × profile."""
    header = ["Variant · profile", "Cases", "Selection", "Arguments raw",
              "Arguments after pipeline", "End-to-end"]  # fmt: skip
    rows = [header]
    for key, m in report.groups.items():
        rows.append([
            group_name(key), str(m.cases), pct(m.selection), pct(m.arguments_raw),
            pct(m.arguments_pipeline), pct(m.end_to_end),
        ])  # fmt: skip
    return rows


def comparison_sentence(c: Comparison) -> str:
    """``draft vs v1: +22.6 pts (95 % CI +14.0 … +31.2), exact McNemar p = 0.0001 — better``."""
    interval = ""
    if c.interval is not None:
        low, high = c.interval
        interval = f" (95 % CI {low * 100:+.1f} … {high * 100:+.1f})"
    return (
        f"{c.b_label} vs {c.a_label}: {pct(c.a_accuracy)} → {pct(c.b_accuracy)}, "
        f"{points(c.difference)}{interval}, exact McNemar p = {c.p_value:.4g} — {c.verdict}"
    )


def comparison_details(c: Comparison) -> list[str]:
    unchanged = len(c.pairs) - c.fixed - c.broken
    lines = [
        f"fixed {c.fixed}, broken {c.broken}, unchanged {unchanged} "
        f"({len(c.pairs)} paired cases, outcome: {c.outcome})",
        f"cases needed to detect a 5-point change (α 0.05, power 0.8): ~{c.cases_needed}",
    ]
    if c.only_a or c.only_b:
        lines.append(f"not paired: {c.only_a} only in {c.a_label}, {c.only_b} only in {c.b_label}")
    return lines


def display_width(text: str) -> int:
    """Columns a terminal gives ``text``: wide (CJK) characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _align(rows: Sequence[Sequence[str]]) -> list[str]:
    widths = [max(display_width(r[i]) for r in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(c + " " * (w - display_width(c)) for c, w in zip(r, widths, strict=True)).rstrip()
        for r in rows
    ]


def details_rows(m: Metrics) -> list[tuple[str, str]]:
    cost = m.cost
    money = DASH
    if cost.per_case is not None:
        money = f"{cost.per_case:.5f} {cost.currency}/case, {cost.per_1000_cases:.2f} per 1,000"
    rows = [
        ("attempts", f"{m.attempts} ({m.scored} scored, {m.errors} errors, {m.skipped} skipped, "
                     f"{m.cached} cached)"),
        ("abstention", f"{pct(m.abstention)} of {m.abstention_cases}"),
        ("repaired by the pipeline", f"{pct(m.repaired_share)} of {m.calls} calls"),
        ("invalid after repair", str(m.invalid_calls)),
        ("pass^k", " ".join(f"k={k}: {pct(v)}" for k, v in m.pass_hat_k.items()) or DASH),
        ("pass@k", " ".join(f"k={k}: {pct(v)}" for k, v in m.pass_at_k.items()) or DASH),
        ("tokens per case",
         f"in {cost.tokens_in_per_case:.0f} · out {cost.tokens_out_per_case:.0f}"),
        ("C = N·t̄·R", f"{cost.calls_per_task:.2f} × {cost.tokens_per_call:.0f} × "
                      f"{cost.rounds:.0f} = {cost.tokens_per_task:.0f} tokens/case"),
        ("cost", money),
        ("latency", f"p50 {_ms(m.latency_p50_ms)} · p95 {_ms(m.latency_p95_ms)}"),
    ]  # fmt: skip
    if m.grounded is not None:
        rows.append(("grounded answers", pct(m.grounded)))
    if m.false_success is not None:
        rows.append(("answered as if a failed call succeeded",
                     f"{pct(m.false_success)} of {m.false_success_cases}"))  # fmt: skip
    for message, count in m.error_messages:
        rows.append(("error", f"{count} × {message}"))
    return rows


def _ms(value: float | None) -> str:
    return DASH if value is None else f"{value:.0f} ms"


def _failure(pair_failures: Sequence[str]) -> str:
    return "; ".join(pair_failures) or DASH


# ---------------------------------------------------------------------- text


def to_text(report: Report) -> str:
    out: list[str] = []
    if report.title:
        out += [report.title, ""]
    out += _align(headline_rows(report))
    c = report.comparison
    if c is not None:
        out += ["", comparison_sentence(c), *comparison_details(c)]
        if c.flips:
            out += ["", "Flips (broken first):"]
            rows = [["", "case", "profile", "expected", f"{c.a_label} chose", f"{c.b_label} chose",
                     "why it fails"]]  # fmt: skip
            for p in c.flips[:MAX_FLIPS]:
                why = _failure(p.b_failures if p.status == "broken" else p.a_failures)
                rows.append(
                    [p.status, p.case_id, p.profile, p.expected, p.a_chosen, p.b_chosen, why]
                )
            out += ["  " + line for line in _align(rows)]
            if len(c.flips) > MAX_FLIPS:
                out.append(f"  … and {len(c.flips) - MAX_FLIPS} more")
        if c.tools:
            out += ["", "Per tool (expected):"]
            rows = [["tool", "cases", c.a_label, c.b_label, "delta", "fixed", "broken"]]
            for t in c.tools:
                rows.append([t.tool, str(t.cases), pct(t.a_accuracy), pct(t.b_accuracy),
                             points(t.delta), str(t.fixed), str(t.broken)])  # fmt: skip
            out += ["  " + line for line in _align(rows)]
    for key, m in report.groups.items():
        out += ["", f"{group_name(key)}:"]
        out += [f"  {name}: {value}" for name, value in details_rows(m)]
        confusions = m.confusion.off_diagonal()[:10]
        if confusions:
            out.append("  most frequent confusions (expected → chosen):")
            out += [f"    {e} → {ch}: {n}" for e, ch, n in confusions]
        if m.tools:
            rows = [["tool", "support", "precision", "recall", "F1"]]
            rows += [[t.tool, str(t.support), pct(t.precision), pct(t.recall), pct(t.f1)]
                     for t in m.tools]  # fmt: skip
            out += ["    " + line for line in _align(rows)]
    for note in report.notes:
        out += ["", f"note: {note}"]
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------- markdown


def _md_table(rows: Sequence[Sequence[str]]) -> list[str]:
    def cell(text: str) -> str:
        return text.replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(cell(c) for c in rows[0]) + " |"]
    lines.append("|" + "|".join("---" for _ in rows[0]) + "|")
    lines += ["| " + " | ".join(cell(c) for c in r) + " |" for r in rows[1:]]
    return lines


def to_markdown(report: Report) -> str:
    out = [f"# {report.title or 'Eval report'}", ""]
    out += _md_table(headline_rows(report))
    c = report.comparison
    if c is not None:
        out += ["", "## A vs B", "", f"**{comparison_sentence(c)}**", ""]
        out += [f"- {line}" for line in comparison_details(c)]
        if c.flips:
            out += ["", "### Flips (broken first)", ""]
            rows = [["", "case", "profile", "expected", f"{c.a_label} chose",
                     f"{c.b_label} chose", "why it fails"]]  # fmt: skip
            for p in c.flips[:MAX_FLIPS]:
                why = _failure(p.b_failures if p.status == "broken" else p.a_failures)
                rows.append([p.status, f"`{p.case_id}`", p.profile, p.expected, p.a_chosen,
                             p.b_chosen, why])  # fmt: skip
            out += _md_table(rows)
        if c.tools:
            out += ["", "### Per tool", ""]
            rows = [["tool", "cases", c.a_label, c.b_label, "delta", "fixed", "broken"]]
            rows += [[t.tool, str(t.cases), pct(t.a_accuracy), pct(t.b_accuracy),
                      points(t.delta), str(t.fixed), str(t.broken)] for t in c.tools]  # fmt: skip
            out += _md_table(rows)
    for key, m in report.groups.items():
        out += ["", f"## {group_name(key)}", ""]
        out += _md_table([["metric", "value"], *[list(r) for r in details_rows(m)]])
        confusions = m.confusion.off_diagonal()[:10]
        if confusions:
            out += ["", "Most frequent confusions:", ""]
            out += _md_table([["expected", "chosen", "count"],
                              *[[e, ch, str(n)] for e, ch, n in confusions]])  # fmt: skip
    for note in report.notes:
        out += ["", f"> {note}"]
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------- JSON


def _metrics_json(m: Metrics) -> dict[str, Any]:
    cost = m.cost
    return {
        "attempts": m.attempts, "scored": m.scored, "errors": m.errors, "skipped": m.skipped,
        "cached": m.cached, "cases": m.cases, "repetitions": m.repetitions,
        "selection": m.selection, "arguments_raw": m.arguments_raw,
        "arguments_pipeline": m.arguments_pipeline,
        "arguments_given_selection": m.arguments_given_selection,
        "repaired_share": m.repaired_share, "invalid_calls": m.invalid_calls, "calls": m.calls,
        "abstention": m.abstention, "abstention_cases": m.abstention_cases,
        "pass_hat_k": {str(k): v for k, v in m.pass_hat_k.items()},
        "pass_at_k": {str(k): v for k, v in m.pass_at_k.items()},
        "cost": {
            "tokens_in_per_case": cost.tokens_in_per_case,
            "tokens_out_per_case": cost.tokens_out_per_case,
            "calls_per_task": cost.calls_per_task, "tokens_per_call": cost.tokens_per_call,
            "rounds": cost.rounds, "tokens_per_task": cost.tokens_per_task,
            "per_case": cost.per_case, "per_1000_cases": cost.per_1000_cases,
            "currency": cost.currency or None,
        },
        "latency_ms": {"p50": m.latency_p50_ms, "p95": m.latency_p95_ms},
        "end_to_end": m.end_to_end, "grounded": m.grounded,
        "false_success": m.false_success, "false_success_cases": m.false_success_cases,
        "confusion": {
            "labels": list(m.confusion.labels),
            "matrix": [[m.confusion.count(e, c) for c in m.confusion.labels]
                       for e in m.confusion.labels],
        },
        "tools": [
            {"tool": t.tool, "support": t.support, "precision": t.precision, "recall": t.recall,
             "f1": t.f1} for t in m.tools
        ],
        "errors_by_message": [{"message": msg, "count": n} for msg, n in m.error_messages],
    }  # fmt: skip


def comparison_json(c: Comparison) -> dict[str, Any]:
    return {
        "a": c.a_label, "b": c.b_label, "outcome": c.outcome,
        "a_accuracy": c.a_accuracy, "b_accuracy": c.b_accuracy, "difference": c.difference,
        "interval_95": list(c.interval) if c.interval else None,
        "fixed": c.fixed, "broken": c.broken,
        "unchanged": len(c.pairs) - c.fixed - c.broken,
        "mcnemar_exact_p": c.p_value, "verdict": c.verdict,
        "cases_needed_for_5_points": c.cases_needed,
        "not_paired": {"only_a": c.only_a, "only_b": c.only_b},
        "flips": [
            {"status": p.status, "case": p.case_id, "profile": p.profile,
             "expected": p.expected, "a_chosen": p.a_chosen, "b_chosen": p.b_chosen,
             "a_rate": p.a_rate, "b_rate": p.b_rate,
             "a_failures": list(p.a_failures), "b_failures": list(p.b_failures)}
            for p in c.flips
        ],
        "tools": [
            {"tool": t.tool, "cases": t.cases, "a_accuracy": t.a_accuracy,
             "b_accuracy": t.b_accuracy, "delta": t.delta, "fixed": t.fixed, "broken": t.broken}
            for t in c.tools
        ],
    }  # fmt: skip


def to_json_data(report: Report) -> dict[str, Any]:
    return {
        "format": "tool-registry-studio/eval-report@1",
        "title": report.title,
        "outcome": report.outcome,
        "groups": [
            {"variant": key[0], "profile": key[1], **_metrics_json(m)}
            for key, m in report.groups.items()
        ],
        "comparison": comparison_json(report.comparison) if report.comparison else None,
        "notes": list(report.notes),
    }


def to_json(report: Report) -> str:
    return json.dumps(to_json_data(report), ensure_ascii=False, indent=2) + "\n"


# ---------------------------------------------------------------------- JUnit XML


def to_junit(report: Report) -> str:
    """One testcase per case × variant (× profile when several); failures with reasons."""
    cases: dict[tuple[str, str, str], list[Attempt]] = {}
    for a in report.attempts:
        cases.setdefault((a.variant, a.profile, a.case_id), []).append(a)
    several_profiles = len({a.profile for a in report.attempts}) > 1
    root = ET.Element("testsuites", name=report.title or "studio eval")
    suites: dict[str, ET.Element] = {}
    totals: dict[str, list[int]] = {}
    for (variant, profile, case_id), attempts in cases.items():
        suite_name = f"{variant} · {profile}" if several_profiles else variant
        suite = suites.get(suite_name)
        if suite is None:
            suite = suites[suite_name] = ET.SubElement(root, "testsuite", name=suite_name)
            totals[suite_name] = [0, 0, 0, 0]
        counts = totals[suite_name]
        case = ET.SubElement(suite, "testcase", name=case_id, classname=suite_name)
        case.set("time", f"{sum(a.latency_ms for a in attempts) / 1000:.3f}")
        counts[0] += 1
        scored = [a for a in attempts if a.scored and a.pipeline is not None]
        if not scored:
            problem = next((a for a in attempts if a.status == "error"), None)
            if problem is not None:
                ET.SubElement(case, "error", message=problem.error or "error").text = problem.error
                counts[2] += 1
            else:
                ET.SubElement(case, "skipped", message=attempts[0].error or "not run")
                counts[3] += 1
            continue
        failed = [a for a in scored if a.pipeline is not None and not a.pipeline.passed]
        if 2 * len(failed) >= len(scored) and failed:
            reasons = failed[0].pipeline.failures if failed[0].pipeline else ()
            message = "; ".join(reasons) or "failed"
            body = [
                f"{len(failed)} of {len(scored)} tries failed",
                f"expected: {failed[0].expected}",
                f"chose: {failed[0].chosen}",
                *reasons,
            ]
            ET.SubElement(case, "failure", message=message, type="eval").text = "\n".join(body)
            counts[1] += 1
    for name, suite in suites.items():
        tests, failures, errors, skipped = totals[name]
        suite.set("tests", str(tests))
        suite.set("failures", str(failures))
        suite.set("errors", str(errors))
        suite.set("skipped", str(skipped))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


# ---------------------------------------------------------------------- dispatch


def render(report: Report, fmt: str) -> str:
    """The report in ``fmt`` (one of :data:`FORMATS`)."""
    renderers: dict[str, Callable[[Report], str]] = {
        "text": to_text,
        "json": to_json,
        "junit": to_junit,
        "md": to_markdown,
    }
    if fmt == "html":
        from studio.evals.report_html import to_html

        return to_html(report)
    if fmt not in renderers:
        raise ValueError(f"unknown report format {fmt!r}; expected one of {', '.join(FORMATS)}")
    return renderers[fmt](report)
