"""The form of one canned response: argument matchers, injected failure, latency, body.

Only what the user touches is written back: a field set to its default value
drops its key, every other key of the response (unknown ones included) stays
as it was, so an untouched response round-trips unchanged.
"""

from __future__ import annotations

import copy
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.runtime.mock_checks import OPERATORS
from studio.ui.playground.json_text import JsonTextWidget
from studio.ui.playground.mock_draft import (
    FAILURE_LABELS,
    RESPONSE_DEFAULTS,
    matcher_value_text,
    parse_matcher_value,
)

NO_RETRY_AFTER = -1.0


def _number(value: Any, default: float) -> float:
    number = isinstance(value, int | float) and not isinstance(value, bool)
    return float(value) if number else default


class ResponseFormWidget(QWidget):
    """Edits one response (a dict in the mocks format).

    Signals:
        changed(dict): The response after a user edit (a new dict each time).
    """

    changed = Signal(dict)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._response: dict[str, Any] = {}
        self._matchers: list[dict[str, Any]] = []
        self._loading = False

        self.note_label = QLabel()
        self.note_label.setWordWrap(True)
        self.matchers_table = QTableWidget(0, 3)
        self.matchers_table.setHorizontalHeaderLabels(["Argument path", "Operator", "Value"])
        self.matchers_table.verticalHeader().hide()
        header = self.matchers_table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.matchers_table.setColumnWidth(0, 130)
        self.matchers_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.matchers_table.setMinimumHeight(70)
        self.matchers_table.setToolTip(
            self.tr(
                "All matchers must hold. Path: an argument name, a.b or items[0]. Value: JSON "
                "(80, true, [..]) or plain text; a regex is searched in the value's text."
            )
        )
        self.add_matcher_button = QPushButton(self.tr("Add"))
        self.add_matcher_button.setToolTip(self.tr("Add a matcher (all matchers must hold)"))
        self.remove_matcher_button = QPushButton(self.tr("Remove"))
        self.remove_matcher_button.setToolTip(self.tr("Remove the selected matcher"))
        matcher_buttons = QVBoxLayout()
        matcher_buttons.addWidget(self.add_matcher_button)
        matcher_buttons.addWidget(self.remove_matcher_button)
        matcher_buttons.addStretch(1)
        self.matchers_box = QGroupBox(self.tr("When (all must hold)"))
        ml = QHBoxLayout(self.matchers_box)
        ml.addWidget(self.matchers_table, 1)
        ml.addLayout(matcher_buttons)

        self.fail_combo = QComboBox()
        for key, label in FAILURE_LABELS.items():
            self.fail_combo.addItem(label, key)
        self.status_spin = QSpinBox()
        self.status_spin.setRange(100, 599)
        self.error_code_edit = QLineEdit()
        self.error_code_edit.setPlaceholderText(
            self.tr("e.g. TICKET_NOT_FOUND (status 400 or more)")
        )
        self.latency_spin = QSpinBox()
        self.latency_spin.setRange(0, 600_000)
        self.latency_spin.setSingleStep(100)
        self.latency_spin.setSuffix(" ms")
        self.retry_after_spin = QDoubleSpinBox()
        self.retry_after_spin.setRange(NO_RETRY_AFTER, 3600)
        self.retry_after_spin.setDecimals(1)
        self.retry_after_spin.setSpecialValueText("not sent")
        self.retry_after_spin.setSuffix(" s")
        self.times_spin = QSpinBox()
        self.times_spin.setRange(0, 10_000)
        self.times_spin.setSpecialValueText("every match")
        self.times_spin.setToolTip(
            self.tr(
                "Apply to the first n matching calls only (then the next "
                "response is tried): fail once, then succeed"
            )
        )
        self.body_edit = JsonTextWidget(allow_empty=True)
        self.body_edit.editor.setPlaceholderText(
            self.tr(
                'The JSON the tool answers, e.g. {"ticket_id": "R-55821", "amount": "{amount}"}'
            )
        )
        self.body_edit.setToolTip(
            self.tr(
                'Strings "{arg}" and "{idempotency_key}" are filled in; a string that is exactly '
                '"{arg}" takes the argument\'s JSON value'
            )
        )
        outcome_box = QGroupBox(self.tr("Then"))
        form = QFormLayout(outcome_box)
        form.addRow(self.tr("&Failure"), self.fail_combo)
        status_row = QHBoxLayout()
        status_row.addWidget(self.status_spin)
        status_row.addWidget(QLabel(self.tr("error code")))
        status_row.addWidget(self.error_code_edit, 1)
        form.addRow(QLabel(self.tr("&Status"), buddy=self.status_spin), status_row)
        timing_row = QHBoxLayout()
        timing_row.addWidget(self.latency_spin)
        timing_row.addWidget(QLabel(self.tr("Retry-After")))
        timing_row.addWidget(self.retry_after_spin)
        timing_row.addWidget(QLabel(self.tr("times")))
        timing_row.addWidget(self.times_spin)
        form.addRow(QLabel(self.tr("&Latency"), buddy=self.latency_spin), timing_row)
        form.addRow(QLabel(self.tr("&Body"), buddy=self.body_edit.editor), self.body_edit)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.note_label)
        layout.addWidget(self.matchers_box, 1)
        layout.addWidget(outcome_box, 3)

        self.add_matcher_button.clicked.connect(self._add_matcher)
        self.remove_matcher_button.clicked.connect(self._remove_matcher)
        self.matchers_table.itemChanged.connect(self._matcher_edited)
        self.fail_combo.activated.connect(
            lambda _i: self._set("fail", self.fail_combo.currentData())
        )
        self.status_spin.valueChanged.connect(lambda v: self._set("status", v))
        self.error_code_edit.textEdited.connect(lambda t: self._set("error_code", t.strip()))
        self.latency_spin.valueChanged.connect(lambda v: self._set("latency_ms", v))
        self.retry_after_spin.valueChanged.connect(
            lambda v: self._set("retry_after", None if v <= NO_RETRY_AFTER else v)
        )
        self.times_spin.valueChanged.connect(lambda v: self._set("times", v or None))
        self.body_edit.edited.connect(self._body_edited)
        self.show_response(None)

    # ------------------------------------------------------------------ model → view

    def show_response(self, response: Any, *, default: bool = False) -> None:
        """Show ``response`` (None: nothing selected; not a dict: explained, not editable)."""
        self._loading = True
        try:
            editable = isinstance(response, dict)
            self._response = copy.deepcopy(response) if editable else {}
            self.setEnabled(editable)
            if response is None:
                self.note_label.setText(self.tr("Select a response, or add one."))
            elif not editable:
                self.note_label.setText(self.tr("This response is not a JSON object: fix it in the "
                                        "JSON view."))  # fmt: skip
            elif default:
                self.note_label.setText(self.tr("The default answers every call no response above "
                                        "matches."))  # fmt: skip
            else:
                self.note_label.clear()
            self.note_label.setVisible(bool(self.note_label.text()))
            self.matchers_box.setEnabled(editable and not default)
            r = self._response
            when = r.get("when")
            self._matchers = [copy.deepcopy(m) if isinstance(m, dict) else {"path": ""}
                              for m in (when if isinstance(when, list) else [])]  # fmt: skip
            self._fill_matchers()
            fail = r.get("fail") or ""
            index = self.fail_combo.findData(fail)
            self.fail_combo.setCurrentIndex(max(0, index))
            self.status_spin.setValue(int(_number(r.get("status"), 200)))
            self.error_code_edit.setText(str(r.get("error_code") or ""))
            self.latency_spin.setValue(int(_number(r.get("latency_ms"), 0)))
            retry_after = r.get("retry_after")
            self.retry_after_spin.setValue(_number(retry_after, NO_RETRY_AFTER))
            self.times_spin.setValue(int(_number(r.get("times"), 0)))
            if "body" in r:
                self.body_edit.set_value(r["body"])
            else:
                self.body_edit.set_value()
            self._update_enabled()
        finally:
            self._loading = False

    def _fill_matchers(self) -> None:
        table = self.matchers_table
        blocked = table.blockSignals(True)
        table.setRowCount(0)
        for m in self._matchers:
            self._insert_matcher_row(m)
        table.blockSignals(blocked)

    def _insert_matcher_row(self, matcher: dict[str, Any]) -> None:
        table = self.matchers_table
        row = table.rowCount()
        table.insertRow(row)
        op = next((o for o in OPERATORS if o in matcher), "equals")
        table.setItem(row, 0, QTableWidgetItem(str(matcher.get("path", ""))))
        combo = QComboBox()
        combo.addItems(list(OPERATORS))
        combo.setCurrentText(op)
        combo.activated.connect(lambda _i, c=combo: self._operator_picked(c))
        table.setCellWidget(row, 1, combo)
        table.setItem(row, 2, QTableWidgetItem(matcher_value_text(matcher.get(op, ""), op)))

    def _update_enabled(self) -> None:
        fail = self.fail_combo.currentData()
        self.status_spin.setEnabled(not fail)
        self.error_code_edit.setEnabled(not fail and self.status_spin.value() >= 400)
        self.retry_after_spin.setEnabled(fail == "429")

    # ------------------------------------------------------------------ view → model

    def response(self) -> dict[str, Any]:
        """The response as edited (a copy)."""
        return copy.deepcopy(self._response)

    def _set(self, key: str, value: Any) -> None:
        if self._loading:
            return
        if key in RESPONSE_DEFAULTS and value == RESPONSE_DEFAULTS[key]:
            self._response.pop(key, None)
        else:
            self._response[key] = value
        self._update_enabled()
        self.changed.emit(self.response())

    def _body_edited(self) -> None:
        if self._loading or self.body_edit.error():
            return  # invalid text stays in the editor; the dialog says where
        value = self.body_edit.value()
        if self.body_edit.is_empty():
            if "body" not in self._response:
                return
            self._response.pop("body")
        elif self._response.get("body", object()) == value:
            return
        else:
            self._response["body"] = value
        self.changed.emit(self.response())

    def _write_matchers(self) -> None:
        if self._matchers:
            self._response["when"] = copy.deepcopy(self._matchers)
        else:
            self._response.pop("when", None)
        self.changed.emit(self.response())

    def _row_operator(self, row: int) -> str:
        combo = self.matchers_table.cellWidget(row, 1)
        return combo.currentText() if isinstance(combo, QComboBox) else "equals"

    def _store_row(self, row: int) -> None:
        path_item = self.matchers_table.item(row, 0)
        value_item = self.matchers_table.item(row, 2)
        op = self._row_operator(row)
        matcher = {k: v for k, v in self._matchers[row].items() if k not in OPERATORS}
        matcher["path"] = path_item.text().strip() if path_item else ""
        matcher[op] = parse_matcher_value(value_item.text() if value_item else "", op)
        self._matchers[row] = matcher

    def _matcher_edited(self, item: QTableWidgetItem) -> None:
        if self._loading or not 0 <= item.row() < len(self._matchers):
            return
        self._store_row(item.row())
        self._write_matchers()

    def _operator_picked(self, combo: QComboBox) -> None:
        for row in range(self.matchers_table.rowCount()):
            if self.matchers_table.cellWidget(row, 1) is combo:
                self._store_row(row)
                self._write_matchers()
                return

    def add_matcher(self, path: str = "", op: str = "equals", value: Any = "") -> None:
        """Append a matcher row (and write it)."""
        matcher = {"path": path, op: value}
        self._matchers.append(matcher)
        blocked = self.matchers_table.blockSignals(True)
        self._insert_matcher_row(matcher)
        self.matchers_table.blockSignals(blocked)
        self._write_matchers()

    def _add_matcher(self) -> None:
        self.add_matcher()
        row = self.matchers_table.rowCount() - 1
        self.matchers_table.setCurrentCell(row, 0)
        self.matchers_table.editItem(self.matchers_table.item(row, 0))

    def _remove_matcher(self) -> None:
        row = self.matchers_table.currentRow()
        if not 0 <= row < len(self._matchers):
            return
        del self._matchers[row]
        self.matchers_table.removeRow(row)
        self._write_matchers()
