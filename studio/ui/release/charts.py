"""Success rate and p95 latency per version over time (Qt Charts), one series per version."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from PySide6.QtCharts import QChart, QChartView, QDateTimeAxis, QLineSeries, QValueAxis
from PySide6.QtCore import QDateTime, QEvent, QMargins, Qt, QTimeZone
from PySide6.QtGui import QPainter, QPalette
from PySide6.QtWidgets import QHBoxLayout, QWidget

from studio.release.guard import TimePoint
from studio.ui.empty_state import empty_note


def period_msecs(period: str) -> int:
    """Milliseconds since the epoch (UTC) of a period name such as ``2025-05-01T09``."""
    text = period.rstrip("Z")
    for fmt in ("%Y-%m-%dT%H:%M", "%Y-%m-%dT%H", "%Y-%m-%d"):
        try:
            moment = datetime.strptime(text, fmt).replace(tzinfo=UTC)
        except ValueError:
            continue
        return int(moment.timestamp() * 1000)
    raise ValueError(f"not a period: {period!r}")


def _is_dark(widget: QWidget) -> bool:
    return widget.palette().color(QPalette.ColorRole.Window).lightness() < 128


class _LineChart(QChartView):
    """One chart: a date-time x axis and a value y axis shared by every version's series."""

    def __init__(self, title: str, y_label: str, parent: QWidget | None = None) -> None:
        self._title = title
        chart = QChart()
        chart.setTitle(title)
        chart.setMargins(QMargins(4, 4, 4, 4))
        chart.legend().setAlignment(Qt.AlignmentFlag.AlignBottom)
        super().__init__(chart, parent)
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setMinimumSize(240, 180)
        self.x_axis = QDateTimeAxis()
        self.x_axis.setTickCount(4)
        self.y_axis = QValueAxis()
        self.y_axis.setTitleText(y_label)
        self.y_axis.setLabelFormat("%.0f")  # whole numbers: "100", not an elided "100.0"
        self.y_axis.setTickCount(5)
        for axis in (self.x_axis, self.y_axis):
            # Small charts elide every label to "…" by default; these labels are short.
            axis.setTruncateLabels(False)
        chart.addAxis(self.x_axis, Qt.AlignmentFlag.AlignBottom)
        chart.addAxis(self.y_axis, Qt.AlignmentFlag.AlignLeft)

    def set_series(self, series: dict[str, list[tuple[int, float]]], y_max: float | None) -> None:
        chart = self.chart()
        chart.removeAllSeries()
        lows, highs, top = [], [], 0.0
        for version, points in sorted(series.items(), key=lambda kv: _version_key(kv[0])):
            line = QLineSeries()
            line.setName(f"v{version}")
            line.setPointsVisible(len(points) < 30)
            for x, y in points:
                line.append(float(x), y)
                top = max(top, y)
            chart.addSeries(line)
            line.attachAxis(self.x_axis)
            line.attachAxis(self.y_axis)
            lows.append(points[0][0])
            highs.append(points[-1][0])
        if lows:
            low, high = min(lows), max(highs)
            if low == high:  # one period: widen so the point is not on the edge
                low, high = low - 1_800_000, high + 1_800_000
            self.x_axis.setRange(_qdt(low), _qdt(high))
            span_days = (high - low) / 86_400_000
            self.x_axis.setFormat("MM-dd" if span_days > 3 else "dd HH:mm")
            # The month goes into the title: an axis title is elided on small charts.
            self.chart().setTitle(f"{self._title} ({_qdt(low).toString('yyyy-MM')}, UTC)")
        self.y_axis.setRange(0, y_max if y_max is not None else max(1.0, top * 1.15))
        if y_max is None:
            self.y_axis.applyNiceNumbers()  # 0/100/200…, not 0/114/228…

    def apply_theme(self, dark: bool) -> None:
        theme = QChart.ChartTheme.ChartThemeDark if dark else QChart.ChartTheme.ChartThemeLight
        chart = self.chart()
        if chart.theme() != theme:
            chart.setTheme(theme)
        chart.setBackgroundRoundness(0)


def _qdt(msecs: int) -> QDateTime:
    return QDateTime.fromMSecsSinceEpoch(msecs, QTimeZone.utc())


def _version_key(version: str) -> tuple[int, str]:
    return (int(version), "") if version.isdigit() else (1 << 30, version)


class ReleaseChartsWidget(QWidget):
    """Two charts side by side: success rate (%) and p95 latency (ms) per version."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.success_chart = _LineChart("Success rate per version", "%")
        self.latency_chart = _LineChart("p95 latency per version", "ms")
        # Without outcomes an axis of "1 1 1 0 0 0" looked like a bug: say what is awaited.
        self.empty_label = empty_note(
            self.tr(
                "No outcomes recorded yet. The charts show each version's success rate and "
                "p95 latency once clients report calls: serve the registry (Serve above) and "
                "send outcomes with the token it prints."
            ),
            "chartsEmpty",
        )
        self.empty_label.setMinimumHeight(60)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.empty_label)
        layout.addWidget(self.success_chart)
        layout.addWidget(self.latency_chart)
        self._show_charts(False)
        self._apply_theme()

    def _show_charts(self, on: bool) -> None:
        self.empty_label.setVisible(not on)
        self.success_chart.setVisible(on)
        self.latency_chart.setVisible(on)

    def set_points(self, points: Sequence[TimePoint]) -> None:
        """Plot ``metrics_over_time`` results (any period length)."""
        success: dict[str, list[tuple[int, float]]] = {}
        latency: dict[str, list[tuple[int, float]]] = {}
        for p in points:
            x = period_msecs(p.period)
            success.setdefault(p.version, []).append((x, 100 * p.success_rate))
            latency.setdefault(p.version, []).append((x, p.latency_p95))
        for series in (success, latency):
            for rows in series.values():
                rows.sort()
        self.success_chart.set_series(success, 100.0)
        self.latency_chart.set_series(latency, None)
        self._show_charts(bool(points))
        self._apply_theme()

    def series_names(self) -> list[str]:
        """The versions plotted (the success chart's series names)."""
        return [s.name() for s in self.success_chart.chart().series()]

    def _apply_theme(self) -> None:
        dark = _is_dark(self)
        for view in (self.success_chart, self.latency_chart):
            view.apply_theme(dark)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange:
            self._apply_theme()
        super().changeEvent(event)
