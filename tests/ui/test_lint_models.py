"""The lint GUI's Qt models under pytest-qt's model tester, and the path mapping."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTableView

from studio.contract import parse_registry
from studio.lint import LintReport, Severity, lint_registry
from studio.ui.models.problems_model import (
    COLUMN,
    REGISTRY_LABEL,
    ProblemsFilterModel,
    ProblemsModel,
)
from studio.ui.views.similar_tools_view import SimilarPairsModel, SimilarToolsView, apart_text
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


def _column(proxy: ProblemsFilterModel, column: int) -> list[str]:
    return [proxy.index(r, column).data() for r in range(proxy.rowCount())]


def test_problems_sort_in_the_model_stably_and_survive_a_new_report(
    qapp, qtmodeltester, report: LintReport
) -> None:
    model = ProblemsModel()
    proxy = ProblemsFilterModel()
    proxy.setSourceModel(model)
    view = QTableView()
    view.setModel(proxy)
    view.setSortingEnabled(True)
    rule, tool = COLUMN["rule"], COLUMN["tool"]
    view.sortByColumn(rule, Qt.SortOrder.AscendingOrder)
    model.set_report(report)
    # Sorted by the model (one Python sort), not by the proxy's per-comparison callbacks.
    assert proxy.sortColumn() == -1
    by_rule = sorted(report.findings, key=lambda f: f.rule_id.casefold())  # stable
    assert _column(proxy, rule) == [f.rule_id for f in by_rule]
    assert _column(proxy, tool) == [f.tool or REGISTRY_LABEL for f in by_rule]
    view.sortByColumn(rule, Qt.SortOrder.DescendingOrder)
    desc = sorted(report.findings, key=lambda f: f.rule_id.casefold(), reverse=True)
    assert _column(proxy, tool) == [f.tool or REGISTRY_LABEL for f in desc]
    # A selected finding stays selected through a re-sort.
    view.selectRow(3)
    chosen = proxy.finding(view.currentIndex())
    view.sortByColumn(tool, Qt.SortOrder.AscendingOrder)
    assert proxy.finding(view.currentIndex()) == chosen
    # A new report keeps the chosen order; filtering still works on top of it.
    fewer = dataclasses.replace(report, findings=report.findings[::2])
    model.set_report(fewer)
    keyed = sorted(fewer.findings, key=lambda f: (f.tool or REGISTRY_LABEL).casefold())
    assert _column(proxy, tool) == [f.tool or REGISTRY_LABEL for f in keyed]
    proxy.set_severities({Severity.WARNING})
    assert _column(proxy, tool) == [
        f.tool or REGISTRY_LABEL for f in keyed if f.severity is Severity.WARNING
    ]
    qtmodeltester.check(proxy)


def test_similar_pairs_model(qapp, qtmodeltester, report: LintReport) -> None:
    model = SimilarPairsModel()
    qtmodeltester.check(model)
    model.set_pairs(report.similar)
    qtmodeltester.check(model)
    assert model.rowCount() == len(report.similar) > 0
    assert "neither" in apart_text(report.similar[0])


def test_similar_tools_view_sorts_in_the_model_best_score_first(qtbot, report: LintReport) -> None:
    view = SimilarToolsView()
    qtbot.addWidget(view)
    view.set_pairs(report.similar)
    assert view.proxy.sortColumn() == -1  # the proxy does not sort (no per-comparison callbacks)
    shown = [
        view.proxy.index(r, 0).data(SimilarPairsModel.RowRole) for r in range(view.proxy.rowCount())
    ]
    assert shown == sorted(report.similar, key=lambda p: p.score, reverse=True)


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
