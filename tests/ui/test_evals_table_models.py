"""The eval cases and A/B flips tables on the shared RowTableModel: cells, roles, colours, order."""

from __future__ import annotations

from PySide6.QtCore import Qt

from studio.evals.model import EvalCase, Expectation, ExpectedCall
from studio.evals.stats import CasePair
from studio.ui.evals.cases_model import CasesModel
from studio.ui.evals.flips_model import CaseRole, FlipsModel

DISPLAY, TIP, FG = (
    Qt.ItemDataRole.DisplayRole,
    Qt.ItemDataRole.ToolTipRole,
    Qt.ItemDataRole.ForegroundRole,
)
LONG = "Find my November taxi invoices " * 8


def case(case_id: str, *tools: str, tags: tuple[str, ...] = ()) -> EvalCase:
    calls = tuple(ExpectedCall(t) for t in tools)
    return EvalCase(case_id, LONG, Expectation("tools", calls, "sequence"), tags=tags)


def pair(case_id: str, status: str) -> CasePair:
    return CasePair(case_id, "scripted", "query_invoices", 1.0, 0.0, "query_invoices", "search",
                    (), ("chose search",), status=status)  # fmt: skip


def test_cases_model_cells_results_and_roles(qtmodeltester) -> None:
    model = CasesModel()
    model.set_cases([case("c1", "a", "b", tags=("taxi",)), case("c2", "a")])
    qtmodeltester.check(model)
    assert [model.headerData(i, Qt.Orientation.Horizontal) for i in range(5)] == [
        "Id", "User turn", "Expected", "Tags", "Result",
    ]  # fmt: skip
    index = model.index(0, 1)
    assert model.data(index, DISPLAY).endswith("…") and model.data(index, TIP) == LONG
    assert model.data(model.index(0, 2), DISPLAY) == "a → b"
    assert model.data(model.index(0, 3), DISPLAY) == "taxi"
    assert model.data(model.index(0, 4), DISPLAY) == ""
    assert model.data(model.index(0, 4), TIP) == "Not in the run"
    changed = []
    model.dataChanged.connect(lambda a, b: changed.append((a.column(), b.row())))
    model.set_results({"c1": True, "c2": False})
    assert changed == [(4, 1)]
    assert model.data(model.index(0, 4), DISPLAY) == "passed"
    assert model.data(model.index(1, 4), TIP) == "failed"
    assert (
        model.data(model.index(0, 4), FG) is not None and model.data(model.index(0, 0), FG) is None
    )
    assert model.data(model.index(1, 0), CasesModel.CaseRole).id == "c2"
    assert model.data(model.index(1, 0), CasesModel.ResultRole) is False
    assert model.tags() == ["taxi"] and model.row_of("c2") == 1 and model.result_of("c9") is None


def test_flips_model_orders_broken_then_fixed_and_colours_the_status(qtmodeltester) -> None:
    model = FlipsModel()
    model.set_pairs([pair("z", "unchanged"), pair("b", "fixed"), pair("a", "broken")])
    qtmodeltester.check(model)
    assert [p.case_id for p in model.pairs()] == ["a", "b", "z"]
    assert [model.data(model.index(r, 0), DISPLAY) for r in range(3)] == [
        "broken", "fixed", "unchanged",
    ]  # fmt: skip
    assert model.data(model.index(0, 6), DISPLAY) == "chose search"
    assert model.data(model.index(0, 6), TIP) == "chose search"
    assert model.data(model.index(1, 0), CaseRole) == "b"
    assert model.data(model.index(0, 0), FG) is not None
    assert model.data(model.index(2, 0), FG) is None and model.data(model.index(0, 1), FG) is None
    assert model.headerData(4, Qt.Orientation.Horizontal) == "A chose"
