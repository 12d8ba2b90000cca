"""The Contract tab: risk, execution policy, permissions, tags, deprecation and provider options."""

from __future__ import annotations

import dataclasses
from typing import Any

from PySide6.QtCore import QRegularExpression
from PySide6.QtGui import QRegularExpressionValidator
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QFrame,
    QGridLayout,
    QGroupBox,
    QLineEdit,
    QScrollArea,
    QSpinBox,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.contract.model import (
    Deprecation,
    Permission,
    RiskTier,
    TimeoutTier,
    ToolContract,
)
from studio.contract.provider_options import CALLERS
from studio.editing.edits import SetField
from studio.ui.widgets.field_markers import Markers, group_by, mark_widget
from studio.ui.widgets.form_sync import (
    ToolEditCallback,
    set_editable,
    show_checked,
    show_combo_data,
    show_line_text,
    show_number,
    split_list,
)
from studio.ui.widgets.overview_tables import SpecTableWidget

_RISK_TEXT = {
    RiskTier.READ: "read — no confirmation",
    RiskTier.WRITE: "write — one confirmation",
    RiskTier.DESTRUCTIVE: "destructive — user types a confirmation phrase",
}


class PermissionsTableWidget(SpecTableWidget):
    """Edits ``permissions``: the (role, scenario) pairs allowed to call the tool."""

    headers = ("Role", "Scenario")
    noun = "permission"

    def __init__(self, on_edit: ToolEditCallback, parent: QWidget | None = None) -> None:
        super().__init__(on_edit, parent)
        self._shown: tuple[Permission, ...] = ()
        self.table.setColumnWidth(0, 200)

    def show_permissions(self, permissions: tuple[Permission, ...]) -> None:
        """Show ``permissions`` unless the table already shows them."""
        self._shown = permissions
        if self.permissions() == permissions:
            return
        self._set_rows(
            [[QTableWidgetItem(p.role), QTableWidgetItem(p.scenario)] for p in permissions]
        )

    def permissions(self) -> tuple[Permission, ...]:
        """The permissions as the table shows them."""
        return tuple(
            Permission(self._text(r, 0), self._text(r, 1)) for r in range(self.table.rowCount())
        )

    def _commit(self) -> None:
        permissions = self.permissions()
        if permissions != self._shown:
            self._shown = permissions
            self._on_edit(SetField("permissions", permissions))

    def _add(self) -> None:
        self._on_edit(SetField("permissions", (*self._shown, Permission("*", "*"))))
        self._edit_last_row()


