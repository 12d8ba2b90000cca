"""Thin Qt models over a :class:`~studio.diff.RegistryDiff`: the tool list and a change table."""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QAbstractListModel,
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtGui import QBrush, QColor

from studio.diff import Change, ChangeClass, ToolDiff, ToolStatus
from studio.ui.i18n import diff_message

Index = QModelIndex | QPersistentModelIndex

# One colour per class, readable on the light and the dark palette.
CLASS_COLOURS: dict[ChangeClass, str] = {
    ChangeClass.BREAKING: "#d64545",
    ChangeClass.BEHAVIOURAL: "#d08a1c",
    ChangeClass.COMPATIBLE: "#2e9e57",
    ChangeClass.METADATA: "#8a8f98",
}

STATUS_MARKS = {
    ToolStatus.ADDED: "+",
    ToolStatus.REMOVED: "−",
    ToolStatus.RENAMED: "→",
    ToolStatus.CHANGED: "~",
    ToolStatus.UNCHANGED: " ",
}


# The shown words for the diff's classes and statuses (the enum values are
# the English words, kept in reports and JSON; the UI translates them).
_CLASS_WORDS: dict[ChangeClass, object] = {
    ChangeClass.BREAKING: QT_TRANSLATE_NOOP("DiffLabels", "breaking"),
    ChangeClass.BEHAVIOURAL: QT_TRANSLATE_NOOP("DiffLabels", "behavioural"),
    ChangeClass.COMPATIBLE: QT_TRANSLATE_NOOP("DiffLabels", "compatible"),
    ChangeClass.METADATA: QT_TRANSLATE_NOOP("DiffLabels", "metadata"),
}
_STATUS_WORDS: dict[ToolStatus, object] = {
    ToolStatus.ADDED: QT_TRANSLATE_NOOP("DiffLabels", "added"),
    ToolStatus.REMOVED: QT_TRANSLATE_NOOP("DiffLabels", "removed"),
    ToolStatus.RENAMED: QT_TRANSLATE_NOOP("DiffLabels", "renamed"),
    ToolStatus.CHANGED: QT_TRANSLATE_NOOP("DiffLabels", "changed"),
    ToolStatus.UNCHANGED: QT_TRANSLATE_NOOP("DiffLabels", "unchanged"),
}


def class_word(klass: ChangeClass) -> str:
    """A change class as shown in the UI language ("breaking" / "破坏性")."""
    return QCoreApplication.translate("DiffLabels", str(_CLASS_WORDS.get(klass, klass.value)))


def status_word(status: ToolStatus) -> str:
    """A tool status as shown in the UI language ("added" / "新增")."""
    return QCoreApplication.translate("DiffLabels", str(_STATUS_WORDS.get(status, status.value)))


_SEMVER_WORDS = {
    "major": QT_TRANSLATE_NOOP("DiffLabels", "major"),
    "minor": QT_TRANSLATE_NOOP("DiffLabels", "minor"),
    "patch": QT_TRANSLATE_NOOP("DiffLabels", "patch"),
    "none": QT_TRANSLATE_NOOP("DiffLabels", "none"),
}


def semver_word(level: str) -> str:
    """A semver bump level as shown in the UI language ("major" / "主版本")."""
    word = _SEMVER_WORDS.get(str(level))
    return QCoreApplication.translate("DiffLabels", str(word)) if word else str(level)


_BLOCK_WORDS = {
    "summary": QT_TRANSLATE_NOOP("DiffLabels", "summary"),
    "usage": QT_TRANSLATE_NOOP("DiffLabels", "usage"),
    "preconditions": QT_TRANSLATE_NOOP("DiffLabels", "preconditions"),
    "returns": QT_TRANSLATE_NOOP("DiffLabels", "returns"),
    "errors": QT_TRANSLATE_NOOP("DiffLabels", "errors"),
    "examples": QT_TRANSLATE_NOOP("DiffLabels", "examples"),
    "description": QT_TRANSLATE_NOOP("DiffLabels", "description"),
}


def block_word(block: str) -> str:
    """A description block's name as shown in the UI language ("summary" / "摘要")."""
    word = _BLOCK_WORDS.get(block)
    return QCoreApplication.translate("DiffLabels", str(word)) if word else block


def tool_title(tool: ToolDiff) -> str:
    """``old → new`` for a renamed tool, else its name."""
    if tool.status is ToolStatus.RENAMED:
        return f"{tool.old_name} → {tool.name}"
    return tool.name


def tool_badge(tool: ToolDiff) -> str:
    """``changed · 2 breaking +1`` (status, the worst class's count, how many others)."""
    worst = tool.worst
    if worst is None:
        return status_word(tool.status)
    counts = tool.counts()
    others = sum(counts.values()) - counts[worst]
    return f"{status_word(tool.status)} · {counts[worst]} {class_word(worst)}" + (
        f" +{others}" if others else ""
    )


