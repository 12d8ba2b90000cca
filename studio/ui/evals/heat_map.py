"""The confusion matrix as a heat map: a table whose cells are shaded by their share of the row.

Rows are the expected tools (then ``(no tool)`` and ``(asked)``), columns what
the model chose. A diagonal cell is shaded towards green, an off-diagonal one
towards red, by the cell's share of its row; the shading is mixed from the
palette's Base colour, so it reads in the light and the dark theme alike.
Clicking a cell emits :attr:`HeatMapView.cellChosen` with the pair, and the
report lists the cases behind it.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QRect,
    Qt,
    Signal,
)
from PySide6.QtGui import QColor, QPainter, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QWidget,
)

from studio.evals.metrics import Confusion

_Index = QModelIndex | QPersistentModelIndex
_GREEN = QColor(46, 160, 67)
_RED = QColor(218, 54, 51)

ShareRole = Qt.ItemDataRole.UserRole + 1
DiagonalRole = Qt.ItemDataRole.UserRole + 2


def mix(base: QColor, tint: QColor, share: float) -> QColor:
    """``base`` moved towards ``tint`` by ``share`` (0…1), capped so text stays readable."""
    t = max(0.0, min(1.0, share)) * 0.85
    return QColor(
        round(base.red() + (tint.red() - base.red()) * t),
        round(base.green() + (tint.green() - base.green()) * t),
        round(base.blue() + (tint.blue() - base.blue()) * t),
    )


class ConfusionModel(QAbstractTableModel):
    """Expected (rows) × chosen (columns) counts of one group of attempts."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.confusion = Confusion((), {})

    def set_confusion(self, confusion: Confusion) -> None:
        self.beginResetModel()
        self.confusion = confusion
        self.endResetModel()

    def labels(self) -> tuple[str, ...]:
        return self.confusion.labels

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.confusion.labels)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.confusion.labels)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        labels = self.confusion.labels
        if not 0 <= section < len(labels):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            # Columns by number (the rows name them): the matrix fits a 900 px window.
            if orientation == Qt.Orientation.Horizontal:
                return str(section + 1)
            return f"{section + 1}  {labels[section]}"
        if role == Qt.ItemDataRole.ToolTipRole:
            if orientation == Qt.Orientation.Vertical:
                return self.tr("Expected: {name}").format(name=labels[section])
            return self.tr("Chosen: {name}").format(name=labels[section])
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        labels = self.confusion.labels
        expected, chosen = labels[index.row()], labels[index.column()]
        count = self.confusion.count(expected, chosen)
        total = self.confusion.row_total(expected)
        if role == Qt.ItemDataRole.DisplayRole:
            return str(count) if count else ""
        if role == ShareRole:
            return count / total if total else 0.0
        if role == DiagonalRole:
            return expected == chosen
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return Qt.AlignmentFlag.AlignCenter
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.tr("expected {expected}, chose {chosen}: {count} of {total}").format(
                expected=expected, chosen=chosen, count=count, total=total
            )
        return None


class HeatDelegate(QStyledItemDelegate):
    """Paints a cell's background by its share of the row (green on the diagonal, else red)."""

    def cell_colour(self, index: _Index, palette: QPalette) -> QColor:
        share = float(index.data(ShareRole) or 0.0)
        base = palette.color(QPalette.ColorRole.Base)
        tint = _GREEN if index.data(DiagonalRole) else _RED
        return mix(base, tint, share)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: _Index) -> None:
        palette = option.palette
        rect: QRect = option.rect
        colour = self.cell_colour(index, palette)
        painter.save()
        painter.fillRect(rect, colour)
        if option.state & QStyle.StateFlag.State_Selected:
            pen = painter.pen()
            pen.setColor(palette.color(QPalette.ColorRole.Highlight))
            pen.setWidth(2)
            painter.setPen(pen)
            painter.drawRect(rect.adjusted(1, 1, -1, -1))
        text = index.data(Qt.ItemDataRole.DisplayRole)
        if text:
            # Dark text on a light cell and the reverse, whatever the theme.
            ink = QColor("#111111") if colour.lightness() > 140 else QColor("#f5f5f5")
            painter.setPen(ink)
            painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, str(text))
        painter.restore()


class HeatMapView(QTableView):
    """The heat map; ``cellChosen(expected, chosen)`` when a cell is clicked."""

    cellChosen = Signal(str, str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.heat_model = ConfusionModel(self)
        self.setModel(self.heat_model)
        self.setItemDelegate(HeatDelegate(self))
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setShowGrid(True)
        self.setAccessibleName(self.tr("Confusion matrix"))
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.horizontalHeader().setMinimumSectionSize(40)
        self.horizontalHeader().setDefaultSectionSize(44)
        self.clicked.connect(self._on_clicked)

    def set_confusion(self, confusion: Confusion) -> None:
        self.heat_model.set_confusion(confusion)

    def _on_clicked(self, index: QModelIndex) -> None:
        labels = self.heat_model.labels()
        if index.isValid():
            self.cellChosen.emit(labels[index.row()], labels[index.column()])
