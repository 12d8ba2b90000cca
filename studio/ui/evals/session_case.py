"""Add as eval case: the user turn of a session step, with the calls it led to, into a set.

The case is made by :func:`studio.evals.from_sessions.cases_from_sessions` —
the same logic as ``studio eval from-sessions`` (arguments as matchers, the
runtime's injected fields left out, earlier turns and session context kept) —
and picked for the step the viewer shows: the step's own user turn, or the
last one before it. The author sees it as JSON, may loosen the matchers,
chooses a set (or names a new one), and it is validated and saved there.
"""

from __future__ import annotations

import contextlib
from dataclasses import replace
from typing import Any

from PySide6.QtWidgets import QComboBox, QFormLayout, QVBoxLayout, QWidget

from registry_db import ConflictError, NotFoundError, RegistryStore, StoreError
from studio.evals.jsonl import EvalSetError, check_set_name
from studio.evals.model import EvalCase, case_to_json
from studio.evals.store import EvalStore
from studio.sessions.model import Message, Role
from studio.ui.evals.case_dialog import CaseDialog, case_problems


class StepCaseError(ValueError):
    """No case can be made from this step (one line, shown to the author)."""


def user_turn_of(messages: list[Message], index: int) -> int:
    """The 1-based number of the user turn at or before message ``index`` (0: none)."""
    turn = found = 0
    for i, message in enumerate(messages):
        if message.role is Role.USER and message.text.strip():
            turn += 1
            if i <= index:
                found = turn
    return found


def case_for_step(store: RegistryStore, session_id: str, index: int) -> tuple[str, EvalCase]:
    """The session's registry and the case the user turn of step ``index`` yields.

    Raises:
        StepCaseError: the session names no registry, the step has no user turn
            before it, or that turn led to no tool call.
        NotFoundError: the session or its registry does not exist.
    """
    from registry_db.sessions import SessionStore
    from studio.evals.from_sessions import cases_from_sessions
    from studio.sessions.model import message_from_dict

    sessions = SessionStore.for_store(store)
    info = sessions.get_session(session_id)
    if not info.registry:
        raise StepCaseError(f"session {session_id} names no registry: a case belongs to one")
    messages = [message_from_dict(m) for m in sessions.messages(session_id)]
    turn = user_turn_of(messages, index)
    if not turn:
        raise StepCaseError("no user turn at or before this step")
    made = cases_from_sessions(store, info.registry, [session_id])
    wanted = f"{info.id[:8]}-t{turn}"
    for case in made.cases:
        if case.id == wanted:
            return info.registry, case
    raise StepCaseError(
        f"user turn {turn} of this session led to no tool call (or repeats an earlier turn): "
        "add a no_tool or ask case by hand in Evals"
    )


def _same(a: EvalCase, b: EvalCase) -> bool:
    """The same case apart from id, note and tags (what from-sessions merges)."""
    strip = ("id", "note", "tags")
    left = {k: v for k, v in case_to_json(a).items() if k not in strip}
    right = {k: v for k, v in case_to_json(b).items() if k not in strip}
    return left == right


