"""The tools of one open registry, as a list that follows the workspace's events.

Each row's icon has two parts: the tool's lint state (✕ errors, ! warnings,
✓ clean, grey while not linted yet) and its risk tier as a lettered badge
(R read, W write, D destructive). A bare coloured dot read as health: a tool
with two errors showed green because it was a read tool.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    QRect,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QColor, QFont, QGuiApplication, QIcon, QPainter, QPixmap

from studio.contract import RiskTier
from studio.editing import DraftWorkspace

_Index = QModelIndex | QPersistentModelIndex

DIRTY_MARKER = "•"

# Mid-saturation colours stay readable on light and dark bases alike.
RISK_COLOURS: dict[RiskTier, str] = {
    RiskTier.READ: "#3a9a5b",
    RiskTier.WRITE: "#d08a1f",
    RiskTier.DESTRUCTIVE: "#d64545",
}

RISK_LETTERS: dict[RiskTier, str] = {
    RiskTier.READ: "R",
    RiskTier.WRITE: "W",
    RiskTier.DESTRUCTIVE: "D",
}

# Lint states: "error", "warning", "clean" (info findings only, or none), "" (not linted yet).
LINT_COLOURS = {"error": "#d0372d", "warning": "#d68a00", "clean": "#3a9a5b", "": "#8a9099"}
LINT_MARKS = {"error": "✕", "warning": "!", "clean": "✓", "": ""}

_icons: dict[tuple[str, RiskTier], QIcon] = {}


translate = QCoreApplication.translate


def risk_label(risk: RiskTier) -> str:
    """The tier in words, for tooltips and the legend."""
    return {
        RiskTier.READ: translate("ToolList", "read: only reads"),
        RiskTier.WRITE: translate("ToolList", "write: changes data"),
        RiskTier.DESTRUCTIVE: translate("ToolList", "destructive: deletes or cannot be undone"),
    }[risk]


def tool_icon(lint: str, risk: RiskTier) -> QIcon:
    """Lint state and lettered risk badge side by side (cached per pair).

    Without a QGuiApplication (headless model tests) pixmaps cannot exist, so
    the icon is empty rather than aborting the process.
    """
    if QGuiApplication.instance() is None:
        return QIcon()
    key = (lint, risk)
    if key not in _icons:
        pixmap = QPixmap(30, 14)
        pixmap.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pixmap)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        font = QFont()
        font.setPixelSize(10)
        font.setBold(True)
        painter.setFont(font)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(LINT_COLOURS[lint]))
        if lint:
            painter.drawEllipse(1, 1, 12, 12)
            painter.setPen(QColor("#ffffff"))
            painter.drawText(QRect(1, 1, 12, 12), Qt.AlignmentFlag.AlignCenter, LINT_MARKS[lint])
        else:  # not linted yet: a ring
            painter.setPen(QColor(LINT_COLOURS[lint]))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawEllipse(2, 2, 10, 10)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(RISK_COLOURS[risk]))
        painter.drawRoundedRect(16, 1, 13, 12, 2, 2)
        painter.setPen(QColor("#ffffff"))
        painter.drawText(QRect(16, 1, 13, 12), Qt.AlignmentFlag.AlignCenter, RISK_LETTERS[risk])
        painter.end()
        _icons[key] = QIcon(pixmap)
    return _icons[key]


def risk_icon(risk: RiskTier) -> QIcon:
    """The risk badge with a not-yet-linted state (kept for callers that show only risk)."""
    return tool_icon("", risk)


class ToolListModel(QAbstractListModel):
    """Adapts a :class:`DraftWorkspace`'s entries; rows follow its events.

    ``inserting``/``inserted`` and ``removing``/``removed`` become
    ``beginInsertRows``/``endInsertRows`` and friends; ``changed`` and
    ``dirty`` become ``dataChanged``. The model never changes the workspace.

    Roles:
        KeyRole: the entry's workspace key (stable across renames and undo).
        FilterRole: name, title and summary, for the filter proxy.
        DirtyRole: the tool has unsaved changes.
        RiskRole: the tool's :class:`RiskTier` value.
        LintRole: "error", "warning", "clean" or "" (not linted yet).
    """

    KeyRole = Qt.ItemDataRole.UserRole + 1
    FilterRole = Qt.ItemDataRole.UserRole + 2
    DirtyRole = Qt.ItemDataRole.UserRole + 3
    RiskRole = Qt.ItemDataRole.UserRole + 4
    LintRole = Qt.ItemDataRole.UserRole + 5

    def __init__(self, workspace: DraftWorkspace, parent: Any = None) -> None:
        super().__init__(parent)
        self._ws = workspace
        self._lint: dict[str, tuple[int, int, int]] | None = None  # name → errors, warnings, infos
        self._handlers = {
            "inserting": self._on_inserting,
            "inserted": self._on_inserted,
            "removing": self._on_removing,
            "removed": self._on_removed,
            "changed": self._on_changed,
            "dirty": self._on_dirty,
            "reset": self._on_reset,
        }
        for event, handler in self._handlers.items():
            workspace.events.connect(event, handler)

    @property
    def workspace(self) -> DraftWorkspace:
        return self._ws

    def detach(self) -> None:
        """Stop following the workspace (before the model is dropped)."""
        for event, handler in self._handlers.items():
            self._ws.events.disconnect(event, handler)

    def row_of_key(self, key: int) -> int:
        """Row of the entry with workspace key ``key``, or -1."""
        return next((i for i, e in enumerate(self._ws.entries) if e.key == key), -1)

    def set_lint(self, report: Any) -> None:
        """Show each tool's lint state from ``report`` (a :class:`LintReport`; None: unknown)."""
        if report is None:
            self._lint = None
        else:
            counts: dict[str, list[int]] = {}
            order = {"error": 0, "warning": 1, "info": 2}
            for finding in report.findings:
                if finding.tool:
                    row = counts.setdefault(finding.tool, [0, 0, 0])
                    row[order.get(str(finding.severity), 2)] += 1
            self._lint = {name: (c[0], c[1], c[2]) for name, c in counts.items()}
        if self._ws.entries:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self._ws.entries) - 1, 0))

    def lint_state(self, name: str) -> str:
        """ "error", "warning", "clean" or "" (not linted yet) for tool ``name``."""
        if self._lint is None:
            return ""
        errors, warnings, _infos = self._lint.get(name, (0, 0, 0))
        return "error" if errors else "warning" if warnings else "clean"

    def _lint_text(self, name: str) -> str:
        if self._lint is None:
            return translate("ToolList", "lint: not run yet")
        errors, warnings, infos = self._lint.get(name, (0, 0, 0))
        if not (errors or warnings or infos):
            return translate("ToolList", "lint: no findings")
        parts = []
        if errors:
            one, many = translate("ToolList", "1 error"), translate("ToolList", "{n} errors")
            parts.append(one if errors == 1 else many.format(n=errors))
        if warnings:
            one, many = translate("ToolList", "1 warning"), translate("ToolList", "{n} warnings")
            parts.append(one if warnings == 1 else many.format(n=warnings))
        if infos:
            parts.append(translate("ToolList", "{n} info").format(n=infos))
        return translate("ToolList", "lint: {counts}").format(counts=", ".join(parts))

    def refresh_markers(self) -> None:
        """Re-read the dirty markers of every row (after a save)."""
        self._on_dirty(self._ws.is_dirty)

    # ------------------------------------------------------------------ Qt API

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 - Qt API signature
        return 0 if parent.isValid() else len(self._ws.entries)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._ws.entries):
            return None
        entry = self._ws.entries[index.row()]
        tool = entry.tool
        if role == Qt.ItemDataRole.DisplayRole:
            marker = f"{DIRTY_MARKER} " if self._is_dirty(entry) else ""
            return f"{marker}{tool.name}"
        if role == Qt.ItemDataRole.DecorationRole:
            return tool_icon(self.lint_state(tool.name), tool.risk)
        if role == Qt.ItemDataRole.ToolTipRole:
            risk = translate("ToolList", "risk tier {letter} — {label}").format(
                letter=RISK_LETTERS[tool.risk], label=risk_label(tool.risk)
            )
            lines = [tool.title or tool.name, self._lint_text(tool.name), risk]
            if tool.summary:
                lines.append(tool.summary)
            if self._is_dirty(entry):
                lines.append(translate("ToolList", "unsaved changes"))
            return "\n".join(lines)
        if role == self.KeyRole:
            return entry.key
        if role == self.FilterRole:
            return f"{tool.name}\n{tool.title}\n{tool.summary}"
        if role == self.DirtyRole:
            return self._is_dirty(entry)
        if role == self.RiskRole:
            return tool.risk.value
        if role == self.LintRole:
            return self.lint_state(tool.name)
        return None

    def _is_dirty(self, entry: Any) -> bool:
        return self._ws.is_entry_dirty(entry)

    # ------------------------------------------------------------------ events

    def _on_inserting(self, index: int) -> None:
        self.beginInsertRows(QModelIndex(), index, index)

    def _on_inserted(self, index: int) -> None:
        self.endInsertRows()

    def _on_removing(self, index: int) -> None:
        self.beginRemoveRows(QModelIndex(), index, index)

    def _on_removed(self, index: int) -> None:
        self.endRemoveRows()

    def _on_changed(self, index: int) -> None:
        row = self.index(index, 0)
        self.dataChanged.emit(row, row)

    def _on_dirty(self, _dirty: bool) -> None:
        # Moves change other rows' positions, so every marker may flip.
        if self._ws.entries:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self._ws.entries) - 1, 0))

    def _on_reset(self, *_args: Any) -> None:
        self.beginResetModel()
        self.endResetModel()


class ToolFilterModel(QSortFilterProxyModel):
    """Filters tools by name, title or summary, case-insensitively, in registry order."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.setFilterRole(ToolListModel.FilterRole)
        self.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.setDynamicSortFilter(True)
