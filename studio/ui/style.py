"""The application style: Fusion, with check boxes that stay visible on dark palettes."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QPainter, QPalette, QPen
from PySide6.QtWidgets import QProxyStyle, QStyle, QStyleFactory, QStyleOption, QWidget

_CHECK_INDICATORS = (
    QStyle.PrimitiveElement.PE_IndicatorCheckBox,
    QStyle.PrimitiveElement.PE_IndicatorItemViewItemCheck,
)


class StudioStyle(QProxyStyle):
    """Fusion, plus a visible outline around check indicators on dark palettes.

    Fusion outlines an indicator with the window colour darkened by 40 %,
    which on a dark palette is the colour of the box itself: an unticked
    acknowledgement or option became invisible. The outline is drawn again
    with the placeholder-text colour when the palette is dark.
    """

    def __init__(self) -> None:
        super().__init__(QStyleFactory.create("Fusion"))

    def drawPrimitive(
        self,
        element: QStyle.PrimitiveElement,
        option: QStyleOption,
        painter: QPainter,
        widget: QWidget | None = None,
    ) -> None:
        super().drawPrimitive(element, option, painter, widget)
        if element not in _CHECK_INDICATORS:
            return
        palette = option.palette  # type: ignore[attr-defined]
        if palette.color(QPalette.ColorRole.Window).lightness() >= 128:
            return
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        painter.setPen(QPen(palette.color(QPalette.ColorRole.PlaceholderText), 1))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        rect = option.rect.adjusted(0, 0, -1, -1)  # type: ignore[attr-defined]
        painter.drawRect(rect)
        painter.restore()


# ---------------------------------------------------------------------- theme colours

# Every custom colour of the shell, per theme. Widgets look their colours up
# here (or use palette roles) and again on a PaletteChange, so View → Dark
# theme repaints them at once: a fixed light colour on a dark window was the
# bug (pink tints, a pale yellow banner, black headings).
THEME_COLOURS: dict[str, dict[str, str]] = {
    "light": {
        "banner_bg": "#f3d98b",
        "banner_border": "#c9a227",
        "banner_fg": "#3b2f00",
        "promote_bg": "#d7f0dd",
        "promote_border": "#2e8b57",
        "promote_fg": "#0f3d22",
        "hold_bg": "#f3e3b0",
        "hold_border": "#c9a227",
        "hold_fg": "#3b2f00",
        "rollback_bg": "#f6d0d0",
        "rollback_border": "#c0392b",
        "rollback_fg": "#5a0d0d",
        "none_bg": "#e3e6ea",
        "none_border": "#8a9099",
        "none_fg": "#22262b",
        "error_fg": "#c5221f",
        "muted_fg": "#5f6368",
    },
    "dark": {
        "banner_bg": "#4a3d12",
        "banner_border": "#9c7f1f",
        "banner_fg": "#f6e7b0",
        "promote_bg": "#1f3d2a",
        "promote_border": "#3fa26b",
        "promote_fg": "#c9efd6",
        "hold_bg": "#453a16",
        "hold_border": "#b8952a",
        "hold_fg": "#f3e3b0",
        "rollback_bg": "#4a2224",
        "rollback_border": "#d9534f",
        "rollback_fg": "#ffd0cc",
        "none_bg": "#34373c",
        "none_border": "#6b7078",
        "none_fg": "#dfe2e6",
        "error_fg": "#ff8a80",
        "muted_fg": "#a6adb4",
    },
}


def is_dark(widget: QWidget | None = None, palette: QPalette | None = None) -> bool:
    """True when ``widget``'s (or ``palette``, or the application's) window colour is dark."""
    if palette is None:
        if widget is not None:
            palette = widget.palette()
        else:
            from PySide6.QtWidgets import QApplication

            palette = QApplication.palette()
    return palette.color(QPalette.ColorRole.Window).lightness() < 128


def theme_colour(name: str, widget: QWidget | None = None) -> str:
    """The colour called ``name`` in :data:`THEME_COLOURS` for ``widget``'s theme."""
    return THEME_COLOURS["dark" if is_dark(widget) else "light"][name]


def banner_style(object_name: str, kind: str, widget: QWidget | None = None) -> str:
    """A style sheet for the frame ``#object_name`` in the colours of ``kind``.

    ``kind``: ``banner`` (read-only and font notices) or a guard
    recommendation (``promote``, ``hold``, ``rollback``, ``none``).
    """
    bg = theme_colour(f"{kind}_bg", widget)
    border = theme_colour(f"{kind}_border", widget)
    fg = theme_colour(f"{kind}_fg", widget)
    return (
        f"#{object_name} {{ background: {bg}; border: 1px solid {border}; color: {fg}; }}"
        f"#{object_name} QLabel {{ color: {fg}; }}"
    )
