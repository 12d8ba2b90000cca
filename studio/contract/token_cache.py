"""Exact token counts kept on disk, so the tokenizer loads only for a count that is missing.

Loading ``o200k_base`` costs more than a whole lint of a small registry (about
half a second of CPU and ~140 MB), and the same texts are counted again on
every run. Counts are stored by ``(encoding, sha256 of the exact text)`` in a
small SQLite file under the user cache directory (platformdirs), or where
``$STUDIO_TOKEN_CACHE`` points (``off`` disables it). A count depends only on
the encoding and the text, so an entry never goes stale.

The cache is best effort: a file that cannot be opened, read or written only
costs recounting (logged at debug level), never a failed count. New counts are
written in batches (every :data:`FLUSH_EVERY` and when the process exits, or on
:func:`TokenCache.flush`); several processes may share one file (WAL mode,
``INSERT OR IGNORE``).
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import os
import sqlite3
import threading
from pathlib import Path

from studio.logs import logger

ENV_VAR = "STUDIO_TOKEN_CACHE"
"""A path for the cache file, or ``off``."""

FILENAME = "token-counts.sqlite3"
FLUSH_EVERY = 2000
"""New counts held in memory before they are written."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS token_counts (
    encoding TEXT NOT NULL,
    digest BLOB NOT NULL,
    tokens INTEGER NOT NULL,
    PRIMARY KEY (encoding, digest)
) WITHOUT ROWID
"""


def digest(text: str) -> bytes:
    """The cache key of a text: SHA-256 of its UTF-8 bytes (lone surrogates kept as escapes)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()


def default_path() -> Path | None:
    """Where the cache lives: ``$STUDIO_TOKEN_CACHE``, else the user cache directory; None: off."""
    env = os.environ.get(ENV_VAR)
    if env is not None:
        return None if env.strip().lower() in ("", "off", "0", "none") else Path(env)
    import platformdirs

    return Path(platformdirs.user_cache_dir("tool-registry-studio", appauthor=False)) / FILENAME


class TokenCache:
    """Token counts by ``(encoding, digest)`` in one SQLite file; thread-safe, never raises.

    Args:
        path: The file (created with its folder on first use).
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        self._broken = False
        self._pending: dict[tuple[str, bytes], int] = {}

    def get(self, encoding: str, key: bytes) -> int | None:
        """The stored count, or None when it is missing (or the file is unusable)."""
        with self._lock:
            hit = self._pending.get((encoding, key))
            if hit is not None:
                return hit
            db = self._connect()
            if db is None:
                return None
            try:
                row = db.execute(
                    "SELECT tokens FROM token_counts WHERE encoding = ? AND digest = ?",
                    (encoding, key),
                ).fetchone()
            except sqlite3.Error as exc:
                self._give_up(exc)
                return None
        return None if row is None else int(row[0])

    def get_many(self, encoding: str, keys: list[bytes]) -> dict[bytes, int]:
        """The stored counts of ``keys`` (those missing left out), read in a few queries.

        One query per key costs a read transaction each (file locks, ~15 µs):
        a 2,000-tool lint asks for 6,000 counts.
        """
        found: dict[bytes, int] = {}
        with self._lock:
            for key in keys:
                hit = self._pending.get((encoding, key))
                if hit is not None:
                    found[key] = hit
            db = self._connect()
            if db is None:
                return found
            rest = [k for k in dict.fromkeys(keys) if k not in found]
            try:
                for start in range(0, len(rest), 500):
                    chunk = rest[start : start + 500]
                    marks = ",".join("?" * len(chunk))
                    rows = db.execute(
                        "SELECT digest, tokens FROM token_counts "
                        f"WHERE encoding = ? AND digest IN ({marks})",
                        (encoding, *chunk),
                    ).fetchall()
                    found.update((bytes(d), int(n)) for d, n in rows)
            except sqlite3.Error as exc:
                self._give_up(exc)
        return found

    def put(self, encoding: str, key: bytes, tokens: int) -> None:
        """Remember a count (written with the next flush)."""
        with self._lock:
            if self._broken:
                return
            self._pending[(encoding, key)] = tokens
            full = len(self._pending) >= FLUSH_EVERY
        if full:
            self.flush()

    def flush(self) -> None:
        """Write the counts remembered since the last flush."""
        with self._lock:
            if not self._pending:
                return
            rows = [(enc, key, n) for (enc, key), n in self._pending.items()]
            self._pending = {}
            db = self._connect()
            if db is None:
                return
            try:
                with db:
                    db.executemany(
                        "INSERT OR IGNORE INTO token_counts (encoding, digest, tokens) "
                        "VALUES (?, ?, ?)",
                        rows,
                    )
            except sqlite3.Error as exc:
                self._give_up(exc)

    def close(self) -> None:
        """Flush and close the file."""
        self.flush()
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    def _connect(self) -> sqlite3.Connection | None:
        if self._db is not None or self._broken:
            return self._db
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(self.path, timeout=2.0, check_same_thread=False)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute(_SCHEMA)
            db.commit()
        except (OSError, sqlite3.Error) as exc:
            self._give_up(exc)
            return None
        self._db = db
        return db

    def _give_up(self, exc: BaseException) -> None:
        logger(__name__).debug("token count cache %s is not usable: %s", self.path, exc)
        self._broken = True
        self._pending = {}
        if self._db is not None:
            with contextlib.suppress(sqlite3.Error):
                self._db.close()
            self._db = None


_UNSET = object()
_shared: TokenCache | None = None
_shared_env: object = _UNSET
"""The value of ``$STUDIO_TOKEN_CACHE`` the shared cache was made for."""
_shared_lock = threading.Lock()


def shared_cache() -> TokenCache | None:
    """The process's cache at :func:`default_path` (None when switched off); flushed at exit."""
    global _shared, _shared_env
    env = os.environ.get(ENV_VAR)
    if env == _shared_env:
        return _shared
    with _shared_lock:
        if env != _shared_env:
            if _shared is not None:
                _shared.close()
            elif _shared_env is _UNSET:
                atexit.register(_close_shared)
            path = default_path()
            _shared = None if path is None else TokenCache(path)
            _shared_env = env
        return _shared


def _close_shared() -> None:
    if _shared is not None:
        _shared.close()
