"""The mock editor: each tool's canned responses as a form and as JSON, saved per registry.

Specs are read from and written to the registry's mock store
(:meth:`registry_db.sessions.SessionStore.mock_specs` / ``set_mock_specs``),
beside the draft and never inside a published version. Nothing is stored until
Save; closing with unsaved changes asks first. JSON that does not parse is kept
as typed with its line and column, and the editor will not switch tools, tabs
or responses (which would lose the text) until it parses.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from registry_db import StoreError
from registry_db.sessions import SessionStore
from studio.contract import ToolContract
from studio.runtime.http_targets import TemplateProblem, sample_arguments
from studio.runtime.mock_checks import check_tool_spec, choose_response
from studio.ui.playground.json_text import JsonTextWidget, problem_colour
from studio.ui.playground.mock_draft import DEFAULT, MockDraft, describe_response
from studio.ui.playground.mock_form import ResponseFormWidget
from studio.ui.widgets.unsaved import UnsavedPrompt, ask_unsaved

FORM_TAB, JSON_TAB = 0, 1
TOOL_ROLE = Qt.ItemDataRole.UserRole + 1


def where_label(where: str) -> str:
    """A check's JSON path numbered as the list shows it.

    ``responses[1].when[0]`` → ``response 2 › matcher 1``; ``default.status`` stays.
    """
    parts = []
    for part in where.split("."):
        m = re.fullmatch(r"(responses|when)\[(\d+)\]", part)
        if m:
            noun = "response" if m.group(1) == "responses" else "matcher"
            parts.append(f"{noun} {int(m.group(2)) + 1}")
        else:
            parts.append(part)
    return " › ".join(parts)


class MockEditorDialog(QDialog):
    """Canned responses of every tool of one registry.

    Args:
        registry: The registry whose mocks are edited.
        tools: Its tools (draft or the version on screen), for checks and samples.
        sessions: The store of mock specs.
        context: Session context values, for sample arguments of injected fields.
        tool: The tool shown first.
        ask: Asks about unsaved changes when the dialog is closed.
        parent: The Qt parent.

    Signals:
        saved(): Specs were stored (the sidebar reloads them for the next run).
    """

    saved = Signal()

    def __init__(
        self,
        registry: str,
        tools: Sequence[ToolContract],
        sessions: SessionStore,
        *,
        context: Mapping[str, Any] | None = None,
        tool: str | None = None,
        ask: UnsavedPrompt = ask_unsaved,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.registry = registry
        self.sessions = sessions
        self.context = dict(context or {})
        self._ask = ask
        self.tools = {t.name: t for t in tools}
        stored = sessions.mock_specs(registry)
        self.draft = MockDraft({k: v for k, v in stored.items() if k})
        self.current_tool = ""
        self._slots: list[int] = []
        self._tab = FORM_TAB
        self._last_row = -1  # the response the form shows (restored after a refused click)
        self.setWindowTitle(self.tr("Mock responses — {registry}").format(registry=registry))
        self.setObjectName("mockEditorDialog")

        self.tool_list = QListWidget()
        self.tool_list.setAccessibleName("Tools")
        names = [t.name for t in tools] + sorted(n for n in self.draft.specs if n not in self.tools)
        for name in names:
            item = QListWidgetItem(name)
            item.setData(TOOL_ROLE, name)
            self.tool_list.addItem(item)
        self.tool_list.setMinimumWidth(170)

        self.tool_label = QLabel()
        self.tool_label.setWordWrap(True)
        self.responses_list = QListWidget()
        self.responses_list.setAccessibleName("Responses")
        self.responses_list.setMaximumHeight(100)
        self.responses_list.setToolTip(
            self.tr(
                "Tried from the top: the first response whose matchers all hold answers; the "
                "default answers when none does. Bold: the one the Try arguments get."
            )
        )
        self.responses_list.setMinimumHeight(60)
        self.add_button = QPushButton(self.tr("Add"))
        self.add_button.setToolTip(self.tr("A response with a matcher, tried before the default"))
        self.duplicate_button = QPushButton(self.tr("Duplicate"))
        self.remove_button = QPushButton(self.tr("Remove"))
        self.up_button = QPushButton(self.tr("Up"))
        self.down_button = QPushButton(self.tr("Down"))
        self.add_default_button = QPushButton(self.tr("Add default"))
        response_buttons = QHBoxLayout()
        for b in (self.add_button, self.duplicate_button, self.remove_button, self.up_button,
                  self.down_button, self.add_default_button):  # fmt: skip
            response_buttons.addWidget(b)
        response_buttons.addStretch(1)
        self.form = ResponseFormWidget()
        # The form scrolls, so the dialog fits a small window.
        form_scroll = QScrollArea()
        form_scroll.setWidgetResizable(True)
        form_scroll.setFrameShape(QFrame.Shape.NoFrame)
        form_scroll.setWidget(self.form)
        form_tab = QWidget()
        fl = QVBoxLayout(form_tab)
        fl.addWidget(self.responses_list)
        fl.addLayout(response_buttons)
        fl.addWidget(form_scroll, 1)

        self.json_edit = JsonTextWidget()
        self.json_edit.setToolTip(
            self.tr(
                '{"responses": [{"when": [{"path": "category", "equals": "hotel"}], "body": …}], '
                '"default": {"body": …}}'
            )
        )
        json_tab = QWidget()
        jl = QVBoxLayout(json_tab)
        jl.addWidget(self.json_edit, 1)
        self.tabs = QTabWidget()
        self.tabs.addTab(form_tab, self.tr("Form"))
        self.tabs.addTab(json_tab, self.tr("JSON"))

        self.try_edit = JsonTextWidget()
        self.try_edit.editor.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.try_edit.setMaximumHeight(64)
        self.try_edit.setToolTip(
            self.tr("Arguments after the pipeline (aliases mapped, injected filled)")
        )
        self.try_label = QLabel()
        self.try_label.setWordWrap(True)
        self.try_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        try_row = QHBoxLayout()
        try_row.addWidget(QLabel(self.tr("&Try with:"), buddy=self.try_edit.editor))
        try_row.addWidget(self.try_edit, 2)
        try_row.addWidget(self.try_label, 3)

        right = QWidget()
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        rl.addWidget(self.tool_label)
        rl.addWidget(self.tabs, 1)
        rl.addLayout(try_row)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(self.tool_list)
        self.splitter.addWidget(right)
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([210, 800])

        self.problems_label = QLabel()
        self.problems_label.setWordWrap(True)
        self.problems_label.setTextFormat(Qt.TextFormat.RichText)
        self.problems_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Close
        )
        self.save_button = self.buttons.button(QDialogButtonBox.StandardButton.Save)
        layout = QVBoxLayout(self)
        layout.addWidget(self.splitter, 1)
        layout.addWidget(self.problems_label)
        layout.addWidget(self.buttons)

        self.tool_list.currentRowChanged.connect(self._tool_picked)
        self.responses_list.currentRowChanged.connect(self._response_picked)
        self.tabs.currentChanged.connect(self._tab_picked)
        self.form.changed.connect(self._form_changed)
        self.form.body_edit.edited.connect(self._update_state)
        self.json_edit.edited.connect(self._json_edited)
        self.try_edit.edited.connect(self._update_try)
        self.add_button.clicked.connect(self.add_response)
        self.duplicate_button.clicked.connect(self.duplicate_response)
        self.remove_button.clicked.connect(self.remove_response)
        self.up_button.clicked.connect(lambda: self.move_response(-1))
        self.down_button.clicked.connect(lambda: self.move_response(1))
        self.add_default_button.clicked.connect(self.add_default)
        self.buttons.accepted.connect(self.save)
        self.buttons.rejected.connect(self.reject)

        start = names.index(tool) if tool in names else 0
        if names:
            self.tool_list.setCurrentRow(start)
        self._update_state()

    # ------------------------------------------------------------------ queries

    def tool(self) -> ToolContract | None:
        return self.tools.get(self.current_tool)

    def current_slot(self) -> int | None:
        row = self.responses_list.currentRow()
        return self._slots[row] if 0 <= row < len(self._slots) else None

    def problems(self, tool: str | None = None) -> list[TemplateProblem]:
        name = self.current_tool if tool is None else tool
        if name not in self.draft.specs:
            return []
        return check_tool_spec(self.draft.spec(name), self.tools.get(name))

    def pending_problem(self) -> str:
        """Why the text being edited cannot be applied yet ("" when it can)."""
        if self._tab == JSON_TAB:
            if self.json_edit.pending():
                self.json_edit.commit()
            error = self.json_edit.error()
            if error:
                return f"the JSON does not parse ({error})"
            if not isinstance(self.json_edit.value(), dict):
                return 'the JSON must be an object: {"responses": [...], "default": {...}}'
            return ""
        if self.form.body_edit.pending():
            self.form.body_edit.commit()
        error = self.form.body_edit.error()
        return f"the body does not parse ({error})" if error else ""

    def is_dirty(self) -> bool:
        return self.draft.dirty() or bool(self.pending_problem())

    # ------------------------------------------------------------------ navigation

    def _refuse(self, problem: str) -> None:
        colour = problem_colour(self)
        self.problems_label.setText(
            self.tr(
                "<span style='color:{colour}'>✗ Fix it first: {value}. "
                "Your text is kept as typed.</span>"
            ).format(colour=colour, value=html.escape(problem))
        )

    def select_tool(self, name: str) -> bool:
        """Show ``name``'s mocks; False (and nothing changes) while text is invalid."""
        for row in range(self.tool_list.count()):
            if self.tool_list.item(row).data(TOOL_ROLE) == name:
                self.tool_list.setCurrentRow(row)
        return self.current_tool == name

    def _tool_picked(self, row: int) -> None:
        item = self.tool_list.item(row)
        name = item.data(TOOL_ROLE) if item else ""
        if name == self.current_tool:
            return
        problem = self.pending_problem() if self.current_tool else ""
        if problem:
            self._back_to_tool()
            self._refuse(problem)
            return
        self.current_tool = name
        tool = self.tool()
        sample = sample_arguments(tool, self.context) if tool else {}
        self.try_edit.set_text(json.dumps(sample, ensure_ascii=False))
        self._fill_responses(0)
        if self._tab == JSON_TAB:
            self.json_edit.set_value(self.draft.spec(name))
        self._update_state()

    def _back_to_tool(self) -> None:
        blocked = self.tool_list.blockSignals(True)
        for row in range(self.tool_list.count()):
            if self.tool_list.item(row).data(TOOL_ROLE) == self.current_tool:
                self.tool_list.setCurrentRow(row)
        self.tool_list.blockSignals(blocked)

    def _fill_responses(self, select: int | None) -> None:
        """Rebuild the response list and select slot ``select`` (or the first)."""
        self._slots = self.draft.slots(self.current_tool)
        blocked = self.responses_list.blockSignals(True)
        self.responses_list.clear()
        for slot in self._slots:
            self.responses_list.addItem(self._response_text(slot))
        row = self._slots.index(select) if select in self._slots else (0 if self._slots else -1)
        self.responses_list.setCurrentRow(row)
        self.responses_list.blockSignals(blocked)
        self._show_slot()

    def _response_text(self, slot: int) -> str:
        response = self.draft.response(self.current_tool, slot)
        label = "default" if slot == DEFAULT else f"{slot + 1}."
        return f"{label} {describe_response(response)}"

    def _show_slot(self) -> None:
        slot = self.current_slot()
        if slot is None:
            self.form.show_response(None)
        else:
            response = self.draft.response(self.current_tool, slot)
            self.form.show_response(response, default=slot == DEFAULT)

    def _response_picked(self, row: int) -> None:
        if row < 0:
            return
        problem = self.form.body_edit.error()
        if problem and self.form.isEnabled():
            blocked = self.responses_list.blockSignals(True)
            self.responses_list.setCurrentRow(self._last_row)
            self.responses_list.blockSignals(blocked)
            self._refuse(f"the body does not parse ({problem})")
            return
        self._show_slot()
        self._update_state()

    def _tab_picked(self, index: int) -> None:
        if index == self._tab:
            return
        problem = self.pending_problem()
        if problem:
            blocked = self.tabs.blockSignals(True)
            self.tabs.setCurrentIndex(self._tab)
            self.tabs.blockSignals(blocked)
            self._refuse(problem)
            return
        self._tab = index
        if index == JSON_TAB:
            self.json_edit.set_value(self.draft.spec(self.current_tool))
        else:
            self._fill_responses(self.current_slot())
        self._update_state()

    # ------------------------------------------------------------------ edits

    def _form_changed(self, response: dict[str, Any]) -> None:
        slot = self.current_slot()
        if slot is None:
            return
        self.draft.set_response(self.current_tool, slot, response)
        item = self.responses_list.currentItem()
        if item is not None:
            item.setText(self._response_text(slot))
        self._update_state()

    def _json_edited(self) -> None:
        if self.json_edit.error():
            self._update_state()
            return
        value = self.json_edit.value()
        if isinstance(value, dict):
            self.draft.set_spec(self.current_tool, value)
            self._slots = self.draft.slots(self.current_tool)
        self._update_state()

    def _new_response(self) -> dict[str, Any]:
        tool = self.tool()
        sample = sample_arguments(tool, self.context) if tool else {}
        injected = tool.injected_properties() if tool else {}
        path = next((k for k in sample if k not in injected), None)
        when = [{"path": path, "equals": sample[path]}] if path is not None else []
        return {"when": when, "body": {}} if when else {"body": {}}

    def _edit_allowed(self) -> bool:
        problem = self.pending_problem()
        if problem:
            self._refuse(problem)
        return not problem and bool(self.current_tool)

    def add_response(self) -> None:
        """Append a response (matching the sample's first argument) before the default."""
        if self._edit_allowed():
            slot = self.draft.add_response(self.current_tool, self._new_response())
            self._fill_responses(slot)
            self._update_state()

    def add_default(self) -> None:
        if self._edit_allowed() and not self.draft.has_default(self.current_tool):
            self.draft.add_default(self.current_tool, {"body": {}})
            self._fill_responses(DEFAULT)
            self._update_state()

    def duplicate_response(self) -> None:
        slot = self.current_slot()
        if slot is None or not self._edit_allowed():
            return
        response = self.draft.response(self.current_tool, slot)
        new = self.draft.add_response(self.current_tool, response if isinstance(response, dict)
                                      else {})  # fmt: skip
        self._fill_responses(new)
        self._update_state()

    def remove_response(self) -> None:
        slot = self.current_slot()
        if slot is None:
            return
        self.draft.remove(self.current_tool, slot)
        # Removing discards the form's text too, valid or not.
        self.form.body_edit.set_value()
        self._fill_responses(slot if slot in self.draft.slots(self.current_tool) else slot - 1)
        self._update_state()

    def move_response(self, step: int) -> None:
        slot = self.current_slot()
        if slot is None or not self._edit_allowed():
            return
        self._fill_responses(self.draft.move(self.current_tool, slot, step))
        self._update_state()

    # ------------------------------------------------------------------ state

    def _update_state(self) -> None:
        self._last_row = self.responses_list.currentRow()
        for row in range(self.tool_list.count()):
            item = self.tool_list.item(row)
            name = item.data(TOOL_ROLE)
            item.setText(self._tool_text(name))
            font = item.font()
            font.setBold(self.draft.dirty(name))
            item.setFont(font)
        tool = self.tool()
        if self.current_tool:
            where = (
                f"{tool.risk.value} · timeout {tool.execution.timeout_seconds:g} s"
                if tool
                else "not in the registry shown: these mocks are never used by it"
            )
            self.tool_label.setText(
                self.tr("<b>{value}</b> — {where}").format(
                    value=html.escape(self.current_tool), where=where
                )
            )
        slot = self.current_slot()
        in_form = self._tab == FORM_TAB
        for b in (self.add_button, self.add_default_button):
            b.setEnabled(in_form and bool(self.current_tool))
        self.add_default_button.setEnabled(
            in_form and bool(self.current_tool) and not self.draft.has_default(self.current_tool)
        )
        for b in (self.duplicate_button, self.remove_button):
            b.setEnabled(in_form and slot is not None)
        self.up_button.setEnabled(in_form and slot is not None and slot > 0)
        last = len(self.draft.responses(self.current_tool)) - 1
        self.down_button.setEnabled(in_form and slot is not None and 0 <= slot < last)
        self._show_problems()
        self._update_try()
        dirty = self.draft.dirty()
        self.setWindowTitle(
            self.tr("Mock responses — {registry}{value}").format(
                registry=self.registry, value=" *" if dirty else ""
            )
        )
        errors = any(
            p.severity == "error" for name in self.draft.specs for p in self.problems(name)
        )
        self.save_button.setEnabled(dirty and not errors and not self._text_error())

    def _text_error(self) -> str:
        if self._tab == JSON_TAB:
            return self.json_edit.error()
        return self.form.body_edit.error()

    def _tool_text(self, name: str) -> str:
        spec = self.draft.specs.get(name)
        if spec is None:
            summary = "no mocks"
        else:
            n = len(self.draft.responses(name))
            parts = [f"{n} response{'s' if n != 1 else ''}"] if n else []
            if self.draft.has_default(name):
                parts.append("default")
            summary = " + ".join(parts) or "empty"
        errors = any(p.severity == "error" for p in self.problems(name))
        mark = "✗ " if errors else ("• " if self.draft.dirty(name) else "")
        suffix = "" if name in self.tools else " (not in registry)"
        return f"{mark}{name}{suffix}\n    {summary}"

    def _show_problems(self) -> None:
        text_error = self._text_error()
        lines = []
        if text_error:
            what = "JSON" if self._tab == JSON_TAB else "body"
            colour = problem_colour(self)
            lines.append(f"<span style='color:{colour}'>✗ The {what} does not parse: "
                         f"{html.escape(text_error)} (kept as typed)</span>")  # fmt: skip
        for p in self.problems():
            mark = "✗" if p.severity == "error" else "⚠"
            colour = problem_colour(self, p.severity)
            text = f"{where_label(p.where)}: {p.message}"
            lines.append(f"<span style='color:{colour}'>{mark} {html.escape(text)}</span>")
        if not lines:
            state = "unsaved changes" if self.draft.dirty() else "saved"
            lines.append(f"✓ No problems ({state}).")
        self.problems_label.setText("<br>".join(lines))

    def _update_try(self) -> None:
        name = self.current_tool
        for row in range(self.responses_list.count()):
            item = self.responses_list.item(row)
            font = QFont(item.font())
            font.setBold(False)
            item.setFont(font)
        if not name or name not in self.draft.specs:
            self.try_label.setText(self.tr("No mocks: a call gets NO_MOCK_RESPONSE (501)."))
            return
        if self.try_edit.error():
            self.try_label.setText(
                self.tr("The arguments do not parse ({value}).").format(value=self.try_edit.error())
            )
            return
        arguments = self.try_edit.value()
        if not isinstance(arguments, dict):
            self.try_label.setText(self.tr("Arguments are a JSON object."))
            return
        if any(p.severity == "error" for p in self.problems()):
            self.try_label.setText(self.tr("Fix the errors to try the responses."))
            return
        label, body = choose_response(self.draft.spec(name), arguments)
        if not label:
            self.try_label.setText(
                self.tr("No response matches: the call gets NO_MOCK_RESPONSE (404).")
            )
            return
        slot = DEFAULT if label == "default" else int(label.split("[")[1].rstrip("]"))
        if slot in self._slots:
            item = self.responses_list.item(self._slots.index(slot))
            font = QFont(item.font())
            font.setBold(True)
            item.setFont(font)
        response = self.draft.response(name, slot)
        if isinstance(response, dict) and response.get("fail"):
            outcome = describe_response(response).split(" → ", 1)[-1]
        else:
            outcome = json.dumps(body, ensure_ascii=False)
            outcome = outcome if len(outcome) < 200 else outcome[:199] + "…"
        self.try_label.setText(self.tr("→ {label}: {outcome}").format(label=label, outcome=outcome))

    # ------------------------------------------------------------------ save / close

    def save(self) -> bool:
        """Store every changed tool's spec (one transaction); refused while anything is wrong."""
        problem = self.pending_problem()
        if problem:
            self._refuse(problem)
            return False
        for name in self.draft.specs:
            if any(p.severity == "error" for p in self.problems(name)):
                self.select_tool(name)
                self._show_problems()
                return False
        changed, removed = self.draft.changes()
        try:
            self.sessions.set_mock_specs(self.registry, changed, remove=removed)
        except StoreError as exc:
            colour = problem_colour(self)
            self.problems_label.setText(
                self.tr("<span style='color:{colour}'>✗ Not saved: {value}</span>").format(
                    colour=colour, value=html.escape(str(exc))
                )
            )
            return False
        self.draft.mark_saved()
        self._update_state()
        self.saved.emit()
        return True

    def reject(self) -> None:
        """Close; with unsaved changes ask first (Save, Discard or Cancel)."""
        if self.is_dirty():
            answer = self._ask(self, f"the mock responses of {self.registry}")
            if answer == "cancel" or (answer == "save" and not self.save()):
                return
        super().reject()
