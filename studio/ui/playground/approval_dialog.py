"""Approval of a risky call: one confirmation for ``write``, a typed phrase for ``destructive``.

:func:`ask_approval` opens the dialog without blocking (``open()``) and
awaits its answer on the asyncio loop, so the run pauses but the GUI does not.
"""

from __future__ import annotations

import asyncio
import json

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from studio.runtime.policy import ApprovalDecision, ApprovalRequest


class ApprovalDialog(QDialog):
    """Asks to approve one call.

    Args:
        request: The call waiting for approval; a non-empty ``phrase`` must be
            typed before Approve is enabled.
    """

    def __init__(self, request: ApprovalRequest, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.request = request
        risk = request.risk.value
        self.setWindowTitle(self.tr("Approve {tool}?").format(tool=request.tool))
        intro = QLabel(
            f"The model wants to run <b>{request.tool}</b> ({risk}). "
            + (
                f"This cannot be undone: type <code>{request.phrase}</code> to approve."
                if request.phrase
                else "Approve this call?"
            )
        )
        intro.setWordWrap(True)
        args = QPlainTextEdit(json.dumps(request.arguments, ensure_ascii=False, indent=2))
        args.setReadOnly(True)
        args.setMaximumHeight(160)
        self.phrase_edit = QLineEdit()
        self.phrase_edit.setPlaceholderText(request.phrase)
        self.phrase_edit.setVisible(bool(request.phrase))
        self.buttons = QDialogButtonBox()
        self.approve_button = self.buttons.addButton(
            "Approve", QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.deny_button = self.buttons.addButton("Deny", QDialogButtonBox.ButtonRole.RejectRole)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.phrase_edit.textChanged.connect(self._update)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(args)
        layout.addWidget(self.phrase_edit)
        layout.addWidget(self.buttons)
        self._update()

    def _update(self) -> None:
        ok = not self.request.phrase or self.phrase_edit.text() == self.request.phrase
        self.approve_button.setEnabled(ok)

    def decision(self) -> ApprovalDecision:
        if self.result() == QDialog.DialogCode.Accepted:
            return ApprovalDecision(True, self.phrase_edit.text())
        return ApprovalDecision(False, reason="denied in the playground")


async def ask_approval(parent: QWidget, request: ApprovalRequest) -> ApprovalDecision:
    """Show :class:`ApprovalDialog` and await the answer; cancelling the run closes it."""
    dialog = ApprovalDialog(request, parent)
    future: asyncio.Future[ApprovalDecision] = asyncio.get_running_loop().create_future()

    def done(_code: int) -> None:
        if not future.done():
            future.set_result(dialog.decision())

    dialog.finished.connect(done)
    dialog.open()
    try:
        return await future
    finally:
        dialog.finished.disconnect(done)
        dialog.close()
        dialog.deleteLater()