def short_value(value: Any, limit: int = 60) -> str:
    """A value as compact JSON text, cut at ``limit`` characters."""
    if value is None:
        return "—"
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"


class ToolDiffListModel(QAbstractListModel):
    """The tools of a diff with a status mark and a badge coloured by the worst class.

    Unchanged tools are left out unless ``show_unchanged`` is set.
    """

    ToolRole = Qt.ItemDataRole.UserRole + 1
    NameRole = Qt.ItemDataRole.UserRole + 2
    WorstRole = Qt.ItemDataRole.UserRole + 3

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._tools: list[ToolDiff] = []

    def set_tools(self, tools: tuple[ToolDiff, ...] | list[ToolDiff], show_unchanged=False) -> None:
        """Replace the list (a model reset)."""
        self.beginResetModel()
        self._tools = [t for t in tools if show_unchanged or t.status is not ToolStatus.UNCHANGED]
        self.endResetModel()

    def tools(self) -> list[ToolDiff]:
        return list(self._tools)

    def row_of(self, name: str) -> int:
        """Row of the tool called ``name`` (in B, or A when removed); -1 when absent."""
        return next((i for i, t in enumerate(self._tools) if t.name == name), -1)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's default
        return 0 if parent.isValid() else len(self._tools)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._tools):
            return None
        tool = self._tools[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return f"{STATUS_MARKS[tool.status]} {tool_title(tool)}\n    {tool_badge(tool)}"
        if role == Qt.ItemDataRole.ToolTipRole:
            worst = class_word(tool.worst) if tool.worst else self.tr("no classified change")
            counts = ", ".join(f"{n} {class_word(k)}" for k, n in tool.counts().items() if n)
            return self.tr("{tool}: {status}, worst {worst}").format(
                tool=tool_title(tool), status=status_word(tool.status), worst=worst
            ) + (f" ({counts})" if counts else "")
        if role == Qt.ItemDataRole.ForegroundRole and tool.worst is not None:
            return QBrush(QColor(CLASS_COLOURS[tool.worst]))
        if role == self.ToolRole:
            return tool
        if role == self.NameRole:
            return tool.name
        if role == self.WorstRole:
            return tool.worst.value if tool.worst else ""
        return None

    def roleNames(self) -> dict[int, bytes]:
        roles = dict(super().roleNames())
        roles[self.ToolRole] = b"tool"
        roles[self.NameRole] = b"name"
        roles[self.WorstRole] = b"worst"
        return roles


CHANGE_COLUMNS = (
    QT_TRANSLATE_NOOP("ChangeTableModel", "Rule"),
    QT_TRANSLATE_NOOP("ChangeTableModel", "Class"),
    QT_TRANSLATE_NOOP("ChangeTableModel", "Path"),
    QT_TRANSLATE_NOOP("ChangeTableModel", "Before → after"),
    QT_TRANSLATE_NOOP("ChangeTableModel", "Message"),
)


class ChangeTableModel(QAbstractTableModel):
    """The classified changes of one tool (or the registry): one row each."""

    ChangeRole = Qt.ItemDataRole.UserRole + 1

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._changes: list[Change] = []

    def set_changes(self, changes: tuple[Change, ...] | list[Change]) -> None:
        self.beginResetModel()
        self._changes = list(changes)
        self.endResetModel()

    def changes(self) -> list[Change]:
        return list(self._changes)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's default
        return 0 if parent.isValid() else len(self._changes)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's default
        return 0 if parent.isValid() else len(CHANGE_COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if (
            orientation == Qt.Orientation.Horizontal
            and role == Qt.ItemDataRole.DisplayRole
            and 0 <= section < len(CHANGE_COLUMNS)
        ):
            return self.tr(str(CHANGE_COLUMNS[section]))
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._changes):
            return None
        change = self._changes[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if column == 0:
                return change.rule_id
            if column == 1:
                return class_word(change.klass)
            if column == 2:
                return change.path or "—"
            if column == 3:
                return f"{short_value(change.before)} → {short_value(change.after)}"
            if column == 4:
                return diff_message(change.message, change.rule_id)
            return None
        if role == Qt.ItemDataRole.ToolTipRole:
            if column == 3:
                before, after = short_value(change.before, 2000), short_value(change.after, 2000)
                return self.tr("before: {before}\nafter: {after}").format(
                    before=before, after=after
                )
            return diff_message(change.message, change.rule_id)
        if role == Qt.ItemDataRole.ForegroundRole and column == 1:
            return QBrush(QColor(CLASS_COLOURS[change.klass]))
        if role == self.ChangeRole:
            return change
        return None
