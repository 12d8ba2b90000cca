"""The Release panel on a real SQLite store: channels, actions, log, simulator, guard, charts."""

from __future__ import annotations

import html
from collections.abc import Iterator, Sequence
from pathlib import Path

import httpx
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget

from registry_db import RegistryStore, VersionInfo
from registry_db.sessions import Outcome, SessionStore
from studio.release import CANARY, PUBLISH, STABLE, channel_events, choose_channel, set_canary
from studio.ui.release import CanaryRequest, ReleasePrompts, ReleaseView
from studio.ui.release.charts import period_msecs
from studio.ui.release.guard_widget import GuardResult
from tests.release.conftest import REGISTRY, publish_versions


class StubPrompts(ReleasePrompts):
    """Canned answers; records what was asked."""

    def __init__(self) -> None:
        self.canary: CanaryRequest | None = None
        self.whys: list[str] = []
        self.asked: list[str] = []
        self.errors: list[str] = []

    def set_canary(
        self, parent: QWidget, versions: Sequence[VersionInfo], version: int | None, share: int
    ) -> CanaryRequest | None:
        self.asked.append(f"set_canary {[v.number for v in versions]}")
        return self.canary

    def why(self, parent: QWidget, title: str, text: str) -> str | None:
        self.asked.append(text)
        return self.whys.pop(0) if self.whys else None

    def error(self, parent: QWidget, title: str, text: str) -> None:
        self.errors.append(text)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[RegistryStore]:
    opened = RegistryStore.open(tmp_path / "studio.sqlite3")
    publish_versions(opened, REGISTRY, 2)
    yield opened
    opened.close()


@pytest.fixture
def view(qtbot, store: RegistryStore) -> ReleaseView:  # type: ignore[no-untyped-def]
    widget = ReleaseView(store, StubPrompts(), who="ana")
    qtbot.addWidget(widget)
    with qtbot.waitSignal(widget.guard.finished, timeout=10_000):
        widget.set_registry(REGISTRY)
    yield widget
    widget.shutdown()


def cell(model, row: int, column: int) -> str:  # type: ignore[no-untyped-def]
    return model.data(model.index(row, column))


def channel_rows(view: ReleaseView) -> dict[str, tuple[str, ...]]:
    m = view.channel_model
    return {
        cell(m, r, 0): tuple(cell(m, r, c) for c in range(m.columnCount()))
        for r in range(m.rowCount())
    }


def test_set_canary_promote_rollback_update_table_and_log(qtbot, view: ReleaseView) -> None:
    prompts = view.prompts
    assert isinstance(prompts, StubPrompts)
    rows = channel_rows(view)
    assert rows[STABLE][1] == "2"  # follows the newest version while never set
    assert not view.promote_button.isEnabled()

    prompts.canary = CanaryRequest(2, 20, "new search_policy wording")
    assert view.ask_set_canary()
    rows = channel_rows(view)
    assert rows[CANARY][1:4] == ("2", "1.1.0", "20 %")
    assert len(rows[CANARY][4]) == 8
    # Newest first: the canary's "set" (stable was pinned in the same step).
    assert view.event_model.rowCount() == len(channel_events(view.store, REGISTRY)) >= 1
    assert cell(view.event_model, 0, 3) == "set"
    assert cell(view.event_model, 0, 1) == "ana"
    assert cell(view.event_model, 0, 5) == "new search_policy wording"
    assert "→ v2 @ 20 %" in cell(view.event_model, 0, 4)

    prompts.whys = ["canary healthy for a day"]
    assert view.ask_promote()
    rows = channel_rows(view)
    assert rows[STABLE][1] == "2"
    assert view.state is not None and view.state.stable_pinned
    assert rows[CANARY][1] == "—"

    prompts.whys = ["tickets broke"]
    assert view.ask_rollback(STABLE)
    assert channel_rows(view)[STABLE][1] == "1"

    events = channel_events(view.store, REGISTRY)
    actions = [(e.channel, e.action, e.who, e.why) for e in events
               if e.action not in ("pin", PUBLISH)]  # fmt: skip
    assert actions == [
        (CANARY, "set", "ana", "new search_policy wording"),
        (STABLE, "promote", "ana", "canary healthy for a day"),  # stable takes v2
        (CANARY, "promote", "ana", "canary healthy for a day"),  # canary cleared
        (STABLE, "rollback", "ana", "tickets broke"),
    ]
    assert all(e.who == "ana" and e.why for e in events if e.action != PUBLISH)
    assert view.event_model.rowCount() == len(events)
    assert cell(view.event_model, 0, 5) == "tickets broke"  # newest first


