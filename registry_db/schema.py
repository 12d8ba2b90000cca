"""Database schema as a sequence of migrations (SQL run with plain ``sqlite3``).

Migrations are applied, in order, when a store is opened. Never edit an
applied migration: add a new function instead (channels, sessions and the
like will arrive that way).
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from registry_db.connection import write_transaction
from registry_db.migration_set import MigrationSet

if TYPE_CHECKING:
    from registry_db.migration_set import MigrationDb

migrations = MigrationSet("registry_db")


def _statements_migration(name: str, statements: tuple[str, ...]) -> None:
    """Register migration ``name`` as running ``statements`` in order.

    Most migrations are only DDL; this keeps each of them one line beside its
    SQL, so the file reads as the schema's history, not as the same loop again
    and again.
    """

    def run(db: MigrationDb) -> None:
        for statement in statements:
            db.execute(statement)

    migrations(name=name)(run)


_INITIAL = (
    # Small key/value facts about the database itself (e.g. whether the
    # examples were seeded, so deleting them does not bring them back).
    """CREATE TABLE meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    )""",
    """CREATE TABLE registries (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        title TEXT NOT NULL DEFAULT '',
        description TEXT NOT NULL DEFAULT '',
        settings_json TEXT NOT NULL,
        draft_revision INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    )""",
    # position is not UNIQUE: reordering would then need a detour through
    # temporary values. The store keeps positions dense (0..n-1) itself.
    """CREATE TABLE draft_tools (
        id INTEGER PRIMARY KEY,
        registry_id INTEGER NOT NULL REFERENCES registries(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        position INTEGER NOT NULL,
        revision INTEGER NOT NULL DEFAULT 1,
        document_json TEXT NOT NULL,
        canonical_json TEXT NOT NULL,
        content_hash TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        UNIQUE (registry_id, name)
    )""",
    "CREATE INDEX draft_tools_order ON draft_tools (registry_id, position)",
    # No ON DELETE CASCADE: a registry with versions must not be deletable,
    # and the triggers below would refuse the cascade anyway.
    """CREATE TABLE versions (
        id INTEGER PRIMARY KEY,
        registry_id INTEGER NOT NULL REFERENCES registries(id),
        number INTEGER NOT NULL,
        semver TEXT,
        parent_number INTEGER,
        content_hash TEXT NOT NULL,
        document TEXT NOT NULL,
        notes TEXT NOT NULL DEFAULT '',
        author TEXT NOT NULL,
        created_at TEXT NOT NULL,
        tool_count INTEGER NOT NULL,
        UNIQUE (registry_id, number)
    )""",
    """CREATE TRIGGER versions_no_update BEFORE UPDATE ON versions
    BEGIN
        SELECT RAISE(ABORT, 'versions are immutable');
    END""",
    """CREATE TRIGGER versions_no_delete BEFORE DELETE ON versions
    BEGIN
        SELECT RAISE(ABORT, 'versions are immutable');
    END""",
)


_statements_migration("0001_initial", _INITIAL)


_SESSIONS = (
    # Playground and recorded sessions. registry/version are names, not keys:
    # an imported session may refer to a registry this database does not hold.
    """CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        registry TEXT NOT NULL DEFAULT '',
        version TEXT NOT NULL DEFAULT '',
        profile TEXT NOT NULL DEFAULT '',
        title TEXT NOT NULL DEFAULT '',
        system TEXT NOT NULL DEFAULT '',
        context_json TEXT NOT NULL DEFAULT '{}',
        parent_session_id TEXT,
        parent_message_index INTEGER,
        status TEXT NOT NULL DEFAULT 'created',
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    )""",
    """CREATE TABLE messages (
        id INTEGER PRIMARY KEY,
        session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        idx INTEGER NOT NULL,
        run_id TEXT NOT NULL DEFAULT '',
        message_json TEXT NOT NULL,
        created_at TEXT NOT NULL,
        UNIQUE (session_id, idx)
    )""",
    """CREATE TABLE run_events (
        id INTEGER PRIMARY KEY,
        session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        run_id TEXT NOT NULL DEFAULT '',
        type TEXT NOT NULL,
        data_json TEXT NOT NULL,
        created_at TEXT NOT NULL,
        UNIQUE (session_id, seq)
    )""",
    # One row per tool call; feeds the guard metrics of gray release.
    """CREATE TABLE outcomes (
        id INTEGER PRIMARY KEY,
        session_id TEXT REFERENCES sessions(id) ON DELETE SET NULL,
        call_id TEXT NOT NULL DEFAULT '',
        registry TEXT NOT NULL,
        version TEXT NOT NULL,
        tool TEXT NOT NULL,
        status TEXT NOT NULL,
        error_code TEXT NOT NULL DEFAULT '',
        latency_ms REAL NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL
    )""",
    "CREATE INDEX outcomes_by_tool ON outcomes (registry, version, tool)",
    # Mock responses live beside the draft, never inside published versions.
    # tool = '' holds the registry's suggested session context.
    """CREATE TABLE mock_responses (
        id INTEGER PRIMARY KEY,
        registry_id INTEGER NOT NULL REFERENCES registries(id) ON DELETE CASCADE,
        tool TEXT NOT NULL,
        spec_json TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        UNIQUE (registry_id, tool)
    )""",
)


_statements_migration("0002_agent_runtime_sessions_outcomes_mocks", _SESSIONS)


# Model profiles for the playground and headless runs. The API key is never a
# column: it lives in the keyring or in the environment variable named here.
_MODEL_PROFILES = (
    """CREATE TABLE model_profiles (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL,
        base_url TEXT NOT NULL,
        model TEXT NOT NULL,
        api_key_env TEXT,
        params_json TEXT NOT NULL DEFAULT '{}',
        headers_json TEXT NOT NULL DEFAULT '{}',
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    )""",
)


_statements_migration("0003_model_profiles", _MODEL_PROFILES)


# Release channels (DESIGN §4, §7). The salt is drawn once per registry and
# channel and never changes, so a subject keeps its bucket across releases.
# channel_events is append-only: registry and channel are names (no foreign
# key), so nothing can cascade into it.
_CHANNELS = (
    """CREATE TABLE channels (
        id INTEGER PRIMARY KEY,
        registry_id INTEGER NOT NULL REFERENCES registries(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        version INTEGER,
        share INTEGER NOT NULL DEFAULT 0 CHECK (share BETWEEN 0 AND 100),
        salt TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        UNIQUE (registry_id, name),
        FOREIGN KEY (registry_id, version) REFERENCES versions (registry_id, number)
    )""",
    """CREATE TABLE channel_events (
        id INTEGER PRIMARY KEY,
        registry TEXT NOT NULL,
        channel TEXT NOT NULL,
        action TEXT NOT NULL,
        who TEXT NOT NULL,
        why TEXT NOT NULL DEFAULT '',
        before_json TEXT NOT NULL,
        after_json TEXT NOT NULL,
        created_at TEXT NOT NULL
    )""",
    "CREATE INDEX channel_events_by_channel ON channel_events (registry, channel, id)",
    """CREATE TRIGGER channel_events_no_update BEFORE UPDATE ON channel_events
    BEGIN
        SELECT RAISE(ABORT, 'channel events are append-only');
    END""",
    """CREATE TRIGGER channel_events_no_delete BEFORE DELETE ON channel_events
    BEGIN
        SELECT RAISE(ABORT, 'channel events are append-only');
    END""",
)


_statements_migration("0004_channels", _CHANNELS)


# Where a session came from (playground, import, replay), the tool definitions
# that came with an imported log, and list metadata (model, file, counts).
_SESSION_SOURCE = (
    "ALTER TABLE sessions ADD COLUMN source TEXT NOT NULL DEFAULT 'playground'",
    "ALTER TABLE sessions ADD COLUMN tools_json TEXT NOT NULL DEFAULT '[]'",
    "ALTER TABLE sessions ADD COLUMN meta_json TEXT NOT NULL DEFAULT '{}'",
    "CREATE INDEX sessions_by_source ON sessions (source, created_at)",
)


_statements_migration("0005_session_source_tools_meta", _SESSION_SOURCE)


# The review an author went through when publishing from the studio: the diff
# summary against the stable version and the breaking changes acknowledged.
# Nullable: the CLI and older versions publish without one. Adding a column
# does not touch the immutability triggers (they fire on UPDATE/DELETE only).
_VERSION_REVIEW = ("ALTER TABLE versions ADD COLUMN review_json TEXT",)


_statements_migration("0006_version_review", _VERSION_REVIEW)


# Playground executors per registry, beside the draft like mock_responses and
# never part of a published version: which executor each tool runs on and its
# HTTP target (URL/method/header/body templates, JSON). A tool's target is kept
# when it goes back to mock. Header values are templates: credentials are
# {env:NAME} references, read when a call is made (the repository refuses a
# literal one). executor_settings holds registry-wide settings: the allow-list.
_TOOL_EXECUTORS = (
    """CREATE TABLE tool_executors (
        id INTEGER PRIMARY KEY,
        registry_id INTEGER NOT NULL REFERENCES registries(id) ON DELETE CASCADE,
        tool TEXT NOT NULL,
        executor TEXT NOT NULL DEFAULT 'mock' CHECK (executor IN ('mock', 'http')),
        http_json TEXT,
        updated_at TEXT NOT NULL,
        UNIQUE (registry_id, tool)
    )""",
    """CREATE TABLE executor_settings (
        registry_id INTEGER PRIMARY KEY REFERENCES registries(id) ON DELETE CASCADE,
        allowed_base_urls_json TEXT NOT NULL DEFAULT '[]',
        updated_at TEXT NOT NULL
    )""",
)


_statements_migration("0007_tool_executors", _TOOL_EXECUTORS)


# Write intents in the outcomes (guard metrics: duplicate write attempts per
# 1,000 writes). risk tells writes from reads; duplicate_of names the earlier
# call of the same idempotency key that reached the tool ('' when none).
_OUTCOME_WRITE_INTENTS = (
    "ALTER TABLE outcomes ADD COLUMN risk TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE outcomes ADD COLUMN idempotency_key TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE outcomes ADD COLUMN duplicate_of TEXT NOT NULL DEFAULT ''",
)


_statements_migration("0008_outcome_write_intents", _OUTCOME_WRITE_INTENTS)


# Versions get a second hash covering everything they show: the document's
# stored bytes (authored key order, the property order a model reads) and the
# metadata (registry name, number, semver, notes, author, created_at, tool count,
# parent, content hash, review); see registry_db.versions.record_hash. New
# versions get it at publish.
# Versions published before this migration get it computed here from their
# rows as they are now: they are trusted at migration time (their documents are
# still checked against content_hash on every load; a row unreadable now keeps
# NULL and is refused when loaded). The immutability trigger is dropped for the
# one UPDATE and recreated as it was, in the migration's transaction.
_VERSIONS_NO_UPDATE = next(s for s in _INITIAL if "TRIGGER versions_no_update" in s)


@migrations(name="0009_version_record_hash")
def _version_record_hash(db: MigrationDb) -> None:
    conn = db.conn
    conn.execute("ALTER TABLE versions ADD COLUMN record_hash TEXT")
    rows = conn.execute(
        "SELECT v.id, r.name, v.number FROM versions v JOIN registries r ON r.id = v.registry_id"
    ).fetchall()
    if not rows:  # a new file: nothing to hash, and no contract model to import for it
        return
    from registry_db.versions import stored_record_hash

    conn.execute("DROP TRIGGER versions_no_update")
    for version_id, registry, number in rows:  # one document in memory at a time
        computed = stored_record_hash(conn, version_id, registry, number)
        if computed is not None:
            conn.execute("UPDATE versions SET record_hash = ? WHERE id = ?", (computed, version_id))
    conn.execute(_VERSIONS_NO_UPDATE)


# Eval sets per registry (studio.evals): each set's JSONL text exactly as
# imported or saved, so exporting it to ``evals/<set>.jsonl`` gives the same
# bytes. The cases are parsed (and validated) from it by studio.evals.
_EVAL_SETS = (
    """CREATE TABLE eval_sets (
        id INTEGER PRIMARY KEY,
        registry_id INTEGER NOT NULL REFERENCES registries(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        text TEXT NOT NULL,
        case_count INTEGER NOT NULL,
        sha256 TEXT NOT NULL,
        revision INTEGER NOT NULL DEFAULT 1,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        UNIQUE (registry_id, name)
    )""",
)


_statements_migration("0010_eval_sets", _EVAL_SETS)


# Eval runs (studio.evals.runner): one row per run, one per attempt (case ×
# variant × profile × repetition) written as it arrives, so a killed run resumes
# where it stopped; the attempt itself is its JSON (studio.evals.runs reads it).
# The response cache maps the SHA-256 of an exact provider request to the answer,
# so re-running an unchanged variant sends nothing.
_EVAL_RUNS = (
    """CREATE TABLE eval_runs (
        id TEXT PRIMARY KEY,
        registry_id INTEGER NOT NULL REFERENCES registries(id) ON DELETE CASCADE,
        set_name TEXT NOT NULL,
        config_json TEXT NOT NULL,
        status TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    )""",
    "CREATE INDEX eval_runs_registry ON eval_runs (registry_id, created_at)",
    """CREATE TABLE eval_attempts (
        run_id TEXT NOT NULL REFERENCES eval_runs(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        case_id TEXT NOT NULL,
        variant TEXT NOT NULL,
        profile TEXT NOT NULL,
        repetition INTEGER NOT NULL,
        status TEXT NOT NULL,
        attempt_json TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (run_id, case_id, variant, profile, repetition)
    )""",
    """CREATE TABLE eval_response_cache (
        key TEXT PRIMARY KEY,
        provider TEXT NOT NULL,
        model TEXT NOT NULL,
        response_json TEXT NOT NULL,
        created_at TEXT NOT NULL
    )""",
)


_statements_migration("0011_eval_runs", _EVAL_RUNS)


# Skills (SKILL.md packages) and remote agents (A2A Agent Cards) of a draft
# (issue #18, registry_db.skills): one row per item holding its registry-document
# JSON, so SKILL.md and the folder's files come back byte for byte. Tools keep
# draft_tools; a version holds all three in its document.
_SKILLS_AGENTS = (
    """CREATE TABLE draft_capabilities (
        id INTEGER PRIMARY KEY,
        registry_id INTEGER NOT NULL REFERENCES registries(id) ON DELETE CASCADE,
        kind TEXT NOT NULL CHECK (kind IN ('skill', 'agent')),
        name TEXT NOT NULL,
        position INTEGER NOT NULL,
        document_json TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        UNIQUE (registry_id, kind, name)
    )""",
)


_statements_migration("0013_skills_agents", _SKILLS_AGENTS)


def apply_migrations(conn: sqlite3.Connection) -> list[str]:
    """Apply pending migrations; safe when several processes open a new file at once.

    Args:
        conn: A connection from :func:`registry_db.connection.connect`.

    Return:
        The names of the migrations applied now (empty when up to date).
    """
    # Checking first keeps the common case (nothing to do) free of the write lock.
    if not migrations.pending_names(conn):
        return []
    # The whole run is one transaction holding the write lock: a second process
    # waits and then finds nothing pending instead of applying the same migration
    # twice, and a crash part-way leaves the file as it was (never half migrated).
    # It commits without waiting for the disk (WAL, synchronous=NORMAL): a killed
    # process loses nothing; an OS crash may lose the migration itself, which the
    # next open then applies again; the store's own writes keep full sync.
    previous = conn.execute("PRAGMA synchronous").fetchone()[0]
    conn.execute("PRAGMA synchronous = NORMAL")
    try:
        with write_transaction(conn):
            names = migrations.pending_names(conn)
            migrations.apply(conn)
    finally:
        conn.execute(f"PRAGMA synchronous = {int(previous)}")
    return names
