"""The mock editor: the example mocks round-trip, edits save and reach a run, bad JSON is kept."""

from __future__ import annotations

import json

import pytest

from registry_db.sessions import SessionStore
from studio.ui.playground.mock_draft import DEFAULT
from studio.ui.playground.mock_editor import FORM_TAB, JSON_TAB, MockEditorDialog
from studio.ui.playground.sidebar import PlaygroundSidebar
from studio.ui.playground.view import PlaygroundView
from tests.providers.scripted_server import ScriptedServer, ToolCall, Turn
from tests.ui.playground_helpers import KEY_ENV, add_profile, make_store, until

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
REGISTRY = "travel-reimbursement"


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.setenv(KEY_ENV, "sk-test")
    store = make_store(tmp_path / "studio.sqlite3")
    yield store
    store.close()


class Answers:
    """A scripted unsaved-changes prompt."""

    def __init__(self, *answers: str) -> None:
        self.answers = list(answers)
        self.asked: list[str] = []

    def __call__(self, parent, what: str) -> str:
        self.asked.append(what)
        return self.answers.pop(0)


def make_sidebar(qtbot, store) -> PlaygroundSidebar:
    sidebar = PlaygroundSidebar(store, SessionStore.for_store(store))
    qtbot.addWidget(sidebar)
    sidebar.resize(300, 800)
    sidebar.show()
    return sidebar


def stored_rows(store) -> list[tuple[str, str]]:
    return store.connection.execute(
        "SELECT tool, spec_json FROM mock_responses ORDER BY tool"
    ).fetchall()


def open_editor(qtbot, store, tool: str = "query_invoices", answers=None) -> MockEditorDialog:
    sidebar = make_sidebar(qtbot, store)
    if answers is not None:
        sidebar.ask_unsaved = answers
    dialog = sidebar.open_mock_editor(tool)
    assert dialog is not None and dialog.isVisible() and dialog.current_tool == tool
    return dialog


def commit(widget, text: str) -> None:
    """Type ``text`` into a JSON field and let the pause pass."""
    widget.editor.setPlainText(text)
    widget.commit()


def select_slot(dialog: MockEditorDialog, slot: int) -> None:
    dialog.responses_list.setCurrentRow(dialog._slots.index(slot))
    assert dialog.current_slot() == slot


def test_the_example_mocks_show_in_the_form_and_json_and_round_trip_unchanged(qtbot, store):
    dialog = open_editor(qtbot, store)
    before = stored_rows(store)
    assert [tool for tool, _ in before] == [
        "", "create_reimbursement_ticket", "query_invoices", "query_tickets", "search_policy"
    ]  # fmt: skip
    # query_invoices: a regex matcher for other categories, the INV-102 default.
    assert dialog.responses_list.count() == 2
    assert dialog.responses_list.item(0).text() == (
        '1. category regex ^(hotel|train|flight)$ → 200 {"invoices": []}'
    )
    assert dialog.form.matchers_table.item(0, 0).text() == "category"
    assert dialog.form.matchers_table.cellWidget(0, 1).currentText() == "regex"
    assert dialog.form.matchers_table.item(0, 2).text() == "^(hotel|train|flight)$"
    select_slot(dialog, DEFAULT)
    default_body = dialog.form.body_edit.value()
    assert default_body["invoices"][0]["id"] == "INV-102"
    assert default_body["invoices"][0]["amount"] == 118.5
    assert dialog.try_label.text().startswith("→ default:") and "118.5" in dialog.try_label.text()
    # Every tool, in both views: nothing becomes a change.
    for name in ("search_policy", "query_tickets", "create_reimbursement_ticket",
                 "delete_reimbursement_ticket", "query_invoices"):  # fmt: skip
        assert dialog.select_tool(name)
        for slot in list(dialog._slots):
            select_slot(dialog, slot)
        dialog.tabs.setCurrentIndex(JSON_TAB)
        dialog.json_edit.commit()
        dialog.tabs.setCurrentIndex(FORM_TAB)
    assert dialog.select_tool("create_reimbursement_ticket")
    body = dialog.draft.response("create_reimbursement_ticket", DEFAULT)["body"]
    assert body["ticket_id"] == "R-55821" and body["amount"] == "{amount}"
    assert "38.5 above the taxi limit of 80" in body["note"]
    dialog.tabs.setCurrentIndex(JSON_TAB)
    assert '"ticket_id": "R-55821"' in dialog.json_edit.text()
    assert not dialog.draft.dirty() and not dialog.save_button.isEnabled()
    assert dialog.windowTitle() == f"Mock responses — {REGISTRY}"
    # Saving without changes writes nothing different, byte for byte.
    assert dialog.save()
    assert stored_rows(store) == before
    dialog.reject()
    assert not dialog.isVisible()


