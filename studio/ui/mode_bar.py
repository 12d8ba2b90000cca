"""The activity bar on the left: one labelled, checkable button per mode.

The modes were reachable only through View and Ctrl+1…5; a new user never
found four of them. The bar shows the same actions as the View menu (so the
check mark, shortcut and text stay one thing), each with an icon, a label
under it and a tooltip that names the shortcut.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QAction, QIcon
from PySide6.QtWidgets import QStackedWidget, QStyle, QToolBar, QToolButton, QWidget

# One standard icon per mode (by the action's object name): the studio ships no
# icon theme, and the style's pixmaps follow its palette in both themes.
_ICONS = {
    "show_editor": QStyle.StandardPixmap.SP_FileDialogDetailedView,
    "show_playground": QStyle.StandardPixmap.SP_MediaPlay,
    "show_sessions": QStyle.StandardPixmap.SP_FileDialogListView,
    "show_diff": QStyle.StandardPixmap.SP_BrowserReload,
    "show_release": QStyle.StandardPixmap.SP_ArrowUp,
}


class ModeBar(QToolBar):
    """A vertical tool bar of the mode actions, docked left and never moved away.

    Args:
        actions: The checkable mode actions, in order (Editor first).
        parent: The main window.
    """

    def __init__(self, actions: Sequence[QAction], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("modeBar")
        self.setMovable(False)
        self.setFloatable(False)
        self.setOrientation(Qt.Orientation.Vertical)
        self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextUnderIcon)
        self.setIconSize(QSize(22, 22))
        # The bar is not a window part the user may hide by accident.
        self.toggleViewAction().setVisible(False)
        self.mode_actions = list(actions)
        style = self.style()
        for action in self.mode_actions:
            pixmap = _ICONS.get(action.objectName())
            if pixmap is not None and action.icon().isNull():
                action.setIcon(QIcon(style.standardIcon(pixmap)))
            self.addAction(action)
            button = self.widgetForAction(action)
            if isinstance(button, QToolButton):
                button.setObjectName(f"modeButton_{action.objectName()}")
                button.setAutoRaise(True)
        self.retranslate()

    def retranslate(self) -> None:
        """Tooltips name the mode and its shortcut (texts come from the actions)."""
        self.setWindowTitle(self.tr("Modes"))
        for action in self.mode_actions:
            button = self.button(action)
            if button is None:
                continue
            label = _without_mnemonic(action.text())
            keys = action.shortcut().toString(action.shortcut().SequenceFormat.NativeText)
            tip = action.toolTip() if action.toolTip() != action.text() else ""
            parts = [f"{label} ({keys})" if keys else label]
            if tip:
                parts.append(tip)
            button.setToolTip("\n".join(parts))
            button.setText(label.replace("&", "&&"))  # a literal "&", not a mnemonic

    def button(self, action: QAction) -> QToolButton | None:
        """The button showing ``action`` (tests click it)."""
        widget = self.widgetForAction(action)
        return widget if isinstance(widget, QToolButton) else None


class ModeStack(QStackedWidget):
    """The centre's modes; its size hints are the shown mode's only.

    A plain QStackedWidget asks for the largest minimum of all its pages:
    once Release (388 px tall) had been opened, the Editor with its docks
    could no longer shrink below 613 px, and the window stayed that tall.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.currentChanged.connect(lambda _index: self.updateGeometry())

    def sizeHint(self) -> QSize:
        current = self.currentWidget()
        return current.sizeHint() if current is not None else super().sizeHint()

    def minimumSizeHint(self) -> QSize:
        current = self.currentWidget()
        return current.minimumSizeHint() if current is not None else super().minimumSizeHint()


def _without_mnemonic(text: str) -> str:
    """A menu text as a label: ``S&kills && agents`` → ``Skills & agents``."""
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&")
