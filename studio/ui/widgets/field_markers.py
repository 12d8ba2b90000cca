"""Lint markers on editor fields: severity colours and icons, tooltips, path mapping.

A finding's ``path`` is a JSON path inside the tool document (``summary``,
``parameters.properties.user_id.description``, ``execution.retry``). The
editor receives ``dict[path, list[Finding]]`` for the shown tool; each tab maps
the paths it knows to its widgets with the helpers here. Markers are a tinted
background (through the palette, so the Fusion style keeps drawing the frame),
a severity icon inside line edits, and a tooltip with message and rationale.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import cache

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QRectF, Qt
from PySide6.QtGui import QAction, QColor, QFont, QIcon, QPainter, QPalette, QPixmap
from PySide6.QtWidgets import QApplication, QLineEdit, QWidget

from studio.editing.edits import ITEMS, PropertyPath
from studio.lint import Finding, Severity
from studio.ui.i18n import lint_message, lint_text

Markers = Mapping[str, Sequence[Finding]]
"""Findings of one tool by JSON path."""

SEVERITY_COLORS: dict[Severity, QColor] = {
    Severity.ERROR: QColor("#d0372d"),
    Severity.WARNING: QColor("#d68a00"),
    Severity.INFO: QColor("#2f7fd1"),
}
_GLYPHS = {Severity.ERROR: "✕", Severity.WARNING: "!", Severity.INFO: "i"}

OVERVIEW_FIELDS = (
    "",
    "name",
    "title",
    "summary",
    "usage",
    "preconditions",
    "returns",
    "description",
    "errors",
    "examples",
)
CONTRACT_FIELDS = ("risk", "execution", "permissions", "tags", "domain", "deprecated")
_MARKER_ACTION = "_lint_marker_action"
_SEVERITY = "_lint_severity"
_PLAIN_TOOLTIP = "_lint_plain_tooltip"


_SEVERITY_WORDS = {
    Severity.ERROR: QT_TRANSLATE_NOOP("Severity", "error"),
    Severity.WARNING: QT_TRANSLATE_NOOP("Severity", "warning"),
    Severity.INFO: QT_TRANSLATE_NOOP("Severity", "info"),
}


_SEVERITY_LABELS = {
    Severity.ERROR: QT_TRANSLATE_NOOP("Severity", "Errors"),
    Severity.WARNING: QT_TRANSLATE_NOOP("Severity", "Warnings"),
    Severity.INFO: QT_TRANSLATE_NOOP("Severity", "Info"),
}


def severity_label(severity: Severity) -> str:
    """The plural heading of a severity ("Errors" / "错误"), translated."""
    return QCoreApplication.translate("Severity", str(_SEVERITY_LABELS[severity]))


def severity_word(severity: Severity) -> str:
    """A severity as shown in the UI language ("error" / "错误")."""
    return QCoreApplication.translate("Severity", str(_SEVERITY_WORDS[severity]))


@cache
def severity_icon(severity: Severity) -> QIcon:
    """A small round icon in the severity's colour with a glyph (✕, !, i)."""
    icon = QIcon()
    for size in (16, 32):
        pixmap = QPixmap(size, size)
        pixmap.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pixmap)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(SEVERITY_COLORS[severity])
        painter.drawEllipse(QRectF(1, 1, size - 2, size - 2))
        font = QFont()
        font.setBold(True)
        font.setPixelSize(int(size * 0.62))
        painter.setFont(font)
        painter.setPen(QColor("white"))
        painter.drawText(QRectF(0, 0, size, size), Qt.AlignmentFlag.AlignCenter, _GLYPHS[severity])
        painter.end()
        icon.addPixmap(pixmap)
    return icon


def worst(findings: Iterable[Finding]) -> Severity | None:
    """The highest severity among ``findings`` (None when there are none)."""
    best: Severity | None = None
    for f in findings:
        if best is None or f.severity.rank > best.rank:
            best = f.severity
    return best


