"""Guard metrics: thresholds, the recommendation banner, the per-tool comparison and charts.

The report and the chart points are computed in a pool thread (they read every
outcome of the registry); each job carries a stamp and only the newest job's
result is shown, so a slow result never overwrites a newer one.
"""

from __future__ import annotations

import html
import logging
from dataclasses import dataclass

from PySide6.QtCore import QEvent, QObject, QRunnable, Qt, QThreadPool, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from registry_db.sessions import SessionStore
from registry_db.store import RegistryStore
from studio.release import GuardReport, GuardThresholds, guard_for_registry, metrics_over_time
from studio.release.guard import TimePoint
from studio.ui.release.charts import ReleaseChartsWidget
from studio.ui.release.models import ComparisonModel
from studio.ui.style import theme_colour

_log = logging.getLogger(__name__)

# Banner colours per recommendation come from the theme table (studio.ui.style):
# light and dark variants, re-applied on every theme switch.


@dataclass(frozen=True, slots=True)
class GuardResult:
    """What one guard job found: the report (None without a canary) and chart points."""

    registry: str
    report: GuardReport | None
    points: list[TimePoint]


class _Signals(QObject):
    done = Signal(int, object)
    failed = Signal(int, str)


class _GuardJob(QRunnable):
    """Reads outcomes and computes the report in a pool thread; never touches widgets."""

    def __init__(
        self, stamp: int, store: RegistryStore, registry: str, thresholds: GuardThresholds,
        period_chars: int, signals: _Signals,
    ) -> None:  # fmt: skip
        super().__init__()
        self.stamp, self.store, self.registry = stamp, store, registry
        self.thresholds, self.period_chars, self.signals = thresholds, period_chars, signals

    def run(self) -> None:
        try:
            report = guard_for_registry(self.store, self.registry, self.thresholds)
            outcomes = SessionStore.for_store(self.store).outcomes(self.registry)
            points = metrics_over_time(outcomes, period_chars=self.period_chars)
        except Exception as exc:  # a failed read must never take the GUI down
            _log.exception("guard metrics of %s failed", self.registry)
            self.signals.failed.emit(self.stamp, f"{type(exc).__name__}: {exc}")
        else:
            self.signals.done.emit(self.stamp, GuardResult(self.registry, report, points))


