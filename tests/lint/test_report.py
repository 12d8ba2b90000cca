"""Text, JSON and SARIF output of lint reports."""

from __future__ import annotations

import json

import pytest

from studio.formats import export_registry
from studio.lint import LintConfig, Suppression, lint_registry
from studio.lint.report import json_line_map, line_of, to_json, to_sarif, to_text
from studio.lint.rules.ambiguity import CONFUSABLE_NAMES
from tests.lint._fixtures import example


def _suppressed_report(profile: str = "openai"):
    reg = example("order-service")
    config = LintConfig().with_suppression(
        Suppression(CONFUSABLE_NAMES, "get_order", "kept for old clients", "usage")
    )
    return reg, lint_registry(reg, config=config, profile=profile)


def test_text_lines_and_summary(estimated_tokens: None) -> None:
    _, report = _suppressed_report()
    lines = to_text(report).splitlines()
    first = report.findings[0]
    assert lines[0].startswith(f"{first.severity.value} {first.rule_id} {first.tool}")
    assert any(line.startswith("suppressed ") and "kept for old clients" in line for line in lines)
    t = report.tokens
    assert lines[-1].startswith("order-service [openai]: ")
    assert lines[-1].endswith(
        f"10 tools, ≈ {t.total} tokens (estimate) per request, ≈ {t.per_task} per task of 5 rounds"
    )


def test_text_summary_of_exact_counts(exact_tokens: None) -> None:
    _, report = _suppressed_report()
    t = report.tokens
    assert t.method == "o200k_base"
    summary = to_text(report).splitlines()[-1]
    assert summary.endswith(
        f"10 tools, {t.total} tokens (o200k_base) per request, {t.per_task} per task of 5 rounds"
    )


def test_json_report_has_everything(estimated_tokens: None) -> None:
    _, report = _suppressed_report()
    doc = json.loads(json.dumps(to_json(report), ensure_ascii=False))
    assert doc["counts"]["error"] == report.counts[report.findings[0].severity]
    assert doc["suppressed"][0]["suppressed_reason"] == "kept for old clients"
    assert set(doc["scores"]["search"]) >= {"purpose", "usage", "limitations", "examples"}
    assert doc["tokens"]["method"] == "estimate" and doc["tokens"]["exact"] is False
    assert doc["tokens"]["total"] > 0
    assert {p["a"] for p in doc["similar"]} >= {"get_order"}


@pytest.mark.parametrize(
    ("profile", "method"), [("openai", "o200k_base"), ("anthropic", "estimate")]
)
def test_json_and_sarif_report_the_token_method(
    exact_tokens: None, profile: str, method: str
) -> None:
    reg, report = _suppressed_report(profile)
    tokens = to_json(report)["tokens"]
    assert tokens["method"] == method and tokens["exact"] is (method != "estimate")
    assert tokens["total"] == sum(tokens["per_tool"].values()) > 0
    props = to_sarif(report, reg)["runs"][0]["properties"]
    assert props["profile"] == profile
    assert props["tokens"] == {
        "method": method,
        "total": tokens["total"],
        "per_task": tokens["per_task"],
        "rounds": 5,
    }


def test_line_map_matches_the_dir_export() -> None:
    reg = example("travel-reimbursement")
    files = export_registry(reg, "dir").files
    assert files is not None
    text = files["tools/query_invoices.json"].splitlines()
    from studio.contract import tool_to_dict

    lines = json_line_map(tool_to_dict(reg.tool("query_invoices")))
    for path, key in [
        ("summary", '"summary":'),
        ("parameters.properties.start_date", '"start_date":'),
        ("parameters.properties.start_date.description", '"description":'),
        ("execution.idempotency.required", '"required":'),
    ]:
        assert key in text[lines[path] - 1], path
    # Missing paths fall back to the nearest ancestor, then to line 1.
    assert line_of(lines, "parameters.properties.nope.description") == lines["parameters"] + 2
    assert line_of(lines, "nothing.here") == 1


