"""Undoable edits of one skill: every edit replaces the skill with its edited copy.

The domain edit functions (:func:`studio.skills.with_front_matter`,
:func:`~studio.skills.with_body`, :func:`~studio.skills.with_files`) build the
new skill; :class:`SkillEditCommand` keeps before and after, so undo and redo
are exact (the SKILL.md text included) whichever part was edited. Typing in
one field merges into one command (``mergeWith``), as an editor's undo should.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QUndoCommand

from studio.skills.model import Skill

MERGE_IDS = {"name": 1, "description": 2, "allowed-tools": 3, "body": 4}
"""Fields whose consecutive edits merge into one undo step (files never merge)."""


class SkillEditCommand(QUndoCommand):
    """Replace the edited skill with ``after``; undo puts ``before`` back."""

    def __init__(
        self, apply: Callable[[Skill], None], before: Skill, after: Skill, label: str, field: str
    ) -> None:
        super().__init__(label)
        self._apply = apply
        self.before = before
        self.after = after
        self.field = field

    def id(self) -> int:
        return MERGE_IDS.get(self.field, -1)

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, SkillEditCommand) or other.field != self.field:
            return False
        self.after = other.after
        return True

    def redo(self) -> None:
        self._apply(self.after)

    def undo(self) -> None:
        self._apply(self.before)
