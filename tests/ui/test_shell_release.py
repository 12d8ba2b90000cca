"""Release actions that move subjects say how many and ask; the log says it in words.

Also the Release mode of a registry that was never published.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget

from registry_db import RegistryStore, UpsertTool
from studio.contract import ToolContract
from studio.release import CANARY, STABLE, channel_events, release_state, set_canary
from studio.ui.release import ReleaseView
from studio.ui.release.impact import after_promote, describe_moves, subject_moves
from studio.ui.release.prompts import CanaryDialog, CanaryRequest, ReleasePrompts
from tests.release.conftest import REGISTRY, publish_versions

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
PINNED = "Stable follows the newest version (v2); setting a canary pins it to v1."


class AskingPrompts(ReleasePrompts):
    """Records the questions; answers from a script."""

    def __init__(self) -> None:
        self.canary: CanaryRequest | None = None
        self.whys: list[str] = []
        self.questions: list[str] = []

    def set_canary(self, parent: QWidget, versions, version, share):  # type: ignore[no-untyped-def]
        self.questions.append(parent.canary_impact(self.canary.version, self.canary.share))
        return self.canary

    def why(self, parent: QWidget, title: str, text: str) -> str | None:
        self.questions.append(text)
        return self.whys.pop(0) if self.whys else None


@pytest.fixture
def store(tmp_path: Path) -> Iterator[RegistryStore]:
    opened = RegistryStore.open(tmp_path / "studio.sqlite3")
    publish_versions(opened, REGISTRY, 2)
    opened.create_registry("unpublished")
    opened.save_draft("unpublished", [UpsertTool(ToolContract("ping", summary="Ping."))])
    yield opened
    opened.close()


@pytest.fixture
def view(qtbot, store: RegistryStore) -> Iterator[ReleaseView]:
    widget = ReleaseView(store, AskingPrompts(), who="ana")
    qtbot.addWidget(widget)
    widget.resize(1000, 640)
    widget.show()
    with qtbot.waitSignal(widget.guard.finished, timeout=10_000):
        widget.set_registry(REGISTRY)
    yield widget
    widget.shutdown()


def test_setting_a_canary_says_stable_gets_pinned_and_who_moves(view: ReleaseView) -> None:
    text = view.canary_impact(2, 10)
    assert text.startswith(PINNED)
    assert "Of 1,000 simulated subjects, " in text and "move from v2 to v1" in text
    moved = int(text.split("Of 1,000 simulated subjects, ")[1].split(" move")[0].replace(",", ""))
    assert 850 <= moved <= 950  # the 90 % the canary does not take


def test_the_canary_dialog_updates_the_count_as_the_share_changes(qtbot, view) -> None:
    versions = view.store.list_versions(REGISTRY)
    dialog = CanaryDialog(versions, None, 10, view, impact=view.canary_impact)
    qtbot.addWidget(dialog)
    first = dialog.impact_label.text()
    dialog.share_spin.setValue(50)
    assert dialog.impact_label.text() != first and "move from v2 to v1" in first


def test_promote_and_rollback_say_how_many_move_before_asking_why(view: ReleaseView) -> None:
    set_canary(view.store, REGISTRY, version=2, share=20, who="ana", why="try")
    view.refresh()
    prompts = view.prompts
    assert isinstance(prompts, AskingPrompts)
    assert not view.ask_promote()  # no answer: nothing written, but the count was said
    assert "move from v1 to v2" in prompts.questions[-1]
    assert release_state(view.store, REGISTRY).channels[0].version == 1
    assert not view.ask_rollback(CANARY)
    assert "move from v2 to v1" in prompts.questions[-1]


def test_moves_count_nothing_when_nothing_changes(view: ReleaseView) -> None:
    channels = view.display_channels()
    moves = subject_moves(channels, channels)
    assert moves.moved == 0 and moves.total == 1000
    assert describe_moves(moves).startswith("No subject changes version")
    assert after_promote(channels)[0].name == STABLE


def test_the_channel_log_says_what_happened_in_words(view: ReleaseView) -> None:
    prompts = view.prompts
    prompts.canary = CanaryRequest(2, 10, "try the new wording")
    assert view.ask_set_canary()
    model = view.event_model
    column = model.columnCount() - 1
    assert model.headerData(column, Qt.Orientation.Horizontal) == "What happened"
    words = [model.data(model.index(r, column)) for r in range(model.rowCount())]
    assert words[:2] == [
        "canary set to v2 for 10 % of subjects (was unset)",
        "stable pinned to v1 (it followed the newest version)",
    ]
    assert words[-1] == "first version v1 (1.0.0) published"
    assert len(words) == len(channel_events(view.store, REGISTRY))
    assert not any("unset →" in w or "None" in w for w in words)


def test_an_unpublished_registry_says_what_release_waits_for(qtbot, view) -> None:
    view.set_registry("unpublished")
    assert view.empty_state.isVisible() and not view.splitter.isVisible()
    assert "no published version yet" in view.empty_label.text()
    with qtbot.waitSignal(view.publishRequested, timeout=1000):
        view.empty_publish_button.click()
    view.set_registry(REGISTRY)
    assert not view.empty_state.isVisible() and view.splitter.isVisible()


def test_diff_of_an_unpublished_registry_says_what_it_waits_for(qtbot, store) -> None:
    from studio.ui.main_window import MainWindow
    from tests.ui.registry_helpers import ScriptedPrompts

    window = MainWindow(store, ScriptedPrompts())
    qtbot.addWidget(window)
    window.show()
    window.open_registry("unpublished")
    window.show_diff()
    assert window.current_mode() == "diff" and window.diff_action.isChecked()
    empty = window.diff_empty
    assert window.modes.currentWidget() is empty
    assert "unpublished has no published version" in empty.text_label.text()
    assert "draft → draft" not in empty.text_label.text()
    assert empty.button.isVisible() and empty.button.text() == "Publish the draft…"
    window.open_registry(REGISTRY)
    window.show_diff()
    assert window.modes.currentWidget() is window.diff_view
    window.diff_view.runner.wait()
    window.registry_ops.shutdown()