def _check_sarif_structure(log: dict) -> None:
    """The essentials of the SARIF 2.1.0 schema, checked without fetching it."""
    assert log["version"] == "2.1.0" and "sarif-schema-2.1.0" in log["$schema"]
    assert isinstance(log["runs"], list) and len(log["runs"]) == 1
    run = log["runs"][0]
    driver = run["tool"]["driver"]
    assert driver["name"] and driver["informationUri"].startswith("https://")
    ids = [r["id"] for r in driver["rules"]]
    assert len(ids) == len(set(ids))
    for rule in driver["rules"]:
        assert rule["shortDescription"]["text"] and rule["fullDescription"]["text"]
        assert rule["defaultConfiguration"]["level"] in {"error", "warning", "note"}
    for result in run["results"]:
        assert result["ruleId"] in ids and ids[result["ruleIndex"]] == result["ruleId"]
        assert result["level"] in {"error", "warning", "note"}
        assert result["message"]["text"]
        loc = result["locations"][0]["physicalLocation"]
        assert loc["artifactLocation"]["uri"]
        assert isinstance(loc["region"]["startLine"], int) and loc["region"]["startLine"] >= 1
        for s in result.get("suppressions", []):
            assert s["kind"] == "external" and s["justification"]


def test_sarif_structure_locations_and_suppressions() -> None:
    reg, report = _suppressed_report()
    log = json.loads(json.dumps(to_sarif(report, reg)))
    _check_sarif_structure(log)
    results = log["runs"][0]["results"]
    assert len(results) == len(report.findings) + len(report.suppressed)
    files = export_registry(reg, "dir").files
    assert files is not None
    for result in results:
        loc = result["locations"][0]["physicalLocation"]
        uri = loc["artifactLocation"]["uri"]
        assert uri in files
        if result["properties"]["path"]:
            line = files[uri].splitlines()[loc["region"]["startLine"] - 1]
            last = result["properties"]["path"].split(".")[-1]
            # The line holds the key of the path, or of its nearest ancestor.
            assert last in line or line.strip().startswith('"')
    supp = [r for r in results if "suppressions" in r]
    assert supp and supp[0]["suppressions"][0]["justification"] == "kept for old clients"
    summary = next(r for r in results if r["properties"]["path"] == "parameters.properties.sku")
    line = files["tools/check_stock.json"].splitlines()[
        summary["locations"][0]["physicalLocation"]["region"]["startLine"] - 1
    ]
    assert '"sku":' in line


def test_text_report_shows_the_tdqs_of_the_registry_and_its_weakest_tools(
    estimated_tokens: None,
) -> None:
    from studio.lint.report import TDQS_WORST_SHOWN
    from studio.lint.scores import registry_tdqs

    _, report = _suppressed_report()
    lines = to_text(report).splitlines()
    summary = registry_tdqs(report.scores.values())
    assert summary is not None
    head = f"TDQS {summary.score:.1f} ({summary.tier}) for order-service: 0.6 × mean "
    registry_line = next(line for line in lines if line.startswith("TDQS "))
    assert registry_line.startswith(head)
    weak = sorted(  # lowest first, registry order among equals
        (s.tdqs.score, i, name)
        for i, (name, s) in enumerate(report.scores.items())
        if s.tdqs.tier in ("C", "D")
    )
    assert weak, "the flawed example has tools below tier B"
    below = next(line for line in lines if line.startswith("TDQS below B: "))
    lowest_score, _, lowest = weak[0]
    assert below.startswith(f"TDQS below B: {lowest} {lowest_score:.1f} (")
    assert below.count(", weakest: ") == min(len(weak), TDQS_WORST_SHOWN)
    assert lines[-1].startswith("order-service [openai]: ")  # the summary stays last


def test_text_report_of_a_good_registry_names_no_weak_tools(estimated_tokens: None) -> None:
    report = lint_registry(example("travel-reimbursement"))
    lines = to_text(report).splitlines()
    assert any(line.startswith("TDQS ") and "(A)" in line for line in lines)
    assert not any(line.startswith("TDQS below B") for line in lines)
