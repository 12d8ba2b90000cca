"""Errors raised by the registry store.

Every error is a :class:`StoreError` whose message is one line naming what
went wrong and where, so the UI and the CLI can show it as is.
"""

from __future__ import annotations


class StoreError(Exception):
    """Base class of everything the store raises on purpose."""


class DatabaseOpenError(StoreError):
    """The database file cannot be opened: not SQLite, damaged, a directory, unreadable.

    Attributes:
        path: The file that was to be opened.
        reason: Why, in a few words (SQLite's or the system's message).
    """

    def __init__(self, path: object, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"cannot open the database {path}: {reason}")


class NotFoundError(StoreError, LookupError):
    """A registry, tool or version does not exist."""


class AlreadyExistsError(StoreError):
    """A registry with that name exists already."""

    def __init__(self, name: str) -> None:
        self.name = name
        super().__init__(f"a registry named {name!r} already exists")


class ConflictError(StoreError):
    """Someone else changed what this edit was based on; nothing was written.

    Attributes:
        subject: What changed: a tool name, ``tool #12``, or ``registry <name>``.
        stored_revision: The revision now stored (None when it was deleted).
        base_revision: The revision the refused edit was based on.
        tool_id: The draft tool concerned, or None for registry-level conflicts.
    """

    def __init__(
        self,
        subject: str,
        *,
        stored_revision: int | None,
        base_revision: int | None,
        tool_id: int | None = None,
    ) -> None:
        self.subject = subject
        self.stored_revision = stored_revision
        self.base_revision = base_revision
        self.tool_id = tool_id
        if stored_revision is None:
            message = f"{subject} was deleted elsewhere; reload before saving"
        else:
            message = (
                f"{subject} was changed elsewhere (revision {stored_revision}, "
                f"your edit was based on {base_revision}); reload before saving"
            )
        super().__init__(message)


class DuplicateNameError(StoreError, ValueError):
    """Two draft tools of one registry would have the same name."""

    def __init__(self, registry: str, tool_name: str) -> None:
        self.registry = registry
        self.tool_name = tool_name
        super().__init__(f"{registry} would have two tools named {tool_name!r}")


class TamperedVersionError(StoreError):
    """A stored version no longer matches the hash recorded when it was published."""

    def __init__(self, registry: str, number: int, stored: str, computed: str) -> None:
        self.registry = registry
        self.number = number
        self.stored = stored
        self.computed = computed
        super().__init__(
            f"version {number} of {registry} failed its hash check: "
            f"stored {stored}, computed {computed}"
        )


class InvalidSemverError(StoreError, ValueError):
    """A semantic version is malformed or not greater than the previous one."""


class RegistryHasVersionsError(StoreError, ValueError):
    """A registry with published versions cannot be deleted (versions are immutable)."""

    def __init__(self, name: str, version_count: int) -> None:
        self.name = name
        self.version_count = version_count
        super().__init__(
            f"registry {name!r} has {version_count} published version(s) and cannot be deleted"
        )
