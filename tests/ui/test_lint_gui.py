"""The lint GUI end to end on real SQLite files: problems panel, jumps, fixes, config, markers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtWidgets import QWidget

from registry_db import ConflictError, RegistryStore
from studio.contract import ToolContract, parse_registry
from studio.contract.model import Registry
from studio.editing import EditTool, SetField
from studio.lint import Finding, Linter, Rule, Severity
from studio.ui.lint_controller import LintConfigNotSaved, LintController
from studio.ui.main_window import MainWindow, Prompts
from studio.ui.widgets.field_markers import marked_severity

# The offscreen QPA warns when a shown window has docks; that is not a test failure.
pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")

EXAMPLE = Path(__file__).resolve().parents[2] / "resources" / "examples" / "order-service.json"


class LintFakePrompts(Prompts):
    """Scripted answers for the lint questions; records errors."""

    def __init__(self) -> None:
        self.reason: str | None = "accepted upstream"
        self.errors: list[str] = []
        self.rationales: list[str] = []

    def suppression_reason(self, parent: QWidget, finding: Finding) -> str | None:
        return self.reason

    def unsaved_changes(self, parent: QWidget, names) -> str:  # type: ignore[no-untyped-def]
        return "discard"

    def show_rationale(self, parent: QWidget, rule: Rule) -> None:
        self.rationales.append(rule.id)

    def error(self, parent: QWidget, title: str, text: str) -> None:
        self.errors.append(f"{title}: {text}")


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    path = tmp_path / "studio.sqlite3"
    registry = parse_registry(json.loads(EXAMPLE.read_text(encoding="utf-8")))
    with RegistryStore.open(path) as store:
        store.import_registry(registry)
    return path


@pytest.fixture
def prompts() -> LintFakePrompts:
    return LintFakePrompts()


def open_window(qtbot, db_path: Path, prompts: LintFakePrompts):
    store = RegistryStore.open(db_path)
    window = MainWindow(store, prompts)
    qtbot.addWidget(window)
    window.show()
    controller = window.lint_ops.current_controller()
    assert controller is not None
    qtbot.waitUntil(lambda: controller.report is not None and not controller.busy, timeout=10_000)
    return window, store, controller


@pytest.fixture
def window(qtbot, db_path: Path, prompts: LintFakePrompts):
    window, store, _controller = open_window(qtbot, db_path, prompts)
    yield window
    window.lint_ops.shutdown()
    store.close()


def find(window: MainWindow, rule_id: str, tool: str, path: str | None = None) -> Finding | None:
    report = window.lint_ops.current_controller().report
    for f in report.findings:
        if f.rule_id == rule_id and f.tool == tool and (path is None or f.path == path):
            return f
    return None


def wait_relinted(qtbot, controller: LintController) -> None:
    """Wait for the debounce and the incremental update (or a full lint) to land."""
    with qtbot.waitSignal(controller.reportChanged, timeout=5_000):
        pass


# ---------------------------------------------------------------------- panel


def test_problems_panel_lists_findings_of_many_rules(window: MainWindow) -> None:
    panel = window.lint_ops.problems_panel
    rules = {panel.model.finding(r).rule_id for r in range(panel.model.rowCount())}
    assert len(rules) >= 8
    counter = window.lint_ops.counter_label.text()
    assert "errors" in counter and "warnings" in counter
    assert panel.severity_buttons[Severity.ERROR].text().startswith("Errors (")


def test_severity_and_text_filter(window: MainWindow) -> None:
    panel = window.lint_ops.problems_panel
    total = panel.proxy.rowCount()
    panel.set_severity_filter({Severity.ERROR})
    errors = panel.proxy.rowCount()
    assert 0 < errors < total
    assert all(
        panel.proxy.finding(panel.proxy.index(r, 0)).severity is Severity.ERROR
        for r in range(errors)
    )
    panel.set_severity_filter(set(Severity))
    panel.filter_edit.setText("getOrderDetail")
    rows = [panel.proxy.finding(panel.proxy.index(r, 0)) for r in range(panel.proxy.rowCount())]
    assert rows and all(
        "getorderdetail" in f"{f.tool} {f.message}".casefold() for f in rows if f is not None
    )


def test_sorting_by_severity_puts_errors_first(window: MainWindow) -> None:
    panel = window.lint_ops.problems_panel
    panel.view.sortByColumn(0, Qt.SortOrder.DescendingOrder)
    ranks = [
        panel.proxy.finding(panel.proxy.index(r, 0)).severity.rank
        for r in range(panel.proxy.rowCount())
    ]
    assert ranks == sorted(ranks, reverse=True)


def double_click(qtbot, view, index) -> None:  # type: ignore[no-untyped-def]
    """Press then double-click, as a user does (item views need the press)."""
    view.scrollTo(index)
    pos = view.visualRect(index).center()
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    qtbot.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=pos)


def test_double_click_jumps_to_parameter_row(qtbot, window: MainWindow) -> None:
    panel = window.lint_ops.problems_panel
    target = find(window, "param-identity-not-injected", "get_user_info")
    assert target is not None and target.path == "parameters.properties.user_id"
    assert panel.select_finding(target)
    assert panel.view.viewport().height() > 3 * panel.view.rowHeight(0)
    double_click(qtbot, panel.view, panel.view.currentIndex())
    assert window.selected_tool().name == "get_user_info"
    assert window.editor.current_tab() == "parameters"
    assert window.editor.parameters_tab.selected_path() == ("user_id",)


def test_enter_jumps_to_overview_field(qtbot, window: MainWindow) -> None:
    panel = window.lint_ops.problems_panel
    target = find(window, "desc-restates-name", "get_user_info", "summary")
    assert target is not None
    panel.select_finding(target)
    panel.view.setFocus()
    qtbot.keyClick(panel.view, Qt.Key.Key_Return)
    assert window.selected_tool().name == "get_user_info"
    assert window.editor.current_tab() == "overview"


def test_next_problem_f8_walks_the_list(window: MainWindow) -> None:
    panel = window.lint_ops.problems_panel
    window.actions.next_problem.trigger()
    first = panel.current_finding()
    window.actions.next_problem.trigger()
    second = panel.current_finding()
    assert first is not None and second is not None and first != second
    window.actions.previous_problem.trigger()
    assert panel.current_finding() == first
    if first.tool is not None:
        assert window.selected_tool().name == first.tool


# ---------------------------------------------------------------------- fixes and edits


def test_quick_fix_is_one_undo_step(qtbot, window: MainWindow) -> None:
    controller = window.lint_ops.current_controller()
    doc = window.current_document()
    target = find(window, "schema-additional-properties", "get_order")
    assert target is not None and target.fix is not None
    before = doc.undo_stack.count()
    window.lint_ops.apply_fix(target)
    assert doc.undo_stack.count() == before + 1
    wait_relinted(qtbot, controller)
    assert find(window, "schema-additional-properties", "get_order") is None
    doc.undo_stack.undo()
    wait_relinted(qtbot, controller)
    assert find(window, "schema-additional-properties", "get_order") is not None


def test_fix_from_context_menu(qtbot, window: MainWindow) -> None:
    panel = window.lint_ops.problems_panel
    target = find(window, "risk-destructive-not-marked", "delete_user")
    assert target is not None and target.fix is not None
    menu = panel.context_menu_for(target)
    fix_action = next(a for a in menu.actions() if a.text().startswith("Apply quick fix"))
    fix_action.trigger()
    wait_relinted(qtbot, window.lint_ops.current_controller())
    assert find(window, "risk-destructive-not-marked", "delete_user") is None
    why = next(a for a in menu.actions() if "rationale" in a.text())
    why.trigger()
    assert window.prompts.rationales == ["risk-destructive-not-marked"]


def test_editing_a_summary_relints_only_that_tool(qtbot, window: MainWindow, monkeypatch) -> None:
    controller = window.lint_ops.current_controller()
    calls: list[tuple[str | None, str | None]] = []
    original = Linter.update_tool

    def spy(self, old_name, tool):  # type: ignore[no-untyped-def]
        calls.append((old_name, tool.name if tool else None))
        return original(self, old_name, tool)

    monkeypatch.setattr(Linter, "update_tool", spy)
    doc = window.current_document()
    entry = next(e for e in doc.workspace.entries if e.tool.name == "get_order")
    doc.push(EditTool(entry.key, SetField("summary", "Look up one order by its id.")))
    doc.push(EditTool(entry.key, SetField("summary", "Look up one order by its order id.")))
    assert calls == []  # debounced
    wait_relinted(qtbot, controller)
    assert calls == [("get_order", "get_order")]
    assert not any(
        f.rule_id == "desc-restates-name" for f in controller.report.for_tool("get_order")
    )


def test_add_and_remove_tool_relint(qtbot, window: MainWindow) -> None:
    controller = window.lint_ops.current_controller()
    window.new_tool()
    wait_relinted(qtbot, controller)
    assert "new_tool" in controller.report.tool_order
    window.delete_tool()
    wait_relinted(qtbot, controller)
    assert "new_tool" not in controller.report.tool_order


# ---------------------------------------------------------------------- configuration


def test_suppression_with_reason_persists(
    qtbot, db_path: Path, window: MainWindow, prompts: LintFakePrompts
) -> None:
    target = find(window, "param-identity-not-injected", "delete_user")
    assert target is not None
    prompts.reason = ""
    assert window.lint_ops.suppress(target) is False  # empty reason refused
    prompts.reason = "user ids come from the admin console, not the caller"
    controller = window.lint_ops.current_controller()
    with qtbot.waitSignal(controller.reportChanged, timeout=10_000):
        assert window.lint_ops.suppress(target) is True
    assert find(window, "param-identity-not-injected", "delete_user") is None
    stored = window.store.get_registry("order-service").settings.extra["lint"]
    assert stored["suppressions"][0]["reason"].startswith("user ids come")
    window.lint_ops.shutdown()
    window.close()

    again, store, controller2 = open_window(qtbot, db_path, LintFakePrompts())
    try:
        assert find(again, "param-identity-not-injected", "delete_user") is None
        suppressed = [f for f in controller2.report.suppressed if f.tool == "delete_user"]
        assert suppressed and suppressed[0].suppressed_reason.startswith("user ids come")
    finally:
        again.lint_ops.shutdown()
        store.close()


def test_suppress_without_reason_is_refused(window: MainWindow) -> None:
    controller = window.lint_ops.current_controller()
    target = controller.report.findings[0]
    with pytest.raises(LintConfigNotSaved):
        controller.suppress(target, "   ")


def test_disable_rule_for_registry(qtbot, window: MainWindow) -> None:
    controller = window.lint_ops.current_controller()
    with qtbot.waitSignal(controller.reportChanged, timeout=10_000):
        assert window.lint_ops.disable_rule("desc-no-returns")
    assert not any(f.rule_id == "desc-no-returns" for f in controller.report.findings)
    stored = window.store.get_registry("order-service").settings.extra["lint"]
    assert stored["rules"]["desc-no-returns"] == {"enabled": False}


def test_config_conflict_gives_a_clear_message(
    window: MainWindow, prompts: LintFakePrompts, monkeypatch
) -> None:
    def refuse(*_a, **_k):  # type: ignore[no-untyped-def]
        raise ConflictError("registry order-service", stored_revision=7, base_revision=6)

    monkeypatch.setattr(window.store, "update_registry_meta", refuse)
    assert window.lint_ops.disable_rule("desc-no-returns") is False
    assert prompts.errors and "changed elsewhere" in prompts.errors[0]


def test_profile_is_remembered_per_registry(qtbot, window: MainWindow) -> None:
    controller = window.lint_ops.current_controller()
    with qtbot.waitSignal(controller.reportChanged, timeout=10_000):
        window.lint_ops.set_profile("openai-strict")
    assert controller.report.profile == "openai-strict"
    assert QSettings().value("lint/profile/order-service") == "openai-strict"
    assert window.lint_ops.problems_panel.profile_combo.currentText() == "openai-strict"
    checked = [a.data() for a in window.actions.lint_profiles if a.isChecked()]
    assert checked == ["openai-strict"]
    other = LintController(window.current_document())
    try:
        assert other.profile == "openai-strict"
    finally:
        other.shutdown()


# ---------------------------------------------------------------------- views


def test_similar_tools_view_lists_confusable_pair(qtbot, window: MainWindow) -> None:
    view = window.lint_ops.similar_view
    pairs = {(p.a, p.b): p for p in view.model.pairs()}
    assert ("get_order", "getOrderDetail") in pairs
    pair = pairs[("get_order", "getOrderDetail")]
    assert "order" in pair.shared_terms
    row = next(r for r in range(view.proxy.rowCount()) if view.pair_at(r) == pair)
    apart = view.proxy.index(row, 5).data()
    assert apart.startswith("neither")
    window.select_tool_named("check_stock")
    window.lint_ops.similar_dock.raise_()
    double_click(qtbot, view.view, view.proxy.index(row, 0))
    assert window.selected_tool().name == "get_order"


def test_scores_follow_the_selected_tool(window: MainWindow) -> None:
    window.select_tool_named("create_refund")
    scores = window.lint_ops.score_widget
    assert scores.tool_box.title().startswith("Tool: create_refund · ")
    bars = scores.tool_chart.bars()
    assert bars[0].label == "Purpose" and len(bars) == 6
    assert all(1 <= b.value <= 5 for b in bars)
    method = scores._report.tokens.method  # o200k_base with bpe-openai, else estimate
    assert "rounds" in scores.budget_label.text() and f"({method})" in scores.budget_label.text()
    assert [b.label for b in scores.counts_chart.bars()] == ["Errors", "Warnings", "Info"]


def test_markers_on_fields_and_parameter_rows(window: MainWindow) -> None:
    window.select_tool_named("delete_user")
    editor = window.editor
    assert marked_severity(editor.contract_tab.risk_combo) == "error"
    assert "risk-destructive-not-marked" in editor.contract_tab.risk_combo.toolTip()
    model = editor.parameters_tab.model
    marker = model.marker(("user_id",))
    assert marker is not None and marker[0] is Severity.WARNING
    index = model.index_of(("user_id",))
    assert index.data(Qt.ItemDataRole.DecorationRole) is not None
    assert "x-injected" in index.data(Qt.ItemDataRole.ToolTipRole)
    window.select_tool_named("get_user_info")
    assert marked_severity(editor.overview_tab.summary_edit) == "warning"
    assert marked_severity(editor.contract_tab.risk_combo) == ""


def test_marker_on_summary_for_missing_purpose(qtbot, tmp_path: Path) -> None:
    path = tmp_path / "purpose.sqlite3"
    tools = (
        ToolContract(
            "lookup_weather",
            summary="",
            usage="Use when the user asks about the weather in a city; not for forecasts.",
        ),
        ToolContract("get_city", summary="Look up a city by its name and return its id."),
    )
    with RegistryStore.open(path) as store:
        store.import_registry(Registry("weather", tools=tools))
    window, store, controller = open_window(qtbot, path, LintFakePrompts())
    try:
        finding = next(f for f in controller.report.findings if f.rule_id == "desc-no-purpose")
        assert finding.tool == "lookup_weather" and finding.path == "summary"
        window.select_tool_named("lookup_weather")
        summary = window.editor.overview_tab.summary_edit
        assert marked_severity(summary) == finding.severity.value
        assert "desc-no-purpose" in summary.toolTip()
        assert window.editor.tabs.tabIcon(0).isNull() is False
    finally:
        window.lint_ops.shutdown()
        store.close()


# ---------------------------------------------------------------------- worker


def _big_registry(size: int) -> Registry:
    nouns = ["order", "invoice", "ticket", "user", "refund", "shipment", "report", "policy"]
    tools = []
    for i in range(size):
        noun = f"{nouns[i % len(nouns)]}{i}"
        tools.append(
            ToolContract(
                f"get_{noun}",
                summary=f"Look up one {noun} record by its identifier {i}.",
                usage=f"Use when the user names a {noun}; use list_{noun} for many instead.",
                returns=f"The {noun} with its status and owner.",
                parameters={
                    "type": "object",
                    "properties": {
                        f"{noun}_id": {"type": "string", "description": f"Id of the {noun}."}
                    },
                    "required": [f"{noun}_id"],
                },
            )
        )
    return Registry("big", tools=tuple(tools))


def test_full_lint_runs_in_a_worker_without_blocking(qtbot, tmp_path: Path) -> None:
    path = tmp_path / "big.sqlite3"
    with RegistryStore.open(path) as store:
        store.import_registry(_big_registry(1000))
    store = RegistryStore.open(path)
    try:
        from studio.editing import DraftWorkspace
        from studio.ui.document import RegistryDocument

        doc = RegistryDocument(store, DraftWorkspace.load(store, "big"))
        ticks = []
        timer = QTimer()
        timer.setInterval(5)
        timer.timeout.connect(lambda: ticks.append(1))
        timer.start()
        reports = []
        controller = LintController(doc, profile="openai")
        controller.reportChanged.connect(reports.append)
        controller.run_full()  # supersedes the first job: its result is dropped
        assert controller.busy
        qtbot.waitUntil(lambda: bool(reports), timeout=60_000)
        timer.stop()
        ticks_during = len(ticks)
        controller.wait()
        qtbot.wait(50)
        assert len(reports) == 1
        assert len(reports[0].tool_order) == 1000
        assert ticks_during > 0, "the GUI thread processed no events while the lint ran"
        controller.shutdown()
    finally:
        store.close()
