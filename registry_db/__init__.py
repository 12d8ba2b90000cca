"""Storage of registries, drafts and published versions on SQLite (DESIGN §4).

Typical use::

    store = open_default_store()
    store.save_draft("travel-reimbursement", [UpsertTool(tool)])
    info = store.publish("travel-reimbursement", notes="first cut", semver="1.0.0")
"""

from registry_db.defaults import (
    default_db_path,
    load_examples,
    open_default_store,
    resolve_db_path,
    seed_examples,
)
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
from registry_db.store import RegistryStore

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
