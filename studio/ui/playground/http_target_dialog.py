"""The HTTP target editor of one tool: method, URL, header and body templates, allow-list.

Every edit is checked (:func:`studio.runtime.http_targets.check_target`) and
rendered for sample arguments (:func:`~studio.runtime.http_targets.preview_request`),
so what a call will send is visible before it is sent. Nothing is stored until
Save; Save stays disabled while a problem is an error.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from registry_db import StoreError
from studio.contract import RiskTier, ToolContract
from studio.runtime import HttpTarget
from studio.runtime.http_targets import (
    BUILTIN_PLACEHOLDERS,
    METHODS,
    TemplateProblem,
    check_target,
    is_secret_header,
    placeholder_names,
    preview_request,
    sample_arguments,
    target_to_dict,
)
from studio.ui.playground.json_text import JsonTextWidget, dump, problem_colour
from studio.ui.widgets.unsaved import UnsavedPrompt, ask_unsaved

SaveTarget = Callable[[dict[str, Any], list[str], bool], None]
"""Stores (target JSON, allowed base URLs, use the http executor); raises StoreError."""
REFRESH_DELAY_MS = 150


def policy_text(tool: ToolContract) -> str:
    """The tool's tier, timeout and retry policy in one line."""
    execution = tool.execution
    if tool.risk is RiskTier.READ:
        attempts = execution.retry.max_attempts
        retry = (
            f"retried up to {attempts} attempts (backoff with jitter, Retry-After honoured)"
            if attempts > 1
            else "not retried"
        )
    else:
        retry = "never retried: a timeout is UNKNOWN, to look up by idempotency key"
    return (
        f"{tool.risk.value} · timeout {execution.timeout_seconds:g} s "
        f"({execution.timeout_tier.value} tier) · {retry}"
    )


def _env_name(tool: str) -> str:
    stem = "".join(ch if ch.isalnum() else "_" for ch in tool).strip("_").upper()
    return f"{stem or 'API'}_TOKEN"


