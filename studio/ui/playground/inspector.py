"""The inspector: the selected row's raw JSON and the three audit layers of a call.

Model intent (``tool_call.proposed``), request snapshot (``tool_call.executing``)
and response summary (``tool_call.completed``), each highlighted with the
Pygments-driven :class:`JsonHighlighter`; token usage per turn and in total.
"""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QEvent
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QLabel, QPlainTextEdit, QTabWidget, QVBoxLayout, QWidget

from studio.sessions.model import part_to_dict
from studio.ui.playground.conversation_model import CallAudit, ConversationItem, ConversationModel
from studio.ui.widgets.json_highlighter import JsonHighlighter, is_dark

TABS = ("Raw JSON", "Model intent", "Request snapshot", "Response summary")
# Shown through translate("InspectorWidget", …) (TABS stay the panes' keys).
TAB_TITLES = (
    str(QT_TRANSLATE_NOOP("InspectorWidget", "Raw")),
    str(QT_TRANSLATE_NOOP("InspectorWidget", "Intent")),
    str(QT_TRANSLATE_NOOP("InspectorWidget", "Request")),
    str(QT_TRANSLATE_NOOP("InspectorWidget", "Response")),
)
_TAB_TIPS = (
    str(QT_TRANSLATE_NOOP("InspectorWidget", "Raw JSON")),
    str(QT_TRANSLATE_NOOP("InspectorWidget", "Model intent")),
    str(QT_TRANSLATE_NOOP("InspectorWidget", "Request snapshot")),
    str(QT_TRANSLATE_NOOP("InspectorWidget", "Response summary")),
)


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2)


class _JsonPane(QPlainTextEdit):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        font = QFont("monospace")
        font.setStyleHint(QFont.StyleHint.Monospace)
        self.setFont(font)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.highlighter = JsonHighlighter(self.document(), is_dark(self.palette()))


class InspectorWidget(QWidget):
    """Shows one conversation row in detail (set with :meth:`show_item`)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = QLabel(self.tr("Select a message, call or result"))
        self.title.setWordWrap(True)
        self.tabs = QTabWidget()
        self.panes: dict[str, _JsonPane] = {}
        for name, title, tip in zip(TABS, TAB_TITLES, _TAB_TIPS, strict=True):
            pane = _JsonPane()
            self.panes[name] = pane
            self.tabs.addTab(pane, QCoreApplication.translate("InspectorWidget", title))
            self.tabs.setTabToolTip(
                self.tabs.count() - 1, QCoreApplication.translate("InspectorWidget", tip)
            )
        self.usage_label = QLabel(self.tr("No tokens used yet"))
        self.usage_label.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.title)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(self.usage_label)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange:  # JSON colours follow a theme switch
            for pane in self.panes.values():
                pane.highlighter.set_dark(is_dark(self.palette()))
        super().changeEvent(event)

    def text_of(self, tab: str) -> str:
        return self.panes[tab].toPlainText()

    def show_item(self, item: ConversationItem | None, model: ConversationModel) -> None:
        for pane in self.panes.values():
            pane.highlighter.set_dark(is_dark(pane.palette()))
        if item is None:
            self.title.setText(self.tr("Select a message, call or result"))
            for pane in self.panes.values():
                pane.setPlainText("")
            return
        raw = self._raw(item, model)
        self.panes["Raw JSON"].setPlainText(_dump(raw))
        audit = model.audit_of(item.call_id) if item.call_id else CallAudit()
        layers = {
            "Model intent": audit.proposed,
            "Request snapshot": audit.executing,
            "Response summary": audit.completed,
        }
        for name, value in layers.items():
            if value is None:
                note = (
                    self.tr("not a tool call")
                    if not item.call_id
                    else self.tr("no event for this call yet")
                )
                self.panes[name].setPlainText(f"// {note}")
            else:
                self.panes[name].setPlainText(_dump(value))
        where = (
            self.tr("message {number}").format(number=item.message)
            if item.message is not None
            else self.tr("streaming")
        )
        kinds = {"text": self.tr("text"), "call": self.tr("call"), "result": self.tr("result")}
        roles = {
            "user": self.tr("user"),
            "assistant": self.tr("assistant"),
            "system": self.tr("system"),
            "tool": self.tr("tool"),
        }
        label = item.call_id or roles.get(item.role, item.role)
        self.title.setText(
            self.tr("{kind} · {label} · {where}").format(
                kind=kinds.get(item.kind, item.kind), label=label, where=where
            )
        )

    def _raw(self, item: ConversationItem, model: ConversationModel) -> Any:
        if item.message is not None and item.part is not None:
            raw: Any = part_to_dict(model.message(item.message).parts[item.part])
        else:
            raw = {"role": item.role, "text": item.text, "arguments": item.arguments}
        if item.kind == "call":
            prepared = model.audit_of(item.call_id).prepared
            if prepared is not None:
                raw = {"part": raw, "prepared": prepared}
        if item.problems:
            problems = [
                {"kind": p.kind.value, "message": p.message, "provider_errors": p.provider_errors}
                for p in item.problems
            ]
            raw = {"part": raw, "pairing_problems": problems}
        return raw

    def show_usage(self, model: ConversationModel) -> None:
        if not model.usage:
            self.usage_label.setText(self.tr("No tokens used yet"))
            return
        turns = " · ".join(
            f"turn {t}: {i} in / {o} out" for t, (i, o) in sorted(model.usage.items())
        )
        total_in, total_out = model.total_usage()
        self.usage_label.setText(
            self.tr("Tokens — {turns}\nTotal: {total_in} in / {total_out} out").format(
                turns=turns, total_in=total_in, total_out=total_out
            )
        )
