"""Every QAction of the main window and its shortcut, in one place.

Widgets never create their own shortcuts: they connect to these actions, so
a key sequence is defined once and appears in the menus next to its action.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence, QUndoGroup
from PySide6.QtWidgets import QWidget

from studio.lint import PROFILES

StandardKey = QKeySequence.StandardKey


@dataclass(frozen=True)
class Actions:
    """The main window's actions.

    Connect ``triggered``/``toggled``; don't define shortcuts anywhere else.
    """

    new_tool: QAction
    duplicate_tool: QAction
    delete_tool: QAction
    save: QAction
    undo: QAction
    redo: QAction
    find: QAction
    publish: QAction
    open_version: QAction
    back_to_draft: QAction
    dark_theme: QAction
    quit: QAction
    new_registry: QAction
    import_tools: QAction
    import_mcp: QAction
    check_mcp: QAction
    export_registry: QAction
    registry_settings: QAction
    delete_registry: QAction
    run_lint: QAction
    next_problem: QAction
    previous_problem: QAction
    lint_profiles: tuple[QAction, ...]

    def editing(self) -> tuple[QAction, ...]:
        """Actions that change the draft (disabled for read-only versions)."""
        return (self.new_tool, self.duplicate_tool, self.delete_tool, self.save, self.publish)


def _action(
    parent: QWidget, text: str, shortcuts: list[QKeySequence] | None = None, tip: str = ""
) -> QAction:
    action = QAction(text, parent)
    if shortcuts:
        action.setShortcuts(shortcuts)
    if tip:
        action.setStatusTip(tip)
        action.setToolTip(tip)
    return action


def create_actions(parent: QWidget, undo_group: QUndoGroup) -> Actions:
    """Create the actions, parented to ``parent``.

    Args:
        parent: The main window; shortcuts work anywhere inside it.
        undo_group: Undo/Redo come from the group so their text names the
            step they undo ("Undo Edit summary") and follow the active registry.

    Return:
        The actions, not yet connected to anything.
    """
    undo = undo_group.createUndoAction(parent, "Undo")
    undo.setShortcuts([QKeySequence("Ctrl+Z")])
    redo = undo_group.createRedoAction(parent, "Redo")
    redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
    delete = _action(
        parent, "De&lete tool", [QKeySequence(StandardKey.Delete)], "Delete the selected tool"
    )
    # Del must keep deleting characters in the editor's fields: the window
    # adds this action to the tool list, and the shortcut only fires there.
    delete.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
    dark = _action(parent, "&Dark theme", tip="Switch between the dark and the light theme")
    dark.setCheckable(True)
    profiles = QActionGroup(parent)
    profiles.setExclusive(True)
    lint_profiles = []
    for profile in PROFILES:
        action = _action(parent, profile, tip=f"Lint for the {profile} profile")
        action.setCheckable(True)
        action.setData(profile)
        profiles.addAction(action)
        lint_profiles.append(action)
    return Actions(
        new_tool=_action(
            parent, "&New tool", [QKeySequence("Ctrl+N")], "Add a new tool to the draft"
        ),
        duplicate_tool=_action(
            parent, "&Duplicate tool", [QKeySequence("Ctrl+D")], "Copy the selected tool"
        ),
        delete_tool=delete,
        save=_action(parent, "&Save", [QKeySequence("Ctrl+S")], "Save the draft"),
        undo=undo,
        redo=redo,
        find=_action(parent, "&Find tool", [QKeySequence("Ctrl+F")], "Filter the tool list"),
        publish=_action(
            parent, "&Publish…", tip="Publish the saved draft as a new immutable version"
        ),
        open_version=_action(
            parent, "&Open version…", tip="Open the selected published version read-only"
        ),
        back_to_draft=_action(parent, "&Back to draft", tip="Return to the editable draft"),
        dark_theme=dark,
        quit=_action(parent, "&Quit", [QKeySequence("Ctrl+Q")], "Close the studio"),
        new_registry=_action(parent, "New &registry…", tip="Create an empty registry"),
        import_tools=_action(
            parent,
            "&Import…",
            [QKeySequence("Ctrl+I")],
            "Import tools from a provider file or a registry folder",
        ),
        import_mcp=_action(
            parent,
            "Import from &MCP server…",
            tip="Pull the tools a live MCP server lists (a command over stdio, or a URL)",
        ),
        check_mcp=_action(
            parent,
            "&Check against MCP server…",
            tip="Compare what the registry's live MCP server lists with a pinned version",
        ),
        export_registry=_action(
            parent,
            "&Export…",
            [QKeySequence("Ctrl+E")],
            "Export the shown draft or version to a file or folder",
        ),
        registry_settings=_action(
            parent,
            "Registry se&ttings…",
            tip="Title, description, verb vocabulary and description template",
        ),
        delete_registry=_action(
            parent, "Delete re&gistry…", tip="Delete a registry that has no published versions"
        ),
        run_lint=_action(
            parent, "&Run lint", [QKeySequence("Ctrl+Shift+L")], "Lint the whole draft again"
        ),
        next_problem=_action(
            parent, "&Next problem", [QKeySequence("F8")], "Go to the next lint problem"
        ),
        previous_problem=_action(
            parent,
            "&Previous problem",
            [QKeySequence("Shift+F8")],
            "Go to the previous lint problem",
        ),
        lint_profiles=tuple(lint_profiles),
    )


@dataclass(frozen=True)
class PlaygroundActions:
    """Switching between the Editor and the Playground, and running in the Playground.

    ``run_prompt`` (Ctrl+Return) and ``stop_run`` (Esc) only fire inside the
    playground: the window adds them to the playground view.
    """

    show_editor: QAction
    show_playground: QAction
    run_prompt: QAction
    stop_run: QAction


def create_playground_actions(parent: QWidget) -> PlaygroundActions:
    editor = _action(parent, "&Editor", [QKeySequence("Ctrl+1")], "Edit the registry's tools")
    playground = _action(
        parent, "&Playground", [QKeySequence("Ctrl+2")], "Try the tools with a real model"
    )
    for action in (editor, playground):
        action.setCheckable(True)
    editor.setChecked(True)
    run = _action(parent, "&Run", [QKeySequence("Ctrl+Return")], "Send the prompt to the model")
    stop = _action(parent, "&Stop", [QKeySequence("Esc")], "Stop the run in progress")
    for action in (run, stop):
        action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
    return PlaygroundActions(editor, playground, run, stop)


def create_release_action(parent: QWidget) -> QAction:
    """The Release mode (Ctrl+5): channels, rollout simulator and guard metrics."""
    action = _action(
        parent, "&Release", [QKeySequence("Ctrl+5")], "Gray release: channels, simulator, guard"
    )
    action.setCheckable(True)
    return action


def create_sessions_action(parent: QWidget) -> QAction:
    """The Sessions mode (Ctrl+3): stored and imported sessions, replay and re-validation."""
    action = _action(
        parent, "&Sessions", [QKeySequence("Ctrl+3")], "Browse, replay and re-validate sessions"
    )
    action.setCheckable(True)
    return action


def create_diff_action(parent: QWidget) -> QAction:
    """The Diff mode (Ctrl+4): compare the draft, versions and channels."""
    action = _action(parent, "&Diff", [QKeySequence("Ctrl+4")], "What changes between two versions")
    action.setCheckable(True)
    return action
