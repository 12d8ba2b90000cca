"""Where the database lives: a leaf module, so finding the file costs no storage imports.

``studio registries`` resolves the path before deciding whether it needs the full
store (migrations, seeding); keeping these few lines apart from
:mod:`registry_db.defaults` spares it sqlite-utils and the contract model.
"""

from __future__ import annotations

import os
from pathlib import Path

APP_NAME = "tool-registry-studio"
DB_FILENAME = "studio.sqlite3"
DB_ENV_VAR = "STUDIO_DB"


def default_db_path() -> Path:
    """The embedded database in the user's data directory (platform specific)."""
    import platformdirs  # only the default location needs it

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)) / DB_FILENAME


def resolve_db_path(arg: str | None) -> Path:
    """The database to open: ``arg`` (``--db``), else ``$STUDIO_DB``, else the default."""
    if arg:
        return Path(arg).expanduser()
    env = os.environ.get(DB_ENV_VAR)
    if env:
        return Path(env).expanduser()
    return default_db_path()