def test_event_log_shows_publishes_readably(view: ReleaseView) -> None:
    model = view.event_model
    headers = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]
    assert headers == ["When", "Who", "Channel", "Action", "Before → after", "Why", "What happened"]
    # The fixture's two publishes, newest first; a publish belongs to no channel.
    rows = [tuple(cell(model, r, c) for c in range(1, 6)) for r in range(model.rowCount())]
    assert [r[1:] for r in rows] == [
        ("—", "publish", "v1 (1.0.0) → v2 (1.1.0)", "release 2"),
        ("—", "publish", "none → v1 (1.0.0)", "release 1"),
    ]

    view.store.publish(REGISTRY, notes="clarified dates", semver="2.0.0", author="bo")
    set_canary(view.store, REGISTRY, version=3, share=5, who="ana", why="try")
    view.store.publish(REGISTRY, author="bo")  # no notes, no semver
    view.refresh()
    top = [tuple(cell(model, r, c) for c in range(1, 6)) for r in range(4)]
    assert top == [
        ("bo", "—", "publish", "v3 (2.0.0) → v4", ""),
        ("ana", "canary", "set", "unset → v3 @ 5 %", "try"),
        ("ana", "stable", "pin", "unset → v2 @ 100 %", "stable pinned when canary was first set"),
        ("bo", "—", "publish", "v2 (1.1.0) → v3 (2.0.0)", "clarified dates"),
    ]
    assert model.rowCount() == len(channel_events(view.store, REGISTRY)) == 6


def test_cancelled_why_writes_nothing(view: ReleaseView) -> None:
    set_canary(view.store, REGISTRY, version=2, share=10, who="bob", why="start")
    view.refresh()
    before = len(channel_events(view.store, REGISTRY))
    assert not view.ask_promote()  # the stub answers None
    assert len(channel_events(view.store, REGISTRY)) == before


def test_refused_action_reports_error(view: ReleaseView) -> None:
    view.prompts.whys = ["nothing to roll back to"]  # type: ignore[attr-defined]
    assert not view.ask_rollback(STABLE)
    assert view.prompts.errors  # type: ignore[attr-defined]


def test_simulator_matches_choose_channel_and_growth_only_adds(qtbot, view: ReleaseView) -> None:
    set_canary(view.store, REGISTRY, version=2, share=20, who="ana", why="try")
    view.refresh()
    sim = view.simulator
    ids = [f"user-{i}" for i in range(300)]
    sim.set_subjects(", ".join(ids[:150]) + "\n" + "\n".join(ids[150:]))
    with qtbot.waitSignal(sim.simulated, timeout=2000):
        pass  # debounced recomputation
    channels = view.display_channels()
    got = {a.subject: a.channel for a in sim.model.rows()}
    assert list(got) == ids
    assert got == {s: choose_channel(channels, s) for s in ids}
    assert sim.simulation is not None and sim.simulation.split[CANARY] == list(got.values()).count(
        CANARY
    )
    canary_at_20 = {s for s, c in got.items() if c == CANARY}
    assert 0 < len(canary_at_20) < 300

    with qtbot.waitSignal(sim.simulated, timeout=2000):
        sim.share_spin.setValue(50)
    canary_at_50 = {a.subject for a in sim.model.rows() if a.channel == CANARY}
    assert canary_at_20 < canary_at_50
    assert "subjects" in sim.split_label.text()
    # The preview wrote nothing.
    assert view.event_model.rowCount() == len(channel_events(view.store, REGISTRY))
    assert not any(e.after.get("share") == 50 for e in channel_events(view.store, REGISTRY))


def test_simulator_generate(qtbot, view: ReleaseView) -> None:
    view.simulator.count_spin.setValue(500)
    with qtbot.waitSignal(view.simulator.simulated, timeout=2000):
        view.simulator.generate()
    assert view.simulator.model.rowCount() == 500


def _outcomes(version: str, tool: str, ok: int, failed: int, at: str, *, code: str = "UPSTREAM",
              status: str = "error", latency: float = 80.0) -> list[Outcome]:  # fmt: skip
    rows = [Outcome(None, "", REGISTRY, version, tool, "ok", "", latency, at)] * ok
    return rows + [Outcome(None, "", REGISTRY, version, tool, status, code, latency, at)] * failed


def _record(store: RegistryStore, rows: list[Outcome]) -> None:
    SessionStore.for_store(store).append_batch("", (), (), rows)


def _recompute(qtbot, view: ReleaseView) -> GuardResult:  # type: ignore[no-untyped-def]
    with qtbot.waitSignal(view.guard.finished, timeout=10_000) as blocker:
        view.guard.refresh()
    return blocker.args[0]


