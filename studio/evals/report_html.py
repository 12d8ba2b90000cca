"""The eval report as one self-contained HTML page: inline CSS and SVG, no external assets.

Charts are drawn as SVG by hand (a confusion heat map per variant × profile,
per-tool recall bars), so the file opens anywhere, offline, and can be
attached to a CI run or a review. Every text from the run is escaped.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from studio.evals.compare import Report
from studio.evals.metrics import Confusion, Metrics
from studio.evals.report import (
    comparison_details,
    comparison_sentence,
    details_rows,
    group_name,
    headline_rows,
    pct,
    points,
)
from studio.evals.stats import Comparison

_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI","Noto Sans CJK SC","Microsoft YaHei",sans-serif;
margin:2em;color:#1f2328;background:#fff}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.8em}
table{border-collapse:collapse;margin:.6em 0}
td,th{border:1px solid #d0d7de;padding:.25em .6em;text-align:left;font-size:.92em}
th{background:#f6f8fa}.num{text-align:right}
.better{color:#1a7f37}.worse{color:#cf222e}.broken{color:#cf222e}.fixed{color:#1a7f37}
.verdict{font-size:1.1em;font-weight:600}
svg text{font-family:inherit;font-size:11px}
@media (prefers-color-scheme:dark){body{background:#0d1117;color:#e6edf3}
th{background:#161b22}td,th{border-color:#30363d}svg text{fill:#e6edf3}}
"""


def _table(rows: Sequence[Sequence[str]], numeric_from: int = 1) -> str:
    head = "".join(f"<th>{escape(c)}</th>" for c in rows[0])
    body = []
    for row in rows[1:]:
        cells = "".join(
            f'<td class="num">{escape(c)}</td>' if i >= numeric_from else f"<td>{escape(c)}</td>"
            for i, c in enumerate(row)
        )
        body.append(f"<tr>{cells}</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def heat_map(confusion: Confusion, cell: int = 26) -> str:
    """Expected (rows) × chosen (columns), shaded by the share of the row; counts written in."""
    labels = [
        lab for lab in confusion.labels if confusion.row_total(lab) or _column_total(confusion, lab)
    ]
    if not labels:
        return "<p>No scored attempts.</p>"
    longest = max(len(lab) for lab in labels)
    margin = 8 + 7 * longest
    size = margin + cell * len(labels) + 10
    width = size + 4 * longest  # the rotated column labels lean right
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{size}" '
        f'role="img" aria-label="confusion matrix">'
    ]
    for i, label in enumerate(labels):
        y = margin + i * cell
        parts.append(f'<text x="{margin - 4}" y="{y + cell * 0.65:.0f}" text-anchor="end">'
                     f"{escape(label)}</text>")  # fmt: skip
        x = margin + i * cell + cell * 0.65
        parts.append(f'<text transform="translate({x:.0f},{margin - 4}) rotate(-60)">'
                     f"{escape(label)}</text>")  # fmt: skip
    for i, expected in enumerate(labels):
        total = confusion.row_total(expected)
        for j, chosen in enumerate(labels):
            n = confusion.count(expected, chosen)
            share = n / total if total else 0.0
            # Green on the diagonal, red off it, deeper with the share of the row.
            fill = _shade(_GREEN if i == j else _RED, share)
            x, y = margin + j * cell, margin + i * cell
            title = f"{expected} → {chosen}: {n}"
            parts.append(
                f'<rect x="{x}" y="{y}" width="{cell - 1}" height="{cell - 1}" '
                f'fill="{fill}"><title>{escape(title)}</title></rect>'
            )
            if n:
                colour = "#fff" if share > 0.6 else "#1f2328"
                parts.append(f'<text x="{x + cell / 2:.0f}" y="{y + cell * 0.65:.0f}" '
                             f'text-anchor="middle" style="fill:{colour}">{n}</text>')  # fmt: skip
    parts.append("</svg>")
    return "".join(parts)


_GREEN = (26, 127, 55)
_RED = (207, 34, 46)
_EMPTY = (246, 248, 250)


def _shade(colour: tuple[int, int, int], share: float) -> str:
    """``#rrggbb`` between a near-white and ``colour`` (hex: SVG Tiny renderers lack hsl())."""
    mixed = (round(e + (c - e) * share) for e, c in zip(_EMPTY, colour, strict=True))
    return "#" + "".join(f"{v:02x}" for v in mixed)


def _column_total(confusion: Confusion, chosen: str) -> int:
    return sum(n for (_, c), n in confusion.counts.items() if c == chosen)


