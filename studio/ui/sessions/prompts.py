"""The questions the session browser asks (file choosers, confirmations); tests replace them."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication
from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from studio.ui.sessions.live import ProxySettings
from studio.ui.sessions.replay_model import ReplayChoice, ReplayOptions, choose_replay

EXPORT_TITLES = {
    "openai": QT_TRANSLATE_NOOP("SessionPrompts", "OpenAI chat"),
    "anthropic": QT_TRANSLATE_NOOP("SessionPrompts", "Anthropic messages"),
    "jsonl": "JSONL",
}


def export_title(fmt: str) -> str:
    """The shown name of an export format ("OpenAI chat")."""
    return QCoreApplication.translate("SessionPrompts", str(EXPORT_TITLES.get(fmt, fmt)))


class SessionPrompts:
    """Every method is modal and returns plain data (None: cancelled)."""

    def choose_log_file(self, parent: QWidget) -> Path | None:
        path, _ = QFileDialog.getOpenFileName(
            parent,
            QCoreApplication.translate("SessionPrompts", "Import a session log"),
            "",
            QCoreApplication.translate(
                "SessionPrompts", "Session logs (*.json *.jsonl *.traj);;All files (*)"
            ),
        )
        return Path(path) if path else None

    def export_path(self, parent: QWidget, fmt: str, suggested: str) -> Path | None:
        pattern = (
            QCoreApplication.translate("SessionPrompts", "JSON Lines (*.jsonl)")
            if fmt == "jsonl"
            else QCoreApplication.translate("SessionPrompts", "JSON (*.json)")
        )
        path, _ = QFileDialog.getSaveFileName(
            parent,
            QCoreApplication.translate("SessionPrompts", "Export session as {format}").format(
                format=export_title(fmt)
            ),
            suggested,
            pattern,
        )
        return Path(path) if path else None

    def confirm_replace_draft(self, parent: QWidget, registry: str) -> bool:
        answer = QMessageBox.question(
            parent,
            QCoreApplication.translate("SessionPrompts", "Replace the draft?"),
            QCoreApplication.translate(
                "SessionPrompts",
                "{registry} already exists. Replace its draft with the tools from the log? "
                "Published versions are kept.",
            ).format(registry=registry),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Cancel,
        )
        return answer == QMessageBox.StandardButton.Yes

    def choose_replay(self, parent: QWidget, options: ReplayOptions) -> ReplayChoice | None:
        """Replay as model: registry + version, and optionally a fork to a live profile."""
        return choose_replay(parent, options)

    def proxy_settings(self, parent: QWidget) -> ProxySettings | None:
        """Record proxy…: port, upstream, wire format and policy."""
        from studio.ui.sessions.proxy_dialog import ask_proxy_settings

        return ask_proxy_settings(parent)

    def error(self, parent: QWidget, title: str, text: str) -> None:
        QMessageBox.warning(parent, title, text)
