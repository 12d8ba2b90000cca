"""The working copy of one registry's draft, edited through commands.

A :class:`DraftWorkspace` holds the tools of a draft in order, remembers what
each looked like when it was last loaded or saved, and turns the difference
into one ``save_draft`` call. It emits plain events that Qt models adapt
(``inserting``/``inserted``, ``removing``/``removed``, ``changed``, ``reset``,
``dirty``), in the style of napari's evented containers.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from registry_db import DeleteTool, RegistryStore, UpsertTool
from studio.contract import ContractError, Problem, parse_tool, tool_to_dict
from studio.contract.model import Registry, RegistrySettings, ToolContract
from studio.editing.edits import ToolEdit

Listener = Callable[..., None]
_keys = itertools.count(1)


class Emitter:
    """Minimal synchronous event emitter: ``emitter.connect("changed", fn)``."""

    def __init__(self) -> None:
        self._listeners: dict[str, list[Listener]] = {}

    def connect(self, event: str, fn: Listener) -> None:
        self._listeners.setdefault(event, []).append(fn)

    def disconnect(self, event: str, fn: Listener) -> None:
        if fn in self._listeners.get(event, []):
            self._listeners[event].remove(fn)

    def emit(self, event: str, *args: Any) -> None:
        for fn in list(self._listeners.get(event, [])):
            fn(*args)


@dataclass
class DraftEntry:
    """One tool of the working copy.

    Attributes:
        key: Stable identity inside this workspace (survives renames and undo).
        tool: The current contract.
        stored_id: Row id in the store; None until first saved.
        base_revision: Store revision this edit is based on.
        saved_tool: The contract as last loaded or saved (None: never saved).
        saved_position: Its position then.
    """

    tool: ToolContract
    key: int = field(default_factory=lambda: next(_keys))
    stored_id: int | None = None
    base_revision: int | None = None
    saved_tool: ToolContract | None = None
    saved_position: int | None = None


class RegistryCommand(Protocol):
    """A change to the workspace; ``do`` returns the command that undoes it."""

    @property
    def label(self) -> str: ...

    def do(self, ws: DraftWorkspace) -> RegistryCommand: ...


@dataclass(frozen=True)
class EditTool:
    """Apply a :class:`ToolEdit` to the tool with workspace key ``key``."""

    key: int
    edit: ToolEdit

    @property
    def label(self) -> str:
        return self.edit.label

    def do(self, ws: DraftWorkspace) -> EditTool:
        entry = ws.entry(self.key)
        new_tool, inverse = self.edit.apply(entry.tool)
        entry.tool = new_tool
        ws._track(entry)
        ws.events.emit("changed", ws.index_of(entry))
        ws.events.emit("dirty", ws.is_dirty)
        return EditTool(self.key, inverse)


@dataclass(frozen=True)
class InsertTool:
    """Insert an entry at ``index`` (a new tool, a duplicate, or an undone delete)."""

    index: int
    entry: DraftEntry
    text: str = "Add tool"

    @property
    def label(self) -> str:
        return self.text

    def do(self, ws: DraftWorkspace) -> RemoveTool:
        index = max(0, min(self.index, len(ws.entries)))
        ws.events.emit("inserting", index)
        ws.entries.insert(index, self.entry)
        ws.deleted = [d for d in ws.deleted if d.key != self.entry.key]
        ws._structure_changed()
        ws._track(self.entry)
        ws.events.emit("inserted", index)
        ws.events.emit("dirty", ws.is_dirty)
        return RemoveTool(self.entry.key, self.text.replace("Add", "Remove", 1))


@dataclass(frozen=True)
class RemoveTool:
    """Remove the tool with workspace key ``key``."""

    key: int
    text: str = "Delete tool"

    @property
    def label(self) -> str:
        return self.text

    def do(self, ws: DraftWorkspace) -> InsertTool:
        entry = ws.entry(self.key)
        index = ws.index_of(entry)
        ws.events.emit("removing", index)
        del ws.entries[index]
        if entry.stored_id is not None:
            ws.deleted.append(entry)
        ws._structure_changed()
        ws._changed.discard(entry.key)
        ws.events.emit("removed", index)
        ws.events.emit("dirty", ws.is_dirty)
        return InsertTool(index, entry, "Add tool" if self.text == "Delete tool" else self.text)


class SaveRefused(ValueError):
    """The working copy has problems that must be fixed before it is saved."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("; ".join(str(p) for p in problems[:5]))