def edit_query_invoices(dialog: MockEditorDialog) -> None:
    """A hotel matcher failing once with 429, and a new default body with latency."""
    select_slot(dialog, DEFAULT)
    commit(dialog.form.body_edit, '{"invoices": [{"id": "INV-777", "amount": 42.0}]}')
    dialog.form.latency_spin.setValue(5)
    dialog.add_response()
    slot = dialog.current_slot()
    assert slot == 1 and dialog.responses_list.count() == 3
    table = dialog.form.matchers_table
    assert table.item(0, 0).text() == "start_date"  # the sample's first argument
    table.item(0, 0).setText("category")
    table.item(0, 2).setText("hotel")
    dialog.form.fail_combo.setCurrentIndex(dialog.form.fail_combo.findData("429"))
    dialog.form.fail_combo.activated.emit(dialog.form.fail_combo.currentIndex())
    dialog.form.retry_after_spin.setValue(2)
    dialog.form.times_spin.setValue(1)


def test_form_edits_save_through_the_store_and_a_playground_run_uses_them(loop, qtbot, store):
    view = PlaygroundView(store)
    qtbot.addWidget(view)
    view.resize(1280, 800)
    view.show()
    dialog = view.sidebar.open_mock_editor("query_invoices")
    edit_query_invoices(dialog)
    assert dialog.draft.dirty() and dialog.windowTitle().endswith(" *")
    assert dialog.save_button.isEnabled()
    expected_new = {
        "when": [{"path": "category", "equals": "hotel"}],
        "body": {},
        "fail": "429",
        "retry_after": 2.0,
        "times": 1,
    }
    assert dialog.draft.responses("query_invoices")[1] == expected_new
    with qtbot.wait_signal(dialog.saved):
        dialog.save_button.click()
    stored = SessionStore.for_store(store).mock_specs(REGISTRY)["query_invoices"]
    assert stored["responses"][1] == expected_new
    assert stored["default"] == {
        "body": {"invoices": [{"id": "INV-777", "amount": 42.0}]},
        "latency_ms": 5,
    }
    # The untouched response and the other tools are as they were.
    assert stored["responses"][0]["when"] == [
        {"path": "category", "regex": "^(hotel|train|flight)$"}
    ]
    assert view.sidebar.executor_model.choice("query_invoices").target_summary() == (
        "2 responses + default"
    )
    dialog.reject()
    assert not dialog.isVisible()
    # A run: the taxi query gets the edited default.
    args = '{"start_date": "2024-05-01", "end_date": "2024-05-10", "category": "taxi"}'
    turns = [Turn(tool_calls=[ToolCall("query_invoices", args)]), Turn(text="INV-777, 42.")]
    with ScriptedServer(turns) as server:
        add_profile(store, server.base_url)
        view.sidebar.refresh()
        view.sidebar.profile_combo.setCurrentText("scripted")

        async def go():
            view.prompt_edit.setPlainText("Which taxi invoices do I have?")
            assert view.run_prompt() is not None
            await until(lambda: view.controller.result is not None and not view.controller.busy)

        loop.run_until_complete(go())
    assert view.controller.result.status == "completed"
    messages = json.dumps(SessionStore.for_store(store).messages(view.controller.session_id))
    assert "INV-777" in messages and "INV-102" not in messages


def test_invalid_json_is_kept_with_line_and_column_and_nothing_switches(qtbot, store):
    dialog = open_editor(qtbot, store)
    before = stored_rows(store)
    # In the JSON view.
    dialog.tabs.setCurrentIndex(JSON_TAB)
    broken = dialog.json_edit.text().replace('"when":', '"when"', 1)
    commit(dialog.json_edit, broken)
    assert dialog.json_edit.error_label.isVisible()
    assert dialog.json_edit.error_label.text() == "line 4, column 14: Expecting ':' delimiter"
    assert "The JSON does not parse: line 4, column 14" in dialog.problems_label.text()
    assert not dialog.save_button.isEnabled() and not dialog.save()
    assert not dialog.select_tool("query_tickets")
    assert dialog.current_tool == "query_invoices"
    assert "Fix it first" in dialog.problems_label.text()
    dialog.tabs.setCurrentIndex(FORM_TAB)
    assert dialog.tabs.currentIndex() == JSON_TAB
    assert dialog.json_edit.text() == broken  # kept exactly as typed
    # Valid JSON that is not a valid spec: named, not applied to the store.
    commit(dialog.json_edit, '{"responses": [{"when": [{"path": "category", "regex": "(taxi"}]}]}')
    assert "response 1 › matcher 1: the regex does not compile" in dialog.problems_label.text()
    assert not dialog.save_button.isEnabled()
    assert dialog.select_tool("query_tickets")  # valid JSON: free to move on
    assert dialog.tool_list.currentItem().text().startswith("query_tickets")
    assert any(
        dialog.tool_list.item(i).text().startswith("✗ query_invoices")
        for i in range(dialog.tool_list.count())
    )
    # In the form: a body that does not parse blocks leaving the response.
    dialog.tabs.setCurrentIndex(FORM_TAB)
    assert dialog.select_tool("search_policy")
    select_slot(dialog, 0)
    commit(dialog.form.body_edit, '{"clauses": [}')
    assert dialog.form.body_edit.error_label.text() == "line 1, column 14: Expecting value"
    dialog.responses_list.setCurrentRow(1)
    assert dialog.current_slot() == 0
    assert dialog.form.body_edit.text() == '{"clauses": [}'
    assert "the body does not parse (line 1, column 14" in dialog.problems_label.text()
    assert not dialog.select_tool("query_tickets")
    assert stored_rows(store) == before


