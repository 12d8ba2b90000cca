"""The Evals mode's page: a registry's eval sets and cases, its runs, and a run's report.

Three tabs keep it usable at 900×600: **Cases** (the set's table with tag,
result and text filters; add, edit and delete validated by
:func:`~studio.evals.model.parse_case`, saved to the registry's set in the
database at once; import and export of ``.jsonl`` files), **Runs** (the
registry's runs, a new run or the selected one resumed, live progress with
partial pass rates, Cancel) and **Report** (:class:`ReportView`).

Every choice that needs a file or a name goes through a small ``ask_*``
method, so tests drive the page without native dialogs.
"""

from __future__ import annotations

import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QLineEdit,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QTableView,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from registry_db import ConflictError, NotFoundError, RegistryStore, StoreError
from studio.evals.jsonl import EvalSet, EvalSetError, check_set_name
from studio.evals.model import EvalCase
from studio.evals.results import Attempt
from studio.evals.store import EvalStore
from studio.ui.evals.case_dialog import CaseDialog
from studio.ui.evals.cases_model import (
    RESULT_ANY,
    RESULT_FAILED,
    RESULT_NOT_RUN,
    RESULT_PASSED,
    CasesFilter,
    CasesModel,
)
from studio.ui.evals.report_view import ReportView, report_of
from studio.ui.evals.run_controller import EvalRunController, RunRequest, request_for_run
from studio.ui.style import theme_colour

_RunRole = Qt.ItemDataRole.UserRole + 31


def case_results(attempts: list[Attempt], variant: str | None) -> dict[str, bool]:
    """Per case: passed after the pipeline in most scored attempts of ``variant`` (None: all)."""
    tally: dict[str, list[bool]] = defaultdict(list)
    for a in attempts:
        if a.scored and (variant is None or a.variant == variant) and a.pipeline is not None:
            tally[a.case_id].append(a.pipeline.passed)
    return {case: sum(v) * 2 > len(v) for case, v in tally.items()}


def _when(stamp: str) -> str:
    """``2026-12-01T23:08:59.654Z`` as ``2026-12-01 23:08:59`` (UTC, as stored)."""
    return stamp.replace("T", " ")[:19]


