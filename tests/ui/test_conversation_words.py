"""The conversation cards (Playground and Sessions) read in the interface language."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from studio.ui import i18n
from studio.ui.playground.card_html import card_html, status_text
from studio.ui.playground.conversation import _title
from studio.ui.playground.conversation_model import CallAudit, ConversationItem

CALL = ConversationItem("call", "assistant", 2, 0, call_id="call_1", name="search_policy",
                        arguments={"query": "taxi"})  # fmt: skip
RESULT = ConversationItem("result", "tool", 3, 0, text='{"limit": 80}', call_id="call_1",
                          name="search_policy", is_error=True)  # fmt: skip
TEXT = ConversationItem("text", "assistant", 4, 0, text="Clause 4.2", live=True)
AUDIT = CallAudit(prepared={"ok": True, "arguments": {"query": "taxi"}}, approval={"id": "a"})


@pytest.fixture
def chinese(qapp: QApplication):
    i18n.apply_language(qapp, "zh_CN")
    yield qapp
    i18n.apply_language(qapp, "en")


def test_cards_in_english(qapp: QApplication) -> None:
    assert "sent by the model" in card_html(CALL, AUDIT, dark=False)
    assert _title(RESULT) == "result of search_policy · error"
    assert _title(TEXT) == "Assistant (streaming)"
    assert status_text(CALL, AUDIT) == "waiting for approval"


def test_cards_in_chinese(chinese: QApplication) -> None:
    html = card_html(CALL, AUDIT, dark=False)
    assert "模型发送的参数" in html and "管道准备后的参数" in html
    assert "sent by the model" not in html
    assert _title(RESULT) == "search_policy 的结果 · 错误"
    assert _title(TEXT) == "助手（流式输出中）"
    assert status_text(CALL, AUDIT) == "等待批准"


def test_the_inspector_title_in_chinese(chinese: QApplication, qtbot) -> None:
    from studio.ui.playground.conversation_model import ConversationModel
    from studio.ui.playground.inspector import InspectorWidget

    inspector = InspectorWidget()
    qtbot.addWidget(inspector)
    from studio.sessions.model import Message, Role, TextPart

    model = ConversationModel()
    model.set_messages(
        [
            Message(Role.USER, (TextPart("Taxi?"),)),
            Message(Role.ASSISTANT, (TextPart("Clause 4.2"),)),
        ]
    )
    text = ConversationItem("text", Role.ASSISTANT, 1, 0, text="Clause 4.2")
    inspector.show_item(text, model)
    assert inspector.title.text() == "文本 · 助手 · 第 1 条消息"
