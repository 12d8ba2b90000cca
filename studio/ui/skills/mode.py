"""The "Skills & agents" mode in the main window: its action (Ctrl+7), button and page.

The window keeps a few hook lines (install, show, current mode, retranslate);
everything else is here. The page is the same :class:`SkillsPanel` that
``studio skills REG --gui`` opens alone — the registry's tools, skills and
remote agents in one tree, the skill editor, delegation — imported and built
the first time the mode is shown, so start-up pays nothing for it.

Undo: while the mode is shown, the window's Edit ▸ Undo/Redo (Ctrl+Z) drive
the skill editor's stack (it joins the window's undo group and becomes the
active stack); back in the Editor, the registry's own stack is active again.
The editor's private shortcuts are cleared so Ctrl+Z is never ambiguous.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QT_TRANSLATE_NOOP
from PySide6.QtGui import QAction, QIcon, QKeySequence
from PySide6.QtWidgets import QStyle, QToolButton

from studio.ui.mode_toolbars import set_mode_texts

if TYPE_CHECKING:
    from studio.ui.skills.panel import SkillsPanel

MODE = "skills"
_TEXT = str(QT_TRANSLATE_NOOP("Actions", "S&kills && agents"))
_TIP = str(
    QT_TRANSLATE_NOOP(
        "Actions",
        "The registry's skills and remote agents beside its tools: edit, lint numbers, delegate",
    )
)


def retranslate_skills_action(action: QAction) -> None:
    """The mode action's text and tooltip in the current language."""
    set_mode_texts(action, _TEXT, _TIP)


def install_skills_mode(window: Any) -> QAction:
    """Add the mode after the last one: action group, View menu, mode bar, a toolbar."""
    window.skills_panel = None
    action = QAction(window)
    action.setObjectName("show_skills")
    action.setShortcuts([QKeySequence("Ctrl+7")])
    action.setCheckable(True)
    action.setIcon(QIcon(window.style().standardIcon(QStyle.StandardPixmap.SP_DirIcon)))
    retranslate_skills_action(action)
    group = window.release_action.actionGroup()
    if group is not None:
        group.addAction(action)
    window.view_menu.addAction(action)
    bar = window.mode_bar
    bar.addAction(action)
    bar.mode_actions.append(action)
    button = bar.widgetForAction(action)
    if isinstance(button, QToolButton):
        button.setObjectName("modeButton_show_skills")
        button.setAutoRaise(True)
    bar.retranslate()
    bar = window._mode_toolbar("skillsToolbar")
    bar.addActions([window.actions.undo, window.actions.redo])  # the skill's stack while shown
    window.mode_toolbars[MODE] = bar
    action.toggled.connect(lambda on: on and show_skills(window))
    window.modes.currentChanged.connect(lambda _i: _follow_undo(window))
    window.registry_combo.currentIndexChanged.connect(lambda _i: _follow_registry(window))
    return action


def show_skills(window: Any) -> SkillsPanel | None:
    """Show the mode (built on first use, rebuilt for another registry); None without one."""
    doc = window.current_document()
    name = doc.name if doc is not None else None
    panel = window.skills_panel
    if panel is not None and panel.registry_name != name:
        drop_skills(window)
        panel = None
    if panel is None and name is not None:
        panel = _build(window, name)
    if panel is None:
        window.skills_action.setChecked(False)
        return None
    window._switch_mode(panel)
    window.skills_action.setChecked(True)
    return panel


def _build(window: Any, name: str) -> SkillsPanel:
    from studio.ui.skills.panel import SkillsPanel

    panel = SkillsPanel(window.store, name)
    panel.setObjectName("skillsMode")
    editor = panel.editor
    for own in (editor.undo_action, editor.redo_action):
        own.setShortcuts([])  # the window's Undo/Redo drive this stack while shown
    editor.toolbar.hide()  # its Undo/Redo are the window's (Edit menu, the mode's toolbar)
    window.undo_group.addStack(editor.undo_stack)
    panel.saved.connect(lambda _name: window.refresh_registries())
    window.skills_panel = panel
    window.modes.addWidget(panel)
    return panel


def _follow_undo(window: Any) -> None:
    """The skill editor's stack is the active one exactly while the mode is shown."""
    panel = window.skills_panel
    if panel is None:
        return
    stack = panel.editor.undo_stack
    if window.modes.currentWidget() is panel:
        window.undo_group.setActiveStack(stack)
    elif window.undo_group.activeStack() is stack:
        doc = window.current_document()
        window.undo_group.setActiveStack(doc.undo_stack if doc is not None else None)


def _follow_registry(window: Any) -> None:
    if window.skills_panel is not None and window.modes.currentWidget() is window.skills_panel:
        show_skills(window)


def drop_skills(window: Any) -> None:
    """Forget the page (a language switch or another registry); rebuilt on next show."""
    panel = window.skills_panel
    if panel is None:
        return
    window.skills_panel = None
    window.undo_group.removeStack(panel.editor.undo_stack)
    window._drop_mode_widget(panel)
    panel.deleteLater()
