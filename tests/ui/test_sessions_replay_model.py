"""Replay as model in the Sessions mode: recorded turns play the model, the runtime the rest."""

from __future__ import annotations

import json

import pytest

from registry_db.sessions import SessionStore
from studio.sessions.library import load_messages
from studio.ui.sessions.browser import SessionsView
from studio.ui.sessions.replay_model import ReplayChoice, ReplayModelDialog, replay_options
from tests.providers.scripted_server import ScriptedServer, Turn
from tests.ui.playground_helpers import KEY_ENV, add_profile, until
from tests.ui.sessions_helpers import StubPrompts, make_store, playground_session

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
REGISTRY = "travel-reimbursement"


class ReplayPrompts(StubPrompts):
    """Answers the replay question with a preset choice and keeps the options it was shown."""

    def __init__(self) -> None:
        super().__init__()
        self.choice: ReplayChoice | None = None
        self.options = None

    def choose_replay(self, parent, options):
        self.asked.append("replay")
        self.options = options
        return self.choice


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.setenv(KEY_ENV, "sk-test")
    store = make_store(tmp_path / "studio.sqlite3")
    yield store
    store.close()


@pytest.fixture
def recorded(store):
    return playground_session(store)


@pytest.fixture
def view(qtbot, store, recorded):
    view = SessionsView(store, ReplayPrompts())
    qtbot.addWidget(view)
    view.resize(1280, 800)
    view.show()
    yield view
    view.shutdown()


def replay(loop, view) -> None:
    async def go():
        assert view.replay_as_model()
        assert view.replayer.busy and view.viewer.stop_replay_button.isEnabled()
        assert not view.viewer.replay_model_button.isEnabled()
        await until(lambda: not view.replayer.busy and view.replayer.outcome is not None)

    loop.run_until_complete(go())


def tool_results(messages):
    return [p for m in messages for p in m.parts if p.kind == "tool_result"]


def test_replay_runs_the_recorded_calls_through_the_current_runtime(loop, view, recorded):
    assert view.select_session(recorded)
    assert view.viewer.replay_model_button.isEnabled()
    view.prompts.choice = ReplayChoice(REGISTRY, "draft")
    replay(loop, view)

    assert view.prompts.asked == ["replay"]
    options = view.prompts.options
    assert options.registry == REGISTRY and options.version == "draft"
    assert options.registries[REGISTRY][0] == "draft"
    outcome = view.replayer.outcome
    assert outcome.status == "completed", outcome.message
    new_id = outcome.session_id
    assert new_id and new_id != recorded
    # The new session is in the list and selected.
    assert view.info is not None and view.info.id == new_id
    assert new_id in view.visible_ids()
    sessions = SessionStore.for_store(view.store)
    info = sessions.get_session(new_id)
    assert info.source == "replay" and info.registry == REGISTRY and info.version == "draft"
    messages = load_messages(sessions, new_id)
    assert [m.role.value for m in messages] == ["user", "assistant", "tool", "assistant"]
    assert messages[1].tool_calls[0].name == "query_invoices"
    # The mock executor answered, not the recording ([{"id": "INV-102"}]).
    (result,) = tool_results(messages)
    body = json.dumps(result.content) if not isinstance(result.content, str) else result.content
    assert "Hangzhou Taxi Co." in body
    assert messages[-1].text == "One invoice: INV-102."
    types = [e.type for e in sessions.events(new_id)]
    assert "tool_call.prepared" in types and "run.completed" in types
    assert "Replay completed" in view.viewer.replay_status.text()
    assert view.viewer.replay_model_button.isEnabled()
    assert not view.viewer.stop_replay_button.isEnabled()


def test_fork_at_the_current_step_continues_with_a_live_profile(loop, view, recorded):
    with ScriptedServer([Turn(text="Live: INV-102 is over the taxi limit.")]) as server:
        add_profile(view.store, server.base_url)
        assert view.select_session(recorded)
        view.viewer.replay_bar.jump(2)  # after the recorded tool result
        view.prompts.choice = None
        assert not view.replay_as_model()  # cancelled: nothing runs
        assert view.prompts.options.step == 2 and view.prompts.options.profiles == ["scripted"]
        view.prompts.choice = ReplayChoice(REGISTRY, "draft", fork_step=2, profile="scripted")
        replay(loop, view)
        assert len(server.requests) == 1

    outcome = view.replayer.outcome
    assert outcome.status == "completed", outcome.message
    assert view.replayer.model.live_turns == 1 and view.replayer.model.played == 1
    sessions = SessionStore.for_store(view.store)
    messages = load_messages(sessions, outcome.session_id)
    assert messages[1].tool_calls[0].name == "query_invoices"  # replayed
    assert "Hangzhou Taxi Co." in json.dumps([str(r.content) for r in tool_results(messages)])
    assert messages[-1].text == "Live: INV-102 is over the taxi limit."  # the live answer
    assert sessions.get_session(outcome.session_id).source == "replay"
    assert view.info.id == outcome.session_id


def test_stop_cancels_the_replay(loop, view, recorded):
    with ScriptedServer([Turn(text="too late", delay=5.0)]) as server:
        add_profile(view.store, server.base_url)
        view.select_session(recorded)
        view.prompts.choice = ReplayChoice(REGISTRY, "draft", fork_step=0, profile="scripted")

        async def go():
            assert view.replay_as_model()
            await until(lambda: len(server.requests) == 1)
            view.viewer.stop_replay_button.click()
            await until(lambda: not view.replayer.busy and view.replayer.outcome is not None)

        loop.run_until_complete(go())
    assert view.replayer.outcome.status == "cancelled"
    assert "cancelled" in view.viewer.replay_status.text()
    assert view.viewer.replay_model_button.isEnabled()


def test_dialog_offers_versions_and_a_fork_with_a_profile(qtbot, store, recorded):
    add_profile(store, "http://127.0.0.1:9")
    options = replay_options(store, step=3, registry=REGISTRY, version="draft")
    dialog = ReplayModelDialog(options)
    qtbot.addWidget(dialog)
    assert dialog.registry_combo.currentText() == REGISTRY
    assert dialog.version_combo.itemText(0) == "draft"
    assert dialog.choice() == ReplayChoice(REGISTRY, "draft")
    assert not dialog.profile_combo.isEnabled()
    dialog.fork_check.setChecked(True)
    assert dialog.profile_combo.isEnabled()
    assert dialog.choice() == ReplayChoice(REGISTRY, "draft", 3, "scripted")
    assert "step 4" in dialog.fork_check.text()
