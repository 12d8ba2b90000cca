"""Editor/Playground switch in the main window; profiles test their connection."""

from __future__ import annotations

import pytest

from registry_db.sessions import SessionStore
from studio.ui.main_window import MainWindow
from studio.ui.playground.run_controller import RunController
from studio.ui.playground.sidebar import PlaygroundSidebar
from tests.providers.scripted_server import ScriptedServer
from tests.ui.playground_helpers import KEY_ENV, add_profile, make_store, until

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.setenv(KEY_ENV, "sk-test")
    store = make_store(tmp_path / "studio.sqlite3")
    yield store
    store.close()


def test_switching_to_the_playground_and_back_keeps_the_editor(qtbot, store):
    window = MainWindow(store)
    qtbot.addWidget(window)
    window.show()
    assert window.playground is None
    window.playground_actions.show_playground.trigger()
    assert window.playground is not None and window.modes.currentWidget() is window.playground
    assert not window.versions_dock.isVisible()
    assert window.playground.sidebar.registry_combo.currentText() == "travel-reimbursement"
    window.playground_actions.show_editor.trigger()
    assert window.modes.currentIndex() == 0 and window.versions_dock.isVisible()


def test_add_profile_and_test_the_connection_against_the_scripted_server(loop, qtbot, store):
    sidebar = PlaygroundSidebar(store, SessionStore.for_store(store))
    qtbot.addWidget(sidebar)
    with ScriptedServer(api_key="sk-test") as server:
        dialog = sidebar.open_profile_dialog(None)
        dialog.name_edit.setText("local")
        dialog.base_url_edit.setText(server.base_url + "/v1")
        dialog.model_edit.setText("scripted-model")
        dialog.key_env_edit.setText(KEY_ENV)
        dialog._accept()
        assert sidebar.profile_combo.currentText() == "local"

        async def go():
            sidebar.start_test_connection()
            assert not sidebar.test_button.isEnabled()
            await until(lambda: sidebar.test_button.isEnabled())

        loop.run_until_complete(go())
        assert sidebar.connection_label.text().startswith("✓ connected in")
        assert "scripted-model" in sidebar.connection_label.text()
        # A wrong key: the provider's own error is shown.
        dialog = sidebar.open_profile_dialog(sidebar.current_profile())
        dialog.key_env_edit.setText("PLAYGROUND_MISSING_KEY")
        dialog._accept()
        loop.run_until_complete(go())
        assert sidebar.connection_label.text().startswith("✗")
        assert "401" in sidebar.connection_label.text() or "auth" in sidebar.connection_label.text()


def test_executors_of_a_registry_removed_meanwhile_are_a_message_not_a_traceback(qtbot, store):
    sidebar = PlaygroundSidebar(store, SessionStore.for_store(store))
    qtbot.addWidget(sidebar)
    assert sidebar.registry_combo.currentText() == "travel-reimbursement"
    store.delete_registry("travel-reimbursement")  # e.g. by the CLI, while the sidebar shows it
    sidebar.reload_executors()
    assert "Executors not loaded" in sidebar.connection_label.text()


def test_run_again_without_a_session_opens_no_client(loop, qtbot, store):
    made = []
    controller = RunController(
        SessionStore.for_store(store), client_factory=lambda profile: made.append(profile)
    )
    sidebar = PlaygroundSidebar(store, SessionStore.for_store(store))
    qtbot.addWidget(sidebar)
    with ScriptedServer([]) as server:
        add_profile(store, server.base_url)
        sidebar.refresh()
        config, profile = sidebar.run_config()
    with pytest.raises(RuntimeError, match="no session to run again from"):
        controller.start(config, profile, None, from_message=2)
    assert made == []  # refused before a model client (a connection pool) was made
