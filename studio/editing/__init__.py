"""Editing a registry draft through undoable commands."""

from typing import TYPE_CHECKING, Any

from studio.editing.edits import (
    ITEMS,
    MISSING,
    AddProperty,
    EditError,
    PropertyPath,
    RemoveProperty,
    RenameProperty,
    ReplaceTool,
    SetField,
    SetPropertyKey,
    SetRequired,
    ToolEdit,
    parent_schema,
    property_schema,
)

if TYPE_CHECKING:
    from studio.editing.workspace import (
        DraftEntry,
        DraftWorkspace,
        EditTool,
        Emitter,
        InsertTool,
        RegistryCommand,
        RemoveTool,
        SaveRefused,
    )

_WORKSPACE = frozenset(
    (
        "DraftEntry",
        "DraftWorkspace",
        "EditTool",
        "Emitter",
        "InsertTool",
        "RegistryCommand",
        "RemoveTool",
        "SaveRefused",
    )
)
"""Names of the workspace module, imported on first use: it opens the database
(registry_db), which the edits alone (used by the lint's quick fixes) do not need."""


def __getattr__(name: str) -> Any:
    if name in _WORKSPACE:
        from studio.editing import workspace

        return getattr(workspace, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "ITEMS",
    "MISSING",
    "AddProperty",
    "DraftEntry",
    "DraftWorkspace",
    "EditError",
    "EditTool",
    "Emitter",
    "InsertTool",
    "PropertyPath",
    "RegistryCommand",
    "RemoveProperty",
    "RemoveTool",
    "RenameProperty",
    "ReplaceTool",
    "SaveRefused",
    "SetField",
    "SetPropertyKey",
    "SetRequired",
    "ToolEdit",
    "parent_schema",
    "property_schema",
]
