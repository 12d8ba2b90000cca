"""Repair…, Convert… and Trim… of one session: before | after, the changes, save or export.

The dialog adapts :mod:`studio.sessions.doctor`: it runs the chosen action
on the session's messages (again whenever an option changes), shows the
history before and after in two pairing views side by side, lists every
change (selecting one shows it in both views) and saves the result as a new
session linked to its source, or exports it in the provider's wire shape.
It is not modal; tests drive it through its widgets and methods.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from registry_db.sessions import SessionInfo, SessionStore
from studio.contract.token_count import exact_ready, exact_settled, preload
from studio.sessions import doctor
from studio.sessions.library import store_derived
from studio.sessions.model import Message
from studio.sessions.pairing import analyse_pairing
from studio.sessions.wire import WIRE_FORMATS, from_wire, to_wire
from studio.ui.playground.conversation import ConversationView
from studio.ui.sessions.prompts import SessionPrompts

ACTIONS = {
    "repair": QT_TRANSLATE_NOOP("DoctorDialog", "Repair"),
    "convert": QT_TRANSLATE_NOOP("DoctorDialog", "Convert"),
    "trim": QT_TRANSLATE_NOOP("DoctorDialog", "Trim"),
}
PROVIDER_TITLES = {
    "openai": QT_TRANSLATE_NOOP("DoctorDialog", "OpenAI chat"),
    "openai-responses": QT_TRANSLATE_NOOP("DoctorDialog", "OpenAI Responses"),
    "anthropic": QT_TRANSLATE_NOOP("DoctorDialog", "Anthropic messages"),
    "gemini": "Gemini",
}
_POSITION_ROLE = Qt.ItemDataRole.UserRole + 1


@dataclass(slots=True)
class DoctorOutcome:
    """What one run of an action produced (plain data, for the views and tests)."""

    messages: list[Message]
    lines: list[str] = field(default_factory=list)
    """Changes, notes and the token report, one per row of the changes list."""
    positions: list[int | None] = field(default_factory=list)
    """The input message each line is about (None: the whole session)."""
    meta: dict[str, object] = field(default_factory=dict)


def run_action(
    action: str,
    messages: Sequence[Message],
    *,
    provider: str = "openai",
    max_tokens: int = 8000,
    keep_system: bool = True,
    summary: str = "",
    token_profile: str | None = None,
) -> DoctorOutcome:
    """Run ``repair``, ``convert`` or ``trim`` on ``messages``.

    Args:
        token_profile: Trim counts tokens for this target (exact where its
            tokenizer is available); None: the estimate, labelled as one.
    """
    if action == "repair":
        fixed = doctor.repair(messages, provider)
        return DoctorOutcome(
            fixed.messages,
            [str(c) for c in fixed.changes],
            [c.position.message for c in fixed.changes],
            {"provider": provider, "changes": [c.to_dict() for c in fixed.changes]},
        )
    if action == "convert":
        converted = doctor.convert(messages, provider)
        back = from_wire(converted.document, provider)
        return DoctorOutcome(
            back,
            [
                QCoreApplication.translate("DoctorDialog", "note: {note}").format(note=n)
                for n in converted.notes
            ],
            [None] * len(converted.notes),
            {"provider": provider},
        )
    cut = doctor.trim(messages, max_tokens, keep_system=keep_system, summary=summary or None,
                      profile=token_profile if messages else None)  # fmt: skip
    lines = [str(c) for c in cut.changes]
    positions: list[int | None] = [c.position.message for c in cut.changes]
    numbers = {"kept": cut.kept_tokens, "total": cut.total_tokens, "dropped": cut.dropped,
               "cut_at": cut.cut_at, "method": cut.method}  # fmt: skip
    if cut.estimated:
        report = QCoreApplication.translate(
            "DoctorDialog",
            "kept {kept} of {total} tokens (estimated); "
            "{dropped} message(s) before messages[{cut_at}] dropped",
        )
    else:
        report = QCoreApplication.translate(
            "DoctorDialog",
            "kept {kept} of {total} tokens (counted with {method}); "
            "{dropped} message(s) before messages[{cut_at}] dropped",
        )
    lines.append(report.format(**numbers))
    positions.append(cut.cut_at if cut.cut_at < len(messages) else None)
    if not cut.fits:
        lines.append(
            QCoreApplication.translate(
                "DoctorDialog", "even the last safe tail needs {kept} tokens"
            ).format(kept=cut.kept_tokens)
        )
        positions.append(None)
    return DoctorOutcome(
        cut.messages,
        lines,
        positions,
        {
            "max_tokens": max_tokens,
            "kept_tokens": cut.kept_tokens,
            "total_tokens": cut.total_tokens,
            "tokens_counted_with": cut.method,
        },
    )


def _summary(messages: Sequence[Message]) -> str:
    problems = len(analyse_pairing(messages).problems)
    calls = sum(len(m.tool_calls) for m in messages)
    return QCoreApplication.translate(
        "DoctorDialog", "{messages} messages · {calls} calls · {problems} pairing problem(s)"
    ).format(messages=len(messages), calls=calls, problems=problems)


class DoctorDialog(QDialog):
    """Before | after of one doctor action on a session.

    Signals:
        saved: The id of the new session (linked to the source session).
    """

    saved = Signal(str)
    _tokenizer_loaded = Signal()
    """Emitted from the loading thread (queued: the trim runs again on the GUI thread)."""

    def __init__(
        self,
        action: str,
        messages: Sequence[Message],
        info: SessionInfo,
        sessions: SessionStore,
        prompts: SessionPrompts,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.action = action
        self.source = list(messages)
        self.info = info
        self.sessions = sessions
        self.prompts = prompts
        self.outcome = DoctorOutcome(self.source)
        self.setWindowTitle(
            self.tr("{action} — {session}").format(
                action=self.tr(str(ACTIONS[action])), session=info.title or info.id[:8]
            )
        )

        self.provider = QComboBox()
        for fmt in WIRE_FORMATS:
            self.provider.addItem(self.tr(str(PROVIDER_TITLES[fmt])), fmt)
        self.max_tokens = QSpinBox()
        self.max_tokens.setRange(1, 10_000_000)
        self.max_tokens.setSingleStep(500)
        self.max_tokens.setValue(8000)
        self.keep_system = QCheckBox(self.tr("Keep system messages"))
        self.keep_system.setChecked(True)
        self.summary = QLineEdit()
        self.summary.setPlaceholderText(self.tr("Optional: a summary standing for what is cut"))
        form = QFormLayout()
        if action == "trim":
            form.addRow(self.tr("Token budget"), self.max_tokens)
            form.addRow("", self.keep_system)
            form.addRow(self.tr("Summary"), self.summary)
            form.addRow(self.tr("Export as"), self.provider)
        else:
            form.addRow(
                self.tr("Provider") if action == "repair" else self.tr("Convert to"), self.provider
            )

        self.before = ConversationView()
        self.before.setAccessibleName(self.tr("Before"))
        self.after = ConversationView()
        self.after.setAccessibleName(self.tr("After"))
        self.before_label = QLabel()
        self.after_label = QLabel()
        self.changes = QListWidget()
        self.changes.setAccessibleName(self.tr("Changes"))
        self.changes.setMaximumHeight(self.fontMetrics().height() * 7 + 12)
        panes = QSplitter(Qt.Orientation.Horizontal)
        for label, view, heading in (
            (self.before_label, self.before, self.tr("Before")),
            (self.after_label, self.after, self.tr("After")),
        ):
            box = QWidget()
            layout = QVBoxLayout(box)
            layout.setContentsMargins(0, 0, 0, 0)
            title = QLabel(heading)
            title.setStyleSheet("font-weight: bold;")
            layout.addWidget(title)
            layout.addWidget(label)
            layout.addWidget(view, 1)
            panes.addWidget(box)

        self.save_button = QPushButton(self.tr("Save as new session"))
        self.save_button.setToolTip(self.tr("Store the result as a new session linked to this one"))
        self.export_button = QPushButton(self.tr("Export…"))
        self.export_button.setToolTip(
            self.tr("Write the result in the chosen provider's wire shape")
        )
        self.close_button = QPushButton(self.tr("Close"))
        self.status = QLabel()
        self.status.setWordWrap(True)
        buttons = QHBoxLayout()
        buttons.addWidget(self.status, 1)
        buttons.addWidget(self.save_button)
        buttons.addWidget(self.export_button)
        buttons.addWidget(self.close_button)

        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(panes, 1)
        changes_title = QLabel(self.tr("Changes"))
        changes_title.setStyleSheet("font-weight: bold;")
        layout.addWidget(changes_title)
        layout.addWidget(self.changes)
        layout.addLayout(buttons)
        self.resize(1100, 700)

        self.provider.currentIndexChanged.connect(self.run)
        self._tokenizer_loaded.connect(self.run)
        self.max_tokens.valueChanged.connect(self.run)
        self.keep_system.toggled.connect(self.run)
        self.summary.editingFinished.connect(self.run)
        self.changes.currentItemChanged.connect(self._on_change)
        self.save_button.clicked.connect(lambda: self.save())
        self.export_button.clicked.connect(lambda: self.export())
        self.close_button.clicked.connect(self.close)
        self.before.conversation.set_messages(self.source)
        self.before_label.setText(_summary(self.source))
        self.run()

    @property
    def target(self) -> str:
        return str(self.provider.currentData())

    def run(self, *_args: object) -> DoctorOutcome:
        """Run the action with the current options and show the result.

        Trim counts exactly once the target's tokenizer is loaded; until then it
        estimates (labelled so), loads it in the background and runs again.
        """
        token_profile = None
        if self.action == "trim":
            if exact_ready(self.target):
                token_profile = self.target
            elif not exact_settled(self.target):
                preload(self.target, self._tokenizer_loaded.emit)
        self.outcome = run_action(
            self.action,
            self.source,
            provider=self.target,
            max_tokens=self.max_tokens.value(),
            keep_system=self.keep_system.isChecked(),
            summary=self.summary.text().strip(),
            token_profile=token_profile,
        )
        self.after.conversation.set_messages(self.outcome.messages)
        self.after_label.setText(_summary(self.outcome.messages))
        self.changes.clear()
        lines = self.outcome.lines or [self.tr("No change needed: the history is already valid")]
        for i, line in enumerate(lines):
            item = QListWidgetItem(line)
            item.setToolTip(line)
            position = self.outcome.positions[i] if i < len(self.outcome.positions) else None
            item.setData(_POSITION_ROLE, position)
            self.changes.addItem(item)
        self._highlight_changed()
        self.status.setText("")
        return self.outcome

    def _highlight_changed(self) -> None:
        """Select the first changed message in both views (the pairing colours show the rest)."""
        first = next((p for p in self.outcome.positions if p is not None), None)
        if first is not None:
            self.changes.setCurrentRow(self.outcome.positions.index(first))

    def _on_change(self, item: QListWidgetItem | None, _previous: object = None) -> None:
        position = item.data(_POSITION_ROLE) if item is not None else None
        if position is None:
            return
        for view, index in (
            (self.before, position),
            (self.after, min(position, len(self.outcome.messages) - 1)),
        ):
            rows = [r for r, it in enumerate(view.conversation.items()) if it.message == index]
            if rows:
                view.select_row(rows[0])
                view.scrollTo(view.conversation.index(rows[0]))

    # ------------------------------------------------------------------ results

    def save(self) -> str:
        """Store the result as a new session linked to the source; returns its id."""
        title = f"{self.info.title or self.info.id[:8]} ({self.action})"
        info = store_derived(
            self.sessions,
            self.outcome.messages,
            source=self.action,
            parent=self.info,
            title=title,
            meta=dict(self.outcome.meta),
        )
        self.status.setText(self.tr("Saved as session {id}").format(id=info.id[:8]))
        self.saved.emit(info.id)
        return info.id

    def export(self) -> Path | None:
        """Write the result in the chosen provider's wire shape (asks for the file)."""
        suggested = f"session-{self.info.id[:8]}-{self.action}-{self.target}.json"
        path = self.prompts.export_path(self, self.target, suggested)
        if path is None:
            return None
        document = to_wire(self.outcome.messages, self.target)
        try:
            path.write_text(
                json.dumps(document, ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
            )
        except OSError as exc:
            self.prompts.error(
                self,
                self.tr("Not exported"),
                self.tr("Could not write {path}: {error}").format(path=path, error=exc),
            )
            return None
        self.status.setText(self.tr("Exported to {name}").format(name=path.name))
        return path
