"""The Sessions mode shows proxy sessions live: Record proxy…, new messages, the problem badge.

A real proxy (uvicorn on 127.0.0.1, started from the view) in front of the
scripted OpenAI-style server, driven with httpx as an agent would; and a
second connection to the same SQLite file standing in for ``studio proxy``
in another process (the poll path).
"""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from PySide6.QtCore import Qt

from registry_db import RegistryStore
from registry_db.sessions import SessionStore
from studio.sessions.model import message_to_dict
from studio.ui.sessions.browser import SessionsView
from studio.ui.sessions.live import ProxySettings
from studio.ui.sessions.proxy_dialog import ProxyDialog
from studio.ui.sessions.sessions_model import PROBLEMS_COLUMN
from tests.providers.scripted_server import ScriptedServer, ToolCall, Turn
from tests.sessions.helpers import assistant, call, user
from tests.sessions.test_live_list import PER_SESSION, _fill
from tests.ui.sessions_helpers import StubPrompts

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")

CHAT = "/v1/chat/completions"
USER = {"role": "user", "content": "Taxi invoices in November?"}


class ProxyPrompts(StubPrompts):
    def __init__(self, settings: ProxySettings | None) -> None:
        super().__init__()
        self.settings = settings

    def proxy_settings(self, parent):
        self.asked.append("proxy")
        return self.settings


@pytest.fixture
def store(tmp_path: Path):
    opened = RegistryStore.open(tmp_path / "studio.sqlite3")
    yield opened
    opened.close()


@pytest.fixture
def server():
    started = ScriptedServer(
        [Turn(tool_calls=[ToolCall("query_invoices", '{"month": 11}', id="call_A")])],
        validate=False,  # the broken request below must come back, not be refused
    ).start()
    yield started
    started.stop()


def _view(qtbot, store, prompts) -> SessionsView:
    view = SessionsView(store, prompts)
    qtbot.addWidget(view)
    view.resize(1280, 800)
    view.show()
    return view


def _row(view: SessionsView, session_id: str):
    return next((r for r in view.table_model.rows() if r.id == session_id), None)


def test_a_proxy_started_from_the_view_shows_its_session_live_with_a_problem_badge(
    qtbot, store, server
):
    view = _view(qtbot, store, ProxyPrompts(ProxySettings(server.base_url, "openai-chat")))
    try:
        url = view.toggle_proxy()
        assert url and url.startswith("http://127.0.0.1:")
        assert view.proxy_button.text() == "Stop proxy"
        assert url in view.proxy_status.text() and view.proxy_status.isVisible()

        first = httpx.post(url + CHAT, json={"model": "m", "messages": [USER]})
        assert first.status_code == 200, first.text
        sid = first.headers["x-studio-session-id"]
        # The recorder tells the view: no Refresh click, no waiting for the poll.
        qtbot.waitUntil(lambda: (r := _row(view, sid)) is not None and r.messages == 2)
        assert _row(view, sid).source == "proxy" and _row(view, sid).calls == 1
        assert _row(view, sid).problems == 0
        # The recorder keeps the counts with the messages (one transaction): never stale.
        assert sid not in view.table_model.counting
        meta = SessionStore.for_store(store).get_session(sid).meta
        assert (meta["problems"], meta["problems_at"], meta["calls"]) == (0, 2, 1)
        assert view.select_session(sid)
        assert len(view.messages) == 2

        # The agent goes on without answering call_A: a broken history.
        reply = first.json()["choices"][0]["message"]
        history = [USER, reply, {"role": "user", "content": "and the policy?"}]
        second = httpx.post(url + CHAT, json={"model": "m", "messages": history})
        assert second.headers["x-studio-session-id"] == sid
        qtbot.waitUntil(lambda: _row(view, sid).problems >= 1)
        index = view.table_model.index(view.table_model.row_of(sid), PROBLEMS_COLUMN)
        assert index.data(0x1) is not None  # DecorationRole: the warning badge
        assert index.siblingAtColumn(0).data(0x1) is not None  # on the title too
        assert view.table_model.index(index.row(), 0).data(0x6).bold()  # FontRole: grew live
        # The open session shows the new message; the offending call is flagged in place
        # (the viewer already flagged the open call; the view follows the tail).
        qtbot.waitUntil(lambda: len(view.messages) >= 3)
        replay = view.viewer.replay
        assert replay is not None and replay.position == len(replay) - 1
        first_problem = replay.check.first_problem
        assert first_problem is not None and first_problem.message == 1
        assert "call_A" in replay.steps[1].findings[0].message
        view.viewer.replay_bar.jump(1)
        assert "call_A" in view.viewer.findings_view.toPlainText()
        # The proxy's exchanges: each request's check and action, each answer.
        tabs, log = view.viewer.bottom_tabs, view.viewer.proxy_log
        assert tabs.indexOf(log) == 0 and tabs.tabText(0) == "Proxy exchanges"
        qtbot.waitUntil(lambda: log.topLevelItemCount() >= 3)
        rows = [log.topLevelItem(i) for i in range(log.topLevelItemCount())]
        assert [r.text(1) for r in rows[:3]] == ["request", "response", "request"]
        assert "0 problem(s)" in rows[0].text(2) and rows[0].icon(1).isNull()
        assert "1 problem(s)" in rows[2].text(2) and not rows[2].icon(1).isNull()
        assert "call_A" in rows[2].toolTip(2) and "tool_call" in rows[2].toolTip(2)
        # A session that did not come through the proxy has no such tab.
        view._show(None)
        assert tabs.indexOf(log) < 0
    finally:
        view.toggle_proxy()
        view.shutdown()
    assert view.proxy_button.text() == "Record proxy…" and not view.proxy_status.isVisible()
    assert not view.recording.running


