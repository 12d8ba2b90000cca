"""Description scores of the selected tool and a summary of the registry's lint report.

The charts are hand-painted horizontal bars (no Qt Charts dependency): they
follow the palette, so they read in the light and the dark theme alike.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import (
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from studio.contract.token_count import ESTIMATE
from studio.lint import COMPONENTS, LintReport, Severity, ToolScores
from studio.lint.rules.cost import PER_TOOL_OVERHEAD
from studio.lint.scores import TDQS_DIMENSIONS, RegistryTdqs, Tdqs, registry_tdqs
from studio.ui.widgets.field_markers import SEVERITY_COLORS, severity_label

_SCORE_COLORS = {
    1: QColor("#d0372d"),
    2: QColor("#e07b26"),
    3: QColor("#d6b400"),
    4: QColor("#7cb342"),
    5: QColor("#2e9d4f"),
}
_LABELS = {
    "purpose": QT_TRANSLATE_NOOP("ScoreWidget", "Purpose"),
    "usage": QT_TRANSLATE_NOOP("ScoreWidget", "Usage"),
    "limitations": QT_TRANSLATE_NOOP("ScoreWidget", "Limitations"),
    "parameters": QT_TRANSLATE_NOOP("ScoreWidget", "Parameters"),
    "examples": QT_TRANSLATE_NOOP("ScoreWidget", "Examples"),
    "length": QT_TRANSLATE_NOOP("ScoreWidget", "Completeness"),
}


def _bar_label(words: dict[str, object], key: str) -> str:
    """A bar's label in the UI language."""
    return QCoreApplication.translate("ScoreWidget", str(words[key]))


@dataclass(frozen=True)
class Bar:
    """One bar: label, value, the scale's maximum, colour and the text shown after it."""

    label: str
    value: float
    maximum: float
    color: QColor
    text: str


class BarChartWidget(QWidget):
    """Labelled horizontal bars, one per row."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._bars: list[Bar] = []
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)

    def set_bars(self, bars: list[Bar]) -> None:
        self._bars = list(bars)
        self.updateGeometry()
        self.update()

    def bars(self) -> list[Bar]:
        return list(self._bars)

    def _row_height(self) -> int:
        return self.fontMetrics().height() + 3

    def sizeHint(self) -> QSize:
        return QSize(220, max(1, len(self._bars)) * self._row_height() + 2)

    def minimumSizeHint(self) -> QSize:
        return QSize(160, self.sizeHint().height())

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        fm = self.fontMetrics()
        row = self._row_height()
        label_w = min(
            max((fm.horizontalAdvance(b.label) for b in self._bars), default=0) + 14,
            self.width() // 2,
        )
        text_w = max((fm.horizontalAdvance(b.text) for b in self._bars), default=0) + 8
        bar_w = max(10, self.width() - label_w - text_w)
        pal = self.palette()
        track = pal.color(QPalette.ColorRole.Midlight)
        for i, bar in enumerate(self._bars):
            y = i * row
            painter.setPen(pal.color(QPalette.ColorRole.WindowText))
            label = fm.elidedText(bar.label, Qt.TextElideMode.ElideRight, label_w - 6)
            painter.drawText(
                QRectF(0, y, label_w - 6, row),
                Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
                label,
            )
            rect = QRectF(label_w, y + 3, bar_w, row - 6)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(track)
            painter.drawRoundedRect(rect, 3, 3)
            share = 0.0 if bar.maximum <= 0 else max(0.0, min(1.0, bar.value / bar.maximum))
            if share > 0:
                painter.setBrush(bar.color)
                painter.drawRoundedRect(
                    QRectF(rect.x(), rect.y(), rect.width() * share, rect.height()), 3, 3
                )
            painter.setPen(pal.color(QPalette.ColorRole.WindowText))
            painter.drawText(
                QRectF(label_w + bar_w + 6, y, text_w, row),
                Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
                bar.text,
            )
        painter.end()


def score_bars(scores: ToolScores) -> list[Bar]:
    """The six component scores (1–5) as bars."""
    values = scores.as_dict()
    return [
        Bar(
            _bar_label(_LABELS, c),
            values[c],
            5,
            _SCORE_COLORS[max(1, min(5, values[c]))],
            f"{values[c]}/5",
        )
        for c in COMPONENTS
    ]


# Short names of the TDQS dimensions, to fit beside the bars (the tooltip has the long ones).
_TDQS_LABELS = {
    "purpose_clarity": QT_TRANSLATE_NOOP("ScoreWidget", "Purpose"),
    "usage_guidelines": QT_TRANSLATE_NOOP("ScoreWidget", "Usage"),
    "behavioral_transparency": QT_TRANSLATE_NOOP("ScoreWidget", "Transparency"),
    "parameter_semantics": QT_TRANSLATE_NOOP("ScoreWidget", "Parameters"),
    "conciseness_structure": QT_TRANSLATE_NOOP("ScoreWidget", "Conciseness"),
    "contextual_completeness": QT_TRANSLATE_NOOP("ScoreWidget", "Completeness"),
}


def tdqs_bars(tdqs: Tdqs) -> list[Bar]:
    """The six TDQS dimensions (1–5) as bars, each with its weight."""
    out = []
    for key, _label, weight in TDQS_DIMENSIONS:
        value = tdqs.dimensions[key]
        color = _SCORE_COLORS[max(1, min(5, value))]
        out.append(Bar(_bar_label(_TDQS_LABELS, key), value, 5, color, f"{value}/5 ×{weight}%"))
    return out


def tdqs_title(name: str, tdqs: Tdqs) -> str:
    """``TDQS query_invoices: 4.9 · A`` for the box title."""
    return f"TDQS {name}: {tdqs.score:.1f} · {tdqs.tier}"


def registry_tdqs_text(rollup: RegistryTdqs | None) -> str:
    """The registry's TDQS rollup with its formula, or a dash for no tools."""
    if rollup is None:
        return QCoreApplication.translate("ScoreWidget", "Registry TDQS: — (no tools)")
    tools = (
        QCoreApplication.translate("ScoreWidget", "1 tool")
        if rollup.tool_count == 1
        else QCoreApplication.translate("ScoreWidget", "{count} tools").format(
            count=rollup.tool_count
        )
    )
    return QCoreApplication.translate(
        "ScoreWidget",
        "Registry TDQS: {score:.1f} · {tier} (0.6 × mean {mean:.1f} + 0.4 × min {minimum:.1f}, "
        "{tools})",
    ).format(
        score=rollup.score, tier=rollup.tier, mean=rollup.mean, minimum=rollup.minimum, tools=tools
    )