def tool_bars(report: Report, width: int = 360, bar: int = 12) -> str:
    """Per-tool recall, one bar per variant × profile, side by side."""
    groups = list(report.groups.items())
    tools = sorted({t.tool for _, m in groups for t in m.tools if t.support})
    if not tools:
        return ""
    colours = ["#8c959f", "#0969da", "#bf8700", "#8250df"]
    label_w = 8 + 7 * max(len(t) for t in tools)
    row_h = bar * len(groups) + 8
    height = row_h * len(tools) + 24
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{label_w + width + 60}" '
        f'height="{height}" role="img" aria-label="recall per tool">'
    ]
    for i, tool in enumerate(tools):
        y0 = i * row_h
        parts.append(f'<text x="{label_w - 6}" y="{y0 + row_h / 2 + 3:.0f}" '
                     f'text-anchor="end">{escape(tool)}</text>')  # fmt: skip
        for g, (key, m) in enumerate(groups):
            score = next((t for t in m.tools if t.tool == tool), None)
            recall = score.recall if score and score.recall is not None else 0.0
            y = y0 + g * bar + 4
            w = max(1.0, recall * width)
            title = f"{group_name(key)} · {tool}: recall {pct(score.recall if score else None)}"
            parts.append(
                f'<rect x="{label_w}" y="{y}" width="{w:.1f}" height="{bar - 2}" '
                f'fill="{colours[g % len(colours)]}"><title>{escape(title)}</title></rect>'
                f'<text x="{label_w + w + 4:.1f}" y="{y + bar - 3}">{pct(recall)}</text>'
            )
    legend_y = len(tools) * row_h + 16
    x = label_w
    for g, (key, _) in enumerate(groups):
        parts.append(
            f'<rect x="{x}" y="{legend_y - 9}" width="10" height="10" '
            f'fill="{colours[g % len(colours)]}"/>'
            f'<text x="{x + 14}" y="{legend_y}">{escape(group_name(key))}</text>'
        )
        x += 24 + 7 * len(group_name(key))
    parts.append("</svg>")
    return "".join(parts)


def _comparison(c: Comparison) -> str:
    klass = {"better": "better", "worse": "worse"}.get(c.verdict, "")
    out = [f'<h2>A vs B</h2><p class="verdict {klass}">{escape(comparison_sentence(c))}</p>']
    out.append("<ul>" + "".join(f"<li>{escape(x)}</li>" for x in comparison_details(c)) + "</ul>")
    if c.flips:
        out.append("<h2>Flips (broken first)</h2>")
        rows = [["", "case", "profile", "expected", f"{c.a_label} chose", f"{c.b_label} chose",
                 "why it fails"]]  # fmt: skip
        for p in c.flips:
            why = p.b_failures if p.status == "broken" else p.a_failures
            rows.append([p.status, p.case_id, p.profile, p.expected, p.a_chosen, p.b_chosen,
                         "; ".join(why) or "—"])  # fmt: skip
        out.append(_table(rows, numeric_from=99))
    if c.tools:
        out.append("<h2>Per tool</h2>")
        rows = [["tool", "cases", c.a_label, c.b_label, "delta", "fixed", "broken"]]
        rows += [[t.tool, str(t.cases), pct(t.a_accuracy), pct(t.b_accuracy), points(t.delta),
                  str(t.fixed), str(t.broken)] for t in c.tools]  # fmt: skip
        out.append(_table(rows))
    return "".join(out)


def _group(key: tuple[str, str], m: Metrics) -> str:
    return (
        f"<h2>{escape(group_name(key))}</h2>"
        + _table([["metric", "value"], *[list(r) for r in details_rows(m)]], numeric_from=99)
        + "<h3>Confusion (expected × chosen)</h3>"
        + heat_map(m.confusion)
    )


def to_html(report: Report) -> str:
    title = report.title or "Eval report"
    body = [f"<h1>{escape(title)}</h1>", _table(headline_rows(report))]
    if report.comparison is not None:
        body.append(_comparison(report.comparison))
    bars = tool_bars(report)
    if bars:
        body.append("<h2>Recall per tool</h2>" + bars)
    body += [_group(key, m) for key, m in report.groups.items()]
    body += [f"<p><em>{escape(note)}</em></p>" for note in report.notes]
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{escape(title)}</title><style>{_CSS}</style></head><body>"
        + "\n".join(body)
        + "</body></html>\n"
    )
