"""Every QAction of the main window and its shortcut, in one place.

Widgets never create their own shortcuts: they connect to these actions, so
a key sequence is defined once and appears in the menus next to its action.

Texts are set by :func:`retranslate_actions` (and the ``retranslate_*``
helpers), not by the constructors: the window calls them again when the
language changes, so every menu, toolbar and the mode bar follow at once.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence, QUndoGroup
from PySide6.QtWidgets import QWidget

from studio.lint import PROFILES

StandardKey = QKeySequence.StandardKey


# lupdate extracts ``translate("Actions", "…")`` calls under this alias.
translate = QCoreApplication.translate


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
    shortcuts_help: QAction
    lint_profiles: tuple[QAction, ...]

    def editing(self) -> tuple[QAction, ...]:
        """Actions that change the draft (disabled for read-only versions)."""
        return (self.new_tool, self.duplicate_tool, self.delete_tool, self.save, self.publish)


def _action(parent: QWidget, name: str, shortcuts: list[QKeySequence] | None = None) -> QAction:
    action = QAction(parent)
    action.setObjectName(name)
    if shortcuts:
        action.setShortcuts(shortcuts)
    return action


def _set(action: QAction, text: str, tip: str = "") -> None:
    action.setText(text)
    if tip:
        action.setStatusTip(tip)
        action.setToolTip(tip)


def create_actions(parent: QWidget, undo_group: QUndoGroup) -> Actions:
    """Create the actions, parented to ``parent``.

    Args:
        parent: The main window; shortcuts work anywhere inside it.
        undo_group: Undo/Redo come from the group so their text names the
            step they undo ("Undo Edit summary") and follow the active registry.

    Return:
        The actions, texts set, not yet connected to anything.
    """
    undo = undo_group.createUndoAction(parent, translate("Actions", "Undo"))
    undo.setObjectName("undo")
    undo.setShortcuts([QKeySequence("Ctrl+Z")])
    redo = undo_group.createRedoAction(parent, translate("Actions", "Redo"))
    redo.setObjectName("redo")
    redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
    delete = _action(parent, "delete_tool", [QKeySequence(StandardKey.Delete)])
    # Del must keep deleting characters in the editor's fields: the window
    # adds this action to the tool list, and the shortcut only fires there.
    delete.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
    dark = _action(parent, "dark_theme")
    dark.setCheckable(True)
    profiles = QActionGroup(parent)
    profiles.setExclusive(True)
    lint_profiles = []
    for profile in PROFILES:
        action = _action(parent, f"lint_profile_{profile}")
        action.setCheckable(True)
        action.setData(profile)
        profiles.addAction(action)
        lint_profiles.append(action)
    actions = Actions(
        new_tool=_action(parent, "new_tool", [QKeySequence("Ctrl+N")]),
        duplicate_tool=_action(parent, "duplicate_tool", [QKeySequence("Ctrl+D")]),
        delete_tool=delete,
        save=_action(parent, "save", [QKeySequence("Ctrl+S")]),
        undo=undo,
        redo=redo,
        find=_action(parent, "find", [QKeySequence("Ctrl+F")]),
        publish=_action(parent, "publish"),
        open_version=_action(parent, "open_version"),
        back_to_draft=_action(parent, "back_to_draft"),
        dark_theme=dark,
        quit=_action(parent, "quit", [QKeySequence("Ctrl+Q")]),
        new_registry=_action(parent, "new_registry"),
        import_tools=_action(parent, "import_tools", [QKeySequence("Ctrl+I")]),
        import_mcp=_action(parent, "import_mcp"),
        check_mcp=_action(parent, "check_mcp"),
        export_registry=_action(parent, "export_registry", [QKeySequence("Ctrl+E")]),
        registry_settings=_action(parent, "registry_settings"),
        delete_registry=_action(parent, "delete_registry"),
        run_lint=_action(parent, "run_lint", [QKeySequence("Ctrl+Shift+L")]),
        next_problem=_action(parent, "next_problem", [QKeySequence("F8")]),
        previous_problem=_action(parent, "previous_problem", [QKeySequence("Shift+F8")]),
        shortcuts_help=_action(parent, "shortcuts_help", [QKeySequence("Ctrl+/")]),
        lint_profiles=tuple(lint_profiles),
    )
    retranslate_actions(actions)
    return actions


def retranslate_actions(a: Actions) -> None:
    """Set every text and tooltip of ``a`` in the current language."""
    # Undo/Redo texts come from the undo group ("Undo Edit summary"); only
    # their tooltips are ours.
    a.undo.setStatusTip(translate("Actions", "Undo the last change to the shown draft"))
    a.redo.setStatusTip(translate("Actions", "Redo the change undone last"))
    _set(
        a.new_tool,
        translate("Actions", "&New tool"),
        translate("Actions", "Add a new tool to the draft"),
    )
    _set(
        a.duplicate_tool,
        translate("Actions", "&Duplicate tool"),
        translate("Actions", "Copy the selected tool"),
    )
    _set(
        a.delete_tool,
        translate("Actions", "De&lete tool"),
        translate("Actions", "Delete the selected tool"),
    )
    _set(a.save, translate("Actions", "&Save"), translate("Actions", "Save the draft"))
    _set(a.find, translate("Actions", "&Find tool"), translate("Actions", "Filter the tool list"))
    _set(
        a.publish,
        translate("Actions", "&Publish…"),
        translate("Actions", "Publish the saved draft as a new immutable version"),
    )
    _set(
        a.open_version,
        translate("Actions", "&Open version…"),
        translate("Actions", "Open the selected published version read-only"),
    )
    _set(
        a.back_to_draft,
        translate("Actions", "&Back to draft"),
        translate("Actions", "Return to the editable draft"),
    )
    _set(
        a.dark_theme,
        translate("Actions", "&Dark theme"),
        translate("Actions", "Switch between the dark and the light theme"),
    )
    _set(a.quit, translate("Actions", "&Quit"), translate("Actions", "Close the studio"))
    _set(
        a.new_registry,
        translate("Actions", "New &registry…"),
        translate("Actions", "Create an empty registry"),
    )
    _set(
        a.import_tools,
        translate("Actions", "&Import…"),
        translate("Actions", "Import tools from a provider file or a registry folder"),
    )
    _set(
        a.import_mcp,
        translate("Actions", "Import from &MCP server…"),
        translate(
            "Actions", "Pull the tools a live MCP server lists (a command over stdio, or a URL)"
        ),
    )
    _set(
        a.check_mcp,
        translate("Actions", "&Check against MCP server…"),
        translate(
            "Actions", "Compare what the registry's live MCP server lists with a pinned version"
        ),
    )
    _set(
        a.export_registry,
        translate("Actions", "&Export…"),
        translate("Actions", "Export the shown draft or version to a file or folder"),
    )
    _set(
        a.registry_settings,
        translate("Actions", "Registry se&ttings…"),
        translate("Actions", "Title, description, verb vocabulary and description template"),
    )
    _set(
        a.delete_registry,
        translate("Actions", "Delete re&gistry…"),
        translate("Actions", "Delete a registry that has no published versions"),
    )
    _set(
        a.run_lint,
        translate("Actions", "&Run lint"),
        translate("Actions", "Lint the whole draft again"),
    )
    _set(
        a.next_problem,
        translate("Actions", "&Next problem"),
        translate("Actions", "Go to the next lint problem"),
    )
    _set(
        a.previous_problem,
        translate("Actions", "&Previous problem"),
        translate("Actions", "Go to the previous lint problem"),
    )
    _set(
        a.shortcuts_help,
        translate("Actions", "&Keyboard shortcuts"),
        translate("Actions", "Every keyboard shortcut of the studio"),
    )
    for action in a.lint_profiles:
        profile = str(action.data())
        _set(
            action,
            profile,
            translate("Actions", "Lint for the {profile} profile").format(profile=profile),
        )


def all_actions(a: Actions) -> list[QAction]:
    """Every action of ``a`` (the lint profiles included), in declaration order."""
    out: list[QAction] = []
    for field in fields(a):
        value = getattr(a, field.name)
        out.extend(value if isinstance(value, tuple) else [value])
    return out


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
    editor = _action(parent, "show_editor", [QKeySequence("Ctrl+1")])
    playground = _action(parent, "show_playground", [QKeySequence("Ctrl+2")])
    for action in (editor, playground):
        action.setCheckable(True)
    editor.setChecked(True)
    run = _action(parent, "run_prompt", [QKeySequence("Ctrl+Return")])
    stop = _action(parent, "stop_run", [QKeySequence("Esc")])
    for action in (run, stop):
        action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
    actions = PlaygroundActions(editor, playground, run, stop)
    retranslate_playground_actions(actions)
    return actions


def retranslate_playground_actions(pa: PlaygroundActions) -> None:
    _set(
        pa.show_editor,
        translate("Actions", "&Editor"),
        translate("Actions", "Edit the registry's tools"),
    )
    _set(
        pa.show_playground,
        translate("Actions", "&Playground"),
        translate("Actions", "Try the tools with a real model"),
    )
    _set(
        pa.run_prompt,
        translate("Actions", "&Run"),
        translate("Actions", "Send the prompt to the model"),
    )
    _set(
        pa.stop_run, translate("Actions", "&Stop"), translate("Actions", "Stop the run in progress")
    )


def create_release_action(parent: QWidget) -> QAction:
    """The Release mode (Ctrl+5): channels, rollout simulator and guard metrics."""
    action = _action(parent, "show_release", [QKeySequence("Ctrl+5")])
    action.setCheckable(True)
    retranslate_mode_action(action)
    return action


def create_sessions_action(parent: QWidget) -> QAction:
    """The Sessions mode (Ctrl+3): stored and imported sessions, replay and re-validation."""
    action = _action(parent, "show_sessions", [QKeySequence("Ctrl+3")])
    action.setCheckable(True)
    retranslate_mode_action(action)
    return action


def create_diff_action(parent: QWidget) -> QAction:
    """The Diff mode (Ctrl+4): compare the draft, versions and channels."""
    action = _action(parent, "show_diff", [QKeySequence("Ctrl+4")])
    action.setCheckable(True)
    retranslate_mode_action(action)
    return action


def retranslate_mode_action(action: QAction) -> None:
    """The text of the Sessions, Diff or Release mode action (by its object name)."""
    name = action.objectName()
    if name == "show_release":
        _set(
            action,
            translate("Actions", "&Release"),
            translate("Actions", "Gray release: channels, simulator, guard"),
        )
    elif name == "show_sessions":
        _set(
            action,
            translate("Actions", "&Sessions"),
            translate("Actions", "Browse, replay and re-validate sessions"),
        )
    elif name == "show_diff":
        _set(
            action,
            translate("Actions", "&Diff"),
            translate("Actions", "What changes between two versions"),
        )