class SessionCaseDialog(CaseDialog):
    """The case as JSON (editable) and the set it goes to; OK saves it there."""

    def __init__(
        self, store: RegistryStore, registry: str, case: EvalCase, parent: QWidget | None = None
    ) -> None:
        self.store, self.registry = store, registry
        self.evals = EvalStore(store)
        tools = [t.name for t in store.draft_registry(registry).tools]
        super().__init__(None, (), tools, parent)
        self.setWindowTitle(self.tr("Add as eval case"))
        self.editor.setPlainText(_pretty(case))
        self.set_combo = QComboBox()
        self.set_combo.setEditable(True)
        self.set_combo.setAccessibleName(self.tr("Eval set"))
        names = [s.name for s in self.evals.summaries(registry)]
        self.set_combo.addItems(names or ["core"])
        self.set_combo.currentTextChanged.connect(self._on_set)
        form = QFormLayout()
        form.addRow(self.tr("Add to set:"), self.set_combo)
        layout = self.layout()
        assert isinstance(layout, QVBoxLayout)
        layout.insertLayout(0, form)
        self.saved: tuple[str, EvalCase] | None = None
        self._on_set(self.set_combo.currentText())

    def _existing(self, name: str) -> list[EvalCase]:
        try:
            return list(self.evals.load(self.registry, name).cases)
        except (NotFoundError, EvalSetError):
            return []

    def _on_set(self, name: str) -> None:
        existing = self._existing(name.strip())
        self.taken_ids = {c.id for c in existing}
        case, _ = case_problems(self.editor.toPlainText())
        if (
            case is not None
            and case.id in self.taken_ids
            and not any(_same(c, case) for c in existing)
        ):
            # Another case of the set has this id: number this one (id-2, id-3…).
            n = 2
            while f"{case.id}-{n}" in self.taken_ids:
                n += 1
            self.editor.setPlainText(_pretty(replace(case, id=f"{case.id}-{n}")))
        self.validate()

    def validate(self) -> list[str]:
        problems = super().validate()
        name = self.set_combo.currentText().strip() if hasattr(self, "set_combo") else "core"
        extra = []
        if reason := check_set_name(name):
            extra.append(f"set: {reason}")
        else:
            case, _ = case_problems(self.editor.toPlainText())  # the ids aside
            twin = next((c for c in self._existing(name) if case and _same(c, case)), None)
            if twin is not None:
                problems = [p for p in problems if not p.startswith("id:")]
                extra.append(
                    self.tr("the set {name} has this case already: {id}").format(
                        name=name, id=twin.id
                    )
                )
        if extra:
            self.problems.clear()
            self.problems.addItems(problems + extra)
            ok = self.buttons.button(self.buttons.StandardButton.Ok)
            ok.setEnabled(False)
        return problems + extra

    def accept(self) -> None:
        if self.validate() or self.case is None:
            return
        name = self.set_combo.currentText().strip()
        stored = None
        with contextlib.suppress(NotFoundError):
            stored = self.evals.stored(self.registry, name)
        cases = [*self._existing(name), self.case]
        try:
            self.evals.save_cases(self.registry, name, cases,
                                  expected_revision=stored.revision if stored else 0)  # fmt: skip
        except (ConflictError, EvalSetError, StoreError) as exc:
            self.problems.clear()
            self.problems.addItem(str(exc))
            return
        self.saved = (name, self.case)
        super(CaseDialog, self).accept()


def _pretty(case: EvalCase) -> str:
    import json

    return json.dumps(case_to_json(case), ensure_ascii=False, indent=2)


def browser_of(viewer: QWidget) -> Any:
    """The Sessions page holding ``viewer`` (it knows the store and the session shown)."""
    widget = viewer.parentWidget()
    while widget is not None:
        if hasattr(widget, "store") and hasattr(widget, "info"):
            return widget
        widget = widget.parentWidget()
    return None


def step_index(viewer: Any) -> int:
    """The message the viewer is on: the selected conversation row, else the replay's step."""
    item = viewer.conversation.current_item()
    if item is not None and item.message is not None:
        return int(item.message)
    step = viewer.replay.current() if viewer.replay is not None else None
    return step.index if step is not None else len(viewer.messages) - 1


def add_case_from_viewer(viewer: Any, *, run_dialog: Any = None) -> tuple[str, EvalCase] | str:
    """The viewer's "Add as eval case…": the set and case saved, or why nothing was.

    ``run_dialog(dialog) -> bool`` shows the dialog (default: ``exec``); tests answer it.
    """
    browser = browser_of(viewer)
    info = getattr(browser, "info", None)
    if browser is None or info is None:
        return viewer.tr("Select a session first")
    try:
        registry, case = case_for_step(browser.store, info.id, step_index(viewer))
    except (StepCaseError, NotFoundError) as exc:
        return str(exc)
    dialog = SessionCaseDialog(browser.store, registry, case, viewer)
    shown = run_dialog(dialog) if run_dialog is not None else dialog.exec()
    saved = dialog.saved
    dialog.stop_checking()
    dialog.deleteLater()
    if not shown or saved is None:
        return viewer.tr("Nothing added")
    return saved
