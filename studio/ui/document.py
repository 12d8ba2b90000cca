"""One open registry in the GUI: its working copy, undo stack and store."""

from __future__ import annotations

import time

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from registry_db import RegistryStore
from studio.editing import DraftWorkspace, EditTool, RegistryCommand, SetField
from studio.ui import undo_labels

# Typing into a text field creates one command per keystroke; keystrokes on the
# same field of the same tool within this window merge into one undo step.
MERGE_WINDOW_SECONDS = 1.5


class WorkspaceCommand(QUndoCommand):
    """Puts a domain :class:`RegistryCommand` on a :class:`QUndoStack`.

    The domain command is applied on the first ``redo`` (Qt calls it on push)
    and its inverse is kept for ``undo``; after an undo, the inverse of the
    inverse is kept for the next redo, so no state is captured twice.
    """

    MERGE_ID = 1

    def __init__(self, workspace: DraftWorkspace, command: RegistryCommand) -> None:
        super().__init__(undo_labels.shown(command.label))
        self._workspace = workspace
        self._forward: RegistryCommand = command
        self._backward: RegistryCommand | None = None
        self._stamp = time.monotonic()

    def redo(self) -> None:
        self._backward = self._workspace.run(self._forward)

    def undo(self) -> None:
        assert self._backward is not None
        self._forward = self._workspace.run(self._backward)

    def id(self) -> int:
        return self.MERGE_ID if self._merge_key() is not None else -1

    def _merge_key(self) -> tuple[int, str] | None:
        cmd = self._forward
        if isinstance(cmd, EditTool) and isinstance(cmd.edit, SetField):
            return cmd.key, cmd.edit.field
        return None

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, WorkspaceCommand):
            return False
        key = self._merge_key()
        if key is None or key != other._merge_key():
            return False
        if other._stamp - self._stamp > MERGE_WINDOW_SECONDS:
            return False
        # Keep our backward command (the state before the burst); take the
        # newest forward command so redo after undo restores the last keystroke.
        self._forward = other._forward
        self._stamp = other._stamp
        return True


class RegistryDocument(QObject):
    """An open registry: working copy + undo stack + the store it saves to.

    Widgets never mutate the workspace directly: they call :meth:`push` with a
    domain command, which goes through the undo stack.

    Signals:
        dirtyChanged(bool): the unsaved state flipped.
        saved(): the working copy was written to the store.
    """

    dirtyChanged = Signal(bool)
    saved = Signal()

    def __init__(
        self, store: RegistryStore, workspace: DraftWorkspace, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.store = store
        self.workspace = workspace
        self.undo_stack = QUndoStack(self)
        self._dirty = workspace.is_dirty
        workspace.events.connect("dirty", self._on_dirty)

    @property
    def name(self) -> str:
        return self.workspace.name

    @property
    def read_only(self) -> bool:
        return self.workspace.read_only

    @property
    def is_dirty(self) -> bool:
        return self.workspace.is_dirty

    def push(self, command: RegistryCommand) -> None:
        """Apply ``command`` through the undo stack."""
        if self.read_only:
            return
        self.undo_stack.push(WorkspaceCommand(self.workspace, command))

    def save(self) -> None:
        """Save the working copy (raises ``SaveRefused`` or ``ConflictError``)."""
        self.workspace.save(self.store)
        self.undo_stack.setClean()
        self.saved.emit()

    def _on_dirty(self, dirty: bool) -> None:
        if dirty != self._dirty:
            self._dirty = dirty
            self.dirtyChanged.emit(dirty)
