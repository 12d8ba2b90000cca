"""View → Language: System, English, 简体中文; remembered, applied without a restart.

The translator itself is :mod:`studio.ui.i18n` (``apply_language`` installs
or removes the ``QTranslator``; Qt then sends every widget a LanguageChange
event and the window re-reads its texts). This module only offers the choice
and remembers it.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QObject, QSettings
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QApplication, QMenu

from studio.ui import i18n

_log = logging.getLogger(__name__)

SETTING = "ui/language"


def languages() -> list[tuple[str, str]]:
    """(code, name) of the languages offered, "system" first (names in their own language)."""
    return i18n.available_languages()


def saved_language() -> str:
    """The language picked last ("system" when never picked)."""
    return str(QSettings().value(SETTING, i18n.SYSTEM) or i18n.SYSTEM)


def apply_language(code: str) -> str:
    """Install the translator for ``code``; return the language applied ("en" or "zh_CN")."""
    app = QApplication.instance()
    if app is None:
        return i18n.ENGLISH
    try:
        return i18n.apply_language(app, code)
    except ValueError as exc:  # a setting edited by hand: stay in English
        _log.warning("cannot switch the language: %s", exc)
        return i18n.apply_language(app, i18n.ENGLISH)


class LanguageMenu(QMenu):
    """The Language submenu; picking an entry stores it and applies it at once."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)  # type: ignore[arg-type]
        self.setObjectName("languageMenu")
        self.group = QActionGroup(self)
        self.group.setExclusive(True)
        current = saved_language()
        for code, name in languages():
            action = QAction(name, self)
            action.setObjectName(f"language_{code}")
            action.setCheckable(True)
            action.setData(code)
            action.setChecked(code == current)
            self.group.addAction(action)
            self.addAction(action)
        self.group.triggered.connect(self._picked)
        self.retranslate()

    def retranslate(self) -> None:
        self.setTitle(self.tr("&Language"))
        for action in self.group.actions():
            if action.data() == "system":
                action.setText(self.tr("System"))

    def action_for(self, code: str) -> QAction | None:
        return next((a for a in self.group.actions() if a.data() == code), None)

    def pick(self, code: str) -> None:
        """Store ``code`` and switch to it (tests call this like a click)."""
        action = self.action_for(code)
        if action is not None:
            action.setChecked(True)
        QSettings().setValue(SETTING, code)
        apply_language(code)

    def _picked(self, action: QAction) -> None:
        self.pick(str(action.data()))
