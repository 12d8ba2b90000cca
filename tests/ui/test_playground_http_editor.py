"""The HTTP target editor: templates set in the GUI reach a real server; bad ones are named."""

from __future__ import annotations

import json

import pytest
from PySide6.QtWidgets import QComboBox, QTableWidgetItem

from registry_db import RegistryStore
from registry_db.executors import ExecutorStore
from studio.runtime import ApprovalDecision
from studio.ui.main_window import MainWindow
from studio.ui.playground.executor_model import EXECUTOR_COLUMN
from studio.ui.playground.http_target_dialog import HttpTargetDialog
from studio.ui.playground.view import PlaygroundView
from tests.providers.scripted_server import ScriptedServer, ToolCall, Turn
from tests.runtime.tool_api_server import ToolApiServer
from tests.ui.playground_helpers import (
    KEY_ENV,
    Approvals,
    add_profile,
    make_store,
    make_view,
    until,
)

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
REGISTRY = "travel-reimbursement"
TOKEN_ENV = "CLAIMS_API_TEST_TOKEN"
TOKEN = "tok-0f9e8d7c"


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "studio.sqlite3"


@pytest.fixture
def store(db_path, monkeypatch):
    monkeypatch.setenv(KEY_ENV, "sk-test")
    store = make_store(db_path)
    yield store
    store.close()


def pick_executor(view: PlaygroundView, tool: str, executor: str) -> None:
    model = view.sidebar.executor_model
    row = [c.tool for c in model.choices()].index(tool)
    assert model.setData(model.index(row, EXECUTOR_COLUMN), executor)


def set_header(dialog: HttpTargetDialog, row: int, name: str, value: str) -> None:
    if row >= dialog.headers_table.rowCount():
        dialog.add_header_button.click()
    dialog.headers_table.setItem(row, 0, QTableWidgetItem(name))
    dialog.headers_table.setItem(row, 1, QTableWidgetItem(value))


def fill_claims_target(dialog: HttpTargetDialog, base_url: str) -> None:
    dialog.method_combo.setCurrentText("PUT")
    dialog.url_edit.setText(base_url + "/employees/{employee_id}/claims")
    set_header(dialog, 0, "Authorization", f"Bearer {{env:{TOKEN_ENV}}}")
    set_header(dialog, 1, "X-Employee", "{employee_id}")
    dialog.body_edit.editor.setPlainText(
        '{"ids": "{invoice_ids}", "total": "{amount}", "note": "{amount} CNY by {employee_id}"}'
    )
    dialog.body_edit.commit()
    dialog.allowed_edit.setPlainText(base_url)
    dialog.refresh()


def test_templates_set_in_the_gui_produce_the_expected_request(loop, qtbot, store, monkeypatch):
    monkeypatch.setenv(TOKEN_ENV, TOKEN)
    approvals = Approvals(ApprovalDecision(True))
    view = make_view(qtbot, store, approval_prompt=approvals)
    with ToolApiServer({"/employees/E-1001/claims": {"ticket_id": "R-55821"}}) as api:
        # Picking http for a tool without a target opens the editor.
        pick_executor(view, "create_reimbursement_ticket", "http")
        dialog = view.sidebar.http_dialog
        assert dialog is not None and dialog.isVisible()
        assert dialog.use_http_check.isChecked()
        assert "write · timeout 8 s (write tier) · never retried" in dialog.policy_label.text()
        fill_claims_target(dialog, api.base_url)
        assert dialog.errors() == [], dialog.problems
        preview = dialog.preview_edit.toPlainText().splitlines()
        assert preview[0] == f"PUT {api.base_url}/employees/E-1001/claims"
        assert f"Authorization: Bearer {{env:{TOKEN_ENV}}}" in preview
        assert "X-Employee: E-1001" in preview
        assert any(line.startswith("Idempotency-Key: sample-session:") for line in preview)
        assert '  "total": 118.5,' in preview
        assert f"${TOKEN_ENV} is set here" in dialog.env_label.text()
        dialog.save_button.click()
        assert not dialog.isVisible() and dialog.saved
        choice = view.sidebar.executor_model.choice("create_reimbursement_ticket")
        assert choice.executor == "http"
        assert choice.target_summary() == f"PUT {api.base_url}/employees/{{employee_id}}/claims"
        # The secret never reaches the database: only the reference does.
        row = store.connection.execute("SELECT http_json FROM tool_executors").fetchone()
        assert TOKEN_ENV in row[0] and TOKEN not in row[0]

        create = '{"invoice_ids": ["INV-102"], "amount": 118.5, "reason": "airport taxi"}'
        turns = [Turn(tool_calls=[ToolCall("create_reimbursement_ticket", create)]),
                 Turn(text="Filed as R-55821.")]  # fmt: skip
        with ScriptedServer(turns) as server:
            add_profile(store, server.base_url)
            view.sidebar.refresh()
            view.sidebar.profile_combo.setCurrentText("scripted")

            async def go():
                view.prompt_edit.setPlainText("File my taxi invoice INV-102")
                assert view.run_prompt() is not None
                await until(lambda: view.controller.result is not None
                            and not view.controller.busy)  # fmt: skip

            loop.run_until_complete(go())
    assert view.controller.result.status == "completed"
    assert [r.tool for r in approvals.requests] == ["create_reimbursement_ticket"]
    (request,) = api.requests
    assert request.method == "PUT"
    assert request.target == "/employees/E-1001/claims"
    assert request.headers["Authorization"] == f"Bearer {TOKEN}"
    assert request.headers["X-Employee"] == "E-1001"
    assert request.headers["Idempotency-Key"]
    assert request.json() == {"ids": ["INV-102"], "total": 118.5,
                              "note": "118.5 CNY by E-1001"}  # fmt: skip
    # The recorded snapshot keeps the reference, never the token.
    events = store.connection.execute("SELECT data_json FROM run_events").fetchall()
    assert TOKEN not in json.dumps(events)
    assert any("/employees/E-1001/claims" in e[0] for e in events)


