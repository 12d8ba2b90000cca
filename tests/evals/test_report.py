"""Eval reports: the issue's table, A vs B, JUnit for CI, Markdown, self-contained HTML."""

from __future__ import annotations

import json
from xml.etree import ElementTree as ET

import pytest

from studio.evals.compare import CompareError, build_report, only_variant, split_variants
from studio.evals.metrics import Price
from studio.evals.report import FORMATS, render
from studio.evals.results import NO_TOOL
from tests.evals.synthetic import attempt


def _run() -> list:
    out = []
    for i in range(12):
        expected = "query_invoices" if i % 2 else "query_tickets"
        chosen = "query_tickets" if i < 6 else None
        out.append(
            attempt(f"case-{i}", variant="v1", expected=expected, chosen=chosen, tokens=(900, 40))
        )
        out.append(attempt(f"case-{i}", variant="draft", expected=expected, tokens=(1100, 40),
                           raw_passed=i != 3, repaired=i == 3))  # fmt: skip
    out.append(attempt("发票-<script>", variant="v1", expected=NO_TOOL, chosen="create_ticket"))
    out.append(attempt("发票-<script>", variant="draft", expected=NO_TOOL))
    out.append(attempt("down", variant="draft", status="error"))
    return out


@pytest.fixture
def report():
    a, b, _, _ = split_variants(_run())
    return build_report(
        a, b, title="travel-reimbursement/core · run r1", prices={"loopback": Price(1, 4)}
    )


def test_text_has_the_issues_table_and_the_verdict(report) -> None:
    text = render(report, "text")
    assert "Selection  Arguments raw  Arguments after pipeline  End-to-end" in text
    assert "v1 · loopback" in text and "draft · loopback" in text
    assert "draft vs v1: 69.2 % → 100.0 %, +30.8 pts (95 % CI +7.7 … +53.8)" in text
    assert "p = 0.125 — no detectable difference" in text
    assert "fixed 4, broken 0, unchanged 9" in text
    assert "  fixed  发票-<script>  loopback  (no tool)" in text
    assert "cases needed to detect a 5-point change" in text
    assert "query_tickets → create_ticket" not in text
    assert "(no tool) → create_ticket: 1" in text
    assert "1 × HTTP 500 from the model" in text


def test_json_is_complete_and_parses(report) -> None:
    data = json.loads(render(report, "json"))
    assert data["format"] == "tool-registry-studio/eval-report@1"
    groups = {g["variant"]: g for g in data["groups"]}
    assert groups["draft"]["arguments_raw"] < groups["draft"]["arguments_pipeline"] == 1.0
    assert groups["draft"]["errors"] == 1
    assert groups["v1"]["cost"]["per_case"] == pytest.approx(
        ((900 * 12 + 100) + 4 * (40 * 12 + 20)) / 13 / 1e6
    )
    comparison = data["comparison"]
    assert comparison["verdict"] == "no detectable difference"
    assert comparison["mcnemar_exact_p"] == 0.125  # 4 fixed, 0 broken: 2 / 2**4
    assert comparison["fixed"] == 4 and len(comparison["flips"]) == 4
    matrix = groups["v1"]["confusion"]
    assert len(matrix["matrix"]) == len(matrix["labels"])


def test_junit_has_one_testcase_per_case_and_variant_with_reasons(report) -> None:
    root = ET.fromstring(render(report, "junit"))
    suites = {s.get("name"): s for s in root.iter("testsuite")}
    assert set(suites) == {"v1", "draft"}
    v1 = suites["v1"]
    assert v1.get("tests") == "13" and v1.get("failures") == "4"
    assert v1.find("testcase[@name='case-0']/failure") is None
    failure = v1.find("testcase[@name='case-1']/failure")
    assert failure is not None and "called query_tickets" in failure.get("message", "")
    assert suites["draft"].get("errors") == "1"
    assert root.find(".//testcase[@name='发票-<script>']") is not None


def test_markdown_tables(report) -> None:
    md = render(report, "md")
    assert md.startswith("# travel-reimbursement/core · run r1\n")
    assert "| Variant · profile | Cases | Selection |" in md
    assert "### Flips (broken first)" in md and "| fixed | `case-1` | loopback |" in md


def test_html_is_self_contained_with_escaped_text_and_svg_charts(report) -> None:
    page = render(report, "html")
    assert page.startswith("<!DOCTYPE html>") and '<meta charset="utf-8">' in page
    assert page.count("<svg") == 3  # per-tool bars + a heat map per variant
    assert "<script>" not in page and "发票-&lt;script&gt;" in page
    for external in ("<link", "src=", "@import", "url("):
        assert external not in page
    assert 'aria-label="confusion matrix"' in page
    for chunk in page.split("<svg")[1:]:  # every chart is well-formed SVG (XML)
        svg = ET.fromstring("<svg" + chunk.split("</svg>")[0] + "</svg>")
        assert svg.tag.endswith("svg") and len(svg) > 3


def test_a_single_variant_report_has_no_comparison() -> None:
    attempts = [a for a in _run() if a.variant == "v1"]
    report = build_report(attempts, title="one")
    for fmt in FORMATS:
        assert render(report, fmt)
    assert report.comparison is None and "vs" not in render(report, "text").split("\n")[2]


def test_variant_selection_errors_are_sentences() -> None:
    attempts = _run()
    with pytest.raises(CompareError, match="variant 'v9' is not in the run; it has v1, draft"):
        split_variants(attempts, "v9", "v1")
    with pytest.raises(CompareError, match="give both --a and --b"):
        split_variants(attempts, "v1", None)
    with pytest.raises(CompareError, match="has 1 variant"):
        split_variants([a for a in attempts if a.variant == "v1"])
    with pytest.raises(CompareError, match="name the one to compare"):
        only_variant(attempts, None, "r1")
    with pytest.raises(ValueError, match="unknown report format"):
        render(build_report(attempts), "pdf")
