"""The questions the session browser asks (file choosers, confirmations); tests replace them."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from studio.ui.sessions.replay_model import ReplayChoice, ReplayOptions, choose_replay

EXPORT_TITLES = {"openai": "OpenAI chat", "anthropic": "Anthropic messages", "jsonl": "JSONL"}


class SessionPrompts:
    """Every method is modal and returns plain data (None: cancelled)."""

    def choose_log_file(self, parent: QWidget) -> Path | None:
        path, _ = QFileDialog.getOpenFileName(
            parent,
            "Import a session log",
            "",
            "Session logs (*.json *.jsonl *.traj);;All files (*)",
        )
        return Path(path) if path else None

    def export_path(self, parent: QWidget, fmt: str, suggested: str) -> Path | None:
        pattern = "JSON Lines (*.jsonl)" if fmt == "jsonl" else "JSON (*.json)"
        path, _ = QFileDialog.getSaveFileName(
            parent, f"Export session as {EXPORT_TITLES.get(fmt, fmt)}", suggested, pattern
        )
        return Path(path) if path else None

    def confirm_replace_draft(self, parent: QWidget, registry: str) -> bool:
        answer = QMessageBox.question(
            parent,
            "Replace the draft?",
            f"{registry} already exists. Replace its draft with the tools from the log? "
            "Published versions are kept.",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Cancel,
        )
        return answer == QMessageBox.StandardButton.Yes

    def choose_replay(self, parent: QWidget, options: ReplayOptions) -> ReplayChoice | None:
        """Replay as model: registry + version, and optionally a fork to a live profile."""
        return choose_replay(parent, options)

    def error(self, parent: QWidget, title: str, text: str) -> None:
        QMessageBox.warning(parent, title, text)