class ContractTabWidget(QScrollArea):
    """Edits how a tool may be called; every control pushes one ``SetField``.

    Args:
        on_edit: Called with each edit of the shown tool; the editor pushes it.
        parent: The Qt parent.
    """

    def __init__(self, on_edit: ToolEditCallback, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._on_edit = on_edit
        self._tool: ToolContract | None = None
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        body = QWidget(self)
        grid = QGridLayout(body)
        grid.addWidget(self._build_risk(body), 0, 0)
        grid.addWidget(self._build_catalog(body), 0, 1)
        grid.addWidget(self._build_execution(body), 1, 0)
        grid.addWidget(self._build_deprecation(body), 1, 1)
        box = QGroupBox(self.tr("Permissions (role, scenario; * matches any)"), body)
        self.permissions_table = PermissionsTableWidget(on_edit, box)
        QVBoxLayout(box).addWidget(self.permissions_table)
        grid.addWidget(box, 2, 0, 1, 2)
        grid.addWidget(self._build_provider(body), 3, 0, 1, 2)
        grid.setRowStretch(4, 1)
        grid.setColumnStretch(0, 1)
        grid.setColumnStretch(1, 1)
        self.setWidget(body)

    # ------------------------------------------------------------------ building

    def _build_risk(self, parent: QWidget) -> QGroupBox:
        box = QGroupBox(self.tr("Risk"), parent)
        form = QFormLayout(box)
        self.risk_combo = QComboBox(box)
        for tier in RiskTier:
            self.risk_combo.addItem(_RISK_TEXT[tier], tier.value)
        self.risk_combo.activated.connect(
            lambda _i: self._set("risk", RiskTier(self.risk_combo.currentData()))
        )
        form.addRow(self.tr("&Risk tier"), self.risk_combo)
        return box

    def _build_execution(self, parent: QWidget) -> QGroupBox:
        box = QGroupBox(self.tr("Execution"), parent)
        form = QFormLayout(box)
        self.timeout_tier_combo = QComboBox(box)
        for tier in TimeoutTier:
            self.timeout_tier_combo.addItem(tier.value, tier.value)
        self.timeout_tier_combo.activated.connect(
            lambda _i: self._execution(
                timeout_tier=TimeoutTier(self.timeout_tier_combo.currentData())
            )
        )
        self.timeout_spin = self._double(box, 0.1, 3600.0, " s")
        self.timeout_spin.valueChanged.connect(lambda v: self._execution(timeout_seconds=v))
        self.attempts_spin = QSpinBox(box)
        self.attempts_spin.setRange(1, 20)
        self.attempts_spin.setKeyboardTracking(False)
        self.attempts_spin.setToolTip(self.tr("Counts the first try: 1 means never retry"))
        self.attempts_spin.valueChanged.connect(lambda v: self._retry(max_attempts=v))
        self.backoff_base_spin = self._double(box, 0.0, 600.0, " s")
        self.backoff_base_spin.valueChanged.connect(lambda v: self._retry(backoff_base_seconds=v))
        self.backoff_cap_spin = self._double(box, 0.0, 3600.0, " s")
        self.backoff_cap_spin.valueChanged.connect(lambda v: self._retry(backoff_cap_seconds=v))
        self.idempotency_check = QCheckBox(self.tr("Idempotency key required"), box)
        self.idempotency_check.toggled.connect(lambda on: self._idempotency(required=on))
        self.key_template_edit = QLineEdit(box)
        self.key_template_edit.setPlaceholderText(
            self.tr("e.g. {session_id}:{message_id}:{tool}:{args_hash}")
        )
        self.key_template_edit.textEdited.connect(lambda t: self._idempotency(key_template=t))
        form.addRow(self.tr("Timeout &tier"), self.timeout_tier_combo)
        form.addRow(self.tr("Timeout"), self.timeout_spin)
        form.addRow(self.tr("Max &attempts"), self.attempts_spin)
        form.addRow(self.tr("Backoff base"), self.backoff_base_spin)
        form.addRow(self.tr("Backoff cap"), self.backoff_cap_spin)
        form.addRow("", self.idempotency_check)
        form.addRow(self.tr("&Key template"), self.key_template_edit)
        return box

    def _build_catalog(self, parent: QWidget) -> QGroupBox:
        box = QGroupBox(self.tr("Catalog"), parent)
        form = QFormLayout(box)
        self.tags_edit = QLineEdit(box)
        self.tags_edit.setPlaceholderText(self.tr("comma-separated, e.g. travel, invoices"))
        self.tags_edit.textEdited.connect(lambda t: self._set("tags", split_list(t)))
        self.domain_edit = QLineEdit(box)
        self.domain_edit.setPlaceholderText(self.tr("e.g. finance"))
        self.domain_edit.textEdited.connect(lambda t: self._set("domain", t))
        form.addRow(self.tr("Ta&gs"), self.tags_edit)
        form.addRow(self.tr("&Domain"), self.domain_edit)
        return box

    def _build_deprecation(self, parent: QWidget) -> QGroupBox:
        box = QGroupBox(self.tr("Deprecation"), parent)
        form = QFormLayout(box)
        self.deprecated_check = QCheckBox(self.tr("Deprecated"), box)
        self.deprecated_check.toggled.connect(
            lambda on: self._set("deprecated", Deprecation() if on else None)
        )
        self.replacement_edit = QLineEdit(box)
        self.replacement_edit.setPlaceholderText(self.tr("name of the tool to use instead"))
        self.replacement_edit.textEdited.connect(lambda t: self._deprecation(replacement=t))
        self.reason_edit = QLineEdit(box)
        self.reason_edit.textEdited.connect(lambda t: self._deprecation(reason=t))
        form.addRow("", self.deprecated_check)
        form.addRow(self.tr("Re&placement"), self.replacement_edit)
        form.addRow(self.tr("Reas&on"), self.reason_edit)
        return box

    def _build_provider(self, parent: QWidget) -> QGroupBox:
        """Options only some providers' tool definitions carry (issue #17; see
        :mod:`studio.contract.provider_options` for which provider keeps which)."""
        box = QGroupBox(self.tr("Provider"), parent)
        form = QFormLayout(box)
        self.strict_combo = self._tri_state(box)
        self.strict_combo.setToolTip(
            self.tr("strict: constrain arguments to the schema (OpenAI, Anthropic)")
        )
        self.strict_combo.activated.connect(
            lambda _i: self._provider(strict=_TRI[self.strict_combo.currentData()])
        )
        self.defer_check = QCheckBox(self.tr("Defer loading (found through tool search)"), box)
        self.defer_check.toggled.connect(lambda on: self._provider(defer_loading=on))
        self.input_examples_check = QCheckBox(
            self.tr("Send the example calls as input examples (Anthropic)"), box
        )
        self.input_examples_check.toggled.connect(lambda on: self._provider(input_examples=on))
        self.callers_edit = QLineEdit(box)
        self.callers_edit.setPlaceholderText(self.tr("e.g. direct, programmatic"))
        self.callers_edit.setToolTip(
            self.tr("Who may call the tool: {callers}").format(callers=", ".join(CALLERS))
        )
        self.callers_edit.editingFinished.connect(self._callers_edited)
        self.namespace_edit = QLineEdit(box)
        self.namespace_edit.setPlaceholderText(self.tr("e.g. crm (OpenAI Responses)"))
        self.namespace_edit.setValidator(
            QRegularExpressionValidator(QRegularExpression(r"[A-Za-z0-9_-]{0,64}"), box)
        )
        self.namespace_edit.textEdited.connect(lambda t: self._provider(namespace=t))
        self.eager_combo = self._tri_state(box)
        self.eager_combo.setToolTip(self.tr("Anthropic: stream the input as it is generated"))
        self.eager_combo.activated.connect(
            lambda _i: self._provider(eager_input_streaming=_TRI[self.eager_combo.currentData()])
        )
        form.addRow(self.tr("&Strict"), self.strict_combo)
        form.addRow("", self.defer_check)
        form.addRow("", self.input_examples_check)
        form.addRow(self.tr("Allowed &callers"), self.callers_edit)
        form.addRow(self.tr("&Namespace"), self.namespace_edit)
        form.addRow(self.tr("&Eager input streaming"), self.eager_combo)
        return box

    def _tri_state(self, parent: QWidget) -> QComboBox:
        combo = QComboBox(parent)
        combo.addItem(self.tr("provider default"), "default")
        combo.addItem(self.tr("on"), "on")
        combo.addItem(self.tr("off"), "off")
        return combo

    @staticmethod
    def _double(parent: QWidget, low: float, high: float, suffix: str) -> QDoubleSpinBox:
        spin = QDoubleSpinBox(parent)
        spin.setRange(low, high)
        spin.setDecimals(2)
        spin.setSuffix(suffix)
        spin.setKeyboardTracking(False)
        return spin

    # ------------------------------------------------------------------ model → view

    def show_tool(self, tool: ToolContract) -> None:
        """Show ``tool``, leaving controls that already show its values untouched."""
        self._tool = tool
        ex = tool.execution
        show_combo_data(self.risk_combo, tool.risk.value)
        show_combo_data(self.timeout_tier_combo, ex.timeout_tier.value)
        show_number(self.timeout_spin, ex.timeout_seconds)
        show_number(self.attempts_spin, ex.retry.max_attempts)
        show_number(self.backoff_base_spin, ex.retry.backoff_base_seconds)
        show_number(self.backoff_cap_spin, ex.retry.backoff_cap_seconds)
        show_checked(self.idempotency_check, ex.idempotency.required)
        show_line_text(self.key_template_edit, ex.idempotency.key_template)
        if split_list(self.tags_edit.text()) != tool.tags:
            show_line_text(self.tags_edit, ", ".join(tool.tags))
        show_line_text(self.domain_edit, tool.domain)
        dep = tool.deprecated
        show_checked(self.deprecated_check, dep is not None)
        show_line_text(self.replacement_edit, dep.replacement if dep else "")
        show_line_text(self.reason_edit, dep.reason if dep else "")
        self.permissions_table.show_permissions(tool.permissions)
        opts = tool.provider
        show_combo_data(self.strict_combo, _TRI_KEY[opts.strict])
        show_checked(self.defer_check, opts.defer_loading)
        show_checked(self.input_examples_check, opts.input_examples)
        if split_list(self.callers_edit.text()) != opts.allowed_callers:
            show_line_text(self.callers_edit, ", ".join(opts.allowed_callers))
        show_line_text(self.namespace_edit, opts.namespace)
        show_combo_data(self.eager_combo, _TRI_KEY[opts.eager_input_streaming])
        self._update_enabled()

    def set_read_only(self, read_only: bool) -> None:
        """Make every control read-only (a published version)."""
        self._read_only = read_only
        for widget in (
            self.risk_combo,
            self.timeout_tier_combo,
            self.timeout_spin,
            self.attempts_spin,
            self.backoff_base_spin,
            self.backoff_cap_spin,
            self.idempotency_check,
            self.key_template_edit,
            self.tags_edit,
            self.domain_edit,
            self.deprecated_check,
            self.replacement_edit,
            self.reason_edit,
            *self._provider_widgets(),
        ):
            set_editable(widget, not read_only)
        self.permissions_table.set_read_only(read_only)
        self._update_enabled()

    def _update_enabled(self) -> None:
        editable = not getattr(self, "_read_only", False)
        deprecated = self.deprecated_check.isChecked()
        self.replacement_edit.setEnabled(deprecated)
        self.reason_edit.setEnabled(deprecated)
        self.replacement_edit.setReadOnly(not editable)
        self.reason_edit.setReadOnly(not editable)

    # ------------------------------------------------------------------ lint markers

    def _widget_for(self, path: str) -> QWidget | None:
        """The control showing ``path`` (its nearest enclosing field)."""
        exact = {
            "risk": self.risk_combo,
            "execution.timeout_tier": self.timeout_tier_combo,
            "execution.timeout_seconds": self.timeout_spin,
            "execution.retry": self.attempts_spin,
            "execution.retry.max_attempts": self.attempts_spin,
            "execution.retry.backoff_base_seconds": self.backoff_base_spin,
            "execution.retry.backoff_cap_seconds": self.backoff_cap_spin,
            "execution.idempotency": self.idempotency_check,
            "execution.idempotency.required": self.idempotency_check,
            "execution.idempotency.key_template": self.key_template_edit,
            "execution": self.timeout_tier_combo,
            "tags": self.tags_edit,
            "domain": self.domain_edit,
            "deprecated": self.deprecated_check,
            "deprecated.replacement": self.replacement_edit,
            "deprecated.reason": self.reason_edit,
            "permissions": self.permissions_table.table,
            "provider": self.strict_combo,
            "provider.strict": self.strict_combo,
            "provider.defer_loading": self.defer_check,
            "provider.input_examples": self.input_examples_check,
            "provider.allowed_callers": self.callers_edit,
            "provider.namespace": self.namespace_edit,
            "provider.eager_input_streaming": self.eager_combo,
        }
        while path:
            if path in exact:
                return exact[path]
            path = path.rpartition(".")[0]
        return None

    def _markable(self) -> list[QWidget]:
        return [
            self.risk_combo,
            self.timeout_tier_combo,
            self.timeout_spin,
            self.attempts_spin,
            self.backoff_base_spin,
            self.backoff_cap_spin,
            self.idempotency_check,
            self.key_template_edit,
            self.tags_edit,
            self.domain_edit,
            self.deprecated_check,
            self.replacement_edit,
            self.reason_edit,
            self.permissions_table.table,
            *self._provider_widgets(),
        ]

    def _provider_widgets(self) -> list[QWidget]:
        return [
            self.strict_combo,
            self.defer_check,
            self.input_examples_check,
            self.callers_edit,
            self.namespace_edit,
            self.eager_combo,
        ]

    def set_markers(self, markers: Markers) -> None:
        """Mark the controls that have lint findings; clear the others."""
        by_widget = group_by(markers, self._widget_for)
        for widget in self._markable():
            mark_widget(widget, by_widget.get(widget, []))

    def focus_path(self, path: str) -> bool:
        """Scroll to and focus the control of ``path``; False when it has none here."""
        widget = self._widget_for(path)
        if widget is None:
            return False
        self.ensureWidgetVisible(widget)
        widget.setFocus()
        return True

    # ------------------------------------------------------------------ view → model

    def _set(self, field: str, value: object) -> None:
        if self._tool is not None and getattr(self._tool, field) != value:
            self._on_edit(SetField(field, value))

    def _execution(self, **changes: object) -> None:
        if self._tool is not None:
            self._set("execution", dataclasses.replace(self._tool.execution, **changes))

    def _retry(self, **changes: object) -> None:
        if self._tool is not None:
            retry = dataclasses.replace(self._tool.execution.retry, **changes)
            self._execution(retry=retry)

    def _idempotency(self, **changes: object) -> None:
        if self._tool is not None:
            idem = dataclasses.replace(self._tool.execution.idempotency, **changes)
            self._execution(idempotency=idem)

    def _deprecation(self, **changes: object) -> None:
        if self._tool is not None:
            current = self._tool.deprecated or Deprecation()
            self._set("deprecated", dataclasses.replace(current, **changes))

    def _provider(self, **changes: Any) -> None:
        if self._tool is not None:
            self._set("provider", dataclasses.replace(self._tool.provider, **changes))

    def _callers_edited(self) -> None:
        """Keep the callers the providers know; an unknown one is dropped from the field."""
        if self._tool is None or self.callers_edit.isReadOnly():
            return
        known = tuple(c for c in split_list(self.callers_edit.text()) if c in CALLERS)
        self._provider(allowed_callers=known)
        show_line_text(self.callers_edit, ", ".join(self._tool.provider.allowed_callers))


_TRI: dict[str, bool | None] = {"default": None, "on": True, "off": False}
_TRI_KEY: dict[bool | None, str] = {v: k for k, v in _TRI.items()}
