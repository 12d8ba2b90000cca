"""The studio in Simplified Chinese: every mode and the registry/session dialogs show no English.

The window and the dialogs are built offscreen with the zh_CN catalogue
installed; every text a user can see (labels, buttons, actions, group and tab
titles, table headers, combo items, placeholders, tooltips, window titles) is
gathered, and any English word that is not on the short allow-list below
(product names, formats, units, rule ids, identifiers) fails the test with
the widget it was found in.

The registry is written in Chinese with identifier tool names, as the studio's
users write theirs: what remains English is the studio's, not the data's.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from html import unescape
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QComboBox,
    QDockWidget,
    QGroupBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QTabWidget,
    QTextEdit,
    QWidget,
)

from registry_db import RegistryStore, UpsertTool
from registry_db.sessions import SessionStore
from studio.contract import (
    DEFAULT_DESCRIPTION_TEMPLATE,
    DEFAULT_VERBS,
    RiskTier,
    ToolContract,
)
from studio.formats import Note
from studio.sessions.importers.base import ImportedSession
from studio.sessions.library import save_imported
from studio.sessions.model import Message, Role, TextPart
from studio.ui import i18n
from studio.ui.dialogs.export_dialog import ExportContext, ExportDialog
from studio.ui.dialogs.import_dialog import ImportDialog
from studio.ui.dialogs.mcp_import_dialog import McpCheckDialog, McpImportDialog
from studio.ui.dialogs.new_registry_dialog import NewRegistryDialog
from studio.ui.dialogs.notes_dialog import NotesDialog
from studio.ui.dialogs.publish_dialog import PublishDialog
from studio.ui.dialogs.registry_settings_dialog import (
    RegistrySettingsDialog,
    RegistrySettingsRequest,
)
from studio.ui.diff.sides import publish_baseline
from studio.ui.main_window import MainWindow, Prompts
from studio.ui.sessions.doctor_dialog import DoctorDialog
from studio.ui.sessions.import_dialog import ImportLogDialog
from studio.ui.sessions.prompts import SessionPrompts
from studio.ui.skills.panel import SkillsPanel
from studio.ui.views.versions_panel import VersionsPanel

REGISTRY = "travel-reimbursement"

# The offscreen platform's note on every shown top-level window.
pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")

# Words that stay English in a Chinese UI: product and format names, units,
# protocol words and the names of score systems. Keep it short.
ALLOWED_WORDS = {
    "mcp", "openai", "anthropic", "gemini", "claude", "codex", "swe", "agent", "json",
    "jsonl", "yaml", "yml", "markdown", "md", "openapi", "http", "https", "url", "uri",
    "api", "tdqs", "schema", "semver", "stdio", "streamable", "token", "tokens", "id",
    "ids", "ctrl", "shift", "alt", "return", "enter", "esc", "del", "tab", "pgup", "pgdn",
    "ms", "kb", "mb", "studio", "glama", "dir", "traj", "operationid", "bearer",
    "authorization", "env", "name", "key", "path", "pass", "through", "uvx", "server",
    "time", "host", "rollout", "responses", "chat", "messages", "glm", "qwen", "deepseek",
    "sdk", "ui", "cli", "stable", "canary", "p95", "qm", "ts", "ok",
}  # fmt: skip

# Texts of shell-owned widgets still English would be listed here, compared with digits
# as 0 (a fragment of a half-wrapped text is removed before checking). It is empty: keep it so.
SHELL_STILL_ENGLISH: frozenset[str] = frozenset()

_WORD = re.compile(r"[A-Za-z][A-Za-z']+")
_TAG = re.compile(r"<[^>]+>")
# Data and code in the text: identifiers, rule ids, placeholders, file names.
_CODE = re.compile(
    r"Tool Registry Studio|Claude Code|English"  # product names; "English" in the language menu
    r"|“[^”]*”|\"[^\"]*\""  # quoted: the words the linter looks for, sample values
    r"|\{[^{}]*\}"  # {env:NAME}
    r"|\b[\w.-]*[_\-./@=][\w.\-/@=]*\b"  # query_invoices, travel-reimbursement, a.json
    r"|\b[A-Z]{2,}[A-Z0-9_]*\b"  # OPENAI_API_KEY, DRIFT
    r"|\bv\d+\b"  # v2
)


def english_words(text: str) -> list[str]:
    """The English words of ``text`` that are not data, code or allowed names."""
    plain = _CODE.sub(" ", unescape(_TAG.sub(" ", text)).replace("&", ""))
    return [w for w in _WORD.findall(plain) if w.lower().strip("'") not in ALLOWED_WORDS]


def visible_texts(root: QWidget) -> Iterator[tuple[str, str]]:
    """``(where, text)`` for every text a user can see in ``root`` and its children."""
    widgets = [root, *root.findChildren(QWidget)]
    for w in widgets:
        if not w.isVisibleTo(root) and w is not root and not isinstance(w, QMenu):
            continue
        where = f"{type(w).__name__}({w.objectName() or w.accessibleName()})"
        if w.isWindow():
            yield where + ".windowTitle", w.windowTitle()
        yield where + ".toolTip", w.toolTip()
        if isinstance(w, QLabel | QAbstractButton):
            yield where, w.text()
        elif isinstance(w, QGroupBox):
            yield where, w.title()
        elif isinstance(w, QDockWidget):
            yield where, w.windowTitle()
        elif isinstance(w, QMenu):
            yield where, w.title()
        elif isinstance(w, QLineEdit | QPlainTextEdit | QTextEdit):
            yield where + ".placeholder", w.placeholderText()
        elif isinstance(w, QComboBox):
            for i in range(w.count()):
                yield f"{where}[{i}]", w.itemText(i)
        if isinstance(w, QTabWidget):
            for i in range(w.count()):
                yield f"{where}.tab[{i}]", w.tabText(i)
                yield f"{where}.tabToolTip[{i}]", w.tabToolTip(i)
        if isinstance(w, QHeaderView) and w.orientation() == Qt.Orientation.Horizontal:
            for section in range(w.count()):
                if not w.isSectionHidden(section):
                    yield (
                        f"{where}.header[{section}]",
                        str(w.model().headerData(section, Qt.Orientation.Horizontal) or ""),
                    )
        for action in QWidget.actions(w):
            yield f"{where}.action", action.text()
            yield f"{where}.action.toolTip", action.toolTip()


def _without_shell_english(text: str) -> str:
    """``text`` (digits as 0) without the shell's still-English texts and fragments."""
    text = re.sub(r"\d", "0", text)
    for fragment in sorted(SHELL_STILL_ENGLISH, key=len, reverse=True):
        text = text.replace(fragment, " ")
    return text


