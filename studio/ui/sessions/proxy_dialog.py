"""Sessions → "Record proxy…": the port, upstream, wire format and policy of an in-process proxy.

The same choices as ``studio proxy --listen 127.0.0.1:PORT --upstream URL
--kind … --on-broken …``; the proxy always listens on 127.0.0.1. A bad
upstream is said in the dialog (one line) and the dialog stays open.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from studio.ui.sessions.live import KINDS, POLICIES, ProxySettings, check_upstream

_KIND_TITLES = {
    "openai-chat": QT_TRANSLATE_NOOP("ProxyDialog", "OpenAI Chat Completions"),
    "anthropic-messages": QT_TRANSLATE_NOOP("ProxyDialog", "Anthropic Messages"),
}
_POLICY_TITLES = {
    "forward": QT_TRANSLATE_NOOP("ProxyDialog", "Forward it anyway (record the provider's error)"),
    "repair": QT_TRANSLATE_NOOP("ProxyDialog", "Repair it, then forward (record the changes)"),
    "refuse": QT_TRANSLATE_NOOP("ProxyDialog", "Refuse it with the provider's error"),
}
_DEFAULT_UPSTREAMS = {
    "openai-chat": "https://api.openai.com/v1",
    "anthropic-messages": "https://api.anthropic.com",
}


class ProxyDialog(QDialog):
    """Asks for :class:`ProxySettings`; :meth:`settings` is None until accepted."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Record proxy"))
        self._settings: ProxySettings | None = None
        self.kind = QComboBox()
        for kind in KINDS:
            self.kind.addItem(
                QCoreApplication.translate("ProxyDialog", str(_KIND_TITLES[kind])), kind
            )
        self.upstream = QLineEdit(_DEFAULT_UPSTREAMS[KINDS[0]])
        self.upstream.setMinimumWidth(320)
        self.port = QSpinBox()
        self.port.setRange(0, 65535)
        self.port.setSpecialValueText(self.tr("any free port"))
        self.policy = QComboBox()
        for policy in POLICIES:
            self.policy.addItem(
                QCoreApplication.translate("ProxyDialog", str(_POLICY_TITLES[policy])), policy
            )
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: palette(highlight);")
        self.error.hide()
        note = QLabel(
            self.tr(
                "Point the agent at the proxy's address instead of its provider. It listens on "
                "127.0.0.1; the API key the agent sends is passed on, never stored."
            )
        )
        note.setWordWrap(True)

        form = QFormLayout()
        form.addRow(self.tr("Wire format"), self.kind)
        form.addRow(self.tr("Upstream URL"), self.upstream)
        form.addRow(self.tr("Port"), self.port)
        form.addRow(self.tr("Broken history"), self.policy)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText(self.tr("Start"))
        layout = QVBoxLayout(self)
        layout.addWidget(note)
        layout.addLayout(form)
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.kind.currentIndexChanged.connect(self._on_kind)

    def _on_kind(self, _index: int) -> None:
        # Swap a default upstream for the other provider's; keep one the user typed.
        if self.upstream.text().strip() in _DEFAULT_UPSTREAMS.values():
            self.upstream.setText(_DEFAULT_UPSTREAMS[str(self.kind.currentData())])

    def accept(self) -> None:
        try:
            upstream = check_upstream(self.upstream.text())
        except ValueError:
            self.error.setText(
                self.tr("The upstream must be an http(s) URL, not '{url}'").format(
                    url=self.upstream.text().strip()
                )
            )
            self.error.show()
            return
        self._settings = ProxySettings(
            upstream, str(self.kind.currentData()), self.port.value(),
            str(self.policy.currentData()),
        )  # fmt: skip
        super().accept()

    def settings(self) -> ProxySettings | None:
        return self._settings


def ask_proxy_settings(parent: QWidget) -> ProxySettings | None:
    """The modal question behind :meth:`SessionPrompts.proxy_settings`."""
    dialog = ProxyDialog(parent)
    return dialog.settings() if dialog.exec() == QDialog.DialogCode.Accepted else None
