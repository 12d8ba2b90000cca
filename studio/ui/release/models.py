"""Thin table models of the release panel: channels, the event log, assignments, comparisons.

Each model holds a list of immutable domain objects (from :mod:`studio.release`)
and maps a column to one formatted field; nothing here decides anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt

from studio.release import Assignment, Channel, ChannelEvent, Comparison, event_change
from studio.release.guard import ALL_TOOLS
from studio.ui.models.table_base import RowTableModel
from studio.ui.release.impact import event_words

T = TypeVar("T")

_RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter


class RowsModel(RowTableModel[T]):
    """A release table: ``None`` shows as a dash, floats with two decimals.

    Numbers (int/float accessor results) are right-aligned; strings longer
    than 40 characters repeat as the tooltip; the raw object of a row is
    available under :attr:`RowRole`.
    """

    def display(self, row: T, column: int) -> str:
        return _display(self.value(row, column))

    def alignment(self, row: T, column: int) -> Any:
        return int(_RIGHT.value) if isinstance(self.value(row, column), int | float) else None

    def tooltip(self, row: T, column: int) -> Any:
        value = self.value(row, column)
        return value if isinstance(value, str) and len(value) > 40 else None


def _display(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


# The words event_change uses for "no version", in the panel's language.
_NO_VERSION = {
    "unset": str(QT_TRANSLATE_NOOP("ReleaseImpact", "unset")),
    "none": str(QT_TRANSLATE_NOOP("ReleaseImpact", "none")),
}


def _change(event: ChannelEvent) -> str:
    before, after = (
        QCoreApplication.translate("ReleaseImpact", _NO_VERSION[side])
        if side in _NO_VERSION
        else side
        for side in event_change(event, at="@")
    )
    return f"{before} → {after}"


class ChannelTableModel(RowsModel[tuple[Channel, str | None]]):
    """Channels of one registry, each with its version's semver."""

    columns = (
        (str(QT_TRANSLATE_NOOP("Columns", "Channel")), lambda r: r[0].name),
        (str(QT_TRANSLATE_NOOP("Columns", "Version")), lambda r: r[0].version),
        (str(QT_TRANSLATE_NOOP("Columns", "Semver")), lambda r: r[1]),
        (str(QT_TRANSLATE_NOOP("Columns", "Share")), lambda r: f"{r[0].share} %"),
        (str(QT_TRANSLATE_NOOP("Columns", "Salt")), lambda r: r[0].salt[:8]),
    )

    def set_channels(self, channels: Sequence[Channel], semvers: dict[int, str]) -> None:
        """Show ``channels``; ``semvers`` labels their versions."""
        self.set_rows([(c, semvers.get(c.version or 0)) for c in channels])

    def channel(self, row: int) -> Channel:
        return self._rows[row][0]


class EventLogModel(RowsModel[ChannelEvent]):
    """The append-only channel log, newest first.

    Publishes have no channel (shown as a dash) and show versions with their
    semver (``v2 (1.1.0) → v3 (1.2.0)``) where channel actions show states
    (``unset → v3 @ 10 %``).
    """

    columns = (
        (str(QT_TRANSLATE_NOOP("Columns", "When")), lambda e: e.created_at.replace("T", " ")[:19]),
        (str(QT_TRANSLATE_NOOP("Columns", "Who")), lambda e: e.who or "—"),
        (str(QT_TRANSLATE_NOOP("Columns", "Channel")), lambda e: e.channel or None),
        (str(QT_TRANSLATE_NOOP("Columns", "Action")), lambda e: e.action),
        (str(QT_TRANSLATE_NOOP("Columns", "Before → after")), _change),
        (str(QT_TRANSLATE_NOOP("Columns", "Why")), lambda e: e.why),
        # The same change as a sentence: "stable pinned to v1 (it followed the newest version)".
        (str(QT_TRANSLATE_NOOP("Columns", "What happened")), event_words),
    )


class AssignmentModel(RowsModel[Assignment]):
    """Simulated subjects: bucket and the channel (and version) each lands on."""

    columns = (
        (str(QT_TRANSLATE_NOOP("Columns", "Subject")), lambda a: a.subject),
        (str(QT_TRANSLATE_NOOP("Columns", "Bucket")), lambda a: a.bucket),
        (str(QT_TRANSLATE_NOOP("Columns", "Channel")), lambda a: a.channel),
        (str(QT_TRANSLATE_NOOP("Columns", "Version")), lambda a: a.version),
    )


def _rate(rate: float) -> str:
    return f"{100 * rate:.1f} %"


def _codes(codes: dict[str, int]) -> str:
    return ", ".join(f"{k} ×{v}" for k, v in sorted(codes.items(), key=lambda kv: -kv[1])) or "—"


class ComparisonModel(RowsModel[Comparison]):
    """Canary against stable per tool; the first row is all tools together."""

    columns = (
        (
            str(QT_TRANSLATE_NOOP("Columns", "Tool")),
            lambda c: "(all tools)" if c.tool == ALL_TOOLS else c.tool,
        ),
        (
            str(QT_TRANSLATE_NOOP("Columns", "Calls S/C")),
            lambda c: f"{c.stable.calls} / {c.canary.calls}",
        ),
        # No calls: no rate (a dash), not "0.0 %".
        (
            str(QT_TRANSLATE_NOOP("Columns", "Success stable")),
            lambda c: _rate(c.stable.success_rate) if c.stable.calls else None,
        ),
        (
            str(QT_TRANSLATE_NOOP("Columns", "Success canary")),
            lambda c: _rate(c.canary.success_rate) if c.canary.calls else None,
        ),
        (
            str(QT_TRANSLATE_NOOP("Columns", "Validation S/C")),
            lambda c: f"{c.stable.validation_failures} / {c.canary.validation_failures}",
        ),
        (
            str(QT_TRANSLATE_NOOP("Columns", "Canary errors")),
            lambda c: _codes(c.canary.error_codes),
        ),
        # Duplicate write attempts per 1,000 writes, and those that reached the tool again.
        (
            str(QT_TRANSLATE_NOOP("Columns", "Dup. writes/1k S/C")),
            lambda c: f"{c.stable.duplicates_per_1000:.1f} / {c.canary.duplicates_per_1000:.1f}",
        ),
        (
            str(QT_TRANSLATE_NOOP("Columns", "Dup. sent/1k S/C")),
            lambda c: (
                f"{c.stable.duplicates_sent_per_1000:.1f} / {c.canary.duplicates_sent_per_1000:.1f}"
            ),
        ),
        (
            str(QT_TRANSLATE_NOOP("Columns", "p50 S/C ms")),
            lambda c: f"{c.stable.latency_p50:.0f} / {c.canary.latency_p50:.0f}",
        ),
        (
            str(QT_TRANSLATE_NOOP("Columns", "p95 S/C ms")),
            lambda c: f"{c.stable.latency_p95:.0f} / {c.canary.latency_p95:.0f}",
        ),
        (str(QT_TRANSLATE_NOOP("Columns", "z")), lambda c: round(c.z, 2)),
        (str(QT_TRANSLATE_NOOP("Columns", "p")), lambda c: f"{c.p_value:.4f}"),
    )
