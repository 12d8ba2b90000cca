"""BFCL import on a committed sample of the real files: simple, multiple, irrelevance."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from registry_db import RegistryStore
from studio.cli import main
from studio.evals.bfcl import BfclError, read_bfcl, tool_name
from studio.evals.match import Call, match_case
from studio.evals.runner import EvalRunner, RunOptions
from studio.evals.store import EvalStore
from studio.evals.variants import resolve_variant
from studio.providers import ModelProfile, ProviderKind
from tests.evals.loopback_model import Behaviour, LoopbackModel

DATA = Path(__file__).resolve().parents[1] / "data" / "bfcl"


def _read(category: str, answers: bool = True):
    questions = (DATA / f"BFCL_v3_{category}.json").read_text(encoding="utf-8")
    truth = DATA / "possible_answer" / f"BFCL_v3_{category}.json"
    return read_bfcl(questions, truth.read_text(encoding="utf-8") if answers else None)


def test_simple_cases_expect_their_ground_truth() -> None:
    loaded = _read("simple")
    assert loaded.categories == ("simple",) and len(loaded.cases) == 5
    by_id = {c.id: c for c in loaded.cases}
    case = by_id["simple_0"]
    assert case.user.startswith("Find the area of a triangle") and case.expect.kind == "tool"
    [call] = case.expect.calls
    assert call.tool == "calculate_triangle_area"
    # "unit" may be left out ("" among the accepted values): not checked.
    assert {(m.path, m.kind, m.value) for m in call.args} == {("base", "equals", 10),
                                                              ("height", "equals", 5)}  # fmt: skip
    assert by_id["simple_1"].expect.calls[0].tool == "math_factorial" == tool_name("math.factorial")
    circumference = by_id["simple_7"].expect.calls[0]
    assert [(m.path, m.kind, m.value) for m in circumference.args if m.path == "unit"] == [
        ("unit", "one_of", ["inches", "in"])
    ]
    # Scored like any case: BFCL's answer passes, a wrong number fails.
    assert match_case(case, [Call("calculate_triangle_area", {"base": 10, "height": 5})]).passed
    assert not match_case(case, [Call("calculate_triangle_area", {"base": 5, "height": 5})]).passed
    # Tools in OpenAI form with JSON Schema types.
    tools = {t["function"]["name"]: t["function"] for t in loaded.tools}
    assert tools["math_hypot"]["parameters"]["type"] == "object"


def test_multiple_and_irrelevance() -> None:
    multiple = _read("multiple")
    capital = next(c for c in multiple.cases if c.id == "multiple_2")
    assert capital.expect.tools == ("country_info_capital",)
    assert len(multiple.tools) == 8  # every function of every question
    props = next(c for c in multiple.cases if c.id == "multiple_8").expect.calls[0]
    paths = {m.path: m for m in props.args}
    assert paths["budget.min"].value == 300000 and paths["bedrooms"].value == 3
    schema = {t["function"]["name"]: t["function"] for t in multiple.tools}
    budget = schema["realestate_find_properties"]["parameters"]["properties"]["budget"]
    assert budget["type"] == "object" and budget["properties"]["min"]["type"] == "number"
    irrelevance = _read("irrelevance", answers=False)
    assert {c.expect.kind for c in irrelevance.cases} == {"no_tool"}
    assert all("bfcl:irrelevance" in c.tags for c in irrelevance.cases)


def test_bad_files_are_located() -> None:
    with pytest.raises(BfclError, match=r"questions: line 2: not JSON"):
        read_bfcl('{"id": "simple_0", "question": [[]], "function": []}\n{oops')
    with pytest.raises(BfclError, match=r"simple_0: no ground truth in its possible_answer file"):
        _read("simple", answers=False)
    with pytest.raises(BfclError, match=r"simple_0: question must be"):
        read_bfcl('{"id": "simple_0", "question": [], "function": []}', '{"id": "simple_0"}')


def test_cli_import_creates_the_registry_and_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch
) -> None:
    db = str(tmp_path / "bfcl.sqlite3")
    simple = str(DATA / "BFCL_v3_simple.json")
    answers = str(DATA / "possible_answer" / "BFCL_v3_simple.json")
    code = main(["--db", db, "eval", "import", "bench", simple, "--format", "bfcl",
                 "--answers", answers])  # fmt: skip
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "imported bench/bfcl-simple: 5 BFCL cases (simple); 5 tool(s) added" in out
    # A second category adds its functions to the same draft.
    code = main(["--db", db, "eval", "import", "bench", str(DATA / "BFCL_v3_irrelevance.json"),
                 "--format", "bfcl"])  # fmt: skip
    assert code == 0 and "4 tool(s) added to the draft" in capsys.readouterr().out
    assert main(["--db", db, "eval", "import", "bench", simple, "--format", "bfcl"]) == 2
    err = capsys.readouterr().err
    assert "already has eval set bfcl-simple" in err or "no ground truth" in err
    with RegistryStore.open(db) as store:
        assert len(store.draft_registry("bench").tools) == 9
        eval_set = EvalStore(store).load("bench", "bfcl-simple")
        # Through the whole stack: the loopback model answers BFCL's questions.
        monkeypatch.setenv("LOOP_KEY", "k")
        with LoopbackModel(Behaviour(malformed_rate=0, alias_rate=0, noise=0)) as server:
            profile = ModelProfile(
                "loop", ProviderKind.OPENAI_CHAT, server.base_url, "m", "LOOP_KEY"
            )
            variant = resolve_variant(store, "bench", "draft")
            runner = EvalRunner(store, "bench", eval_set, [variant], [profile], RunOptions())
            summary = asyncio.run(runner.run())
    assert all(a.status == "scored" for a in summary.attempts)
    assert sum(a.raw.selection_passed for a in summary.attempts) >= 3