def test_closing_with_unsaved_changes_asks_and_saves_only_when_told(qtbot, store):
    answers = Answers("cancel", "discard")
    dialog = open_editor(qtbot, store, "query_tickets", answers)
    before = stored_rows(store)
    select_slot(dialog, DEFAULT)
    dialog.form.status_spin.setValue(404)
    dialog.form.error_code_edit.setText("TICKET_NOT_FOUND")
    dialog.form.error_code_edit.textEdited.emit("TICKET_NOT_FOUND")
    assert dialog.draft.response("query_tickets", DEFAULT)["status"] == 404
    dialog.reject()
    assert dialog.isVisible() and answers.asked == [f"the mock responses of {REGISTRY}"]
    dialog.reject()
    assert not dialog.isVisible() and stored_rows(store) == before

    answers = Answers("save")
    dialog = open_editor(qtbot, store, "query_tickets", answers)
    select_slot(dialog, DEFAULT)
    dialog.form.latency_spin.setValue(300)
    dialog.reject()
    assert not dialog.isVisible()
    stored = SessionStore.for_store(store).mock_specs(REGISTRY)
    assert stored["query_tickets"]["default"]["latency_ms"] == 300
    assert "status" not in stored["query_tickets"]["default"]  # the discarded edit


def test_removing_every_response_deletes_the_tools_mocks_and_undo_by_closing(qtbot, store):
    answers = Answers("discard")
    dialog = open_editor(qtbot, store, "query_tickets", answers)
    select_slot(dialog, DEFAULT)
    dialog.remove_response()
    assert dialog.responses_list.count() == 0
    assert "no mocks" in dialog.tool_list.currentItem().text()
    assert dialog.try_label.text().startswith("No mocks")
    dialog.reject()  # discard: nothing removed
    assert "query_tickets" in SessionStore.for_store(store).mock_specs(REGISTRY)

    dialog = open_editor(qtbot, store, "query_tickets")
    select_slot(dialog, DEFAULT)
    dialog.remove_response()
    assert dialog.save()
    assert "query_tickets" not in SessionStore.for_store(store).mock_specs(REGISTRY)
    # A tool without mocks gets a default added in the form.
    assert dialog.select_tool("delete_reimbursement_ticket")
    dialog.add_default()
    commit(dialog.form.body_edit, '{"deleted": true}')
    assert dialog.save()
    stored = SessionStore.for_store(store).mock_specs(REGISTRY)
    assert stored["delete_reimbursement_ticket"] == {"default": {"body": {"deleted": True}}}


@pytest.mark.parametrize(
    ("regex", "reason"),
    [(r"^(\\w+)-\\1$", "uses a backreference"), (r"^(?=.*hotel).*$", "uses lookahead")],
)
def test_a_regex_that_could_stall_a_run_is_named_and_not_saved(qtbot, store, regex, reason):
    dialog = open_editor(qtbot, store)
    before = stored_rows(store)
    dialog.tabs.setCurrentIndex(JSON_TAB)
    commit(dialog.json_edit, '{"responses": [{"when": [{"path": "category", "regex": "'
           + regex + '"}], "body": {}}]}')  # fmt: skip
    assert f"response 1 › matcher 1: the regex {reason}" in dialog.problems_label.text()
    assert not dialog.save_button.isEnabled() and not dialog.save()
    assert stored_rows(store) == before
    # A catastrophic-looking pattern is fine on RE2: it runs in linear time.
    commit(dialog.json_edit, '{"responses": [{"when": [{"path": "category", "regex": '
           '"^(a+)+$"}], "body": {}}]}')  # fmt: skip
    assert "matcher 1" not in dialog.problems_label.text()
    assert dialog.save_button.isEnabled()
