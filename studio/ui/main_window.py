"""The studio's main window: registries and tools, editor, preview, versions."""

from __future__ import annotations

import dataclasses
import getpass
import logging
import threading
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Literal

import shiboken6
from PySide6.QtCore import (
    QCoreApplication,
    QEvent,
    QItemSelectionModel,
    QSettings,
    QSize,
    Qt,
    QTimer,
)
from PySide6.QtGui import (
    QAction,
    QActionGroup,
    QCloseEvent,
    QPaintEvent,
    QShowEvent,
    QUndoGroup,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QComboBox,
    QDialog,
    QDockWidget,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListView,
    QMainWindow,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QSplitter,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from registry_db import (
    ConflictError,
    RegistryInfo,
    RegistryStore,
    StoreError,
    TamperedVersionError,
    VersionInfo,
)
from studio.contract import Registry, ToolContract
from studio.editing import DraftEntry, DraftWorkspace, InsertTool, RemoveTool, SaveRefused
from studio.ui.actions import (
    Actions,
    create_actions,
    create_diff_action,
    create_playground_actions,
    create_release_action,
    create_sessions_action,
    retranslate_actions,
    retranslate_mode_action,
    retranslate_playground_actions,
)
from studio.ui.document import RegistryDocument
from studio.ui.empty_state import EmptyStateWidget
from studio.ui.evals import mode as evals_mode
from studio.ui.fonts import FONT_PACKAGE, CjkFontCheck
from studio.ui.language_menu import LanguageMenu
from studio.ui.lint_actions import LintOperations, LintPrompts
from studio.ui.mode_bar import ModeBar, ModeStack
from studio.ui.models.registry_list_model import RegistryListModel
from studio.ui.models.tool_list_model import ToolFilterModel, ToolListModel
from studio.ui.registry_actions import RegistryOperations, RegistryPrompts
from studio.ui.skills import mode as skills_mode
from studio.ui.style import banner_style
from studio.ui.views.tool_editor import ToolEditorWidget
from studio.ui.views.versions_panel import VersionsPanel
from studio.ui.widgets.preview import PreviewWidget
from studio.ui.widgets.unsaved import UnsavedAnswer, ask_save_discard_cancel

if TYPE_CHECKING:
    from studio.ui.dialogs.publish_dialog import Publisher, PublishRequest
    from studio.ui.diff.diff_view import DiffView
    from studio.ui.evals.evals_view import EvalsView
    from studio.ui.playground.sidebar import WorkingCopy
    from studio.ui.playground.view import PlaygroundView
    from studio.ui.registry_jobs import RegistryJobs
    from studio.ui.release import ReleaseView
    from studio.ui.sessions.browser import SessionsView

_log = logging.getLogger(__name__)

APP_TITLE = "Tool Registry Studio"
# lupdate extracts ``translate("Context", "…")`` calls under this alias.
translate = QCoreApplication.translate
# The registry a first start opens: the example written to be copied (the
# other bundled example, order-service, is flawed on purpose).
EXEMPLARY_REGISTRY = "travel-reimbursement"
FLAWED_EXAMPLE = "order-service"
ConflictAnswer = Literal["reload", "cancel"]

# Drafts and published versions of at least this many tools load on a worker.
# Loading costs about 85 ms per 1,000 tools on the 2-core reference machine
# (10,000: ~0.85 s; a version, hash-checked and parsed, about as much), so
# smaller ones open at once, as they always did, without a loading state.
LARGE_REGISTRY_TOOLS = 2000


@dataclasses.dataclass
class PendingOpen:
    """A draft or published version being loaded on the worker.

    It is superseded once it is not the window's ``opening``.
    """

    name: str
    tool_count: int
    version: int | None = None  # a published version (read-only); None: the draft
    cancel: threading.Event = dataclasses.field(default_factory=threading.Event)
    select: str | None = None  # the tool to select once shown (a reload keeps the selection)
    fallback: str | None = None  # the document shown again when a version cannot be opened

    @property
    def key(self) -> str:
        """The key of :attr:`MainWindow.documents` the loaded document goes under."""
        return self.name if self.version is None else f"{self.name}@{self.version}"

    @property
    def text(self) -> str:
        n = self.tool_count
        what = (
            self.name
            if self.version is None
            else translate("MainWindow", "version {number} of {name}").format(
                number=self.version, name=self.name
            )
        )
        tools = (
            translate("MainWindow", "1 tool")
            if n == 1
            else translate("MainWindow", "{count} tools").format(count=f"{n:,}")
        )
        return translate("MainWindow", "Opening {what} — {tools}…").format(what=what, tools=tools)


class Prompts(RegistryPrompts, LintPrompts):
    """The questions the window asks; tests replace these methods.

    Every method is modal and returns the user's answer as plain data.
    """

    def unsaved_changes(self, parent: QWidget, names: Sequence[str]) -> UnsavedAnswer:
        """Save / Discard / Cancel for unsaved drafts ``names``."""
        return ask_save_discard_cancel(
            parent,
            translate("Prompts", "{names} has unsaved changes.").format(names=", ".join(names)),
            translate("Prompts", "Save them before closing?"),
        )

    def conflict(self, parent: QWidget, registry: str, message: str) -> ConflictAnswer:
        """Reload (discard mine) or Cancel (keep editing) after a refused save."""
        box = QMessageBox(parent)
        box.setIcon(QMessageBox.Icon.Warning)
        box.setWindowTitle(translate("Prompts", "Changed elsewhere"))
        box.setText(translate("Prompts", "Not saved: {message}.").format(message=message))
        box.setInformativeText(
            translate(
                "Prompts",
                "Nothing was overwritten. Reload discards your unsaved changes to {registry} "
                "and shows what is stored now; Cancel keeps your changes open so you can "
                "copy them before reloading.",
            ).format(registry=registry)
        )
        reload = box.addButton(
            translate("Prompts", "Reload (discard mine)"), QMessageBox.ButtonRole.DestructiveRole
        )
        box.addButton(
            translate("Prompts", "Cancel (keep editing)"), QMessageBox.ButtonRole.RejectRole
        )
        box.exec()
        return "reload" if box.clickedButton() is reload else "cancel"

    def save_before_publish(self, parent: QWidget, registry: str) -> bool:
        """Whether to save unsaved changes first (publishing uses the saved draft)."""
        answer = QMessageBox.question(
            parent,
            translate("Prompts", "Save before publishing"),
            translate(
                "Prompts",
                "{registry} has unsaved changes. A version is published from the saved "
                "draft. Save now and continue?",
            ).format(registry=registry),
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Save,
        )
        return answer == QMessageBox.StandardButton.Save

    def publish(
        self, parent: QWidget, registry: str, tool_count: int, publisher: Publisher
    ) -> VersionInfo | None:
        """Review the diff, ask for notes and semver, publish; None when cancelled."""
        # The publish dialog and its review are imported when publishing, not at start-up.
        from studio.ui.dialogs.publish_dialog import PublishDialog, ReviewedPublisher

        reviewed = publisher if isinstance(publisher, ReviewedPublisher) else None
        dialog = PublishDialog(
            registry,
            tool_count,
            publisher,
            parent,
            baseline=reviewed.baseline if reviewed else None,
            author=reviewed.author if reviewed else "",
            evals=reviewed.evals if reviewed else None,
        )
        dialog.exec()
        return dialog.published

    def error(self, parent: QWidget, title: str, text: str) -> None:
        QMessageBox.warning(parent, title, text)


class MainWindow(QMainWindow):
    """Registries and their tools on the left, editor in the centre, preview on the right.

    One :class:`RegistryDocument` per open registry (and per opened version)
    is kept in :attr:`documents`; the undo group's active stack is the shown
    document's, so Undo/Redo follow the registry on screen.

    Drafts and published versions of :attr:`large_registry_tools` tools or
    more are loaded on a worker (:attr:`open_jobs`); meanwhile :attr:`opening`
    names them, the window shows a loading banner and no document, and a newer
    open (of either) supersedes them.

    Args:
        store: The open store.
        prompts: The questions asked of the user (injectable for tests).
    """

    large_registry_tools = LARGE_REGISTRY_TOOLS

    def __init__(
        self,
        store: RegistryStore,
        prompts: Prompts | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.store = store
        self.prompts = prompts or Prompts()
        self.documents: dict[str, RegistryDocument] = {}
        self._tool_models: dict[str, ToolListModel] = {}
        self._last_saved: dict[str, datetime] = {}
        self._current: str | None = None
        # Set while a document is being shown: the tool list's reset and selection
        # signals then do not each rebuild the editor (it is built once, at the end).
        self._quiet_selection = False
        self.undo_group = QUndoGroup(self)
        self.actions: Actions = create_actions(self, self.undo_group)
        self.registry_ops = RegistryOperations(self)
        self.lint_ops = LintOperations(self)
        self._open_jobs: RegistryJobs | None = None
        self.opening: PendingOpen | None = None
        self._retranslate_pending = False
        self.cjk_check = CjkFontCheck()
        self.resize(1280, 800)

        self._build_widgets()
        self._build_menus()
        self._connect()
        self.refresh_registries()
        names = [r.name for r in self.registry_model.registries()]
        if names:
            self.open_registry(EXEMPLARY_REGISTRY if EXEMPLARY_REGISTRY in names else names[0])
        self._update_state()

    @property
    def open_jobs(self) -> RegistryJobs:
        """The worker that loads large drafts and versions, made on first use.

        Its own serial worker: an import dialog's job and an open never
        replace each other's callbacks; the store's lock orders their reads.
        Made on demand, its module is not imported before the first paint.
        """
        if self._open_jobs is None:
            from studio.ui.registry_jobs import RegistryJobs

            self._open_jobs = RegistryJobs(self)
        return self._open_jobs

    # ------------------------------------------------------------------ building

    def _build_widgets(self) -> None:
        self.registry_model = RegistryListModel(parent=self)
        self.registry_combo = QComboBox()
        self.registry_combo.setModel(self.registry_model)
        self.registry_combo.setToolTip(self.tr("The registry being edited"))
        # Right click on the picker: the registry's own commands.
        self.registry_combo.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        self.registry_combo.addActions([self.actions.check_mcp, self.actions.registry_settings])

        self.filter_edit = QLineEdit()
        self.filter_edit.setPlaceholderText(self.tr("Filter tools (Ctrl+F)"))
        self.filter_edit.setClearButtonEnabled(True)

        self.tool_proxy = ToolFilterModel(self)
        self.tool_view = QListView()
        self.tool_view.setModel(self.tool_proxy)
        self.tool_view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tool_view.setUniformItemSizes(True)
        self.tool_view.setIconSize(QSize(30, 14))
        # What the two halves of each tool's icon mean (tooltips say it per tool).
        self.tool_legend = QLabel()
        self.tool_legend.setObjectName("toolLegend")
        self.tool_legend.setWordWrap(True)
        self.tool_legend.setEnabled(False)
        self.tool_view.addAction(self.actions.delete_tool)

        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(4, 4, 4, 4)
        left_layout.addWidget(self.registry_combo)
        # The bundled flawed example says so: a new user took its problems for the studio's.
        self.example_note = QLabel()
        self.example_note.setObjectName("exampleNote")
        self.example_note.setWordWrap(True)
        self.example_note.hide()
        left_layout.addWidget(self.example_note)
        left_layout.addWidget(self.filter_edit)
        left_layout.addWidget(self.tool_view, 1)
        left_layout.addWidget(self.tool_legend)
        left.setMinimumWidth(180)

        self.banner = QFrame()
        self.banner.setObjectName("readOnlyBanner")
        self.banner.setFrameShape(QFrame.Shape.StyledPanel)
        self.banner_label = QLabel()
        self.banner_label.setStyleSheet("font-weight: bold;")
        self.banner_button = QPushButton(self.tr("Back to draft"))
        banner_layout = QHBoxLayout(self.banner)
        banner_layout.setContentsMargins(8, 4, 8, 4)
        banner_layout.addWidget(self.banner_label, 1)
        banner_layout.addWidget(self.banner_button)
        self.banner.hide()

        # Chinese text without a CJK font shows as boxes: said once, in words.
        self.font_banner = QFrame()
        self.font_banner.setObjectName("fontBanner")
        self.font_banner.setFrameShape(QFrame.Shape.StyledPanel)
        self.font_label = QLabel()
        self.font_label.setWordWrap(True)
        self.font_close = QPushButton()
        self.font_close.clicked.connect(self.font_banner.hide)
        font_layout = QHBoxLayout(self.font_banner)
        font_layout.setContentsMargins(8, 4, 8, 4)
        font_layout.addWidget(self.font_label, 1)
        font_layout.addWidget(self.font_close)
        self.font_banner.hide()
        self._apply_theme_colours()

        self.loading_banner = QFrame()
        self.loading_banner.setObjectName("loadingBanner")
        self.loading_banner.setFrameShape(QFrame.Shape.StyledPanel)
        self.loading_label = QLabel()
        self.loading_label.setTextFormat(Qt.TextFormat.PlainText)
        self.loading_bar = QProgressBar()
        self.loading_bar.setRange(0, 0)  # busy: the load reports no steps
        self.loading_bar.setMaximumWidth(160)
        self.loading_bar.setAccessibleName("Opening registry")
        loading_layout = QHBoxLayout(self.loading_banner)
        loading_layout.setContentsMargins(8, 4, 8, 4)
        loading_layout.addWidget(self.loading_label, 1)
        loading_layout.addWidget(self.loading_bar)
        self.loading_banner.hide()

        self.editor = ToolEditorWidget(self)
        self.preview = PreviewWidget(self)
        self.preview.setMinimumWidth(220)
        self.preview.set_registry_source(self._preview_registry)  # audience sets (#17)

        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(left)
        self.splitter.addWidget(self.editor)
        self.splitter.addWidget(self.preview)
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 3)
        self.splitter.setStretchFactor(2, 2)
        self._sized = False
        self._painted = False
        self._after_first_paint: list[Callable[[], None]] = []

        central = QWidget()
        central_layout = QVBoxLayout(central)
        central_layout.setContentsMargins(0, 0, 0, 0)
        central_layout.setSpacing(0)
        central_layout.addWidget(self.banner)
        central_layout.addWidget(self.font_banner)
        central_layout.addWidget(self.loading_banner)
        central_layout.addWidget(self.splitter, 1)
        # Editor and Playground share the centre; the playground is built on first use.
        self.modes = ModeStack()
        self.modes.addWidget(central)
        self.playground: PlaygroundView | None = None
        self.release_view: ReleaseView | None = None
        self.diff_view: DiffView | None = None
        self.diff_empty: EmptyStateWidget | None = None
        self.sessions_view: SessionsView | None = None
        self.evals_view: EvalsView | None = None
        self.skills_panel: QWidget | None = None  # Skills & agents, built on first show
        self.setCentralWidget(self.modes)

        self.versions_panel = VersionsPanel(self)
        self.versions_dock = QDockWidget("Versions", self)
        self.versions_dock.setObjectName("versionsDock")
        self.versions_dock.setWidget(self.versions_panel)
        self.versions_dock.setFeatures(
            QDockWidget.DockWidgetFeature.DockWidgetMovable
            | QDockWidget.DockWidgetFeature.DockWidgetClosable
        )
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.versions_dock)
        self.resizeDocks([self.versions_dock], [140], Qt.Orientation.Vertical)

        self.status_label = QLabel()
        self.statusBar().addPermanentWidget(self.status_label, 1)
        self.lint_ops.install()

    def _build_menus(self) -> None:
        a = self.actions
        self.file_menu = self.menuBar().addMenu("")
        self.file_menu.addActions(
            [a.new_registry, a.import_tools, a.import_mcp, a.check_mcp, a.export_registry]
        )
        self.file_menu.addSeparator()
        self.file_menu.addActions([a.save, a.publish, a.open_version, a.back_to_draft])
        self.file_menu.addSeparator()
        self.file_menu.addActions([a.registry_settings, a.delete_registry])
        self.file_menu.addSeparator()
        self.file_menu.addAction(a.quit)
        self.edit_menu = self.menuBar().addMenu("")
        self.edit_menu.addActions([a.undo, a.redo])
        self.edit_menu.addSeparator()
        self.edit_menu.addActions([a.new_tool, a.duplicate_tool, a.delete_tool])
        self.edit_menu.addSeparator()
        self.edit_menu.addAction(a.find)
        self.view_menu = view_menu = self.menuBar().addMenu("")
        self.playground_actions = create_playground_actions(self)
        self.sessions_action = create_sessions_action(self)
        self.diff_action = create_diff_action(self)
        self.release_action = create_release_action(self)
        self.mode_actions: list[QAction] = [
            self.playground_actions.show_editor,
            self.playground_actions.show_playground,
            self.sessions_action,
            self.diff_action,
            self.release_action,
        ]
        modes = QActionGroup(self)
        for action in self.mode_actions:
            modes.addAction(action)
            view_menu.addAction(action)
        for action in self.mode_actions[:2]:
            action.toggled.connect(self._on_mode_toggled)
        self.sessions_action.toggled.connect(lambda on: on and self.show_sessions())
        self.diff_action.toggled.connect(lambda on: on and self.show_diff())
        self.release_action.toggled.connect(lambda on: on and self.show_release())
        view_menu.addSeparator()
        view_menu.addAction(a.dark_theme)
        self.language_menu = LanguageMenu(self)
        view_menu.addMenu(self.language_menu)
        view_menu.addSeparator()
        view_menu.addAction(self.versions_dock.toggleViewAction())
        lint = self.lint_ops
        for dock in (lint.problems_dock, lint.similar_dock, lint.scores_dock):
            view_menu.addAction(dock.toggleViewAction())
        self.lint_menu = self.menuBar().addMenu("")
        self.lint_menu.addActions([a.run_lint, a.next_problem, a.previous_problem])
        self.lint_menu.addSeparator()
        self.profile_menu = self.lint_menu.addMenu("")
        self.profile_menu.addActions(list(a.lint_profiles))
        self.help_menu = self.menuBar().addMenu("")
        self.help_menu.addAction(a.shortcuts_help)

        # The activity bar: every mode visible, labelled, with its shortcut in the tooltip.
        self.mode_bar = ModeBar(self.mode_actions, self)
        self.addToolBar(Qt.ToolBarArea.LeftToolBarArea, self.mode_bar)
        # One toolbar per mode, with that mode's actions only: New tool or
        # Publish beside a run (acting on the editor, unseen) misled.
        editor_bar = self._mode_toolbar("editorToolbar")
        editor_bar.addActions([a.new_tool, a.duplicate_tool, a.delete_tool])
        editor_bar.addSeparator()
        editor_bar.addActions([a.save, a.undo, a.redo])
        editor_bar.addSeparator()
        editor_bar.addActions([a.publish, a.run_lint])
        playground_bar = self._mode_toolbar("playgroundToolbar")
        playground_bar.addActions(
            [self.playground_actions.run_prompt, self.playground_actions.stop_run]
        )
        self.refresh_action = QAction(self)
        self.refresh_action.setObjectName("refresh_mode")
        self.refresh_action.triggered.connect(self.refresh_mode)
        self.mode_toolbars: dict[str, QToolBar] = {
            "editor": editor_bar,
            "playground": playground_bar,
        }
        for mode in ("sessions", "diff", "release"):
            self.mode_toolbars[mode] = self._mode_toolbar(f"{mode}Toolbar")
        from studio.ui.mode_toolbars import ViewToolbars  # their actions act on the shown view

        self.view_toolbars = ViewToolbars(self.mode_toolbars, self)
        self.evals_action = evals_mode.install_evals_mode(self)  # Evals (Ctrl+6) after Release
        self.skills_action = skills_mode.install_skills_mode(self)  # Skills & agents (Ctrl+7)
        self._show_mode_toolbar("editor")
        # Shortcuts of actions only shown in menus still need a widget in the window.
        self.addActions([a.find, a.quit, a.open_version, a.back_to_draft])
        self.addActions([a.import_tools, a.export_registry])
        self.addActions([a.run_lint, a.next_problem, a.previous_problem, a.shortcuts_help])
        self._retranslate_shell()

    def _mode_toolbar(self, name: str) -> QToolBar:
        bar = QToolBar(self)
        bar.setObjectName(name)
        bar.setMovable(False)
        bar.toggleViewAction().setVisible(False)  # it follows the mode
        self.addToolBar(bar)
        return bar

    def _show_mode_toolbar(self, mode: str) -> None:
        """Show the toolbar of ``mode``; the Refresh action moves to it."""
        for name, bar in self.mode_toolbars.items():
            bar.setVisible(name == mode)
        self.view_toolbars.follow(mode, self.modes.currentWidget())
        if mode in ("sessions", "diff", "release", "evals"):
            bar = self.mode_toolbars[mode]
            for other in self.mode_toolbars.values():
                other.removeAction(self.refresh_action)
            bar.addAction(self.refresh_action)

    def current_mode(self) -> str:
        """The mode shown: editor, playground, sessions, diff or release."""
        widget = self.modes.currentWidget()
        if widget is not None and widget is self.playground:
            return "playground"
        if widget is not None and widget is self.sessions_view:
            return "sessions"
        if widget is not None and widget in (self.diff_view, self.diff_empty):
            return "diff"
        if widget is not None and widget is self.release_view:
            return "release"
        if widget is not None and widget is self.evals_view:
            return "evals"
        if widget is not None and widget is self.skills_panel:
            return "skills"
        return "editor"

    def show_mode(self, mode: str) -> None:
        """Switch to ``mode`` by name (see :meth:`current_mode`)."""
        if mode == "playground":
            self.show_playground(True)
        elif mode == "sessions":
            self.show_sessions()
        elif mode == "diff":
            self.show_diff()
        elif mode == "release":
            self.show_release()
        elif mode == "evals":
            evals_mode.show_evals(self)
        elif mode == "skills":
            skills_mode.show_skills(self)
        else:
            self.show_playground(False)

    def refresh_mode(self) -> None:
        """Read the shown mode's data again (its toolbar's Refresh)."""
        mode = self.current_mode()
        if mode == "sessions" and self.sessions_view is not None:
            self.sessions_view.refresh()
        elif mode == "diff" and self.diff_view is not None:
            self.diff_view.refresh_sides()
            self.diff_view.recompute()
        elif mode == "release" and self.release_view is not None:
            self.release_view.refresh()
        elif mode == "evals" and self.evals_view is not None:
            self.evals_view.refresh()

    def show_shortcuts(self) -> QDialog:
        """Help → Keyboard shortcuts: every shortcut of the window's actions (non-modal)."""
        from studio.ui.shortcuts_dialog import ShortcutsDialog

        dialog = ShortcutsDialog(self.findChildren(QAction), self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.show()
        return dialog

    # ------------------------------------------------------------------ language

    def _apply_theme_colours(self) -> None:
        """The banners' colours for the current palette (again on every theme switch)."""
        self.banner.setStyleSheet(banner_style("readOnlyBanner", "banner", self))
        self.font_banner.setStyleSheet(banner_style("fontBanner", "banner", self))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange:
            self._apply_theme_colours()
        if event.type() == QEvent.Type.LanguageChange and not self._retranslate_pending:
            # Qt sends one event per translator added or removed: rebuild once.
            self._retranslate_pending = True
            QTimer.singleShot(0, self.retranslate_ui)
        super().changeEvent(event)

    def retranslate_ui(self) -> None:
        """Re-read every text in the current language; rebuild the mode widgets.

        The documents (open registries, unsaved edits, undo stacks) live in
        :attr:`documents`, not in the widgets, so rebuilding the widgets loses
        nothing: the mode, the selected tool, the editor tab and the window
        geometry are put back as they were.
        """
        self._retranslate_pending = False
        if getattr(self, "_closed", False) or not shiboken6.isValid(self.actions.undo):
            # A closed window (a test's, or one waiting for deletion) still gets the
            # application's LanguageChange; its undo actions may be gone already.
            return
        retranslate_actions(self.actions)
        retranslate_playground_actions(self.playground_actions)
        for action in (self.sessions_action, self.diff_action, self.release_action):
            retranslate_mode_action(action)
        evals_mode.retranslate_evals_action(self.evals_action)
        skills_mode.retranslate_skills_action(self.skills_action)
        self._retranslate_shell()
        self._rebuild_mode_widgets()
        self._update_state()

    def _retranslate_shell(self) -> None:
        self.file_menu.setTitle(self.tr("&File"))
        self.edit_menu.setTitle(self.tr("&Edit"))
        self.view_menu.setTitle(self.tr("&View"))
        self.lint_menu.setTitle(self.tr("&Lint"))
        self.profile_menu.setTitle(self.tr("&Profile"))
        self.help_menu.setTitle(self.tr("&Help"))
        self.language_menu.retranslate()
        self.mode_bar.retranslate()
        titles = {
            "editor": self.tr("Editor"),
            "playground": self.tr("Playground"),
            "sessions": self.tr("Sessions"),
            "diff": self.tr("Diff"),
            "release": self.tr("Release"),
            "evals": self.tr("Evals"),
            "skills": self.tr("Skills & agents"),
        }
        for mode, bar in self.mode_toolbars.items():
            bar.setWindowTitle(titles[mode])
        self.refresh_action.setText(self.tr("Refresh"))
        self.refresh_action.setToolTip(self.tr("Read this mode's data again"))
        self.versions_dock.setWindowTitle(self.tr("Versions"))
        self.registry_combo.setToolTip(self.tr("The registry being edited"))
        self.filter_edit.setPlaceholderText(self.tr("Filter tools (Ctrl+F)"))
        self.tool_legend.setText(
            self.tr("Lint: ✕ errors · ! warnings · ✓ clean\nRisk: R read · W write · D destructive")
        )
        self.banner_button.setText(self.tr("Back to draft"))
        self.font_close.setText(self.tr("Dismiss"))
        if self.current_document() is not None:
            self._show_example_note(self.current_document().name)  # type: ignore[union-attr]
        self.font_label.setText(
            self.tr(
                "This registry contains Chinese (or other CJK) text, but no installed font "
                "can show it: it appears as boxes. Install a CJK font (on Debian or Ubuntu: "
                "sudo apt install {package}) and restart the studio."
            ).format(package=FONT_PACKAGE)
        )
        self.loading_bar.setAccessibleName(self.tr("Opening registry"))

    def _rebuild_mode_widgets(self) -> None:
        """New editor, preview and mode views, built in the current language."""
        mode = self.current_mode()
        tab = self.editor.current_tab()
        fmt = self.preview.current_format()
        old_editor, old_preview = self.editor, self.preview
        old_editor.set_tool(None, None)  # disconnects it from the document
        self.editor = ToolEditorWidget(self)
        self.preview = PreviewWidget(self)
        self.preview.setMinimumWidth(220)
        self.preview.set_registry_source(self._preview_registry)  # audience sets (#17)
        sizes = self.splitter.sizes()
        self.splitter.replaceWidget(1, self.editor)
        self.splitter.replaceWidget(2, self.preview)
        self.splitter.setSizes(sizes)
        old_editor.deleteLater()
        old_preview.deleteLater()
        self.preview.set_format(fmt)
        self._on_tool_selected()
        self.editor.show_tab(tab)
        # The other modes are built again on first use; one busy with a run,
        # a replay or a server keeps its widgets (their texts follow later).
        if self.playground is not None and not self.playground.controller.busy:
            self._drop_mode_widget(self.playground)
            self.playground = None
        if self.sessions_view is not None and not self.sessions_view.replayer.busy:
            self.sessions_view.shutdown()
            self._drop_mode_widget(self.sessions_view)
            self.sessions_view = None
        if self.diff_view is not None:
            self.diff_view.runner.wait()
            self._drop_mode_widget(self.diff_view)
            self.diff_view = None
        if self.diff_empty is not None:
            self._drop_mode_widget(self.diff_empty)
            self.diff_empty = None
        if self.release_view is not None and self.release_view.server is None:
            self.release_view.shutdown()
            self._drop_mode_widget(self.release_view)
            self.release_view = None
        evals_mode.drop_evals(self)
        skills_mode.drop_skills(self)
        if mode != "editor":
            self.show_mode(mode)

    def _drop_mode_widget(self, widget: QWidget) -> None:
        if self.modes.currentWidget() is widget:
            self.modes.setCurrentIndex(0)
        self.modes.removeWidget(widget)
        widget.deleteLater()

    def _connect(self) -> None:
        a = self.actions
        a.new_tool.triggered.connect(self.new_tool)
        a.duplicate_tool.triggered.connect(self.duplicate_tool)
        a.delete_tool.triggered.connect(self.delete_tool)
        a.save.triggered.connect(self.save_current)
        a.find.triggered.connect(self.focus_filter)
        a.publish.triggered.connect(self.publish_current)
        a.open_version.triggered.connect(self._open_selected_version)
        a.back_to_draft.triggered.connect(self.back_to_draft)
        a.dark_theme.toggled.connect(self._set_dark)
        a.shortcuts_help.triggered.connect(self.show_shortcuts)
        pa = self.playground_actions
        # Through the window: the playground is built on first use, and again
        # when the language changes.
        pa.run_prompt.triggered.connect(lambda: self.playground and self.playground.run_prompt())
        pa.stop_run.triggered.connect(lambda: self.playground and self.playground.stop())
        a.quit.triggered.connect(self.close)
        ops = self.registry_ops
        a.new_registry.triggered.connect(ops.new_registry)
        a.import_tools.triggered.connect(ops.import_tools)
        a.import_mcp.triggered.connect(ops.import_from_mcp)
        a.check_mcp.triggered.connect(ops.check_against_mcp)
        a.export_registry.triggered.connect(ops.export_registry)
        a.registry_settings.triggered.connect(ops.registry_settings)
        a.delete_registry.triggered.connect(ops.delete_registry)
        settings = QSettings()
        a.dark_theme.setChecked(settings.value("ui/theme", "") == "dark")

        self.registry_combo.currentIndexChanged.connect(self._on_registry_picked)
        self.filter_edit.textChanged.connect(self.tool_proxy.setFilterFixedString)
        self.tool_view.selectionModel().selectionChanged.connect(self._on_tool_selected)
        self.tool_proxy.modelReset.connect(self._on_tool_selected)
        self.banner_button.clicked.connect(self.back_to_draft)
        self.versions_panel.publishRequested.connect(self.publish_current)
        self.versions_panel.openRequested.connect(self.open_version)
        self.versions_panel.compareRequested.connect(lambda n: self.show_diff(compare_version=n))
        self.undo_group.indexChanged.connect(lambda _i: self._update_state())
        # Ctrl+Z works in every mode: the Playground's draft must follow it.
        self.undo_group.indexChanged.connect(self._follow_undo_in_playground)
        self.undo_group.cleanChanged.connect(lambda _c: self._update_state())

    # ------------------------------------------------------------------ documents

    def current_document(self) -> RegistryDocument | None:
        return self.documents.get(self._current) if self._current else None

    def _preview_registry(self) -> Registry | None:
        doc = self.current_document()
        return doc.workspace.registry() if doc is not None else None

    def current_model(self) -> ToolListModel | None:
        return self._tool_models.get(self._current) if self._current else None

    def draft_document(self, name: str) -> RegistryDocument | None:
        return self.documents.get(name)

    def refresh_registries(self) -> None:
        """Re-read the registry list (counts change on save and publish)."""
        current = self.registry_combo.currentData(RegistryListModel.NameRole)
        self.registry_combo.blockSignals(True)
        try:
            self.registry_model.set_registries(self.store.list_registries())
            row = self.registry_model.row_of(current) if current else -1
            self.registry_combo.setCurrentIndex(row if row >= 0 else 0)
        finally:
            self.registry_combo.blockSignals(False)

    def open_registry(self, name: str) -> RegistryDocument | None:
        """Show the draft of registry ``name``, loading it on first use.

        A draft of :attr:`large_registry_tools` tools or more is loaded on the
        worker: this returns None at once and the document is shown when it
        arrives. Any open still loading is superseded (the last call wins).
        """
        self._cancel_open()
        if name not in self.documents:
            count = self._tool_count(name)
            if count >= self.large_registry_tools:
                self._open_in_worker(PendingOpen(name, count))
                return None
            try:
                workspace = DraftWorkspace.load(self.store, name)
            except StoreError as exc:
                self.prompts.error(self, self.tr("Cannot open registry"), f"{name}: {exc}")
                return None
            self._register(name, RegistryDocument(self.store, workspace, self))
        self._activate(name)
        return self.documents[name]

    def _tool_count(self, name: str) -> int:
        info: RegistryInfo | None = next(
            (r for r in self.registry_model.registries() if r.name == name), None
        )
        return info.tool_count if info is not None else 0

    def _open_in_worker(self, pending: PendingOpen) -> None:
        """Load ``pending`` on the worker; until it arrives no document is shown."""
        from studio.ui.registry_jobs import load_draft, load_version

        self.opening = pending
        # Nothing may act on the previous registry while the selector names this one.
        self._show_no_document()
        row = self.registry_model.row_of(pending.name)
        if row >= 0 and row != self.registry_combo.currentIndex():
            self.registry_combo.blockSignals(True)
            self.registry_combo.setCurrentIndex(row)
            self.registry_combo.blockSignals(False)
        self.loading_label.setText(pending.text)
        self.loading_banner.show()
        store, name, number, cancel = self.store, pending.name, pending.version, pending.cancel

        def work(_progress: object) -> object:
            if number is None:
                return load_draft(store, name, cancel)
            return load_version(store, name, number, cancel)

        self.open_jobs.start(
            work,
            done=lambda result: self._on_open_loaded(pending, result),
            failed=lambda message: self._on_open_failed(pending, message),
        )
        self._update_state()

    def _cancel_open(self) -> None:
        """Supersede the open in progress: its late result is dropped."""
        pending, self.opening = self.opening, None
        if pending is None:
            return
        pending.cancel.set()
        self.open_jobs.drop()
        self.loading_banner.hide()

    def _on_open_loaded(self, pending: PendingOpen, result: object) -> None:
        from studio.ui.registry_jobs import Refused

        if pending is not self.opening:
            return  # superseded; RegistryJobs drops these too
        self.opening = None
        self.loading_banner.hide()
        if isinstance(result, DraftWorkspace):
            key = pending.key
            if key not in self.documents:
                self._register(key, RegistryDocument(self.store, result, self))
            self._activate(key)
            if pending.select is not None:
                self.select_tool_named(pending.select)
            return
        if isinstance(result, Refused):
            if pending.version is None:
                self.prompts.error(self, self.tr("Cannot open registry"), result.message)
            else:
                error = result.error if result.error is not None else result.message
                self._report_version_error(pending.name, pending.version, error)
        self._open_failed(pending)

    def _on_open_failed(self, pending: PendingOpen, message: str) -> None:
        if pending is not self.opening:
            return
        self.opening = None
        self.loading_banner.hide()
        if pending.version is None:
            self.prompts.error(self, self.tr("Cannot open registry"), f"{pending.name}: {message}")
        else:
            self._report_version_error(pending.name, pending.version, message)
        self._open_failed(pending)

    def _open_failed(self, pending: PendingOpen) -> None:
        """Nothing opened: a version shows again the document it was opened from."""
        if pending.fallback is not None and pending.fallback in self.documents:
            self._activate(pending.fallback)
        else:
            self._update_state()

    def _report_version_error(self, name: str, number: int, error: Exception | str) -> None:
        if isinstance(error, TamperedVersionError):
            self.prompts.error(
                self,
                self.tr("Version failed its integrity check"),
                self.tr("Version {number} of {name} was not opened: {error}.").format(
                    number=number, name=name, error=error
                )
                + "\n\n"
                + self.tr(
                    "The stored document no longer matches the hash recorded when it was "
                    "published, so it may have been changed outside the studio."
                ),
            )
        else:
            self.prompts.error(self, self.tr("Cannot open version"), f"{name} v{number}: {error}")

    def _show_no_document(self) -> None:
        self.editor.set_tool(None, None)
        self.tool_proxy.setSourceModel(None)
        self.banner.hide()
        self._current = None
        self.undo_group.setActiveStack(None)  # type: ignore[arg-type]
        # Not _refresh_versions(): the worker holds the store's lock.
        self.versions_panel.set_versions(None, [])
        self.lint_ops.activate(None)
        self._on_tool_selected()

    def open_version(self, number: int) -> RegistryDocument | None:
        """Show version ``number`` of the current registry, read-only.

        A version of :attr:`large_registry_tools` tools or more is loaded on
        the worker like a large draft (see :meth:`open_registry`): this returns
        None at once and the document is shown when it arrives. While a draft
        loads, its registry is the current one; the version supersedes it.
        """
        doc = self.current_document()
        pending = self.opening
        name = doc.name if doc is not None else pending.name if pending is not None else None
        if name is None:
            return None
        key = f"{name}@{number}"
        self._cancel_open()  # first: a superseded load gives the store back
        if key not in self.documents:
            count = self._version_tool_count(name, number)
            if count >= self.large_registry_tools:
                self._open_in_worker(PendingOpen(name, count, number, fallback=self._current))
                return None
            try:
                version = self.store.load_version(name, number)
            except StoreError as exc:
                self._report_version_error(name, number, exc)
                self._update_state()
                return None
            workspace = DraftWorkspace.from_registry(version.registry, read_only_version=number)
            self._register(key, RegistryDocument(self.store, workspace, self))
        self._activate(key)
        return self.documents[key]

    def _version_tool_count(self, name: str, number: int) -> int:
        """The tool count recorded at publish (metadata only: nothing is loaded or hashed)."""
        try:
            versions = self.store.list_versions(name)
        except StoreError:
            return 0  # the synchronous load reports it
        return next((v.tool_count for v in versions if v.number == number), 0)

    def back_to_draft(self) -> None:
        doc = self.current_document()
        if doc is not None and doc.read_only:
            self.open_registry(doc.name)

    def reload_document(self, name: str) -> None:
        """Drop the draft of ``name`` (unsaved changes included) and load it again."""
        selected = self.selected_tool()
        old = self.documents.pop(name, None)
        model = self._tool_models.pop(name, None)
        if self._current == name:
            self.editor.set_tool(None, None)
            self.tool_proxy.setSourceModel(None)
            self._current = None
        if old is not None:
            self.lint_ops.document_closed(name)
            self.undo_group.removeStack(old.undo_stack)
            old.deleteLater()
        if model is not None:
            model.detach()
            model.deleteLater()
        self.open_registry(name)
        if self.opening is not None and self.opening.name == name:
            self.opening.select = selected.name if selected is not None else None
        elif selected is not None:
            self.select_tool_named(selected.name)

    def close_registry(self, name: str) -> None:
        """Forget the draft and opened versions of ``name`` (unsaved changes included)."""
        keys = [k for k, d in self.documents.items() if d.name == name]
        if self._current in keys:
            self.editor.set_tool(None, None)
            self.tool_proxy.setSourceModel(None)
            self.banner.hide()
            self._current = None
        for key in keys:
            doc = self.documents.pop(key)
            self.lint_ops.document_closed(key)
            self.undo_group.removeStack(doc.undo_stack)
            doc.deleteLater()
            model = self._tool_models.pop(key, None)
            if model is not None:
                model.detach()
                model.deleteLater()
        self._refresh_versions()
        self._on_tool_selected()
        self._update_state()

    def _register(self, key: str, doc: RegistryDocument) -> None:
        self.documents[key] = doc
        self._tool_models[key] = ToolListModel(doc.workspace, self)
        self.undo_group.addStack(doc.undo_stack)
        doc.dirtyChanged.connect(lambda _d: self._update_state())
        doc.workspace.events.connect("changed", lambda index: self._on_tool_changed(key, index))
        self.lint_ops.document_opened(key, doc)
        controller = self.lint_ops.controllers.get(key)
        if controller is not None:  # the list shows each tool's lint state
            model = self._tool_models[key]
            controller.reportChanged.connect(model.set_lint)
            model.set_lint(controller.report)

    def _activate(self, key: str) -> None:
        doc = self.documents[key]
        self._current = key
        self.undo_group.setActiveStack(doc.undo_stack)
        self._quiet_selection = True
        try:
            self._show_document(key, doc)
        finally:
            self._quiet_selection = False
        self._on_tool_selected()
        self._update_state()

    def _show_document(self, key: str, doc: RegistryDocument) -> None:
        """The tool list, banners, versions and lint of ``doc``; the first tool selected."""
        self.tool_proxy.setSourceModel(self._tool_models[key])
        row = self.registry_model.row_of(doc.name)
        if row >= 0 and row != self.registry_combo.currentIndex():
            self.registry_combo.blockSignals(True)
            self.registry_combo.setCurrentIndex(row)
            self.registry_combo.blockSignals(False)
        if doc.read_only:
            self.banner_label.setText(
                self.tr("Version {number} (published, read-only) of {name}").format(
                    number=doc.workspace.read_only_version, name=doc.name
                )
            )
            self.banner.show()
        else:
            self.banner.hide()
        self._refresh_versions()
        self._check_cjk_font(doc)
        self._show_example_note(doc.name)
        self.lint_ops.activate(key)
        if self.tool_proxy.rowCount() > 0:
            self.tool_view.setCurrentIndex(self.tool_proxy.index(0, 0))

    def _example_notes(self) -> dict[str, str]:
        return {
            FLAWED_EXAMPLE: self.tr(
                "An example that is flawed on purpose: tools imported as-is from a legacy "
                "backend. The Problems panel shows what lint finds; travel-reimbursement shows "
                "the same ideas done well."
            ),
            EXEMPLARY_REGISTRY: self.tr(
                "The exemplary example: structured descriptions, aliases and risk tiers done "
                "well. Copy what you like."
            ),
        }

    def _show_example_note(self, name: str) -> None:
        note = self._example_notes().get(name, "")
        self.example_note.setText(note)
        self.example_note.setVisible(bool(note))

    def _check_cjk_font(self, doc: RegistryDocument) -> None:
        tools = (e.tool for e in doc.workspace.entries)
        texts = (t for tool in tools for t in (tool.title, tool.summary, tool.description))
        if self.cjk_check.needs_warning(texts):
            _log.warning("no CJK font installed: Chinese text shows as boxes (%s)", FONT_PACKAGE)
            self.font_banner.show()

    def _on_registry_picked(self, row: int) -> None:
        name = self.registry_model.data(
            self.registry_model.index(row, 0), RegistryListModel.NameRole
        )
        if name:
            self.open_registry(name)

    # ------------------------------------------------------------------ selection

    def selected_key(self) -> int | None:
        index = self.tool_view.currentIndex()
        if not index.isValid() or not self.tool_view.selectionModel().isSelected(index):
            return None
        return self.tool_proxy.data(index, ToolListModel.KeyRole)

    def selected_entry(self) -> DraftEntry | None:
        doc, key = self.current_document(), self.selected_key()
        if doc is None or key is None:
            return None
        try:
            return doc.workspace.entry(key)
        except KeyError:
            return None

    def selected_tool(self) -> ToolContract | None:
        entry = self.selected_entry()
        return entry.tool if entry else None

    def select_key(self, key: int) -> None:
        model = self.current_model()
        if model is None:
            return
        row = model.row_of_key(key)
        if row < 0:
            return
        index = self.tool_proxy.mapFromSource(model.index(row, 0))
        if not index.isValid():  # filtered out: show it anyway
            self.filter_edit.clear()
            index = self.tool_proxy.mapFromSource(model.index(row, 0))
        self.tool_view.selectionModel().setCurrentIndex(
            index, QItemSelectionModel.SelectionFlag.ClearAndSelect
        )
        self.tool_view.scrollTo(index)

    def select_tool_named(self, name: str) -> None:
        doc = self.current_document()
        if doc is None:
            return
        for entry in doc.workspace.entries:
            if entry.tool.name == name:
                self.select_key(entry.key)
                return

    def focus_filter(self) -> None:
        self.filter_edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.filter_edit.selectAll()

    def _on_tool_selected(self, *_args: object) -> None:
        if self._quiet_selection:
            return
        doc = self.current_document()
        key = self.selected_key()
        self.editor.set_tool(doc if key is not None else None, key)
        entry = self.selected_entry()
        settings = doc.workspace.settings if doc else None
        self.preview.set_tool(entry.tool if entry else None, settings)
        self.lint_ops.tool_selected()
        self._update_actions()

    def _on_tool_changed(self, key: str, index: int) -> None:
        if key != self._current:
            return
        entry = self.selected_entry()
        doc = self.current_document()
        if entry is not None and doc is not None and doc.workspace.entries[index] is entry:
            self.preview.set_tool(entry.tool, doc.workspace.settings)

    # ------------------------------------------------------------------ tool commands

    def _editable(self) -> RegistryDocument | None:
        doc = self.current_document()
        return doc if doc is not None and not doc.read_only else None

    def new_tool(self) -> None:
        """Append a new, empty tool and select it."""
        doc = self._editable()
        if doc is None:
            return
        ws = doc.workspace
        entry = ws.new_entry(ToolContract(name=ws.unique_name("new_tool"), summary=""))
        doc.push(InsertTool(len(ws.entries), entry))
        self.select_key(entry.key)

    def duplicate_tool(self) -> None:
        """Insert a copy of the selected tool after it, named ``<name>_copy``."""
        doc, source = self._editable(), self.selected_entry()
        if doc is None or source is None:
            return
        ws = doc.workspace
        copy_name = ws.unique_name(f"{source.tool.name[:59]}_copy")
        entry = ws.new_entry(dataclasses.replace(source.tool, name=copy_name))
        doc.push(InsertTool(ws.index_of(source) + 1, entry, self.tr("Duplicate tool")))
        self.select_key(entry.key)

    def delete_tool(self) -> None:
        """Delete the selected tool (undoable) and select its neighbour."""
        doc, entry = self._editable(), self.selected_entry()
        if doc is None or entry is None:
            return
        row = self.tool_view.currentIndex().row()
        doc.push(RemoveTool(entry.key))
        count = self.tool_proxy.rowCount()
        if count:
            self.tool_view.setCurrentIndex(self.tool_proxy.index(min(row, count - 1), 0))
        self._on_tool_selected()

    # ------------------------------------------------------------------ save / publish

    def save_current(self) -> bool:
        """Save the shown draft; True when nothing is left unsaved."""
        doc = self._editable()
        return True if doc is None else self.save_document(doc)

    def save_document(self, doc: RegistryDocument) -> bool:
        """Save ``doc``, explaining any refusal; True on success."""
        try:
            doc.save()
        except SaveRefused as exc:
            problems = "\n".join(f"• {p}" for p in exc.problems)
            self.prompts.error(
                self,
                self.tr("Not saved"),
                self.tr("{name} was not saved; fix these first (your changes are kept):").format(
                    name=doc.name
                )
                + f"\n\n{problems}",
            )
            return False
        except ConflictError as exc:
            if self.prompts.conflict(self, doc.name, str(exc)) == "reload":
                self.reload_document(doc.name)
            return False
        except StoreError as exc:
            self.prompts.error(
                self,
                self.tr("Not saved"),
                self.tr("{name} was not saved: {error}").format(name=doc.name, error=exc),
            )
            return False
        self._last_saved[doc.name] = datetime.now()
        model = self._tool_models.get(doc.name)
        if model is not None:
            model.refresh_markers()
        self.refresh_registries()
        self.statusBar().showMessage(self.tr("Saved {name}").format(name=doc.name), 3000)
        self._update_state()
        return True

    def publish_current(self) -> VersionInfo | None:
        """Publish the saved draft of the shown registry as a new version."""
        doc = self._editable()
        if doc is None:
            return None
        if doc.is_dirty:
            if not self.prompts.save_before_publish(self, doc.name):
                return None
            if not self.save_document(doc):
                return None

        def publish(request: PublishRequest) -> VersionInfo:
            return self.store.publish(
                doc.name,
                notes=request.notes,
                semver=request.semver,
                author=_author(),
                review=request.review,
            )

        from studio.ui.diff.sides import publish_baseline

        try:
            baseline = publish_baseline(self.store, doc.name)
        except (StoreError, ValueError) as exc:  # publishing must not depend on the diff
            _log.warning("no review diff for %s: %s", doc.name, exc)
            baseline = None
        from studio.ui.dialogs.publish_dialog import ReviewedPublisher
        from studio.ui.evals.publish_section import PublishEvals

        evals = PublishEvals(self.store, doc.name)
        publisher = ReviewedPublisher(publish, baseline, _author(), evals)
        info = self.prompts.publish(self, doc.name, len(doc.workspace.entries), publisher)
        if info is not None:
            self.refresh_registries()
            self._refresh_versions()
            self.versions_panel.select_version(info.number)
            label = f"{info.number}" + (f" ({info.semver})" if info.semver else "")
            self.statusBar().showMessage(
                self.tr("Published {name} version {label}").format(name=doc.name, label=label), 5000
            )
        return info

    def _open_selected_version(self) -> None:
        number = self.versions_panel.selected_version()
        if number is None:
            doc = self.current_document()
            latest = self.registry_model.registries()
            info = next((r for r in latest if doc and r.name == doc.name), None)
            number = info.latest_version if info else None
        if number is not None:
            self.open_version(number)

    def _refresh_versions(self) -> None:
        doc = self.current_document()
        if doc is None:
            self.versions_panel.set_versions(None, [])
            return
        try:
            versions = self.store.list_versions(doc.name)
        except StoreError as exc:
            _log.warning("cannot list versions of %s: %s", doc.name, exc)
            versions = []
        self.versions_panel.set_versions(doc.name, versions)
        if doc.read_only and doc.workspace.read_only_version is not None:
            self.versions_panel.select_version(doc.workspace.read_only_version)

    # ------------------------------------------------------------------ state

    def _update_actions(self) -> None:
        doc = self.current_document()
        editable = doc is not None and not doc.read_only
        has_tool = self.selected_key() is not None
        a = self.actions
        a.new_tool.setEnabled(editable)
        a.duplicate_tool.setEnabled(editable and has_tool)
        a.delete_tool.setEnabled(editable and has_tool)
        a.save.setEnabled(editable and doc is not None and doc.is_dirty)
        a.publish.setEnabled(editable)
        a.back_to_draft.setEnabled(doc is not None and doc.read_only)
        a.export_registry.setEnabled(doc is not None)
        a.registry_settings.setEnabled(editable)
        a.delete_registry.setEnabled(doc is not None)
        self.versions_panel.set_publish_enabled(editable)

    def _update_state(self) -> None:
        doc = self.current_document()
        self._update_actions()
        if doc is None and self.opening is not None:
            self.setWindowTitle(f"{self.opening.name} — {APP_TITLE}")
            self.status_label.setText(self.opening.text)
            return
        if doc is None:
            self.setWindowTitle(APP_TITLE)
            self.status_label.setText(self.tr("No registry open"))
            return
        ws = doc.workspace
        n = len(ws.entries)
        count = self.tr("1 tool") if n == 1 else self.tr("{count} tools").format(count=n)
        if doc.read_only:
            version = ws.read_only_version
            title = self.tr("{name} v{version} (read-only)").format(name=doc.name, version=version)
            self.setWindowTitle(f"{title} — {APP_TITLE}")
            self.status_label.setText(
                " · ".join(
                    (
                        doc.name,
                        self.tr("version {number}").format(number=version),
                        count,
                        self.tr("read-only"),
                    )
                )
            )
            return
        dirty = doc.is_dirty
        self.setWindowTitle(f"{'*' if dirty else ''}{doc.name} — {APP_TITLE}")
        saved = self._last_saved.get(doc.name)
        if saved is not None:
            when = self.tr("last saved {time}").format(time=f"{saved:%H:%M:%S}")
        else:
            info = next((r for r in self.registry_model.registries() if r.name == doc.name), None)
            stored = info.updated_at.replace("T", " ")[:19] if info else ""
            when = self.tr("stored {time}").format(time=stored) if info else ""
        state = self.tr("unsaved changes") if dirty else self.tr("saved")
        self.status_label.setText(" · ".join(p for p in (doc.name, count, state, when) if p))

    def _set_dark(self, dark: bool) -> None:
        from studio.ui.app import apply_palette  # app imports this module

        app = QApplication.instance()
        if isinstance(app, QApplication):
            apply_palette(app, "dark" if dark else "light")
        QSettings().setValue("ui/theme", "dark" if dark else "light")

    # ------------------------------------------------------------------ playground

    def show_playground(self, on: bool = True) -> PlaygroundView | None:
        """Switch the centre to the Playground (built on first use) or back to the Editor."""
        if on and self.playground is None:
            from studio.ui.playground.view import PlaygroundView  # only when first shown

            self.playground = PlaygroundView(self.store)
            pa = self.playground_actions
            self.playground.addActions([pa.run_prompt, pa.stop_run])
            self.playground.sidebar.working_copy = self.working_copy
            self.modes.addWidget(self.playground)
            self.playground.size_panes(self.width())
        if on and self.playground is not None:
            self.playground.sidebar.refresh()
            self._playground_follow()
        self._switch_mode(self.playground if on else None)
        target = (
            self.playground_actions.show_playground if on else self.playground_actions.show_editor
        )
        target.setChecked(True)
        return self.playground

    def working_copy(self, registry: str) -> WorkingCopy | None:
        """The editor's draft of ``registry`` as shown (None when it is not open)."""
        from studio.ui.playground.sidebar import WorkingCopy

        doc = self.documents.get(registry)
        if doc is None or doc.read_only:
            return None
        stack = doc.undo_stack
        clean = stack.cleanIndex()
        unsaved = abs(stack.index() - clean) if clean >= 0 else max(1, stack.index())
        return WorkingCopy(doc.workspace.registry(), unsaved if doc.is_dirty else 0)

    def _playground_follow(self) -> None:
        """The Playground shows the editor's registry (unless pinned) and its working copy."""
        if self.playground is None:
            return
        doc = self.current_document()
        name = doc.name if doc is not None else self.opening.name if self.opening else None
        self.playground.sidebar.follow(name)
        self.playground.update_header()

    def _follow_undo_in_playground(self, _index: int) -> None:
        if self.current_mode() == "playground":
            self._playground_follow()

    def _on_mode_toggled(self, _checked: bool) -> None:
        pa = self.playground_actions
        if pa.show_playground.isChecked() and self.modes.currentWidget() is not self.playground:
            self.show_playground(True)
        elif pa.show_editor.isChecked() and self.modes.currentIndex() != 0:
            self.show_playground(False)

    def _switch_mode(self, widget: QWidget | None) -> None:
        """Show ``widget`` in the centre (None: the Editor); editor docks follow the Editor.

        Docks are hidden before a mode is shown and shown after the Editor is:
        a moment with both the docks and a tall mode would raise the window's
        minimum size, and the window would grow and stay grown.
        """
        was_editor = self.modes.currentIndex() == 0
        is_editor = widget is None or self.modes.indexOf(widget) == 0
        docks = self.findChildren(QDockWidget)
        if was_editor and not is_editor:
            for dock in docks:  # editor docks (versions, lint) make no sense beside a run
                dock.setProperty("shownInEditor", dock.isVisible())
                dock.hide()
        if widget is None:
            self.modes.setCurrentIndex(0)
        else:
            self.modes.setCurrentWidget(widget)
        self._show_mode_toolbar(self.current_mode())
        if is_editor and not was_editor:
            for dock in docks:
                if dock.property("shownInEditor"):
                    dock.show()

    def show_sessions(self) -> SessionsView:
        """Switch the centre to the Sessions mode (built on first use), the list re-read."""
        if self.sessions_view is None:
            from studio.ui.sessions.browser import SessionsView  # only when first shown

            self.sessions_view = SessionsView(self.store)
            self.modes.addWidget(self.sessions_view)
            self.sessions_view.size_panes(self.width())
        else:
            self.sessions_view.refresh()
        self._switch_mode(self.sessions_view)
        self.sessions_action.setChecked(True)
        return self.sessions_view

    def show_diff(self, compare_version: int | None = None) -> DiffView:
        """Switch the centre to the Diff mode (built on first use) for the shown registry.

        Args:
            compare_version: Compare this version with the draft; None keeps
                the sides picked before (latest version → draft at first).
        """
        doc = self.current_document()
        name = doc.name if doc else None
        if self.diff_view is None:
            from studio.ui.diff.diff_view import DiffView  # only when first shown

            self.diff_view = DiffView(self.store)
            self.modes.addWidget(self.diff_view)
        if compare_version is None and not self._has_versions(name):
            self._show_diff_empty(name)
            return self.diff_view
        if compare_version is not None and name is not None:
            if self.diff_view.registry != name:
                self.diff_view.set_registry(name)
            self.diff_view.compare_version(compare_version)
        elif self.diff_view.registry != name or self.diff_view.result is None:
            self.diff_view.set_registry(name)
        else:
            self.diff_view.refresh_sides()
            self.diff_view.recompute()
        self._switch_mode(self.diff_view)
        self.diff_action.setChecked(True)
        return self.diff_view

    def _has_versions(self, name: str | None) -> bool:
        if name is None:
            return False
        try:
            return bool(self.store.list_versions(name))
        except StoreError:
            return False

    def _show_diff_empty(self, name: str | None) -> None:
        """Diff before the first publish: say what a diff compares, offer Publish."""
        if self.diff_empty is None:
            self.diff_empty = EmptyStateWidget()
            self.diff_empty.setObjectName("diffEmpty")
            self.diff_empty.actionRequested.connect(self._publish_from_diff)
            self.modes.addWidget(self.diff_empty)
        if name is None:
            self.diff_empty.show_state(
                self.tr("No registry open"),
                self.tr(
                    "Open or import a registry in the Editor (Ctrl+1) to compare its versions."
                ),
            )
        else:
            self.diff_empty.show_state(
                self.tr("Nothing to compare yet"),
                self.tr(
                    "{registry} has no published version. A diff compares two versions, or a "
                    "version with the draft: publish the draft, and every later edit shows "
                    "here as breaking, behavioural or compatible."
                ).format(registry=name),
                self.tr("Publish the draft…"),
            )
        self._switch_mode(self.diff_empty)
        self.diff_action.setChecked(True)

    def _publish_from_diff(self) -> None:
        if self.publish_current() is not None:
            self.show_diff()

    def show_release(self) -> ReleaseView:
        """Switch the centre to the Release mode (built on first use) for the shown registry."""
        if self.release_view is None:
            from studio.ui.release import ReleaseView  # only when first shown

            self.release_view = ReleaseView(self.store)
            self.release_view.publishRequested.connect(self._publish_from_release)
            self.modes.addWidget(self.release_view)
        doc = self.current_document()
        self.release_view.set_registry(doc.name if doc else None)
        self._switch_mode(self.release_view)
        self.release_action.setChecked(True)
        return self.release_view

    def _publish_from_release(self) -> None:
        """The Release mode's empty state: publish the draft, then show its channels."""
        if self.publish_current() is not None and self.release_view is not None:
            self.release_view.refresh()

    # ------------------------------------------------------------------ closing

    def confirm_unsaved(self) -> bool:
        """Ask about unsaved drafts; True when it is fine to close or switch database."""
        dirty = [d for d in self.documents.values() if not d.read_only and d.is_dirty]
        if not dirty:
            return True
        answer = self.prompts.unsaved_changes(self, [d.name for d in dirty])
        if answer == "cancel":
            return False
        if answer == "discard":
            return True
        return all(self.save_document(d) for d in dirty)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._sized:
            # Split by the width actually shown: the editor gets the most room,
            # and on small screens the list and preview give way first.
            self._sized = True
            width = max(self.splitter.width(), self.width())
            left = 200 if width < 1100 else 240
            preview = max(220, int(width * 0.3))
            self.splitter.setSizes([left, max(300, width - left - preview), preview])
            height = self.height()
            # The versions share their dock area with the lint views (problems, scores…).
            self.resizeDocks([self.versions_dock], [max(150, height // 4)], Qt.Orientation.Vertical)
            # A preview whose debounce ran out while the window was laid out (an
            # export, a token count: tens of ms) waits for the first paint.
            if self.preview.postpone():
                self.after_first_paint(self.preview.schedule)
            QTimer.singleShot(1000, self, self._first_painted)  # should no paint come

    def after_first_paint(self, work: Callable[[], None]) -> None:
        """Run ``work`` once the shown window has painted; now if it has, or is not shown.

        What the first paint does not need (the first lint, a preview) must not
        compete with it for the GIL.
        """
        if self._painted or not self.isVisible():
            work()
        else:
            self._after_first_paint.append(work)

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if not self._painted:
            self._first_painted()

    def _first_painted(self) -> None:
        if self._painted:
            return
        self._painted = True
        waiting, self._after_first_paint = self._after_first_paint, []
        for work in waiting:
            work()

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.confirm_unsaved():
            self._cancel_open()
            if self._open_jobs is not None:
                self._open_jobs.wait()
            self.editor.set_tool(None, None)
            self.lint_ops.shutdown()
            self.registry_ops.shutdown()
            if self.release_view is not None:
                self.release_view.shutdown()
            if self.evals_view is not None:
                self.evals_view.shutdown()
            if self.sessions_view is not None:
                self.sessions_view.shutdown()
            if self.diff_view is not None:
                self.diff_view.runner.wait()
            self._closed = True
            event.accept()
        else:
            event.ignore()


def _author() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no login name in some containers
        return ""