def _tdqs_tip() -> str:
    weights = ", ".join(
        f"{_bar_label(_TDQS_LABELS, key)} {weight} %" for key, _, weight in TDQS_DIMENSIONS
    )
    return QCoreApplication.translate(
        "ScoreWidget",
        "Glama's open Tool Definition Quality Score (spec 1.2), computed deterministically from "
        "the component scores: {weights}. Tiers A ≥ 3.5, B ≥ 3.0 (passing), C ≥ 2.0, D ≥ 1.0; "
        "the registry is 0.6 × mean + 0.4 × min of its tools.",
    ).format(weights=weights)


def severity_bars(report: LintReport) -> list[Bar]:
    """Active findings per severity, scaled to the largest count."""
    top = max([report.counts.get(s, 0) for s in Severity] + [1])
    return [
        Bar(
            severity_label(s),
            report.counts.get(s, 0),
            top,
            SEVERITY_COLORS[s],
            str(report.counts.get(s, 0)),
        )
        for s in Severity
    ]


def average_bars(report: LintReport) -> list[Bar]:
    """The registry's mean score per component."""
    scores = list(report.scores.values())
    out = []
    for c in COMPONENTS:
        mean = sum(getattr(s, c) for s in scores) / len(scores) if scores else 0.0
        out.append(
            Bar(
                _bar_label(_LABELS, c),
                mean,
                5,
                _SCORE_COLORS[max(1, min(5, round(mean) or 1))],
                f"{mean:.1f}",
            )
        )
    return out


def budget_text(report: LintReport) -> str:
    """Token budget of the definitions, labelled with how it was counted.

    ``≈`` and ``(estimate)`` for the offline estimate; the encoding name
    (``o200k_base``) and no ``≈`` for exact counts of the exported definitions.
    """
    t = report.tokens
    n = len(t.per_tool)
    approx = "≈ " if t.method == ESTIMATE else ""
    tools = (
        QCoreApplication.translate("ScoreWidget", "1 tool")
        if n == 1
        else QCoreApplication.translate("ScoreWidget", "{count} tools").format(count=n)
    )
    method = (
        QCoreApplication.translate("ScoreWidget", "estimate") if t.method == ESTIMATE else t.method
    )
    return QCoreApplication.translate(
        "ScoreWidget",
        "{tools} · {approx}{total} tokens of definitions (≈ {average} per tool)\n"
        "Per task: {approx}{total} tokens × {rounds} rounds = {approx}{per_task} ({method})",
    ).format(
        tools=tools,
        approx=approx,
        total=f"{t.total:,}",
        average=f"{t.average:,.0f}",
        rounds=t.rounds,
        per_task=f"{t.per_task:,}",
        method=method,
    )


def _tool_tokens_text(report: LintReport | None, name: str | None) -> str:
    """``≈ 1,234 tokens`` (estimate) or ``1,234 tokens (o200k_base)`` of one tool."""
    if report is None:
        return QCoreApplication.translate("ScoreWidget", "≈ {count} tokens").format(count=0)
    tokens = report.tokens.per_tool.get(name, 0) if name else 0
    if report.tokens.method == ESTIMATE:
        return QCoreApplication.translate("ScoreWidget", "≈ {count} tokens").format(
            count=f"{tokens:,}"
        )
    return QCoreApplication.translate("ScoreWidget", "{count} tokens ({method})").format(
        count=f"{tokens:,}", method=report.tokens.method
    )