def test_bad_templates_are_named_keep_the_input_and_are_not_saved(qtbot, store):
    view = make_view(qtbot, store)
    dialog = view.sidebar.open_http_editor("query_tickets")
    assert dialog.method_combo.currentText() == "GET"  # a read
    dialog.allowed_edit.setPlainText("https://tickets.example")
    dialog.url_edit.setText("https://tickets.example/tickets/{ticket}")
    set_header(dialog, 0, "Authorization", "Bearer sk-live-123")
    dialog.body_edit.editor.setPlainText('{"status": "{status}",')
    dialog.body_edit.commit()
    dialog.refresh()
    shown = dialog.problems_label.text()
    assert "url: {ticket} is not a parameter of query_tickets (parameters: ticket_id, status, " \
           "idempotency_key, employee_id; built-ins: tool, call_id)" in shown  # fmt: skip
    assert "headers.Authorization: would store a credential in the database" in shown
    assert "body: not valid JSON (line 1, column 23: Expecting property name" in shown
    assert dialog.body_edit.error_label.text().startswith("line 1, column 23")
    assert not dialog.save_button.isEnabled() and not dialog.save()
    assert dialog.isVisible()
    # What was typed is still there.
    assert dialog.url_edit.text() == "https://tickets.example/tickets/{ticket}"
    assert dialog.body_edit.text() == '{"status": "{status}",'
    assert dialog.header_rows() == [("Authorization", "Bearer sk-live-123")]
    # Outside the allow-list, and the host in a placeholder.
    dialog.url_edit.setText("https://evil.example/tickets/{ticket_id}")
    dialog.refresh()
    assert ("url: https://evil.example/tickets/… is outside the allowed base URLs "
            "(https://tickets.example)") in dialog.problems_label.text()  # fmt: skip
    assert dialog.preview_edit.toPlainText().startswith("Fix the body JSON")
    dialog.body_edit.editor.clear()
    dialog.body_edit.commit()
    dialog.refresh()
    assert dialog.preview_edit.toPlainText().startswith(
        "Not sent: https://evil.example/tickets/R-55821 is outside the allowed base URLs"
    )
    dialog.url_edit.setText("https://{ticket_id}.example/x")
    dialog.refresh()
    assert "the scheme and host must be fixed text" in dialog.problems_label.text()
    # The sample arguments may be broken too; the preview says so.
    dialog.sample_edit.editor.setPlainText("{")
    dialog.refresh()
    assert dialog.preview_edit.toPlainText().startswith(
        "The sample arguments are not valid JSON (line 1, column 2"
    )
    assert ExecutorStore.for_store(store).settings(REGISTRY).tools == {}
    # Closing asks; cancelling keeps everything.
    answers = []
    dialog._ask = lambda parent, what: answers.append(what) or "cancel"
    dialog.reject()
    assert dialog.isVisible() and answers == ["the HTTP target of query_tickets"]
    dialog._ask = lambda parent, what: "discard"
    dialog.reject()
    assert not dialog.isVisible()
    assert ExecutorStore.for_store(store).settings(REGISTRY).tools == {}


