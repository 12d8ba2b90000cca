"""The checklist of confusable pairs an eval set does not yet tell apart."""

from __future__ import annotations

import json
from pathlib import Path

from registry_db import RegistryStore, seed_examples
from studio.cli import main
from studio.contract import parse_registry
from studio.evals.checklist import pair_coverage
from studio.evals.model import parse_case

PAIR = parse_registry(
    {
        "name": "r",
        "tools": [
            {"name": "query_invoices", "description": "查询报销信息"},
            {"name": "query_tickets", "description": "查询报销相关信息"},
            {"name": "get_weather", "description": "Current weather for a city."},
        ],
    }
)


def _case(case_id: str, *tools: str) -> object:
    kind = "tool" if len(tools) == 1 else "tools"
    expect = {"kind": kind, "calls": [{"tool": t} for t in tools]}
    return parse_case({"id": case_id, "user": "…", "expect": expect})


def test_a_pair_no_case_tells_apart_is_a_gap_in_each_direction() -> None:
    [pair] = pair_coverage(PAIR, [])
    assert (pair.a, pair.b) == ("query_invoices", "query_tickets")
    assert pair.gap() == "no case distinguishes query_invoices from query_tickets"
    # A case expecting both tools tells nothing apart.
    [pair] = pair_coverage(PAIR, [_case("both", "query_invoices", "query_tickets")])
    assert not pair.covered and pair.a_cases == pair.b_cases == ()
    [pair] = pair_coverage(PAIR, [_case("inv", "query_invoices")])
    assert pair.gap() == "no case expects query_tickets rather than query_invoices"
    [pair] = pair_coverage(PAIR, [_case("inv", "query_invoices"), _case("tix", "query_tickets")])
    assert pair.covered and pair.gap() == "" and pair.b_cases == ("tix",)


def test_cli_checklist_on_the_examples(tmp_path: Path, capsys) -> None:
    db = tmp_path / "studio.sqlite3"
    with RegistryStore.open(db) as store:
        seed_examples(store)
    # Version 1 (the flawed original) has the classic pair; the core set covers it.
    assert main(["--db", str(db), "eval", "checklist", "travel-reimbursement", "--version", "1",
                 "--set", "core", "--json"]) == 0  # fmt: skip
    data = json.loads(capsys.readouterr().out)
    [row] = [p for p in data["pairs"] if {p["a"], p["b"]} == {"query_invoices", "query_tickets"}]
    assert row["gap"] == "" and row["a_cases"] and row["b_cases"]
    # The legacy example has no eval set at all: every confusable pair is a gap.
    assert main(["--db", str(db), "eval", "checklist", "order-service", "--fail"]) == 1
    out = capsys.readouterr().out
    assert "gap\tget_order ~ getOrderDetail" in out and "without a case each way" in out
