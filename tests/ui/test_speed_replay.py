"""Issue #16, replay on screen: a step must not lay the whole conversation out again.

A list of cards of varying heights lays itself out from the first row on any
relayout, so a step that triggers one costs more the longer the session. A step
selects a row, and selecting highlights the pair (a HIGHLIGHT-only dataChanged):
that must repaint, not relayout. The benchmark row is ``benchmarks/speed.py
--only replay``; this counts the view's layouts instead of timing.
"""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from studio.sessions.model import Message, Role, TextPart, ToolCallPart, ToolResultPart
from studio.ui.playground.conversation import ConversationView

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")


def _session(turns: int) -> list[Message]:
    messages = []
    for i in range(turns):
        messages += [
            Message(Role.USER, (TextPart(f"question {i}"),)),
            Message(Role.ASSISTANT, (ToolCallPart(f"c{i}", "search", '{"q": "x"}'),)),
            Message(Role.TOOL, (ToolResultPart(f"c{i}", '{"ok": true}'),)),
        ]
    return messages


class CountingView(ConversationView):
    """Counts full layouts (Qt calls the virtual doItemsLayout for each)."""

    layouts = 0

    def doItemsLayout(self) -> None:
        self.layouts += 1
        super().doItemsLayout()


def _layouts_while(view: CountingView, act) -> int:
    before = view.layouts
    act()
    for _ in range(5):
        QApplication.processEvents()
    return view.layouts - before


@pytest.mark.parametrize("turns", [20, 400])
def test_selecting_and_hovering_rows_repaints_without_a_relayout(qtbot, turns: int) -> None:
    view = CountingView()
    qtbot.addWidget(view)
    view.resize(700, 500)
    view.show()
    view.conversation.set_messages(_session(turns))
    qtbot.waitUntil(lambda: view.visualRect(view.conversation.index(0)).height() > 0)
    for _ in range(20):  # let the batched layout finish
        QApplication.processEvents()
    rows = view.conversation.rowCount()

    def steps() -> None:
        for row in range(1, rows, max(1, rows // 10)):
            view.select_row(row)
            view.hover_row(row)

    assert _layouts_while(view, steps) == 0
    # Still highlighted: the selected call's pair is marked, the repaint was not skipped.
    item = view.current_item()
    assert item is not None and view.conversation.highlight_of(item)


def test_a_growing_row_is_laid_out_again(qtbot) -> None:
    """Text streaming into a row changes its height: that dataChanged does relayout."""
    view = CountingView()
    qtbot.addWidget(view)
    view.resize(700, 500)
    view.show()
    view.conversation.set_messages(_session(3))
    for _ in range(5):
        QApplication.processEvents()
    model = view.conversation
    top = model.index(model.rowCount() - 1)

    def grow() -> None:
        model.dataChanged.emit(top, top)  # all roles: the content may have changed

    assert _layouts_while(view, grow) > 0