def test_cancelling_the_editor_after_picking_http_goes_back_to_mock(qtbot, store):
    view = make_view(qtbot, store)
    table = view.sidebar.executor_view
    # Through the table's combo box, as a user picks it.
    table.setCurrentIndex(view.sidebar.executor_model.index(0, EXECUTOR_COLUMN))
    (combo,) = table.findChildren(QComboBox)
    combo.setCurrentText("http")
    combo.activated.emit(combo.currentIndex())
    dialog = view.sidebar.http_dialog
    assert dialog is not None and dialog.isVisible() and dialog.tool.name == "search_policy"
    dialog.reject()  # nothing typed: no question
    assert view.sidebar.executor_model.choice("search_policy").executor == "mock"
    assert table.currentIndex().column() == 0  # the combo box closed
    assert ExecutorStore.for_store(store).settings(REGISTRY).tools == {}
    # Double-clicking a mock row opens the mock editor at that tool.
    view.sidebar._on_row_activated(view.sidebar.executor_model.index(1, 3))
    assert view.sidebar.mock_dialog.isVisible()
    assert view.sidebar.mock_dialog.current_tool == "query_invoices"
    view.sidebar.mock_dialog.reject()


def test_executor_choices_and_targets_survive_reopening_the_window(qtbot, db_path, monkeypatch):
    monkeypatch.setenv(KEY_ENV, "sk-test")
    store = make_store(db_path)
    window = MainWindow(store)
    qtbot.addWidget(window)
    window.show()
    view = window.show_playground()
    pick_executor(view, "query_tickets", "http")
    dialog = view.sidebar.http_dialog
    dialog.allowed_edit.setPlainText("https://tickets.example")
    dialog.url_edit.setText("https://tickets.example/tickets/{ticket_id}?key={idempotency_key}")
    set_header(dialog, 0, "X-Api-Key", "{env:TICKETS_KEY}")
    dialog.refresh()
    assert dialog.save()
    pick_executor(view, "delete_reimbursement_ticket", "http")
    last = view.sidebar.http_dialog
    last.reject()  # back to mock, not stored
    # A stored target survives a switch back to mock and back again.
    pick_executor(view, "query_tickets", "mock")
    assert ExecutorStore.for_store(store).settings(REGISTRY).tools["query_tickets"].http
    pick_executor(view, "query_tickets", "http")
    assert view.sidebar.http_dialog is last  # no editor opened: the target was kept
    window.close()
    store.close()

    reopened = RegistryStore.open(db_path)
    try:
        window = MainWindow(reopened)
        qtbot.addWidget(window)
        window.show()
        sidebar = window.show_playground().sidebar
        choices = {c.tool: c for c in sidebar.executor_model.choices()}
        assert choices["query_tickets"].executor == "http"
        assert choices["query_tickets"].http == {
            "method": "GET",
            "url": "https://tickets.example/tickets/{ticket_id}?key={idempotency_key}",
            "headers": {"X-Api-Key": "{env:TICKETS_KEY}"},
        }
        assert choices["delete_reimbursement_ticket"].executor == "mock"
        assert sidebar.allowed_label.text() == "HTTP allowed: https://tickets.example"
        # The run is configured from what was stored.
        add_profile(reopened, "http://127.0.0.1:9")
        sidebar.refresh()
        sidebar.profile_combo.setCurrentText("scripted")
        config, _profile = sidebar.run_config()
        http = config.executors["query_tickets"]
        assert http.allowed == ["https://tickets.example"]
        assert set(config.executors) == {"query_tickets"}
        # Editing it again starts from what is stored.
        again = sidebar.open_http_editor("query_tickets")
        assert again.url_edit.text().endswith("?key={idempotency_key}")
        assert again.header_rows() == [("X-Api-Key", "{env:TICKETS_KEY}")]
        assert not again.is_dirty()
        # Closing with a change and answering Save stores it.
        again.method_combo.setCurrentText("POST")
        again._ask = lambda parent, what: "save"
        again.reject()
        assert not again.isVisible() and again.saved
        stored = ExecutorStore.for_store(reopened).settings(REGISTRY).tools["query_tickets"]
        assert stored.http["method"] == "POST"
        window.close()
    finally:
        reopened.close()
