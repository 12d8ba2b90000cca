"""One answer scored twice: as the model sent it, and after the runtime's argument pipeline."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from registry_db import RegistryStore, seed_examples
from studio.evals import parse_case
from studio.evals.results import ASKED, NO_TOOL
from studio.evals.scoring import expected_of, runtime_context, score_answer
from studio.runtime.pipeline import ArgumentPipeline
from studio.sessions.model import Message, Role, TextPart, ToolCallPart

CONTEXT = {"role": "employee", "scenario": "reimbursement",
           "values": {"employee_id": "E-1001", "today": "2026-11-30"}}  # fmt: skip


@pytest.fixture(scope="module")
def registry(tmp_path_factory: pytest.TempPathFactory):
    path: Path = tmp_path_factory.mktemp("scoring") / "s.sqlite3"
    with RegistryStore.open(path) as store:
        seed_examples(store)
        return store.draft_registry("travel-reimbursement")


def _case(expect: dict, **extra) -> object:
    return parse_case({"id": "c", "user": "上周打车的发票", "context": CONTEXT, "expect": expect,
                       **extra})  # fmt: skip


def _answer(*calls: tuple[str, object], text: str = "") -> Message:
    parts = [TextPart(text)] if text else []
    parts += [ToolCallPart(f"c{i}", name, args) for i, (name, args) in enumerate(calls)]
    return Message(Role.ASSISTANT, tuple(parts))


def test_the_pipeline_repairs_what_the_model_got_almost_right(registry) -> None:
    case = _case({"kind": "tool", "calls": [{"tool": "query_invoices", "args": {
        "category": {"equals": "taxi"}, "start_date": {"date": "2026-11-23"},
        "employee_id": {"absent": True}}}]})  # fmt: skip
    pipeline = ArgumentPipeline(registry, runtime_context(case))
    # camelCase name, Chinese enum word: raw fails, the pipeline maps both.
    sent = json.dumps({"category": "打车", "startDate": "2026-11-23", "end_date": "2026-11-29"})
    scored = score_answer(case, _answer(("query_invoices", sent)), pipeline)
    assert scored.chosen == "query_invoices" and expected_of(case) == "query_invoices"
    assert scored.raw.selection_passed and not scored.raw.arguments_passed
    assert scored.pipeline.passed, scored.pipeline.failures
    [call] = scored.pipeline_calls
    assert call.repaired and not call.invalid
    assert call.arguments["category"] == "taxi" and call.arguments["employee_id"] == "E-1001"
    # "absent" on the injected employee_id judges the model (raw view) only.
    assert scored.raw_calls[0].arguments == json.loads(sent)


def test_invalid_after_the_pipeline_fails_the_arguments(registry) -> None:
    case = _case({"kind": "tool", "calls": [{"tool": "query_tickets"}]})
    pipeline = ArgumentPipeline(registry, runtime_context(case))
    bad = score_answer(case, _answer(("query_tickets", '{"ticket_id": "55821"}')), pipeline)
    assert bad.raw.passed  # no matcher on the arguments: raw selection is all it asks
    assert not bad.pipeline.passed and bad.pipeline.selection_passed
    assert bad.pipeline_calls[0].invalid
    assert "invalid after the pipeline" in bad.pipeline.failures[-1]
    broken = score_answer(case, _answer(("query_tickets", "{'ticket_id': ")), pipeline)
    assert broken.raw_calls[0].arguments == "{'ticket_id': "  # kept as sent
    assert broken.pipeline_calls[0].invalid


def test_abstaining_and_asking(registry) -> None:
    ask = _case({"kind": "ask"})
    pipeline = ArgumentPipeline(registry, runtime_context(ask))
    asked = score_answer(ask, _answer(text="哪一天的发票？"), pipeline)
    assert asked.chosen == ASKED and asked.raw.passed and expected_of(ask) == ASKED
    told = score_answer(ask, _answer(text="Here you go."), pipeline)
    assert told.chosen == NO_TOOL and not told.raw.passed
    none = _case({"kind": "no_tool"}, must_not=["create_reimbursement_ticket"])
    called = score_answer(none, _answer(("create_reimbursement_ticket", "{}")), pipeline)
    assert not called.raw.selection_passed and called.chosen == "create_reimbursement_ticket"
