"""The conversation as a flat list model: one row per message part, plus live rows.

Rows are built from the session's messages (text, tool call, tool result) and
enriched by the run's events: the pipeline's prepared arguments, approvals,
execution and completion of each call. While a turn streams, "live" rows
hold the text and tool calls received so far; they are replaced by the final
rows once the run appends the assistant message.

Pairing comes from :func:`studio.sessions.pairing.analyse_pairing`: each pair
gets a colour index and a lane (its call's place among the message's calls),
and every problem is attached to the row it names, so the view can flag it
in place.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt

from studio.runtime.events import RunEvent
from studio.sessions.model import Message, Role, TextPart, ToolCallPart, ToolResultPart
from studio.sessions.pairing import PairingProblem, PairingReport, Position, analyse_pairing

MAX_LANES = 4

_Index = QModelIndex | QPersistentModelIndex


class ItemRole(IntEnum):
    """Custom data roles of :class:`ConversationModel`."""

    ITEM = Qt.ItemDataRole.UserRole + 1
    CALL_ID = Qt.ItemDataRole.UserRole + 2
    HIGHLIGHT = Qt.ItemDataRole.UserRole + 3


@dataclass
class CallAudit:
    """What the run's events said about one call id (each an event's ``data()``)."""

    proposed: dict[str, Any] | None = None
    prepared: dict[str, Any] | None = None
    approval: dict[str, Any] | None = None
    decided: dict[str, Any] | None = None
    executing: dict[str, Any] | None = None
    completed: dict[str, Any] | None = None
    updates: list[tuple[str, str]] = field(default_factory=list)
    """A delegation's streamed (state, text), in order (issue #18)."""


@dataclass
class ConversationItem:
    """One row: a text part, a tool call or a tool result (possibly still streaming).

    Attributes:
        kind: ``text``, ``call`` or ``result``.
        role: The message's role.
        message: Message index in the session (None for live rows).
        part: Part index in the message.
        colour: Pair colour index (-1: not paired or not a call/result).
        lanes: ``(lane, colour, shape)`` connector segments crossing this row;
            shape is ``start``, ``mid`` or ``end``.
        problems: Pairing problems located at this row.
        version: Bumped on every change (the view caches layouts by it).
    """

    kind: str
    role: str
    message: int | None
    part: int | None
    text: str = ""
    call_id: str = ""
    name: str = ""
    arguments: Any = None
    is_error: bool = False
    live: bool = False
    stream_index: int | None = None
    colour: int = -1
    lane: int = 0
    lanes: list[tuple[int, int, str]] = field(default_factory=list)
    problems: list[PairingProblem] = field(default_factory=list)
    version: int = 0
    file_id: str = ""
    """The id in the user's log when an importer renumbered it (shown beside ``call_id``)."""

    def summary(self) -> str:
        """One line for people and for accessibility (DisplayRole)."""
        if self.kind == "call":
            return f"{self.call_id} {self.name}({_compact(self.arguments)})"
        if self.kind == "result":
            return f"{self.call_id} → {self.text[:120]}"
        return f"{self.role}: {self.text[:200]}"


