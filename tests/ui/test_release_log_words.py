"""The release log's sentences are translated whole: no English left in a Chinese log."""

from __future__ import annotations

import re

import pytest
from PySide6.QtWidgets import QApplication

from registry_db.channels import PUBLISH, ChannelEvent
from studio.ui import i18n
from studio.ui.release.impact import event_words
from studio.ui.release.models import EventLogModel


def _event(channel: str, action: str, before: dict, after: dict) -> ChannelEvent:
    return ChannelEvent(1, "r", channel, action, "ann", "", before, after, "2026-12-02T00:00:00Z")


EVENTS = [
    _event("", PUBLISH, {"version": None}, {"version": 1, "semver": "1.0.0"}),
    _event("", PUBLISH, {"version": 1}, {"version": 2}),
    _event("stable", "pin", {"version": None, "share": 100}, {"version": 1, "share": 100}),
    _event("stable", "promote", {"version": None}, {"version": 2, "share": 100}),
    _event("canary", "promote", {"version": 2, "share": 10}, {"version": None, "share": 0}),
    _event("stable", "rollback", {"version": 2, "share": 100}, {"version": 1, "share": 100}),
    _event("canary", "rollback", {"version": 2, "share": 10}, {"version": 2, "share": 0}),
    _event("stable", "set", {"version": 1, "share": 100}, {"version": 2, "share": 100}),
    _event("canary", "set", {"version": None}, {"version": 3, "share": 5}),
]


@pytest.fixture
def chinese(qapp: QApplication):
    i18n.apply_language(qapp, "zh_CN")
    yield qapp
    i18n.apply_language(qapp, "en")


def test_every_log_sentence_reads_in_english(qapp: QApplication) -> None:
    words = [event_words(e) for e in EVENTS]
    assert words[0] == "first version v1 (1.0.0) published"
    assert words[3] == "stable now serves v2 (was unset)"
    assert words[8] == "canary set to v3 for 5 % of subjects (was unset)"


@pytest.mark.parametrize("event", EVENTS, ids=lambda e: f"{e.channel or 'publish'}-{e.action}")
def test_every_log_sentence_reads_in_chinese(chinese: QApplication, event: ChannelEvent) -> None:
    words = event_words(event)
    # Only names, versions and channel names stay Latin: no English word of the sentence.
    left = set(re.findall(r"[A-Za-z]{3,}", words)) - {"stable", "canary"}
    assert not left, words


def test_the_before_and_after_column_says_no_version_in_chinese(chinese: QApplication) -> None:
    model = EventLogModel()
    model.set_rows([EVENTS[0], EVENTS[8]])
    column = 4  # Before → after
    assert model.data(model.index(0, column)) == "无 → v1 (1.0.0)"
    assert model.data(model.index(1, column)) == "未设置 → v3 @ 5 %"
