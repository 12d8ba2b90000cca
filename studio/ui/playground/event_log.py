"""The run's event log: a table of seq, type and a one-line summary.

Streamed pieces (``message.delta``) of one turn are folded into a single row
that counts them, so a long stream stays a handful of rows.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QModelIndex, Qt
from PySide6.QtGui import QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from studio.runtime.events import RunEvent
from studio.ui.models.table_base import RowTableModel


@dataclass
class LogRow:
    first_seq: int
    last_seq: int
    type: str
    summary: str
    data: dict[str, Any]
    pieces: int = 1
    chars: int = 0


def summarize_event(event: RunEvent) -> str:
    """A short line for ``event``."""
    d = event.data()
    t = event.type
    if t == "run.started":
        return f"{d['registry']} {d['version']} · profile {d.get('profile') or '-'}"
    if t == "model.request":
        return f"turn {d['turn']}"
    if t == "model.response":
        u = d.get("usage") or {}
        used, made = u.get("input_tokens"), u.get("output_tokens")
        # A provider that reports no usage: say so, never "in None / out None".
        tokens = (
            f"in {used} / out {made} tokens"
            if used is not None and made is not None
            else "tokens not reported"
        )
        return f"turn {d['turn']} · {d['stop_reason']} · {d['tool_calls']} call(s) · {tokens}"
    if t == "tool_call.proposed":
        args = d["arguments"] if isinstance(d["arguments"], str) else json.dumps(d["arguments"])
        return f"{d['call_id']} {d['name']}({args[:80]})"
    if t == "tool_call.prepared":
        changes = sum(len(s.get("changes") or ()) for s in d.get("steps") or ())
        verdict = "ok" if d["ok"] else (d.get("error") or {}).get("error_code", "rejected")
        return f"{d['call_id']} {d['tool']} · {verdict} · {changes} change(s)"
    if t == "approval.required":
        need = f"type {d['phrase']!r}" if d.get("phrase") else "confirm"
        return f"{d['call_id']} {d['tool']} ({d['risk']}) · {need}"
    if t == "approval.decided":
        return f"{d['call_id']} {'approved' if d['approved'] else 'denied'} {d.get('reason', '')}"
    if t == "tool_call.executing":
        return f"{d['call_id']} {d['tool']} via {d['executor']}"
    if t == "tool_call.completed":
        latency = f"{d['latency_ms']:.0f} ms"
        return f"{d['call_id']} {d['tool']} · {d['status']} · {latency} · {d['summary']}"
    if t == "loop.detected":
        return f"{d['reason']}: {d['detail']} → {d['action']}"
    if t == "run.completed":
        return (
            f"{d['status']} {d.get('reason', '')} · {d['turns']} turn(s), {d['tool_calls']} call(s)"
        )
    if t == "run.failed":
        status = f"HTTP {d['status']} " if d.get("status") else ""
        return f"{status}{d.get('error_type', '')} {d['error']}".strip()
    if t == "run.cancelled":
        pending = ", ".join(d.get("pending_calls") or ())
        return d.get("reason", "") + (f" · unanswered: {pending}" if pending else "")
    return ""


def _seq_text(row: LogRow) -> str:
    return (
        str(row.first_seq) if row.first_seq == row.last_seq else f"{row.first_seq}–{row.last_seq}"
    )


class EventLogModel(RowTableModel[LogRow]):
    """Rows of run events (consecutive deltas of a turn folded into one row).

    Display and tooltip show the same text; ``UserRole`` gives a row's event data.
    """

    columns = (
        (str(QT_TRANSLATE_NOOP("Columns", "Seq")), _seq_text),
        (str(QT_TRANSLATE_NOOP("Columns", "Type")), lambda r: r.type),
        (str(QT_TRANSLATE_NOOP("Columns", "Summary")), lambda r: r.summary),
    )

    def tooltip(self, row: LogRow, column: int) -> str:
        return self.display(row, column)

    def role_data(self, row: LogRow, column: int, role: int) -> Any:
        return row.data if role == Qt.ItemDataRole.UserRole else None

    def types(self) -> list[str]:
        return [r.type for r in self._rows]

    def row(self, index: int) -> LogRow:
        return self._rows[index]

    def clear(self) -> None:
        self.beginResetModel()
        self._rows: list[LogRow] = []
        self.endResetModel()

    def append(self, event: RunEvent) -> None:
        data = event.data()
        if event.type == "message.delta":
            last = self._rows[-1] if self._rows else None
            if last is not None and last.type == "message.delta":
                last.last_seq = event.seq
                last.pieces += 1
                last.chars += len(data.get("text") or "")
                last.summary = f"{last.pieces} streamed pieces, {last.chars} characters"
                idx = self.index(len(self._rows) - 1, 0)
                self.dataChanged.emit(idx, self.index(len(self._rows) - 1, 2))
                return
            chars = len(data.get("text") or "")
            row = LogRow(event.seq, event.seq, event.type, f"1 streamed piece, {chars} characters",
                         data, 1, chars)  # fmt: skip
        else:
            row = LogRow(event.seq, event.seq, event.type, summarize_event(event), data)
        n = len(self._rows)
        self.beginInsertRows(QModelIndex(), n, n)
        self._rows.append(row)
        self.endInsertRows()


class EventLogView(QTableView):
    """The event table; follows new rows; says what it waits for while empty.

    An imported session has messages but no run events, and a blank table
    looked broken: :attr:`placeholder` is drawn over the empty table.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.log_model = EventLogModel(self)
        self.setModel(self.log_model)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setWordWrap(False)
        self.verticalHeader().hide()
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        header = self.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.setAccessibleName(self.tr("Event log"))
        self.log_model.rowsInserted.connect(lambda *_: self.scrollToBottom())
        self.placeholder = self.tr(
            "No run events. A run in the Playground, or a replay (Replay as model…), records "
            "every step here: requests, tool calls, repairs and results. Imported logs carry "
            "only their messages."
        )

    def set_placeholder(self, text: str) -> None:
        """What the empty table says (the Playground and Sessions say different things)."""
        self.placeholder = text
        self.viewport().update()

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if self.log_model.rowCount() or not self.placeholder:
            return
        painter = QPainter(self.viewport())
        painter.setPen(self.palette().color(QPalette.ColorRole.PlaceholderText))
        rect = self.viewport().rect().adjusted(12, 8, -12, -8)
        flags = int(Qt.AlignmentFlag.AlignCenter.value | Qt.TextFlag.TextWordWrap.value)
        painter.drawText(rect, flags, self.placeholder)
        painter.end()
