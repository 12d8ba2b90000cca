"""The bundled travel-reimbursement eval set: valid, bilingual, and about the registry's tools."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from studio.contract import parse_registry
from studio.evals import dump_case, parse_set

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"
TEXT = (EXAMPLES / "evals" / "travel-reimbursement" / "core.jsonl").read_text(encoding="utf-8")
REGISTRY = parse_registry(json.loads((EXAMPLES / "travel-reimbursement.json").read_text("utf-8")))


def test_the_set_is_canonical_and_large_enough() -> None:
    core = parse_set("core", TEXT)
    assert len(core.cases) >= 60
    assert "".join(dump_case(c) + "\n" for c in core.cases) == TEXT
    languages = Counter(t for c in core.cases for t in c.tags if t in ("zh", "en"))
    assert languages["zh"] >= 25 and languages["en"] >= 25
    assert len(core.cases) == languages["zh"] + languages["en"]


def test_every_tool_named_exists_and_every_kind_is_covered() -> None:
    core = parse_set("core", TEXT)
    tools = {t.name for t in REGISTRY.tools}
    for case in core.cases:
        assert set(case.expect.tools) <= tools, case.id
        assert set(case.must_not) <= tools, case.id
    expected = Counter(t for c in core.cases for t in c.expect.tools)
    assert all(expected[t] >= 5 for t in tools), expected
    assert {c.expect.kind for c in core.cases} == {"tool", "tools", "no_tool", "ask"}


def test_the_hard_cases_are_there() -> None:
    core = parse_set("core", TEXT)
    by_user = {c.user: c for c in core.cases}
    assert by_user["我上周打车的发票能报吗"].expect.tools == ("query_invoices",)
    assert by_user["我的报销单到哪一步了"].expect.tools == ("query_tickets",)
    still = by_user["can I still claim it?"]
    assert "create_reimbursement_ticket" in still.must_not and still.turns
    relative = next(c for c in core.cases if c.user.startswith("开个出租车报销"))
    assert "create_reimbursement_ticket" in relative.must_not
    words = core.case("create-currency-words-zh")
    [amount] = [m for m in words.expect.calls[0].args if m.path == "amount"]
    assert amount.kind == "number" and amount.value == 118.5
    assert any(c.expect.kind == "no_tool" for c in core.cases)
