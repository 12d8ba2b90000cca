"""The Playground exports only the tools its context's role and scenario may call (#17)."""

from __future__ import annotations

import pytest

from registry_db.sessions import SessionStore
from studio.ui.playground.sidebar import PlaygroundSidebar
from tests.providers.scripted_server import ScriptedServer
from tests.ui.playground_helpers import KEY_ENV, add_profile, make_store

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.setenv(KEY_ENV, "sk-test")
    store = make_store(tmp_path / "studio.sqlite3")
    yield store
    store.close()


def test_the_run_sends_only_the_permitted_tools(qtbot, store) -> None:
    sidebar = PlaygroundSidebar(store, SessionStore.for_store(store))
    qtbot.addWidget(sidebar)
    with ScriptedServer([]) as server:
        add_profile(store, server.base_url)
        sidebar.refresh()
        every = [t.name for t in sidebar._registry.tools]
        sidebar.role_edit.setText("finance")
        sidebar.scenario_edit.setText("reimbursement")
        config, _profile = sidebar.run_config()
        finance = [t.name for t in config.registry.tools]
        sidebar.role_edit.setText("")
        sidebar.scenario_edit.setText("")
        config, _profile = sidebar.run_config()
        unset = [t.name for t in config.registry.tools]
    assert len(every) == 5 and unset == every
    assert 0 < len(finance) < len(every)
    assert all(name in every for name in finance)
    assert config.context.role == ""
