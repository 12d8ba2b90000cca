"""Messages of the shell: CJK text without a CJK font, Qt's propagateSizeHints noise."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QMessageLogContext, QtMsgType

from registry_db import RegistryStore, UpsertTool
from studio.contract import ToolContract
from studio.ui.app import qt_message_filter
from studio.ui.fonts import FONT_PACKAGE, CjkFontCheck, has_cjk
from studio.ui.main_window import MainWindow
from tests.ui.registry_helpers import ScriptedPrompts

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")


@pytest.fixture
def store(tmp_path: Path) -> Iterator[RegistryStore]:
    store = RegistryStore.open(tmp_path / "studio.sqlite3")
    store.create_registry("english")
    store.save_draft("english", [UpsertTool(ToolContract("ping", summary="Ping."))])
    store.create_registry("chinese")
    tool = ToolContract("query_invoices", summary="查询员工的发票。")
    store.save_draft("chinese", [UpsertTool(tool)])
    yield store
    store.close()


def test_has_cjk_finds_chinese_and_ignores_latin() -> None:
    assert has_cjk(["Find invoices", "查询发票"])
    assert not has_cjk(["Find invoices", "café – naïve"])


def test_cjk_text_without_a_cjk_font_is_said_once(qtbot, store) -> None:
    window = MainWindow(store, ScriptedPrompts())
    qtbot.addWidget(window)
    window.cjk_check = CjkFontCheck(font_available=lambda: False)
    window.show()
    window.open_registry("english")
    assert not window.font_banner.isVisible()
    window.open_registry("chinese")
    assert window.font_banner.isVisible()
    assert FONT_PACKAGE in window.font_label.text()
    window.font_close.click()
    window.open_registry("english")
    window.open_registry("chinese")
    assert not window.font_banner.isVisible()  # once per session
    window.registry_ops.shutdown()


def test_no_warning_when_a_cjk_font_is_installed() -> None:
    check = CjkFontCheck(font_available=lambda: True)
    assert not check.needs_warning(["查询发票"])
    assert not check.warned


def test_qt_noise_is_dropped_and_other_warnings_are_logged(caplog) -> None:
    context = QMessageLogContext()
    with caplog.at_level(logging.DEBUG, logger="studio.ui.app"):
        qt_message_filter(
            QtMsgType.QtWarningMsg, context, "This plugin does not support propagateSizeHints()"
        )
        qt_message_filter(QtMsgType.QtWarningMsg, context, "QFont::setPointSize: <= 0 (0)")
    messages = [r.getMessage() for r in caplog.records]
    assert messages == ["Qt: QFont::setPointSize: <= 0 (0)"]