class HttpTargetDialog(QDialog):
    """Edits ``tool``'s HTTP target and the registry's allowed base URLs.

    Args:
        tool: The tool the target serves (its parameters are the placeholders).
        target: The stored target (JSON form), or None for a new one.
        allowed: The registry's allowed base URLs.
        save: Stores the result (see :data:`SaveTarget`).
        context: Session context values, for the sample arguments of injected fields.
        use_http: Whether "use the http executor" starts ticked.
        ask: Asks about unsaved changes when the dialog is closed.
        parent: The Qt parent.
    """

    def __init__(
        self,
        tool: ToolContract,
        target: Mapping[str, Any] | None,
        allowed: Sequence[str],
        *,
        save: SaveTarget,
        context: Mapping[str, Any] | None = None,
        use_http: bool = True,
        ask: UnsavedPrompt = ask_unsaved,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.tool = tool
        self._save = save
        self._ask = ask
        self.saved = False
        self.setWindowTitle(self.tr("HTTP target — {name}").format(name=tool.name))
        self.setObjectName("httpTargetDialog")
        target = dict(target or {})

        self.policy_label = QLabel(
            self.tr("<b>{value}</b> — {value2}").format(
                value=html.escape(tool.name), value2=policy_text(tool)
            )
        )
        self.policy_label.setWordWrap(True)
        self.method_combo = QComboBox()
        self.method_combo.addItems(list(METHODS))
        self.method_combo.setAccessibleName("Method")
        default_method = "GET" if tool.risk is RiskTier.READ else "POST"
        self.method_combo.setCurrentText(str(target.get("method") or default_method).upper())
        self.url_edit = QLineEdit(str(target.get("url", "")))
        self.url_edit.setPlaceholderText(self.tr("https://api.example/tickets/{ticket_id}"))
        self.url_edit.setAccessibleName("URL template")
        if not self.url_edit.text() and allowed:
            self.url_edit.setText(allowed[0].rstrip("/") + "/")
        url_row = QHBoxLayout()
        url_row.addWidget(self.method_combo)
        url_row.addWidget(self.url_edit, 1)

        self.headers_table = QTableWidget(0, 2)
        self.headers_table.setHorizontalHeaderLabels(["Header", "Value template"])
        self.headers_table.verticalHeader().hide()
        self.headers_table.horizontalHeader().setSectionResizeMode(
            0, QHeaderView.ResizeMode.ResizeToContents
        )
        self.headers_table.horizontalHeader().setStretchLastSection(True)
        self.headers_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.headers_table.setMinimumHeight(90)
        for name, value in dict(target.get("headers") or {}).items():
            self._append_header(str(name), str(value))
        self.add_header_button = QPushButton(self.tr("Add header"))
        self.add_auth_button = QPushButton(self.tr("Add Authorization"))
        self.add_auth_button.setToolTip(
            self.tr(
                "Authorization: Bearer {env:NAME}: the token is read from the environment "
                "variable when a call is made and never stored"
            )
        )
        self.remove_header_button = QPushButton(self.tr("Remove"))
        header_buttons = QHBoxLayout()
        for b in (self.add_header_button, self.add_auth_button, self.remove_header_button):
            header_buttons.addWidget(b)
        header_buttons.addStretch(1)

        self.body_edit = JsonTextWidget(allow_empty=True)
        self.body_edit.editor.setPlaceholderText(
            self.tr(
                "Empty: POST, PUT and PATCH send the arguments as JSON; "
                "GET and DELETE send no body."
                '\nA template: {"ids": "{invoice_ids}", "note": "by {employee_id}"}'
            )
        )
        if "body" in target and target["body"] is not None:
            self.body_edit.set_value(target["body"])
        self.allowed_edit = QPlainTextEdit("\n".join(allowed))
        self.allowed_edit.setPlaceholderText(self.tr("https://api.example (one base URL per line)"))
        self.allowed_edit.setToolTip(
            self.tr("Every http tool of this registry may call only these")
        )
        self.allowed_edit.setFixedHeight(56)
        self.use_http_check = QCheckBox(
            self.tr("Run {name} on this target (executor: http)").format(name=tool.name)
        )
        self.use_http_check.setChecked(use_http)

        request_box = QGroupBox(self.tr("Request template"))
        form = QFormLayout(request_box)
        form.addRow(QLabel(self.tr("&URL"), buddy=self.url_edit), url_row)
        headers_col = QVBoxLayout()
        headers_col.addWidget(self.headers_table, 1)
        headers_col.addLayout(header_buttons)
        form.addRow(QLabel(self.tr("&Headers"), buddy=self.headers_table), headers_col)
        form.addRow(self.tr("&Body"), self.body_edit)
        form.addRow(self.tr("&Allowed base URLs\n(this registry)"), self.allowed_edit)
        form.addRow(self.use_http_check)

        self.placeholders_label = QLabel(self._placeholders_html())
        self.placeholders_label.setToolTip(self._placeholders_table())
        self.placeholders_label.setWordWrap(True)
        self.placeholders_label.setTextFormat(Qt.TextFormat.RichText)
        self.placeholders_label.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse
        )
        self.sample_edit = JsonTextWidget()
        self.sample_edit.set_value(sample_arguments(tool, context))
        self.sample_edit.setMaximumHeight(130)
        self.sample_edit.setToolTip(
            self.tr("Arguments as the pipeline hands them over (after aliases)")
        )
        self.preview_edit = QPlainTextEdit()
        self.preview_edit.setReadOnly(True)
        self.preview_edit.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.preview_edit.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.preview_edit.setAccessibleName("Request preview")
        self.env_label = QLabel()
        self.env_label.setWordWrap(True)
        preview_box = QGroupBox(self.tr("Placeholders, sample and preview"))
        pl = QVBoxLayout(preview_box)
        pl.addWidget(self.placeholders_label)
        pl.addWidget(QLabel(self.tr("Sample &arguments:"), buddy=self.sample_edit.editor))
        pl.addWidget(self.sample_edit)
        pl.addWidget(QLabel(self.tr("What a call sends:")))
        pl.addWidget(self.preview_edit, 1)
        pl.addWidget(self.env_label)

        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(request_box)
        self.splitter.addWidget(preview_box)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)

        self.problems_label = QLabel()
        self.problems_label.setWordWrap(True)
        self.problems_label.setTextFormat(Qt.TextFormat.RichText)
        self.problems_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        self.save_button = self.buttons.button(QDialogButtonBox.StandardButton.Save)
        layout = QVBoxLayout(self)
        layout.addWidget(self.policy_label)
        layout.addWidget(self.splitter, 1)
        layout.addWidget(self.problems_label)
        layout.addWidget(self.buttons)

        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(REFRESH_DELAY_MS)
        self._timer.timeout.connect(self.refresh)
        self.method_combo.currentTextChanged.connect(self._changed)
        self.url_edit.textChanged.connect(self._changed)
        self.headers_table.itemChanged.connect(self._changed)
        self.body_edit.editor.textChanged.connect(self._changed)
        self.sample_edit.editor.textChanged.connect(self._changed)
        self.allowed_edit.textChanged.connect(self._changed)
        self.use_http_check.toggled.connect(self._changed)
        self.add_header_button.clicked.connect(lambda: self._add_header("", ""))
        self.add_auth_button.clicked.connect(
            lambda: self._add_header("Authorization", f"Bearer {{env:{_env_name(tool.name)}}}")
        )
        self.remove_header_button.clicked.connect(self._remove_header)
        self.buttons.accepted.connect(self.save)
        self.buttons.rejected.connect(self.reject)
        self._initial = self._state()
        self.problems: list[TemplateProblem] = []
        self.refresh()

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        width = self.splitter.width()
        self.splitter.setSizes([int(width * 0.56), width - int(width * 0.56)])

    # ------------------------------------------------------------------ headers

    def _append_header(self, name: str, value: str) -> int:
        row = self.headers_table.rowCount()
        blocked = self.headers_table.blockSignals(True)
        self.headers_table.insertRow(row)
        self.headers_table.setItem(row, 0, QTableWidgetItem(name))
        self.headers_table.setItem(row, 1, QTableWidgetItem(value))
        self.headers_table.blockSignals(blocked)
        return row

    def _add_header(self, name: str, value: str) -> None:
        row = self._append_header(name, value)
        self._changed()
        self.headers_table.setCurrentCell(row, 0 if not name else 1)
        self.headers_table.editItem(self.headers_table.item(row, 0 if not name else 1))

    def _remove_header(self) -> None:
        rows = sorted({i.row() for i in self.headers_table.selectedIndexes()}, reverse=True)
        if not rows and self.headers_table.currentRow() >= 0:
            rows = [self.headers_table.currentRow()]
        for row in rows:
            self.headers_table.removeRow(row)
        self._changed()

    def header_rows(self) -> list[tuple[str, str]]:
        """(name, value) per table row, stripped, empty rows left out."""
        rows = []
        for row in range(self.headers_table.rowCount()):
            name_item = self.headers_table.item(row, 0)
            value_item = self.headers_table.item(row, 1)
            name = name_item.text().strip() if name_item else ""
            value = value_item.text().strip() if value_item else ""
            if name or value:
                rows.append((name, value))
        return rows

    # ------------------------------------------------------------------ state

    def allowed(self) -> list[str]:
        lines = self.allowed_edit.toPlainText().replace(",", "\n").splitlines()
        return [u.strip() for u in lines if u.strip()]

    def target(self) -> HttpTarget:
        """The target the fields describe; raises ValueError when the body JSON is invalid."""
        return HttpTarget(
            self.url_edit.text().strip(),
            self.method_combo.currentText(),
            dict(self.header_rows()),
            self.body_edit.value(),
        )

    def target_dict(self) -> dict[str, Any]:
        return target_to_dict(self.target())

    def _state(self) -> tuple[Any, ...]:
        return (
            self.method_combo.currentText(),
            self.url_edit.text().strip(),
            tuple(self.header_rows()),
            self.body_edit.text().strip(),
            tuple(self.allowed()),
            self.use_http_check.isChecked(),
        )

    def is_dirty(self) -> bool:
        return self._state() != self._initial

    def _changed(self, *_args: object) -> None:
        self._timer.start()

    def _placeholders_html(self) -> str:
        properties = self.tool.parameters.get("properties") or {}
        params = " ".join(f"<code>{{{html.escape(n)}}}</code>" for n in properties)
        builtins = " ".join(
            f"<code>{{{n}}}</code>" for n in BUILTIN_PLACEHOLDERS if n not in properties
        )
        injected = ", ".join(self.tool.injected_properties())
        note = f" ({html.escape(injected)} injected from the session)" if injected else ""
        return (
            f"<b>Placeholders</b> (hover for details): parameters {params or 'none'}{note}; "
            f"built-ins {builtins}; <code>{{env:NAME}}</code> in header values only, read "
            "from the environment when a call is made and never stored. URL values are "
            'percent-encoded; a body string that is exactly <code>"{name}"</code> takes '
            "the argument's JSON value."
        )

    def _placeholders_table(self) -> str:
        rows = "".join(
            f"<tr><td><code>{{{html.escape(n)}}}</code></td><td>{html.escape(d)}</td></tr>"
            for n, d in placeholder_names(self.tool).items()
        )
        return f"<table cellspacing='0' cellpadding='2'>{rows}</table>"

    # ------------------------------------------------------------------ checks

    def check(self) -> list[TemplateProblem]:
        """Every problem of the fields as they are (JSON errors included), errors first."""
        problems: list[TemplateProblem] = []
        body_error = self.body_edit.error()
        if body_error:
            problems.append(TemplateProblem("body", f"not valid JSON ({body_error})"))
        seen: dict[str, str] = {}
        for name, _value in self.header_rows():
            if not name:
                problems.append(TemplateProblem("headers", "a header row has a value but no name"))
            elif name.lower() in seen:
                problems.append(TemplateProblem(f"headers.{name}", "is given twice"))
            seen[name.lower()] = name
        target = HttpTarget(
            self.url_edit.text().strip(),
            self.method_combo.currentText(),
            {n: v for n, v in self.header_rows() if n},
            None if body_error else self.body_edit.value(),
        )
        problems += check_target(target, self.tool, self.allowed())
        problems.sort(key=lambda p: p.severity != "error")
        return problems

    def errors(self) -> list[TemplateProblem]:
        return [p for p in self.problems if p.severity == "error"]

    def refresh(self) -> None:
        """Check the fields, render the preview and enable Save accordingly."""
        self._timer.stop()
        self.problems = self.check()
        self._show_problems()
        self._show_preview()
        self.save_button.setEnabled(not self.errors())

    def _show_problems(self) -> None:
        if not self.problems:
            self.problems_label.setText(
                self.tr("✓ No problems: Save stores the target for this registry.")
            )
            self.problems_label.setStyleSheet("")
            return
        lines = []
        for p in self.problems:
            mark = "✗" if p.severity == "error" else "⚠"
            colour = problem_colour(self, p.severity)
            lines.append(f"<span style='color:{colour}'>{mark} {html.escape(str(p))}</span>")
        self.problems_label.setText("<br>".join(lines))

    def _show_preview(self) -> None:
        sample_error = self.sample_edit.error()
        if sample_error:
            self.preview_edit.setPlainText(f"The sample arguments are not valid JSON "
                                           f"({sample_error}).")  # fmt: skip
            self.env_label.clear()
            return
        sample = self.sample_edit.value()
        if not isinstance(sample, dict):
            self.preview_edit.setPlainText("The sample arguments must be a JSON object.")
            return
        try:
            target = self.target()
        except ValueError:
            self.preview_edit.setPlainText("Fix the body JSON to see the request.")
            return
        preview = preview_request(target, self.tool, sample, self.allowed())
        if preview.error:
            self.preview_edit.setPlainText(f"Not sent: {preview.error}")
        else:
            lines = [f"{preview.method} {preview.url}"]
            lines += [f"{k}: {v}" for k, v in preview.headers.items()]
            if preview.body is not None:
                lines += ["", dump(preview.body)]
            self.preview_edit.setPlainText("\n".join(lines))
        notes = []
        for name, is_set in preview.env_set.items():
            if is_set:
                notes.append(f"${name} is set here; its value is read when a call is made.")
            else:
                notes.append(f"<span style='color:{problem_colour(self, 'warning')}'>${name} "
                             "is not set here: calls fail with MISSING_SECRET until it is."
                             "</span>")  # fmt: skip
        secret_headers = [n for n, _v in self.header_rows() if is_secret_header(n)]
        if secret_headers and not notes:
            notes.append("Credential headers need an {env:NAME} reference.")
        self.env_label.setText("<br>".join(notes))
        self.env_label.setVisible(bool(notes))

    # ------------------------------------------------------------------ save / close

    def save(self) -> bool:
        """Store the target when it has no errors; True when stored (the dialog closes)."""
        self.refresh()
        if self.errors():
            return False
        try:
            self._save(self.target_dict(), self.allowed(), self.use_http_check.isChecked())
        except StoreError as exc:
            colour = problem_colour(self)
            self.problems_label.setText(
                self.tr("<span style='color:{colour}'>✗ Not saved: {value}</span>").format(
                    colour=colour, value=html.escape(str(exc))
                )
            )
            return False
        self.saved = True
        self._initial = self._state()
        self.accept()
        return True

    def reject(self) -> None:
        """Close; with unsaved changes ask first (Save, Discard or Cancel)."""
        if self.is_dirty() and not self.saved:
            answer = self._ask(self, f"the HTTP target of {self.tool.name}")
            if answer == "save":
                self.save()  # closes the dialog when it stores; stays open on problems
                return
            if answer == "cancel":
                return
        super().reject()
