"""The lint GUI's Qt models under pytest-qt's model tester, and the path mapping."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.contract import parse_registry
from studio.lint import LintReport, Severity, lint_registry
from studio.ui.models.problems_model import ProblemsFilterModel, ProblemsModel
from studio.ui.views.similar_tools_view import SimilarPairsModel, apart_text
from studio.ui.widgets.field_markers import property_path, tab_for_path

EXAMPLE = Path(__file__).resolve().parents[2] / "resources" / "examples" / "order-service.json"


@pytest.fixture(scope="module")
def report() -> LintReport:
    return lint_registry(parse_registry(json.loads(EXAMPLE.read_text(encoding="utf-8"))))


def test_problems_model(qapp, qtmodeltester, report: LintReport) -> None:
    model = ProblemsModel()
    qtmodeltester.check(model)
    model.set_report(report)
    qtmodeltester.check(model)
    assert model.rowCount() == len(report.findings)
    assert model.index(0, 0).data() in ("error", "warning", "info")
    model.set_report(None)
    assert model.rowCount() == 0


def test_problems_filter_model(qapp, qtmodeltester, report: LintReport) -> None:
    model = ProblemsModel()
    model.set_report(report)
    proxy = ProblemsFilterModel()
    proxy.setSourceModel(model)
    qtmodeltester.check(proxy)
    proxy.set_severities({Severity.INFO})
    assert proxy.rowCount() == report.counts[Severity.INFO]
    proxy.set_severities(set(Severity))
    proxy.set_text("USER_ID")
    assert 0 < proxy.rowCount() < model.rowCount()
    qtmodeltester.check(proxy)


def test_similar_pairs_model(qapp, qtmodeltester, report: LintReport) -> None:
    model = SimilarPairsModel()
    qtmodeltester.check(model)
    model.set_pairs(report.similar)
    qtmodeltester.check(model)
    assert model.rowCount() == len(report.similar) > 0
    assert "neither" in apart_text(report.similar[0])


@pytest.mark.parametrize(
    ("path", "tab", "prop"),
    [
        ("summary", "overview", None),
        ("", "overview", None),
        ("parameters", "parameters", ()),
        ("parameters.properties.user_id", "parameters", ("user_id",)),
        ("parameters.properties.user_id.description", "parameters", ("user_id",)),
        ("parameters.properties.a.items.properties.b.enum", "parameters", ("a", "[]", "b")),
        ("execution.retry.max_attempts", "contract", None),
        ("risk", "contract", None),
        ("permissions[0].role", "contract", None),
    ],
)
def test_path_mapping(path: str, tab: str, prop: tuple[str, ...] | None) -> None:
    assert tab_for_path(path) == tab
    assert property_path(path) == prop
