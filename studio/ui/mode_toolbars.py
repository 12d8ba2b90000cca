"""The toolbars of the Sessions, Diff and Release modes: each mode's own actions.

A mode's view is built the first time the mode is shown, and built again when
the language changes, so a toolbar cannot hold the view's widgets. Its
``QAction`` objects belong to the window and are *bound* to whichever view is
shown (:meth:`ViewToolbars.follow`, called when the mode changes). An action
does exactly what the view's control does, because it goes through it: it
clicks the view's button (or calls the view's slot), and it is enabled exactly
when that button is, which an event filter on the buttons keeps true as the
view changes them. Before a view exists, or while it has nothing to act on
(Release before the first publish), the actions are disabled and their
tooltips say why.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import shiboken6
from PySide6.QtCore import QCoreApplication, QEvent, QObject, QSize, Qt
from PySide6.QtGui import QAction, QIcon, QKeySequence
from PySide6.QtWidgets import (
    QAbstractButton,
    QMenu,
    QStyle,
    QToolBar,
    QToolButton,
    QWidget,
)

CONTEXT = "ModeToolbars"
"""The translation context of every text here (stable: the .ts keys on it)."""

Pixmap = QStyle.StandardPixmap
View = Any  # SessionsView, DiffView or ReleaseView: imported only when shown


def _tr(text: str) -> str:
    return QCoreApplication.translate(CONTEXT, text)


@dataclass(frozen=True)
class Command:
    """One toolbar action, described once and bound to whichever view is shown.

    Args:
        name: The action's object name (tests and the shortcut list find it by it).
        icon: A standard icon of the current style.
        text: The label (a ``QT_TRANSLATE_NOOP`` source in :data:`CONTEXT`).
        tip: What it does (idem).
        button: The view's button it stands for: triggering clicks it, and the
            action is enabled (and checked) when the button is.
        slot: Without a button: what triggering calls on the view.
        enabled: Without a button: whether the view can do it now.
        why: The tooltip while disabled: what is missing (idem).
        shortcut: A key sequence, only where no other action or button uses it.
        low_priority: Icon only beside text labels (steps of a replay, say).
        hidden_when_off: Shown only while it can be done (the first Publish).
        children: A menu of commands instead of one (the parent does nothing itself).
        menu: The view's own menu, shown as this action's menu (the button, if
            given, only says whether it is enabled).
    """

    name: str
    icon: QStyle.StandardPixmap
    text: str
    tip: str
    button: Callable[[View], QAbstractButton] | None = None
    slot: Callable[[View], object] | None = None
    enabled: Callable[[View], bool] | None = None
    why: str = ""
    shortcut: str = ""
    low_priority: bool = False
    hidden_when_off: bool = False
    children: tuple[Command, ...] = ()
    menu: Callable[[View], QMenu] | None = None


@dataclass(frozen=True)
class ModeSpec:
    """The commands of one mode and how to find (and watch) its view.

    Args:
        mode: The mode's name (``sessions``, ``diff``, ``release``).
        view_attr: The window attribute holding the mode's view (None before it is built).
        commands: In toolbar order; None is a separator.
        blocked: Why the whole mode has nothing to act on now ("" when it has).
        signals: The view's signals after which non-button commands may change state.
        unbuilt: Why every action is off while the mode shows no view (a NOOP source).
        hosted: Told the view once it is bound (the Sessions view hides the button
            rows the toolbar now carries).
    """

    mode: str
    view_attr: str
    commands: tuple[Command | None, ...]
    blocked: Callable[[View | None], str] = lambda _view: ""
    signals: Callable[[View], Sequence[Any]] = lambda _view: ()
    unbuilt: str = field(default="")
    hosted: Callable[[View], object] = lambda _view: None


class ModeToolbar(QObject):
    """One mode's toolbar: its actions, bound to the mode's view when it is shown."""

    def __init__(self, bar: QToolBar, spec: ModeSpec) -> None:
        super().__init__(bar)
        self.bar = bar
        self.spec = spec
        self.view: View | None = None
        self.actions: dict[str, QAction] = {}
        self._commands: dict[str, Command] = {}
        self._buttons: dict[QObject, str] = {}
        self._connections: list[tuple[Any, Callable[..., None]]] = []
        bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        bar.setIconSize(QSize(16, 16))
        style = bar.style()
        for command in spec.commands:
            if command is None:
                bar.addSeparator()
                continue
            action = self._action(command, style)
            bar.addAction(action)
            if command.children or command.menu is not None:
                menu = QMenu(bar)
                for child in command.children:
                    menu.addAction(self._action(child, style))
                if command.menu is not None:
                    menu.aboutToShow.connect(lambda m=menu, c=command: self._fill_menu(m, c))
                action.setMenu(menu)
                button = bar.widgetForAction(action)
                if isinstance(button, QToolButton):
                    button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        bar.installEventFilter(self)
        self.retranslate()

    def _action(self, command: Command, style: QStyle) -> QAction:
        action = QAction(QIcon(style.standardIcon(command.icon)), "", self.bar)
        action.setObjectName(command.name)
        if command.shortcut:
            action.setShortcut(QKeySequence(command.shortcut))
        if command.low_priority:
            action.setPriority(QAction.Priority.LowPriority)
        if not command.children and command.menu is None:
            action.triggered.connect(lambda _checked=False, n=command.name: self.trigger(n))
        self.actions[command.name] = action
        self._commands[command.name] = command
        return action

    def _fill_menu(self, menu: QMenu, command: Command) -> None:
        """The view's own menu actions (they die with the view: nothing to clean up)."""
        menu.clear()
        view = self._live_view()
        if view is not None and command.menu is not None:
            menu.addActions(command.menu(view).actions())

    # ------------------------------------------------------------------ binding

    def bind(self, view: View | None) -> None:
        """Act on ``view`` from now on (None: no view; every action disabled)."""
        if view is self.view:
            self.sync()
            return
        self._unbind()
        self.view = view
        if view is not None:
            for name, command in self._commands.items():
                if command.button is not None:
                    button = command.button(view)
                    button.installEventFilter(self)
                    self._buttons[button] = name
                    self._watch(button.clicked)
            for signal in self.spec.signals(view):
                self._watch(signal)
            view.destroyed.connect(self._on_view_destroyed)
            self.spec.hosted(view)
        self.sync()

    def _watch(self, signal: Any) -> None:
        def resync(*_args: object) -> None:
            self.sync()

        signal.connect(resync)
        self._connections.append((signal, resync))

    def _unbind(self) -> None:
        view, self.view = self.view, None
        alive = view is not None and shiboken6.isValid(view)
        for button in self._buttons:
            if alive and shiboken6.isValid(button):
                button.removeEventFilter(self)
        self._buttons.clear()
        for signal, slot in self._connections:
            if alive:
                with contextlib.suppress(RuntimeError, TypeError):  # its sender is gone
                    signal.disconnect(slot)
        self._connections.clear()
        if alive and view is not None:
            with contextlib.suppress(RuntimeError, TypeError):
                view.destroyed.disconnect(self._on_view_destroyed)

    def _on_view_destroyed(self, *_args: object) -> None:
        self._buttons.clear()
        self._connections.clear()
        self.view = None
        if shiboken6.isValid(self.bar):
            self.sync()

    def _live_view(self) -> View | None:
        view = self.view
        return view if view is not None and shiboken6.isValid(view) else None

    # ------------------------------------------------------------------ state

    def trigger(self, name: str) -> None:
        """Do what ``name`` stands for on the bound view (nothing when it cannot now)."""
        view = self._live_view()
        command = self._commands[name]
        if view is None or not self._enabled(command, view):
            return
        if command.menu is not None or command.children:
            return  # its menu pops up
        if command.button is not None:
            command.button(view).click()  # the button's own path, checks and all
        elif command.slot is not None:
            command.slot(view)
        self.sync()

    def _enabled(self, command: Command, view: View | None) -> bool:
        if view is None:
            return False
        if command.children:
            return any(self._enabled(child, view) for child in command.children)
        if command.button is not None:
            return command.button(view).isEnabled()
        return command.enabled(view) if command.enabled is not None else True

    def sync(self) -> None:
        """Enable, check and explain every action from the bound view's state."""
        view = self._live_view()
        blocked = self.spec.blocked(view) if view is not None else _tr(self.spec.unbuilt)
        for name, command in self._commands.items():
            action = self.actions[name]
            on = self._enabled(command, view)
            action.setEnabled(on)
            if command.hidden_when_off:
                action.setVisible(on)
            if command.button is not None and view is not None:
                button = command.button(view)
                action.setCheckable(button.isCheckable())
                action.setChecked(button.isCheckable() and button.isChecked())
                if command.text == "":
                    action.setText(button.text())  # a label the view changes (Stop proxy)
            tip = _with_keys(_tr(command.tip), action)
            if not on:
                why = blocked or (_tr(command.why) if command.why else "")
                tip = f"{tip}\n{why}" if why else tip
            action.setToolTip(tip)

    def retranslate(self) -> None:
        """Labels and tooltips in the current language."""
        for name, command in self._commands.items():
            if command.text:
                self.actions[name].setText(_tr(command.text))
            self.actions[name].setStatusTip(_tr(command.tip))
        self.sync()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if watched is self.bar and kind == QEvent.Type.LanguageChange:
            self.retranslate()
        elif watched in self._buttons and kind == QEvent.Type.EnabledChange:
            self.sync()
        return False


