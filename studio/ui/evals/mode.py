"""The Evals mode in the main window: its action (Ctrl+6), mode-bar button and toolbar.

The window keeps its own five modes in :attr:`MainWindow.mode_actions`; the
Evals mode is added beside Release here, so the window needs only a few hook
lines (build, show, refresh, retranslate, shut down). The page itself
(:class:`~studio.ui.evals.evals_view.EvalsView`) is imported and built the
first time the mode is shown: start-up pays nothing for it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QT_TRANSLATE_NOOP
from PySide6.QtGui import QAction, QIcon, QKeySequence
from PySide6.QtWidgets import QStyle, QToolButton

from studio.ui.mode_toolbars import set_mode_texts

if TYPE_CHECKING:
    from studio.ui.evals.evals_view import EvalsView

MODE = "evals"
_TEXT = str(QT_TRANSLATE_NOOP("Actions", "E&vals"))
_TIP = str(
    QT_TRANSLATE_NOOP(
        "Actions", "Eval sets, A vs B runs and reports: does a version make models choose better?"
    )
)


def retranslate_evals_action(action: QAction) -> None:
    """The mode action's text and tooltip in the current language."""
    set_mode_texts(action, _TEXT, _TIP)


def install_evals_mode(window: Any) -> QAction:
    """Add the Evals mode after Release: action group, View menu, mode bar, a toolbar.

    Call once the window built its mode bar and mode toolbars.
    """
    action = QAction(window)
    action.setObjectName("show_evals")
    action.setShortcuts([QKeySequence("Ctrl+6")])
    action.setCheckable(True)
    action.setIcon(QIcon(window.style().standardIcon(QStyle.StandardPixmap.SP_DialogApplyButton)))
    retranslate_evals_action(action)
    group = window.release_action.actionGroup()
    if group is not None:
        group.addAction(action)
    menu_actions = window.view_menu.actions()
    after = menu_actions.index(window.release_action) + 1
    window.view_menu.insertAction(
        menu_actions[after] if after < len(menu_actions) else None, action
    )
    bar = window.mode_bar
    bar.addAction(action)
    bar.mode_actions.append(action)
    button = bar.widgetForAction(action)
    if isinstance(button, QToolButton):
        button.setObjectName("modeButton_show_evals")
        button.setAutoRaise(True)
    bar.retranslate()
    window.mode_toolbars[MODE] = window._mode_toolbar("evalsToolbar")
    action.toggled.connect(lambda on: on and show_evals(window))
    return action


def show_evals(window: Any) -> EvalsView:
    """Show the Evals mode (built on first use) for the editor's registry."""
    if window.evals_view is None:
        from studio.ui.evals.evals_view import EvalsView

        window.evals_view = EvalsView(window.store)
        window.modes.addWidget(window.evals_view)
    doc = window.current_document()
    window.evals_view.set_registry(doc.name if doc else None)
    window._switch_mode(window.evals_view)
    window.evals_action.setChecked(True)
    return window.evals_view


def drop_evals(window: Any) -> None:
    """Forget the page on a language switch (rebuilt on next show) unless a run is going."""
    view = window.evals_view
    if view is not None and not view.controller.busy:
        window._drop_mode_widget(view)
        window.evals_view = None