def marker_tooltip(findings: Sequence[Finding]) -> str:
    """Rich text: each finding's severity, rule and message, and the rule's rationale."""
    from studio.lint import rule_info  # the engine: loaded by the lint that found these

    parts = []
    for f in sorted(findings, key=lambda f: -f.severity.rank):
        rule = rule_info(f.rule_id)
        rationale = (
            f"<br><i>{_escape(lint_text(f.rule_id, 'rationale', rule.rationale))}</i>"
            if rule
            else ""
        )
        parts.append(
            f"<b>{severity_word(f.severity)}</b> <code>{f.rule_id}</code>: "
            f"{_escape(lint_message(f.message, f.rule_id))}{rationale}"
        )
    return "<p>" + "</p><p>".join(parts) + "</p>"


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def tab_for_path(path: str) -> str:
    """The editor tab showing ``path``: overview, parameters or contract."""
    head = path.split(".", 1)[0].split("[", 1)[0]
    if head == "parameters":
        return "parameters"
    if head in CONTRACT_FIELDS:
        return "contract"
    return "overview"


def field_of(path: str) -> str:
    """The top-level field of a path (``execution.retry.max_attempts`` → ``execution``)."""
    return path.split(".", 1)[0].split("[", 1)[0]


def property_path(path: str) -> PropertyPath | None:
    """The parameter tree row of a ``parameters…`` path.

    ``parameters.properties.a.items.properties.b.description`` → ``("a", "[]", "b")``;
    ``parameters`` itself → ``()``; None for paths outside the parameters.
    """
    segments = path.replace("[", ".[").split(".")
    if not segments or segments[0] != "parameters":
        return None
    out: list[str] = []
    i = 1
    while i < len(segments):
        seg = segments[i]
        if seg == "properties" and i + 1 < len(segments):
            out.append(segments[i + 1])
            i += 2
        elif seg == "items":
            out.append(ITEMS)
            i += 1
        else:
            break
    return tuple(out)


def group_by(markers: Markers, key: object) -> dict[object, list[Finding]]:
    """Regroup markers by ``key(path)`` (e.g. :func:`field_of`), dropping None keys."""
    out: dict[object, list[Finding]] = {}
    for path, findings in markers.items():
        k = key(path)  # type: ignore[operator]
        if k is not None:
            out.setdefault(k, []).extend(findings)
    return out


def tint(base: QColor, severity: Severity, amount: float = 0.22) -> QColor:
    """``base`` mixed with the severity colour."""
    c = SEVERITY_COLORS[severity]
    mix = (
        round(base.red() * (1 - amount) + c.red() * amount),
        round(base.green() * (1 - amount) + c.green() * amount),
        round(base.blue() * (1 - amount) + c.blue() * amount),
    )
    return QColor(*mix)


def mark_widget(widget: QWidget, findings: Sequence[Finding]) -> None:
    """Show (or with no findings, clear) a marker on ``widget``."""
    severity = worst(findings)
    action: QAction | None = getattr(widget, _MARKER_ACTION, None)
    if severity is None:
        if getattr(widget, _SEVERITY, ""):
            widget.setPalette(QPalette())
            widget.setToolTip(getattr(widget, _PLAIN_TOOLTIP, ""))
        setattr(widget, _SEVERITY, "")
        if action is not None:
            action.setVisible(False)
        return
    # Python attributes, not Qt dynamic properties: reading a missing dynamic
    # property back through PySide6 has corrupted None's refcount here.
    if not getattr(widget, _SEVERITY, ""):
        setattr(widget, _PLAIN_TOOLTIP, widget.toolTip())
    app_palette = QApplication.palette()
    palette = QPalette()
    for role in (QPalette.ColorRole.Base, QPalette.ColorRole.Button):
        palette.setColor(role, tint(app_palette.color(role), severity))
    widget.setPalette(palette)
    tooltip = marker_tooltip(findings)
    widget.setToolTip(tooltip)
    setattr(widget, _SEVERITY, severity.value)
    if isinstance(widget, QLineEdit):
        if action is None:
            action = widget.addAction(
                severity_icon(severity), QLineEdit.ActionPosition.TrailingPosition
            )
            setattr(widget, _MARKER_ACTION, action)
        action.setIcon(severity_icon(severity))
        action.setToolTip(tooltip)
        action.setVisible(True)


def marked_severity(widget: QWidget) -> str:
    """The severity a widget is marked with ("" when unmarked); for tests and styling."""
    return str(getattr(widget, _SEVERITY, ""))
