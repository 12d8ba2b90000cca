"""The application style keeps unticked check boxes visible on the dark palette."""

from __future__ import annotations

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QCheckBox

from studio.ui.app import dark_palette
from studio.ui.style import StudioStyle


def _outline_pixels(style: StudioStyle | None, qtbot) -> int:
    box = QCheckBox()
    qtbot.addWidget(box)
    if style is not None:
        box.setStyle(style)
    palette = dark_palette()
    box.setPalette(palette)
    box.resize(40, 24)
    image = box.grab().toImage()
    outline = palette.color(QPalette.ColorRole.PlaceholderText)
    return sum(
        1
        for x in range(image.width())
        for y in range(image.height())
        if QColor(image.pixel(x, y)) == outline
    )


def test_unticked_box_has_a_visible_outline_on_dark(qtbot) -> None:
    style = StudioStyle()
    assert _outline_pixels(style, qtbot) >= 20, "the indicator's outline is drawn"
