"""Choose which operations of an OpenAPI document to import (issue #17).

A tree of the document's operations grouped by tag, a search box, Select
all / none, and a preview of the contract and HTTP target the current
operation becomes. The dialog only chooses: :meth:`OpenApiPickerDialog.selected`
is the ``(METHOD, path)`` set for :class:`studio.formats.openapi.ImportOptions`.
"""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.contract import tool_to_dict
from studio.formats import FormatError
from studio.formats.openapi import ImportOptions, Operation, import_openapi, list_operations

_OP_ROLE = Qt.ItemDataRole.UserRole
_UNTAGGED = QT_TRANSLATE_NOOP("OpenApiPickerDialog", "(no tag)")


class OpenApiPickerDialog(QDialog):
    """The operation picker.

    Args:
        document: The decoded OpenAPI document (:func:`studio.formats.openapi.read_document`).
        source: Its file name, for messages.
        parent: The owning window.
    """

    def __init__(self, document: dict[str, Any], source: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(self.tr("Import operations from {source}").format(source=source))
        self._document = document
        self._source = source
        self.operations = list_operations(document, source)

        self.search_edit = QLineEdit()
        self.search_edit.setPlaceholderText(self.tr("search method, path, operationId, summary"))
        self.search_edit.setClearButtonEnabled(True)
        self.all_button = QPushButton(self.tr("Select &all"))
        self.none_button = QPushButton(self.tr("Select &none"))
        top = QHBoxLayout()
        top.addWidget(self.search_edit, 1)
        top.addWidget(self.all_button)
        top.addWidget(self.none_button)

        self.tree = QTreeWidget()
        self.tree.setHeaderLabels([self.tr("Operation"), self.tr("Summary")])
        self.preview = QPlainTextEdit()
        self.preview.setReadOnly(True)
        self.preview.setPlaceholderText(self.tr("Select an operation to preview its contract"))
        splitter = QSplitter()
        splitter.addWidget(self.tree)
        splitter.addWidget(self.preview)

        self.count_label = QLabel()
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText(self.tr("Import"))
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(splitter, 1)
        layout.addWidget(self.count_label)
        layout.addWidget(self.buttons)

        self._fill()
        self.search_edit.textChanged.connect(self._filter)
        self.all_button.clicked.connect(lambda: self._check_visible(True))
        self.none_button.clicked.connect(lambda: self._check_visible(False))
        self.tree.itemChanged.connect(self._on_item_changed)
        self.tree.currentItemChanged.connect(self._on_current)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self._update_count()
        self.resize(960, 560)

    def _fill(self) -> None:
        groups: dict[str, QTreeWidgetItem] = {}
        self.tree.blockSignals(True)
        for op in self.operations:
            for tag in op.tags[:1] or (self.tr(str(_UNTAGGED)),):
                group = groups.get(tag)
                if group is None:
                    group = groups[tag] = QTreeWidgetItem(self.tree, [tag, ""])
                    group.setFlags(group.flags() | Qt.ItemFlag.ItemIsAutoTristate
                                   | Qt.ItemFlag.ItemIsUserCheckable)  # fmt: skip
                item = QTreeWidgetItem(group, [f"{op.method} {op.path}", op.summary])
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                item.setCheckState(0, Qt.CheckState.Checked)
                item.setData(0, _OP_ROLE, op)
                if op.deprecated:
                    item.setToolTip(0, "deprecated")
        self.tree.expandAll()
        self.tree.blockSignals(False)

    def _groups(self) -> list[QTreeWidgetItem]:
        groups = (self.tree.topLevelItem(i) for i in range(self.tree.topLevelItemCount()))
        return [g for g in groups if g is not None]

    def _children(self, group: QTreeWidgetItem) -> list[QTreeWidgetItem]:
        children = (group.child(j) for j in range(group.childCount()))
        return [c for c in children if c is not None]

    def _items(self) -> list[QTreeWidgetItem]:
        return [item for group in self._groups() for item in self._children(group)]

    def selected(self) -> frozenset[tuple[str, str]]:
        """The checked operations as ``(METHOD, path)`` pairs."""
        return frozenset(
            (op.method, op.path)
            for item in self._items()
            if item.checkState(0) == Qt.CheckState.Checked
            for op in [item.data(0, _OP_ROLE)]
        )

    def options(self) -> ImportOptions:
        """Import options that keep exactly the checked operations."""
        return ImportOptions(operations=self.selected())

    def _filter(self, text: str) -> None:
        needle = text.strip().lower()
        for group in self._groups():
            shown = 0
            for item in self._children(group):
                op: Operation = item.data(0, _OP_ROLE)
                hay = f"{op.method} {op.path} {op.operation_id} {op.summary}".lower()
                item.setHidden(bool(needle) and needle not in hay)
                shown += not item.isHidden()
            group.setHidden(shown == 0)

    def _check_visible(self, checked: bool) -> None:
        state = Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked
        self.tree.blockSignals(True)
        for item in self._items():
            if not item.isHidden():
                item.setCheckState(0, state)
        self.tree.blockSignals(False)
        self._update_count()

    def _on_item_changed(self, *_args: object) -> None:
        self._update_count()

    def _update_count(self) -> None:
        count = len(self.selected())
        self.count_label.setText(
            self.tr("{count} of {total} operations selected").format(
                count=count, total=len(self.operations)
            )
        )
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(count > 0)

    def _on_current(self, item: QTreeWidgetItem | None, _previous: object = None) -> None:
        op = item.data(0, _OP_ROLE) if item is not None else None
        if not isinstance(op, Operation):
            self.preview.clear()
            return
        self.preview.setPlainText(self.preview_text(op))

    def preview_text(self, op: Operation) -> str:
        """The contract and HTTP target ``op`` becomes, with its notes, as text."""
        try:
            imported = import_openapi(
                self._document, self._source,
                options=ImportOptions(operations=frozenset({(op.method, op.path)})),
            )  # fmt: skip
        except FormatError as exc:
            return QCoreApplication.translate(
                "OpenApiPickerDialog", "Cannot import this operation: {error}"
            ).format(error=exc)
        tools = imported.result.registry.tools
        if not tools:
            return QCoreApplication.translate(
                "OpenApiPickerDialog", "This operation gives no tool."
            )
        tool = tools[0]
        parts = [
            json.dumps(tool_to_dict(tool), ensure_ascii=False, indent=2),
            QCoreApplication.translate("OpenApiPickerDialog", "HTTP target:"),
            json.dumps(imported.targets.get(tool.name), ensure_ascii=False, indent=2),
        ]
        notes = [str(n) for n in imported.result.notes if n.path.startswith(op.where)]
        if notes:
            parts += [QCoreApplication.translate("OpenApiPickerDialog", "Notes:"), *notes]
        return "\n".join(parts)
