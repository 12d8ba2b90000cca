"""Release gates on eval results, with a RunSides function standing in for the model."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from studio.contract import Registry
from studio.diff import diff_registries
from studio.evals.gates import GateError, Side, behavioural_lines, run_gate, semver_note
from studio.evals.results import Attempt
from tests.evals.synthetic import attempt


def _sides_by_rule(pass_rule: dict[str, set[int]], n: int = 40):  # type: ignore[no-untyped-def]
    """A RunSides where side ``label`` passes the cases in ``pass_rule[label]``."""
    seen: list[list[str]] = []

    def run(sides: Sequence[Side]) -> list[Attempt]:
        seen.append([label for label, _ in sides])
        return [
            attempt(f"c{i}", variant=label, passed=i in pass_rule[label])
            for i in range(n)
            for label, _ in sides
        ]

    run.seen = seen  # type: ignore[attr-defined]
    return run


BASE = ("travel@1", Registry(name="travel"))
DRAFT = ("travel@draft", Registry(name="travel"))


def test_a_significant_regression_is_refused() -> None:
    run = _sides_by_rule({"travel@1": set(range(40)), "travel@draft": set(range(15, 40))})
    result = run_gate(BASE, DRAFT, run)
    assert not result.passed
    assert run.seen == [["travel@1", "travel@draft"]]
    assert "— worse" in result.summary
    record = result.review_record("core", "gpt")
    assert record["verdict"] == "worse" and record["broken"] == 15 and record["passed"] is False


def test_no_detectable_difference_and_better_pass() -> None:
    run = _sides_by_rule({"travel@1": set(range(40)), "travel@draft": set(range(2, 40))})
    assert run_gate(BASE, DRAFT, run).passed  # 2 broken of 40: not significant
    run = _sides_by_rule({"travel@1": set(range(10)), "travel@draft": set(range(40))})
    assert run_gate(BASE, DRAFT, run).passed


def test_nothing_paired_is_an_error_not_a_pass() -> None:
    def run(sides: Sequence[Side]) -> list[Attempt]:
        return [attempt("c1", variant=label, status="error") for label, _ in sides]

    with pytest.raises(GateError, match="no case was scored on both travel@1 and travel@draft"):
        run_gate(BASE, DRAFT, run)


def test_behavioural_section_warns_when_a_compatible_edit_broke_cases() -> None:
    from studio.contract import ToolContract

    a = Registry(name="t", tools=(ToolContract(name="query_invoices", summary="Invoices."),))
    b = Registry(name="t", tools=(ToolContract(name="query_invoices", summary="Tickets too."),))
    diff = diff_registries(a, b, lint_profile=None)
    assert diff.semver.level != "major"
    run = _sides_by_rule({"travel@1": set(range(40)), "travel@draft": set(range(15, 40))})
    result = run_gate(BASE, DRAFT, run)
    lines = behavioural_lines(result, diff)
    assert lines[0] == "Behaviour (eval set):"
    assert any(line.startswith("  broken c0 ") for line in lines)
    assert f"the suggested {diff.semver.level} bump treats this as compatible" in lines[-1]
    assert "significantly worse" in lines[-1]
    good = run_gate(BASE, DRAFT, _sides_by_rule({"travel@1": set(), "travel@draft": set()}))
    assert semver_note(good, diff) == ""
