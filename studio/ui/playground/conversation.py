"""The conversation view: a QListView painting cards with a delegate (no widget per message).

Each row of :class:`ConversationModel` is drawn as a card: text bubbles for
user and assistant text, call cards (id chip, tool name, arguments as sent and
as prepared) and result cards (matching id chip). A pair shares a colour: the
chip, a side bar, and a connector in the left gutter that runs from the call
down to its result. Hovering or selecting a row highlights every row of its
call id, i.e. its partner. Pairing problems are drawn inside the card.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import (
    QCoreApplication,
    QEvent,
    QModelIndex,
    QPersistentModelIndex,
    QRect,
    QSize,
    Qt,
    Signal,
)
from PySide6.QtGui import QColor, QFont, QFontMetrics, QMouseEvent, QPainter, QPen, QTextDocument
from PySide6.QtWidgets import (
    QAbstractItemView,
    QListView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QWidget,
)

from studio.ui.playground.card_html import card_html, status_text
from studio.ui.playground.conversation_model import (
    MAX_LANES,
    ConversationItem,
    ConversationModel,
    ItemRole,
)
from studio.ui.widgets.json_highlighter import is_dark

# Darkish hues: white chip text stays readable, bars stay visible on dark themes.
PAIR_COLOURS = (
    "#1f63b4", "#c2570a", "#2a8a2a", "#7b4fb0", "#c2257a", "#0f7f8c", "#8a6d00", "#8c4b3b",
)  # fmt: skip
LANE_WIDTH = 9
GUTTER = 8 + MAX_LANES * LANE_WIDTH
PADDING = 8
HEADER_GAP = 4
PROBLEM_COLOUR = "#d93025"

_Index = QModelIndex | QPersistentModelIndex


def pair_colour(index: int) -> QColor:
    return QColor(PAIR_COLOURS[index % len(PAIR_COLOURS)])


class ConversationDelegate(QStyledItemDelegate):
    """Paints one card per row; caches each card's laid-out body by item version and width."""

    def __init__(self, view: QListView) -> None:
        super().__init__(view)
        self._view = view
        self._docs: dict[int, tuple[int, int, bool, QTextDocument]] = {}
        # Each relayout asks every row laid out for its size: answered from here, a
        # replay step's relayout costs a lookup per row, not a palette and font query.
        self._sizes: dict[int, tuple[int, int, bool, QSize]] = {}
        self._dark: bool | None = None
        self._header_height: int | None = None
        self.mono = QFont("monospace")
        self.mono.setStyleHint(QFont.StyleHint.Monospace)

    def _model(self, index: _Index) -> ConversationModel:
        model = index.model()
        assert isinstance(model, ConversationModel)
        return model

    def _card_width(self) -> int:
        return max(200, self._view.viewport().width() - GUTTER - 8)

    def style_changed(self) -> None:
        """The palette or font changed: sizes and colours are worked out again."""
        self._dark = None
        self._header_height = None
        self._sizes.clear()

    def _is_dark(self) -> bool:
        if self._dark is None:
            self._dark = is_dark(self._view.palette())
        return self._dark

    def body(self, item: ConversationItem, model: ConversationModel, width: int) -> QTextDocument:
        """The laid-out body of ``item`` (cached until the item changes or the width does)."""
        dark = self._is_dark()
        key = id(item)
        cached = self._docs.get(key)
        if cached and cached[0] == item.version and cached[1] == width and cached[2] == dark:
            return cached[3]
        doc = QTextDocument()
        doc.setDefaultFont(self._view.font())
        doc.setDocumentMargin(0)
        doc.setDefaultStyleSheet(
            f"pre {{ font-family: '{self.mono.family()}', monospace; margin: 0;"
            " white-space: pre-wrap; }"
        )
        doc.setHtml(card_html(item, model.audit_of(item.call_id), dark))
        doc.setTextWidth(width - 2 * PADDING - 6)
        self._docs[key] = (item.version, width, dark, doc)
        if len(self._docs) > 4000:  # items of a replaced session
            self._docs.clear()
        return doc

    def header_height(self) -> int:
        if self._header_height is None:
            self._header_height = QFontMetrics(self._view.font()).height() + 8
        return self._header_height

    def sizeHint(self, option: QStyleOptionViewItem, index: _Index) -> QSize:
        item: ConversationItem = index.data(ItemRole.ITEM)
        width = self._card_width()
        dark = self._is_dark()
        cached = self._sizes.get(id(item))
        if cached and cached[0] == item.version and cached[1] == width and cached[2] == dark:
            return cached[3]
        doc = self.body(item, self._model(index), width)
        height = self.header_height() + HEADER_GAP + int(doc.size().height()) + 2 * PADDING
        size = QSize(width + GUTTER, height + 8)
        self._sizes[id(item)] = (item.version, width, dark, size)
        if len(self._sizes) > 200_000:  # items of replaced sessions
            self._sizes.clear()
        return size

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: _Index) -> None:
        item: ConversationItem = index.data(ItemRole.ITEM)
        model = self._model(index)
        palette = option.palette
        dark = is_dark(palette)
        rect: QRect = option.rect
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        card = QRect(rect.left() + GUTTER, rect.top() + 4, self._card_width(), rect.height() - 8)
        self._paint_lanes(painter, rect, card, item)

        base = palette.base().color()
        if item.role == "user":
            fill = QColor("#dbe8fb") if not dark else QColor("#22344d")
        elif item.kind == "result" and item.is_error:
            fill = QColor("#fdeeee") if not dark else QColor("#3d2527")
        elif item.kind in ("call", "result"):
            fill = palette.alternateBase().color()
        else:
            fill = base
        highlight = index.data(ItemRole.HIGHLIGHT)
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        colour = pair_colour(item.colour) if item.colour >= 0 else palette.mid().color()
        if item.problems:
            border = QPen(QColor(PROBLEM_COLOUR), 2)
        elif highlight or selected:
            border = QPen(colour if item.colour >= 0 else palette.highlight().color(), 3)
        else:
            border = QPen(palette.mid().color(), 1)
        if highlight and item.colour >= 0:
            tint = QColor(colour)
            tint.setAlpha(40 if not dark else 70)
            painter.setBrush(fill)
            painter.setPen(border)
            painter.drawRoundedRect(card, 6, 6)
            painter.setBrush(tint)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.drawRoundedRect(card, 6, 6)
        else:
            painter.setBrush(fill)
            painter.setPen(border)
            painter.drawRoundedRect(card, 6, 6)
        if item.colour >= 0:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(colour)
            painter.drawRoundedRect(QRect(card.left(), card.top(), 5, card.height()), 2, 2)

        text_colour = palette.text().color()
        if item.role == "user" and dark:
            text_colour = QColor("#e6e6e6")
        fm = QFontMetrics(self._view.font())
        header = QRect(card.left() + PADDING + 4, card.top() + PADDING // 2,
                       card.width() - 2 * PADDING - 4, self.header_height())  # fmt: skip
        x = header.left()
        if item.call_id or item.kind in ("call", "result"):
            chip_text = item.call_id or "(no id)"
            if item.file_id and item.file_id != item.call_id:
                chip_text = f"{item.file_id} → {item.call_id}"  # the log's id, then the studio's
            chip_w = fm.horizontalAdvance(chip_text) + 14
            chip = QRect(x, header.top() + 2, chip_w, header.height() - 4)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(colour if item.colour >= 0 else QColor(PROBLEM_COLOUR))
            painter.drawRoundedRect(chip, chip.height() / 2, chip.height() / 2)
            painter.setPen(QColor("#ffffff"))
            painter.drawText(chip, Qt.AlignmentFlag.AlignCenter, chip_text)
            x = chip.right() + 8
        bold = QFont(self._view.font())
        bold.setBold(True)
        painter.setFont(bold)
        painter.setPen(text_colour)
        title = _title(item)
        status = status_text(item, model.audit_of(item.call_id))
        status_w = fm.horizontalAdvance(status) + 8 if status else 0
        title_rect = QRect(x, header.top(), max(0, header.right() - x - status_w), header.height())
        painter.drawText(
            title_rect,
            Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
            QFontMetrics(bold).elidedText(title, Qt.TextElideMode.ElideRight, title_rect.width()),
        )
        if status:
            painter.setFont(self._view.font())
            muted = palette.placeholderText().color()
            painter.setPen(muted)
            painter.drawText(header, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight,
                             status)  # fmt: skip
        doc = self.body(item, model, self._card_width())
        painter.translate(card.left() + PADDING + 4, header.bottom() + HEADER_GAP)
        doc.drawContents(painter)
        painter.restore()

    def _paint_lanes(
        self, painter: QPainter, rect: QRect, card: QRect, item: ConversationItem
    ) -> None:
        """Connectors in the gutter: from a call's chip down to its result's chip."""
        mid_y = card.top() + PADDING // 2 + self.header_height() // 2
        for lane, colour, shape in item.lanes:
            x = 6 + rect.left() + lane * LANE_WIDTH
            painter.setPen(QPen(pair_colour(colour), 3))
            top = mid_y if shape == "start" else rect.top()
            bottom = mid_y if shape == "end" else rect.bottom() + 1
            painter.drawLine(x, top, x, bottom)
            if shape in ("start", "end"):
                painter.drawLine(x, mid_y, card.left(), mid_y)


