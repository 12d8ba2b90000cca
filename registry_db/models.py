"""Plain data the store hands out and accepts (no SQL, no Qt)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from studio.contract import Registry, RegistrySettings, ToolContract


@dataclass(frozen=True, slots=True)
class RegistryInfo:
    """A registry's metadata and counts, without its tools."""

    id: int
    name: str
    title: str
    description: str
    settings: RegistrySettings
    draft_revision: int
    """Bumped by every successful draft or metadata change."""
    tool_count: int
    version_count: int
    latest_version: int | None
    updated_at: str


@dataclass(frozen=True, slots=True)
class DraftTool:
    """One tool of a registry's working copy."""

    id: int
    position: int
    """0-based index in the registry's tool order."""
    revision: int
    """Bumped on every save of this tool; an edit must name the revision it was based on."""
    tool: ToolContract
    content_hash: str
    updated_at: str


@dataclass(frozen=True, slots=True)
class UpsertTool:
    """Insert a tool (``tool_id`` None) or overwrite draft tool ``tool_id``.

    Attributes:
        tool: The new contract (already parsed and checked by the caller).
        tool_id: The draft tool to overwrite, or None to insert a new one.
        base_revision: Required with ``tool_id``: the revision the edit started from.
        position: Move or insert at this 0-based index; None appends a new tool
            and keeps an existing one where it is.
    """

    tool: ToolContract
    tool_id: int | None = None
    base_revision: int | None = None
    position: int | None = None


@dataclass(frozen=True, slots=True)
class DeleteTool:
    """Delete draft tool ``tool_id``, provided it is still at ``base_revision``."""

    tool_id: int
    base_revision: int


@dataclass(frozen=True, slots=True)
class DraftSaveResult:
    """Outcome of a draft save.

    Attributes:
        draft_revision: The registry's draft revision after the save.
        tools: The upserted rows as stored, in the order of the upsert changes.
    """

    draft_revision: int
    tools: list[DraftTool]


@dataclass(frozen=True, slots=True)
class VersionInfo:
    """A published version, without its document."""

    number: int
    semver: str | None
    parent_number: int | None
    content_hash: str
    notes: str
    author: str
    created_at: str
    tool_count: int
    review: dict[str, Any] | None = field(default=None, compare=False)
    """What the author reviewed before publishing (diff summary, acknowledged
    breaking changes, who acknowledged); None for versions published without
    a review (the CLI, older databases). Treat as read-only."""


@dataclass(frozen=True, slots=True)
class Version:
    """A published version with its verified document.

    Attributes:
        info: Number, hash and the rest of the metadata.
        registry: The parsed registry document.
        document: The decoded canonical JSON document (treat as read-only).
    """

    info: VersionInfo
    registry: Registry
    document: dict[str, Any]
