"""The Evals mode with real widgets: cases, a run against the loopback model, the report.

The model is the loopback HTTP server of tests/evals (it picks tools by the
words of their descriptions), reached through a stored model profile, so a
run from the GUI goes through the providers, the pipeline and the scoring as
`studio eval run` does; the terse version 1 must lose to the draft.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from registry_db import RegistryStore, seed_examples
from studio.evals.store import EvalStore
from studio.ui.evals.case_dialog import CaseDialog
from studio.ui.evals.cases_model import RESULT_FAILED, RESULT_PASSED
from studio.ui.evals.evals_view import EvalsView
from studio.ui.evals.run_controller import RunRequest
from tests.evals.loopback_model import Behaviour, LoopbackModel
from tests.ui.test_evals_helpers import REGISTRY, add_profile, add_terse_version


@pytest.fixture(autouse=True)
def keys(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-loop")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "ant-loop")


@pytest.fixture
def server() -> Iterator[LoopbackModel]:
    with LoopbackModel(Behaviour(seed=3)) as model:
        yield model


@pytest.fixture
def store(tmp_path: Path) -> Iterator[RegistryStore]:
    s = RegistryStore.open(tmp_path / "studio.sqlite3")
    seed_examples(s)
    s.terse = add_terse_version(s)  # type: ignore[attr-defined]
    yield s
    s.close()


@pytest.fixture
def view(qtbot, store: RegistryStore) -> Iterator[EvalsView]:
    v = EvalsView(store)
    qtbot.addWidget(v)
    v.set_registry(REGISTRY)
    yield v
    v.shutdown()


def run(loop, view: EvalsView, request: RunRequest) -> None:
    async def go() -> None:
        assert view.start_run(request), view.message.text()
        assert view.controller.task is not None
        await view.controller.task

    loop.run_until_complete(go())


def test_the_cases_table_filters_by_tag_and_text(view: EvalsView) -> None:
    total = len(EvalStore(view.store).load(REGISTRY, "core").cases)
    assert view.set_combo.currentData() == "core"
    assert view.cases_filter.rowCount() == total
    zh = view.tag_filter.findData("zh")
    assert zh > 0
    view.tag_filter.setCurrentIndex(zh)
    shown = view.cases_filter.rowCount()
    assert 0 < shown < total
    for row in range(shown):
        case = view.cases_filter.index(row, 0).data(view.cases_model.CaseRole)
        assert "zh" in case.tags
    view.tag_filter.setCurrentIndex(0)
    view.text_filter.setText("打车")
    assert 0 < view.cases_filter.rowCount() < total
    assert "of" in view.cases_count.text()


def test_a_case_is_validated_with_json_paths_and_saved_to_the_set(
    qtbot, view: EvalsView, store: RegistryStore
) -> None:
    before = len(EvalStore(store).load(REGISTRY, "core").cases)
    seen: list[list[str]] = []

    def fill(dialog: CaseDialog):
        bad = {"id": "gui-1", "user": "Can I claim a taxi?",
               "expect": {"kind": "tool", "calls": [{"tool": ""}]}}  # fmt: skip
        dialog.editor.setPlainText(json.dumps(bad))
        seen.append(dialog.validate())
        assert not dialog.buttons.button(dialog.buttons.StandardButton.Ok).isEnabled()
        dialog.editor.setPlainText("{not json")
        seen.append(dialog.validate())
        good = dict(bad, expect={"kind": "tool", "calls": [{"tool": "query_invoices"}]},
                    tags=["en", "gui"])  # fmt: skip
        dialog.editor.setPlainText(json.dumps(good))
        assert dialog.validate() == []
        return dialog.case

    view.edit_in_dialog = fill  # type: ignore[method-assign]
    added = view.add_case()
    assert seen[0] == ["expect.calls[0].tool: must name the expected tool"]
    assert seen[1][0].startswith("line 1, column 2: not JSON")
    assert added is not None and added.id == "gui-1"
    stored = EvalStore(store).load(REGISTRY, "core")
    assert len(stored.cases) == before + 1 and stored.case("gui-1").tags == ("en", "gui")
    assert view.tag_filter.findData("gui") > 0  # the new tag is offered
    assert view.selected_cases()[0].id == "gui-1"

    # An id already used is refused where it is typed.
    def duplicate(dialog: CaseDialog):
        data = json.loads(dialog.editor.toPlainText())
        data["id"] = stored.cases[0].id
        dialog.editor.setPlainText(json.dumps(data))
        assert dialog.validate() == [f"id: {stored.cases[0].id!r} is already used in this set"]
        return None

    view.edit_in_dialog = duplicate  # type: ignore[method-assign]
    assert view.edit_case() is None
    view.confirm = lambda _text: True  # type: ignore[method-assign]
    assert view.delete_cases() == 1
    assert len(EvalStore(store).load(REGISTRY, "core").cases) == before


def test_import_and_export_keep_the_file_byte_for_byte(
    view: EvalsView, store: RegistryStore, tmp_path: Path
) -> None:
    text = (
        '{"id": "x1", "user": "我的报销单到哪一步了", "expect": {"kind": "tool", '
        '"calls": [{"tool": "query_tickets"}]}}\n\n'
        '{"id":"x2","user":"hello","expect":{"kind":"no_tool"}}\n'
    )
    source = tmp_path / "smoke.jsonl"
    source.write_bytes(text.encode())
    view.ask_open_path = lambda: source  # type: ignore[method-assign]
    assert view.import_set() == "smoke"
    assert view.set_combo.currentData() == "smoke" and view.cases_model.rowCount() == 2
    out = tmp_path / "out.jsonl"
    view.ask_save_path = lambda _title, _name: out  # type: ignore[method-assign]
    assert view.export_set() == out
    assert out.read_bytes() == text.encode()
    # A broken file is refused with the line and the path, nothing stored.
    source.write_text('{"id": "y", "user": "hi", "expect": {"kind": "maybe"}}\n')
    view.ask_open_path = lambda: source  # type: ignore[method-assign]
    assert view.import_set() is None
    assert "line 1: expect.kind" in view.message.text()
    assert EvalStore(store).load(REGISTRY, "smoke").cases[0].id == "x1"


def test_a_run_from_the_gui_reports_a_vs_b_with_heat_map_flips_and_cases(
    loop, qtbot, view: EvalsView, store: RegistryStore, server: LoopbackModel, tmp_path: Path
) -> None:
    profile = add_profile(store, server)
    progress: list[int] = []
    view.controller.progressed.connect(lambda p: progress.append(p.done))
    cases = len(view.eval_set.cases)  # type: ignore[union-attr]
    run(loop, view, RunRequest(REGISTRY, "core", store.terse, "draft", (profile,), concurrency=8))
    assert progress[-1] == 2 * cases and len(server.received) == 2 * cases
    assert "finished" in view.message.text()
    assert "of" in view.progress_label.text() and "Passing so far" in view.progress_label.text()
    run_id = view.selected_run()
    assert run_id and view.runs_table.rowCount() == 1

    report = view.report_view
    assert report.report is not None and report.report.comparison is not None
    c = report.report.comparison
    assert c.b_label == f"{REGISTRY}@draft" and c.b_accuracy > c.a_accuracy  # type: ignore[operator]
    assert "better" in report.headline.text() and "McNemar" in report.headline.text()
    # The table: a row per variant, selection / raw / pipeline / end-to-end.
    assert report.table.rowCount() == 2
    assert report.table.horizontalHeaderItem(4).text() == "Arguments after pipeline"

    # The heat map shows the candidate's confusion; a cell lists its cases.
    heat = report.heat_map.heat_model
    labels = heat.labels()
    assert "(no tool)" in labels and "query_invoices" in labels
    row = labels.index("query_invoices")
    index = heat.index(row, row)
    assert int(heat.data(index)) > 0
    report.heat_map.clicked.emit(index)
    assert report.cell_cases.count() == int(heat.data(index))
    off = next(
        (e, ch) for e, ch, _n in report.report.groups[(c.b_label, profile)].confusion.off_diagonal()
    )
    listed = report.show_cell(*off)
    assert listed and report.cell_cases.count() == len(listed)

    # Flips first: broken, then fixed, then the unchanged pairs.
    flips_model = report.flips_model
    statuses = [flips_model.index(r, 0).data() for r in range(flips_model.rowCount())]
    flips = c.fixed + c.broken
    assert flips > 0 and set(statuses[:flips]) <= {"fixed", "broken"}
    assert "unchanged" not in statuses[:flips] and statuses[flips:] == ["unchanged"] * (
        len(statuses) - flips
    )
    # Per-tool bars carry the rates their delegate paints.
    assert report.tools.rowCount() >= 4
    assert report.tools.item(0, 3).data(Qt.ItemDataRole.UserRole + 11) is not None

    # A case opens in the conversation widget with its request and answer.
    case_id = flips_model.index(0, 1).data()
    report.flips.doubleClicked.emit(flips_model.index(0, 1))
    assert report.tabs.currentIndex() == 3 and report.case_combo.count() == 2
    rows = report.conversation.conversation.items()
    assert rows[0].role == "user" and any(r.role == "assistant" for r in rows)
    # Calls the eval did not run say so in place of a result: no pairing problem shown.
    assert all(not r.problems for r in rows)
    if any(r.kind == "call" for r in rows):
        assert rows[-1].kind == "result" and "not executed" in rows[-1].text
    assert "After the pipeline:" in report.case_details.toPlainText()
    assert case_id in report.case_combo.currentText()

    # The result filter follows the run: failed shows only failing cases of B.
    view.result_filter.setCurrentIndex(view.result_filter.findData(RESULT_FAILED))
    failed = view.cases_filter.rowCount()
    view.result_filter.setCurrentIndex(view.result_filter.findData(RESULT_PASSED))
    passed = view.cases_filter.rowCount()
    assert failed > 0 and passed > 0 and failed + passed == cases

    # Exports: Markdown, self-contained HTML with the SVG heat map, JSON.
    for fmt, marker in (("md", "| Variant"), ("html", "<svg"), ("json", '"comparison"')):
        out = tmp_path / f"report.{fmt}"
        view.ask_save_path = lambda _t, _n, out=out: out  # type: ignore[method-assign]
        report.export_buttons[fmt].click()
        assert marker in out.read_text(encoding="utf-8"), fmt


def test_cancel_keeps_what_arrived_and_resume_sends_only_the_rest(
    loop, qtbot, view: EvalsView, store: RegistryStore, server: LoopbackModel
) -> None:
    profile = add_profile(store, server, "anthropic")
    cases = len(view.eval_set.cases)  # type: ignore[union-attr]

    def cancel_early(p) -> None:
        if p.done == 12:
            view.cancel_button.click()

    view.controller.progressed.connect(cancel_early)
    request = RunRequest(REGISTRY, "core", store.terse, "draft", (profile,), concurrency=2,
                         use_cache=False)  # fmt: skip
    run(loop, view, request)
    view.controller.progressed.disconnect(cancel_early)
    assert "cancelled" in view.message.text()
    run_id = view.selected_run()
    assert run_id is not None
    sent = len(server.received)
    assert sent < 2 * cases
    stored = {a.key for a in view.report_view.report.attempts}  # type: ignore[union-attr]
    assert len(stored) >= 12

    async def resume() -> None:
        assert view.resume_selected(), view.message.text()
        assert view.controller.task is not None
        await view.controller.task

    loop.run_until_complete(resume())
    assert "finished" in view.message.text() and view.selected_run() == run_id
    # Nothing stored was sent again: the resume asked only for the missing attempts.
    assert len(server.received) - sent == 2 * cases - len(stored)
    assert len(view.report_view.report.attempts) == 2 * cases  # type: ignore[union-attr]
    assert view.runs_table.rowCount() == 1


def test_a_bad_request_is_one_line_and_nothing_is_sent(
    loop, view: EvalsView, store: RegistryStore, server: LoopbackModel
) -> None:
    profile = add_profile(store, server)

    async def go() -> None:
        assert not view.start_run(RunRequest(REGISTRY, "core", "9", "draft", (profile,)))

    loop.run_until_complete(go())
    assert view.message.text() == f"{REGISTRY} has no version 9"
    assert not server.received and not view.controller.busy


def test_the_report_fills_in_while_the_run_goes(
    loop, qtbot, view: EvalsView, store: RegistryStore
) -> None:
    server = LoopbackModel(Behaviour(seed=3, delay_ms=25)).start()  # a model that takes time
    profile = add_profile(store, server)
    core = EvalStore(store).load(REGISTRY, "core")
    EvalStore(store).save_cases(REGISTRY, "mini", list(core.cases[:15]))
    view.refresh()
    assert view.select_set("mini")
    cases = 15
    shown: list[int] = []
    view.PARTIAL_MS = 100  # type: ignore[misc]
    view.partial_timer.setInterval(100)
    original = view.show_run

    def spy(run_id):
        original(run_id)
        if view.report_view.report is not None:
            shown.append(len(view.report_view.report.attempts))

    view.show_run = spy  # type: ignore[method-assign]
    request = RunRequest(REGISTRY, "mini", store.terse, "draft", (profile,), concurrency=1,
                         use_cache=False)  # fmt: skip
    run(loop, view, request)
    assert shown[-1] == 2 * cases
    assert any(0 < n < 2 * cases for n in shown), shown  # partial reports on the way
    assert not view.partial_timer.isActive()
    server.stop()


def test_the_run_dialog_asks_a_multi_step_run_and_the_table_shows_end_to_end(
    loop, qtbot, view: EvalsView, store: RegistryStore, server: LoopbackModel
) -> None:
    from studio.ui.evals.run_dialog import RunDialog

    profile = add_profile(store, server)
    core = EvalStore(store).load(REGISTRY, "core")
    EvalStore(store).save_cases(REGISTRY, "mini", list(core.cases[:8]))
    view.refresh()
    assert view.select_set("mini")
    asked: list = []

    def answer(dialog: RunDialog):
        assert dialog.checked_profiles() == (profile,)
        dialog.select_variants(store.terse, "draft")
        dialog.repeat.setValue(2)
        dialog.multi_step.setChecked(True)
        asked.append(dialog.request())
        return asked[-1]

    view.run_in_dialog = answer  # type: ignore[method-assign]

    async def go() -> None:
        assert view.open_run_dialog(), view.message.text()
        await view.controller.task

    loop.run_until_complete(go())
    request = asked[0]
    assert request.a == store.terse and request.b == "draft" and request.repeat == 2
    report = view.report_view.report
    assert report is not None and len(report.attempts) == 8 * 2 * 2
    header = view.report_view.table.horizontalHeaderItem(5).text()
    assert header == "End-to-end" and view.report_view.table.item(1, 5).text().endswith("%")
    # A resume asks the same again: multi-step, two repetitions.
    from studio.ui.evals.run_controller import request_for_run

    again = request_for_run(store, view.selected_run())
    assert again.multi_step and again.repeat == 2 and again.b == "draft"