def test_another_process_recording_is_seen_by_the_poll(qtbot, store, tmp_path):
    view = _view(qtbot, store, ProxyPrompts(None))
    try:
        assert view.live.timer.isActive()  # polling while shown
        assert not view.live.poll()  # nothing new
        other = RegistryStore.open(tmp_path / "studio.sqlite3")  # like `studio proxy` elsewhere
        try:
            sessions = SessionStore.for_store(other)
            info = sessions.create_session(title="elsewhere", source="proxy")
            sessions.append_message(info.id, message_to_dict(user("hi")))
            assert view.live.poll()
            row = _row(view, info.id)
            assert row is not None and row.messages == 1
            assert view.select_session(info.id)
            broken = assistant(call("call_Z", "query_invoices", {"month": 11}))
            sessions.append_message(info.id, message_to_dict(broken))
            sessions.append_message(info.id, message_to_dict(user("next")))
        finally:
            other.close()
        assert view.live.poll()
        assert len(view.messages) == 3  # the open session re-read
        # Its counts were older than its messages: counted again off the GUI thread.
        qtbot.waitUntil(lambda: _row(view, info.id).problems == 1)
        assert info.id not in view.table_model.counting
        assert (
            json.loads(json.dumps(SessionStore.for_store(store).get_session(info.id).meta))[
                "problems_at"
            ]
            == 3
        )
        view.hide()
        assert not view.live.timer.isActive()
    finally:
        view.shutdown()


def test_record_proxy_cancelled_or_refused(qtbot, store):
    prompts = ProxyPrompts(None)
    view = _view(qtbot, store, prompts)
    try:
        assert view.toggle_proxy() is None and not view.recording.running
        prompts.settings = ProxySettings("ftp://nowhere", "openai-chat")
        assert view.toggle_proxy() is None
        assert any("Proxy not started" in a and "http(s)" in a for a in prompts.asked)
        assert view.proxy_button.text() == "Record proxy…"
    finally:
        view.shutdown()


def test_the_dialog_refuses_a_bad_upstream_in_place(qtbot):
    dialog = ProxyDialog()
    qtbot.addWidget(dialog)
    dialog.upstream.setText("not a url")
    dialog.accept()
    assert dialog.settings() is None and not dialog.error.isHidden()
    assert "http(s)" in dialog.error.text()
    dialog.kind.setCurrentIndex(1)
    dialog.upstream.setText("https://api.anthropic.com")
    dialog.port.setValue(8787)
    dialog.policy.setCurrentIndex(2)
    dialog.accept()
    assert dialog.settings() == ProxySettings(
        "https://api.anthropic.com", "anthropic-messages", 8787, "refuse"
    )