class EvalsView(QWidget):
    """The Evals mode (see the module docstring).

    Args:
        store: The open database.
        client_factory: Passed to the runner (tests route a profile to a loopback server).

    Signals:
        runFinished(str, str): run id and status, when a run ends.
    """

    runFinished = Signal(str, str)
    #: How often a running run's report is read again (at least; longer for big runs).
    PARTIAL_MS = 2000

    def __init__(
        self, store: RegistryStore, parent: QWidget | None = None, *, client_factory: Any = None
    ) -> None:
        super().__init__(parent)
        self.store = store
        self.evals = EvalStore(store)
        self.client_factory = client_factory
        self.registry: str | None = None
        self.eval_set: EvalSet | None = None
        self.revision: int | None = None
        self.controller = EvalRunController(store, self)
        self.controller.progressed.connect(self._on_progress)
        self.controller.finished.connect(self._on_finished)
        self.controller.started.connect(self._on_started)
        self._partial: dict[str, list[bool]] = defaultdict(list)
        self._running_id = ""
        self._followed = False
        # While a run goes, its report is read again now and then: partial results.
        self.partial_timer = QTimer(self)
        self.partial_timer.setInterval(self.PARTIAL_MS)
        self.partial_timer.timeout.connect(self._show_partial)

        # ---- the set row
        self.header = QLabel()
        self.header.setWordWrap(True)
        self.set_combo = QComboBox()
        self.set_combo.setAccessibleName(self.tr("Eval set"))
        self.set_combo.setMinimumContentsLength(12)
        self.set_combo.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.set_combo.currentIndexChanged.connect(self._on_set_chosen)
        self.new_set_button = QPushButton(self.tr("New set…"))
        self.import_button = QPushButton(self.tr("Import…"))
        self.import_button.setToolTip(self.tr("Add or replace a set from a .jsonl file"))
        self.export_button = QPushButton(self.tr("Export…"))
        self.export_button.setToolTip(self.tr("Write the set as a .jsonl file"))
        self.delete_set_button = QPushButton(self.tr("Delete set"))
        self.run_button = QPushButton(self.tr("Run…"))
        self.run_button.setToolTip(self.tr("Run the set against A and B with model profiles"))
        self.new_set_button.clicked.connect(self.new_set)
        self.import_button.clicked.connect(self.import_set)
        self.export_button.clicked.connect(self.export_set)
        self.delete_set_button.clicked.connect(self.delete_set)
        self.run_button.clicked.connect(self.open_run_dialog)
        set_row = QHBoxLayout()
        set_row.addWidget(QLabel(self.tr("Set:")))
        set_row.addWidget(self.set_combo, 1)
        for button in (self.new_set_button, self.import_button, self.export_button,
                       self.delete_set_button, self.run_button):  # fmt: skip
            set_row.addWidget(button)
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.hide()

        # ---- Cases
        self.cases_model = CasesModel(self)
        self.cases_filter = CasesFilter(self)
        self.cases_filter.setSourceModel(self.cases_model)
        self.cases_view = QTableView()
        self.cases_view.setModel(self.cases_filter)
        self.cases_view.setAccessibleName(self.tr("Cases"))
        self.cases_view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.cases_view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.cases_view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.cases_view.verticalHeader().hide()
        self.cases_view.setWordWrap(False)
        head = self.cases_view.horizontalHeader()
        head.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        head.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        head.resizeSection(0, 110)
        head.resizeSection(2, 170)
        head.resizeSection(3, 130)
        head.resizeSection(4, 70)
        self.cases_view.doubleClicked.connect(lambda _i: self.edit_case())
        self.text_filter = QLineEdit()
        self.text_filter.setPlaceholderText(self.tr("Filter by id or words"))
        self.text_filter.setClearButtonEnabled(True)
        self.text_filter.textChanged.connect(lambda t: self.cases_filter.set_filters(text=t))
        self.tag_filter = QComboBox()
        self.tag_filter.setAccessibleName(self.tr("Tag"))
        self.tag_filter.currentIndexChanged.connect(self._on_tag_filter)
        self.result_filter = QComboBox()
        self.result_filter.setAccessibleName(self.tr("Result"))
        for label, value in (
            (self.tr("Any result"), RESULT_ANY),
            (self.tr("Passed"), RESULT_PASSED),
            (self.tr("Failed"), RESULT_FAILED),
            (self.tr("Not run"), RESULT_NOT_RUN),
        ):
            self.result_filter.addItem(label, value)
        self.result_filter.currentIndexChanged.connect(
            lambda _i: self.cases_filter.set_filters(result=self.result_filter.currentData())
        )
        self.result_run = QLabel()
        self.result_run.setWordWrap(True)
        self.add_case_button = QPushButton(self.tr("Add case…"))
        self.edit_case_button = QPushButton(self.tr("Edit…"))
        self.delete_case_button = QPushButton(self.tr("Delete"))
        self.add_case_button.clicked.connect(self.add_case)
        self.edit_case_button.clicked.connect(lambda: self.edit_case())
        self.delete_case_button.clicked.connect(self.delete_cases)
        self.cases_count = QLabel()
        filters = QHBoxLayout()
        filters.addWidget(self.text_filter, 2)
        filters.addWidget(self.tag_filter, 1)
        filters.addWidget(self.result_filter, 1)
        case_buttons = QHBoxLayout()
        case_buttons.addWidget(self.cases_count, 1)
        for button in (self.add_case_button, self.edit_case_button, self.delete_case_button):
            case_buttons.addWidget(button)
        cases_page = QWidget()
        cl = QVBoxLayout(cases_page)
        cl.setContentsMargins(4, 4, 4, 4)
        cl.addLayout(filters)
        cl.addWidget(self.result_run)
        cl.addWidget(self.cases_view, 1)
        cl.addLayout(case_buttons)
        self.cases_filter.layoutChanged.connect(self._update_count)
        self.cases_filter.modelReset.connect(self._update_count)
        self.cases_filter.rowsInserted.connect(self._update_count)
        self.cases_filter.rowsRemoved.connect(self._update_count)

        # ---- Runs
        self.runs_table = QTableWidget()
        self.runs_table.setAccessibleName(self.tr("Runs"))
        self.runs_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.runs_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.runs_table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.runs_table.verticalHeader().hide()
        self.runs_table.setWordWrap(False)
        self.runs_table.horizontalHeader().setStretchLastSection(True)
        self.runs_table.itemSelectionChanged.connect(self._on_run_selected)
        self.runs_table.itemDoubleClicked.connect(lambda _i: self.show_report_tab())
        self.resume_button = QPushButton(self.tr("Resume"))
        self.resume_button.setToolTip(
            self.tr("Run the selected run again: what is stored is kept, the rest is sent")
        )
        self.resume_button.clicked.connect(self.resume_selected)
        self.cancel_button = QPushButton(self.tr("Cancel run"))
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.controller.cancel)
        self.report_button = QPushButton(self.tr("Report"))
        self.report_button.clicked.connect(self.show_report_tab)
        self.progress = QProgressBar()
        self.progress.setAccessibleName(self.tr("Run progress"))
        self.progress.setFormat("%v / %m")
        self.progress.setValue(0)
        self.progress.hide()  # shown while a run goes
        self.progress_label = QLabel(self.tr("No run going."))
        self.progress_label.setWordWrap(True)
        run_buttons = QHBoxLayout()
        run_buttons.addWidget(self.progress, 1)
        run_buttons.addStretch(0)
        for button in (self.resume_button, self.cancel_button, self.report_button):
            run_buttons.addWidget(button)
        runs_page = QWidget()
        rl = QVBoxLayout(runs_page)
        rl.setContentsMargins(4, 4, 4, 4)
        rl.addWidget(self.runs_table, 1)
        rl.addLayout(run_buttons)
        rl.addWidget(self.progress_label)

        # ---- Report
        self.report_view = ReportView()
        self.report_view.exportRequested.connect(self.export_report)

        self.tabs = QTabWidget()
        self.tabs.addTab(cases_page, self.tr("Cases"))
        self.tabs.addTab(runs_page, self.tr("Runs"))
        self.tabs.addTab(self.report_view, self.tr("Report"))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.header)
        layout.addLayout(set_row)
        layout.addWidget(self.message)
        layout.addWidget(self.tabs, 1)
        self.set_registry(None)

    def show_report_tab(self) -> None:
        self.tabs.setCurrentIndex(2)

    # ------------------------------------------------------------------ prompts (tests replace)

    def ask_set_name(self, title: str) -> str | None:
        name, ok = QInputDialog.getText(self, title, self.tr("Set name:"))
        return name.strip() if ok and name.strip() else None

    def ask_open_path(self) -> Path | None:
        path, _ = QFileDialog.getOpenFileName(
            self, self.tr("Import eval set"), "", self.tr("Eval sets (*.jsonl)")
        )
        return Path(path) if path else None

    def ask_save_path(self, title: str, suggested: str) -> Path | None:
        path, _ = QFileDialog.getSaveFileName(self, title, suggested)
        return Path(path) if path else None

    def confirm(self, text: str) -> bool:
        answer = QMessageBox.question(self, self.tr("Evals"), text)
        return answer == QMessageBox.StandardButton.Yes

    def edit_in_dialog(self, dialog: CaseDialog) -> EvalCase | None:
        return dialog.case if dialog.exec() else None

    def run_in_dialog(self, dialog: Any) -> RunRequest | None:
        return dialog.request() if dialog.exec() else None

    # ------------------------------------------------------------------ registry and sets

    def set_registry(self, registry: str | None) -> None:
        """Show ``registry``'s sets and runs (None: nothing open)."""
        changed = registry != self.registry
        self.registry = registry
        if registry is None:
            self.header.setText(self.tr("Open a registry to see its eval sets."))
        else:
            self.header.setText(
                self.tr("<b>{registry}</b>: eval sets, runs and A vs B reports").format(
                    registry=registry
                )
            )
        for button in (self.new_set_button, self.import_button):
            button.setEnabled(registry is not None)
        self.refresh(keep_set=not changed)

    def refresh(self, keep_set: bool = True) -> None:
        """Read the sets and runs again (the toolbar's Refresh)."""
        current = self.set_combo.currentData() if keep_set else None
        names: list[str] = []
        if self.registry is not None:
            try:
                names = [s.name for s in self.evals.summaries(self.registry)]
            except NotFoundError:
                names = []
        self.set_combo.blockSignals(True)
        self.set_combo.clear()
        for name in names:
            self.set_combo.addItem(name, name)
        if not names:
            self.set_combo.addItem(self.tr("(no eval set yet)"), None)
        index = self.set_combo.findData(current) if current else -1
        self.set_combo.setCurrentIndex(max(index, 0))
        self.set_combo.blockSignals(False)
        self._on_set_chosen()
        self.refresh_runs()

    def select_set(self, name: str) -> bool:
        index = self.set_combo.findData(name)
        if index < 0:
            return False
        self.set_combo.setCurrentIndex(index)
        return True

    def _on_set_chosen(self, *_args: object) -> None:
        name = self.set_combo.currentData()
        self.eval_set, self.revision = None, None
        if self.registry is not None and name:
            try:
                self.eval_set = self.evals.load(self.registry, name)
                self.revision = self.evals.stored(self.registry, name).revision
            except (NotFoundError, EvalSetError) as exc:
                self.show_message(str(exc), error=True)
        has_set = self.eval_set is not None
        for button in (self.export_button, self.delete_set_button, self.run_button,
                       self.add_case_button, self.edit_case_button,
                       self.delete_case_button):  # fmt: skip
            button.setEnabled(has_set)
        self.cases_model.set_cases(self.eval_set.cases if self.eval_set else ())
        tag = self.tag_filter.currentData()
        self.tag_filter.blockSignals(True)
        self.tag_filter.clear()
        self.tag_filter.addItem(self.tr("Any tag"), "")
        for t in self.cases_model.tags():
            self.tag_filter.addItem(t, t)
        self.tag_filter.setCurrentIndex(max(0, self.tag_filter.findData(tag)))
        self.tag_filter.blockSignals(False)
        self._on_tag_filter()
        self._update_count()

    def _on_tag_filter(self, *_args: object) -> None:
        self.cases_filter.set_filters(tag=str(self.tag_filter.currentData() or ""))

    def _update_count(self, *_args: object) -> None:
        self.cases_count.setText(
            self.tr("{shown} of {total} cases").format(
                shown=self.cases_filter.rowCount(), total=self.cases_model.rowCount()
            )
        )

    def show_message(self, text: str, *, error: bool = False) -> None:
        """A one-line notice above the tabs (red for errors); empty hides it."""
        colour = theme_colour("error_fg" if error else "muted_fg", self)
        self.message.setProperty("error", error)
        self.message.setStyleSheet(f"color: {colour};")
        self.message.setText(text)
        self.message.setVisible(bool(text))

    def new_set(self) -> str | None:
        if self.registry is None:
            return None
        name = self.ask_set_name(self.tr("New eval set"))
        if name is None:
            return None
        if reason := check_set_name(name):
            self.show_message(reason, error=True)
            return None
        try:
            self.evals.save_text(self.registry, name, "", expected_revision=0)
        except ConflictError:
            self.show_message(self.tr("A set named {name} exists already").format(name=name),
                              error=True)  # fmt: skip
            return None
        except (EvalSetError, StoreError) as exc:
            self.show_message(str(exc), error=True)
            return None
        self.show_message(self.tr("Created eval set {name}").format(name=name))
        self.refresh()
        self.select_set(name)
        return name

    def import_set(self) -> str | None:
        """Store a ``.jsonl`` file as the set its file name names (replacing one of that name)."""
        if self.registry is None:
            return None
        path = self.ask_open_path()
        if path is None:
            return None
        name = path.name.removesuffix(".jsonl")
        try:
            text = path.read_text(encoding="utf-8")
            self.evals.save_text(self.registry, name, text)
        except UnicodeDecodeError:
            self.show_message(self.tr("{path}: not UTF-8 text").format(path=path), error=True)
            return None
        except (OSError, EvalSetError, StoreError) as exc:
            self.show_message(str(exc), error=True)
            return None
        self.refresh()
        self.select_set(name)
        self.show_message(
            self.tr("Imported {count} cases into {name}").format(
                count=len(self.eval_set.cases) if self.eval_set else 0, name=name
            )
        )
        return name

    def export_set(self) -> Path | None:
        if self.registry is None or self.eval_set is None:
            return None
        path = self.ask_save_path(self.tr("Export eval set"), f"{self.eval_set.name}.jsonl")
        if path is None:
            return None
        try:
            text = self.evals.stored(self.registry, self.eval_set.name).text
            path.write_bytes(text.encode("utf-8"))  # byte for byte, LF kept
        except (OSError, StoreError) as exc:
            self.show_message(str(exc), error=True)
            return None
        self.show_message(self.tr("Exported to {path}").format(path=path))
        return path

    def delete_set(self) -> bool:
        if self.registry is None or self.eval_set is None:
            return False
        name = self.eval_set.name
        if not self.confirm(
            self.tr("Delete the eval set {name}? Its runs stay.").format(name=name)
        ):
            return False
        try:
            self.evals.delete(self.registry, name)
        except StoreError as exc:
            self.show_message(str(exc), error=True)
            return False
        self.show_message(self.tr("Deleted eval set {name}").format(name=name))
        self.refresh(keep_set=False)
        return True

    # ------------------------------------------------------------------ cases

    def _tools(self) -> list[str]:
        if self.registry is None:
            return []
        try:
            return [t.name for t in self.store.draft_registry(self.registry).tools]
        except StoreError:
            return []

    def selected_cases(self) -> list[EvalCase]:
        rows = sorted({i.row() for i in self.cases_view.selectionModel().selectedRows()})
        return [self.cases_filter.index(r, 0).data(CasesModel.CaseRole) for r in rows]

    def select_case(self, case_id: str) -> bool:
        row = self.cases_model.row_of(case_id)
        if row < 0:
            return False
        index = self.cases_filter.mapFromSource(self.cases_model.index(row, 0))
        if not index.isValid():
            return False
        self.cases_view.selectRow(index.row())
        return True

    def add_case(self) -> EvalCase | None:
        if self.eval_set is None:
            return None
        taken = {c.id for c in self.eval_set.cases}
        case = self._ask_case(CaseDialog(None, taken, self._tools(), self))
        if case is None:
            return None
        return case if self._save([*self.eval_set.cases, case], case.id) else None

    def edit_case(self, case: EvalCase | None = None) -> EvalCase | None:
        if self.eval_set is None:
            return None
        if case is None:
            chosen = self.selected_cases()
            if not chosen:
                return None
            case = chosen[0]
        taken = {c.id for c in self.eval_set.cases if c.id != case.id}
        edited = self._ask_case(CaseDialog(case, taken, self._tools(), self))
        if edited is None:
            return None
        cases = [edited if c.id == case.id else c for c in self.eval_set.cases]
        return edited if self._save(cases, edited.id) else None

    def _ask_case(self, dialog: CaseDialog) -> EvalCase | None:
        try:
            return self.edit_in_dialog(dialog)
        finally:
            dialog.stop_checking()
            dialog.deleteLater()

    def delete_cases(self) -> int:
        if self.eval_set is None:
            return 0
        chosen = {c.id for c in self.selected_cases()}
        if not chosen:
            return 0
        if not self.confirm(self.tr("Delete {count} case(s)?").format(count=len(chosen))):
            return 0
        cases = [c for c in self.eval_set.cases if c.id not in chosen]
        return len(chosen) if self._save(cases) else 0

    def _save(self, cases: list[EvalCase], select: str | None = None) -> bool:
        """Store the set's new cases (revision-checked: another window's edit is not lost)."""
        assert self.registry is not None and self.eval_set is not None
        name = self.eval_set.name
        try:
            self.evals.save_cases(self.registry, name, cases, expected_revision=self.revision)
        except ConflictError:
            self.show_message(
                self.tr("The set {name} was changed elsewhere; it was read again").format(
                    name=name
                ),
                error=True,
            )
            self._on_set_chosen()
            return False
        except (EvalSetError, StoreError) as exc:
            self.show_message(str(exc), error=True)
            return False
        self.show_message(self.tr("Saved {count} cases to {name}").format(count=len(cases),
                                                                          name=name))  # fmt: skip
        self.refresh()
        if select:
            self.select_case(select)
        return True

    # ------------------------------------------------------------------ runs

    def refresh_runs(self) -> None:
        from studio.evals.runs import list_runs

        runs = []
        if self.registry is not None:
            try:
                runs = list_runs(self.store, self.registry)
            except NotFoundError:
                runs = []
        selected = self.selected_run()
        header = [self.tr("Run"), self.tr("Set"), self.tr("Variants"), self.tr("Profiles"),
                  self.tr("Status"), self.tr("Attempts"), self.tr("Updated")]  # fmt: skip
        self.runs_table.blockSignals(True)
        self.runs_table.clear()
        self.runs_table.setColumnCount(len(header))
        self.runs_table.setHorizontalHeaderLabels(header)
        self.runs_table.setRowCount(len(runs))
        for row, run in enumerate(runs):
            config = run.config
            variants = " vs ".join(str(v.get("label", v.get("spec", "")))
                                   for v in config.get("variants") or ())  # fmt: skip
            profiles = ", ".join(str(p.get("name", "")) for p in config.get("profiles") or ())
            cells = [run.run_id, run.set_name, variants, profiles, run.status,
                     str(run.attempt_count), _when(run.updated_at)]  # fmt: skip
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(text)
                item.setData(_RunRole, run.run_id)
                self.runs_table.setItem(row, column, item)
        self.runs_table.resizeColumnsToContents()
        for column in range(self.runs_table.columnCount()):
            width = min(self.runs_table.columnWidth(column), 220)
            self.runs_table.setColumnWidth(column, width)
        self.runs_table.blockSignals(False)
        if selected:
            self.select_run(selected)
        self.resume_button.setEnabled(bool(self.selected_run()) and not self.controller.busy)

    def selected_run(self) -> str | None:
        items = self.runs_table.selectedItems()
        return str(items[0].data(_RunRole)) if items else None

    def select_run(self, run_id: str) -> bool:
        for row in range(self.runs_table.rowCount()):
            item = self.runs_table.item(row, 0)
            if item is not None and item.data(_RunRole) == run_id:
                self.runs_table.selectRow(row)
                return True
        return False

    def _on_run_selected(self) -> None:
        run_id = self.selected_run()
        self.resume_button.setEnabled(bool(run_id) and not self.controller.busy)
        self.show_run(run_id)

    def show_run(self, run_id: str | None) -> None:
        """Load ``run_id``'s report; its results mark the cases (pass/fail) for the filter."""
        from studio.evals.compare import load_run

        if run_id is None:
            self.report_view.show_report(None)
            self.cases_model.set_results({})
            self.result_run.setText("")
            return
        try:
            loaded = load_run(self.store, run_id)
        except NotFoundError as exc:
            self.show_message(str(exc), error=True)
            return
        report = report_of(loaded.attempts, loaded.title, loaded.roles)
        cases = list(self.eval_set.cases) if self.eval_set else []
        self.report_view.show_report(report, cases)
        candidate = report.comparison.b_label if report.comparison else None
        self.cases_model.set_results(case_results(loaded.attempts, candidate))
        self.cases_filter.refilter()
        self.result_run.setText(
            self.tr("Results from run {run} ({variant})").format(
                run=run_id, variant=candidate or self.tr("all variants")
            )
        )
        self._update_count()

    def open_run_dialog(self) -> bool:
        from studio.ui.evals.run_dialog import RunDialog

        if self.registry is None or self.eval_set is None:
            return False
        dialog = RunDialog(self.store, self.registry, self.eval_set.name, self)
        request = self.run_in_dialog(dialog)
        dialog.deleteLater()
        if request is None:
            return False
        return self.start_run(request)

    def resume_selected(self) -> bool:
        """Run the selected run again with its id: only what is missing is sent."""
        run_id = self.selected_run()
        if run_id is None:
            return False
        try:
            request = request_for_run(self.store, run_id)
        except (NotFoundError, ValueError) as exc:
            self.show_message(str(exc), error=True)
            return False
        return self.start_run(request)

    def start_run(self, request: RunRequest) -> bool:
        """Start ``request`` on the app's event loop (errors shown, nothing sent on error)."""
        from dataclasses import replace

        if self.client_factory is not None and request.client_factory is None:
            request = replace(request, client_factory=self.client_factory)
        try:
            self.controller.start(request)
        except (ValueError, RuntimeError) as exc:
            self.show_message(str(exc), error=True)
            return False
        return True

    def _on_started(self, run_id: str) -> None:
        self._partial = defaultdict(list)
        self._running_id = run_id
        self._followed = False
        self.partial_timer.start()
        self.cancel_button.setEnabled(True)
        self.resume_button.setEnabled(False)
        self.run_button.setEnabled(False)
        self.progress.setRange(0, 0)
        self.progress.show()
        self.progress_label.setText(self.tr("Run {run} starting…").format(run=run_id))
        self.show_message("")
        self.tabs.setCurrentIndex(1)

    def _on_progress(self, p: Any) -> None:
        self.progress.setRange(0, max(1, p.total))
        self.progress.setValue(p.done)
        last: Attempt | None = p.last
        if last is not None and last.scored and last.pipeline is not None:
            self._partial[last.variant].append(last.pipeline.passed)
        partial = " · ".join(
            f"{variant}: {sum(v) * 100 / len(v):.1f} % ({len(v)})"
            for variant, v in self._partial.items()
            if v
        )
        self.progress_label.setText(
            self.tr(
                "{done} of {total} attempts ({resumed} resumed, {cached} cached, {errors} errors, "
                "{skipped} skipped) · {requests} requests · {tokens} tokens"
            ).format(
                done=p.done, total=p.total, resumed=p.resumed, cached=p.cached, errors=p.errors,
                skipped=p.skipped, requests=p.requests, tokens=p.tokens_in + p.tokens_out,
            )
            + (("\n" + self.tr("Passing so far: {partial}").format(partial=partial))
               if partial else "")
        )  # fmt: skip

    def _show_partial(self) -> None:
        """The running run's report so far (attempts are stored as they arrive)."""
        if not self.controller.busy or not self._running_id:
            self.partial_timer.stop()
            return
        self.refresh_runs()
        reading_a_case = self.report_view.tabs.currentIndex() == 3  # left as it is
        if not self._followed:  # the first time: the running run becomes the one shown
            self._followed = self.select_run(self._running_id)
        if self.selected_run() in (None, self._running_id) and not reading_a_case:
            started = time.perf_counter()
            self.select_run(self._running_id)
            self.show_run(self._running_id)
            # A big run's report takes longer to read: never spend over ~10 % of the time on it.
            cost_ms = (time.perf_counter() - started) * 1000
            self.partial_timer.setInterval(max(self.PARTIAL_MS, round(cost_ms * 10)))

    def _on_finished(self, run_id: str, status: str, message: str) -> None:
        self.partial_timer.stop()
        self._running_id = ""
        self.cancel_button.setEnabled(False)
        self.run_button.setEnabled(self.eval_set is not None)
        if self.progress.maximum() == 0:
            self.progress.setRange(0, 1)
        words = {"done": self.tr("finished"), "cancelled": self.tr("cancelled (resume it later)"),
                 "failed": self.tr("failed")}  # fmt: skip
        text = self.tr("Run {run} {status}").format(run=run_id, status=words.get(status, status))
        if message:
            text += f": {message}"
        self.show_message(text, error=status == "failed")
        self.refresh_runs()
        self.select_run(run_id)
        self.show_run(run_id)
        self.runFinished.emit(run_id, status)

    # ------------------------------------------------------------------ export

    def export_report(self, fmt: str) -> Path | None:
        report = self.report_view.report
        if report is None:
            return None
        suffix = {"md": ".md", "html": ".html", "json": ".json"}[fmt]
        run = next((a.run_id for a in report.attempts), "report")
        path = self.ask_save_path(self.tr("Export eval report"), f"eval-{run}{suffix}")
        if path is None:
            return None
        try:
            self.report_view.export(fmt, path)
        except (OSError, ValueError) as exc:
            self.show_message(str(exc), error=True)
            return None
        self.show_message(self.tr("Report written to {path}").format(path=path))
        return path

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange and self.message.text():
            error = self.message.property("error") is True
            self.show_message(self.message.text(), error=error)  # its colour for the new theme
        super().changeEvent(event)

    def shutdown(self) -> None:
        """Cancel a run in flight (the window closes or the language switches)."""
        self.controller.cancel()