def _compact(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


class ConversationModel(QAbstractListModel):
    """The conversation rows; adapt messages and events, no run logic here."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._items: list[ConversationItem] = []
        self._messages: list[Message] = []
        self.audit: dict[str, CallAudit] = {}
        self.report = PairingReport((), ())
        self.usage: dict[int, tuple[int, int]] = {}
        self._hover = ""
        self._selected = ""
        self._call_rows: dict[str, list[int]] | None = None
        """Call id → rows, built on first use and dropped whenever rows come or go
        (a replay step then highlights its call without walking 100,000 rows)."""

    # ------------------------------------------------------------------ Qt API

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 - Qt signature
        return 0 if parent.isValid() else len(self._items)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._items):
            return None
        item = self._items[index.row()]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return item.summary()
        if role == ItemRole.ITEM:
            return item
        if role == ItemRole.CALL_ID:
            return item.call_id
        if role == ItemRole.HIGHLIGHT:
            return self.highlight_of(item)
        return None

    def flags(self, index: _Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    # ------------------------------------------------------------------ reading

    @property
    def messages(self) -> list[Message]:
        return list(self._messages)

    def message(self, index: int) -> Message:
        """Message ``index`` (without copying the list, as :attr:`messages` does)."""
        return self._messages[index]

    def item(self, row: int) -> ConversationItem:
        return self._items[row]

    def items(self) -> list[ConversationItem]:
        return list(self._items)

    def rows_of(self, call_id: str) -> list[int]:
        """Rows showing ``call_id`` (its call and its result; more when duplicated)."""
        if not call_id:
            return []
        if self._call_rows is None:
            self._call_rows = {}
            for i, it in enumerate(self._items):
                if it.call_id:
                    self._call_rows.setdefault(it.call_id, []).append(i)
        return list(self._call_rows.get(call_id, ()))

    def row_at(self, position: Position) -> int | None:
        for i, it in enumerate(self._items):
            if it.message == position.message and (
                position.part is None or it.part == position.part
            ):
                return i
        return None

    def highlight_of(self, item: ConversationItem) -> str:
        """``hover`` or ``selected`` when the row shares the hovered/selected call id."""
        if not item.call_id:
            return ""
        if item.call_id == self._hover:
            return "hover"
        if item.call_id == self._selected:
            return "selected"
        return ""

    def audit_of(self, call_id: str) -> CallAudit:
        return self.audit.get(call_id) or CallAudit()

    def total_usage(self) -> tuple[int, int]:
        return (
            sum(i for i, _ in self.usage.values()),
            sum(o for _, o in self.usage.values()),
        )

    # ------------------------------------------------------------------ highlighting

    def set_hover(self, call_id: str) -> None:
        """Highlight the rows of ``call_id`` (empty: none) — the pair's partner included."""
        if call_id != self._hover:
            old, self._hover = self._hover, call_id
            self._touch_ids(old, call_id)

    def set_selected(self, call_id: str) -> None:
        if call_id != self._selected:
            old, self._selected = self._selected, call_id
            self._touch_ids(old, call_id)

    def _touch_ids(self, *ids: str) -> None:
        for call_id in ids:
            for row in self.rows_of(call_id):
                idx = self.index(row)
                self.dataChanged.emit(idx, idx, [ItemRole.HIGHLIGHT])

    # ------------------------------------------------------------------ messages

    def set_messages(self, messages: list[Message] | tuple[Message, ...]) -> None:
        """Show ``messages`` from scratch (a loaded session or a new run's prefix)."""
        self.beginResetModel()
        self._messages = list(messages)
        self._items = [it for i, m in enumerate(self._messages) for it in _rows_of(i, m)]
        self.audit = {}
        self.usage = {}
        self._analyse(emit=False)
        self.endResetModel()

    def sync_messages(self, messages: list[Message] | tuple[Message, ...]) -> None:
        """Append the messages beyond those shown (the run's history grows at the end)."""
        if len(messages) <= len(self._messages):
            return
        self._drop_live()
        new = list(messages[len(self._messages) :])
        start = len(self._messages)
        rows = [it for k, m in enumerate(new) for it in _rows_of(start + k, m)]
        self._messages.extend(new)
        if rows:
            first = len(self._items)
            self.beginInsertRows(QModelIndex(), first, first + len(rows) - 1)
            self._items.extend(rows)
            self.endInsertRows()
        self._analyse(emit=True)

    def _drop_live(self) -> None:
        live = [i for i, it in enumerate(self._items) if it.live]
        if live:
            # Live rows are always the trailing ones.
            self.beginRemoveRows(QModelIndex(), live[0], live[-1])
            del self._items[live[0] :]
            self._call_rows = None
            self.endRemoveRows()

    def _analyse(self, *, emit: bool) -> None:
        """Pairing colours, lanes and problems of every row."""
        self._call_rows = None
        self.report = analyse_pairing(self._messages)
        where = {(it.message, it.part): r for r, it in enumerate(self._items) if not it.live}
        for it in self._items:
            it.colour, it.lanes, it.problems = -1, [], []
        for colour, pair in enumerate(self.report.pairs):
            rows = [
                where.get((p.message, p.part)) for p in (pair.call, pair.result) if p is not None
            ]
            rows = [r for r in rows if r is not None]
            for r in rows:
                self._items[r].colour = colour
            if len(rows) == 2:
                a, b = sorted(rows)
                lane = min(self._items[a].lane, MAX_LANES - 1)
                self._items[a].lanes.append((lane, colour, "start"))
                for r in range(a + 1, b):
                    self._items[r].lanes.append((lane, colour, "mid"))
                self._items[b].lanes.append((lane, colour, "end"))
        for problem in self.report.problems:
            row = where.get((problem.position.message, problem.position.part))
            if row is None:
                row = self.row_at(Position(problem.position.message))
            if row is not None:
                self._items[row].problems.append(problem)
        for it in self._items:
            it.version += 1
        if emit and self._items:
            self.dataChanged.emit(self.index(0), self.index(len(self._items) - 1))

    # ------------------------------------------------------------------ events

    def apply_event(self, event: RunEvent) -> None:
        """Fold one run event into the rows (streaming text, audit of calls, usage)."""
        data = event.data()
        kind = event.type
        if kind == "message.delta":
            self._apply_delta(data)
            return
        if kind == "model.response":
            usage = data.get("usage") or {}
            self.usage[int(data["turn"])] = (
                int(usage.get("input_tokens") or 0),
                int(usage.get("output_tokens") or 0),
            )
            return
        call_id = str(data.get("call_id") or "")
        slot = {
            "tool_call.proposed": "proposed",
            "tool_call.prepared": "prepared",
            "approval.required": "approval",
            "approval.decided": "decided",
            "tool_call.executing": "executing",
            "tool_call.completed": "completed",
        }.get(kind)
        if slot is None or not call_id:
            return
        setattr(self.audit.setdefault(call_id, CallAudit()), slot, data)
        for row in self.rows_of(call_id):
            self._items[row].version += 1
            idx = self.index(row)
            self.dataChanged.emit(idx, idx)

    def _apply_delta(self, data: dict[str, Any]) -> None:
        if data["kind"] == "text":
            row = next(
                (i for i, it in enumerate(self._items) if it.live and it.kind == "text"), None
            )
            if row is None:
                self._insert_live(ConversationItem("text", "assistant", None, None, live=True))
                row = len(self._items) - 1
            self._items[row].text += data.get("text", "")
        elif data["kind"] == "tool_call_start":
            lane = sum(1 for it in self._items if it.live and it.kind == "call")
            self._insert_live(
                ConversationItem(
                    "call", "assistant", None, None, call_id=data.get("call_id", ""),
                    name=data.get("name", ""), arguments="", live=True,
                    stream_index=data.get("index"), lane=lane,
                )
            )  # fmt: skip
            return
        else:
            row = next(
                (
                    i
                    for i, it in enumerate(self._items)
                    if it.live and it.kind == "call" and it.stream_index == data.get("index")
                ),
                None,
            )
            if row is None:
                return
            self._items[row].arguments = str(self._items[row].arguments) + data.get("text", "")
        self._items[row].version += 1
        idx = self.index(row)
        self.dataChanged.emit(idx, idx)

    def _insert_live(self, item: ConversationItem) -> None:
        row = len(self._items)
        self.beginInsertRows(QModelIndex(), row, row)
        self._items.append(item)
        self._call_rows = None
        self.endInsertRows()


def _rows_of(index: int, message: Message) -> list[ConversationItem]:
    role = message.role.value
    rows: list[ConversationItem] = []
    lane = 0
    for p, part in enumerate(message.parts):
        if isinstance(part, TextPart):
            rows.append(ConversationItem("text", role, index, p, text=part.text))
        elif isinstance(part, ToolCallPart):
            rows.append(
                ConversationItem(
                    "call", role, index, p, call_id=part.id, name=part.name,
                    arguments=part.arguments, lane=lane,
                    file_id=str(part.extra.get("original_id") or ""),
                )
            )  # fmt: skip
            lane += 1
        elif isinstance(part, ToolResultPart):
            rows.append(
                ConversationItem(
                    "result", role, index, p, text=part.content, call_id=part.id,
                    name=part.name, is_error=part.is_error,
                    file_id=str(part.extra.get("original_id") or ""),
                )
            )  # fmt: skip
    if not rows:
        text = "(empty message)" if message.role is not Role.ASSISTANT else "(no answer)"
        rows.append(ConversationItem("text", role, index, None, text=text))
    return rows