class DraftWorkspace:
    """The editable working copy of a registry draft."""

    def __init__(
        self,
        name: str,
        title: str = "",
        description: str = "",
        settings: RegistrySettings | None = None,
        entries: Sequence[DraftEntry] = (),
        read_only_version: int | None = None,
    ) -> None:
        self.name = name
        self.title = title
        self.description = description
        self.settings = settings or RegistrySettings()
        self.entries: list[DraftEntry] = list(entries)
        self.deleted: list[DraftEntry] = []
        self.read_only_version = read_only_version
        self.events = Emitter()
        # Bookkeeping that keeps every command O(1) on registries of 10,000
        # tools: which entries differ from their saved contract, where each key
        # sits (rebuilt lazily after inserts and removes), and the saved order.
        self._changed: set[int] = set()
        self._positions: dict[int, int] | None = None
        self._saved_order: list[int] = []
        self._order_dirty = False
        self._saved_names: dict[str, int] | None = None
        """Saved tool name → key, built on the first save of an unmoved working copy."""
        self._reset_bookkeeping()

    # ------------------------------------------------------------------ loading

    @classmethod
    def load(cls, store: RegistryStore, name: str) -> DraftWorkspace:
        """The draft of registry ``name`` as stored now."""
        info = store.get_registry(name)
        entries = [
            DraftEntry(
                tool=d.tool,
                stored_id=d.id,
                base_revision=d.revision,
                saved_tool=d.tool,
                saved_position=i,
            )
            for i, d in enumerate(store.draft_tools(name))
        ]
        return cls(name, info.title, info.description, info.settings, entries)

    @classmethod
    def from_registry(cls, registry: Registry, *, read_only_version: int | None) -> DraftWorkspace:
        """A workspace over a registry document (e.g. a published version, read-only)."""
        entries = [
            DraftEntry(tool=t, saved_tool=t, saved_position=i) for i, t in enumerate(registry.tools)
        ]
        return cls(
            registry.name,
            registry.title,
            registry.description,
            registry.settings,
            entries,
            read_only_version=read_only_version,
        )

    # ------------------------------------------------------------------ queries

    @property
    def read_only(self) -> bool:
        return self.read_only_version is not None

    def _reset_bookkeeping(self) -> None:
        self._saved_names = None
        self._changed = {e.key for e in self.entries if e.saved_tool != e.tool}
        self._saved_order = [e.key for e in self.entries if e.saved_position is not None]
        self._positions = None
        self._order_dirty = self._saved_order != [e.key for e in self.entries]

    def _structure_changed(self) -> None:
        self._positions = None
        self._order_dirty = self._saved_order != [e.key for e in self.entries]

    def _track(self, entry: DraftEntry) -> None:
        if entry.saved_tool is None or entry.saved_tool != entry.tool:
            self._changed.add(entry.key)
        else:
            self._changed.discard(entry.key)

    def _position_map(self) -> dict[int, int]:
        if self._positions is None:
            self._positions = {e.key: i for i, e in enumerate(self.entries)}
        return self._positions

    def entry(self, key: int) -> DraftEntry:
        """The entry with workspace key ``key`` (KeyError when it is not here)."""
        index = self._position_map().get(key)
        if index is None:
            raise KeyError(f"no tool with key {key} in {self.name}")
        return self.entries[index]

    def index_of(self, entry: DraftEntry) -> int:
        """The row of ``entry`` in registry order."""
        return self._position_map()[entry.key]

    def registry(self) -> Registry:
        """The working copy as a registry document."""
        return Registry(
            self.name,
            self.title,
            self.description,
            self.settings,
            tuple(e.tool for e in self.entries),
        )

    def is_entry_dirty(self, entry: DraftEntry) -> bool:
        """True when ``entry`` has unsaved changes (content or position)."""
        if entry.key in self._changed:
            return True
        return self._order_dirty and entry.saved_position != self.index_of(entry)

    @property
    def is_dirty(self) -> bool:
        """True when anything differs from the last load or save."""
        return bool(self.deleted) or bool(self._changed) or self._order_dirty

    def unique_name(self, base: str) -> str:
        """``base``, or ``base_2``, ``base_3``… whichever no tool uses yet."""
        names = {e.tool.name for e in self.entries}
        if base not in names:
            return base
        for n in itertools.count(2):
            candidate = f"{base}_{n}"[:64]
            if candidate not in names:
                return candidate
        raise AssertionError("unreachable")

    def new_entry(self, tool: ToolContract) -> DraftEntry:
        """A fresh, unsaved entry for ``tool`` (name made unique)."""
        return DraftEntry(tool=dataclasses.replace(tool, name=self.unique_name(tool.name)))

    # ------------------------------------------------------------------ commands

    def run(self, command: RegistryCommand) -> RegistryCommand:
        """Apply ``command``; return its inverse."""
        if self.read_only:
            raise PermissionError(f"version {self.read_only_version} is published and read-only")
        return command.do(self)

    # ------------------------------------------------------------------ saving

    def problems(self) -> list[Problem]:
        """What stops the working copy from being saved (checked like an import)."""
        problems: list[Problem] = []
        if not self._order_dirty and not self.deleted and not self._changed_names_clash():
            # The saved tools, unique by name, minus nothing plus nothing: only
            # changed entries can have problems, so a save of one tool does not
            # re-walk 10,000 in Python.
            positions = self._position_map()
            for i in sorted(positions[key] for key in self._changed if key in positions):
                try:
                    parse_tool(tool_to_dict(self.entries[i].tool), f"tools[{i}]")
                except ContractError as exc:
                    problems.extend(exc.problems)
            return problems
        seen: dict[str, int] = {}
        for i, entry in enumerate(self.entries):
            path = f"tools[{i}]"
            if entry.key in self._changed:
                try:
                    parse_tool(tool_to_dict(entry.tool), path)
                except ContractError as exc:
                    problems.extend(exc.problems)
            name = entry.tool.name
            if name in seen:
                problems.append(
                    Problem(f"{path}.name", f"{name!r} is also the name of tools[{seen[name]}]")
                )
            seen.setdefault(name, i)
        return problems

    def _changed_names_clash(self) -> bool:
        """True when a changed entry may share its name with another entry.

        Only meaningful when the entries are the saved ones in the saved order:
        unchanged entries then keep their saved names, which the store keeps
        unique, so only a changed entry's name can collide.
        """
        if self._saved_names is None:
            self._saved_names = {
                e.saved_tool.name: e.key for e in self.entries if e.saved_tool is not None
            }
        positions = self._position_map()
        names: set[str] = set()
        for key in self._changed:
            if key not in positions:
                return True
            name = self.entries[positions[key]].tool.name
            holder = self._saved_names.get(name, key)
            if name in names or (holder != key and holder not in self._changed):
                return True
            names.add(name)
        return False

    def save(self, store: RegistryStore) -> None:
        """Write every change since the last load/save in one transaction.

        Raises:
            SaveRefused: the working copy has problems; nothing is written.
            registry_db.ConflictError: another window or process changed a tool
                this save would overwrite; nothing is written.
        """
        problems = self.problems()
        if problems:
            raise SaveRefused(problems)
        changes: list[UpsertTool | DeleteTool] = [
            DeleteTool(e.stored_id, e.base_revision or 0)
            for e in self.deleted
            if e.stored_id is not None
        ]
        positions = self._position_map()
        moved = (
            self._order_dirty
            or bool(self.deleted)
            or any(key not in positions for key in self._changed)
        )
        if moved:
            dirty = [
                (i, e)
                for i, e in enumerate(self.entries)
                if e.key in self._changed or e.saved_position != i
            ]
        else:
            # Same order as saved: every entry sits at its saved position, so
            # only the changed ones go to the store (O(changed), not O(tools)).
            dirty = sorted((positions[k], self.entries[positions[k]]) for k in self._changed)
            saved_names_before = {
                e.key: e.saved_tool.name for _, e in dirty if e.saved_tool is not None
            }
        changes.extend(
            UpsertTool(e.tool, e.stored_id, e.base_revision, position=i) for i, e in dirty
        )
        if not changes:
            return
        result = store.save_draft(self.name, changes)
        for (i, entry), saved in zip(dirty, result.tools, strict=True):
            entry.stored_id = saved.id
            entry.base_revision = saved.revision
            entry.saved_tool = entry.tool
            entry.saved_position = i
        self.deleted.clear()
        if moved:
            self._reset_bookkeeping()
        else:
            if self._saved_names is not None:
                for _, entry in dirty:
                    self._saved_names.pop(saved_names_before[entry.key], None)
                self._saved_names.update((e.tool.name, e.key) for _, e in dirty)
            self._changed.difference_update(e.key for _, e in dirty)
        self.events.emit("dirty", self.is_dirty)
