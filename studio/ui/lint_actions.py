"""The main window's lint features: controllers per draft, docks, jumps, fixes, config.

:class:`LintOperations` creates one :class:`LintController` per open draft,
shows the shown draft's report in the problems panel, the similar-tools view,
the scores and the editor's field markers, and carries out what the user asks
for in those views (jump to a field, apply a quick fix as one undo step,
suppress with a reason, disable a rule, show a rule's rationale).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, QTimer
from PySide6.QtWidgets import QDockWidget, QInputDialog, QLabel, QLineEdit, QMessageBox, QWidget

from studio.lint import Finding, Rule
from studio.ui.i18n import lint_text
from studio.ui.lint_controller import LintConfigNotSaved, LintController, fix_problem
from studio.ui.views.problems_panel import ProblemsPanel, counts_text
from studio.ui.widgets.field_markers import severity_word

if TYPE_CHECKING:
    from studio.lint import LintReport
    from studio.ui.document import RegistryDocument
    from studio.ui.main_window import MainWindow
    from studio.ui.views.similar_tools_view import SimilarToolsView
    from studio.ui.widgets.score_widget import ScoreWidget


class LintPrompts:
    """The lint questions the window asks; tests replace these methods."""

    def suppression_reason(self, parent: QWidget, finding: Finding) -> str | None:
        """The reason for suppressing ``finding``; None when cancelled."""
        while True:
            text, ok = QInputDialog.getText(
                parent,
                QCoreApplication.translate("LintPrompts", "Suppress finding"),
                QCoreApplication.translate(
                    "LintPrompts",
                    "Why is this {rule_id} finding on {tool} acceptable? The reason is stored "
                    "with the registry and shown in exports.",
                ).format(
                    rule_id=finding.rule_id,
                    tool=finding.tool or QCoreApplication.translate("LintPrompts", "the registry"),
                ),
                QLineEdit.EchoMode.Normal,
            )
            if not ok:
                return None
            if text.strip():
                return text.strip()
            QMessageBox.information(
                parent,
                QCoreApplication.translate("LintPrompts", "Reason required"),
                QCoreApplication.translate("LintPrompts", "A suppression needs a reason."),
            )

    def show_rationale(self, parent: QWidget, rule: Rule) -> None:
        """Explain a rule."""
        box = QMessageBox(parent)
        box.setWindowTitle(rule.id)
        box.setIcon(QMessageBox.Icon.Information)
        box.setText(
            QCoreApplication.translate(
                "LintPrompts", "{id} ({category}, {severity} by default)"
            ).format(
                id=rule.id,
                category=lint_text(rule.id, "category", rule.category),
                severity=severity_word(rule.default_severity),
            )
        )
        box.setInformativeText(lint_text(rule.id, "rationale", rule.rationale))
        box.exec()


class _LanguageWatch(QObject):
    """Calls ``on_change`` once after the application's language changed.

    Qt sends one LanguageChange per translator removed or installed (a switch
    is two to four of them): the call is made once, after they are all in.
    """

    def __init__(self, watched: QWidget, on_change: Callable[[], None]) -> None:
        super().__init__(watched)
        self._on_change = on_change
        self._pending = False
        watched.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.LanguageChange and not self._pending:
            self._pending = True
            QTimer.singleShot(0, self, self._fire)
        return False

    def _fire(self) -> None:
        self._pending = False
        # A closed window (a test's, or one waiting for deletion) still hears the
        # application's LanguageChange: nothing of it is rebuilt then.
        if getattr(self.parent(), "_closed", False):
            return
        self._on_change()


class _Placeholder(QWidget):
    """What a dock holds until its view is built."""


def _set_dock_widget(dock: QDockWidget, view: QWidget) -> None:
    """Put ``view`` in ``dock``; the widget it held before is deleted."""
    old = dock.widget()
    dock.setWidget(view)
    if old is not None and old is not view:
        old.deleteLater()


def _dock(window: MainWindow, title: str, name: str, widget: QWidget) -> QDockWidget:
    dock = QDockWidget(title, window)
    dock.setObjectName(name)
    dock.setWidget(widget)
    dock.setFeatures(
        QDockWidget.DockWidgetFeature.DockWidgetMovable
        | QDockWidget.DockWidgetFeature.DockWidgetClosable
        | QDockWidget.DockWidgetFeature.DockWidgetFloatable
    )
    return dock


class LintOperations:
    """Lint controllers and views of a :class:`MainWindow`.

    The Problems view is built with the window (its dock is on top at start);
    the Similar tools and Scores views, in docks tabbed behind it, are built
    when their dock is first shown, or when :attr:`similar_view` or
    :attr:`score_widget` is first read: the window paints before anything it
    does not show is built (issue #16).

    Args:
        window: The main window (its editor, tool list, actions and prompts).
    """

    def __init__(self, window: MainWindow) -> None:
        self._w = window
        self.controllers: dict[str, LintController] = {}
        self._current: str | None = None
        self.problems_dock = _dock(window, "", "problemsDock", _Placeholder())
        self.similar_dock = _dock(window, "", "similarToolsDock", _Placeholder())
        self.scores_dock = _dock(window, "", "scoresDock", _Placeholder())
        self._similar_view: SimilarToolsView | None = None
        self._score_widget: ScoreWidget | None = None
        self.similar_dock.visibilityChanged.connect(
            lambda shown: shown and self._build_similar_view()
        )
        self.scores_dock.visibilityChanged.connect(lambda shown: shown and self._build_scores())
        self.counter_label = QLabel(window)
        self._build_views()
        # The views are built again in the new language when it changes
        # (the shell rebuilds its own widgets; the docks are ours).
        self._language_watch = _LanguageWatch(window, self.retranslate)

    @property
    def similar_view(self) -> SimilarToolsView:
        """The Similar tools view (built on first use, showing the current report)."""
        return self._build_similar_view()

    @property
    def score_widget(self) -> ScoreWidget:
        """The Scores view (built on first use, showing the current report and tool)."""
        return self._build_scores()

    def _build_similar_view(self) -> SimilarToolsView:
        if self._similar_view is None:
            from studio.ui.views.similar_tools_view import SimilarToolsView

            view = SimilarToolsView(self._w)
            view.toolActivated.connect(self._open_tool)
            self._similar_view = view
            _set_dock_widget(self.similar_dock, view)
            report = self._report()
            view.set_pairs(report.similar if report else ())
        return self._similar_view

    def _build_scores(self) -> ScoreWidget:
        if self._score_widget is None:
            from studio.ui.widgets.score_widget import ScoreWidget

            widget = ScoreWidget(self._w)
            self._score_widget = widget
            _set_dock_widget(self.scores_dock, widget)
            widget.set_report(self._report())
            tool = self._w.selected_tool()
            widget.set_tool(tool.name if tool else None)
        return self._score_widget

    def _report(self) -> LintReport | None:
        controller = self.current_controller()
        return controller.report if controller else None

    def _build_views(self) -> None:
        """The problems view, in the current language, docked; the other two when first shown.

        Called again on a language change: a similar-tools or scores view already
        built is dropped, to be built again (in the new language) when next used.
        """
        self.problems_panel = ProblemsPanel(self._w)
        _set_dock_widget(self.problems_dock, self.problems_panel)
        for dock in (self.similar_dock, self.scores_dock):
            if dock.widget() is not None and not isinstance(dock.widget(), _Placeholder):
                _set_dock_widget(dock, _Placeholder())
        self._similar_view = self._score_widget = None
        self.problems_dock.setWindowTitle(QCoreApplication.translate("LintOperations", "Problems"))
        self.similar_dock.setWindowTitle(
            QCoreApplication.translate("LintOperations", "Similar tools")
        )
        self.scores_dock.setWindowTitle(QCoreApplication.translate("LintOperations", "Scores"))
        self.counter_label.setToolTip(
            QCoreApplication.translate(
                "LintOperations", "Lint findings of the shown draft (F8: next problem)"
            )
        )
        p = self.problems_panel
        p.findingActivated.connect(self.jump_to)
        p.fixRequested.connect(self.apply_fix)
        p.suppressRequested.connect(self.suppress)
        p.disableRuleRequested.connect(lambda f: self.disable_rule(f.rule_id))
        p.rationaleRequested.connect(lambda f: self.show_rationale(f.rule_id))
        p.profileChosen.connect(self.set_profile)
        # A view on screen when the language changed is built again at once.
        if self.similar_dock.isVisible():
            self._build_similar_view()
        if self.scores_dock.isVisible():
            self._build_scores()

    def retranslate(self) -> None:
        """Build the lint views again in the current language and show the current report."""
        self._build_views()
        self.activate(self._current)

    # ------------------------------------------------------------------ layout

    def install(self) -> None:
        """Dock the views below the editor, tabbed with the versions: problems first."""
        w = self._w
        bottom = Qt.DockWidgetArea.BottomDockWidgetArea
        w.addDockWidget(bottom, self.problems_dock)
        w.tabifyDockWidget(self.problems_dock, self.similar_dock)
        w.tabifyDockWidget(self.similar_dock, self.scores_dock)
        w.tabifyDockWidget(self.scores_dock, w.versions_dock)
        self.problems_dock.raise_()
        w.statusBar().addPermanentWidget(self.counter_label)
        a = w.actions
        a.run_lint.triggered.connect(self.run_lint)
        a.next_problem.triggered.connect(lambda: self.step(+1))
        a.previous_problem.triggered.connect(lambda: self.step(-1))
        for action in a.lint_profiles:
            profile = str(action.data())
            action.triggered.connect(lambda _checked=False, p=profile: self.set_profile(p))

    # ------------------------------------------------------------------ documents

    def document_opened(self, key: str, document: RegistryDocument) -> None:
        """Start linting a newly opened draft (published versions are not linted)."""
        if document.read_only or key in self.controllers:
            return
        # The first lint (a worker sharing the GIL) starts after the window's first paint.
        controller = LintController(document, parent=self._w, start_gate=self._w.after_first_paint)
        controller.reportChanged.connect(lambda report, k=key: self._on_report(k, report))
        controller.busyChanged.connect(lambda busy, k=key: self._on_busy(k, busy))
        controller.failed.connect(
            lambda message: self._w.statusBar().showMessage(
                QCoreApplication.translate("LintOperations", "Lint failed: {message}").format(
                    message=message
                ),
                8000,
            )
        )
        self.controllers[key] = controller

    def document_closed(self, key: str) -> None:
        controller = self.controllers.pop(key, None)
        if controller is not None:
            controller.shutdown()
            controller.deleteLater()
        if self._current == key:
            self.activate(None)

    def activate(self, key: str | None) -> None:
        """Show the report of the draft ``key`` (None, or a version: nothing)."""
        self._current = key
        controller = self.current_controller()
        report = controller.report if controller else None
        self._show(report)
        if controller is not None:
            self.problems_panel.set_profile(controller.profile)
            self._on_busy(key or "", controller.busy)
            self._check_profile(controller.profile)
        else:
            self.problems_panel.set_state(
                QCoreApplication.translate("LintOperations", "published versions are not linted")
                if key
                else ""
            )
        self._update_enabled()

    def current_controller(self) -> LintController | None:
        return self.controllers.get(self._current) if self._current else None

    def shutdown(self) -> None:
        for key in list(self.controllers):
            self.document_closed(key)

    # ------------------------------------------------------------------ reports

    def _on_report(self, key: str, report: LintReport) -> None:
        if key == self._current:
            self._show(report)

    def _on_busy(self, key: str, busy: bool) -> None:
        if key == self._current:
            self.problems_panel.set_state(
                QCoreApplication.translate("LintOperations", "linting…") if busy else ""
            )
            if busy and self.current_controller() and self.current_controller().report is None:
                self.counter_label.setText(QCoreApplication.translate("LintOperations", "linting…"))

    def _show(self, report: LintReport | None) -> None:
        self.problems_panel.set_report(report)
        if self._similar_view is not None:  # else it reads the report when built
            self._similar_view.set_pairs(report.similar if report else ())
        if self._score_widget is not None:
            self._score_widget.set_report(report)
        self.counter_label.setText(counts_text(report))
        self.tool_selected()

    def tool_selected(self) -> None:
        """Refresh the markers and scores of the selected tool."""
        tool = self._w.selected_tool()
        controller = self.current_controller()
        report = controller.report if controller else None
        if self._score_widget is not None:
            self._score_widget.set_tool(tool.name if tool else None)
        markers: dict[str, list[Finding]] = {}
        if report is not None and tool is not None:
            for f in report.for_tool(tool.name):
                markers.setdefault(f.path, []).append(f)
        self._w.editor.set_markers(markers)

    # ------------------------------------------------------------------ commands

    def run_lint(self) -> None:
        controller = self.current_controller()
        if controller is not None:
            controller.run_full()

    def set_profile(self, profile: str) -> None:
        controller = self.current_controller()
        if controller is None:
            return
        controller.set_profile(profile)
        self.problems_panel.set_profile(profile)
        self._check_profile(profile)

    def _check_profile(self, profile: str) -> None:
        for action in self._w.actions.lint_profiles:
            action.setChecked(action.data() == profile)

    def step(self, delta: int) -> None:
        """Select the next/previous problem in the panel and jump to it (F8/Shift+F8)."""
        if not self.problems_dock.isVisible():
            self.problems_dock.show()
        self.problems_dock.raise_()
        finding = self.problems_panel.step(delta)
        if finding is not None:
            self.jump_to(finding, focus_field=True)

    def jump_to(self, finding: Finding, focus_field: bool = True) -> None:
        """Select the finding's tool and show and focus its field in the editor."""
        if finding.tool is None:
            return
        w = self._w
        selected = w.selected_tool()
        if selected is None or selected.name != finding.tool:
            w.select_tool_named(finding.tool)
        if focus_field:
            w.editor.focus_path(finding.path)

    def _open_tool(self, name: str) -> None:
        self._w.select_tool_named(name)

    def apply_fix(self, finding: Finding) -> None:
        controller = self.current_controller()
        if controller is None or finding.fix is None:
            return
        problem = fix_problem(controller, finding)
        if problem is not None:
            self._w.prompts.error(
                self._w,
                QCoreApplication.translate("LintOperations", "Quick fix not applied"),
                problem,
            )
        else:
            self._w.statusBar().showMessage(
                QCoreApplication.translate("LintOperations", "Applied: {label}").format(
                    label=finding.fix.label
                ),
                3000,
            )

    def suppress(self, finding: Finding) -> bool:
        """Ask for a reason and store the suppression; False when cancelled or refused."""
        controller = self.current_controller()
        if controller is None:
            return False
        reason = self._w.prompts.suppression_reason(self._w, finding)
        if reason is None or not reason.strip():
            return False
        return self._config(
            lambda: controller.suppress(finding, reason),
            QCoreApplication.translate("LintOperations", "Suppressed"),
        )

    def disable_rule(self, rule_id: str) -> bool:
        controller = self.current_controller()
        if controller is None:
            return False
        return self._config(
            lambda: controller.disable_rule(rule_id),
            QCoreApplication.translate("LintOperations", "Disabled {rule_id}").format(
                rule_id=rule_id
            ),
        )

    def _config(self, change, done: str) -> bool:  # type: ignore[no-untyped-def]
        try:
            change()
        except LintConfigNotSaved as exc:
            self._w.prompts.error(
                self._w,
                QCoreApplication.translate("LintOperations", "Lint settings not saved"),
                str(exc),
            )
            return False
        self._w.statusBar().showMessage(
            QCoreApplication.translate(
                "LintOperations", "{done}; stored in the registry settings"
            ).format(done=done),
            4000,
        )
        return True

    def show_rationale(self, rule_id: str) -> None:
        from studio.lint import rule_info

        rule = rule_info(rule_id)
        if rule is not None:
            self._w.prompts.show_rationale(self._w, rule)

    def _update_enabled(self) -> None:
        on = self.current_controller() is not None
        a = self._w.actions
        for action in (a.run_lint, *a.lint_profiles):
            action.setEnabled(on)
