"""One eval case edited as JSON, checked as you type, problems listed by JSON path.

The case's JSON is the file form (:func:`studio.evals.model.case_to_json`), so
what the author writes here is exactly one line of ``evals/<set>.jsonl``.
:func:`studio.evals.model.parse_case` validates it; each problem is listed
with its path (``expect.calls[0].tool: must name the expected tool``) and OK
stays disabled until there is none.
"""

from __future__ import annotations

import json
from collections.abc import Collection

from PySide6.QtCore import QTimer
from PySide6.QtGui import QColor, QFontDatabase
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QListWidget,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from studio.evals.model import CaseError, EvalCase, case_to_json, parse_case
from studio.ui.style import theme_colour

#: What a new case starts as: every part an author usually fills in.
NEW_CASE = {
    "id": "",
    "tags": ["en"],
    "user": "",
    "expect": {"kind": "tool", "calls": [{"tool": "", "args": {}}]},
}


def case_problems(text: str, taken_ids: Collection[str] = ()) -> tuple[EvalCase | None, list[str]]:
    """The case ``text`` holds, or the problems (``path: message``) that stop it."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return None, [f"line {exc.lineno}, column {exc.colno}: not JSON: {exc.msg}"]
    try:
        case = parse_case(data)
    except CaseError as exc:
        return None, [f"{p.path or '(case)'}: {p.message}" for p in exc.problems]
    if case.id in taken_ids:
        return None, [f"id: {case.id!r} is already used in this set"]
    return case, []


class CaseDialog(QDialog):
    """Add or edit one case.

    Args:
        case: The case to edit; None adds a new one.
        taken_ids: Ids other cases of the set use (a new id must differ).
        tools: The registry's tool names, listed as a hint.
    """

    def __init__(
        self,
        case: EvalCase | None = None,
        taken_ids: Collection[str] = (),
        tools: Collection[str] = (),
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Edit eval case") if case else self.tr("New eval case"))
        self.taken_ids = set(taken_ids)
        self.case: EvalCase | None = case
        hint = QLabel(
            self.tr(
                "One case as JSON: id, user, expect (kind tool, tools, no_tool or ask; calls "
                "with argument matchers by JSON path), must_not, tags, context."
            )
        )
        hint.setWordWrap(True)
        self.tools_label = QLabel(self.tr("Tools: {names}").format(names=", ".join(sorted(tools))))
        self.tools_label.setWordWrap(True)
        self.tools_label.setVisible(bool(tools))
        self.editor = QPlainTextEdit()
        self.editor.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        data = case_to_json(case) if case is not None else NEW_CASE
        self.editor.setPlainText(json.dumps(data, ensure_ascii=False, indent=2))
        self.problems = QListWidget()
        self.problems.setAccessibleName(self.tr("Problems"))
        self.problems.setMaximumHeight(self.fontMetrics().height() * 5 + 8)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(hint)
        layout.addWidget(self.tools_label)
        layout.addWidget(self.editor, 1)
        layout.addWidget(self.problems)
        layout.addWidget(self.buttons)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(150)
        self._timer.timeout.connect(self.validate)
        self.editor.textChanged.connect(self._timer.start)
        self.resize(560, 440)
        self.validate()

    def validate(self) -> list[str]:
        """Check the text now; the problems list and OK follow."""
        case, problems = case_problems(self.editor.toPlainText(), self.taken_ids)
        self.problems.clear()
        colour = theme_colour("error_fg", self)
        for problem in problems:
            self.problems.addItem(problem)
            self.problems.item(self.problems.count() - 1).setForeground(_qcolor(colour))
        if not problems:
            self.problems.addItem(self.tr("The case is valid."))
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setEnabled(case is not None)
        if case is not None:
            self.case = case
        return problems

    def accept(self) -> None:
        self._timer.stop()
        if self.validate():
            return
        super().accept()

    def stop_checking(self) -> None:
        """No more checks (the dialog is done; its store may close before it is deleted)."""
        self._timer.stop()
        self.editor.textChanged.disconnect(self._timer.start)

    def done(self, result: int) -> None:
        self._timer.stop()
        super().done(result)


def _qcolor(name: str) -> QColor:
    return QColor(name)
