"""Undo-stack labels in the interface language.

The editing layer (:mod:`studio.editing`, no Qt) names its commands in English
("Edit summary", "Add parameter query.limit"), and the Edit menu and the toolbar
show them as "Undo Edit summary". :func:`shown` reads those few shapes back and
says them in the current language (field names as the editor labels them);
a label of any other shape (a quick fix's, a text the UI already translated)
is shown as it is.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

_CONTEXT = "UndoLabels"

_SHAPES: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(r"Edit (?P<key>\S+) of (?P<path>\S+)"),
        str(QT_TRANSLATE_NOOP("UndoLabels", "Edit {key} of {path}")),
    ),
    (re.compile(r"Edit (?P<field>[a-z ]+)"), str(QT_TRANSLATE_NOOP("UndoLabels", "Edit {field}"))),
    (
        re.compile(r"Make (?P<path>\S+) required"),
        str(QT_TRANSLATE_NOOP("UndoLabels", "Make {path} required")),
    ),
    (
        re.compile(r"Make (?P<path>\S+) optional"),
        str(QT_TRANSLATE_NOOP("UndoLabels", "Make {path} optional")),
    ),
    (
        re.compile(r"Add parameter (?P<path>\S+)"),
        str(QT_TRANSLATE_NOOP("UndoLabels", "Add parameter {path}")),
    ),
    (
        re.compile(r"Remove parameter (?P<path>\S+)"),
        str(QT_TRANSLATE_NOOP("UndoLabels", "Remove parameter {path}")),
    ),
    (
        re.compile(r"Rename parameter (?P<old>\S+) to (?P<new>\S+)"),
        str(QT_TRANSLATE_NOOP("UndoLabels", "Rename parameter {old} to {new}")),
    ),
    (re.compile(r"Edit JSON"), str(QT_TRANSLATE_NOOP("UndoLabels", "Edit JSON"))),
    (re.compile(r"Add tool"), str(QT_TRANSLATE_NOOP("UndoLabels", "Add tool"))),
    (re.compile(r"Remove tool"), str(QT_TRANSLATE_NOOP("UndoLabels", "Remove tool"))),
    (re.compile(r"Delete tool"), str(QT_TRANSLATE_NOOP("UndoLabels", "Delete tool"))),
)

# The contract's fields as "Edit {field}" spells them (underscores as spaces).
_FIELDS = {
    "name": str(QT_TRANSLATE_NOOP("UndoLabels", "name")),
    "title": str(QT_TRANSLATE_NOOP("UndoLabels", "title")),
    "summary": str(QT_TRANSLATE_NOOP("UndoLabels", "summary")),
    "usage": str(QT_TRANSLATE_NOOP("UndoLabels", "usage")),
    "preconditions": str(QT_TRANSLATE_NOOP("UndoLabels", "preconditions")),
    "returns": str(QT_TRANSLATE_NOOP("UndoLabels", "returns")),
    "errors": str(QT_TRANSLATE_NOOP("UndoLabels", "errors")),
    "examples": str(QT_TRANSLATE_NOOP("UndoLabels", "examples")),
    "description": str(QT_TRANSLATE_NOOP("UndoLabels", "description")),
    "risk": str(QT_TRANSLATE_NOOP("UndoLabels", "risk")),
    "execution": str(QT_TRANSLATE_NOOP("UndoLabels", "execution")),
    "permissions": str(QT_TRANSLATE_NOOP("UndoLabels", "permissions")),
    "tags": str(QT_TRANSLATE_NOOP("UndoLabels", "tags")),
    "domain": str(QT_TRANSLATE_NOOP("UndoLabels", "domain")),
    "deprecated": str(QT_TRANSLATE_NOOP("UndoLabels", "deprecated")),
    "output schema": str(QT_TRANSLATE_NOOP("UndoLabels", "output schema")),
    "icons": str(QT_TRANSLATE_NOOP("UndoLabels", "icons")),
    "annotations": str(QT_TRANSLATE_NOOP("UndoLabels", "annotations")),
    "meta": str(QT_TRANSLATE_NOOP("UndoLabels", "meta")),
    "provider": str(QT_TRANSLATE_NOOP("UndoLabels", "provider")),
}


def shown(label: str) -> str:
    """``label`` (an editing command's English label) in the interface language."""
    for pattern, template in _SHAPES:
        match = pattern.fullmatch(label)
        if match is None:
            continue
        values = match.groupdict()
        if "field" in values:
            field = _FIELDS.get(values["field"])
            if field is None:
                return label  # not a contract field: a text of another shape
            values["field"] = QCoreApplication.translate(_CONTEXT, field)
        return QCoreApplication.translate(_CONTEXT, template).format(**values)
    return label
