"""No Python ``None`` and no double spaces anywhere the user reads, in every mode.

"in None / out None tokens" and "call_1  search_policy" came from f-strings
over optional values; this walk reads every visible label, button, tab,
header, placeholder and table cell of each mode and fails on either.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QGroupBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QTabBar,
    QWidget,
)

from registry_db import RegistryStore
from registry_db.sessions import SessionStore
from studio.sessions.importers import import_sessions
from studio.sessions.library import save_imported
from studio.ui.main_window import MainWindow
from tests.ui.registry_helpers import ScriptedPrompts
from tests.ui.test_shell_sizes import MODES, prepare

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
BAD = re.compile(r"\bNone\b|\S  +\S")
CONVERSATION = [
    {"role": "user", "content": "How much can I claim for a taxi?"},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "call_1",
                "type": "function",
                "function": {"name": "search_policy", "arguments": '{"query": "taxi"}'},
            },
            {
                "id": "call_2",
                "type": "function",
                "function": {"name": "query_invoices", "arguments": "{}"},
            },
        ],
    },
    {"role": "tool", "tool_call_id": "call_1", "content": '{"limit": 80}'},
]


@pytest.fixture
def store(tmp_path: Path) -> Iterator[RegistryStore]:
    opened = prepare(tmp_path / "studio.sqlite3")
    outcome = import_sessions(json.dumps({"messages": CONVERSATION}), "auto")
    sessions = SessionStore.for_store(opened)
    for imported in outcome.sessions:
        save_imported(sessions, imported, file="taxi.json", registry="travel-reimbursement")
    yield opened
    opened.close()


def visible_texts(root: QWidget) -> list[tuple[str, str]]:
    """(where, text) of everything readable under ``root`` that is shown."""
    out: list[tuple[str, str]] = []
    for widget in root.findChildren(QWidget):
        if not widget.isVisibleTo(root) or not widget.isVisible():
            continue
        name = type(widget).__name__
        if isinstance(widget, QLabel | QAbstractButton):
            out.append((name, widget.text()))
        elif isinstance(widget, QGroupBox):
            out.append((name, widget.title()))
        elif isinstance(widget, QLineEdit | QPlainTextEdit):
            out.append((f"{name} placeholder", widget.placeholderText()))
        elif isinstance(widget, QTabBar):
            out.extend((name, widget.tabText(i)) for i in range(widget.count()))
        if isinstance(widget, QAbstractItemView) and widget.model() is not None:
            model = widget.model()
            try:
                columns = model.columnCount(QModelIndex())
            except TypeError:  # a list model whose columnCount is private
                columns = 1
            for column in range(columns):
                header = model.headerData(column, Qt.Orientation.Horizontal)
                out.append((f"{name} header", str(header or "")))
            for row in range(min(model.rowCount(QModelIndex()), 50)):
                for column in range(columns):
                    value = model.index(row, column).data()
                    if isinstance(value, str):
                        out.append((f"{name} cell", value))
    return out


def test_no_none_and_no_double_spaces_in_any_mode(qtbot, store) -> None:
    window = MainWindow(store, ScriptedPrompts())
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    problems: list[str] = []
    modes = [a.objectName().removeprefix("show_") for a in window.mode_bar.mode_actions]
    assert set(MODES) <= set(modes)
    for mode in modes:
        window.show_mode(mode)
        if mode == "sessions":
            table = window.sessions_view.table
            qtbot.waitUntil(lambda t=table: t.model().rowCount() > 0)
            table.selectRow(0)
            window.sessions_view.viewer.replay_bar.jump(1)  # pending calls listed
        qtbot.wait(50)
        texts = visible_texts(window)
        texts.append(("window title", window.windowTitle()))
        for where, text in texts:
            # Message bodies and JSON are user data, not the UI's words.
            if where.startswith(("QPlainTextEdit", "QTextBrowser")) or text.lstrip()[:1] in "{[":
                continue
            if BAD.search(text):
                problems.append(f"{mode}: {where}: {text!r}")
    window.close()  # its closeEvent stops every mode's workers
    assert not problems, "\n".join(problems)
