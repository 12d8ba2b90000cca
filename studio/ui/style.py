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