def _chart_with_note(box: QGroupBox) -> tuple[BarChartWidget, QLabel]:
    """A bar chart over a wrapped, selectable note, laid out in ``box`` (registry, TDQS)."""
    chart = BarChartWidget(box)
    note = QLabel(box)
    note.setWordWrap(True)
    note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    layout = QVBoxLayout(box)
    layout.setContentsMargins(6, 4, 6, 4)
    layout.setSpacing(2)
    layout.addWidget(chart)
    layout.addWidget(note)
    layout.addStretch(1)
    return chart, note


class ScoreWidget(QScrollArea):
    """The selected tool's six component scores and the registry summary, side by side,
    and both on the TDQS yardstick (:mod:`studio.lint.scores`)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        body = QWidget(self)
        self.tool_box = QGroupBox(self.tr("Tool"), body)
        self.tool_total = QLabel(self.tool_box)
        self.tool_total.setWordWrap(True)
        self.tool_chart = BarChartWidget(self.tool_box)
        self.tool_total.hide()  # the total goes into the box title to save height
        tool_layout = QVBoxLayout(self.tool_box)
        tool_layout.setContentsMargins(6, 4, 6, 4)
        tool_layout.setSpacing(2)
        tool_layout.addWidget(self.tool_chart)
        tool_layout.addStretch(1)

        self.registry_box = QGroupBox(self.tr("Registry"), body)
        self.counts_chart, self.budget_label = _chart_with_note(self.registry_box)

        self.average_box = QGroupBox(self.tr("Mean scores of the registry"), body)
        self.average_chart = BarChartWidget(self.average_box)
        avg_layout = QVBoxLayout(self.average_box)
        avg_layout.setContentsMargins(6, 4, 6, 4)
        avg_layout.addWidget(self.average_chart)
        avg_layout.addStretch(1)
        # Kept for callers that toggle the title of the mean scores.
        self.average_title = self.average_box

        self.tdqs_box = QGroupBox(self.tr("TDQS"), body)
        self.tdqs_box.setToolTip(_tdqs_tip())
        self.tdqs_chart, self.tdqs_registry = _chart_with_note(self.tdqs_box)

        layout = QHBoxLayout(body)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.tool_box, 1)
        layout.addWidget(self.registry_box, 1)
        layout.addWidget(self.average_box, 1)
        layout.addWidget(self.tdqs_box, 1)
        self.setWidget(body)
        self._report: LintReport | None = None
        self._tool: str | None = None
        self._refresh()

    def set_report(self, report: LintReport | None) -> None:
        self._report = report
        self._refresh()

    def set_tool(self, name: str | None) -> None:
        self._tool = name
        self._refresh()

    def _refresh(self) -> None:
        report, name = self._report, self._tool
        scores = report.scores.get(name) if report is not None and name else None
        if scores is None:
            self.tool_box.setTitle(
                self.tr("Tool: none selected") if not name else self.tr("Tool: not linted yet")
            )
            self.tool_total.setText(
                self.tr("No tool selected") if not name else self.tr("Not linted yet")
            )
            self.tool_chart.set_bars([])
            self.tool_chart.hide()
            self.tdqs_box.setTitle(self.tr("TDQS"))
            self.tdqs_chart.set_bars([])
            self.tdqs_chart.hide()
        else:
            tokens = _tool_tokens_text(report, name)
            self.tool_box.setTitle(
                self.tr("Tool: {name} · {total}/30 · {tokens}").format(
                    name=name, total=scores.total, tokens=tokens
                )
            )
            self.tool_total.setText(
                self.tr("Description score {total}/30 (mean {average:.1f}) · {tokens}").format(
                    total=scores.total, average=scores.average, tokens=tokens
                )
            )
            self.tool_box.setToolTip(
                self.tr(
                    "{text}\nTokens: the name, the rendered description and the parameters the "
                    "model sees, plus {PER_TOOL_OVERHEAD} for the provider's wrapper (what the "
                    "cost rules count; the preview counts its whole JSON)."
                ).format(text=self.tool_total.text(), PER_TOOL_OVERHEAD=PER_TOOL_OVERHEAD)
            )
            self.tool_chart.set_bars(score_bars(scores))
            self.tool_chart.show()
            assert name is not None  # scores exist only for a named tool
            self.tdqs_box.setTitle(tdqs_title(name, scores.tdqs))
            self.tdqs_chart.set_bars(tdqs_bars(scores.tdqs))
            self.tdqs_chart.show()
        if report is None:
            self.tdqs_registry.setText(self.tr("Registry TDQS: not linted yet"))
            self.registry_box.setTitle(self.tr("Registry"))
            self.counts_chart.set_bars([])
            self.budget_label.setText(self.tr("Not linted yet"))
            self.average_chart.set_bars([])
            self.average_title.hide()
            return
        self.registry_box.setTitle(
            self.tr("Registry: {registry} ({profile})").format(
                registry=report.registry, profile=report.profile
            )
        )
        self.counts_chart.set_bars(severity_bars(report))
        self.budget_label.setText(budget_text(report))
        self.average_chart.set_bars(average_bars(report))
        self.average_title.show()
        self.tdqs_registry.setText(registry_tdqs_text(registry_tdqs(report.scores.values())))
