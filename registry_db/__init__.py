"""Storage of registries, drafts and published versions on SQLite (DESIGN §4).

Typical use::

    store = open_default_store()
    store.save_draft("travel-reimbursement", [UpsertTool(tool)])
    info = store.publish("travel-reimbursement", notes="first cut", semver="1.0.0")

The names below are loaded when first used (PEP 562): importing one leaf module
such as ``registry_db.paths`` or ``registry_db.connection`` must not pull in the
store, sqlite-utils and the contract model (``studio registries`` reads the file
with plain ``sqlite3``: :func:`registry_db.connection.read_registry_listing`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from studio.lazy_exports import LazyExports

if TYPE_CHECKING:
    from registry_db.defaults import load_examples, open_default_store, seed_examples
    from registry_db.errors import (
        AlreadyExistsError,
        ConflictError,
        DatabaseOpenError,
        DuplicateNameError,
        InvalidSemverError,
        NotFoundError,
        RegistryHasVersionsError,
        StoreError,
        TamperedVersionError,
    )
    from registry_db.models import (
        DeleteTool,
        DraftSaveResult,
        DraftTool,
        RegistryInfo,
        UpsertTool,
        Version,
        VersionInfo,
    )
    from registry_db.paths import default_db_path, resolve_db_path
    from registry_db.store import RegistryStore

_HOMES = {
    "registry_db.defaults": ("load_examples", "open_default_store", "seed_examples"),
    "registry_db.errors": (
        "AlreadyExistsError",
        "ConflictError",
        "DatabaseOpenError",
        "DuplicateNameError",
        "InvalidSemverError",
        "NotFoundError",
        "RegistryHasVersionsError",
        "StoreError",
        "TamperedVersionError",
    ),
    "registry_db.models": (
        "DeleteTool",
        "DraftSaveResult",
        "DraftTool",
        "RegistryInfo",
        "UpsertTool",
        "Version",
        "VersionInfo",
    ),
    "registry_db.paths": ("default_db_path", "resolve_db_path"),
    "registry_db.store": ("RegistryStore",),
}
_EXPORTS = LazyExports(__name__, _HOMES, globals())

__all__ = [
    "AlreadyExistsError",
    "ConflictError",
    "DatabaseOpenError",
    "DeleteTool",
    "DraftSaveResult",
    "DraftTool",
    "DuplicateNameError",
    "InvalidSemverError",
    "NotFoundError",
    "RegistryHasVersionsError",
    "RegistryInfo",
    "RegistryStore",
    "StoreError",
    "TamperedVersionError",
    "UpsertTool",
    "Version",
    "VersionInfo",
    "default_db_path",
    "load_examples",
    "open_default_store",
    "resolve_db_path",
    "seed_examples",
]


def __getattr__(name: str) -> Any:
    return _EXPORTS.load(name)


def __dir__() -> list[str]:
    return _EXPORTS.names(__all__)