def _title(item: ConversationItem) -> str:
    if item.kind == "call":
        return item.name or QCoreApplication.translate("ConversationCard", "(no name)")
    if item.kind == "result":
        title = (
            QCoreApplication.translate("ConversationCard", "result of {name}").format(
                name=item.name
            )
            if item.name
            else QCoreApplication.translate("ConversationCard", "result")
        )
        error = QCoreApplication.translate("ConversationCard", "error")
        return f"{title} · {error}" if item.is_error else title
    names = {
        "user": QCoreApplication.translate("ConversationCard", "You"),
        "assistant": QCoreApplication.translate("ConversationCard", "Assistant"),
        "system": QCoreApplication.translate("ConversationCard", "System"),
        "tool": QCoreApplication.translate("ConversationCard", "Tool"),
    }
    role = names.get(item.role, item.role)
    if not item.live:
        return role
    return QCoreApplication.translate("ConversationCard", "{role} (streaming)").format(role=role)


class ConversationView(QListView):
    """The conversation list; hovering a row highlights its pair, new rows scroll into view.

    Signals:
        currentItemChanged: The selected :class:`ConversationItem` (or None).
    """

    currentItemChanged = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.conversation = ConversationModel(self)
        self.setModel(self.conversation)
        self.delegate = ConversationDelegate(self)
        self.setItemDelegate(self.delegate)
        self.setMouseTracking(True)
        self.setResizeMode(QListView.ResizeMode.Adjust)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setUniformItemSizes(False)
        self.setLayoutMode(QListView.LayoutMode.Batched)
        self.setBatchSize(200)
        self.setSpacing(0)
        self.setAccessibleName("Conversation")
        self._follow = True
        self.conversation.rowsInserted.connect(self._on_rows_changed)
        self.conversation.dataChanged.connect(self._on_data_changed)
        self.conversation.modelReset.connect(self._on_rows_changed)
        self.verticalScrollBar().valueChanged.connect(self._on_scrolled)
        self.verticalScrollBar().rangeChanged.connect(self._on_range)
        self.selectionModel().currentChanged.connect(self._on_current)

    def current_item(self) -> ConversationItem | None:
        index = self.currentIndex()
        return index.data(ItemRole.ITEM) if index.isValid() else None

    def select_row(self, row: int) -> None:
        self.setCurrentIndex(self.conversation.index(row))

    def hover_row(self, row: int | None) -> None:
        """Highlight the pair of ``row`` as the mouse does (None: clear)."""
        item = self.conversation.item(row) if row is not None else None
        self.conversation.set_hover(item.call_id if item else "")

    def _on_current(self, current: QModelIndex, _previous: QModelIndex) -> None:
        item = current.data(ItemRole.ITEM) if current.isValid() else None
        self.conversation.set_selected(item.call_id if item else "")
        self.currentItemChanged.emit(item)

    def _on_rows_changed(self, *_args: object) -> None:
        # Rows grow while streaming: relayout (coalesced by Qt) and keep following the end.
        self.scheduleDelayedItemsLayout()

    def _on_data_changed(self, _top: QModelIndex, _bottom: QModelIndex, roles: list[int]) -> None:
        # A highlight (hover, selection: every replay step) leaves the heights alone. A
        # relayout of a list of varying heights starts over from the first row, so it
        # must not follow one: a step would cost more the longer the session.
        if list(roles) != [ItemRole.HIGHLIGHT]:
            self.scheduleDelayedItemsLayout()

    def dataChanged(
        self,
        topLeft: _Index,
        bottomRight: _Index,
        roles: Sequence[int] = (),
    ) -> None:
        """A highlight only repaints its rows; anything else may change a height: relayout.

        QListView lays every row out again on any dataChanged, from the first row; a
        replay step highlights the selected pair, so each step cost more the longer the
        session (52 ms a step at 100,000 messages).
        """
        if list(roles) == [ItemRole.HIGHLIGHT]:
            for row in range(topLeft.row(), bottomRight.row() + 1):
                rect = self.visualRect(self.conversation.index(row))
                if rect.isValid():
                    self.viewport().update(rect)
            return
        super().dataChanged(topLeft, bottomRight, roles)

    def _on_range(self, _minimum: int, maximum: int) -> None:
        if self._follow:
            self.verticalScrollBar().setValue(maximum)

    def _on_scrolled(self, value: int) -> None:
        self._follow = value >= self.verticalScrollBar().maximum() - 4

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        index = self.indexAt(event.position().toPoint())
        self.hover_row(index.row() if index.isValid() else None)
        super().mouseMoveEvent(event)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (
            QEvent.Type.PaletteChange,
            QEvent.Type.FontChange,
            QEvent.Type.StyleChange,
        ) and isinstance(getattr(self, "delegate", None), ConversationDelegate):
            self.delegate.style_changed()
        super().changeEvent(event)

    def leaveEvent(self, event: QEvent) -> None:
        self.conversation.set_hover("")
        super().leaveEvent(event)