def english_in(root: QWidget) -> list[str]:
    """One line per text of ``root`` that shows English (outside the allow-list)."""
    found = []
    for where, text in visible_texts(root):
        if not text:
            continue
        words = english_words(_without_shell_english(text))
        if words:
            found.append(f"{where}: {text[:120]!r} -> {words[:5]}")
    return sorted(set(found))


# ---------------------------------------------------------------- fixtures


@pytest.fixture
def chinese(qapp: QApplication) -> Iterator[None]:
    assert i18n.apply_language(qapp, "zh_CN") == "zh_CN"
    yield
    i18n.apply_language(qapp, "en")


def _tools() -> list[ToolContract]:
    return [
        ToolContract("search_policy", title="查询差旅政策", summary="查询差旅报销政策条款。"),
        ToolContract("query_invoices", title="查询发票", summary="按员工查询发票。"),
        ToolContract(
            "create_reimbursement_ticket",
            title="提交报销单",
            summary="提交一张报销单。",
            risk=RiskTier.WRITE,
        ),
    ]


@pytest.fixture
def store(tmp_path: Path) -> Iterator[RegistryStore]:
    opened = RegistryStore.open(tmp_path / "studio.sqlite3")
    opened.create_registry(REGISTRY, title="差旅报销")
    opened.save_draft(REGISTRY, [UpsertTool(t) for t in _tools()])
    opened.publish(REGISTRY, notes="首个版本", semver="1.0.0")
    yield opened
    opened.close()


# ---------------------------------------------------------------- the tests


def test_english_words_ignores_data_code_and_product_names() -> None:
    assert english_words("从 OpenAI 导入 query_invoices（v2）：{env:NAME}") == []
    assert english_words("导出到 <b>a.json</b>") == []
    assert english_words("Export to a file") == ["Export", "to", "file"]


@pytest.fixture
def window(qtbot, chinese: None, store: RegistryStore) -> Iterator[MainWindow]:
    """The main window, deleted before the store closes and English comes back.

    (Switching the language back retranslates every live window: a window
    left for pytest-qt to close would rebuild its modes over a closed store.)
    """
    built = MainWindow(store, Prompts())
    yield built
    built.close()
    with qtbot.waitSignal(built.destroyed, timeout=5000):
        built.deleteLater()