class GuardWidget(QWidget):
    """Is the canary healthy? Thresholds, recommendation, per-tool table, charts.

    Args:
        store: Where outcomes and channels live.
        pool: Thread pool for the computation (default: a private one-thread pool).

    Signals:
        finished(GuardResult): a computation's result is shown.
    """

    finished = Signal(object)

    def __init__(
        self, store: RegistryStore, pool: QThreadPool | None = None,
        parent: QWidget | None = None,
    ) -> None:  # fmt: skip
        super().__init__(parent)
        self.store = store
        self.registry: str | None = None
        self.result: GuardResult | None = None
        if pool is None:
            pool = QThreadPool(self)
            pool.setMaxThreadCount(1)
        self._pool = pool
        self._stamp = 0
        self._signals = _Signals()
        self._signals.done.connect(self._on_done)
        self._signals.failed.connect(self._on_failed)
        defaults = GuardThresholds()

        self.min_samples = QSpinBox()
        self.min_samples.setRange(1, 10_000_000)
        self.min_samples.setValue(defaults.min_samples)
        self.min_samples.setToolTip(self.tr("Calls each side needs before anything but hold"))
        self.max_drop = QDoubleSpinBox()
        self.max_drop.setRange(0.0, 100.0)
        self.max_drop.setDecimals(1)
        self.max_drop.setSuffix(" pp")
        self.max_drop.setValue(defaults.max_success_drop * 100)
        self.max_drop.setToolTip(self.tr("Largest tolerated drop of the canary's success rate"))
        self.p_value = QDoubleSpinBox()
        self.p_value.setRange(0.0001, 0.5)
        self.p_value.setDecimals(4)
        self.p_value.setSingleStep(0.01)
        self.p_value.setValue(defaults.p_value)
        self.p_value.setToolTip(self.tr("Significance level of the one-sided z-test"))
        self.p95_ratio = QDoubleSpinBox()
        self.p95_ratio.setRange(1.0, 100.0)
        self.p95_ratio.setDecimals(1)
        self.p95_ratio.setSuffix(" ×")
        self.p95_ratio.setValue(defaults.max_p95_ratio)
        self.p95_ratio.setToolTip(self.tr("Canary p95 above this multiple of stable's rolls back"))
        self.refresh_button = QPushButton(self.tr("Recompute"))

        form = QFormLayout()
        form.addRow(self.tr("Min. samples"), self.min_samples)
        form.addRow(self.tr("Max. success drop"), self.max_drop)
        form.addRow(self.tr("p-value"), self.p_value)
        form.addRow(self.tr("Max. p95 ratio"), self.p95_ratio)
        form.addRow(self.refresh_button)

        self.banner = QLabel()
        self.banner.setObjectName("guardBanner")
        self.banner.setWordWrap(True)
        self.banner.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.model = ComparisonModel(self)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.charts = ReleaseChartsWidget()

        top = QHBoxLayout()
        top.addLayout(form)
        right = QVBoxLayout()
        right.addWidget(self.banner)
        right.addWidget(self.table, 1)
        top.addLayout(right, 1)
        upper = QWidget()
        upper.setLayout(top)
        top.setContentsMargins(4, 4, 4, 4)
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(upper)
        self.splitter.addWidget(self.charts)
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setStretchFactor(1, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.splitter)

        self.refresh_button.clicked.connect(self.refresh)
        for spin in (self.min_samples, self.max_drop, self.p_value, self.p95_ratio):
            spin.editingFinished.connect(self.refresh)
        self._show_banner("none", self.tr("Pick a registry to see its canary's health."))

    # ------------------------------------------------------------------ public

    def thresholds(self) -> GuardThresholds:
        """The thresholds as the fields show them."""
        return GuardThresholds(
            min_samples=self.min_samples.value(),
            max_success_drop=self.max_drop.value() / 100,
            p_value=self.p_value.value(),
            max_p95_ratio=self.p95_ratio.value(),
        )

    def set_registry(self, registry: str | None) -> None:
        """Follow ``registry`` and recompute."""
        self.registry = registry
        self.refresh()

    def refresh(self) -> int:
        """Start a computation in the worker; return its stamp (older results are dropped)."""
        self._stamp += 1
        if self.registry is None:
            self.model.set_rows([])
            return self._stamp
        self._show_banner("none", self.tr("Computing guard metrics…"))
        job = _GuardJob(self._stamp, self.store, self.registry, self.thresholds(), 13,
                        self._signals)  # fmt: skip
        self._pool.start(job)
        return self._stamp

    def wait(self, msecs: int = 30_000) -> bool:
        """Block until queued jobs finished (shutdown and tests)."""
        return self._pool.waitForDone(msecs)

    def shutdown(self) -> None:
        """Drop whatever is still running (its result will be stale)."""
        self._stamp += 1
        self._pool.clear()
        self._pool.waitForDone(10_000)

    # ------------------------------------------------------------------ results

    def _on_done(self, stamp: int, result: GuardResult) -> None:
        if stamp != self._stamp:
            return
        self.result = result
        report = result.report
        if report is None:
            self.model.set_rows([])
            self._show_banner(
                "none", self.tr("No canary: set a canary version to compare it with stable.")
            )
        else:
            self.model.set_rows([report.overall, *report.tools])
            rec = report.recommendation
            title = {
                "hold": self.tr("Hold"),
                "promote": self.tr("Promote"),
                "rollback": self.tr("Roll back"),
            }[rec.action]
            self._show_banner(
                rec.action,
                f"<b>{title}</b> — canary v{report.canary_version} vs stable "
                f"v{report.stable_version}: {html.escape(rec.reason)}",
            )
        self.charts.set_points(result.points)
        self.finished.emit(result)

    def _on_failed(self, stamp: int, message: str) -> None:
        if stamp == self._stamp:
            self._show_banner(
                "rollback",
                self.tr("Guard metrics could not be computed: {message}").format(
                    message=html.escape(message)
                ),
            )

    def _show_banner(self, kind: str, html: str) -> None:
        kind = kind if kind in ("promote", "hold", "rollback") else "none"
        self.banner.setProperty("recommendation", kind)
        self._style_banner()
        self.banner.setText(html)

    def _style_banner(self) -> None:
        kind = str(self.banner.property("recommendation") or "none")
        bg = theme_colour(f"{kind}_bg", self)
        border = theme_colour(f"{kind}_border", self)
        fg = theme_colour(f"{kind}_fg", self)
        self.banner.setStyleSheet(
            f"#guardBanner {{ background: {bg}; border: 1px solid {border}; color: {fg};"
            " padding: 6px; border-radius: 3px; }"
        )

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange:
            self._style_banner()
        super().changeEvent(event)
