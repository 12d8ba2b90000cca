"""The proxy's exchanges of a recorded session: each request's check and action, each answer.

``studio proxy`` records ``proxy.*`` events beside the messages (the request's
pairing problems and what the policy did, the provider's answer, repairs,
refusals, re-validation). The runtime's event log does not know them, so a
live proxy session showed "No run events"; this list shows them, the
requests with problems badged, the provider's error for each in the tooltip.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtWidgets import QApplication, QStyle, QTreeWidget, QTreeWidgetItem, QWidget

from registry_db.sessions import StoredEvent

PREFIX = "proxy."


def proxy_events(events: Sequence[StoredEvent]) -> list[StoredEvent]:
    """The proxy's events among a session's events."""
    return [e for e in events if e.type.startswith(PREFIX)]


class ProxyLogView(QTreeWidget):
    """Seq | Event | Summary, one row per proxy event."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setRootIsDecorated(False)
        self.setUniformRowHeights(True)
        self.setHeaderLabels([self.tr("Seq"), self.tr("Event"), self.tr("Summary")])
        self.setColumnWidth(0, 50)
        self.setColumnWidth(1, 130)

    def set_events(self, events: Sequence[StoredEvent]) -> int:
        """Show the proxy events of ``events``; returns how many there are."""
        self.clear()
        warning = QApplication.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning)
        items = []
        for event in proxy_events(events):
            summary, problems = self._summary(event.type, event.data)
            item = QTreeWidgetItem([str(event.seq), event.type[len(PREFIX) :], summary])
            if problems:
                item.setIcon(1, warning)
                tip = "\n".join(
                    f"{p.get('kind', '')} at {p.get('position', '')}: {p.get('message', '')}"
                    + (f"\n    {p['provider_error']}" if p.get("provider_error") else "")
                    for p in problems
                )
                for column in range(3):
                    item.setToolTip(column, tip)
            else:
                item.setToolTip(2, summary)
            items.append(item)
        self.addTopLevelItems(items)
        return len(items)

    def _summary(self, kind: str, data: dict[str, Any]) -> tuple[str, list[dict[str, Any]]]:
        """One line for an event, and the problems it reports (for the badge and tooltip)."""
        problems = [p for p in data.get("problems") or [] if isinstance(p, dict)]
        if kind == "proxy.request":
            text = self.tr(
                "{action} · {messages} messages ({new} new) · {problems} problem(s)"
            ).format(
                action=data.get("action", ""),
                messages=data.get("messages", 0),
                new=data.get("new_messages", 0),
                problems=len(problems),
            )
            return text, problems
        if kind == "proxy.response":
            text = self.tr("status {status} · {calls} call(s) · stop: {stop}").format(
                status=data.get("status", ""),
                calls=len(data.get("tool_calls") or []),
                stop=data.get("stop_reason") or "—",
            )
            if data.get("error"):
                text += f" · {data['error']}"
            return text, []
        if kind == "proxy.repaired":
            changes = data.get("changes") or []
            return self.tr("{count} change(s) before forwarding").format(count=len(changes)), []
        if kind == "proxy.refused":
            return self.tr("refused with status {status}").format(status=data.get("status")), []
        if kind == "proxy.revalidated":
            counts = data.get("counts") or {}
            text = ", ".join(f"{k} {v}" for k, v in counts.items())
            return f"{data.get('registry', '')} {data.get('version', '')}: {text}".strip(), []
        return "", problems