def test_every_mode_of_the_window_is_chinese(qtbot, window: MainWindow) -> None:
    window.resize(1280, 800)
    window.show()
    window.open_registry(REGISTRY)
    problems: list[str] = []
    for mode in ("editor", "playground", "sessions", "diff", "release", "evals", "skills"):
        window.show_mode(mode)
        qtbot.wait(50)
        problems += [f"[{mode}] {line}" for line in english_in(window)]
    window.show_mode("editor")
    lint = window.lint_ops
    qtbot.waitUntil(lambda: lint.current_controller() is not None)
    qtbot.waitUntil(lambda: not lint.current_controller().busy, timeout=20_000)
    for dock in (lint.similar_dock, lint.scores_dock, window.versions_dock):
        dock.raise_()
        qtbot.wait(50)
        problems += [f"[{dock.objectName()}] {line}" for line in english_in(window)]
    for menu in window.menuBar().findChildren(QMenu):
        problems += [f"[menu] {line}" for line in english_in(menu)]
    assert not problems, "English in the Chinese UI:\n" + "\n".join(sorted(set(problems)))


def _dialogs(store: RegistryStore, tmp_path: Path) -> list[QWidget]:
    sessions = SessionStore.for_store(store)
    info = save_imported(
        sessions,
        ImportedSession(
            messages=[_text("user", "帮我查一下上个月的发票"), _text("assistant", "好的。")],
            tools=[],
            source_format="openai",
            title="发票查询",
        ),
        file="log.jsonl",
    )
    draft = store.draft_registry(REGISTRY)
    return [
        NewRegistryDialog([REGISTRY]),
        ImportDialog([REGISTRY]),
        ExportDialog(ExportContext(REGISTRY, [1], None, draft_dirty=True)),
        McpImportDialog([REGISTRY]),
        McpCheckDialog(REGISTRY, ["v1"]),
        NotesDialog("导出完成", "已导出。", [Note("tools[0]", "x-aliases 丢失", "lost")]),
        PublishDialog(
            REGISTRY, 3, lambda request: None, baseline=publish_baseline(store, REGISTRY, draft)
        ),  # type: ignore[arg-type, return-value]
        RegistrySettingsDialog(
            REGISTRY,
            RegistrySettingsRequest(
                "差旅报销", "报销工具", DEFAULT_VERBS, DEFAULT_DESCRIPTION_TEMPLATE
            ),
            draft.tools[0],
        ),
        ImportLogDialog(store, SessionPrompts()),
        DoctorDialog("repair", [], info, sessions, SessionPrompts()),
        DoctorDialog("trim", [], info, sessions, SessionPrompts()),
        SkillsPanel(store, REGISTRY),
    ]


def _text(role: str, text: str) -> Message:
    return Message(Role(role), (TextPart(text),))


def test_the_dialogs_are_chinese(qtbot, chinese, store: RegistryStore, tmp_path: Path) -> None:
    problems: list[str] = []
    for dialog in _dialogs(store, tmp_path):
        qtbot.addWidget(dialog)
        dialog.show()
        problems += [f"[{type(dialog).__name__}] {line}" for line in english_in(dialog)]
        dialog.close()
    assert not problems, "English in the Chinese dialogs:\n" + "\n".join(problems)


def test_switching_back_to_english_restores_the_source_texts(qtbot, chinese: None, qapp) -> None:
    chinese_title = NewRegistryDialog([]).windowTitle()
    assert i18n.apply_language(qapp, "en") == "en"
    assert chinese_title == "新建注册表"
    assert NewRegistryDialog([]).windowTitle() == "New registry"


def test_the_lint_docks_follow_a_language_switch(qtbot, window: MainWindow, qapp) -> None:
    window.open_registry(REGISTRY)
    lint = window.lint_ops
    qtbot.waitUntil(lambda: lint.current_controller() is not None)
    assert lint.problems_dock.windowTitle() == "问题"
    i18n.apply_language(qapp, "en")
    qtbot.waitUntil(lambda: lint.problems_dock.windowTitle() == "Problems")
    assert lint.similar_dock.windowTitle() == "Similar tools"
    assert lint.problems_panel.filter_edit.placeholderText() == "Filter problems"
    i18n.apply_language(qapp, "zh_CN")
    qtbot.waitUntil(lambda: lint.problems_dock.windowTitle() == "问题")
    assert lint.problems_panel.filter_edit.placeholderText() == "筛选问题"


def test_the_versions_panel_follows_a_language_switch(qtbot, window: MainWindow, qapp) -> None:
    window.open_registry(REGISTRY)
    panel = window.findChild(VersionsPanel)
    assert panel is not None
    assert panel.open_button.text() == "只读打开"
    assert "1 个已发布版本" in panel.heading.text()
    i18n.apply_language(qapp, "en")
    qtbot.waitUntil(lambda: panel.open_button.text() == "Open read-only")
    assert panel.heading.text() == f"1 published version(s) of {REGISTRY}"
    assert panel.tree.headerItem().text(1) == "Semver"
