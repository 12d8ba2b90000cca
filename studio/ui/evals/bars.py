"""Per-tool bars: each tool's pass rate on A and B (or its F1 in a one-variant run).

A table keeps the tool names readable and sortable; :class:`BarDelegate`
paints the rate columns as horizontal bars in the palette's Highlight (A
muted, B full) with the percentage on top, in both themes.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, Qt
from PySide6.QtGui import QColor, QPainter, QPalette
from PySide6.QtWidgets import QStyledItemDelegate, QStyleOptionViewItem

_Index = QModelIndex | QPersistentModelIndex

#: The cell's rate (0…1, or None) for the bar; its text is shown on top.
RateRole = Qt.ItemDataRole.UserRole + 11
#: True paints the bar muted (the baseline side).
MutedRole = Qt.ItemDataRole.UserRole + 12


class BarDelegate(QStyledItemDelegate):
    """A horizontal bar as wide as the cell's rate."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: _Index) -> None:
        rate = index.data(RateRole)
        if rate is None:
            super().paint(painter, option, index)
            return
        palette: QPalette = option.palette
        rect: QRect = option.rect.adjusted(3, 4, -3, -4)
        painter.save()
        colour = QColor(palette.color(QPalette.ColorRole.Highlight))
        if index.data(MutedRole):
            colour.setAlpha(110)
        track = QColor(palette.color(QPalette.ColorRole.Mid))
        track.setAlpha(60)
        painter.fillRect(rect, track)
        width = round(rect.width() * max(0.0, min(1.0, float(rate))))
        painter.fillRect(QRect(rect.left(), rect.top(), width, rect.height()), colour)
        painter.setPen(palette.color(QPalette.ColorRole.Text))
        text = index.data(Qt.ItemDataRole.DisplayRole) or ""
        painter.drawText(rect.adjusted(4, 0, -4, 0), Qt.AlignmentFlag.AlignVCenter, str(text))
        painter.restore()