def test_a_taken_port_is_said_not_raised(qtbot, store, server):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        prompts = ProxyPrompts(ProxySettings(server.base_url, "openai-chat", port))
        view = _view(qtbot, store, prompts)
        try:
            assert view.toggle_proxy() is None and not view.recording.running
            assert any(f"127.0.0.1:{port}" in a for a in prompts.asked)
        finally:
            view.shutdown()


def test_the_open_session_follows_its_tail_stays_put_or_lands_on_a_new_problem(qtbot, store):
    view = _view(qtbot, store, ProxyPrompts(None))
    sessions = SessionStore.for_store(store)
    try:
        info = sessions.create_session(title="live", source="proxy")
        sessions.append_message(info.id, message_to_dict(user("hi")))
        view.live.poll()
        assert view.select_session(info.id)
        bar = view.viewer.replay_bar
        assert view.viewer.replay.position == 0
        sessions.append_message(info.id, message_to_dict(assistant(text="hello")))
        view.live.poll()
        assert view.viewer.replay.position == 1  # was at the end: follows the tail
        bar.jump(0)
        sessions.append_message(info.id, message_to_dict(user("invoices?")))
        view.live.poll()
        assert view.viewer.replay.position == 0  # looking back: stays put
        sessions.append_message(
            info.id, message_to_dict(assistant(call("call_Q", "query_invoices", {})))
        )
        sessions.append_message(info.id, message_to_dict(user("still there?")))
        view.live.poll()
        assert view.viewer.replay.position == 3  # the unanswered call: the new problem
        assert view.viewer.replay.current.findings
    finally:
        view.shutdown()


def test_a_live_change_rereads_only_the_changed_session_in_place(qtbot, store, tmp_path):
    sessions = SessionStore.for_store(store)
    ids = _fill(store, 300)  # counted already (in meta)
    view = _view(qtbot, store, ProxyPrompts(None))
    try:
        assert not view.table_model.counting
        assert view.select_session(ids[5])
        resets: list[int] = []
        view.table_model.modelReset.connect(lambda: resets.append(1))
        read: list[int] = []
        original = view.sessions.list_summaries

        def spy(*args, **kwargs):
            found = original(*args, **kwargs)
            read.append(len(found))
            return found

        view.sessions.list_summaries = spy  # type: ignore[method-assign]
        other = RegistryStore.open(tmp_path / "studio.sqlite3")
        try:
            SessionStore.for_store(other).append_message(
                ids[7], message_to_dict(assistant(text="hello"))
            )
        finally:
            other.close()
        assert view.live.poll()
        assert read == [1] and resets == []  # one session read, the table not reset
        assert _row(view, ids[7]).messages == PER_SESSION + 1 and ids[7] in view.table_model.live
        assert ids[7] in view.table_model.counting  # grew: counted again in the background
        qtbot.waitUntil(lambda: ids[7] not in view.table_model.counting)
        assert view.info is not None and view.info.id == ids[5]  # the selection stayed
        # A new session re-reads the list.
        sessions.create_session(title="new", source="proxy")
        assert view.live.poll()
        assert resets == [1] and read[-1] == 301
    finally:
        view.shutdown()


def test_sorting_is_the_table_models_and_filters_still_apply(qtbot, store):
    sessions = SessionStore.for_store(store)
    _fill(store, 20)
    worst = sessions.create_session(title="worst", source="proxy",
                                    meta={"problems": 9, "problems_at": 0, "calls": 0})  # fmt: skip
    view = _view(qtbot, store, ProxyPrompts(None))
    try:
        view.table.sortByColumn(PROBLEMS_COLUMN, Qt.SortOrder.DescendingOrder)
        assert view.proxy.row_at(0).id == worst.id
        assert view.table_model.rows()[0].id == worst.id  # sorted in the model, one Python sort
        view.text_filter.setText("worst")
        assert view.visible_ids() == [worst.id]
    finally:
        view.shutdown()
