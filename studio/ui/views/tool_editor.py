"""The tool editor: Overview, Parameters, Contract and JSON tabs over one tool.

The editor never changes the workspace itself. Every tab hands its edits to
:meth:`ToolEditorWidget._push_edit`, which wraps them in an ``EditTool``
command pushed onto the document's undo stack; the workspace's ``changed``
event then refreshes every tab, so undo/redo works across tabs.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QLabel, QStackedWidget, QTabWidget, QVBoxLayout, QWidget

from studio.contract.model import ToolContract
from studio.editing.edits import EditError, ToolEdit
from studio.editing.workspace import EditTool
from studio.ui.document import RegistryDocument
from studio.ui.widgets.contract_tab import ContractTabWidget
from studio.ui.widgets.field_markers import Markers, severity_icon, tab_for_path, worst
from studio.ui.widgets.json_highlighter import is_dark
from studio.ui.widgets.json_tab import JsonTabWidget
from studio.ui.widgets.overview_tab import OverviewTabWidget
from studio.ui.widgets.overview_tables import ERROR_COLOR
from studio.ui.widgets.parameters_tab import ParametersTabWidget

TAB_NAMES = ("overview", "parameters", "contract", "json")


class ToolEditorWidget(QWidget):
    """Edits the tool with a given workspace key of a :class:`RegistryDocument`.

    Args:
        parent: The Qt parent.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._document: RegistryDocument | None = None
        self._key: int | None = None
        self.markers: dict[str, list] = {}
        self.overview_tab = OverviewTabWidget(self._push_edit)
        self.parameters_tab = ParametersTabWidget(self._push_edit)
        self.contract_tab = ContractTabWidget(self._push_edit)
        self.json_tab = JsonTabWidget(self._push_edit)
        self._tabs_by_name = dict(
            zip(
                TAB_NAMES,
                (self.overview_tab, self.parameters_tab, self.contract_tab, self.json_tab),
                strict=True,
            )
        )
        self.tabs = QTabWidget(self)
        titles = {
            "overview": self.tr("Overview"),
            "parameters": self.tr("Parameters"),
            "contract": self.tr("Contract"),
            "json": "JSON",
        }
        self.tabs.setDocumentMode(True)
        for name, tab in self._tabs_by_name.items():
            self.tabs.addTab(tab, titles[name])
        self.empty_label = QLabel(self.tr("No tool selected"), self)
        self.empty_label.setEnabled(False)
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.read_only_label = QLabel(self)
        self.read_only_label.setContentsMargins(8, 4, 8, 4)
        self.read_only_label.hide()
        self.message_label = QLabel(self)
        self.message_label.setStyleSheet(f"color: {ERROR_COLOR.name()};")
        self.message_label.setWordWrap(True)
        self.message_label.hide()
        editor_page = QWidget(self)
        page_layout = QVBoxLayout(editor_page)
        page_layout.setContentsMargins(0, 0, 0, 0)
        page_layout.addWidget(self.read_only_label)
        page_layout.addWidget(self.tabs, 1)
        page_layout.addWidget(self.message_label)
        self.stack = QStackedWidget(self)
        self.stack.addWidget(self.empty_label)
        self.stack.addWidget(editor_page)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.stack)

    # ------------------------------------------------------------------ interface

    def set_tool(self, document: RegistryDocument | None, key: int | None) -> None:
        """Show the tool with workspace key ``key`` of ``document``, or the empty state."""
        if document is not self._document:
            self._disconnect()
            self._document = document
            if document is not None:
                events = document.workspace.events
                events.connect("changed", self._on_changed)
                events.connect("removed", self._on_removed)
                events.connect("reset", self._on_reset)
        self._key = key
        self._show_current(new_tool=True)

    def current_tab(self) -> str:
        """The shown tab: ``overview``, ``parameters``, ``contract`` or ``json``."""
        return TAB_NAMES[self.tabs.currentIndex()]

    def show_tab(self, name: str) -> None:
        """Switch to the tab called ``name`` (see :meth:`current_tab`)."""
        self.tabs.setCurrentIndex(TAB_NAMES.index(name))

    def focus_find(self) -> None:
        """Focus the main field of the current tab."""
        targets = {
            "overview": self.overview_tab.name_edit,
            "parameters": self.parameters_tab.view,
            "contract": self.contract_tab.risk_combo,
            "json": self.json_tab.editor,
        }
        targets[self.current_tab()].setFocus()

    def set_markers(self, markers: Markers) -> None:
        """Show the lint findings of the shown tool on its fields, by JSON path.

        Each tab marks the fields it shows; a tab with findings gets the icon of
        the worst one.
        """
        self.markers = dict(markers)
        per_tab: dict[str, dict[str, list]] = {}
        for path, findings in markers.items():
            per_tab.setdefault(tab_for_path(path), {})[path] = list(findings)
        for name in ("overview", "parameters", "contract"):
            tab_markers = per_tab.get(name, {})
            self._tabs_by_name[name].set_markers(tab_markers)  # type: ignore[attr-defined]
            severity = worst(f for fs in tab_markers.values() for f in fs)
            i = TAB_NAMES.index(name)
            self.tabs.setTabIcon(i, severity_icon(severity) if severity else QIcon())
            count = sum(len(fs) for fs in tab_markers.values())
            tip = (
                self.tr("{count} lint finding") if count == 1 else self.tr("{count} lint findings")
            )
            self.tabs.setTabToolTip(i, tip.format(count=count))

    def focus_path(self, path: str) -> None:
        """Show the tab of a finding's ``path`` and focus its field (or row)."""
        name = tab_for_path(path)
        self.show_tab(name)
        self._tabs_by_name[name].focus_path(path)  # type: ignore[attr-defined]

    def tool(self) -> ToolContract | None:
        """The shown tool, or None."""
        if self._document is None or self._key is None:
            return None
        try:
            return self._document.workspace.entry(self._key).tool
        except KeyError:
            return None

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange:
            # The JSON tab reads its inner editor's palette, which Qt updates after
            # the tab's own event: a theme switch left light JSON colours on dark.
            # Once every child has its new palette, the colours follow.
            QTimer.singleShot(0, self._follow_palette)
        super().changeEvent(event)

    def _follow_palette(self) -> None:
        self.json_tab.highlighter.set_dark(is_dark(self.palette()))
        # A marked field holds its own palette (the theme's base tinted by the
        # finding's severity): tint it again from the new theme.
        self.set_markers(self.markers)

    # ------------------------------------------------------------------ internals

    def _disconnect(self) -> None:
        if self._document is not None:
            events = self._document.workspace.events
            events.disconnect("changed", self._on_changed)
            events.disconnect("removed", self._on_removed)
            events.disconnect("reset", self._on_reset)

    def _show_current(self, *, new_tool: bool = False) -> None:
        tool = self.tool()
        if tool is None:
            self._key = None
            self.stack.setCurrentWidget(self.empty_label)
            return
        assert self._document is not None
        read_only = self._document.read_only
        version = self._document.workspace.read_only_version
        self.read_only_label.setText(
            self.tr("Version {version} is published and read-only.").format(version=version)
        )
        self.read_only_label.setVisible(read_only)
        if new_tool:
            self.message_label.hide()
        for tab in (self.overview_tab, self.contract_tab):
            tab.set_read_only(read_only)
            tab.show_tool(tool)
        for tab in (self.parameters_tab, self.json_tab):
            tab.set_read_only(read_only)
            tab.show_tool(tool, new_tool=new_tool)
        self.stack.setCurrentIndex(1)

    def _push_edit(self, edit: ToolEdit) -> None:
        tool = self.tool()
        if self._document is None or self._key is None or tool is None:
            return
        if self._document.read_only:
            return
        try:
            edit.apply(tool)  # a dry run: a failing command must never reach the stack
        except EditError as exc:
            self.message_label.setText(str(exc))
            self.message_label.show()
            self._show_current()
            return
        self.message_label.hide()
        self._document.push(EditTool(self._key, edit))

    def _on_changed(self, index: int) -> None:
        document = self._document
        if document is not None and self._key is not None:
            entries = document.workspace.entries
            if 0 <= index < len(entries) and entries[index].key == self._key:
                self._show_current()

    def _on_removed(self, _index: int) -> None:
        if self.tool() is None:
            self._show_current(new_tool=True)

    def _on_reset(self, *_args: object) -> None:
        self._show_current(new_tool=True)