def _with_keys(tip: str, action: QAction) -> str:
    keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
    return f"{tip} ({keys})" if keys else tip


class ViewToolbars:
    """The Sessions, Diff and Release toolbars of a window, bound as its mode changes.

    Args:
        bars: The window's (empty) toolbar per mode.
        window: The main window (its ``sessions_view``… attributes are read).
        specs: The modes' commands (default: :func:`default_specs`).
    """

    def __init__(
        self, bars: dict[str, QToolBar], window: QWidget, specs: Sequence[ModeSpec] | None = None
    ) -> None:
        self.window = window
        self.toolbars = {
            spec.mode: ModeToolbar(bars[spec.mode], spec) for spec in specs or default_specs()
        }

    def follow(self, mode: str, shown: QWidget | None) -> None:
        """The window shows ``shown`` in ``mode``: bind that mode's toolbar to its view."""
        toolbar = self.toolbars.get(mode)
        if toolbar is None:
            return
        view = getattr(self.window, toolbar.spec.view_attr, None)
        toolbar.bind(view if view is not None and view is shown else None)

    def action(self, name: str) -> QAction:
        """The action called ``name`` in any of the toolbars."""
        for toolbar in self.toolbars.values():
            if name in toolbar.actions:
                return toolbar.actions[name]
        raise KeyError(name)


def default_specs() -> tuple[ModeSpec, ...]:
    """The three modes' commands (see :mod:`studio.ui.mode_toolbar_specs`)."""
    from studio.ui.mode_toolbar_specs import DIFF, RELEASE, SESSIONS

    return (SESSIONS, DIFF, RELEASE)


def set_mode_texts(action: QAction, text: str, tip: str) -> None:
    """A mode action's label and tooltip (``Actions`` context sources) in the current language.

    The Evals and Skills modes install their actions themselves; their texts
    are marked with ``QT_TRANSLATE_NOOP("Actions", …)`` so the catalogue has them.
    """
    action.setText(QCoreApplication.translate("Actions", text))
    translated = QCoreApplication.translate("Actions", tip)
    action.setToolTip(translated)
    action.setStatusTip(translated)