def test_guard_recommends_rollback_with_reason(qtbot, view: ReleaseView) -> None:
    set_canary(view.store, REGISTRY, version=2, share=20, who="ana", why="try")
    view.refresh()
    _record(view.store, _outcomes("1", "search_policy", 190, 10, "2025-05-01T09:10:00.000Z"))
    _record(view.store, _outcomes("2", "search_policy", 120, 80, "2025-05-01T10:10:00.000Z",
                                  status="rejected", code="INVALID_ARGUMENTS"))  # fmt: skip
    result = _recompute(qtbot, view)
    assert result.report is not None
    assert result.report.recommendation.action == "rollback"
    assert view.guard.banner.property("recommendation") == "rollback"
    assert "Roll back" in view.guard.banner.text()
    assert html.escape(result.report.recommendation.reason) in view.guard.banner.text()
    model = view.guard.model
    tools = [cell(model, r, 0) for r in range(model.rowCount())]
    assert tools == ["(all tools)", "search_policy"]
    assert cell(model, 1, 3) == "60.0 %"
    assert cell(model, 1, 4) == "0 / 80"
    assert "INVALID_ARGUMENTS ×80" in cell(model, 1, 5)
    # Charts: one series per version.
    assert sorted(view.guard.charts.series_names()) == ["v1", "v2"]
    assert len(view.guard.charts.latency_chart.chart().series()) == 2


def test_guard_holds_with_too_few_samples(qtbot, view: ReleaseView) -> None:
    set_canary(view.store, REGISTRY, version=2, share=20, who="ana", why="try")
    view.refresh()
    _record(view.store, _outcomes("1", "search_policy", 20, 0, "2025-05-01T09:00:00.000Z"))
    _record(view.store, _outcomes("2", "search_policy", 5, 15, "2025-05-02T09:00:00.000Z"))
    result = _recompute(qtbot, view)
    assert result.report is not None and result.report.recommendation.action == "hold"
    assert "too few samples" in view.guard.banner.text()
    view.guard.min_samples.setValue(10)
    result = _recompute(qtbot, view)
    assert result.report is not None and result.report.recommendation.action == "rollback"


def test_guard_without_canary(qtbot, view: ReleaseView) -> None:
    assert view.guard.result is not None and view.guard.result.report is None
    assert "No canary" in view.guard.banner.text()


def test_models_pass_qtmodeltester(qtbot, qtmodeltester, view: ReleaseView) -> None:
    set_canary(view.store, REGISTRY, version=2, share=20, who="ana", why="try")
    view.refresh()
    _record(view.store, _outcomes("1", "t", 5, 1, "2025-05-01T09:00:00.000Z"))
    _record(view.store, _outcomes("2", "t", 5, 1, "2025-05-01T09:00:00.000Z"))
    view.simulator.set_subjects("a b c d")
    view.simulator.recompute()
    _recompute(qtbot, view)
    for model in (view.channel_model, view.event_model, view.simulator.model, view.guard.model):
        assert model.rowCount() > 0
        qtmodeltester.check(model, force_py=True)


def test_period_msecs() -> None:
    assert period_msecs("1970-01-01T01") == 3_600_000
    assert period_msecs("1970-01-02") == 86_400_000
    with pytest.raises(ValueError):
        period_msecs("yesterday")


def test_serve_toggle_shows_url(qtbot, view: ReleaseView) -> None:
    view.serve_check.setChecked(True)
    url = view.serve_label.text()
    assert url.startswith("http://127.0.0.1:")
    r = httpx.get(f"{url}/v1/registries/{REGISTRY}/resolve", params={"subject": "u1"})
    assert r.status_code == 200 and r.json()["version"] == 2
    view.serve_check.setChecked(False)
    assert view.server is None and view.serve_label.text() == ""


@pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")  # offscreen QPA
def test_main_window_release_mode(qtbot, store: RegistryStore) -> None:  # type: ignore[no-untyped-def]
    from studio.ui.main_window import MainWindow

    window = MainWindow(store)
    qtbot.addWidget(window)
    window.show()
    window.release_action.trigger()
    view = window.release_view
    assert view is not None and window.modes.currentWidget() is view
    assert view.registry == REGISTRY
    assert not window.versions_dock.isVisible()
    window.playground_actions.show_editor.trigger()
    assert window.modes.currentIndex() == 0
    assert window.versions_dock.isVisible()
    window.release_action.trigger()
    assert window.modes.currentWidget() is view
    view.guard.wait()
    window.close()


def test_guard_table_shows_duplicate_writes_per_1000(qtbot, view: ReleaseView) -> None:
    set_canary(view.store, REGISTRY, version=2, share=20, who="ana", why="try")
    view.refresh()
    at = "2025-05-01T09:10:00.000Z"
    tool = "create_reimbursement_ticket"

    def writes(version: str, total: int, duplicates: int, replayed: int) -> list[Outcome]:
        rows = []
        for i in range(total):
            status = "replayed" if i < replayed else "ok"
            duplicate_of = f"first-{i}" if i < duplicates else ""
            rows.append(Outcome(None, f"c{i}", REGISTRY, version, tool, status, "", 50.0, at,
                                risk="write", duplicate_of=duplicate_of))  # fmt: skip
        return rows

    _record(view.store, writes("1", 200, 34, 0) + writes("2", 200, 34, 32))
    _recompute(qtbot, view)
    model = view.guard.model
    headers = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]
    dup, sent = headers.index("Dup. writes/1k S/C"), headers.index("Dup. sent/1k S/C")
    assert cell(model, 0, dup) == "170.0 / 170.0"
    assert cell(model, 0, sent) == "170.0 / 10.0"
